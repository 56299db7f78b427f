//! `run` and `build`: native executables made by rustc from the
//! standalone program file, cached by content.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Instant;

use sha2::{Digest, Sha256};

use super::args::{BuildArgs, RunArgs};
use super::cache::{self, cache_dir, hex, is_intact, mark_used, sweep_stale_builds};
use super::interrupt::{self, Stopped};
use super::output::{refuse_inputs, write_output};
use super::report::Reporter;
use super::{load, program_stem, show_progress, CliResult, Failure, Loaded, EXIT_RUNTIME_ERROR};

/// `chess2rs run`: builds (or reuses) the executable and runs it on this
/// process's stdin/stdout, returning its exit code.
pub(super) fn run(args: &RunArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(&args.source.file, &args.source.lang)?;
    // The executable calls its program by a name of the language's alone
    // and is told the name the user gave at run time: one build serves the
    // program by every path, and every copy of it.
    let neutral = format!("program.{}", loaded.language.extension());
    let build = || cached_executable(&loaded, reporter, args.quiet, &neutral);
    let mut exe = build()?;
    let name = loaded.source.name();
    let mut status = run_executable(&exe, name, args.limits.max_steps, args.limits.max_memory);
    if matches!(status, Err(Stopped::Io(_))) {
        // A cached executable that cannot be started (damaged, or from
        // another system) is built again, once.
        let _ = std::fs::remove_file(exe.with_file_name(cache::SUM_FILE));
        exe = build()?;
        status = run_executable(&exe, name, args.limits.max_steps, args.limits.max_memory);
    }
    let status = status.map_err(|stopped| match stopped {
        Stopped::Io(e) => Failure::Message(format!("cannot start `{}`: {e}", exe.display())),
        Stopped::Signal(signal) => Failure::Interrupted(signal),
    })?;
    // A program killed by a signal has no code; report it as a runtime error.
    Ok(status
        .code()
        .and_then(|code| u8::try_from(code).ok())
        .unwrap_or(EXIT_RUNTIME_ERROR))
}

/// Runs `exe` on this process's stdin/stdout with the step and memory
/// limits, its errors naming the program file `source_name`. On SIGINT or SIGTERM (which the program, in the same process
/// group, gets too from a terminal's Ctrl-C, but not from a `kill` of
/// chess2rs alone) it is killed.
fn run_executable(
    exe: &Path,
    source_name: &str,
    max_steps: Option<u64>,
    max_memory: u64,
) -> Result<ExitStatus, Stopped> {
    let mut command = Command::new(exe);
    command.arg("--source-name").arg(source_name);
    if let Some(limit) = max_steps {
        command.arg("--max-steps").arg(limit.to_string());
    }
    command.arg("--max-memory").arg(max_memory.to_string());
    command
        .stdin(Stdio::inherit())
        .stdout(Stdio::inherit())
        .stderr(Stdio::inherit());
    let started = Instant::now();
    if !std::io::stderr().is_terminal() {
        return interrupt::output(&mut command).map(|output| output.status);
    }
    // A long run shows that it is running. Native code keeps its step
    // count to itself (publishing it would cost every step), so this shows
    // the time instead. The program writes to stderr only when it ends
    // (its error), so that is held back until the progress line is
    // cleared.
    let (stop, wait) = std::sync::mpsc::channel::<()>();
    let finished = std::thread::scope(|scope| {
        let progress = scope.spawn(move || {
            show_progress(
                || format!("{:.0} s", started.elapsed().as_secs_f64()),
                &wait,
            )
        });
        let output = interrupt::output(command.stderr(Stdio::piped()));
        let _ = stop.send(());
        let _ = progress.join();
        output
    });
    finished.map(|output| {
        let _ = std::io::stderr().write_all(&output.stderr);
        output.status
    })
}

/// `chess2rs build`: writes the executable to `-o` (default: the program's
/// stem in the current directory).
pub(super) fn build(args: &BuildArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(&args.source.file, &args.source.lang)?;
    let output = match &args.output {
        Some(path) => path.clone(),
        None => PathBuf::from(program_stem(&args.source.file)),
    };
    // Refused before the build, so a mistaken -o costs nothing.
    refuse_inputs(&output, &[&args.source.file])?;
    // The executable names its program file without the directories (it
    // may run anywhere), so that every spelling of the path builds once.
    let file_name = Path::new(loaded.source.name())
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| loaded.source.name().to_string());
    let exe = cached_executable(&loaded, reporter, args.quiet, &file_name)?;
    let permissions = std::fs::metadata(&exe)
        .map_err(|e| Failure::Message(format!("cannot read `{}`: {e}", exe.display())))?
        .permissions();
    write_output(&output, &[&args.source.file], Some(permissions), |out| {
        std::io::copy(&mut std::fs::File::open(&exe)?, out).map(|_| ())
    })?;
    if !args.quiet {
        eprintln!("{:>12} {}", "Wrote", output.display());
    }
    Ok(0)
}

