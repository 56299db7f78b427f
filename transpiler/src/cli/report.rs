//! How the command reports: errors and warnings as rustc shows them
//! (`--message-format human`), one line each (`short`) or one JSON object
//! per line in the shape of rustc's (`json`); colour (`--color`, with
//! `NO_COLOR` and `CLICOLOR_FORCE`); and `-D warnings`, which makes
//! warnings errors.

use std::io::{IsTerminal, Write};

use clap::{Args, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};

use super::{CliResult, Failure, Loaded};
use crate::emit::ProgramText;
use crate::{check, compile_file, Checked, Diagnostic, Diagnostics, Severity, Source};

/// The reporting options every verb takes (before or after the verb).
#[derive(Args, Debug, Clone)]
#[command(next_help_heading = "Reporting")]
pub(super) struct ReportArgs {
    /// How errors and warnings are printed: `human` (rustc-style, with the
    /// source line), `short` (`FILE:LINE:COL: LEVEL[CODE]: MESSAGE`) or
    /// `json` (one object a line, shaped as rustc's).
    ///
    /// Runtime errors too: `short` prints them on one line, `json` as
    /// diagnostics whose span gives the command's line, column and source
    /// line (byte offsets null). Under `json` every line on stderr is a JSON
    /// object: diagnostics (`"$message_type":"diagnostic"`, bad command
    /// lines included) and cargo-style progress —
    /// `{"reason":"build-progress","message":...}` for each status line,
    /// `{"reason":"compiler-artifact","target":{...},"filenames":[...],
    /// "fresh":...}` for the executable of `run` and `build`,
    /// `{"reason":"build-finished","success":...}` at the end of `build`,
    /// and `{"reason":"trace","message":...}` for each line of a trace.
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        global = true,
        hide_possible_values = true,
        default_value_t = MessageFormat::Human
    )]
    pub(super) message_format: MessageFormat,
    /// Colour: `auto` (on a terminal, unless NO_COLOR is set; a set
    /// CLICOLOR_FORCE colours anywhere), `always` or `never`.
    #[arg(
        long,
        value_enum,
        value_name = "WHEN",
        global = true,
        hide_possible_values = true,
        default_value_t = ColorWhen::Auto
    )]
    pub(super) color: ColorWhen,
    /// `-D warnings`: warnings are errors (the command then exits with 2).
    #[arg(
        short = 'D',
        long = "deny",
        value_enum,
        value_name = "LINT",
        global = true,
        hide_possible_values = true
    )]
    pub(super) deny: Vec<Lint>,
}

/// `--message-format`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MessageFormat {
    /// rustc-style: the message, the source line, a caret and hints.
    Human,
    /// One line per diagnostic: `FILE:LINE:COL: LEVEL[CODE]: MESSAGE`.
    Short,
    /// One JSON object per line, in the shape of rustc's diagnostics.
    Json,
}

/// `--color`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ColorWhen {
    /// On a terminal, unless NO_COLOR is set (CLICOLOR_FORCE forces it).
    Auto,
    /// Always, even into a file or pipe.
    Always,
    /// Never.
    Never,
}

/// What `-D` denies.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Lint {
    /// Every warning.
    Warnings,
}

/// Prints what the command has to report, as the options ask.
#[derive(Clone, Debug)]
pub(super) struct Reporter {
    format: MessageFormat,
    color: ColorWhen,
    deny_warnings: bool,
}

/// Where text goes, for deciding whether it is coloured.
#[derive(Clone, Copy, Debug)]
pub(super) enum Stream {
    Stdout,
    Stderr,
}

impl Reporter {
    /// The reporter for the options given.
    pub(super) fn new(args: &ReportArgs) -> Reporter {
        Reporter {
            format: args.message_format,
            color: args.color,
            deny_warnings: args.deny.contains(&Lint::Warnings),
        }
    }

    /// Whether text written to `stream` is coloured: `--color always` or
    /// `never` decide; with `auto`, a set CLICOLOR_FORCE (other than `0`)
    /// colours, a set NO_COLOR does not, and otherwise a terminal does.
    pub(super) fn colours(&self, stream: Stream) -> bool {
        let set = |name: &str| std::env::var_os(name).is_some_and(|value| !value.is_empty());
        let is =
            |name: &str, wanted: &str| std::env::var_os(name).is_some_and(|value| value == wanted);
        match self.color {
            ColorWhen::Always => true,
            ColorWhen::Never => false,
            ColorWhen::Auto if set("CLICOLOR_FORCE") && !is("CLICOLOR_FORCE", "0") => true,
            ColorWhen::Auto if set("NO_COLOR") => false,
            ColorWhen::Auto => match stream {
                Stream::Stdout => std::io::stdout().is_terminal(),
                Stream::Stderr => std::io::stderr().is_terminal(),
            },
        }
    }

