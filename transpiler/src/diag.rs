//! Diagnostics: errors and warnings with spans, and the one renderer
//! (codespan-reporting) used by the CLI, the macro and the tests.

use codespan_reporting::diagnostic::{Diagnostic as Report, Label, Severity as ReportSeverity};
use codespan_reporting::files::{self, Files, SimpleFile};
use codespan_reporting::term::{self, termcolor::WriteColor};

use crate::source::{Source, Span};

pub mod codes;

pub use self::codes::Code;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The program cannot be compiled.
    Error,
    /// Legal but suspicious.
    Warning,
}

impl Severity {
    /// Its name as rustc writes it: `error`, `warning`.
    pub fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// One error or warning about a program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error or warning.
    pub severity: Severity,
    /// What kind of diagnostic it is: `E0105` (see [`Code`]).
    pub code: Code,
    /// What is wrong, as one sentence without a trailing period.
    pub message: String,
    /// Where: the primary span, with its label.
    pub span: Span,
    /// Text shown under the caret.
    pub label: Box<str>,
    /// Further spans with labels (e.g. "first defined here").
    pub secondary: Vec<(Span, String)>,
    /// How to fix it, if there is a suggestion.
    pub help: Option<String>,
    /// The fix the help names, when it is one certain replacement of
    /// source text (an editor's quick fix; rustc's JSON
    /// `suggested_replacement`).
    pub suggestion: Option<Box<Suggestion>>,
}

/// A replacement of source text that fixes a diagnostic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suggestion {
    /// The text replaced.
    pub span: Span,
    /// What replaces it.
    pub replacement: String,
}

impl Diagnostic {
    /// An error of `code` (an `E` code) at `span`.
    pub fn error(code: Code, message: impl Into<String>, span: Span) -> Self {
        Diagnostic::of(Severity::Error, code, message.into(), span)
    }

    /// A warning of `code` (a `W` code) at `span`.
    pub fn warning(code: Code, message: impl Into<String>, span: Span) -> Self {
        Diagnostic::of(Severity::Warning, code, message.into(), span)
    }

    /// A diagnostic of `severity`, which is its code's.
    fn of(severity: Severity, code: Code, message: String, span: Span) -> Self {
        debug_assert_eq!(
            code.severity(),
            severity,
            "{code:?} is of the other severity"
        );
        Diagnostic {
            severity,
            code,
            message,
            span,
            label: Box::default(),
            secondary: Vec::new(),
            help: None,
            suggestion: None,
        }
    }

    /// Sets the text under the caret.
    pub fn with_label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into().into_boxed_str();
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

    /// Sets the replacement of `span` by `replacement` that fixes it
    /// (the help should say it in words).
    pub fn with_suggestion(mut self, span: Span, replacement: impl Into<String>) -> Self {
        self.suggestion = Some(Box::new(Suggestion {
            span,
            replacement: replacement.into(),
        }));
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
            .with_code(self.code.as_str())
            .with_message(&self.message)
            .with_labels(labels)
            .with_notes(notes)
    }
}

/// All diagnostics of one compilation, in source order once sorted.
///
/// A collection made inside [`building_shown_only`] keeps only the
/// diagnostics that can be [`shown`](Diagnostics::shown) (the first
/// [`SHOWN_AT_MOST`] errors and warnings by position) and counts the rest
/// without building them ([`Diagnostics::push_with`]): a document with
/// 200,000 errors costs what 50 do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics {
    /// The diagnostics kept, in the order pushed until sorted.
    list: Vec<Diagnostic>,
    /// How many of each severity are kept at most, if bounded.
    keep_at_most: Option<usize>,
    /// How many errors and warnings were counted but not kept.
    omitted: Counts,
    /// When bounded: how many errors (then warnings) are kept, and the
    /// largest start of those kept.
    bounded_kept: [(usize, usize); 2],
}

/// How many errors and warnings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Counts {
    errors: usize,
    warnings: usize,
}

