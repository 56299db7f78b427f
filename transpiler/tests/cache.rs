//! The build cache of `run` and `build`: keyed by what is built, never by
//! the path a program is reached by; and `chess2rs cache path|list|clean`.
//!
//! Tests that are not about building the runtime library start with it in
//! the cache ([`runtime_cache::seed`], built once for all tests); those
//! about it start without (concurrent first runs) or build it again (for
//! another rustc, after damage).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::{Duration, SystemTime};

#[path = "support/child.rs"]
mod child;
#[path = "support/runtime_cache.rs"]
#[allow(dead_code)]
mod runtime_cache;
#[path = "support/scratch.rs"]
mod scratch;
#[path = "support/text.rs"]
mod text;
use runtime_cache::seed;
use text::{assert_contains, text};

/// A scratch directory for this test, emptied first.
fn scratch(test: &str) -> PathBuf {
    scratch::scratch(Path::new("cache-tests").join(test))
}

/// `chess2rs ARGS` in `dir` with the cache at `cache` (cheap builds).
fn chess2rs(dir: &Path, args: &[&str], cache: &Path) -> Output {
    chess2rs_with(dir, args, cache, &[])
}

/// [`chess2rs`] with more environment variables. `run` runs in its
/// compiled tier (these tests are about what is built and cached; the
/// tiers have `tiers.rs`).
fn chess2rs_with(dir: &Path, args: &[&str], cache: &Path, env: &[(&str, &Path)]) -> Output {
    let mut args = args.to_vec();
    if args.first() == Some(&"run") {
        args.insert(1, "--tier=compiled");
    }
    let mut command = Command::new(env!("CARGO_BIN_EXE_chess2rs"));
    command
        .current_dir(dir)
        .args(&args)
        .env("CHESS2RS_CACHE_DIR", cache)
        .env("CHESS2RS_OPT_LEVEL", "0");
    for (name, value) in env {
        command.env(name, value);
    }
    child::run_with_input(&mut command, b"")
}

/// The cache's entries (directories named by their key) holding `artifact`.
fn entries_with(cache: &Path, artifact: &str) -> Vec<PathBuf> {
    match std::fs::read_dir(cache) {
        Ok(listing) => listing
            .flatten()
            .map(|item| item.path())
            .filter(|path| path.join(artifact).is_file())
            .collect(),
        Err(_) => Vec::new(),
    }
}

/// The cache's program executables.
fn entries(cache: &Path) -> Vec<PathBuf> {
    entries_with(cache, "program")
}

/// The cache's runtime libraries.
fn runtimes(cache: &Path) -> Vec<PathBuf> {
    entries_with(cache, "libchess2rs_runtime.rlib")
}

/// A test's directory (`scratch(test)`), its build cache, and a
/// [`logging_rustc`] with its log: `(root, cache, log, rustc)`.
fn logged(test: &str) -> (PathBuf, PathBuf, PathBuf, PathBuf) {
    let root = scratch(test);
    let log = root.join("rustc.log");
    let rustc = logging_rustc(&root, &log, false);
    (root.clone(), root.join("cache"), log, rustc)
}

/// A `rustc` that logs each command line (one line each) to `log` and
/// runs the real one; with `other_identity`, its `-vV` says it is
/// another rustc.
fn logging_rustc(dir: &Path, log: &Path, other_identity: bool) -> PathBuf {
    let script = dir.join(if other_identity {
        "other-rustc"
    } else {
        "rustc"
    });
    let identity = if other_identity {
        "if [ \"$1\" = -vV ]; then rustc -vV; echo 'chess2rs-test: another rustc'; exit 0; fi\n"
    } else {
        ""
    };
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\n{identity}exec rustc \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    script
}

/// The lines of a [`logging_rustc`] log: (identity queries, runtime
/// builds, program builds).
fn rustc_calls(log: &Path) -> (usize, usize, usize) {
    let log = std::fs::read_to_string(log).unwrap_or_default();
    let count = |what: &str| log.lines().filter(|line| line.contains(what)).count();
    (
        count("-vV"),
        count("--crate-type rlib"),
        count("--crate-type bin"),
    )
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
    seed(&cache, "0");
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
    assert_eq!(runtimes(&cache).len(), 1, "{:?}", runtimes(&cache));
}

