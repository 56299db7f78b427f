//! `chess2rs interpret`: runs the program without rustc, optionally
//! tracing each step.

use std::io::IsTerminal;

use super::args::InterpretArgs;
use super::report::Reporter;
use super::{load, show_progress, CliResult, EXIT_RUNTIME_ERROR};
use crate::interpret;

/// Runs the program in the interpreter on stdin/stdout.
pub(super) fn interpret_file(args: &InterpretArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(&args.source.file, &args.source.lang)?;
    let checked = reporter.checked(&loaded)?;
    let options = args.limits.options();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let result = if args.trace {
        crate::interpret_traced(
            &checked.program,
            stdin.lock(),
            stdout.lock(),
            &options,
            args.trace_limit,
            &mut std::io::stderr().lock(),
        )
    } else if std::io::stderr().is_terminal() {
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
            let result = crate::interpret_counted(
                &checked.program,
                stdin.lock(),
                stdout.lock(),
                &options,
                done,
            );
            let _ = stop.send(());
            result
        })
    } else {
        interpret(&checked.program, stdin.lock(), stdout.lock(), &options)
    };
    match result {
        Ok(()) => Ok(0),
        Err(err) => {
            eprint!(
                "{}",
                crate::runtime_errors::render_runtime_error(&err, &loaded.source, loaded.language)
            );
            Ok(EXIT_RUNTIME_ERROR)
        }
    }
}
