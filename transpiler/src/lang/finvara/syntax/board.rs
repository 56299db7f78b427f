//! Board rows and `+--+` lines: their cells, and the width a board is
//! drawn with (the one most rows have), so that a ragged row is blamed
//! alone.

use std::collections::HashMap;

use crate::diag::{excerpt, Code, Diagnostic};
use crate::source::{Span, Spanned};

use super::Cell;

/// How many cells a `+--+` line `code` (a line's code, without blanks
/// around it) is drawn for, if it is one.
pub fn border_width(code: &str) -> Option<usize> {
    (code.starts_with('+') && code.chars().all(|c| c == '+' || c == '-'))
        .then(|| code.matches('+').count().saturating_sub(1))
}

/// `1 cell`, `N cells`.
pub fn cells(count: usize) -> String {
    if count == 1 {
        "1 cell".to_string()
    } else {
        format!("{count} cells")
    }
}

/// How wide the board's rows and `+--+` lines are drawn, in cells.
#[derive(Debug, Default)]
pub(super) struct BoardWidths {
    /// Each row's width and span.
    pub(super) rows: Vec<(usize, Span)>,
    /// Each `+--+` line's width.
    pub(super) borders: Vec<usize>,
}

/// The width of a board: the one most rows and `+--+` lines have (of
/// equally common ones, the first seen).
pub(super) struct BoardWidth {
    pub(super) width: usize,
    /// How many rows and lines have it.
    count: usize,
    /// The index (rows first, then lines) of the first that has it.
    first: usize,
}

impl BoardWidths {
    /// The board's width, if it has rows or `+--+` lines.
    pub(super) fn board(&self) -> Option<BoardWidth> {
        // Per width: how many rows and lines have it, and the first to.
        let mut seen: HashMap<usize, (usize, usize)> = HashMap::new();
        let widths =
            (self.rows.iter().map(|(width, _)| *width)).chain(self.borders.iter().copied());
        for (index, width) in widths.enumerate() {
            seen.entry(width).or_insert((0, index)).0 += 1;
        }
        seen.into_iter()
            .max_by_key(|(_, (count, first))| (*count, std::cmp::Reverse(*first)))
            .map(|(width, (count, first))| BoardWidth {
                width,
                count,
                first,
            })
    }
}

/// Reports each board row whose width is not the board's, so that one
/// wrong row is blamed, never the right ones around it.
pub(super) fn report_ragged_rows(widths: &BoardWidths, errors: &mut Vec<Diagnostic>) {
    let Some(BoardWidth {
        width: board,
        count,
        first,
    }) = widths.board()
    else {
        return;
    };
    let rows = &widths.rows;
    let wrong = rows.iter().filter(|(w, _)| *w != board).count();
    let reason = if wrong == 1 {
        format!("the board's other rows have {board}")
    } else if count * 2 > rows.len() + widths.borders.len() {
        format!("most of the board's rows have {board}")
    } else if first == 0 && !rows.is_empty() {
        format!("the first row has {board}")
    } else {
        format!("the `+--+` lines have {board}")
    };
    for (width, span) in rows.iter().filter(|(w, _)| *w != board) {
        errors.push(
            Diagnostic::error(
                Code::FvRaggedBoard,
                format!("this row has {}, {reason}", cells(*width)),
                span.clone(),
            )
            .with_label("rows differ in width")
            .with_help("the board is a rectangle: every row has the same number of cells"),
        );
    }
}

/// The cells of a board row `text` starting at byte `offset`.
pub(super) fn parse_row(text: &str, offset: usize) -> Result<Vec<Spanned<Cell>>, Diagnostic> {
    let last = text.rfind('|').unwrap_or(0);
    let after = &text[last + 1..];
    let stray = after.trim();
    if !stray.is_empty() && !stray.starts_with('#') {
        let start = offset + last + 1 + (after.len() - after.trim_start().len());
        return Err(Diagnostic::error(
            Code::FvAfterRow,
            format!("`{}` after the row's last `|`", excerpt(stray)),
            start..start + stray.len(),
        )
        .with_label("not in a cell")
        .with_help("a row ends with `|`; close the cell (`|pW|`), or start a comment with `#`"));
    }
    let mut cells = Vec::new();
    let mut cell_start = 1;
    for (i, c) in text[..=last].char_indices().skip(1) {
        if c != '|' {
            continue;
        }
        let raw = &text[cell_start..i];
        let content = raw.trim();
        let content_offset = offset + cell_start + (raw.len() - raw.trim_start().len());
        let span = content_offset..content_offset + content.len().max(1);
        let cell =
            if content.is_empty() {
                Cell::Empty
            } else if content == "##" {
                Cell::Hole
            } else {
                let colour_len = content.chars().last().map_or(0, char::len_utf8);
                let (symbol, colour) = content.split_at(content.len() - colour_len);
                let valid_symbol = !symbol.is_empty()
                    && symbol
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '_');
                match (valid_symbol, colour) {
                    (true, "W") => Cell::Piece(symbol.to_string(), true),
                    (true, "B") => Cell::Piece(symbol.to_string(), false),
                    _ => return Err(Diagnostic::error(
                        Code::FvNotACell,
                        format!("`{content}` is not a board cell"),
                        span,
                    )
                    .with_label("expected a symbol and W or B, `##`, or nothing")
                    .with_help(
                        "cells look like `kW` (white k), `qB` (black q), `##` (a hole) or blank",
                    )),
                }
            };
        cells.push(Spanned::new(cell, span));
        cell_start = i + 1;
    }
    Ok(cells)
}
