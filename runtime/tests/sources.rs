//! `SOURCES`, the runtime as text for `--standalone` files and the cached
//! runtime library, holds every file of `runtime/src` and nothing else:
//! a module added to the crate but not to the list would be missing from
//! every standalone program.

use std::collections::BTreeSet;
use std::path::Path;

/// The module names of the `.rs` files under `dir` (`fv/reach` for
/// `fv/reach.rs`, `fv` for `fv/mod.rs`, `lib` for `lib.rs`), with `prefix`
/// before them.
fn modules(dir: &Path, prefix: &str, found: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("runtime/src is readable") {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .expect("a file name in UTF-8")
            .to_string();
        if path.is_dir() {
            modules(&path, &format!("{prefix}{name}/"), found);
        } else if let Some(stem) = name.strip_suffix(".rs") {
            let module = if stem == "mod" {
                prefix.trim_end_matches('/').to_string()
            } else {
                format!("{prefix}{stem}")
            };
            found.insert(module);
        }
    }
}

/// The modules compiled only for tests, and how their parents declare
/// them: `SOURCES` leaves them out.
const TEST_ONLY: &[(&str, &str, &str)] = &[
    (
        "fv/hooks",
        "fv/mod.rs",
        "#[cfg(feature = \"test-hooks\")]\nmod hooks;",
    ),
    ("fv/testing", "fv/mod.rs", "#[cfg(test)]\nmod testing;"),
];

#[test]
fn sources_lists_every_file_of_the_crate_once() {
    let mut on_disk = BTreeSet::new();
    modules(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        "",
        &mut on_disk,
    );
    let listed: Vec<&str> = chess2rs_runtime::SOURCES
        .iter()
        .map(|(name, _)| *name)
        .collect();
    let listed_set: BTreeSet<String> = listed.iter().map(|name| name.to_string()).collect();
    assert_eq!(listed.len(), listed_set.len(), "a module listed twice");
    assert_eq!(listed.first(), Some(&"lib"), "lib.rs comes first");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (module, parent, declaration) in TEST_ONLY {
        let text = std::fs::read_to_string(src.join(parent)).expect("the parent exists");
        assert!(
            text.contains(declaration),
            "{module} is declared for tests only in {parent}"
        );
        assert!(on_disk.remove(*module), "{module} is a file of the crate");
    }
    let missing: Vec<&String> = on_disk.difference(&listed_set).collect();
    let extra: Vec<&String> = listed_set.difference(&on_disk).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "files not in SOURCES: {missing:?}; SOURCES entries with no file: {extra:?}"
    );
}

#[test]
fn each_entry_is_the_text_of_its_file() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    for (name, text) in chess2rs_runtime::SOURCES {
        let file = if src.join(name).is_dir() {
            src.join(name).join("mod.rs")
        } else {
            src.join(format!("{name}.rs"))
        };
        let on_disk = std::fs::read_to_string(&file).expect("the listed file exists");
        assert_eq!(&on_disk, text, "{name}");
    }
}
