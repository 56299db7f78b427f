//! `run`'s tiers. A program that is not compiled yet is interpreted at
//! once, while a background process (`chess2rs tier-build`, hidden)
//! compiles it into the cache. If the interpreter finishes first, that is
//! the run. If the compiled program is ready first, the interpreter stops
//! between two steps and the compiled program takes over: it runs the
//! program again from the start on the same input (the bytes the
//! interpreter consumed, replayed, then the rest of stdin), with the same
//! limits, and drops the output the interpreter already wrote. Interpreter
//! and compiled code agree step for step (the golden and property tests),
//! so the user sees exactly what `interpret` prints, sooner.
//!
//! The background build stops when `run` no longer wants it: when `run`
//! ends before it, it is kept going (to fill the cache) only if the
//! interpreter ran for [`KEEP_BUILDING_AFTER`] or longer; a `run` that dies
//! (Ctrl-C, `kill`) closes its end of the pipe, and the build stops and
//! removes its unfinished files.

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use super::args::{RunArgs, TierBuildArgs};
use super::build::{executable_of, exit_code_of, run_executable, Ui};
use super::interpret::exit_code;
use super::interrupt::{self, Stopped};
use super::report::Reporter;
use super::{CliResult, Failure, Loaded};
use crate::switch::{interpret_until, Interpreted};
use crate::{Program, Source};

/// A run whose interpreter took at least this long lets the background
/// build finish (the next run starts compiled); a shorter one stops it
/// (interpreting such a program is as quick as running it compiled).
pub(super) const KEEP_BUILDING_AFTER: Duration = Duration::from_millis(100);

/// What the background build says on its stdout when it ends.
enum Built {
    /// The executable, in the cache.
    Ready(PathBuf),
    /// Why there is none.
    Failed(String),
}

/// Runs `program` (checked from `loaded`) in the tiers: interpreting at
/// once, switching to the compiled program when it is ready (or, with
/// `--switch-after K`, after exactly K steps). Returns the exit code.
pub(super) fn run_tiered(
    args: &RunArgs,
    loaded: &Loaded,
    program: &Program,
    reporter: &Reporter,
) -> CliResult<u8> {
    let started = Instant::now();
    let options = args.limits.options();
    let (mut builder, builder_stdin) = spawn_builder(loaded)?;
    let ready = Arc::new(AtomicBool::new(false));
    let (built_tx, built_rx) = mpsc::channel::<Built>();
    let stdout_of_builder = builder.stdout.take();
    let quiet = args.quiet;
    let watcher = {
        let ready = Arc::clone(&ready);
        let reporter = reporter.clone();
        std::thread::spawn(move || {
            let built = read_builder(stdout_of_builder);
            let _ = builder.wait();
            match &built {
                Built::Ready(_) => ready.store(true, Ordering::Release),
                Built::Failed(why) if !quiet => reporter.note(&format!(
                    "the program runs in the interpreter: compiling it failed: {why}"
                )),
                Built::Failed(_) => {}
            }
            let _ = built_tx.send(built);
        })
    };
    let mut builder_stdin = Some(builder_stdin);

    // The interpreter, stopping for the switch when the build is ready
    // (or, for tests, after exactly `--switch-after` steps).
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut input = stdin.lock();
    let mut output = stdout.lock();
    let mut executable: Option<PathBuf> = None;
    // Steps are counted only for `--switch-after` (the check runs after
    // every step, so the default one is a single load).
    let mut steps: u64 = 0;
    let ended = match args.switch_after {
        Some(k) => interpret_until(program, &mut input, &mut output, &options, || {
            steps += 1;
            // Wait for the build here; a failed one keeps the interpreter
            // going.
            steps == k
                && match built_rx.recv() {
                    Ok(Built::Ready(exe)) => {
                        executable = Some(exe);
                        true
                    }
                    _ => false,
                }
        }),
        None => interpret_until(program, &mut input, &mut output, &options, || {
            ready.load(Ordering::Relaxed)
        }),
    };
    let _ = output.flush();
    // The locks go: the replay thread reads stdin on.
    drop(input);
    drop(output);
    let result = match ended {
        Interpreted::Finished(result) => result,
        Interpreted::Switched {
            consumed,
            touched,
            written,
        } => {
            let exe = match executable {
                Some(exe) => exe,
                None => match built_rx.recv() {
                    Ok(Built::Ready(exe)) => exe,
                    _ => unreachable_switch(),
                },
            };
            if args.verbose {
                status(
                    reporter,
                    "Switching",
                    &format!(
                        "to the compiled program after {:.0} ms of interpreting{}: it replays {} input bytes and skips {written} output bytes",
                        started.elapsed().as_secs_f64() * 1000.0,
                        counted(steps),
                        consumed.len()
                    ),
                );
            }
            drop(builder_stdin.take());
            let _ = watcher.join();
            let replay = touched.then_some(consumed);
            return run_switched(args, loaded, &exe, written, replay, reporter);
        }
    };
    // The interpreter finished first.
    if let Some(mut pipe) = builder_stdin.take() {
        if started.elapsed() >= KEEP_BUILDING_AFTER {
            let _ = pipe.write_all(b"k");
        }
    }
    if args.verbose {
        status(
            reporter,
            "Finished",
            &format!(
                "in the interpreter ({:.0} ms{}){}",
                started.elapsed().as_secs_f64() * 1000.0,
                counted(steps),
                if started.elapsed() >= KEEP_BUILDING_AFTER {
                    "; compiling goes on in the background for the next run"
                } else {
                    ""
                }
            ),
        );
    }
    Ok(exit_code(result, loaded, program, reporter))
}