    /// Whether diagnostics are printed for people (`human`), so that
    /// summary lines ("no errors") belong with them.
    pub(super) fn is_human(&self) -> bool {
        self.format != MessageFormat::Json
    }

    /// Prints `diagnostics` about `source` on stderr.
    pub(super) fn diagnostics(&self, diagnostics: &Diagnostics, source: &Source) {
        if diagnostics.is_empty() {
            return;
        }
        match self.format {
            MessageFormat::Human => {
                let choice = if self.colours(Stream::Stderr) {
                    ColorChoice::Always
                } else {
                    ColorChoice::Never
                };
                diagnostics.emit(source, &mut StandardStream::stderr(choice));
            }
            MessageFormat::Short => {
                let text: String = diagnostics
                    .iter()
                    .map(|diagnostic| short_line(diagnostic, source))
                    .collect();
                let _ = std::io::stderr().write_all(text.as_bytes());
            }
            MessageFormat::Json => {
                let mut stderr = std::io::stderr().lock();
                for diagnostic in diagnostics {
                    let _ = writeln!(stderr, "{}", json_diagnostic(diagnostic, source));
                }
            }
        }
    }

    /// Runs `front_end` (a check or compilation) building only the
    /// diagnostics this format prints: the human format shows at most
    /// [`SHOWN_AT_MOST`](crate::diag::SHOWN_AT_MOST) and counts the rest;
    /// the short and JSON formats list every one.
    pub(super) fn front_end<T>(&self, front_end: impl FnOnce() -> T) -> T {
        match self.format {
            MessageFormat::Human => crate::diag::building_shown_only(front_end),
            MessageFormat::Short | MessageFormat::Json => front_end(),
        }
    }

    /// Whether every line on stderr is a JSON object (`json`).
    pub(super) fn is_json(&self) -> bool {
        self.format == MessageFormat::Json
    }

    /// The format a runtime error is printed in, by the interpreter here
    /// or by a built executable told it with `--message-format`.
    pub(super) fn runtime_format(&self) -> chess2rs_runtime::MessageFormat {
        match self.format {
            MessageFormat::Human => chess2rs_runtime::MessageFormat::Human,
            MessageFormat::Short => chess2rs_runtime::MessageFormat::Short,
            MessageFormat::Json => chess2rs_runtime::MessageFormat::Json,
        }
    }

    /// Prints the runtime error `err` of the interpreter running `loaded`
    /// (whose program has `commands`), as a built executable of it would
    /// print it.
    pub(super) fn runtime_error(
        &self,
        err: &chess2rs_runtime::RuntimeError,
        loaded: &Loaded,
        commands: &crate::runtime_errors::Commands,
    ) {
        let text = crate::runtime_errors::render_runtime_error_as(
            err,
            &loaded.source,
            commands,
            self.runtime_format(),
        );
        let _ = std::io::stderr().write_all(text.as_bytes());
    }

    /// Prints a line of progress: `human` as it is, or under `json` the
    /// object `{"reason":"build-progress","message":MESSAGE}`.
    pub(super) fn progress(&self, human: &str, message: &str) {
        if self.is_json() {
            eprintln!("{}", progress_object(message));
        } else {
            eprintln!("{human}");
        }
    }

    /// Under `json`, prints `{"reason":"build-finished","success":BOOL}`.
    pub(super) fn finished(&self, success: bool) {
        if self.is_json() {
            let object = serde_json::json!({"reason": "build-finished", "success": success});
            eprintln!("{object}");
        }
    }

    /// Prints an error that is about no place in a program (a file that
    /// cannot be read, a bad option).
    pub(super) fn message(&self, message: &str) {
        self.unplaced("error", message);
    }

    /// Prints a note about no place in a program.
    pub(super) fn note(&self, message: &str) {
        self.unplaced("note", message);
    }