impl Counts {
    fn of(&mut self, severity: Severity) -> &mut usize {
        match severity {
            Severity::Error => &mut self.errors,
            Severity::Warning => &mut self.warnings,
        }
    }
}

thread_local! {
    /// What [`Diagnostics::default`] keeps at most of each severity on
    /// this thread ([`building_shown_only`]).
    static KEEP_AT_MOST: std::cell::Cell<Option<usize>> = const { std::cell::Cell::new(None) };
}

/// Runs `front_end` with every [`Diagnostics`] made in it (on this thread)
/// keeping only what can be shown and counting the rest: for the human
/// output of the CLI and the language server, which show at most
/// [`SHOWN_AT_MOST`]. The JSON and short formats list every diagnostic.
pub fn building_shown_only<T>(front_end: impl FnOnce() -> T) -> T {
    /// Puts back the bound that was in force, also on unwinding.
    struct Restore(Option<usize>);
    impl Drop for Restore {
        fn drop(&mut self) {
            KEEP_AT_MOST.with(|keep| keep.set(self.0));
        }
    }
    let _restore = Restore(KEEP_AT_MOST.with(|keep| keep.replace(Some(SHOWN_AT_MOST))));
    front_end()
}

impl Default for Diagnostics {
    fn default() -> Self {
        Diagnostics {
            list: Vec::new(),
            keep_at_most: KEEP_AT_MOST.with(|keep| keep.get()),
            omitted: Counts::default(),
            bounded_kept: [(0, 0); 2],
        }
    }
}