#[test]
fn build_by_two_paths_builds_once_and_names_the_file() {
    let root = scratch("build");
    let cache = root.join("cache");
    seed(&cache, "0");
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
    assert_contains(&text(&output.stderr), "--> loop.icp:2:");
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
    // Two programs (and the runtime library they link).
    seed(&cache, "0");
    std::fs::write(root.join("one.icp"), PROGRAM).unwrap();
    std::fs::write(root.join("two.icp"), "1. \"two\n").unwrap();
    for program in ["one.icp", "two.icp"] {
        let run = chess2rs(&root, &["run", program], &cache);
        assert!(run.status.code().is_some(), "{}", text(&run.stderr));
    }
    let list = text(&chess2rs(&root, &["cache", "list"], &cache).stdout);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(
        lines.len(),
        5,
        "header, two programs, the runtime, total:\n{list}"
    );
    assert!(
        lines[0].contains("KIND") && lines[0].contains("SIZE") && lines[0].contains("LAST USED"),
        "{list}"
    );
    // Most recently used first, with its kind, program, size and age (the
    // runtime was last used by the build of `two`).
    let programs: Vec<&str> = lines[1..4]
        .iter()
        .copied()
        .filter(|line| line.contains(" executable "))
        .collect();
    assert_eq!(programs.len(), 2, "{list}");
    assert!(programs[0].ends_with("two.icp (InfChessPro)"), "{list}");
    assert!(programs[1].ends_with("one.icp (InfChessPro)"), "{list}");
    assert!(
        lines[1..4]
            .iter()
            .any(|line| line.contains(" runtime ") && line.contains("chess2rs-runtime")),
        "{list}"
    );
    assert!(
        lines[1].contains("just now") && lines[1].contains("KiB"),
        "{list}"
    );
    assert!(lines[4].starts_with("3 entries ("), "{list}");
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
            std::fs::read_to_string(entry.join("entry.txt"))
                .unwrap()
                .contains("two.icp")
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
    assert_contains(&list, "3 days ago");
    let clean = chess2rs(&root, &["cache", "clean", "--older-than", "2"], &cache);
    assert_eq!(clean.status.code(), Some(0));
    assert!(
        text(&clean.stdout).starts_with("removed 1 entry ("),
        "{}",
        text(&clean.stdout)
    );
    assert_eq!(entries(&cache).len(), 1);
    assert_eq!(runtimes(&cache).len(), 1, "the runtime was used just now");
    assert!(!old.exists());

    // A file that is not an entry is left alone; every entry goes.
    std::fs::write(cache.join("notes.txt"), "mine").unwrap();
    let clean = chess2rs(&root, &["cache", "clean"], &cache);
    assert!(
        text(&clean.stdout).starts_with("removed 2 entries ("),
        "{}",
        text(&clean.stdout)
    );
    assert!(entries(&cache).is_empty());
    assert!(runtimes(&cache).is_empty());
    assert!(!cache.join("toolchains").exists());
    assert!(cache.join("notes.txt").exists());
    let list = text(&chess2rs(&root, &["cache", "list"], &cache).stdout);
    assert!(list.starts_with("no cached programs"), "{list}");
    // And the next run builds the program again (given the runtime, which
    // `a_damaged_runtime_is_built_again` and the first runs build).
    seed(&cache, "0");
    let run = chess2rs(&root, &["run", "one.icp"], &cache);
    assert_contains(&text(&run.stderr), "Compiling");
}

#[test]
fn a_cache_hit_neither_generates_code_nor_asks_rustc() {
    let (root, cache, log, rustc) = logged("hit");
    std::fs::write(root.join("one.icp"), PROGRAM).unwrap();
    seed(&cache, "0");
    let env = [("RUSTC", rustc.as_path())];
    let first = chess2rs_with(&root, &["run", "--verbose", "one.icp"], &cache, &env);
    let stderr = text(&first.stderr);
    assert_contains(&stderr, "Generated");
    // The runtime put there is this rustc's: found by its key.
    assert!(
        !stderr.contains("Compiling the chess2rs runtime"),
        "{stderr}"
    );
    assert_eq!(rustc_calls(&log), (1, 0, 1));
    for _ in 0..2 {
        let again = chess2rs_with(&root, &["run", "--verbose", "one.icp"], &cache, &env);
        let stderr = text(&again.stderr);
        assert_eq!(again.status.code(), Some(1), "{stderr}");
        assert_eq!(text(&again.stdout), "hi\n");
        assert_contains(&stderr, "Fresh one.icp");
        assert!(
            !stderr.contains("Generated"),
            "a hit generated code: {stderr}"
        );
        // rustc's identity is remembered: no `rustc -vV` either.
        assert_eq!(rustc_calls(&log), (1, 0, 1));
    }
}

