//! `chess2rs fmt`: every program in its language's one canonical layout.
//!
//! Each language's front end writes its own layout
//! ([`FrontEnd::format`](crate::FrontEnd::format)) from its parsed tree,
//! so formatting never changes what a program does: only blanks, line
//! breaks, comments' placement and the spelling of numbers move. What all
//! of them share is here: the line ending kept from the source, runs of
//! blank lines made one ([`Layout`]), and the options.
//!
//! ```
//! use chess2rs::{format, FormatOptions, Language, Source};
//!
//! let source = Source::new("beer.icp", "1.  Beer = P0 , 0 !4\n\n\n4.   %Beer\n");
//! let formatted = format(&source, Language::InfChessPro, &FormatOptions::default()).unwrap();
//! assert_eq!(formatted.text, "1. Beer=P0,0!4\n\n4. %Beer\n");
//! ```

use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::Source;
use crate::Language;

/// How to format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FormatOptions {
    /// InfChessPro: label the numbered lines `step`, `2 × step`, … in file
    /// order, every jump rewritten to match (`None`: labels kept).
    pub renumber: Option<u32>,
}

/// A formatted program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Formatted {
    /// The program's text in its canonical layout.
    pub text: String,
    /// Layout errors the formatter repaired (a Finvara board row that was
    /// short, a border that did not fit its rows), as warnings on the
    /// source that was formatted: what changed beyond blanks.
    pub repairs: Diagnostics,
}

impl Formatted {
    /// A formatted text that needed no repair.
    pub fn new(text: String) -> Formatted {
        Formatted {
            text,
            repairs: Diagnostics::default(),
        }
    }
}

/// The error for `--renumber` asked of a language without line numbers
/// (`None` when `options` ask nothing a `language` program cannot do).
pub fn refused(language: Language, options: &FormatOptions) -> Option<Diagnostics> {
    (options.renumber.is_some() && language != Language::InfChessPro).then(|| {
        Diagnostics::from(
            Diagnostic::error(
                Code::RenumberRefused,
                format!("{language} programs have no line numbers to renumber"),
                0..0,
            )
            .with_help("`--renumber` is for InfChessPro programs (.icp)"),
        )
    })
}

/// The line ending a formatted text uses: the source's first one (CRLF or
/// LF), LF for a text of one line.
pub fn line_ending(text: &str) -> &'static str {
    match text.find('\n') {
        Some(end) if text[..end].ends_with('\r') => "\r\n",
        _ => "\n",
    }
}

/// `text` formatted as `language` with default options (tests: a text
/// that does not parse fails the test with its first error).
#[cfg(test)]
pub fn formatted_for_test(text: &str, language: Language) -> String {
    match crate::format(&Source::new("t", text), language, &FormatOptions::default()) {
        Ok(formatted) => formatted.text,
        Err(errors) => panic!("{:?}", errors.iter().next()),
    }
}

/// The comment of `raw` (a line without its line end) in a language whose
/// comments start with `marker` and run to the line's end: from the
/// marker on, without trailing blanks.
pub fn comment_of(raw: &str, marker: char) -> Option<&str> {
    raw.find(marker).map(|at| raw[at..].trim_end())
}

/// A line indented by `indent` blanks: `code`, then `comment` one blank
/// after it (or the comment alone, for a line of no code).
pub fn code_line(indent: usize, code: &str, comment: Option<&str>) -> String {
    let mut line = " ".repeat(indent);
    line.push_str(code);
    if let Some(comment) = comment {
        if !code.is_empty() {
            line.push(' ');
        }
        line.push_str(comment);
    }
    line
}

/// A formatted text being written line by line: blank lines at its start
/// and end are dropped and a run of them inside is one, every line loses
/// its trailing blanks, and the text ends with a line ending (or is
/// empty).
#[derive(Debug)]
pub struct Layout {
    text: String,
    ending: &'static str,
    /// A blank line was asked for since the last line.
    blank: bool,
}

impl Layout {
    /// An empty text whose lines end with the line ending of `source`.
    pub fn new(source: &Source) -> Layout {
        Layout {
            text: String::with_capacity(source.text().len() + source.text().len() / 8),
            ending: line_ending(source.text()),
            blank: false,
        }
    }

    /// Adds a line (without its line ending).
    pub fn line(&mut self, line: &str) {
        if self.blank && !self.text.is_empty() {
            self.text.push_str(self.ending);
        }
        self.blank = false;
        self.text.push_str(line.trim_end_matches([' ', '\t', '\r']));
        self.text.push_str(self.ending);
    }

    /// Adds a blank line (kept only between two lines).
    pub fn blank(&mut self) {
        self.blank = true;
    }

    /// The text written.
    pub fn finish(self) -> String {
        self.text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn laid_out(source: &str, lines: &[Option<&str>]) -> String {
        let mut layout = Layout::new(&Source::new("t", source));
        for line in lines {
            match line {
                Some(line) => layout.line(line),
                None => layout.blank(),
            }
        }
        layout.finish()
    }

    #[test]
    fn blank_runs_become_one_and_ends_lose_theirs() {
        let lines = [None, Some("a  "), None, None, Some("b\t"), None];
        assert_eq!(laid_out("x\n", &lines), "a\n\nb\n");
        assert_eq!(laid_out("", &[None, None]), "");
    }

    #[test]
    fn the_first_line_ending_is_kept() {
        assert_eq!(laid_out("x\r\ny\n", &[Some("a"), Some("b")]), "a\r\nb\r\n");
        assert_eq!(laid_out("x\ny\r\n", &[Some("a")]), "a\n");
        assert_eq!(line_ending("no line end"), "\n");
    }

    #[test]
    fn every_language_keeps_crlf_line_ends() {
        let programs = [
            (
                Language::InfChessPro,
                "1.  ^\r\n\r\n\r\n# x\r\n2. ^\r\n",
                "1. ^\r\n\r\n# x\r\n2. ^\r\n",
            ),
            (
                Language::ChessCode,
                "1/2 1/2\r\na1+\r\na1=R\r\n",
                "1/2 1/2\r\n  a1+\r\na1=R\r\n",
            ),
            (Language::Btm, " 10! \r\n", "10!\r\n"),
            (
                Language::Finvara,
                "(k):\r\n|kW|\r\n",
                "(k):\r\n+--+\r\n|kW|\r\n+--+\r\n",
            ),
            (
                Language::Chessoteric,
                "[A \"b\"]\r\n1. e4 {x\r\ny} e5\r\n",
                "[A \"b\"]\r\n\r\n1. e4 {x\r\ny} 1... e5\r\n",
            ),
        ];
        for (language, text, formatted) in programs {
            let source = Source::new("t", text);
            let once = crate::format(&source, language, &FormatOptions::default()).unwrap();
            assert_eq!(once.text, formatted, "{language}");
        }
    }

    #[test]
    fn renumbering_is_refused_outside_infchesspro() {
        let source = Source::new("t.chc", "a1+\n");
        let options = FormatOptions { renumber: Some(1) };
        let errors = crate::format(&source, Language::ChessCode, &options).unwrap_err();
        assert_eq!(
            errors.iter().next().map(|d| d.message.as_str()),
            Some("Chess Code programs have no line numbers to renumber")
        );
    }
}