impl Diagnostics {
    /// Adds one diagnostic.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        if self.keeps(diagnostic.severity, diagnostic.span.start) {
            self.keep(diagnostic);
        } else {
            *self.omitted.of(diagnostic.severity) += 1;
        }
    }

    /// Adds the diagnostic of `severity` at byte `start` that `build`
    /// makes, calling `build` only if it is kept: for checks that can
    /// report once per line of a large program.
    pub fn push_with(
        &mut self,
        severity: Severity,
        start: usize,
        build: impl FnOnce() -> Diagnostic,
    ) {
        if self.keeps(severity, start) {
            let diagnostic = build();
            debug_assert_eq!(diagnostic.severity, severity);
            debug_assert_eq!(diagnostic.span.start, start);
            self.keep(diagnostic);
        } else {
            *self.omitted.of(severity) += 1;
        }
    }

    /// Whether a diagnostic of `severity` at `start` is kept: always when
    /// unbounded, else while fewer than the bound of its severity are
    /// kept or one kept comes after it.
    fn keeps(&self, severity: Severity, start: usize) -> bool {
        match self.keep_at_most {
            None => true,
            Some(bound) => {
                let (kept, last) = self.bounded_kept[severity as usize];
                kept < bound || start <= last
            }
        }
    }

    /// Keeps `diagnostic`, dropping (and counting) the last of its
    /// severity if that makes one too many.
    fn keep(&mut self, diagnostic: Diagnostic) {
        let severity = diagnostic.severity;
        let Some(bound) = self.keep_at_most else {
            self.list.push(diagnostic);
            return;
        };
        let (kept, last) = &mut self.bounded_kept[severity as usize];
        *kept += 1;
        *last = (*last).max(diagnostic.span.start);
        self.list.push(diagnostic);
        if *kept > bound {
            let of_severity = |list: &[Diagnostic]| {
                list.iter()
                    .enumerate()
                    .filter(|(_, d)| d.severity == severity)
                    .map(|(index, d)| (d.span.start, d.span.end, index))
                    .collect::<Vec<_>>()
            };
            if let Some(&(_, _, dropped)) = of_severity(&self.list).iter().max() {
                self.list.remove(dropped);
                *self.omitted.of(severity) += 1;
            }
            let last = of_severity(&self.list)
                .iter()
                .map(|&(start, _, _)| start)
                .max()
                .unwrap_or(0);
            self.bounded_kept[severity as usize] = (bound, last);
        }
    }

    /// Adds all of `other`.
    pub fn append(&mut self, other: Diagnostics) {
        for diagnostic in other.list {
            self.push(diagnostic);
        }
        self.omitted.errors += other.omitted.errors;
        self.omitted.warnings += other.omitted.warnings;
    }

    /// Whether any diagnostic is an error.
    pub fn has_errors(&self) -> bool {
        self.omitted.errors > 0 || self.list.iter().any(Diagnostic::is_error)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many there are, kept or only counted.
    pub fn len(&self) -> usize {
        self.list.len() + self.omitted.errors + self.omitted.warnings
    }

    /// The diagnostics kept (all of them unless made in
    /// [`building_shown_only`]).
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.list.iter()
    }

    /// The diagnostics kept that are errors.
    pub fn errors(&self) -> impl Iterator<Item = &Diagnostic> {
        self.list.iter().filter(|d| d.is_error())
    }

    /// Sorts by position (errors before warnings at the same place).
    pub fn sort(&mut self) {
        self.list
            .sort_by_key(|d| (d.span.start, d.severity == Severity::Warning, d.span.end));
    }

    /// Sorts by position only (diagnostics at the same place stay in the
    /// order pushed).
    pub fn sort_by_start(&mut self) {
        self.list.sort_by_key(|d| d.span.start);
    }

    /// Renders every diagnostic rustc-style as plain text.
    pub fn render(&self, source: &Source) -> String {
        let mut out = Vec::new();
        let mut writer = term::termcolor::NoColor::new(&mut out);
        self.emit(source, &mut writer);
        String::from_utf8_lossy(&out).into_owned()
    }

    /// Renders the diagnostics to `writer` (which may colour them): at
    /// most [`SHOWN_AT_MOST`] of them (errors first), then a line saying
    /// how many more there are; a long source line is shown only around
    /// the caret.
    pub fn emit<W: WriteColor>(&self, source: &Source, writer: &mut W) {
        let file = SimpleFile::new(source.name(), source.text());
        let config = term::Config {
            chars: term::Chars::ascii(),
            ..term::Config::default()
        };
        for diagnostic in self.shown() {
            let report = diagnostic.to_report();
            let rendered = match Excerpt::around(source, &diagnostic.span) {
                Some(excerpt) => {
                    let report = excerpt.report(diagnostic);
                    term::emit_to_write_style(writer, &config, &excerpt, &report)
                }
                None => term::emit_to_write_style(writer, &config, &file, &report),
            };
            // Rendering only fails on spans outside the file, which would be
            // a compiler bug; fall back to a one-line message then.
            if rendered.is_err() {
                let (line, col) = source.line_col(diagnostic.span.start);
                let _ = writeln!(
                    writer,
                    "{}:{line}:{col}: {}[{}]: {}",
                    source.name(),
                    diagnostic.severity.name(),
                    diagnostic.code.as_str(),
                    diagnostic.message
                );
            }
        }
        if let Some(more) = self.not_shown() {
            let _ = writeln!(
                writer,
                "note: {more} not shown (the first {SHOWN_AT_MOST} are above; fix them and check again)"
            );
        }
    }

    /// The diagnostics shown of these (by `chess2rs check` and the
    /// language server): at most [`SHOWN_AT_MOST`], errors first, then
    /// warnings while there is room; in their order.
    pub fn shown(&self) -> impl Iterator<Item = &Diagnostic> {
        let mut errors_left = self.errors().count().min(SHOWN_AT_MOST);
        let mut warnings_left = SHOWN_AT_MOST - errors_left;
        self.list
            .iter()
            .filter(move |diagnostic| {
                let counter = if diagnostic.is_error() {
                    &mut errors_left
                } else {
                    &mut warnings_left
                };
                let shown = *counter > 0;
                *counter = counter.saturating_sub(1);
                shown
            })
            .take(SHOWN_AT_MOST)
    }

    /// How many are not [`shown`](Diagnostics::shown), in words ("3 more
    /// errors and 1 warning"), if any are not.
    pub fn not_shown(&self) -> Option<String> {
        let kept_errors = self.errors().count();
        let errors = kept_errors + self.omitted.errors;
        let warnings = self.list.len() - kept_errors + self.omitted.warnings;
        let shown_errors = errors.min(SHOWN_AT_MOST);
        let hidden_errors = errors - shown_errors;
        let hidden_warnings = warnings - (SHOWN_AT_MOST - shown_errors).min(warnings);
        match (hidden_errors, hidden_warnings) {
            (0, 0) => None,
            (e, 0) => Some(plural(e, "more error")),
            (0, w) => Some(plural(w, "more warning")),
            (e, w) => Some(format!(
                "{} and {}",
                plural(e, "more error"),
                plural(w, "warning")
            )),
        }
    }
}