/// The executable for `loaded`, from the cache or freshly built, its code
/// calling the program file `name_in_code`.
///
/// The cache key is the SHA-256 of the generated program file, rustc's
/// `-vV` output and the flags (a stable, specified hash: the same program
/// finds the same entry in every process and version of chess2rs that
/// generates the same code). An entry is the executable `program` and
/// `program.sha256`, the SHA-256 of its bytes, written after it; an entry
/// whose executable is missing, does not match its sum (truncated,
/// corrupted) or has no sum is rebuilt. Builds happen in a directory of
/// their own and are renamed into place, so concurrent runs of the same
/// program both succeed.
fn cached_executable(
    loaded: &Loaded,
    reporter: &Reporter,
    quiet: bool,
    name_in_code: &str,
) -> CliResult<PathBuf> {
    let rust = reporter.program_file_naming(loaded, true, name_in_code)?;
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let version = Command::new(&rustc)
        .arg("-vV")
        .output()
        .map_err(|e| Failure::Message(format!("cannot run rustc ({e}); `run` and `build` need a Rust toolchain — `interpret` does not")))?;
    if !version.status.success() || version.stdout.iter().all(u8::is_ascii_whitespace) {
        // A toolchain that does not work (rustup without a default, a
        // wrong RUSTC) is not a problem of the generated code.
        let stderr = String::from_utf8_lossy(&version.stderr);
        let said = stderr.lines().next().unwrap_or("").trim();
        return Err(Failure::Message(format!(
            "rustc does not work: `{} -vV` {}\n  = help: install a Rust toolchain (for example `rustup default stable`) or point RUSTC at one; `interpret` needs none",
            rustc.to_string_lossy(),
            if said.is_empty() { "printed no version".to_string() } else { format!("said: {said}") }
        )));
    }
    let flags = rustc_flags()?;
    let mut key = Sha256::new();
    rust.write_to(&mut key)
        .map_err(|e| Failure::Message(format!("cannot hash the program: {e}")))?;
    for part in [&version.stdout, flags.join(" ").as_bytes()] {
        key.update((part.len() as u64).to_le_bytes());
        key.update(part);
    }
    let key = hex(&key.finalize());
    let dir = cache_dir().join(&key[..32]);
    let exe = dir.join(cache::executable_name());
    let sum_file = dir.join(cache::SUM_FILE);
    if is_intact(&exe, &sum_file) {
        mark_used(&sum_file);
        return Ok(exe);
    }
    std::fs::create_dir_all(&dir).map_err(|e| {
        Failure::Message(format!(
            "cannot create the build cache `{}`: {e}",
            dir.display()
        ))
    })?;
    // Each build works in its own directory (rustc puts its intermediate
    // files beside the output), so that two runs building the same program
    // at once do not trip over each other; the finished executable is
    // renamed into place.
    sweep_stale_builds(&dir);
    let work = dir.join(format!("build.{}", std::process::id()));
    std::fs::create_dir_all(&work)
        .map_err(|e| Failure::Message(format!("cannot create `{}`: {e}", work.display())))?;
    let src = work.join("program.rs");
    std::fs::File::create(&src)
        .map(std::io::BufWriter::new)
        .and_then(|mut out| rust.write_to(&mut out).and_then(|()| out.flush()))
        .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", src.display())))?;
    let partial = work.join(cache::executable_name());
    let started = Instant::now();
    let spinner = (!quiet).then(|| Progress::start(loaded.source.name()));
    // Interrupted (SIGINT, SIGTERM), rustc is killed and its work
    // directory removed before chess2rs exits.
    let result = interrupt::output(
        Command::new(&rustc)
            .args(&flags)
            .arg("-o")
            .arg(&partial)
            .arg(&src)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    );
    if let Some(spinner) = spinner {
        spinner.stop();
    }
    let output = result.map_err(|stopped| match stopped {
        Stopped::Io(e) => Failure::Message(format!(
            "cannot start rustc ({e}); `run` and `build` need a Rust toolchain — `interpret` does not"
        )),
        Stopped::Signal(signal) => {
            let _ = std::fs::remove_dir_all(&work);
            Failure::Interrupted(signal)
        }
    })?;
    if !output.status.success() {
        let _ = std::fs::remove_dir_all(&work);
        let lines = rust.line_count();
        return Err(Failure::Message(rustc_failure(&output, lines)));
    }
    let sum = std::fs::read(&partial)
        .map(|bytes| hex(&Sha256::digest(&bytes)))
        .map_err(|e| {
            let _ = std::fs::remove_dir_all(&work);
            Failure::Message(format!(
                "rustc reported success but left no executable `{}` ({e}): is RUSTC a working rustc?",
                partial.display()
            ))
        })?;
    // The sum goes in after the executable: a reader that finds a sum
    // finds the executable it describes (or a newer, equal one).
    let partial_sum = work.join(cache::SUM_FILE);
    std::fs::write(&partial_sum, &sum)
        .and_then(|()| std::fs::rename(&partial, &exe))
        .and_then(|()| std::fs::rename(&partial_sum, &sum_file))
        .map_err(|e| Failure::Message(format!("cannot store `{}`: {e}", exe.display())))?;
    // The source stays beside the executable, for anyone curious, and
    // the program's name for `cache list`.
    let _ = std::fs::rename(&src, dir.join("program.rs"));
    let _ = std::fs::write(
        dir.join(cache::NAME_FILE),
        format!("{} ({})\n", loaded.source.name(), loaded.language),
    );
    let _ = std::fs::remove_dir_all(&work);
    if !quiet {
        eprintln!(
            "{:>12} {} in {:.1}s",
            "Finished",
            loaded.source.name(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(exe)
}

/// What to say when rustc fails: killed (most likely out of memory), out
/// of memory, or a real error in the generated code (a chess2rs bug).
fn rustc_failure(output: &std::process::Output, lines: usize) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first_lines: String = stderr.lines().take(30).collect::<Vec<_>>().join("\n");
    let hint =
        "set CHESS2RS_OPT_LEVEL=1 (or 0) for a cheaper build, or give the machine more memory";
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = output.status.signal() {
            return format!(
                "rustc was killed by signal {signal}{} while building the generated program ({lines} lines of Rust)\n  = help: {hint}",
                if signal == 9 { " (most likely by the system, out of memory)" } else { "" }
            );
        }
    }
    if stderr.contains("No space left on device") {
        return format!(
            "rustc could not write its output: the disk of the build cache is full\n  = help: free some space, or set CHESS2RS_CACHE_DIR to a directory on another disk\n{first_lines}"
        );
    }
    if stderr.contains("memory allocation of") || stderr.contains("out of memory") {
        return format!(
            "rustc ran out of memory building the generated program ({lines} lines of Rust)\n  = help: {hint}\n{first_lines}"
        );
    }
    format!(
        "rustc failed on the generated code (a chess2rs bug; please report it with the program)\n{first_lines}"
    )
}

/// rustc's flags: optimised (`opt-level` 3, or `$CHESS2RS_OPT_LEVEL` — 0
/// builds about three times faster, for quick tries and the test suite).
fn rustc_flags() -> CliResult<Vec<String>> {
    let level = match std::env::var("CHESS2RS_OPT_LEVEL") {
        Ok(level) if ["0", "1", "2", "3", "s", "z"].contains(&level.as_str()) => level,
        Ok(level) => {
            return Err(Failure::Message(format!(
                "CHESS2RS_OPT_LEVEL is `{level}`; it takes 0, 1, 2, 3, s or z"
            )))
        }
        Err(_) => "3".to_string(),
    };
    let mut flags: Vec<String> = RUSTC_FLAGS.iter().map(|f| f.to_string()).collect();
    flags.push("-C".into());
    flags.push(format!("opt-level={level}"));
    Ok(flags)
}

const RUSTC_FLAGS: &[&str] = &[
    "--edition",
    "2021",
    "-C",
    "codegen-units=1",
    "-C",
    "panic=abort",
    "-C",
    "strip=symbols",
];

/// A "Compiling NAME" line on stderr, animated on a terminal while rustc
/// works.
struct Progress {
    done: std::sync::mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    fn start(name: &str) -> Progress {
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let line = format!("{:>12} {name} (rustc -O)", "Compiling");
        let thread = if std::io::stderr().is_terminal() {
            Some(std::thread::spawn(move || {
                let frames = ['|', '/', '-', '\\'];
                let mut frame = 0;
                loop {
                    eprint!("\r{line} {}", frames[frame % frames.len()]);
                    frame += 1;
                    let tick = std::time::Duration::from_millis(120);
                    if !matches!(wait.recv_timeout(tick), Err(RecvTimeoutError::Timeout)) {
                        break;
                    }
                }
                eprint!("\r{line}  \n");
            }))
        } else {
            eprintln!("{line}");
            None
        };
        Progress { done, thread }
    }

    fn stop(mut self) {
        let _ = self.done.send(());
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