#[test]
fn build_after_run_and_run_after_build_do_not_call_rustc() {
    let (root, cache, log, rustc) = logged("run-build");
    let env = [("RUSTC", rustc.as_path())];
    std::fs::write(root.join("one.icp"), PROGRAM).unwrap();
    std::fs::write(root.join("two.icp"), "1. \"two\n").unwrap();
    seed(&cache, "0");
    // run, then build.
    chess2rs_with(&root, &["run", "one.icp"], &cache, &env);
    assert_eq!(rustc_calls(&log).2, 1);
    let built = chess2rs_with(&root, &["build", "one.icp", "-o", "one"], &cache, &env);
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    assert_eq!(rustc_calls(&log).2, 1, "build after run called rustc");
    // build, then run.
    let built = chess2rs_with(&root, &["build", "two.icp", "-o", "two"], &cache, &env);
    assert_eq!(built.status.code(), Some(0), "{}", text(&built.stderr));
    assert_eq!(rustc_calls(&log).2, 2);
    let run = chess2rs_with(&root, &["run", "two.icp"], &cache, &env);
    assert_eq!(text(&run.stdout), "two\n");
    assert_eq!(rustc_calls(&log).2, 2, "run after build called rustc");
    // One entry per program, whichever verb made it; one runtime.
    assert_eq!(entries(&cache).len(), 2, "{:?}", entries(&cache));
    assert_eq!(runtimes(&cache).len(), 1);
    // The built executables name their program files, though built from
    // the same entries as `run`'s.
    let mut exe = Command::new(root.join("one"));
    let output = child::run_with_input(&mut exe, b"");
    assert_contains(&text(&output.stderr), "--> one.icp:2:");
    let version = child::run_with_input(Command::new(root.join("two")).arg("--version"), b"");
    assert_contains(&text(&version.stdout), "program `two.icp`");
}

#[test]
fn the_runtime_is_built_once_under_concurrent_first_runs() {
    let (root, cache, log, rustc) = logged("concurrent");
    let programs: Vec<String> = (0..3).map(|i| format!("p{i}.icp")).collect();
    for (i, name) in programs.iter().enumerate() {
        std::fs::write(root.join(name), format!("1. \"program {i}\n")).unwrap();
    }
    let runs: Vec<_> = programs
        .iter()
        .map(|name| {
            let (root, cache, rustc, name) =
                (root.clone(), cache.clone(), rustc.clone(), name.clone());
            std::thread::spawn(move || {
                chess2rs_with(
                    &root,
                    &["run", &name],
                    &cache,
                    &[("RUSTC", rustc.as_path())],
                )
            })
        })
        .collect();
    for (i, run) in runs.into_iter().enumerate() {
        let output = run.join().unwrap();
        assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
        assert_eq!(text(&output.stdout), format!("program {i}\n"));
    }
    let (_, runtime_builds, program_builds) = rustc_calls(&log);
    assert_eq!(
        runtime_builds,
        1,
        "{}",
        std::fs::read_to_string(&log).unwrap()
    );
    assert_eq!(program_builds, 3);
    assert_eq!(runtimes(&cache).len(), 1);
}

#[test]
fn a_runtime_of_another_rustc_is_not_used() {
    let (root, cache, log, rustc) = logged("other-rustc");
    let other = logging_rustc(&root, &log, true);
    std::fs::write(root.join("one.icp"), PROGRAM).unwrap();
    let run_one =
        |rustc: &Path| chess2rs_with(&root, &["run", "one.icp"], &cache, &[("RUSTC", rustc)]);
    // The first rustc's runtime is there.
    seed(&cache, "0");
    run_one(&rustc);
    assert_eq!(rustc_calls(&log), (1, 0, 1));
    // Another rustc (its -vV differs): its own runtime and executable.
    let run = run_one(&other);
    assert_eq!(text(&run.stdout), "hi\n", "{}", text(&run.stderr));
    assert_eq!(rustc_calls(&log), (2, 1, 2));
    assert_eq!(runtimes(&cache).len(), 2);
    assert_eq!(entries(&cache).len(), 2);
    // And the first one's are still found by the first.
    run_one(&rustc);
    assert_eq!(rustc_calls(&log), (2, 1, 2));
}

