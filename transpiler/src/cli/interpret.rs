//! `chess2rs interpret`: runs the program without rustc, optionally
//! tracing each step.

use std::io::{IsTerminal, Write};

use chess2rs_runtime::{Options, RuntimeError};

use super::args::InterpretArgs;
use super::report::Reporter;
use super::{load, show_progress, CliResult, Loaded, EXIT_RUNTIME_ERROR};
use crate::interpret;

/// Runs the program in the interpreter on stdin/stdout.
pub(super) fn interpret_file(args: &InterpretArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(&args.source.file, &args.source.lang)?;
    let checked = reporter.checked(&loaded)?;
    if args.trace {
        let traced = |trace: &mut dyn Write| {
            crate::interpret_traced(
                &checked.program,
                std::io::stdin().lock(),
                std::io::stdout().lock(),
                &args.limits.options(),
                args.trace_limit,
                trace,
            )
        };
        let mut stderr = std::io::stderr().lock();
        let result = if reporter.is_json() {
            let mut lines = TraceLines {
                out: &mut stderr,
                line: Vec::new(),
            };
            let result = traced(&mut lines);
            let _ = lines.flush();
            result
        } else {
            traced(&mut stderr)
        };
        drop(stderr);
        return Ok(exit_code(result, &loaded, &checked.program, reporter));
    }
    Ok(interpret_checked(
        &loaded,
        &checked.program,
        &args.limits.options(),
        reporter,
    ))
}

/// Runs `program` (checked from `loaded`) in the interpreter on
/// stdin/stdout, with a progress line on a terminal (not under `json`);
/// its exit code.
pub(super) fn interpret_checked(
    loaded: &Loaded,
    program: &crate::Program,
    options: &Options,
    reporter: &Reporter,
) -> u8 {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let result = if std::io::stderr().is_terminal() && !reporter.is_json() {
        // A long run shows how far it got, after a second.
        let done = std::sync::atomic::AtomicU64::new(0);
        let (stop, wait) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let done = &done;
            scope.spawn(move || {
                show_progress(
                    || format!("{} steps", done.load(std::sync::atomic::Ordering::Relaxed)),
                    &wait,
                )
            });
            let result =
                crate::interpret_counted(program, stdin.lock(), stdout.lock(), options, done);
            let _ = stop.send(());
            result
        })
    } else {
        interpret(program, stdin.lock(), stdout.lock(), options)
    };
    exit_code(result, loaded, program, reporter)
}

/// The exit code of an interpreted run of `program` that ended with
/// `result`, its runtime error (if any) printed on stderr as `reporter`
/// asks.
pub(super) fn exit_code(
    result: Result<(), RuntimeError>,
    loaded: &Loaded,
    program: &crate::Program,
    reporter: &Reporter,
) -> u8 {
    match result {
        Ok(()) => 0,
        Err(err) => {
            reporter.runtime_error(&err, loaded, &program.error_sites());
            EXIT_RUNTIME_ERROR
        }
    }
}

/// The trace under `json`: each line written becomes the object
/// `{"reason":"trace","message":LINE}`.
struct TraceLines<'a> {
    out: &'a mut dyn Write,
    /// The line so far.
    line: Vec<u8>,
}

impl TraceLines<'_> {
    /// Writes the line so far as its object (none if it is empty).
    fn emit(&mut self) -> std::io::Result<()> {
        if self.line.is_empty() {
            return Ok(());
        }
        let text = String::from_utf8_lossy(&self.line).into_owned();
        self.line.clear();
        let object = serde_json::json!({"reason": "trace", "message": text});
        writeln!(self.out, "{object}")
    }
}

impl Write for TraceLines<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        for &byte in buf {
            if byte == b'\n' {
                self.emit()?;
            } else {
                self.line.push(byte);
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.emit()?;
        self.out.flush()
    }
}
