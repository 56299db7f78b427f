//! `run` and `build`: native executables made by rustc, cached by what
//! determines them; programs link the runtime library, compiled once per
//! toolchain.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Instant;

use super::args::{BuildArgs, LimitArgs, RunArgs, Tier};
use super::cache::{trusted_cache_dir, Kind, Slot};
use super::interpret::interpret_checked;
use super::interrupt::{self, Stopped};
use super::output::{refuse_inputs, write_output};
use super::report::{artifact_object, progress_object, Reporter};
use super::tier;
use super::toolchain::{program_key, rustc_flags, Toolchain};
use super::{load, program_stem, show_progress, CliResult, Failure, Loaded, EXIT_RUNTIME_ERROR};
use crate::Source;

/// `chess2rs run`: runs the program in the tier asked for (see `tier`):
/// by default the cached executable, or — not compiled yet — the
/// interpreter at once while rustc compiles, switching when it is ready.
/// Returns the program's exit code.
pub(super) fn run(args: &RunArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(&args.source.file, &args.source.lang)?;
    let ui = Ui {
        quiet: args.quiet,
        verbose: args.verbose,
        json: reporter.is_json(),
    };
    let checked = reporter.checked(&loaded)?;
    let interpret = || {
        let options = args.limits.options();
        interpret_checked(&loaded, &checked.program, &options, reporter)
    };
    let exe = match (args.tier, args.switch_after) {
        (Tier::Interpret, _) => return Ok(interpret()),
        (Tier::Compiled, None) => executable_of(&loaded, &checked.program, ui)?,
        (_, switch_after) => match cached_hit(&loaded) {
            Ok(Some(exe)) if switch_after.is_none() => fresh(exe, &loaded, ui),
            Ok(_) => return tier::run_tiered(args, &loaded, &checked.program, reporter),
            // No working rustc: the interpreter runs the program.
            Err(Failure::Message(why)) => {
                if !args.quiet {
                    reporter.note(&format!("the program runs in the interpreter: {why}"));
                }
                return Ok(interpret());
            }
            Err(other) => return Err(other),
        },
    };
    run_compiled(args, &loaded, &checked.program, exe, reporter)
}

/// Runs the executable `exe` of `program` (checked from `loaded`) on this
/// process's stdin/stdout; one that cannot be started (damaged, or from
/// another system) is built again, once.
fn run_compiled(
    args: &RunArgs,
    loaded: &Loaded,
    program: &crate::Program,
    mut exe: Slot,
    reporter: &Reporter,
) -> CliResult<u8> {
    let name = loaded.source.name();
    let command = |exe: &Slot| {
        let mut command = Command::new(&exe.artifact);
        command
            .stdin(Stdio::inherit())
            .stdout(Stdio::inherit())
            .stderr(Stdio::inherit());
        command
    };
    let mut status = run_executable(command(&exe), name, &args.limits, reporter);
    if matches!(status, Err(Stopped::Io(_))) {
        exe.invalidate();
        let ui = Ui {
            quiet: true,
            verbose: false,
            json: false,
        };
        exe = executable_of(loaded, program, ui)?;
        status = run_executable(command(&exe), name, &args.limits, reporter);
    }
    exit_code_of(status, &exe.artifact)
}

/// The exit code of the executable `exe` that ended with `status`: a
/// program killed by a signal has no code, and counts as a runtime error;
/// one that could not start, or was stopped by SIGINT or SIGTERM, is a
/// failure of `run`.
pub(super) fn exit_code_of(status: Result<ExitStatus, Stopped>, exe: &Path) -> CliResult<u8> {
    match status {
        Ok(status) => Ok(status
            .code()
            .and_then(|code| u8::try_from(code).ok())
            .unwrap_or(EXIT_RUNTIME_ERROR)),
        Err(Stopped::Io(e)) => Err(Failure::Message(format!(
            "cannot start `{}`: {e}",
            exe.display()
        ))),
        Err(Stopped::Signal(signal)) => Err(Failure::Interrupted(signal)),
    }
}

