//! The InfChessPro board: an unbounded chess board without turns. See
//! [`Board`] for what its operations cost.

use super::error::{ErrorKind, RuntimeError};

// `board` keeps the pieces and makes and takes back moves; `legality`
// decides whether a move may stand, with the movement rules of `piece`
// and, on large boards, the ordered lines of `index`; `geometry` holds
// squares, lines and rays; `walk` makes many steps of a repeated move
// at once; `table` runs large programs written as text.
mod board;
#[cfg(test)]
mod board_model;
mod geometry;
mod index;
mod legality;
pub mod outlined;
mod piece;
pub mod table;
mod walk;

pub use self::board::Board;
pub use self::geometry::Square;
pub use self::piece::{
    Colour, Kind, NameId, Piece, BLACK_BISHOP, BLACK_KING, BLACK_KNIGHT, BLACK_PAWN, BLACK_QUEEN,
    BLACK_ROOK, WHITE_BISHOP, WHITE_KING, WHITE_KNIGHT, WHITE_PAWN, WHITE_QUEEN, WHITE_ROOK,
};
pub use self::walk::Pace;

/// Resolves a jump target read from input: the index of the line labelled
/// `label` in `labels` (sorted by label), or a runtime error.
pub fn jump_target(labels: &[(i64, u32)], label: i64, line: u32) -> Result<u32, RuntimeError> {
    match labels.binary_search_by_key(&label, |&(l, _)| l) {
        Ok(i) => Ok(labels[i].1),
        Err(_) => Err(RuntimeError::at(ErrorKind::NoSuchLabel { label }, line)),
    }
}

/// Shorthands the unit tests of the board, its legality and its walks
/// share.
#[cfg(test)]
mod test_support {
    use super::{Piece, Square};

    /// The square at `row`, `col`.
    pub(super) fn sq(row: i64, col: i64) -> Square {
        Square::new(row, col)
    }

    /// The piece a letter names (`K`, `q`, …).
    pub(super) fn piece(letter: char) -> Piece {
        Piece::from_letter(letter).unwrap()
    }
}