    /// Prints `LEVEL: MESSAGE` (a JSON diagnostic without spans).
    fn unplaced(&self, level: &str, message: &str) {
        match self.format {
            MessageFormat::Human | MessageFormat::Short => eprintln!("{level}: {message}"),
            MessageFormat::Json => {
                let object = serde_json::json!({
                    "$message_type": "diagnostic",
                    "message": message,
                    "code": null,
                    "level": level,
                    "spans": [],
                    "children": [],
                    "rendered": format!("{level}: {message}\n"),
                });
                eprintln!("{object}");
            }
        }
    }

    /// The warnings to show of a program that compiled: all of them, or
    /// under `-D warnings` the same as errors, which stop the command.
    fn settle(&self, warnings: &Diagnostics, source: &Source, show: bool) -> CliResult<()> {
        if self.deny_warnings && !warnings.is_empty() {
            self.diagnostics(&denied(warnings), source);
            let count = warnings.len();
            let (warnings, errors) = if count == 1 {
                ("1 warning is", "an error")
            } else {
                (&*format!("{count} warnings are"), "errors")
            };
            self.note(&format!(
                "{warnings} reported as {errors} because of `-D warnings`"
            ));
            return Err(Failure::Diagnostics);
        }
        if show {
            self.diagnostics(warnings, source);
        }
        Ok(())
    }

    /// Checks the program, printing its warnings, or prints its errors and
    /// fails.
    pub(super) fn checked(&self, loaded: &Loaded) -> CliResult<Checked> {
        self.checked_showing_warnings(loaded, true)
    }

    /// The checked program; errors printed, and warnings if `show` (or if
    /// they are denied, as errors).
    pub(super) fn checked_showing_warnings(
        &self,
        loaded: &Loaded,
        show: bool,
    ) -> CliResult<Checked> {
        match self.front_end(|| check(&loaded.source, loaded.language)) {
            Ok(checked) => {
                self.settle(&checked.warnings, &loaded.source, show)?;
                Ok(checked)
            }
            Err(errors) => {
                self.diagnostics(&errors, &loaded.source);
                Err(Failure::Diagnostics)
            }
        }
    }

    /// The generated program file for `loaded`, warnings printed.
    pub(super) fn program_file(&self, loaded: &Loaded, standalone: bool) -> CliResult<ProgramText> {
        self.program_file_naming(loaded, standalone, loaded.source.name())
    }

    /// [`Reporter::program_file`], the generated code calling the program
    /// file `name` (diagnostics still name it as loaded).
    pub(super) fn program_file_naming(
        &self,
        loaded: &Loaded,
        standalone: bool,
        name: &str,
    ) -> CliResult<ProgramText> {
        let renamed;
        let source = if name == loaded.source.name() {
            &loaded.source
        } else {
            renamed = Source::new(name, loaded.source.text());
            &renamed
        };
        match self.front_end(|| compile_file(source, loaded.language, standalone)) {
            Ok((text, warnings)) => {
                self.settle(&warnings, &loaded.source, true)?;
                Ok(text)
            }
            Err(errors) => {
                self.diagnostics(&errors, &loaded.source);
                Err(Failure::Diagnostics)
            }
        }
    }

    /// `result`'s errors printed: the value, or [`Failure::Diagnostics`].
    pub(super) fn or_errors<T>(
        &self,
        result: Result<T, Diagnostics>,
        source: &Source,
    ) -> CliResult<T> {
        result.map_err(|errors| {
            self.diagnostics(&errors, source);
            Failure::Diagnostics
        })
    }
}

/// `{"reason":"build-progress","message":MESSAGE}`.
pub(super) fn progress_object(message: &str) -> serde_json::Value {
    serde_json::json!({"reason": "build-progress", "message": message})
}

/// `{"reason":"compiler-artifact",...}`: the executable of the program
/// `source_name` at `path`, `fresh` if it was in the cache — `target`
/// (`name`, the program's stem; `kind` `["bin"]`; `src_path`, the program
/// file), `filenames` and `fresh`, as cargo says it.
pub(super) fn artifact_object(
    source_name: &str,
    path: &std::path::Path,
    fresh: bool,
) -> serde_json::Value {
    let name = std::path::Path::new(source_name)
        .file_stem()
        .map(|stem| stem.to_string_lossy().into_owned())
        .unwrap_or_else(|| "program".to_string());
    serde_json::json!({
        "reason": "compiler-artifact",
        "target": {"name": name, "kind": ["bin"], "src_path": source_name},
        "filenames": [path.display().to_string()],
        "fresh": fresh,
    })
}

