//! Moves by name as functions that are never inlined. Generated code of
//! large programs calls these instead of the `Board` methods: the moves'
//! legality tests are inlined into one copy here rather than at each of
//! thousands of lines, which would cost rustc minutes of optimisation; a
//! call costs nothing measurable beside a move.

use super::super::error::RuntimeError;
use super::{Board, NameId, Piece, Square};

/// [`Board::move_named_to`], not inlined.
#[inline(never)]
pub fn move_named_to(board: &mut Board, name: NameId, to: Square, known: Option<Piece>) -> bool {
    board.move_named_to(name, to, known)
}

/// [`Board::move_named_by`], not inlined, its error placed in `line`.
#[inline(never)]
pub fn move_named_by(
    board: &mut Board,
    name: NameId,
    d_row: i64,
    d_col: i64,
    known: Option<Piece>,
    line: u32,
) -> Result<bool, RuntimeError> {
    board
        .move_named_by(name, d_row, d_col, known)
        .map_err(|e| e.in_line(line))
}
