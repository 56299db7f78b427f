//! `run`'s tiers: interpreting at once, switching to the compiled program
//! when it is ready. Whatever the step of the switch, the user sees the
//! bytes `interpret` prints: the representative golden programs (every
//! language, input, a runtime error, a step limit, warnings: see
//! `support/golden_cases.rs`), with their input on a pipe, switched after
//! their first step, in their middle, at their last steps (an error's
//! line, the step limit) and at random ones, compared with `interpret`
//! byte for byte (stdout, stderr, exit code).
//!
//! Every golden program is switched, at hundreds of steps each, by
//! `golden/tests/golden.rs` (the interpreter stopped by `chess2rs::switch`,
//! the compiled program run again from the start with what it wrote
//! skipped), and `cli.rs` runs every golden program's executable with
//! `--discard-output`. The processes tested here — the background build,
//! the input replayed through a pipe, the executable's arguments, exit code
//! and stderr — differ between programs only by those features; a build
//! per golden program (160 rustc runs) took two minutes of CPU.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

#[path = "support/cache_entries.rs"]
#[allow(dead_code)]
mod cache_entries;
#[path = "support/child.rs"]
mod child;
#[path = "support/golden_cases.rs"]
mod golden_cases;
#[path = "support/runtime_cache.rs"]
#[allow(dead_code)]
mod runtime_cache;
#[path = "support/scratch.rs"]
mod scratch;
#[path = "support/text.rs"]
mod text;
use text::{assert_contains, text};

use golden_cases::{golden_cases, representatives, CaseFiles, Expected};

/// A scratch directory for this test, emptied first.
fn scratch(test: &str) -> PathBuf {
    scratch::scratch(Path::new("tier-tests").join(test))
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

/// The arguments of `verb` on `case` (its step limit included).
fn args_for(verb: &[&str], case: &CaseFiles, expected: &Expected) -> Vec<String> {
    let mut args: Vec<String> = verb.iter().map(|arg| arg.to_string()).collect();
    if let Some(steps) = expected.max_steps {
        args.extend(["--max-steps".to_string(), steps.to_string()]);
    }
    args.push(case.path.display().to_string());
    args
}

/// `chess2rs` with `args` on `case`'s input.
fn on_case(args: &[String], expected: &Expected, cache: &Path) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    chess2rs(&args, &expected.input, cache)
}

/// How many steps the interpreter of `run` takes on `case` (it never
/// switches at step 0, and says so with `--verbose`).
fn interpreted_steps(case: &CaseFiles, expected: &Expected, cache: &Path) -> u64 {
    let args = args_for(&["run", "--verbose", "--switch-after", "0"], case, expected);
    let out = on_case(&args, expected, cache);
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("Finished in the interpreter ("),
        "{}: {stderr}",
        case.name
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
fn representative_golden_programs_print_what_interpret_prints_whenever_the_switch_comes() {
    let cache = runtime_cache::seeded(&scratch("golden").join("cache"), "0");
    let cases = golden_cases();
    let cases = representatives(&cases);
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
                    let Some((case, expected)) = cases.get(index) else {
                        break;
                    };
                    let interpret = on_case(&args_for(&["interpret"], case, expected), expected, cache);
                    let steps = interpreted_steps(case, expected, cache);
                    let mut points = vec![1, steps / 2, steps.saturating_sub(1), steps];
                    for _ in 0..6 {
                        seed = seed
                            .wrapping_mul(6364136223846793005)
                            .wrapping_add(1442695040888963407);
                        points.push(1 + (seed >> 33) % steps.max(1));
                    }
                    points.retain(|&k| k >= 1);
                    points.sort_unstable();
                    points.dedup();
                    for k in points {
                        let k_text = k.to_string();
                        let args = args_for(&["run", "--switch-after", &k_text], case, expected);
                        let out = on_case(&args, expected, cache);
                        switches.fetch_add(1, Ordering::Relaxed);
                        let same = out.stdout == interpret.stdout
                            && out.stderr == interpret.stderr
                            && out.status.code() == interpret.status.code();
                        if !same {
                            failures.lock().unwrap().push(format!(
                                "{} switched after step {k} of {steps}:\n  run: {:?} {:?} {:?}\n  interpret: {:?} {:?} {:?}",
                                case.name,
                                out.status.code(),
                                text(&out.stdout),
                                text(&out.stderr),
                                interpret.status.code(),
                                text(&interpret.stdout),
                                text(&interpret.stderr),
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
    eprintln!(
        "{} switches of {}",
        switches.load(Ordering::Relaxed),
        cases
            .iter()
            .map(|(case, _)| case.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
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
    assert_contains(&stderr, "Finished in the interpreter");
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
    assert_contains(&text(&out.stderr), "Compiling");
    let out = chess2rs(&["run", "-v", path], b"", &cache);
    assert_eq!(text(&out.stdout), "hi\n");
    assert_contains(&text(&out.stderr), "Fresh");
}
