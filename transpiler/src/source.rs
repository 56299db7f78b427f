//! Program text with its name, and byte offsets turned into lines and
//! columns. (The parsers' reading position is `cursor::Cursor`.)

use std::ops::Range;

/// A byte range in a [`Source`]'s text.
pub type Span = Range<usize>;

/// A value with the span of the text it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Spanned<T> {
    /// The value.
    pub value: T,
    /// Where it was written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// `value` written at `span`.
    pub fn new(value: T, span: Span) -> Self {
        Spanned { value, span }
    }
}

/// A program's text and the name to show in diagnostics (usually its path).
#[derive(Clone, Debug)]
pub struct Source {
    name: String,
    text: String,
    line_starts: Vec<usize>,
}

impl Source {
    /// A source called `name` (a path or `<stdin>`) with `text`, less a
    /// leading byte-order mark (which some editors save, and no language
    /// reads as part of the program).
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let mut text = text.into();
        if text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Source {
            name: name.into(),
            text,
            line_starts,
        }
    }

    /// The name shown in diagnostics.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The program text.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The 1-based line number containing byte `offset`.
    pub fn line_number(&self, offset: usize) -> u32 {
        let index = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        };
        u32::try_from(index + 1).unwrap_or(u32::MAX)
    }

    /// The 1-based (line, column) of byte `offset`; columns count characters.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        let line = self.line_number(offset);
        let start = self.line_starts[line as usize - 1];
        let end = offset.min(self.text.len());
        let col = self.text.get(start..end).map_or(0, |s| s.chars().count());
        (line, u32::try_from(col + 1).unwrap_or(u32::MAX))
    }

    /// [`line_col`](Self::line_col) for many offsets in ascending order,
    /// counting each line's characters once however many offsets it holds
    /// (a game on one line may hold a million moves).
    pub fn line_cols(&self) -> impl FnMut(usize) -> (u32, u32) + '_ {
        // The last offset asked for, with its line and column.
        let mut last: Option<(usize, u32, u32)> = None;
        move |offset| {
            let offset = offset.min(self.text.len());
            let line = self.line_number(offset);
            let found = match last {
                Some((from, last_line, column)) if last_line == line && from <= offset => {
                    let counted = self.text.get(from..offset).map_or(0, |s| s.chars().count());
                    (
                        line,
                        column.saturating_add(u32::try_from(counted).unwrap_or(u32::MAX)),
                    )
                }
                _ => self.line_col(offset),
            };
            last = Some((offset, found.0, found.1));
            found
        }
    }

    /// Line `number` (1-based): the byte offset where it starts and its
    /// text (without its `\n` or `\r\n`).
    pub fn line(&self, number: u32) -> Option<(usize, &str)> {
        let index = (number as usize).checked_sub(1)?;
        let start = *self.line_starts.get(index)?;
        let end = self
            .line_starts
            .get(index + 1)
            .map_or(self.text.len(), |&next| next - 1);
        let text = self.text.get(start..end)?;
        Some((start, text.strip_suffix('\r').unwrap_or(text)))
    }

    /// Each line's text (without its `\n` or `\r\n`) and the byte offset
    /// where it starts.
    pub fn lines(&self) -> impl Iterator<Item = (usize, &str)> {
        self.line_starts
            .iter()
            .enumerate()
            .filter_map(move |(i, &start)| {
                let end = self
                    .line_starts
                    .get(i + 1)
                    .map_or(self.text.len(), |&next| next - 1);
                if start > self.text.len() || (start == self.text.len() && i > 0) {
                    return None;
                }
                let line = &self.text[start..end];
                Some((start, line.strip_suffix('\r').unwrap_or(line)))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_in_order_count_each_line_once() {
        let source = Source::new("t", "añb c\nd  e\n");
        let mut line_col = source.line_cols();
        for offset in [0, 1, 3, 4, 6, 7, 9, 9, 12] {
            assert_eq!(line_col(offset), source.line_col(offset), "offset {offset}");
        }
        assert_eq!(line_col(0), (1, 1), "going back starts again");
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_text() {
        let source = Source::new("t", "\u{feff}ab\ncd");
        assert_eq!(source.text(), "ab\ncd");
        assert_eq!(source.line_col(3), (2, 1));
        // Only a leading one.
        assert_eq!(Source::new("t", "a\u{feff}").text(), "a\u{feff}");
    }

    #[test]
    fn lines_and_columns() {
        let source = Source::new("t", "ab\r\nc\n\nd");
        let lines: Vec<_> = source.lines().collect();
        assert_eq!(lines, vec![(0, "ab"), (4, "c"), (6, ""), (7, "d")]);
        assert_eq!(source.line_col(0), (1, 1));
        assert_eq!(source.line_col(5), (2, 2));
        assert_eq!(source.line_col(7), (4, 1));
        assert_eq!(source.line_col(8), (4, 2));
    }

    #[test]
    fn a_trailing_newline_adds_no_line() {
        let source = Source::new("t", "a\n");
        assert_eq!(source.lines().count(), 1);
        assert_eq!(Source::new("t", "").lines().count(), 1);
    }
}
