//! `run`'s tiers: interpreting at once, switching to the compiled program
//! when it is ready. Whatever the step of the switch, the user sees the
//! bytes `interpret` prints: every golden program, with its input on a
//! pipe, switched after its first step, in its middle, at its last steps
//! (an error's line, the step limit) and at a random one, compared with
//! `interpret` byte for byte (stdout, stderr, exit code).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[path = "support/cache_entries.rs"]
#[allow(dead_code)]
mod cache_entries;
#[path = "support/child.rs"]
mod child;
#[path = "support/runtime_cache.rs"]
#[allow(dead_code)]
mod runtime_cache;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

/// A scratch directory for this test, emptied first.
fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("tier-tests")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `chess2rs ARGS` with `input` on stdin, the cache at `cache` (cheap
/// builds).
fn chess2rs(args: &[&str], input: &[u8], cache: &Path) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chess2rs"));
    command
        .args(args)
        .env("CHESS2RS_CACHE_DIR", cache)
        .env("CHESS2RS_OPT_LEVEL", "0");
    child::run_with_input(&mut command, input)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A golden program that compiles, its input and step limit.
struct Case {
    path: PathBuf,
    input: Vec<u8>,
    max_steps: Option<String>,
}

/// Every golden program that compiles (`.code` 2 marks one that does not).
fn golden_cases() -> Vec<Case> {
    let root = workspace().join("golden");
    let mut cases = Vec::new();
    for language in [
        "chesscode",
        "chessoteric",
        "finvara",
        "infchesspro",
        "examples",
    ] {
        let Ok(listing) = std::fs::read_dir(root.join(language)) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = listing.flatten().map(|item| item.path()).collect();
        paths.sort();
        for path in paths {
            let is_program = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| ["icp", "chc", "pgn", "btm", "fv"].contains(&e));
            let sibling = |suffix: &str| PathBuf::from(format!("{}{suffix}", path.display()));
            let code = std::fs::read_to_string(sibling(".code")).unwrap_or_default();
            if !is_program || code.trim() == "2" {
                continue;
            }
            cases.push(Case {
                input: std::fs::read(sibling(".in")).unwrap_or_default(),
                max_steps: std::fs::read_to_string(sibling(".steps"))
                    .ok()
                    .map(|steps| steps.trim().to_string()),
                path,
            });
        }
    }
    cases
}

/// The arguments of `verb` on `case` (its step limit included).
fn args_for<'a>(verb: &'a [&'a str], case: &'a Case) -> Vec<&'a str> {
    let mut args: Vec<&str> = verb.to_vec();
    if let Some(steps) = &case.max_steps {
        args.extend(["--max-steps", steps.as_str()]);
    }
    args.push(case.path.to_str().unwrap());
    args
}

/// How many steps the interpreter of `run` takes on `case` (it never
/// switches at step 0, and says so with `--verbose`).
fn interpreted_steps(case: &Case, cache: &Path) -> u64 {
    let out = chess2rs(
        &args_for(&["run", "--verbose", "--switch-after", "0"], case),
        &case.input,
        cache,
    );
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("Finished in the interpreter ("),
        "{}: {stderr}",
        case.path.display()
    );
    // `(T ms, N steps)`; a program of no steps says none.
    let Some(at) = stderr.find(" ms, ") else {
        return 0;
    };
    stderr[at + " ms, ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap()
}

#[test]
fn every_golden_program_prints_what_interpret_prints_whenever_the_switch_comes() {
    let cache = scratch("golden");
    let cases = golden_cases();
    assert!(cases.len() > 100, "{} cases", cases.len());
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::<String>::new());
    let switches = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for worker in 0..2u64 {
            let (cases, next, failures, switches, cache) =
                (&cases, &next, &failures, &switches, &cache);
            scope.spawn(move || {
                let mut seed = 0x9e37_79b9_7f4a_7c15_u64 ^ worker;
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = cases.get(index) else {
                        break;
                    };
                    let expected = chess2rs(&args_for(&["interpret"], case), &case.input, cache);
                    let steps = interpreted_steps(case, cache);
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let random = 1 + (seed >> 33) % steps.max(1);
                    let mut points = vec![1, steps / 2, steps.saturating_sub(1), steps, random];
                    points.retain(|&k| k >= 1);
                    points.sort_unstable();
                    points.dedup();
                    for k in points {
                        let k_text = k.to_string();
                        let out = chess2rs(
                            &args_for(&["run", "--switch-after", &k_text], case),
                            &case.input,
                            cache,
                        );
                        switches.fetch_add(1, Ordering::Relaxed);
                        let same = out.stdout == expected.stdout
                            && out.stderr == expected.stderr
                            && out.status.code() == expected.status.code();
                        if !same {
                            failures.lock().unwrap().push(format!(
                                "{} switched after step {k} of {steps}:\n  run: {:?} {:?} {:?}\n  interpret: {:?} {:?} {:?}",
                                case.path.display(),
                                out.status.code(),
                                text(&out.stdout),
                                text(&out.stderr),
                                expected.status.code(),
                                text(&expected.stdout),
                                text(&expected.stderr),
                            ));
                        }
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} of {} switches differ:\n{}",
        failures.len(),
        switches.load(Ordering::Relaxed),
        failures.join("\n")
    );
}

#[test]
fn a_quick_program_finishes_in_the_interpreter_and_stops_the_build() {
    let dir = scratch("quick");
    let cache = dir.join("cache");
    let program = dir.join("hi.icp");
    std::fs::write(&program, "1. \"hi\n").unwrap();
    let out = chess2rs(
        &["run", "--verbose", program.to_str().unwrap()],
        b"",
        &cache,
    );
    assert_eq!(text(&out.stdout), "hi\n");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("Finished in the interpreter"), "{stderr}");
    // The background build was stopped: it leaves no executable and, once
    // gone, no build directory.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    loop {
        let leftovers = cache_entries::items_in_entries(&cache, |name| {
            name.starts_with("build.") || name == "program"
        });
        if leftovers.is_empty() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "left behind: {leftovers:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn the_tiers_can_be_chosen() {
    let dir = scratch("chosen");
    let cache = runtime_cache::seeded(&dir.join("cache"), "0");
    let program = dir.join("hi.icp");
    std::fs::write(&program, "1. \"hi\n").unwrap();
    let path = program.to_str().unwrap();
    // The interpreter alone never compiles.
    let out = chess2rs(&["run", "--tier", "interpret", "-v", path], b"", &cache);
    assert_eq!(text(&out.stdout), "hi\n");
    assert!(
        !text(&out.stderr).contains("Compiling"),
        "{}",
        text(&out.stderr)
    );
    // The compiled tier waits for rustc; then auto finds it cached.
    let out = chess2rs(&["run", "--tier", "compiled", "-v", path], b"", &cache);
    assert_eq!(text(&out.stdout), "hi\n");
    assert!(
        text(&out.stderr).contains("Compiling"),
        "{}",
        text(&out.stderr)
    );
    let out = chess2rs(&["run", "-v", path], b"", &cache);
    assert_eq!(text(&out.stdout), "hi\n");
    assert!(text(&out.stderr).contains("Fresh"), "{}", text(&out.stderr));
}
