//! A reading position in source text, shared by the parsers of every
//! language.

use crate::diag::{Code, Diagnostic};
use crate::source::Span;

/// A reading position in a piece of source text (a line, a command or the
/// whole movetext), shared by the parsers of every language: what comes
/// next, eating what is expected, spans in the whole source, and the
/// "expected …, found …" error.
#[derive(Clone, Debug)]
pub struct Cursor<'a> {
    text: &'a str,
    /// Byte offset of `text` in the source.
    base: usize,
    /// Byte offset of the position in `text`.
    pos: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`, which starts at byte `base` of the
    /// source.
    pub fn new(text: &'a str, base: usize) -> Self {
        Cursor { text, base, pos: 0 }
    }

    /// The whole text read.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// The position: a byte offset in [`Cursor::text`].
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Moves to `pos` (a position returned earlier, or a char boundary).
    pub fn set_pos(&mut self, pos: usize) {
        self.pos = pos.min(self.text.len());
    }

    /// The text from the position on.
    pub fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    /// Whether all the text has been read.
    pub fn is_at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    /// The next character, not consumed.
    pub fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    /// Consumes the next character.
    pub fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    /// Consumes `wanted` if it comes next.
    pub fn eat(&mut self, wanted: char) -> bool {
        let found = self.peek() == Some(wanted);
        if found {
            self.pos += wanted.len_utf8();
        }
        found
    }

    /// Consumes the characters that `keep` accepts: where they start and
    /// the text consumed.
    pub fn take_while(&mut self, keep: impl Fn(char) -> bool) -> (usize, &'a str) {
        let start = self.pos;
        let rest = self.rest();
        let len = rest.find(|c| !keep(c)).unwrap_or(rest.len());
        self.pos += len;
        (start, &self.text[start..self.pos])
    }

    /// The span, in the source, of `from..to` (offsets in the text).
    pub fn span(&self, from: usize, to: usize) -> Span {
        self.base + from..self.base + to
    }

    /// The span from `from` (an offset in the text) to the position.
    pub fn span_from(&self, from: usize) -> Span {
        self.span(from, self.pos)
    }

    /// The error of `code` for something other than `expected` at the
    /// position (the next character, or the end of the line).
    pub fn unexpected(&self, code: Code, expected: &str) -> Diagnostic {
        let (found, span) = match self.peek() {
            Some(c) => (
                format!("`{c}`"),
                self.span(self.pos, self.pos + c.len_utf8()),
            ),
            None => (
                "the end of the line".to_string(),
                self.span(self.pos, self.pos),
            ),
        };
        Diagnostic::error(code, format!("expected {expected}, found {found}"), span)
            .with_label(format!("expected {expected}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_characters_runs_and_spans_in_the_source() {
        let mut cursor = Cursor::new("Ké9 x", 10);
        assert_eq!(cursor.peek(), Some('K'));
        assert!(cursor.eat('K'));
        assert!(!cursor.eat('x'));
        let (start, word) = cursor.take_while(|c| c.is_alphanumeric());
        assert_eq!((start, word), (1, "é9"));
        assert_eq!(cursor.span_from(start), 11..14);
        assert_eq!(cursor.rest(), " x");
        assert_eq!(
            cursor.unexpected(Code::FvSyntax, "a square").message,
            "expected a square, found ` `"
        );
        cursor.set_pos(99);
        assert!(cursor.is_at_end());
        assert_eq!(cursor.bump(), None);
        let error = cursor.unexpected(Code::FvSyntax, "`)`");
        assert_eq!(error.message, "expected `)`, found the end of the line");
        assert_eq!(error.span, 16..16);
    }
}