impl IntoIterator for Diagnostics {
    type Item = Diagnostic;
    type IntoIter = std::vec::IntoIter<Diagnostic>;

    /// The diagnostics kept.
    fn into_iter(self) -> Self::IntoIter {
        self.list.into_iter()
    }
}

impl<'a> IntoIterator for &'a Diagnostics {
    type Item = &'a Diagnostic;
    type IntoIter = std::slice::Iter<'a, Diagnostic>;

    fn into_iter(self) -> Self::IntoIter {
        self.list.iter()
    }
}

/// How many diagnostics one compilation shows; the rest are counted.
pub const SHOWN_AT_MOST: usize = 50;

/// `count` and `noun`, with an `s` unless the count is one.
fn plural(count: usize, noun: &str) -> String {
    if count == 1 {
        format!("1 {noun}")
    } else {
        format!("{count} {noun}s")
    }
}

/// Source lines longer than this are shown only around the caret.
const LONG_LINE: usize = 240;

/// How much of a long line is shown on each side of a span (and of a long
/// span itself), in bytes.
const CONTEXT: usize = 60;

/// The part of a long source line shown around a span: what diagnostics
/// and runtime errors show instead of the whole line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CutLine {
    /// The shown part, with `…` where the line was cut.
    pub text: String,
    /// The byte offset in the line of the first shown character of it.
    pub from: usize,
    /// Whether the line was cut before the shown part (`text` then starts
    /// with `…`).
    pub cut_before: bool,
    /// The span's bytes in `text` (a long span is cut short).
    pub span: Span,
}

impl CutLine {
    /// The part of `line` shown around `span` (bytes of `line`), or `None`
    /// if the line is short enough to show whole.
    pub fn around(line: &str, span: Span) -> Option<CutLine> {
        if line.len() <= LONG_LINE {
            return None;
        }
        let boundary = |mut at: usize| {
            at = at.min(line.len());
            while !line.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let span_start = boundary(span.start);
        let span_end = boundary(span.end.clamp(span_start, span_start + CONTEXT));
        let from = boundary(span_start.saturating_sub(CONTEXT));
        let to = boundary(span_end + CONTEXT);
        let cut_before = from > 0;
        let mut text = String::new();
        if cut_before {
            text.push('…');
        }
        let offset = text.len();
        text.push_str(&line[from..to]);
        if to < line.len() {
            text.push('…');
        }
        Some(CutLine {
            text,
            from,
            cut_before,
            span: offset + span_start - from..offset + span_end - from,
        })
    }
}

/// The part of one long source line around a diagnostic's span, as a
/// file for the renderer that still reports the real line and columns.
struct Excerpt<'a> {
    name: &'a str,
    /// The shown part of the line, with `…` where it was cut.
    text: String,
    line_number: usize,
    /// The real column of the excerpt's first character.
    first_column: usize,
    /// The span's position in `text`.
    span: Span,
}

