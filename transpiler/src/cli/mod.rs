//! The `chess2rs` command line: emit Rust (default), `run`, `build`,
//! `interpret`, `check`, `explain`, `fmt`, `view`, `synth`, `lsp`, `cache`,
//! `completions`, `man` (and the hidden `tier-build` of `run`'s tiers);
//! `--explain CODE` explains a diagnostic code.
//!
//! `args` defines the arguments, `report` prints diagnostics as they ask;
//! each verb has a file of its own; `output` and `interrupt` are what the
//! verbs share for writing results and stopping children.

mod args;
mod build;
mod cache;
mod check;
mod completions;
mod emit;
mod explain;
mod fmt;
mod interpret;
mod interrupt;
mod man;
mod output;
mod report;
mod synth;
mod tier;
mod toolchain;
mod view;

use std::io::Read;
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use self::args::{Cli, LangArg, Verb};
use self::report::Reporter;
use crate::{Language, Source};

pub use self::man::reference;

/// Exit code for compile errors and bad command lines.
pub const EXIT_COMPILE_ERROR: u8 = 2;
/// Exit code for runtime errors.
pub const EXIT_RUNTIME_ERROR: u8 = 1;

/// Runs the CLI with the process's arguments and returns its exit code.
pub fn main() -> ExitCode {
    let args = args::report_options_after_verb(std::env::args_os().collect());
    // Known before clap reads the line, so that its errors are JSON too.
    let json = args::asks_for_json(&args);
    if let Some(message) = args::mistyped_verb(&args) {
        let text = format!("error: {message}\n\nFor more information, try `chess2rs --help`.");
        if json {
            eprintln!("{}", report::usage_error_json(&format!("{text}\n")));
        } else {
            eprintln!("{text}");
        }
        return ExitCode::from(EXIT_COMPILE_ERROR);
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        // Help and version go to stdout as they are.
        Err(error) if json && error.use_stderr() => {
            let text = match error.kind() {
                clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
                    "error: no program or verb given\n\nFor more information, try '--help'.\n"
                        .to_string()
                }
                _ => error.render().to_string(),
            };
            eprintln!("{}", report::usage_error_json(&text));
            return ExitCode::from(EXIT_COMPILE_ERROR);
        }
        Err(error) => error.exit(),
    };
    let reporter = Reporter::new(&cli.report);
    let result = match cli.verb {
        None => match &cli.explain {
            Some(code) => explain_code(code),
            None => emit::emit_rust(&cli.emit, &reporter),
        },
        Some(Verb::Check(args)) => check::check_only(&args, &reporter),
        Some(Verb::Explain(args)) => explain::explain_game(&args, &reporter),
        Some(Verb::Fmt(args)) => fmt::format_files(&args, &reporter),
        Some(Verb::Synth(args)) => synth::synth_game(&args, &reporter),
        Some(Verb::Interpret(args)) => interpret::interpret_file(&args, &reporter),
        Some(Verb::Run(args)) => build::run(&args, &reporter),
        Some(Verb::Build(args)) => build::build(&args, &reporter),
        Some(Verb::Cache(args)) => cache::cache(&args),
        Some(Verb::View(args)) => view::view(&args, &reporter),
        Some(Verb::TierBuild(args)) => tier::tier_build(&args),
        Some(Verb::Lsp) => crate::lsp::run_stdio()
            .map_err(|e| Failure::Message(format!("the language server stopped: {e}"))),
        Some(Verb::Completions { shell }) => completions::completions(shell),
        Some(Verb::Man(args)) => man::manual(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // The conventional status of a process ended by the signal.
        Err(Failure::Interrupted(signal)) => {
            ExitCode::from(u8::try_from(128 + signal).unwrap_or(u8::MAX))
        }
        Err(failure) => {
            if let Failure::Message(message) = failure {
                reporter.message(&message);
            }
            ExitCode::from(EXIT_COMPILE_ERROR)
        }
    }
}

/// `--explain CODE`: the code's explanation on stdout, or an error for a
/// code that is not one.
fn explain_code(written: &str) -> CliResult<u8> {
    let Some(code) = crate::diag::Code::parse(written) else {
        let codes = crate::diag::Code::ALL.iter().map(|code| code.as_str());
        let hint = match crate::diag::did_you_mean(written, codes) {
            Some(close) => format!("; did you mean `{close}`?"),
            None => " (docs/diagnostics.md lists every code)".to_string(),
        };
        return Err(Failure::Message(format!(
            "`{}` is not a chess2rs diagnostic code{hint}",
            crate::diag::excerpt(written)
        )));
    };
    output::to_stdout(|out| out.write_all(code.explanation().as_bytes()))?;
    Ok(0)
}

/// Why the CLI stopped before running a program.
enum Failure {
    /// The program has errors (already printed).
    Diagnostics,
    /// Anything else: a message for `error: ...`.
    Message(String),
    /// SIGINT or SIGTERM (the number) came while rustc or the program ran;
    /// the child was killed and waited for. Nothing to print.
    Interrupted(i32),
}

type CliResult<T> = Result<T, Failure>;

/// A program loaded from a file or stdin, with its language.
struct Loaded {
    source: Source,
    language: Language,
}

fn load(file: &Path, lang: &LangArg) -> CliResult<Loaded> {
    let (name, bytes) = if file == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::Message(format!("cannot read the program from stdin: {e}")))?;
        ("<stdin>".to_string(), bytes)
    } else {
        let bytes = std::fs::read(file)
            .map_err(|e| Failure::Message(format!("cannot read `{}`: {e}", file.display())))?;
        (file.display().to_string(), bytes)
    };
    let language = match lang.lang.or_else(|| Language::from_path(file)) {
        Some(language) => language,
        None => {
            return Err(Failure::Message(format!(
                "cannot tell the language of `{name}` from its extension; give --lang (icp, chc, pgn, btm or fv)"
            )))
        }
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::Message(format!(
            "`{name}` is not valid UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(Loaded {
        source: Source::new(name, text),
        language,
    })
}

/// The name of a program file without directories and extension (for
/// default output names), `program` for stdin.
fn program_stem(file: &Path) -> String {
    file.file_stem()
        .and_then(|s| s.to_str())
        .filter(|s| !s.is_empty() && *s != "-")
        .unwrap_or("program")
        .to_string()
}

/// Shows `running: STATUS…` on stderr, from one second after the start
/// until `stop` says the program ended, then clears the line.
fn show_progress(status: impl Fn() -> String, stop: &std::sync::mpsc::Receiver<()>) {
    use std::sync::mpsc::RecvTimeoutError;
    use std::time::Duration;
    if !matches!(
        stop.recv_timeout(Duration::from_secs(1)),
        Err(RecvTimeoutError::Timeout)
    ) {
        return;
    }
    loop {
        eprint!("\r  running: {}…", status());
        if !matches!(
            stop.recv_timeout(Duration::from_millis(250)),
            Err(RecvTimeoutError::Timeout)
        ) {
            break;
        }
    }
    eprint!("\r{}\r", " ".repeat(40));
}
