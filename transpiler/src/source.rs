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

    /// Where line `index` (0-based) starts, if the text has that line
    /// (the last may be empty, after a final line end).
    pub fn line_start(&self, index: usize) -> Option<usize> {
        self.line_starts.get(index).copied()
    }

    /// How many lines the line index holds: one more than the text has
    /// line ends (the last, after a final line end, may be empty).
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }

    /// Replaces the bytes `range` of the text (clamped to the text and to
    /// character boundaries) with `replacement`, as an editor's change
    /// does: the line index is kept, only the starts after the edit moved.
    /// The text may then start with a byte-order mark, which
    /// [`Source::new`] would have removed. Returns which lines changed.
    pub fn edit(&mut self, range: Range<usize>, replacement: &str) -> LinesEdited {
        let boundary = |at: usize| {
            let mut at = at.min(self.text.len());
            while !self.text.is_char_boundary(at) {
                at -= 1;
            }
            at
        };
        let start = boundary(range.start);
        let end = boundary(range.end.max(start));
        // The lines holding the edit's start and end: lines ending at a
        // removed line end go, the text's new line ends start new ones.
        let first = self.line_starts.partition_point(|&at| at <= start) - 1;
        let last = self.line_starts.partition_point(|&at| at <= end) - 1;
        let inserted: Vec<usize> = replacement
            .match_indices('\n')
            .map(|(at, _)| start + at + 1)
            .collect();
        let added = inserted.len();
        self.text.replace_range(start..end, replacement);
        self.line_starts.splice(first + 1..last + 1, inserted);
        let after = first + 1 + added;
        for line_start in &mut self.line_starts[after..] {
            *line_start = *line_start - end + start + replacement.len();
        }
        LinesEdited {
            first,
            removed: last - first + 1,
            inserted: added + 1,
        }
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

/// Which lines an [`Source::edit`] changed: the `removed` lines from
/// index `first` on (0-based, as [`Source::line_count`] counts them) were
/// replaced by `inserted` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinesEdited {
    /// The first line changed.
    pub first: usize,
    /// How many lines the edit replaced.
    pub removed: usize,
    /// How many lines replaced them.
    pub inserted: usize,
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

    proptest::proptest! {
        /// Any edit of any text leaves the text and line index a new
        /// source of the edited text has, and names the lines it changed.
        #[test]
        fn an_edit_keeps_the_line_index(
            (text, start, length, replacement) in ("[a\r\né]{0,40}", 0usize..50, 0usize..20, "[b\n€]{0,8}"),
        ) {
            let mut source = Source::new("t", text.clone());
            let before: Vec<String> = source.lines().map(|(_, line)| line.to_string()).collect();
            let edited = source.edit(start..start + length, &replacement);
            let fresh = Source::new("t", source.text().to_string());
            proptest::prop_assert_eq!(&source.line_starts, &fresh.line_starts);
            let after: Vec<String> = source.lines().map(|(_, line)| line.to_string()).collect();
            // Lines outside the changed ones are the lines before.
            let (first, removed, inserted) = (edited.first, edited.removed, edited.inserted);
            proptest::prop_assert_eq!(before.get(..first), after.get(..first));
            let tail = |lines: &[String], from: usize| lines.get(from..).map(<[String]>::to_vec).unwrap_or_default();
            proptest::prop_assert_eq!(tail(&before, first + removed), tail(&after, first + inserted));
            proptest::prop_assert_eq!(
                fresh.line_count() + removed,
                Source::new("t", text).line_count() + inserted
            );
        }
    }

    #[test]
    fn a_trailing_newline_adds_no_line() {
        let source = Source::new("t", "a\n");
        assert_eq!(source.lines().count(), 1);
        assert_eq!(Source::new("t", "").lines().count(), 1);
    }
}
