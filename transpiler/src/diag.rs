//! Diagnostics: errors and warnings with spans, and the one renderer
//! (codespan-reporting) used by the CLI, the macro and the tests.

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as ReportSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::WriteColor};

use crate::source::{Source, Span};

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The program cannot be compiled.
    Error,
    /// Legal but suspicious.
    Warning,
}

/// One error or warning about a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, as one sentence without a trailing period.
    pub message: String,
    /// Where: the primary span, with its label.
    pub span: Span,
    /// Text shown under the caret.
    pub label: String,
    /// Further spans with labels (e.g. "first defined here").
    pub secondary: Vec<(Span, String)>,
    /// How to fix it, if there is a suggestion.
    pub help: Option<String>,
}

impl Diagnostic {
    /// An error at `span`.
    pub fn error(message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            span,
            label: String::new(),
            secondary: Vec::new(),
            help: None,
        }
    }

    /// A warning at `span`.
    pub fn warning(message: impl Into<String>, span: Span) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(message, span)
        }
    }

    /// Sets the text under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Adds a secondary span with a label.
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push((span, label.into()));
        self
    }

    /// Sets the hint.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    fn to_report(&self) -> Report<()> {
        let severity = match self.severity {
            Severity::Error => ReportSeverity::Error,
            Severity::Warning => ReportSeverity::Warning,
        };
        let mut labels = vec![Label::primary((), self.span.clone()).with_message(&self.label)];
        labels.extend(
            self.secondary
                .iter()
                .map(|(span, label)| Label::secondary((), span.clone()).with_message(label)),
        );
        let notes = self
            .help
            .iter()
            .map(|help| format!("help: {help}"))
            .collect();
        Report::new(severity)
            .with_message(&self.message)
            .with_labels(labels)
            .with_notes(notes)
    }
}

/// All diagnostics of one compilation, in source order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// Adds one diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        self.0.push(diagnostic);
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(Diagnostic::is_error)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The diagnostics that are errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.0.iter().filter(|d| d.is_error())
    }

    /// Sorts by position (errors before warnings at the same place).
    pub fn sort(&mut self) {
        self.0
            .sort_by_key(|d| (d.span.start, d.severity == Severity::Warning, d.span.end));
    }

    /// Renders every diagnostic rustc-style as plain text.
    pub fn render(&self, source: &Source) -> String {
        let mut out = Vec::new();
        let mut writer = term::termcolor::NoColor::new(&mut out);
        self.emit(source, &mut writer);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Renders every diagnostic to `writer` (which may colour them).
    pub fn emit<W: WriteColor>(&self, source: &Source, writer: &mut W) {
        let file = SimpleFile::new(source.name(), source.text());
        let config = term::Config {
            chars: term::Chars::ascii(),
            ..term::Config::default()
        };
        for diagnostic in &self.0 {
            // Rendering only fails on spans outside the file, which would be
            // a compiler bug; fall back to a one-line message then.
            if term::emit_to_write_style(writer, &config, &file, &diagnostic.to_report()).is_err() {
                let (line, col) = source.line_col(diagnostic.span.start);
                let _ = writeln!(
                    writer,
                    "{}:{line}:{col}: {}",
                    source.name(),
                    diagnostic.message
                );
            }
        }
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(diagnostic: Diagnostic) -> Self {
        Diagnostics(vec![diagnostic])
    }
}

impl std::iter::FromIterator<Diagnostic> for Diagnostics {
    fn from_iter<I: IntoIterator<Item = Diagnostic>>(iter: I) -> Self {
        Diagnostics(iter.into_iter().collect())
    }
}

/// The candidate closest to `word` (ignoring case), if one is close enough
/// to be what was meant: at most two edits away, and fewer than the word's
/// length. For "did you mean" hints on every named thing.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let lower = word.to_lowercase();
    candidates
        .into_iter()
        .filter(|candidate| *candidate != word)
        .map(|candidate| {
            let distance = strsim::damerau_levenshtein(&lower, &candidate.to_lowercase());
            (distance, candidate)
        })
        .filter(|&(distance, _)| distance <= 2 && distance < word.chars().count())
        .min_by_key(|&(distance, candidate)| (distance, candidate))
        .map(|(_, candidate)| candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_finds_close_names_only() {
        let verbs = ["run", "build", "interpret", "check", "explain"];
        assert_eq!(did_you_mean("runn", verbs), Some("run"));
        assert_eq!(did_you_mean("interpert", verbs), Some("interpret"));
        assert_eq!(did_you_mean("CHECK", verbs), Some("check"));
        assert_eq!(did_you_mean("frobnicate", verbs), None);
        assert_eq!(
            did_you_mean("x", ["y"]),
            None,
            "one letter is not a typo of another"
        );
    }

    #[test]
    fn renders_like_rustc() {
        let source = Source::new("prog.icp", "1. ^\n2. x=Z1,2\n");
        let diags = Diagnostics::from(
            Diagnostic::error("unknown piece type `Z`", 8..9)
                .with_label("not a piece")
                .with_help("piece types are K Q R B N P (white) and k q r b n p (black)"),
        );
        let text = diags.render(&source);
        assert!(text.contains("error: unknown piece type `Z`"), "{text}");
        assert!(text.contains("prog.icp:2:4"), "{text}");
        assert!(text.contains("2. x=Z1,2"), "{text}");
        assert!(text.contains("^ not a piece"), "{text}");
        assert!(text.contains("= help: piece types are"), "{text}");
    }
}
