//! What the checks of a line-based language (Chess Code, BTM, Finvara's
//! move lines) read of
//! each source line, kept for a document open in the language server:
//! [`LineFacts::edited`] re-reads only the lines an edit changed, and
//! [`LineFacts::diagnostics`] runs the language's checks over the facts
//! kept instead of a parse of the whole text. Both languages find a
//! line's code the same way ([`code`]).

use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::source::{LinesEdited, Source, Span};

/// Parses every line of `source` with `line`, given the line's start, its
/// text and its 1-based number (`None` for a line with nothing to parse,
/// such as a blank line or a comment): the lines parsed, or the syntax
/// errors of every line that has one.
pub fn parse_lines<L>(
    source: &Source,
    mut line: impl FnMut(usize, &str, u32) -> Option<Result<L, Diagnostic>>,
) -> Result<Vec<L>, Diagnostics> {
    // At most one parsed line a source line: no copying as it grows.
    let mut lines = Vec::with_capacity(source.line_count());
    let mut errors = Diagnostics::default();
    for (index, (start, text)) in source.lines().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        match line(start, text, number) {
            None => {}
            Some(Ok(parsed)) => lines.push(parsed),
            Some(Err(error)) => errors.push(error),
        }
    }
    if errors.is_empty() {
        Ok(lines)
    } else {
        Err(errors)
    }
}

/// Parses line `index` (0-based) of `source` alone with `line`, as
/// [`parse_lines`] parses it: `None` if it is blank, a comment or past the
/// end. For re-reading only the lines an edit changed.
pub fn parse_line_at<L>(
    source: &Source,
    index: usize,
    line: impl FnOnce(usize, &str, u32) -> Option<Result<L, Diagnostic>>,
) -> Option<Result<L, Diagnostic>> {
    let number = u32::try_from(index + 1).ok()?;
    let (start, text) = source.line(number)?;
    line(start, text, number)
}

/// What the checks read of one source line.
pub trait LineFact: Copy {
    /// What the language's parser makes of a line.
    type Parsed;

    /// The code of a line that does not parse, for the error of a line
    /// whose error cannot be made again (which never happens while the
    /// facts are the source's).
    const SYNTAX: Code;

    /// Parses line `index` (0-based) of `source` alone, as the language
    /// parses it in a whole program: `None` if it is blank or a comment.
    fn parse(source: &Source, index: usize) -> Option<Result<Self::Parsed, Diagnostic>>;

    /// The facts of a parsed line that starts at byte `start`.
    fn of(parsed: &Self::Parsed, start: usize) -> Self;

    /// The facts of a blank line (or a comment).
    fn blank() -> Self;

    /// The facts of a line whose syntax error is `at` bytes into it.
    fn error(at: u32) -> Self;

    /// Where in its line this line's syntax error is, if it has one.
    fn error_at(&self) -> Option<u32>;

    /// What the language's checks report of `lines`, none of which has a
    /// syntax error.
    fn check(lines: InSource<'_, Self>) -> Diagnostics;
}

/// The facts of each line of a source, with the source: where the
/// checks find what the facts leave out.
#[derive(Clone, Copy, Debug)]
pub struct InSource<'a, F> {
    /// The source.
    pub source: &'a Source,
    /// The facts of each of its lines.
    pub facts: &'a [F],
}

/// The code of `raw`, a line (without its line end) starting at byte
/// `start`: what comes before `comment` starts a comment, without the
/// whitespace around it, and its span; `None` if there is none.
pub fn code(start: usize, raw: &str, comment: char) -> Option<(&str, Span)> {
    let code = raw.split(comment).next().unwrap_or_default();
    let text = code.trim();
    if text.is_empty() {
        return None;
    }
    let offset = start + (code.len() - code.trim_start().len());
    Some((text, offset..offset + text.len()))
}

/// Which lines an edit of all of `source`'s text changed: every one.
pub fn all_lines(source: &Source) -> LinesEdited {
    LinesEdited {
        first: 0,
        removed: 0,
        inserted: source.line_count(),
    }
}

/// The facts of each line of a source, in order.
#[derive(Clone, Debug, Default)]
pub struct LineFacts<F> {
    facts: Vec<F>,
    /// How many lines have a syntax error.
    errors: usize,
    /// How many source lines have been parsed.
    parsed: usize,
}

impl<F: LineFact> LineFacts<F> {
    /// The facts of every line of `source`.
    pub fn new(source: &Source) -> LineFacts<F> {
        let mut lines = LineFacts {
            facts: Vec::new(),
            errors: 0,
            parsed: 0,
        };
        lines.edited(source, all_lines(source));
        lines
    }

    /// How many source lines have been parsed since [`LineFacts::new`]:
    /// what the edits cost.
    pub fn parsed(&self) -> usize {
        self.parsed
    }

    /// Takes in an edit of the source (now `source`) that replaced the
    /// lines `edited` names.
    pub fn edited(&mut self, source: &Source, edited: LinesEdited) {
        let end = (edited.first + edited.removed).min(self.facts.len());
        let (first, inserted) = (edited.first.min(end), edited.inserted);
        let errors = |facts: &[F]| facts.iter().filter(|f| f.error_at().is_some()).count();
        self.errors -= errors(&self.facts[first..end]);
        let new: Vec<F> = (first..first + inserted)
            .map(|line| {
                let start = source.line_start(line).unwrap_or(0);
                match F::parse(source, line) {
                    None => F::blank(),
                    Some(Ok(parsed)) => F::of(&parsed, start),
                    Some(Err(error)) => {
                        let at = error.span.start.saturating_sub(start);
                        F::error(u32::try_from(at).unwrap_or(u32::MAX))
                    }
                }
            })
            .collect();
        self.parsed += new.len();
        self.errors += errors(&new);
        self.facts.splice(first..end, new);
    }

    /// The facts of each line, in order.
    pub fn facts(&self) -> &[F] {
        &self.facts
    }

    /// Whether a line has a syntax error.
    pub fn has_errors(&self) -> bool {
        self.errors > 0
    }

    /// Each line (0-based) of `source` that has a syntax error, in order,
    /// and where the error is (a byte of `source`).
    pub fn errors<'a>(&'a self, source: &'a Source) -> impl Iterator<Item = (usize, usize)> + 'a {
        (self.facts.iter().enumerate()).filter_map(|(line, fact)| {
            let at = fact.error_at()?;
            Some((line, source.line_start(line).unwrap_or(0) + at as usize))
        })
    }

    /// The syntax error at byte `at` of line `line` of `source` (one of
    /// [`LineFacts::errors`]), made again from its line.
    pub fn error_of(source: &Source, line: usize, at: usize) -> Diagnostic {
        match F::parse(source, line) {
            Some(Err(error)) => error,
            // Not so while the lines are the source's.
            _ => Diagnostic::error(F::SYNTAX, "this line does not parse", at..at),
        }
    }

    /// What checking `source`, whose lines these are, reports: every
    /// syntax error (each line's error made only if it is kept), else
    /// what the language's checks report.
    pub fn diagnostics(&self, source: &Source) -> Diagnostics {
        if self.errors == 0 {
            let facts = &self.facts;
            return F::check(InSource { source, facts });
        }
        let mut diagnostics = Diagnostics::default();
        for (line, at) in self.errors(source) {
            diagnostics.push_with(Severity::Error, at, || Self::error_of(source, line, at));
        }
        diagnostics
    }
}