impl<'a> Excerpt<'a> {
    /// The excerpt for `span`, if its line is long.
    fn around(source: &'a Source, span: &Span) -> Option<Excerpt<'a>> {
        let (line_number, _) = source.line_col(span.start);
        let (line_start, line) = source.line(line_number)?;
        let line_end = line_start + line.len();
        let start = span.start.clamp(line_start, line_end) - line_start;
        let end = span.end.clamp(line_start, line_end) - line_start;
        let cut = CutLine::around(line, start..end.max(start))?;
        let (_, column) = source.line_col(line_start + cut.from);
        Some(Excerpt {
            name: source.name(),
            line_number: line_number as usize,
            first_column: column as usize - usize::from(cut.cut_before),
            text: cut.text,
            span: cut.span,
        })
    }

    /// `diagnostic` as a report on the excerpt (secondary labels, which
    /// point elsewhere, are left out).
    fn report(&self, diagnostic: &Diagnostic) -> Report<()> {
        let mut shown = diagnostic.clone();
        shown.span = self.span.clone();
        shown.secondary.clear();
        shown.to_report()
    }
}

impl<'a> Files<'a> for Excerpt<'_> {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, files::Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), _byte_index: usize) -> Result<usize, files::Error> {
        Ok(0)
    }

    fn line_number(&'a self, (): (), _line_index: usize) -> Result<usize, files::Error> {
        Ok(self.line_number)
    }

    fn column_number(
        &'a self,
        (): (),
        _line_index: usize,
        byte_index: usize,
    ) -> Result<usize, files::Error> {
        let before = self
            .text
            .get(..byte_index)
            .ok_or(files::Error::IndexTooLarge {
                given: byte_index,
                max: self.text.len(),
            })?;
        Ok(self.first_column + before.chars().count())
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Span, files::Error> {
        if line_index == 0 {
            Ok(0..self.text.len())
        } else {
            Err(files::Error::LineTooLarge {
                given: line_index,
                max: 0,
            })
        }
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(diagnostic: Diagnostic) -> Self {
        std::iter::once(diagnostic).collect()
    }
}

impl std::iter::FromIterator<Diagnostic> for Diagnostics {
    fn from_iter<I: IntoIterator<Item = Diagnostic>>(iter: I) -> Self {
        let mut diagnostics = Diagnostics::default();
        for diagnostic in iter {
            diagnostics.push(diagnostic);
        }
        diagnostics
    }
}

/// At most this many characters of a token a message quotes.
pub const EXCERPT_CHARS: usize = 40;

/// `text` as a message quotes it: whole, or its first [`EXCERPT_CHARS`]
/// characters and `…` (a megabyte-long bad token is not echoed whole).
pub fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(EXCERPT_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
        None => text.into(),
    }
}

