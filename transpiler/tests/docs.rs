//! The documentation stands alone: every relative link in README.md and
//! docs/ names a file of the repository, and nothing points outside it.

use std::path::{Path, PathBuf};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The markdown files to check: README.md, every crate's README and docs/.
fn documents() -> Vec<PathBuf> {
    let root = workspace();
    let mut files: Vec<PathBuf> = ["README.md", "CHANGELOG.md", "examples/README.md"]
        .iter()
        .chain(&[
            "runtime/README.md",
            "transpiler/README.md",
            "macros/README.md",
        ])
        .map(|f| root.join(f))
        .collect();
    for entry in std::fs::read_dir(root.join("docs")).unwrap().flatten() {
        if entry.path().extension().is_some_and(|e| e == "md") {
            files.push(entry.path());
        }
    }
    files
}

/// The targets of `[text](target)` links in `text`.
fn link_targets(text: &str) -> Vec<String> {
    let mut targets = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        if let Some(end) = after.find(')') {
            targets.push(after[..end].to_string());
        }
        rest = after;
    }
    targets
}

#[test]
fn every_link_resolves_inside_the_repository() {
    let mut broken = Vec::new();
    for file in documents() {
        let text = std::fs::read_to_string(&file).unwrap();
        assert!(
            !text.contains("../shared"),
            "{} points outside the repository",
            file.display()
        );
        for target in link_targets(&text) {
            if target.starts_with("http") || target.starts_with('#') {
                continue;
            }
            let path = target.split('#').next().unwrap_or_default();
            let resolved = file.parent().unwrap().join(path);
            if !resolved.exists() {
                broken.push(format!("{}: {target}", file.display()));
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_finder_finds_links() {
    assert_eq!(
        link_targets("see [a](docs/a.md) and [b](http://x) [c](#top)"),
        ["docs/a.md", "http://x", "#top"]
    );
}

/// The version a changelog's first `## [VERSION]` heading names.
fn newest_version(changelog: &str) -> Option<&str> {
    changelog
        .lines()
        .filter_map(|line| line.strip_prefix("## ["))
        .filter_map(|rest| rest.split_once(']').map(|(version, _)| version))
        .find(|version| *version != "Unreleased")
}

#[test]
fn the_changelog_names_the_crates_version() {
    let changelog = std::fs::read_to_string(workspace().join("CHANGELOG.md")).unwrap();
    assert_eq!(
        newest_version(&changelog),
        Some(env!("CARGO_PKG_VERSION")),
        "CHANGELOG.md's newest version heading must be the version in Cargo.toml"
    );
    assert_eq!(
        newest_version("# Changelog\n\n## [Unreleased]\n\n## [1.2.3] - 2027-01-01\n## [1.2.2]\n"),
        Some("1.2.3")
    );
    assert_eq!(newest_version("# Changelog\n"), None);
}

/// The repository paths written in backticks in `text` (`runtime/src/io.rs`,
/// `tests/cli.rs`): words with a `/` and a file extension of the
/// repository's kinds, without placeholders (`<language>`, `*`) and not
/// absolute, under the home directory or under `target/`.
fn backticked_paths(text: &str) -> Vec<&str> {
    const EXTENSIONS: [&str; 13] = [
        ".rs", ".md", ".py", ".sh", ".toml", ".icp", ".chc", ".fv", ".btm", ".pgn", ".out", ".in",
        ".json",
    ];
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| {
            word.contains('/')
                && EXTENSIONS.iter().any(|extension| word.ends_with(extension))
                && !word.contains(|c: char| c.is_whitespace() || "<>*{}$".contains(c))
                && !word.starts_with(['/', '~', '.'])
                && !word.starts_with("target/")
        })
        .collect()
}

/// Whether `path`, written in `document`, names a file: from the
/// workspace, the document's folder, a crate or a crate's `src/`.
fn names_a_file(path: &str, document: &Path) -> bool {
    let root = workspace();
    let mut bases = vec![root.clone(), document.parent().unwrap().to_path_buf()];
    for krate in [
        "transpiler",
        "runtime",
        "macros",
        "golden/corpus",
        "golden",
        "fuzz",
        "examples",
    ] {
        bases.push(root.join(krate));
        bases.push(root.join(krate).join("src"));
    }
    bases.iter().any(|base| base.join(path).exists())
}

/// The backticked paths of `documents` that name no file.
fn missing_paths(documents: &[(PathBuf, String)]) -> Vec<String> {
    let mut missing = Vec::new();
    for (file, text) in documents {
        for path in backticked_paths(text) {
            if !names_a_file(path, file) {
                missing.push(format!("{}: `{path}`", file.display()));
            }
        }
    }
    missing
}

#[test]
fn every_backticked_path_names_a_file_of_the_repository() {
    let documents: Vec<(PathBuf, String)> = documents()
        .into_iter()
        .map(|file| {
            let text = std::fs::read_to_string(&file).unwrap();
            (file, text)
        })
        .collect();
    let missing = missing_paths(&documents);
    assert!(
        missing.is_empty(),
        "paths named in the docs that are not in the tree:\n{}",
        missing.join("\n")
    );
}

#[test]
fn a_path_removed_from_the_tree_is_reported() {
    let readme = workspace().join("README.md");
    let text = "See `runtime/src/io.rs`, `tests/cli.rs`, `lang/chesscode/table.rs`, \
                `runtime/src/removed.rs` and `runtime/src/<language>.rs`."
        .to_string();
    assert_eq!(
        missing_paths(&[(readme.clone(), text)]),
        [format!("{}: `runtime/src/removed.rs`", readme.display())]
    );
}

/// The editors' files agree: the VS Code extension contributes a
/// TextMate grammar for each of its languages (the file is there, is
/// JSON, and names the scope the contribution does), and there is a Vim
/// syntax file for each.
#[test]
fn every_language_has_its_grammar_and_syntax_file() {
    let root = workspace().join("editors");
    let package: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("vscode/package.json")).unwrap())
            .unwrap();
    let languages = package["contributes"]["languages"].as_array().unwrap();
    let grammars = package["contributes"]["grammars"].as_array().unwrap();
    assert_eq!(languages.len(), 5);
    for language in languages {
        let id = language["id"].as_str().unwrap();
        let grammar = (grammars.iter())
            .find(|grammar| grammar["language"] == id)
            .unwrap_or_else(|| panic!("no grammar for {id}"));
        let path = root.join("vscode").join(grammar["path"].as_str().unwrap());
        let file: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        assert_eq!(
            file["scopeName"],
            grammar["scopeName"],
            "{}",
            path.display()
        );
        assert!(file["patterns"].as_array().is_some_and(|p| !p.is_empty()));
        let vim = root.join("vim/syntax").join(format!("{id}.vim"));
        let text = std::fs::read_to_string(&vim).unwrap();
        assert!(
            text.contains(&format!("let b:current_syntax = '{id}'")),
            "{}",
            vim.display()
        );
    }
}