/// Gives an executable its program file's name as the user spelled it,
/// the step and memory limits, and the format of its runtime error when
/// it is not the default (`human`).
pub(super) fn limit_args(
    command: &mut Command,
    source_name: &str,
    limits: &LimitArgs,
    reporter: &Reporter,
) {
    command.arg("--source-name").arg(source_name);
    let format = reporter.runtime_format();
    if format != chess2rs_runtime::MessageFormat::Human {
        command.arg("--message-format").arg(format.name());
    }
    if let Some(limit) = limits.max_steps {
        command.arg("--max-steps").arg(limit.to_string());
    }
    command
        .arg("--max-memory")
        .arg(limits.max_memory.to_string());
}

/// Runs the executable of `command` (its streams set) with the step and
/// memory limits, its errors naming the program file `source_name` in
/// `reporter`'s format. On
/// SIGINT or SIGTERM (which the program, in the same process group, gets
/// too from a terminal's Ctrl-C, but not from a `kill` of chess2rs alone)
/// it is killed.
pub(super) fn run_executable(
    mut command: Command,
    source_name: &str,
    limits: &LimitArgs,
    reporter: &Reporter,
) -> Result<ExitStatus, Stopped> {
    limit_args(&mut command, source_name, limits, reporter);
    let started = Instant::now();
    if !std::io::stderr().is_terminal() || reporter.is_json() {
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
/// stem in the current directory). Under `json`, ends with
/// `{"reason":"build-finished","success":BOOL}` after any error.
pub(super) fn build(args: &BuildArgs, reporter: &Reporter) -> CliResult<u8> {
    if !reporter.is_json() {
        return build_executable(args, reporter);
    }
    let result = match build_executable(args, reporter) {
        Err(Failure::Message(message)) => {
            reporter.message(&message);
            Err(Failure::Diagnostics)
        }
        other => other,
    };
    if !args.quiet || result.is_err() {
        reporter.finished(result.is_ok());
    }
    result
}

/// [`build`] but for its last word.
fn build_executable(args: &BuildArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(&args.source.file, &args.source.lang)?;
    let output = match &args.output {
        Some(path) => path.clone(),
        None => PathBuf::from(program_stem(&args.source.file)),
    };
    // Refused before the build, so a mistaken -o costs nothing.
    refuse_inputs(&output, &[&args.source.file])?;
    let ui = Ui {
        quiet: args.quiet,
        verbose: args.verbose,
        json: reporter.is_json(),
    };
    // The same executable as `run`'s (one cache entry), with the program
    // file's name appended: the written executable may run anywhere, so it
    // names the file without the directories.
    let exe = cached_executable(&loaded, reporter, ui)?.artifact;
    let file_name = Path::new(loaded.source.name())
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_else(|| loaded.source.name().to_string());
    let permissions = std::fs::metadata(&exe)
        .map_err(|e| Failure::Message(format!("cannot read `{}`: {e}", exe.display())))?
        .permissions();
    write_output(&output, &[&args.source.file], Some(permissions), |out| {
        std::io::copy(&mut std::fs::File::open(&exe)?, out)?;
        chess2rs_runtime::__private::append_source_name(out, &file_name)
    })?;
    ui.status("Wrote", &output.display().to_string());
    Ok(0)
}

/// What `run` and `build` say on stderr while they build.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ui {
    /// Nothing at all.
    pub(super) quiet: bool,
    /// Every step, a cache hit included.
    pub(super) verbose: bool,
    /// Each line a JSON object (`--message-format json`).
    pub(super) json: bool,
}

impl Ui {
    /// A cargo-style status line (`VERB what`), unless quiet.
    fn status(self, verb: &str, what: &str) {
        if let Some(line) = self.line(verb, what) {
            eprintln!("{line}");
        }
    }

    /// The status line `VERB what` as printed: aligned as cargo's, or a
    /// `build-progress` object under `json`; none if quiet.
    fn line(self, verb: &str, what: &str) -> Option<String> {
        match (self.quiet, self.json) {
            (true, _) => None,
            (false, true) => Some(progress_object(&format!("{verb} {what}")).to_string()),
            (false, false) => Some(format!("{verb:>12} {what}")),
        }
    }

    /// Under `json`, the executable `path` of `loaded` as a
    /// `compiler-artifact` object, `fresh` if it was in the cache.
    fn artifact(self, loaded: &Loaded, path: &Path, fresh: bool) {
        if self.json && !self.quiet {
            eprintln!("{}", artifact_object(loaded.source.name(), path, fresh));
        }
    }

    /// A status line only under `--verbose`.
    fn detail(self, verb: &str, what: &str) {
        if self.verbose {
            self.status(verb, what);
        }
    }
}

/// The executable for `loaded`, from the cache or freshly built.
///
/// The program is checked first (its warnings shown, its errors stop
/// here). Its key ([`toolchain::program_key`]) is computed from its text
/// without generating code, so a cache hit costs the check, the key and
/// the executable's verification. The executable calls its program by a
/// name of the language's alone (`program.icp`), told the real one at run
/// time: one build serves the program by every path and every copy, for
/// `run` and `build` alike. A miss generates the Rust program and compiles
/// it against the runtime library, itself built once per toolchain
/// ([`runtime_library`]). Builds happen in a directory of their own and
/// are renamed into place, so concurrent runs of the same program both
/// succeed.
fn cached_executable(loaded: &Loaded, reporter: &Reporter, ui: Ui) -> CliResult<Slot> {
    let checked = reporter.checked(loaded)?;
    executable_of(loaded, &checked.program, ui)
}

/// The cache entry of `loaded`'s executable if it is there and intact (no
/// code generated, no process started once rustc's identity is
/// remembered).
pub(super) fn cached_hit(loaded: &Loaded) -> CliResult<Option<Slot>> {
    let cache = trusted_cache_dir()?;
    let flags = rustc_flags()?;
    let toolchain = Toolchain::find(&cache)?;
    let (slot, _) = program_slot(loaded, &toolchain, &flags, &cache);
    Ok(slot.is_intact().then_some(slot))
}

/// The entry of `loaded`'s executable with `toolchain` and `flags`, and
/// the key of the runtime library it links.
fn program_slot(
    loaded: &Loaded,
    toolchain: &Toolchain,
    flags: &[String],
    cache: &Path,
) -> (Slot, String) {
    let runtime_key = toolchain.runtime_key(flags);
    let key = program_key(
        &runtime_key,
        loaded.language.extension(),
        &name_in_code(loaded),
        loaded.source.text(),
    );
    (Slot::new(cache, &key, Kind::Executable), runtime_key)
}

/// The name the executable calls its program by in its code, the
/// language's alone (`program.icp`): it is told the real one at run time.
fn name_in_code(loaded: &Loaded) -> String {
    format!("program.{}", loaded.language.extension())
}

/// The cache entry `exe` of `loaded`, found intact: marked used, and said
/// so under `--verbose`.
fn fresh(exe: Slot, loaded: &Loaded, ui: Ui) -> Slot {
    exe.mark_used();
    ui.detail(
        "Fresh",
        &format!("{} ({})", loaded.source.name(), exe.dir.display()),
    );
    ui.artifact(loaded, &exe.artifact, true);
    exe
}

/// [`cached_executable`] of `program`, what the check made of `loaded`.
pub(super) fn executable_of(loaded: &Loaded, program: &crate::Program, ui: Ui) -> CliResult<Slot> {
    let cache = trusted_cache_dir()?;
    let flags = rustc_flags()?;
    let mut toolchain = Toolchain::find(&cache)?;
    let mut retried = false;
    loop {
        let (slot, runtime_key) = program_slot(loaded, &toolchain, &flags, &cache);
        if slot.is_intact() {
            return Ok(fresh(slot, loaded, ui));
        }
        let runtime = runtime_library(&toolchain, &cache, &runtime_key, &flags, ui)?;
        let started = Instant::now();
        let source = Source::new(name_in_code(loaded), loaded.source.text());
        let rust = crate::program_file_of(program, &source, loaded.language, false);
        ui.detail(
            "Generated",
            &format!(
                "{} lines of Rust for {}",
                rust.line_count(),
                loaded.source.name()
            ),
        );
        let work = slot.work_dir()?;
        let src = work.join("program.rs");
        std::fs::File::create(&src)
            .map(std::io::BufWriter::new)
            .and_then(|mut out| rust.write_to(&mut out).and_then(|()| out.flush()))
            .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", src.display())))?;
        let partial = work.join(Kind::Executable.artifact());
        let mut command = toolchain.command();
        command
            .args(&flags)
            .args(["--crate-type", "bin", "--crate-name", "program"])
            .args(["-C", "strip=symbols", "--extern"])
            .arg(format!("chess2rs_runtime={}", runtime.artifact.display()))
            .arg("-o")
            .arg(&partial)
            .arg(&src);
        let line = ui.line("Compiling", &format!("{} (rustc -O)", loaded.source.name()));
        let output = rustc(&mut command, &work, line, !ui.json)?;
        if !output.status.success() {
            let _ = std::fs::remove_dir_all(&work);
            if !retried && refused_runtime(&output) {
                // rustc is not the one remembered (replaced in place): ask
                // it again, and build the runtime for it.
                retried = true;
                toolchain.forget();
                runtime.invalidate();
                toolchain = Toolchain::find(&cache)?;
                continue;
            }
            let what = format!(
                "the generated program ({} lines of Rust)",
                rust.line_count()
            );
            return Err(Failure::Message(rustc_failure(&output, &what)));
        }
        let what = format!("{} ({})", loaded.source.name(), loaded.language);
        slot.store(&work, &partial, &src, &what)?;
        ui.status(
            "Finished",
            &format!(
                "{} in {:.1}s",
                loaded.source.name(),
                started.elapsed().as_secs_f64()
            ),
        );
        ui.artifact(loaded, &slot.artifact, false);
        return Ok(slot);
    }
}

/// The runtime library for `toolchain` and `flags` (key `key`), from the
/// cache or built now: once per toolchain, and once at a time — a lock
/// file in the entry makes concurrent first runs wait for one build. A
/// library that does not match its sum (truncated, corrupted) is built
/// again.
fn runtime_library(
    toolchain: &Toolchain,
    cache: &Path,
    key: &str,
    flags: &[String],
    ui: Ui,
) -> CliResult<Slot> {
    let slot = Slot::new(cache, key, Kind::Runtime);
    if slot.is_intact() {
        slot.mark_used();
        return Ok(slot);
    }
    std::fs::create_dir_all(&slot.dir).map_err(|e| {
        Failure::Message(format!(
            "cannot create the build cache `{}`: {e}",
            slot.dir.display()
        ))
    })?;
    let lock_path = slot.dir.join("lock");
    let lock = std::fs::File::create(&lock_path)
        .and_then(|file| file.lock().map(|()| file))
        .map_err(|e| Failure::Message(format!("cannot lock `{}`: {e}", lock_path.display())))?;
    // Another process may have built it while this one waited.
    if slot.is_intact() {
        slot.mark_used();
        return Ok(slot);
    }
    let started = Instant::now();
    let work = slot.work_dir()?;
    let src = work.join("runtime.rs");
    std::fs::write(&src, crate::emit::runtime_crate())
        .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", src.display())))?;
    let partial = work.join(Kind::Runtime.artifact());
    let mut command = toolchain.command();
    command
        .args(flags)
        .args(["--crate-type", "rlib", "--crate-name", "chess2rs_runtime"])
        .args(["--cap-lints", "allow", "-o"])
        .arg(&partial)
        .arg(&src);
    let line = ui.line(
        "Compiling",
        &format!(
            "the chess2rs runtime (once per toolchain: {})",
            toolchain.release()
        ),
    );
    let output = rustc(&mut command, &work, line, !ui.json)?;
    if !output.status.success() {
        let _ = std::fs::remove_dir_all(&work);
        return Err(Failure::Message(rustc_failure(
            &output,
            "the chess2rs runtime",
        )));
    }
    let what = format!(
        "chess2rs-runtime {} ({})",
        env!("CARGO_PKG_VERSION"),
        toolchain.release()
    );
    slot.store(&work, &partial, &src, &what)?;
    ui.detail(
        "Finished",
        &format!(
            "the chess2rs runtime in {:.1}s",
            started.elapsed().as_secs_f64()
        ),
    );
    drop(lock);
    Ok(slot)
}

/// Runs rustc (`command`) to its end with `progress` shown meanwhile
/// (animated on a terminal if `animate`). Interrupted (SIGINT, SIGTERM),
/// rustc is killed and `work` removed.
fn rustc(
    command: &mut Command,
    work: &Path,
    progress: Option<String>,
    animate: bool,
) -> CliResult<std::process::Output> {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let spinner = progress.map(|line| Progress::start(line, animate));
    let result = interrupt::output(command);
    if let Some(spinner) = spinner {
        spinner.stop();
    }
    result.map_err(|stopped| match stopped {
        Stopped::Io(e) => {
            let _ = std::fs::remove_dir_all(work);
            Failure::Message(format!(
                "cannot start rustc ({e}); `run` and `build` need a Rust toolchain — `interpret` does not"
            ))
        }
        Stopped::Signal(signal) => {
            let _ = std::fs::remove_dir_all(work);
            Failure::Interrupted(signal)
        }
    })
}

/// Whether rustc refused the runtime library as built by another rustc
/// (or unreadable as a library).
fn refused_runtime(output: &std::process::Output) -> bool {
    let stderr = String::from_utf8_lossy(&output.stderr);
    ["E0514", "E0786", "E0460", "incompatible version of rustc"]
        .iter()
        .any(|sign| stderr.contains(sign))
}

/// What to say when rustc fails building `what`: killed (most likely out
/// of memory), out of memory, or a real error in the generated code (a
/// chess2rs bug).
fn rustc_failure(output: &std::process::Output, what: &str) -> String {
    let stderr = String::from_utf8_lossy(&output.stderr);
    let first_lines: String = stderr.lines().take(30).collect::<Vec<_>>().join("\n");
    let hint =
        "set CHESS2RS_OPT_LEVEL=1 (or 0) for a cheaper build, or give the machine more memory";
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = output.status.signal() {
            return format!(
                "rustc was killed by signal {signal}{} while building {what}\n  = help: {hint}",
                if signal == 9 {
                    " (most likely by the system, out of memory)"
                } else {
                    ""
                }
            );
        }
    }
    if stderr.contains("No space left on device") {
        return format!(
            "rustc could not write its output: the disk of the build cache is full\n  = help: free some space, or set CHESS2RS_CACHE_DIR to a directory on another disk\n{first_lines}"
        );
    }
    if stderr.contains("memory allocation of") || stderr.contains("out of memory") {
        return format!("rustc ran out of memory building {what}\n  = help: {hint}\n{first_lines}");
    }
    format!(
        "rustc failed on {what} (a chess2rs bug, or a rustc older than 1.89; please report it with the program)\n{first_lines}"
    )
}

/// A "Compiling ..." line on stderr, animated on a terminal while rustc
/// works.
struct Progress {
    done: std::sync::mpsc::Sender<()>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Progress {
    /// Shows `line` (animated on a terminal if `animate`) until
    /// [`Progress::stop`].
    fn start(line: String, animate: bool) -> Progress {
        let (done, wait) = std::sync::mpsc::channel::<()>();
        let thread = if animate && std::io::stderr().is_terminal() {
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
