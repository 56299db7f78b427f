//! The build cache of `run` and `build`: keyed by what is built, never by
//! the path a program is reached by; and `chess2rs cache path|list|clean`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

#[path = "support/child.rs"]
mod child;

/// A scratch directory for this test, emptied first.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("cache-tests")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `chess2rs ARGS` in `dir` with the cache at `cache` (cheap builds).
fn chess2rs(dir: &Path, args: &[&str], cache: &Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chess2rs"));
    command
        .current_dir(dir)
        .args(args)
        .env("CHESS2RS_CACHE_DIR", cache)
        .env("CHESS2RS_OPT_LEVEL", "0");
    child::run_with_input(&mut command, b"")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The cache's entries (directories named by their key).
fn entries(cache: &Path) -> Vec<PathBuf> {
    match std::fs::read_dir(cache) {
        Ok(listing) => listing
            .flatten()
            .map(|item| item.path())
            .filter(|path| path.is_dir())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// Prints `hi`, then fails at line 2: it reads a number from empty input.
const PROGRAM: &str = "1. \"hi\n2. a=K*,*\n";

#[test]
fn one_program_by_two_paths_and_a_copy_builds_once() {
    let root = scratch("paths");
    let cache = root.join("cache");
    let work = root.join("w");
    let elsewhere = root.join("elsewhere");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::write(work.join("loop.icp"), PROGRAM).unwrap();
    std::fs::write(elsewhere.join("copy.icp"), PROGRAM).unwrap();
    let absolute = work.join("loop.icp").display().to_string();
    let spellings = [
        (work.clone(), "loop.icp".to_string()),
        (elsewhere.clone(), "../w/loop.icp".to_string()),
        (root.clone(), absolute),
        (elsewhere.clone(), "copy.icp".to_string()),
    ];
    for (at, (dir, path)) in spellings.iter().enumerate() {
        let output = chess2rs(dir, &["run", path], &cache);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{path}: {stderr}");
        assert_eq!(text(&output.stdout), "hi\n", "{path}");
        assert_eq!(
            stderr.contains("Compiling"),
            at == 0,
            "{path}: only the first run builds: {stderr}"
        );
        // The runtime error names the program as this run spelled it, as
        // `interpret` does.
        assert!(
            stderr.contains(&format!("--> {path}:2:")),
            "{path}: {stderr}"
        );
        let interpreted = chess2rs(dir, &["interpret", path], &cache);
        assert_eq!(
            stderr
                .lines()
                .skip_while(|l| !l.starts_with("error"))
                .collect::<Vec<_>>(),
            text(&interpreted.stderr).lines().collect::<Vec<_>>(),
            "{path}"
        );
    }
    assert_eq!(entries(&cache).len(), 1, "{:?}", entries(&cache));
}

#[test]
fn build_by_two_paths_builds_once_and_names_the_file() {
    let root = scratch("build");
    let cache = root.join("cache");
    let work = root.join("w");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join("loop.icp"), PROGRAM).unwrap();
    let first = chess2rs(&work, &["build", "loop.icp", "-o", "a"], &cache);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    assert!(text(&first.stderr).contains("Compiling"));
    let second = chess2rs(&root, &["build", "w/loop.icp", "-o", "w/b"], &cache);
    assert_eq!(second.status.code(), Some(0), "{}", text(&second.stderr));
    assert!(
        !text(&second.stderr).contains("Compiling"),
        "{}",
        text(&second.stderr)
    );
    // The executable names its program file (it may run anywhere).
    let mut exe = Command::new(work.join("b"));
    let output = child::run_with_input(&mut exe, b"");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        text(&output.stderr).contains("--> loop.icp:2:"),
        "{}",
        text(&output.stderr)
    );
}

#[test]
fn cache_path_list_and_clean() {
    let root = scratch("verbs");
    let cache = root.join("cache");
    // No cache yet.
    let path = chess2rs(&root, &["cache", "path"], &cache);
    assert_eq!(text(&path.stdout), format!("{}\n", cache.display()));
    let empty = chess2rs(&root, &["cache", "list"], &cache);
    assert_eq!(empty.status.code(), Some(0));
    assert!(
        text(&empty.stdout).starts_with("no cached programs"),
        "{}",
        text(&empty.stdout)
    );
    // Two programs.
    std::fs::write(root.join("one.icp"), PROGRAM).unwrap();
    std::fs::write(root.join("two.icp"), "1. \"two\n").unwrap();
    for program in ["one.icp", "two.icp"] {
        let run = chess2rs(&root, &["run", program], &cache);
        assert!(run.status.code().is_some(), "{}", text(&run.stderr));
    }
    let list = text(&chess2rs(&root, &["cache", "list"], &cache).stdout);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 4, "header, two entries, total:\n{list}");
    assert!(
        lines[0].contains("SIZE") && lines[0].contains("LAST USED"),
        "{list}"
    );
    // Most recently used first, with its program, size and age.
    assert!(lines[1].ends_with("two.icp (InfChessPro)"), "{list}");
    assert!(lines[2].ends_with("one.icp (InfChessPro)"), "{list}");
    assert!(
        lines[1].contains("just now") && lines[1].contains("KiB"),
        "{list}"
    );
    assert!(lines[3].starts_with("2 entries ("), "{list}");
    // Running `one` again makes it the most recent.
    chess2rs(&root, &["run", "one.icp"], &cache);
    let list = text(&chess2rs(&root, &["cache", "list"], &cache).stdout);
    assert!(
        list.lines()
            .nth(1)
            .unwrap()
            .ends_with("one.icp (InfChessPro)"),
        "{list}"
    );

    // `--older-than` removes only what was not used for that long.
    let old = entries(&cache)
        .into_iter()
        .find(|entry| {
            std::fs::read_to_string(entry.join("program.name"))
                .unwrap()
                .starts_with("two")
        })
        .unwrap();
    let three_days_ago = SystemTime::now() - Duration::from_secs(3 * 86_400);
    std::fs::File::options()
        .append(true)
        .open(old.join("program.sha256"))
        .unwrap()
        .set_modified(three_days_ago)
        .unwrap();
    let list = text(&chess2rs(&root, &["cache", "list"], &cache).stdout);
    assert!(list.contains("3 days ago"), "{list}");
    let clean = chess2rs(&root, &["cache", "clean", "--older-than", "2"], &cache);
    assert_eq!(clean.status.code(), Some(0));
    assert!(
        text(&clean.stdout).starts_with("removed 1 entry ("),
        "{}",
        text(&clean.stdout)
    );
    assert_eq!(entries(&cache).len(), 1);
    assert!(!old.exists());

    // A file that is not an entry is left alone; every entry goes.
    std::fs::write(cache.join("notes.txt"), "mine").unwrap();
    let clean = chess2rs(&root, &["cache", "clean"], &cache);
    assert!(
        text(&clean.stdout).starts_with("removed 1 entry ("),
        "{}",
        text(&clean.stdout)
    );
    assert!(entries(&cache).is_empty());
    assert!(cache.join("notes.txt").exists());
    let list = text(&chess2rs(&root, &["cache", "list"], &cache).stdout);
    assert!(list.starts_with("no cached programs"), "{list}");
    // And the next run builds again.
    let run = chess2rs(&root, &["run", "one.icp"], &cache);
    assert!(
        text(&run.stderr).contains("Compiling"),
        "{}",
        text(&run.stderr)
    );
}
