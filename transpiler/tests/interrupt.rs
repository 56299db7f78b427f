//! SIGINT and SIGTERM sent to `chess2rs` alone (as `kill` or `timeout`
//! would) while it waits for a child: the child, rustc or the built
//! program, is killed rather than left running as an orphan, a build's work
//! directory is removed, and chess2rs exits with 128 + the signal's number.
//!
//! rustc is played by shell scripts (through `RUSTC`) that record their
//! process id and sleep, so that the tests neither need a toolchain nor
//! depend on how long a real build takes.
#![cfg(unix)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

#[path = "support/cache_entries.rs"]
#[allow(dead_code)]
mod cache_entries;
#[path = "support/scratch.rs"]
mod scratch;
use cache_entries::build_directories;

/// How long the tests wait for anything: far more than it takes, so that a
/// loaded machine does not fail them.
const PATIENCE: Duration = Duration::from_secs(60);

/// How long chess2rs may take to exit, and its child to be gone, after the
/// signal.
const PROMPTLY: Duration = Duration::from_secs(10);

/// Held while a test writes a script and while it starts a process: a
/// process forked by another test's thread while a script is open for
/// writing would hold it open, and running it would fail ("text file
/// busy").
static SPAWNING: Mutex<()> = Mutex::new(());

/// Runs `f` holding [`SPAWNING`] (a test that failed holding it does not
/// poison it for the others).
fn spawning<T>(f: impl FnOnce() -> T) -> T {
    let _held = SPAWNING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    f()
}

/// A scratch directory for this test, emptied first.
fn scratch(test: &str) -> PathBuf {
    scratch::scratch(Path::new("interrupt").join(test))
}

/// Writes an executable shell script.
fn script(path: &Path, body: &str) {
    spawning(|| {
        std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    });
}

/// Shell commands that write the shell's process id to `file` (whole, so
/// that a reader never sees half of it) and then become `sleep 120`.
fn record_pid_and_sleep(file: &Path) -> String {
    let file = file.display();
    format!("echo $$ > '{file}.tmp' && mv '{file}.tmp' '{file}'\nexec sleep 120\n")
}

/// A fake rustc that answers `-vV` and otherwise records its pid in
/// `pid_file` and sleeps: a build that takes long.
fn slow_rustc(dir: &Path, pid_file: &Path) -> PathBuf {
    let rustc = dir.join("slow-rustc");
    script(
        &rustc,
        &format!(
            "if [ \"$1\" = -vV ]; then echo 'slow fake rustc'; exit 0; fi\n{}",
            record_pid_and_sleep(pid_file)
        ),
    );
    rustc
}

/// A fake rustc that answers `-vV` and "builds" (at once) an executable
/// script that records its pid in `pid_file` and sleeps: a program that
/// runs long.
fn sleeper_rustc(dir: &Path, pid_file: &Path) -> PathBuf {
    let program = dir.join("sleeper");
    script(&program, &record_pid_and_sleep(pid_file));
    let rustc = dir.join("sleeper-rustc");
    script(
        &rustc,
        &format!(
            "if [ \"$1\" = -vV ]; then echo 'sleeper fake rustc'; exit 0; fi\n\
             while [ $# -gt 0 ]; do\n  if [ \"$1\" = -o ]; then out=$2; fi\n  shift\ndone\n\
             cp '{}' \"$out\"\n",
            program.display()
        ),
    );
    rustc
}

/// Starts chess2rs with `args` in `dir`, using `rustc` and a cache in
/// `dir`; its stderr goes to the file `dir/stderr`.
/// `run` runs in its compiled tier (these tests are about rustc and the
/// executable).
fn start_chess2rs(dir: &Path, rustc: &Path, args: &[&str]) -> Child {
    let stderr = std::fs::File::create(dir.join("stderr")).unwrap();
    let mut args = args.to_vec();
    if args.first() == Some(&"run") {
        args.insert(1, "--tier=compiled");
    }
    spawning(|| {
        Command::new(env!("CARGO_BIN_EXE_chess2rs"))
            .args(&args)
            .current_dir(dir)
            .env("RUSTC", rustc)
            .env("CHESS2RS_CACHE_DIR", dir.join("cache"))
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(stderr)
            .spawn()
            .unwrap()
    })
}

/// Sends `signal` (a name for `kill -s`) to the process `pid`; whether it
/// was delivered.
fn send(signal: &str, pid: u32) -> bool {
    spawning(|| {
        Command::new("kill")
            .args(["-s", signal, &pid.to_string()])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success())
    })
}

/// Whether the process `pid` is still there (`kill -0`).
fn alive(pid: u32) -> bool {
    send("0", pid)
}