/// A cargo-style status line `VERB what`, or its `build-progress` object
/// under `json`.
fn status(reporter: &Reporter, verb: &str, what: &str) {
    reporter.progress(&format!("{verb:>12} {what}"), &format!("{verb} {what}"));
}

/// `, N steps` when steps were counted (`--switch-after`), else nothing.
fn counted(steps: u64) -> String {
    if steps == 0 {
        String::new()
    } else {
        format!(", {steps} steps")
    }
}

/// A switch happens only with an executable in hand.
fn unreachable_switch() -> ! {
    panic!("chess2rs bug: run switched tiers without an executable")
}

/// Runs the compiled program `exe` after the interpreter stopped: the same
/// limits and name, the first `discard` bytes of its output dropped, and
/// its input `replay` (what the interpreter consumed) followed by the rest
/// of stdin — or stdin itself if the interpreter never read it.
fn run_switched(
    args: &RunArgs,
    loaded: &Loaded,
    exe: &std::path::Path,
    discard: u64,
    replay: Option<Vec<u8>>,
    reporter: &Reporter,
) -> CliResult<u8> {
    let mut command = Command::new(exe);
    command
        .arg("--discard-output")
        .arg(discard.to_string())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit());
    let Some(replay) = replay else {
        command.stdin(Stdio::inherit());
        let status = run_executable(command, loaded.source.name(), &args.limits, reporter);
        return exit_code_of(status, exe);
    };
    command.stdin(Stdio::piped());
    // The replay, then the rest of stdin, go through a pipe written by a
    // thread: the program may stop reading early (the thread then stops),
    // or read a terminal for ever (the thread ends with the process).
    let (pipe_tx, pipe_rx) = mpsc::channel::<ChildStdin>();
    std::thread::spawn(move || {
        let Ok(mut pipe) = pipe_rx.recv() else {
            return;
        };
        if pipe.write_all(&replay).is_ok() {
            let _ = std::io::copy(&mut std::io::stdin().lock(), &mut pipe);
        }
    });
    let limits = (&args.limits, reporter);
    let status = run_executable_with(command, loaded.source.name(), limits, |child| {
        if let Some(stdin) = child.stdin.take() {
            let _ = pipe_tx.send(stdin);
        }
    });
    exit_code_of(status, exe)
}

/// [`run_executable`] with `started` called on the child first.
fn run_executable_with(
    mut command: Command,
    source_name: &str,
    (limits, reporter): (&super::args::LimitArgs, &Reporter),
    started: impl FnOnce(&mut Child),
) -> Result<std::process::ExitStatus, Stopped> {
    super::build::limit_args(&mut command, source_name, limits, reporter);
    interrupt::wait_for(&mut command, started)
}

