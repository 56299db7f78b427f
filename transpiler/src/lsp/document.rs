//! An open document: its text, language and version, the program as the
//! compiler reads it, and positions converted between byte offsets and
//! LSP's line/character pairs (UTF-16 code units, or UTF-8 bytes when the
//! client prefers them).

use lsp_types::{Position, Range};

use crate::outline::Outline;
use crate::{Language, Source, Span};

/// How LSP counts characters within a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16 code units (LSP's default).
    Utf16,
    /// Bytes.
    Utf8,
}

/// An open document.
pub struct Document {
    /// Its name in diagnostics (the path of a `file:` URI).
    pub name: String,
    /// Its language.
    pub language: Language,
    /// The client's version number.
    pub version: i32,
    /// The text as the client has it.
    text: String,
    /// Byte offsets where lines start.
    line_starts: Vec<usize>,
    /// Bytes before the text the compiler reads (a byte-order mark).
    skipped: usize,
    /// The outline of this version, made when first asked for.
    outline: Option<Outline>,
}

impl Document {
    /// A document with this text.
    pub fn new(name: String, language: Language, version: i32, text: String) -> Document {
        let mut document = Document {
            name,
            language,
            version,
            text: String::new(),
            line_starts: Vec::new(),
            skipped: 0,
            outline: None,
        };
        document.replace(version, text);
        document
    }

    /// Replaces the whole text (a new version).
    pub fn replace(&mut self, version: i32, text: String) {
        self.version = version;
        self.line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(at, _)| at + 1))
            .collect();
        self.skipped = if text.starts_with('\u{feff}') { 3 } else { 0 };
        self.text = text;
        self.outline = None;
    }

    /// The program as the compiler reads it.
    pub fn source(&self) -> Source {
        Source::new(self.name.clone(), self.text.clone())
    }

    /// The outline of the current text.
    pub fn outline(&mut self) -> &Outline {
        let (source, language) = (self.source(), self.language);
        self.outline
            .get_or_insert_with(|| crate::outline(&source, language))
    }

    /// The LSP position of a byte offset in the compiler's text.
    pub fn position(&self, offset: usize, encoding: Encoding) -> Position {
        let offset = (offset + self.skipped).min(self.text.len());
        let line = self.line_starts.partition_point(|&start| start <= offset) - 1;
        let start = self.line_starts[line];
        let before = self.text.get(start..offset).unwrap_or_else(|| {
            // Not at a character boundary (never for compiler spans): count
            // up to the boundary before it.
            let mut at = offset;
            while !self.text.is_char_boundary(at) {
                at -= 1;
            }
            &self.text[start..at]
        });
        let character = match encoding {
            Encoding::Utf16 => before.encode_utf16().count(),
            Encoding::Utf8 => before.len(),
        };
        Position::new(line as u32, character as u32)
    }

    /// The LSP range of a span of the compiler's text.
    pub fn range(&self, span: &Span, encoding: Encoding) -> Range {
        Range::new(
            self.position(span.start, encoding),
            self.position(span.end, encoding),
        )
    }

    /// The byte offset in the compiler's text of an LSP position (clamped
    /// to the line's end and to the text; a position inside the byte-order
    /// mark is the start).
    pub fn offset(&self, position: Position, encoding: Encoding) -> usize {
        let Some(&start) = self.line_starts.get(position.line as usize) else {
            return self.text.len().saturating_sub(self.skipped);
        };
        let end = self
            .line_starts
            .get(position.line as usize + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let line = &self.text[start..end];
        let wanted = position.character as usize;
        let mut counted = 0;
        let mut at = line.len();
        for (index, c) in line.char_indices() {
            if counted >= wanted {
                at = index;
                break;
            }
            counted += match encoding {
                Encoding::Utf16 => c.len_utf16(),
                Encoding::Utf8 => c.len_utf8(),
            };
        }
        (start + at).saturating_sub(self.skipped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_or_bytes() {
        let text = "ab\n𝄞é x\n".to_string();
        let document = Document::new("t".into(), Language::InfChessPro, 1, text);
        let x = "ab\n𝄞é ".len();
        assert_eq!(document.position(x, Encoding::Utf16), Position::new(1, 4));
        assert_eq!(document.position(x, Encoding::Utf8), Position::new(1, 7));
        assert_eq!(document.offset(Position::new(1, 4), Encoding::Utf16), x);
        assert_eq!(document.offset(Position::new(1, 7), Encoding::Utf8), x);
        // Past the end of a line, of the text, inside a character.
        assert_eq!(document.offset(Position::new(0, 99), Encoding::Utf16), 2);
        assert_eq!(
            document.offset(Position::new(9, 0), Encoding::Utf16),
            document.text.len()
        );
        assert_eq!(document.offset(Position::new(1, 1), Encoding::Utf16), 3 + 4);
        assert_eq!(document.position(999, Encoding::Utf16), Position::new(2, 0));
    }

    #[test]
    fn a_byte_order_mark_is_counted_by_the_editor_not_the_compiler() {
        let document = Document::new(
            "t".into(),
            Language::InfChessPro,
            1,
            "\u{feff}1. ^\n".into(),
        );
        assert_eq!(document.source().text(), "1. ^\n");
        // Offset 0 of the compiler's text is after the mark.
        assert_eq!(document.position(0, Encoding::Utf16), Position::new(0, 1));
        assert_eq!(document.offset(Position::new(0, 1), Encoding::Utf16), 0);
        assert_eq!(document.offset(Position::new(0, 0), Encoding::Utf16), 0);
    }
}
