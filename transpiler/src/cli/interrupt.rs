//! SIGINT and SIGTERM while chess2rs waits for a child process (rustc, or
//! the program that `run` runs).
//!
//! Left to their default action, these signals end chess2rs at once: a
//! child that did not get the signal too (`kill -TERM` of chess2rs alone,
//! `timeout`) runs on as an orphan, and a build leaves its work directory
//! behind. While [`output`] waits, the signals are only recorded instead;
//! the child is then killed and waited for, and the caller cleans up and
//! exits with 128 + the signal's number. At any other time the signals keep
//! their default action.

use std::io::Read;
use std::process::{Child, Command, ExitStatus, Output};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::thread::JoinHandle;
use std::time::Duration;

use signal_hook::consts::{SIGINT, SIGTERM};

/// The signals that stop a wait.
const SIGNALS: [i32; 2] = [SIGINT, SIGTERM];

/// The longest pause between two looks at the child and at [`CAUGHT`]: how
/// late, at most, a signal or the child's end is noticed.
const MAX_PAUSE: Duration = Duration::from_millis(25);

/// Whether no [`output`] is waiting: the signals then take their default
/// action.
static IDLE: AtomicBool = AtomicBool::new(true);

/// The signal caught while an [`output`] waited, or 0 if none was. It is
/// never reset: the process is on its way out once it is set.
static CAUGHT: AtomicUsize = AtomicUsize::new(0);

/// Why [`output`] returned no output.
#[derive(Debug)]
pub(super) enum Stopped {
    /// The child could not be started or waited for.
    Io(std::io::Error),
    /// This signal (its number) came; the child, if still running, was
    /// killed and waited for.
    Signal(i32),
}

/// Runs `command` to its end, like [`Command::output`] except that the
/// streams not set to [`std::process::Stdio::piped`] are left as they are
/// (empty in the output), and that SIGINT or SIGTERM coming meanwhile
/// kills the child and returns [`Stopped::Signal`].
pub(super) fn output(command: &mut Command) -> Result<Output, Stopped> {
    install().map_err(Stopped::Io)?;
    IDLE.store(false, Ordering::SeqCst);
    let result = spawn_and_wait(command);
    IDLE.store(true, Ordering::SeqCst);
    // A signal that came after the last look, before the line above, is
    // seen here; one after it ends the process by its default action.
    match caught() {
        Some(signal) => Err(Stopped::Signal(signal)),
        None => result,
    }
}

/// Registers the signal actions, once: each signal takes its default
/// action while [`IDLE`], and is recorded in [`CAUGHT`] otherwise.
fn install() -> std::io::Result<()> {
    static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();
    INSTALLED
        .get_or_init(|| {
            SIGNALS.iter().try_for_each(|&signal| {
                signal_hook::flag::register_conditional_default(signal, &IDLE)
                    // Signal numbers are small and positive.
                    .and_then(|_| {
                        signal_hook::flag::register_usize(signal, &CAUGHT, signal as usize)
                    })
                    .map(|_| ())
                    .map_err(|e| format!("cannot handle signal {signal}: {e}"))
            })
        })
        .clone()
        .map_err(std::io::Error::other)
}

/// Starts `command`, calls `started` on the child (to hand its pipes
/// over), and waits for it like [`output`]: SIGINT or SIGTERM coming
/// meanwhile kills it and returns [`Stopped::Signal`].
pub(super) fn wait_for(
    command: &mut Command,
    started: impl FnOnce(&mut Child),
) -> Result<ExitStatus, Stopped> {
    install().map_err(Stopped::Io)?;
    IDLE.store(false, Ordering::SeqCst);
    let result = match caught() {
        Some(signal) => Err(Stopped::Signal(signal)),
        None => command.spawn().map_err(Stopped::Io).and_then(|mut child| {
            started(&mut child);
            wait(&mut child)
        }),
    };
    IDLE.store(true, Ordering::SeqCst);
    match caught() {
        Some(signal) => Err(Stopped::Signal(signal)),
        None => result,
    }
}

/// Runs `work` with SIGINT and SIGTERM recorded instead of ending the
/// process, for work that looks at [`caught`] itself and stops early (the
/// recorder of `view`); returns its result and the signal that came, if
/// one did.
pub(super) fn catching<T>(work: impl FnOnce() -> T) -> std::io::Result<(T, Option<i32>)> {
    install()?;
    IDLE.store(false, Ordering::SeqCst);
    let result = work();
    IDLE.store(true, Ordering::SeqCst);
    Ok((result, caught()))
}

/// Stops the current or next wait of [`output`] as SIGTERM would (its
/// child is killed, the caller cleans up and exits): for a process told to
/// stop by other means than a signal (`run`'s background build, when the
/// `run` that started it is gone).
pub(super) fn request_stop() {
    CAUGHT.store(SIGTERM as usize, Ordering::SeqCst);
}

/// The signal recorded in [`CAUGHT`], if any.
pub(super) fn caught() -> Option<i32> {
    match CAUGHT.load(Ordering::SeqCst) {
        0 => None,
        signal => i32::try_from(signal).ok(),
    }
}

/// Starts `command` and waits for it, reading its piped streams on threads
/// (a child that fills one pipe while we wait cannot block), and killing it
/// when a signal is caught.
fn spawn_and_wait(command: &mut Command) -> Result<Output, Stopped> {
    if let Some(signal) = caught() {
        return Err(Stopped::Signal(signal));
    }
    let mut child = command.spawn().map_err(Stopped::Io)?;
    let stdout = child.stdout.take().map(read_to_end);
    let stderr = child.stderr.take().map(read_to_end);
    let status = wait(&mut child)?;
    Ok(Output {
        status,
        stdout: collected(stdout),
        stderr: collected(stderr),
    })
}

/// Waits for `child`, looking at [`CAUGHT`] in between: often at first
/// (a quick child is not held up), then every [`MAX_PAUSE`]. On a signal or
/// a failed wait the child is killed and waited for.
///
/// The threads reading its pipes are not waited for then: a process the
/// child started (rustc's linker) may hold them open a while longer.
fn wait(child: &mut Child) -> Result<ExitStatus, Stopped> {
    let mut pause = Duration::from_millis(1);
    let stopped = loop {
        if let Some(signal) = caught() {
            break Stopped::Signal(signal);
        }
        match child.try_wait() {
            Ok(Some(status)) => return Ok(status),
            Ok(None) => {}
            Err(e) => break Stopped::Io(e),
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(MAX_PAUSE);
    };
    kill(child);
    let _ = child.wait();
    Err(stopped)
}

/// Kills `child`, and the processes it started if it leads a process
/// group of its own (rustc, whose linker would otherwise run on); a child
/// in chess2rs's group (a program `run` runs, which may read the terminal)
/// is killed alone.
fn kill(child: &mut Child) {
    #[cfg(unix)]
    {
        use rustix::process::{kill_process_group, Pid, Signal};
        let _ = kill_process_group(Pid::from_child(child), Signal::KILL);
    }
    let _ = child.kill();
}

/// Reads `pipe` to its end on a thread of its own.
fn read_to_end(mut pipe: impl Read + Send + 'static) -> JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut bytes = Vec::new();
        // A read error ends the output early; what was read is kept.
        let _ = pipe.read_to_end(&mut bytes);
        bytes
    })
}

/// What a [`read_to_end`] thread read (nothing if there was no pipe).
fn collected(reader: Option<JoinHandle<Vec<u8>>>) -> Vec<u8> {
    reader
        .and_then(|thread| thread.join().ok())
        .unwrap_or_default()
}
