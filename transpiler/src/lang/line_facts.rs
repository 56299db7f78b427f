//! What the checks of a line-based language (Chess Code, BTM) read of
//! each source line, kept for a document open in the language server:
//! [`LineFacts::edited`] re-reads only the lines an edit changed, and the
//! language's checks run over the facts kept instead of a parse of the
//! whole text.

use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::source::{LinesEdited, Source};

/// What the checks read of one source line.
pub trait LineFact: Copy {
    /// What the language's parser makes of a line.
    type Parsed;

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
        lines.edited(
            source,
            LinesEdited {
                first: 0,
                removed: 0,
                inserted: source.line_count(),
            },
        );
        lines
    }

    /// Each source line's facts.
    pub fn facts(&self) -> &[F] {
        &self.facts
    }

    /// How many source lines have been parsed since [`LineFacts::new`]:
    /// what the edits cost.
    pub fn parsed(&self) -> usize {
        self.parsed
    }

    /// Takes in an edit of the source (now `source`) that replaced the
    /// lines `edited` names.
    pub fn edited(&mut self, source: &Source, edited: LinesEdited) {
        let LinesEdited {
            first,
            removed,
            inserted,
        } = edited;
        let end = (first + removed).min(self.facts.len());
        let first = first.min(end);
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

    /// The syntax errors of `source`, whose lines these are (each line's
    /// error made only if it is kept), or `None` if every line parses.
    pub fn syntax_errors(&self, source: &Source) -> Option<Diagnostics> {
        if self.errors == 0 {
            return None;
        }
        let mut diagnostics = Diagnostics::default();
        for (line, fact) in self.facts.iter().enumerate() {
            let Some(at) = fact.error_at() else {
                continue;
            };
            let at = source.line_start(line).unwrap_or(0) + at as usize;
            diagnostics.push_with(Severity::Error, at, || match F::parse(source, line) {
                Some(Err(error)) => error,
                // Not so while the lines are the source's.
                _ => Diagnostic::error("this line does not parse", at..at),
            });
        }
        Some(diagnostics)
    }
}