#[test]
fn a_damaged_runtime_is_built_again() {
    let (root, cache, log, rustc) = logged("damaged-runtime");
    let env = [("RUSTC", rustc.as_path())];
    std::fs::write(root.join("first.icp"), "1. \"first\n").unwrap();
    seed(&cache, "0");
    chess2rs_with(&root, &["run", "first.icp"], &cache, &env);
    assert_eq!(rustc_calls(&log).1, 0, "the runtime put there is used");
    type Damage = fn(&mut Vec<u8>);
    let damages: [(&str, Damage); 3] = [
        ("truncated", |bytes| bytes.truncate(bytes.len() / 2)),
        ("corrupted", |bytes| {
            let middle = bytes.len() / 2;
            bytes[middle] ^= 0x55;
        }),
        ("emptied", |bytes| bytes.clear()),
    ];
    for (round, (damage, apply)) in damages.iter().enumerate() {
        let rlib = runtimes(&cache)[0].join("libchess2rs_runtime.rlib");
        let mut bytes = std::fs::read(&rlib).unwrap();
        apply(&mut bytes);
        std::fs::write(&rlib, bytes).unwrap();
        // A new program, so that it needs the runtime.
        let name = format!("{damage}.icp");
        std::fs::write(root.join(&name), format!("1. \"{damage}\n")).unwrap();
        let run = chess2rs_with(&root, &["run", &name], &cache, &env);
        assert_eq!(
            run.status.code(),
            Some(0),
            "{damage}: {}",
            text(&run.stderr)
        );
        assert_eq!(text(&run.stdout), format!("{damage}\n"));
        assert_eq!(
            rustc_calls(&log).1,
            round + 1,
            "{damage}: the runtime was not rebuilt"
        );
    }
}

/// `run` and `build` execute what they find in the cache, so they refuse
/// a cache that someone else could have written into (as ssh refuses a
/// key directory others can write), before anything is built or run.
#[cfg(unix)]
#[test]
fn a_cache_others_could_write_into_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("untrusted_cache");
    std::fs::write(dir.join("p.icp"), "1. \"hi\n").unwrap();
    let mode = |path: &Path, mode: u32| {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap()
    };
    let refused = |cache: &Path, why: &str| {
        for args in [&["run", "p.icp"][..], &["build", "p.icp", "-o", "p"]] {
            let output = chess2rs(&dir, args, cache);
            let stderr = text(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
            assert!(stderr.contains(why), "{args:?}: {stderr}");
            assert_contains(&stderr, "CHESS2RS_CACHE_DIR");
            assert!(entries(cache).is_empty() && runtimes(cache).is_empty());
        }
    };
    // Writable by all, or by the group.
    let cache = dir.join("open");
    std::fs::create_dir(&cache).unwrap();
    mode(&cache, 0o777);
    refused(
        &cache,
        "the build cache is writable by other users (mode 0777)",
    );
    mode(&cache, 0o775);
    refused(&cache, "(mode 0775)");
    // A directory above it that others may write into (and rename the
    // cache away), unless it has the sticky bit, as /tmp has.
    let shared = dir.join("shared");
    let cache = shared.join("cache");
    std::fs::create_dir_all(&cache).unwrap();
    mode(&shared, 0o777);
    refused(&cache, "above the build cache, is writable by other users");
    // Accepted caches go on to look for rustc (here one that is not
    // there, so that nothing is built).
    let no_rustc = dir.join("no-rustc");
    let accepted = |cache: &Path| {
        let output = chess2rs_with(&dir, &["run", "p.icp"], cache, &[("RUSTC", &no_rustc)]);
        let stderr = text(&output.stderr);
        assert_contains(&stderr, "cannot run rustc");
        assert!(!stderr.contains("CHESS2RS_CACHE_DIR"), "{stderr}");
    };
    mode(&shared, 0o1777);
    accepted(&cache);
    // A cache that does not exist yet is made private.
    let new = dir.join("new").join("cache");
    accepted(&new);
    let made = std::fs::metadata(&new).unwrap().permissions().mode();
    assert_eq!(made & 0o777, 0o700);
    // Another user's cache (only root can make one here).
    let theirs = dir.join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    if std::os::unix::fs::chown(&theirs, Some(65534), None).is_ok() {
        refused(
            &theirs,
            "the build cache belongs to another user (uid 65534)",
        );
    }
}
