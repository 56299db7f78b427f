//! What a Finvara game is played with: cells, piece values, the board's
//! geometry ([`Rules`]), squares as points, and the geometric paths the
//! compiler lists for move lines.

use super::automaton::Automaton;

/// A square: `row * columns + column`, row 0 at the bottom, column 0 at the
/// left.
pub type Square = u32;

/// A board cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A hole: a piece landing here falls in.
    Hole,
    /// A piece: its type (index into the program's piece types) and colour.
    Piece {
        /// The piece type.
        kind: u16,
        /// White or black.
        white: bool,
    },
}

/// A piece type's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceValue {
    /// A royal piece: no value; subject to check.
    Royal,
    /// A number.
    Number(i64),
    /// The column number of its square.
    X,
    /// The row number of its square.
    Y,
}

impl PieceValue {
    /// The value on `square` of a board `cols` wide (`None` for royals).
    pub fn on(self, square: Square, cols: u32) -> Option<i64> {
        let cols = cols.max(1);
        match self {
            PieceValue::Royal => None,
            PieceValue::Number(n) => Some(n),
            PieceValue::X => Some(i64::from(square % cols) + 1),
            PieceValue::Y => Some(i64::from(square / cols) + 1),
        }
    }
}

/// Everything about the pieces a game needs: their moves and values, and
/// the board's size.
#[derive(Clone, Copy, Debug)]
pub struct Rules<'a> {
    /// Every piece type's automaton, by type index.
    pub automata: &'a [Automaton<'a>],
    /// Every piece type's value, by type index.
    pub values: &'a [PieceValue],
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
}

impl Rules<'_> {
    /// The value a piece of `kind` has on `square` (`None` for royals).
    pub(super) fn value_at(&self, kind: u16, square: Square) -> Option<i64> {
        self.values[usize::from(kind)].on(square, self.cols)
    }

    /// The (row, column) of `square`.
    pub fn point(&self, square: Square) -> Point {
        Point {
            row: square / self.cols,
            col: square % self.cols,
        }
    }

    /// The square at `point`.
    pub fn square(&self, point: Point) -> Square {
        point.row * self.cols + point.col
    }

    /// The point `(forward, right)` away from `point` in `white`'s view, if
    /// it is on the board.
    pub fn leap_from(&self, point: Point, white: bool, forward: i32, right: i32) -> Option<Point> {
        let (d_row, d_col) = if white {
            (i64::from(forward), i64::from(right))
        } else {
            (-i64::from(forward), -i64::from(right))
        };
        let row = i64::from(point.row) + d_row;
        let col = i64::from(point.col) + d_col;
        if row < 0 || col < 0 || row >= i64::from(self.rows) || col >= i64::from(self.cols) {
            return None;
        }
        Some(Point {
            row: row as u32,
            col: col as u32,
        })
    }

    /// The square `(forward, right)` away from `square` in `white`'s view,
    /// if it is on the board.
    pub fn leap(&self, square: Square, white: bool, forward: i32, right: i32) -> Option<Square> {
        self.leap_from(self.point(square), white, forward, right)
            .map(|p| self.square(p))
    }

    /// The owner's rank of row `row`: 1 is the owner's nearest row.
    pub fn rank_of_row(&self, row: u32, white: bool) -> i64 {
        if white {
            i64::from(row) + 1
        } else {
            i64::from(self.rows) - i64::from(row)
        }
    }

    /// The owner's rank of `square`.
    pub fn rank(&self, square: Square, white: bool) -> i64 {
        self.rank_of_row(square / self.cols, white)
    }

    /// The distance in king steps between two squares.
    pub fn distance(&self, a: Square, b: Square) -> u32 {
        self.point(a).distance(self.point(b))
    }
}

/// A square as (row, column), row 0 at the bottom: what searches work in,
/// so that a leap is an addition rather than a division.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Point {
    /// The row.
    pub row: u32,
    /// The column.
    pub col: u32,
}

impl Point {
    /// The distance in king steps to `other`.
    pub fn distance(self, other: Point) -> u32 {
        self.row
            .abs_diff(other.row)
            .max(self.col.abs_diff(other.col))
    }
}

/// One landing square of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The square.
    pub square: Square,
    /// `x` after landing: capture the enemy here and go on.
    pub capture: bool,
    /// Inside a crooked repetition before its end: may not be a hole.
    pub no_hole: bool,
}

impl Step {
    /// Landing on `square`.
    pub const fn land(square: Square) -> Step {
        Step {
            square,
            capture: false,
            no_hole: false,
        }
    }

    /// This landing, then `x`.
    pub const fn then_capture(self) -> Step {
        Step {
            capture: true,
            ..self
        }
    }

    /// This landing inside a crooked repetition, not its last.
    pub const fn not_a_hole(self) -> Step {
        Step {
            no_hole: true,
            ..self
        }
    }
}

/// A geometric path the compiler found from a move line's FROM to its TO;
/// whether it can be taken depends on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path<'a> {
    /// The landing squares (none: a promotion on the spot).
    pub steps: &'a [Step],
    /// `c(..)`: must end by capturing.
    pub must_capture: bool,
    /// `m(..)`: must not capture at all.
    pub no_capture: bool,
    /// When not empty: the path reaches its last step from the landing
    /// before it (or from FROM) by one or more leaps of a crooked rider,
    /// any of these (row, column) offsets each time, over empty squares.
    /// Every such way has the same effect, so the path stands for them all.
    pub crooked: &'a [(i32, i32)],
}

impl<'a> Path<'a> {
    /// A path landing on `steps`, without `c`/`m` conditions.
    pub const fn new(steps: &'a [Step]) -> Path<'a> {
        Path {
            steps,
            must_capture: false,
            no_capture: false,
            crooked: &[],
        }
    }

    /// This path, its last step reached by crooked leaps by `offsets`
    /// ([`Path::crooked`]).
    pub const fn crooked_to_end(self, offsets: &'a [(i32, i32)]) -> Path<'a> {
        Path {
            crooked: offsets,
            ..self
        }
    }

    /// This path under `c(..)`.
    pub const fn must_capture(self) -> Path<'a> {
        Path {
            must_capture: true,
            ..self
        }
    }

    /// This path under `m(..)`.
    pub const fn no_capture(self) -> Path<'a> {
        Path {
            no_capture: true,
            ..self
        }
    }
}