/// Polls `ready` until it gives a value, for at most `within`.
fn poll<T>(within: Duration, mut ready: impl FnMut() -> Option<T>) -> Option<T> {
    let start = Instant::now();
    loop {
        if let Some(value) = ready() {
            return Some(value);
        }
        if start.elapsed() > within {
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The pid recorded in `file`, once it is there.
fn wait_for_pid(file: &Path, chess2rs: &mut Child, dir: &Path) -> u32 {
    let pid = poll(PATIENCE, || {
        std::fs::read_to_string(file)
            .ok()
            .and_then(|text| text.trim().parse().ok())
    });
    pid.unwrap_or_else(|| {
        let _ = chess2rs.kill();
        let _ = chess2rs.wait();
        panic!("the child never started: {}", stderr_of(dir))
    })
}

fn stderr_of(dir: &Path) -> String {
    std::fs::read_to_string(dir.join("stderr")).unwrap_or_default()
}

/// Sends `signal` to chess2rs alone while its child `child` runs, and
/// checks that chess2rs exits promptly with `expected`, printing no panic,
/// and that the child is gone.
fn interrupt(dir: &Path, mut chess2rs: Child, child: u32, signal: &str, expected: i32) {
    assert!(send(signal, chess2rs.id()), "kill -s {signal} chess2rs");
    let status = poll(PROMPTLY, || chess2rs.try_wait().unwrap());
    let child_gone = poll(PROMPTLY, || (!alive(child)).then_some(()));
    // Nothing is left running, whatever the outcome.
    let _ = chess2rs.kill();
    let _ = chess2rs.wait();
    if child_gone.is_none() {
        send("KILL", child);
    }
    let stderr = stderr_of(dir);
    let status =
        status.unwrap_or_else(|| panic!("chess2rs still runs after SIG{signal}: {stderr}"));
    assert_eq!(status.code(), Some(expected), "{status}: {stderr}");
    assert!(child_gone.is_some(), "the child {child} was left running");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The example program the tests build.
fn beer() -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/beer.icp");
    path.display().to_string()
}

/// chess2rs `args` interrupted by `signal` while rustc builds: rustc is
/// killed and the build's work directory removed.
fn interrupt_the_build(test: &str, args: &[&str], signal: &str, expected: i32) {
    let dir = scratch(test);
    let pid_file = dir.join("rustc.pid");
    let rustc = slow_rustc(&dir, &pid_file);
    let mut chess2rs = start_chess2rs(&dir, &rustc, args);
    let rustc_pid = wait_for_pid(&pid_file, &mut chess2rs, &dir);
    let building = build_directories(&dir.join("cache"));
    interrupt(&dir, chess2rs, rustc_pid, signal, expected);
    assert_eq!(
        building.len(),
        1,
        "the build works in a directory of its own"
    );
    assert_eq!(
        build_directories(&dir.join("cache")),
        Vec::<PathBuf>::new(),
        "left behind"
    );
    assert!(!dir.join("beer").exists(), "no executable written");
}

/// `run` interrupted by `signal` while the built program runs: the
/// program is killed.
fn interrupt_the_program(test: &str, signal: &str, expected: i32) {
    let dir = scratch(test);
    let pid_file = dir.join("program.pid");
    let rustc = sleeper_rustc(&dir, &pid_file);
    let mut chess2rs = start_chess2rs(&dir, &rustc, &["run", &beer()]);
    let program_pid = wait_for_pid(&pid_file, &mut chess2rs, &dir);
    interrupt(&dir, chess2rs, program_pid, signal, expected);
}

#[test]
fn sigterm_during_run_kills_rustc_and_removes_its_work_directory() {
    interrupt_the_build("run_term", &["run", &beer()], "TERM", 143);
}

#[test]
fn sigint_during_run_kills_rustc_and_removes_its_work_directory() {
    interrupt_the_build("run_int", &["run", &beer()], "INT", 130);
}

#[test]
fn sigterm_during_build_kills_rustc_and_removes_its_work_directory() {
    let args = ["build", &beer(), "-o", "beer"];
    interrupt_the_build("build_term", &args, "TERM", 143);
}

#[test]
fn sigterm_while_the_program_runs_kills_it() {
    interrupt_the_program("program_term", "TERM", 143);
}

#[test]
fn sigint_while_the_program_runs_kills_it() {
    interrupt_the_program("program_int", "INT", 130);
}

/// A fake rustc that answers `-vV` and otherwise starts a "linker" (a
/// child of its own that records its pid in `pid_file` and sleeps) and
/// waits for it, as rustc waits for `cc`.
fn linking_rustc(dir: &Path, pid_file: &Path) -> PathBuf {
    let rustc = dir.join("linking-rustc");
    let linker = record_pid_and_sleep(pid_file).replace('\'', "\"");
    script(
        &rustc,
        &format!(
            "if [ \"$1\" = -vV ]; then echo 'linking fake rustc'; exit 0; fi\n\
             sh -c '{linker}' &\nwait\n"
        ),
    );
    rustc
}

#[test]
fn sigint_during_a_build_kills_the_linker_rustc_started() {
    let dir = scratch("linker_int");
    let pid_file = dir.join("linker.pid");
    let rustc = linking_rustc(&dir, &pid_file);
    let mut chess2rs = start_chess2rs(&dir, &rustc, &["build", &beer(), "-o", "beer"]);
    let linker = wait_for_pid(&pid_file, &mut chess2rs, &dir);
    interrupt(&dir, chess2rs, linker, "INT", 130);
    assert_eq!(
        build_directories(&dir),
        Vec::<PathBuf>::new(),
        "left behind"
    );
}