/// The candidate closest to `word` (ignoring case), if one is close enough
/// to be what was meant: at most two edits away, and fewer than the word's
/// length — for a one-letter word, the one name a single edit away, when
/// only one is. For "did you mean" hints on every named thing.
pub fn did_you_mean<'a>(
    word: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let length = word.chars().count();
    let lower = word.to_lowercase();
    let mut close: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter(|candidate| *candidate != word)
        // Two edits change the length by at most two (and this keeps the
        // distance's table small for a huge word).
        .filter(|candidate| candidate.chars().count().abs_diff(length) <= 2)
        .map(|candidate| {
            let distance = strsim::damerau_levenshtein(&lower, &candidate.to_lowercase());
            (distance, candidate)
        })
        // Fewer edits than the word has letters, or one for a one-letter
        // word (`m` for `n`).
        .filter(|&(distance, _)| distance <= 2 && (distance < length || distance == 1))
        .collect();
    close.sort_unstable();
    let &(best, candidate) = close.first()?;
    // A one-letter word is one edit from every other short name: say so
    // only when one name is that close.
    if length == 1 && close.get(1).is_some_and(|&(next, _)| next == best) {
        return None;
    }
    Some(candidate)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_tokens_are_quoted_short_and_not_compared_whole() {
        assert_eq!(excerpt("Kxa3"), "Kxa3");
        let long = "é".repeat(10 * EXCERPT_CHARS);
        let quoted = excerpt(&long);
        assert_eq!(quoted.chars().count(), EXCERPT_CHARS + 1);
        assert!(quoted.ends_with('…'));
        // A megabyte word is not measured against every candidate.
        let huge = "z".repeat(1 << 20);
        assert_eq!(did_you_mean(&huge, ["zz", "zzz"]), None);
        assert_eq!(did_you_mean("rook", ["Rook", "king"]), Some("Rook"));
    }

    #[test]
    fn did_you_mean_finds_close_names_only() {
        let verbs = ["run", "build", "interpret", "check", "explain"];
        assert_eq!(did_you_mean("runn", verbs), Some("run"));
        assert_eq!(did_you_mean("interpert", verbs), Some("interpret"));
        assert_eq!(did_you_mean("CHECK", verbs), Some("check"));
        assert_eq!(did_you_mean("frobnicate", verbs), None);
        assert_eq!(did_you_mean("m", ["n", "king"]), Some("n"));
        assert_eq!(
            did_you_mean("x", ["y", "z"]),
            None,
            "no one name is closer than the others"
        );
        assert_eq!(did_you_mean("x", ["yz"]), None);
    }

    #[test]
    fn at_most_fifty_are_shown_errors_first_and_the_rest_counted() {
        let text = "x\n".repeat(100);
        let source = Source::new("p.chc", text.clone());
        let mut diags = Diagnostics::default();
        for line in 0..100 {
            let at = line * 2..line * 2 + 1;
            diags.push(if line % 2 == 0 {
                Diagnostic::warning(Code::IcpNeverPlaced, format!("warning {line}"), at)
            } else {
                Diagnostic::error(Code::IcpSyntax, format!("error {line}"), at)
            });
        }
        let text = diags.render(&source);
        assert_eq!(text.matches("error[E0101]: error").count(), 50, "{text}");
        assert_eq!(text.matches("warning[W0151]: warning").count(), 0);
        assert!(
            text.ends_with("note: 50 more warnings not shown (the first 50 are above; fix them and check again)\n"),
            "{text}"
        );
    }

    /// Pushes made inside `building_shown_only` (if `bounded`) at
    /// `(is_error, start)`, each diagnostic built lazily; returns the
    /// collection, sorted, and how many were built.
    fn pushed(bounded: bool, pushes: &[(bool, usize)]) -> (Diagnostics, usize) {
        let collect = || {
            let mut built = 0;
            let mut diagnostics = Diagnostics::default();
            for (index, &(is_error, start)) in pushes.iter().enumerate() {
                let severity = if is_error {
                    Severity::Error
                } else {
                    Severity::Warning
                };
                diagnostics.push_with(severity, start, || {
                    built += 1;
                    let at = start..start + index % 3;
                    let message = format!("diagnostic {index}");
                    match severity {
                        Severity::Error => Diagnostic::error(Code::IcpSyntax, message, at),
                        Severity::Warning => Diagnostic::warning(Code::IcpNeverPlaced, message, at),
                    }
                });
            }
            diagnostics.sort();
            (diagnostics, built)
        };
        if bounded {
            building_shown_only(collect)
        } else {
            collect()
        }
    }

    #[test]
    fn past_what_is_shown_diagnostics_are_counted_not_built() {
        // 20,000 errors in order, as a check of every line pushes them.
        let pushes: Vec<(bool, usize)> = (0..20_000).map(|line| (true, line * 10)).collect();
        let (bounded, built) = pushed(true, &pushes);
        assert_eq!(built, SHOWN_AT_MOST);
        assert_eq!(bounded.len(), 20_000);
        assert_eq!(bounded.iter().count(), SHOWN_AT_MOST);
        assert!(bounded.has_errors());
        assert_eq!(bounded.not_shown().as_deref(), Some("19950 more errors"));
        // Outside, every one is built and kept.
        let (unbounded, built) = pushed(false, &pushes);
        assert_eq!((built, unbounded.iter().count()), (20_000, 20_000));
        // The bound ends with the call, even one that panics.
        let caught = std::panic::catch_unwind(|| building_shown_only(|| panic!("inside")));
        assert!(caught.is_err());
        assert_eq!(Diagnostics::default().keep_at_most, None);
    }

    proptest::proptest! {
        /// In any order of pushes, a bounded collection shows the same
        /// diagnostics and counts the same rest as one that keeps all.
        #[test]
        fn a_bounded_collection_shows_what_an_unbounded_one_shows(
            pushes in proptest::collection::vec((proptest::bool::ANY, 0usize..200), 0..300),
        ) {
            let (bounded, _) = pushed(true, &pushes);
            let (unbounded, _) = pushed(false, &pushes);
            let shown = |d: &Diagnostics| d.shown().cloned().collect::<Vec<_>>();
            proptest::prop_assert_eq!(shown(&bounded), shown(&unbounded));
            proptest::prop_assert_eq!(bounded.not_shown(), unbounded.not_shown());
            proptest::prop_assert_eq!(bounded.len(), unbounded.len());
            proptest::prop_assert_eq!(bounded.has_errors(), unbounded.has_errors());
        }
    }

    #[test]
    fn long_lines_are_shown_around_the_caret_with_real_columns() {
        let line = format!("{}BAD{}", "a".repeat(5_000), "b".repeat(5_000));
        let source = Source::new("p.pgn", format!("first\n{line}\n"));
        let at = 6 + 5_000;
        let text = Diagnostics::from(
            Diagnostic::error(Code::PgnNotAMove, "bad token", at..at + 3).with_label("here"),
        )
        .render(&source);
        assert!(text.contains("p.pgn:2:5001"), "{text}");
        assert!(text.contains("…aaaa"), "{text}");
        assert!(text.contains("BADbbbb"), "{text}");
        assert!(text.contains("^^^ here"), "{text}");
        assert!(text.len() < 600, "{} bytes:\n{text}", text.len());
    }

    proptest::proptest! {
        /// Any line, any span (even past the line or across characters of
        /// several bytes): the cut never panics, keeps the span's start
        /// inside the shown text, and shows at most a bounded part.
        #[test]
        fn cutting_a_line_never_panics_and_keeps_the_span(
            line in "[aé😀 ]{0,700}",
            start in 0usize..800,
            len in 0usize..300,
        ) {
            let Some(cut) = CutLine::around(&line, start..start + len) else {
                proptest::prop_assert!(line.len() <= LONG_LINE);
                return Ok(());
            };
            proptest::prop_assert!(cut.span.start <= cut.span.end);
            proptest::prop_assert!(cut.text.get(cut.span.clone()).is_some());
            proptest::prop_assert!(line.is_char_boundary(cut.from));
            proptest::prop_assert!(cut.text.len() <= 3 * CONTEXT + 2 * '…'.len_utf8() + 8);
            proptest::prop_assert_eq!(cut.cut_before, cut.from > 0);
        }

        /// Rendering a diagnostic anywhere in a file of long lines never
        /// panics and stays short.
        #[test]
        fn diagnostics_on_long_lines_render(
            text in "[aé]{0,600}(\n[aé😀]{0,600}){0,2}",
            start in 0usize..1000,
            len in 0usize..50,
        ) {
            let source = Source::new("p", text.clone());
            let mut start = start.min(text.len());
            while !text.is_char_boundary(start) {
                start -= 1;
            }
            let mut end = (start + len).min(text.len());
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            let rendered = Diagnostics::from(Diagnostic::error(Code::FvSyntax, "e", start..end)).render(&source);
            proptest::prop_assert!(rendered.len() < 2_000, "{}", rendered);
        }
    }

    #[test]
    fn renders_like_rustc() {
        let source = Source::new("prog.icp", "1. ^\n2. x=Z1,2\n");
        let diags = Diagnostics::from(
            Diagnostic::error(Code::IcpSyntax, "unknown piece type `Z`", 8..9)
                .with_label("not a piece")
                .with_help("piece types are K Q R B N P (white) and k q r b n p (black)"),
        );
        let text = diags.render(&source);
        assert!(
            text.contains("error[E0101]: unknown piece type `Z`"),
            "{text}"
        );
        assert!(text.contains("prog.icp:2:4"), "{text}");
        assert!(text.contains("2. x=Z1,2"), "{text}");
        assert!(text.contains("^ not a piece"), "{text}");
        assert!(text.contains("= help: piece types are"), "{text}");
    }
}