/// Starts the background build of `loaded`: `chess2rs tier-build`, given
/// the program on its stdin (`LENGTH\nTEXT`); the pipe stays open, and
/// closing it without writing `k` first stops the build.
fn spawn_builder(loaded: &Loaded) -> CliResult<(Child, ChildStdin)> {
    let exe = std::env::current_exe()
        .map_err(|e| Failure::Message(format!("cannot find the chess2rs executable: {e}")))?;
    let mut child = Command::new(exe)
        .arg("tier-build")
        .arg("--lang")
        .arg(loaded.language.extension())
        .arg("--name")
        .arg(loaded.source.name())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| Failure::Message(format!("cannot start the background build: {e}")))?;
    let mut pipe = child.stdin.take().ok_or_else(|| {
        Failure::Message("cannot start the background build: no pipe".to_string())
    })?;
    let text = loaded.source.text();
    // A build that cannot be told its program fails, and says so.
    let _ = write!(pipe, "{}\n{text}", text.len());
    let _ = pipe.flush();
    Ok((child, pipe))
}

/// Reads what the background build says on `stdout` to its end.
fn read_builder(stdout: Option<std::process::ChildStdout>) -> Built {
    let mut said = String::new();
    if let Some(mut stdout) = stdout {
        let _ = stdout.read_to_string(&mut said);
    }
    parse_builder(&said)
}

/// What the background build said: `ok\nPATH` or `error\nMESSAGE`.
fn parse_builder(said: &str) -> Built {
    match said.split_once('\n') {
        Some(("ok", path)) => Built::Ready(PathBuf::from(path.trim_end_matches('\n'))),
        Some(("error", why)) => Built::Failed(why.trim_end().to_string()),
        _ => Built::Failed("the background build stopped without a word".to_string()),
    }
}

/// `chess2rs tier-build`: reads `LENGTH\nTEXT` from stdin, builds the
/// executable into the cache (silently), prints `ok\nPATH` or
/// `error\nMESSAGE` on stdout. Reading on, a `k` lets the build finish
/// whatever happens to the `run` that started it; the end of stdin before
/// a `k` stops it (rustc killed, its files removed).
pub(super) fn tier_build(args: &TierBuildArgs) -> CliResult<u8> {
    let mut stdin = std::io::stdin().lock();
    let mut length = String::new();
    stdin
        .read_line(&mut length)
        .map_err(|e| Failure::Message(format!("cannot read the program: {e}")))?;
    let length: usize = length
        .trim()
        .parse()
        .map_err(|_| Failure::Message("expected the program's length".to_string()))?;
    let mut text = vec![0u8; length];
    stdin
        .read_exact(&mut text)
        .map_err(|e| Failure::Message(format!("cannot read the program: {e}")))?;
    drop(stdin);
    std::thread::spawn(|| {
        let mut word = [0u8; 1];
        match std::io::stdin().lock().read(&mut word) {
            Ok(1) if word[0] == b'k' => {}
            _ => interrupt::request_stop(),
        }
    });
    let say = |text: String| {
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    };
    let text = String::from_utf8(text)
        .map_err(|_| Failure::Message("the program is not UTF-8".to_string()))?;
    let loaded = Loaded {
        source: Source::new(args.name.clone(), text),
        language: args.lang,
    };
    let checked = match crate::check(&loaded.source, loaded.language) {
        Ok(checked) => checked,
        Err(_) => {
            say("error\nthe program has errors\n".to_string());
            return Ok(super::EXIT_COMPILE_ERROR);
        }
    };
    let ui = Ui {
        quiet: true,
        verbose: false,
        json: false,
    };
    match executable_of(&loaded, &checked.program, ui) {
        Ok(slot) => {
            say(format!("ok\n{}\n", slot.artifact.display()));
            Ok(0)
        }
        Err(Failure::Message(message)) => {
            let first = message.lines().next().unwrap_or("").to_string();
            say(format!("error\n{first}\n"));
            Ok(super::EXIT_COMPILE_ERROR)
        }
        Err(other) => Err(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builder_is_read_as_it_speaks() {
        assert!(matches!(
            parse_builder("ok\n/cache/0123/program\n"),
            Built::Ready(path) if path == std::path::Path::new("/cache/0123/program")
        ));
        assert!(matches!(
            parse_builder("error\nrustc failed\n"),
            Built::Failed(why) if why == "rustc failed"
        ));
        // Killed before it said anything.
        assert!(matches!(parse_builder(""), Built::Failed(_)));
        assert!(matches!(read_builder(None), Built::Failed(_)));
    }
}
