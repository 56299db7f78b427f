//! The lowered Finvara program: board size and cells, piece types with
//! their values and notation automata, and the move lines with symbols and
//! squares resolved to indices (and, where few, the geometric paths each
//! move can take).

use chess2rs_runtime::__private::fv::{self, Cell, PieceValue};

use crate::source::Span;

use super::automaton::{Automaton, StaticPath};

/// A program ready to run or to generate code from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Rows (ranks).
    pub rows: u32,
    /// Columns.
    pub cols: u32,
    /// The initial board, row 0 (the bottom, `a`) first.
    pub board: Vec<Cell>,
    /// Piece types, by type index.
    pub pieces: Vec<Piece>,
    /// The move lines.
    pub lines: Vec<Line>,
    /// The source file's name.
    pub source_name: String,
}

/// A piece type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// Its symbol.
    pub symbol: String,
    /// Its value.
    pub value: PieceValue,
    /// Its notation as written (whitespace squeezed), for comments.
    pub notation: String,
    /// Its moves.
    pub automaton: Automaton,
}

/// One move line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based source line.
    pub source_line: u32,
    /// Where it is in the source (blanks and comment left out): what its
    /// run-time errors point at.
    pub span: Span,
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A move.
    Move {
        /// From square.
        from: u32,
        /// To square.
        to: u32,
        /// Promotion target.
        promote: Option<u16>,
        /// Every geometric path from FROM to TO, in notation order, when
        /// there are few (`None`: searched at run time); shared by the
        /// lines that make the same move (a million lines of a few moves
        /// held 224 MB of copies).
        paths: Option<std::sync::Arc<Vec<StaticPath>>>,
    },
    /// Place if empty, then continue at line `target`.
    Checks {
        /// The square.
        square: u32,
        /// The index of the line `Turn M W`.
        target: u32,
    },
}

impl Line {
    /// The move the line asks for, if it is a move line.
    pub fn mv(&self) -> Option<fv::Move> {
        match self.action {
            Action::Move {
                from, to, promote, ..
            } => Some(fv::Move {
                white: self.white,
                kind: self.kind,
                from,
                to,
                promote,
            }),
            Action::Checks { .. } => None,
        }
    }
}

/// The runtime's view of a program's piece types.
pub struct RulesData<'a> {
    automata: Vec<fv::Automaton<'a>>,
    values: Vec<PieceValue>,
    rows: u32,
    cols: u32,
}

impl RulesData<'_> {
    /// The rules as the runtime reads them.
    pub fn rules(&self) -> fv::Rules<'_> {
        fv::Rules {
            automata: &self.automata,
            values: &self.values,
            rows: self.rows,
            cols: self.cols,
        }
    }
}

impl Program {
    /// The piece types' automata and values, for the runtime.
    pub fn rules_data(&self) -> RulesData<'_> {
        RulesData {
            automata: self.pieces.iter().map(|p| p.automaton.view()).collect(),
            values: self.pieces.iter().map(|p| p.value).collect(),
            rows: self.rows,
            cols: self.cols,
        }
    }

    /// The square name of index `square` (row letters, column number).
    pub fn square_name(&self, square: u32) -> String {
        square_name(self.cols, square)
    }
}

/// The name of square `square` on a board `cols` wide: row letters, then
/// the column number (`a1` is bottom left).
pub fn square_name(cols: u32, square: u32) -> String {
    let cols = cols.max(1);
    let row = u64::from(square / cols) + 1;
    let col = square % cols + 1;
    format!("{}{col}", row_letters(row))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_lettered_like_spreadsheet_columns() {
        assert_eq!(row_letters(1), "a");
        assert_eq!(row_letters(26), "z");
        assert_eq!(row_letters(27), "aa");
        assert_eq!(row_letters(256), "iv");
        assert_eq!(square_name(4, 0), "a1");
        assert_eq!(square_name(4, 7), "b4");
    }
}
