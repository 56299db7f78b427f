//! The lowered Finvara program: board size and cells, piece types with
//! their values, the path tables built from the notations, and the move
//! lines with symbols and squares resolved to indices.

use chess2rs_runtime::fv::{Cell, Path, PieceValue, Step};

/// A program ready to run or to generate code from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Rows (ranks).
    pub rows: u16,
    /// Columns.
    pub cols: u16,
    /// The initial board, row 0 (the bottom, `a`) first.
    pub board: Vec<Cell>,
    /// Piece type symbols; a type's index is its number.
    pub symbols: Vec<String>,
    /// Piece type values.
    pub values: Vec<PieceValue>,
    /// All path steps.
    pub steps: Vec<Step>,
    /// All paths.
    pub paths: Vec<Path>,
    /// All promotion targets.
    pub targets: Vec<u16>,
    /// Per `(kind * 2 + black) * cells + square`: its range of paths.
    pub index: Vec<(u32, u32)>,
    /// The move lines.
    pub lines: Vec<Line>,
    /// The source file's name.
    pub source_name: String,
}

/// One move line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based source line.
    pub source_line: u32,
    /// The text.
    pub text: String,
    /// The mover: white or black.
    pub white: bool,
    /// The piece type.
    pub kind: u16,
    /// What happens.
    pub action: Action,
}

/// A move line's action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move.
    Move {
        /// From square.
        from: u16,
        /// To square.
        to: u16,
        /// Promotion target.
        promote: Option<u16>,
    },
    /// Place if empty, then continue at line `target`.
    Checks {
        /// The square.
        square: u16,
        /// The index of the line `Turn M W`.
        target: u32,
    },
}

impl Program {
    /// The square name of index `square` (row letters, column number).
    pub fn square_name(&self, square: u16) -> String {
        let row = u64::from(square / self.cols) + 1;
        let col = square % self.cols + 1;
        format!("{}{col}", row_letters(row))
    }
}

/// Row `n` (1-based) as letters: a … z, aa, ab, …
pub fn row_letters(mut n: u64) -> String {
    let mut letters = Vec::new();
    while n > 0 {
        n -= 1;
        letters.push((b'a' + (n % 26) as u8) as char);
        n /= 26;
    }
    letters.iter().rev().collect()
}