/// `message` (a usage error, as clap or the verb check words it, with
/// `error: ` first) as a JSON diagnostic: its first paragraph the
/// message (on one line), the whole text `rendered`.
pub(super) fn usage_error_json(text: &str) -> serde_json::Value {
    let paragraph: Vec<&str> = text
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(str::trim)
        .collect();
    let first = paragraph.join(" ");
    let message = first.strip_prefix("error: ").unwrap_or(&first);
    serde_json::json!({
        "$message_type": "diagnostic",
        "message": message,
        "code": null,
        "level": "error",
        "spans": [],
        "children": [],
        "rendered": text,
    })
}

/// `warnings` as errors.
fn denied(warnings: &Diagnostics) -> Diagnostics {
    warnings
        .iter()
        .map(|warning| Diagnostic {
            severity: Severity::Error,
            ..warning.clone()
        })
        .collect()
}

/// `FILE:LINE:COL: LEVEL[CODE]: MESSAGE`, and a newline.
fn short_line(diagnostic: &Diagnostic, source: &Source) -> String {
    let (line, column) = source.line_col(diagnostic.span.start);
    format!(
        "{}:{line}:{column}: {}[{}]: {}\n",
        source.name(),
        diagnostic.severity.name(),
        diagnostic.code.as_str(),
        diagnostic.message
    )
}

/// One diagnostic as rustc's JSON describes one: `message`, `code`
/// (`{"code":"E0105","explanation":MARKDOWN}`, as `--explain` prints it),
/// `level`, `spans` (the primary one first, each with its file,
/// byte range, 1-based lines and columns — the end column just past the
/// last character —, the source lines it covers and its label),
/// `children` (the help) and `rendered` (the human text).
fn json_diagnostic(diagnostic: &Diagnostic, source: &Source) -> serde_json::Value {
    let mut spans = vec![json_span(&diagnostic.span, &diagnostic.label, true, source)];
    spans.extend(
        diagnostic
            .secondary
            .iter()
            .map(|(span, label)| json_span(span, label, false, source)),
    );
    let child = |level: &str, message: &str| {
        serde_json::json!({
            "message": message,
            "code": null,
            "level": level,
            "spans": [],
            "children": [],
            "rendered": null,
        })
    };
    let children: Vec<serde_json::Value> = diagnostic
        .help
        .iter()
        .map(|help| {
            let mut help = child("help", help);
            // The fix the help names, as rustc gives its suggestions.
            if let Some(suggestion) = &diagnostic.suggestion {
                let mut span = json_span(&suggestion.span, "", true, source);
                span["suggested_replacement"] = suggestion.replacement.clone().into();
                span["suggestion_applicability"] = "MaybeIncorrect".into();
                help["spans"] = serde_json::json!([span]);
            }
            help
        })
        .collect();
    let rendered = Diagnostics::from(diagnostic.clone()).render(source);
    serde_json::json!({
        "$message_type": "diagnostic",
        "message": diagnostic.message,
        "code": {
            "code": diagnostic.code.as_str(),
            "explanation": diagnostic.code.explanation(),
        },
        "level": diagnostic.severity.name(),
        "spans": spans,
        "children": children,
        "rendered": rendered,
    })
}

/// A span in rustc's JSON shape.
fn json_span(span: &crate::Span, label: &str, primary: bool, source: &Source) -> serde_json::Value {
    let (line_start, column_start) = source.line_col(span.start);
    let (line_end, column_end) = source.line_col(span.end);
    let text: Vec<serde_json::Value> = (line_start..=line_end)
        .filter_map(|number| Some((number, source.line(number)?.1)))
        .map(|(number, text)| {
            let start = if number == line_start {
                column_start
            } else {
                1
            };
            let end = if number == line_end {
                column_end as usize
            } else {
                text.chars().count() + 1
            };
            serde_json::json!({
                "text": text,
                "highlight_start": start,
                "highlight_end": end,
            })
        })
        .collect();
    serde_json::json!({
        "file_name": source.name(),
        "byte_start": span.start,
        "byte_end": span.end,
        "line_start": line_start,
        "line_end": line_end,
        "column_start": column_start,
        "column_end": column_end,
        "is_primary": primary,
        "text": text,
        "label": if label.is_empty() { None } else { Some(label) },
        "suggested_replacement": null,
        "suggestion_applicability": null,
        "expansion": null,
    })
}
