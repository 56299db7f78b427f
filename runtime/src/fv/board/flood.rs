//! Flood fills: from a square over empty squares by a set of leaps, as
//! far as they reach (crooked riders' attacks, crooked endings of listed
//! paths, crooked repetitions of moves).

use super::super::super::memory::{self, Refused};
use super::super::rules::{Cell, Point, Square};
use super::super::stamps::Stamped;
use super::Board;

/// The reusable buffers of flood fills ([`Board::flood_reaches`]: crooked
/// riders' attacks, crooked endings of listed paths, crooked repetitions
/// of moves): the squares visited, a stack, the landings of one square's
/// leaps, all charged to the run's memory budget.
#[derive(Clone, Debug, Default)]
pub(in super::super) struct Flood {
    /// The squares the fill visited.
    seen: Stamped<()>,
    /// Squares to leap on from.
    stack: Vec<Point>,
    /// Where the leaps from one square land.
    landed: Vec<Point>,
}

/// Who is told the squares a flood fill looks at.
pub(super) trait Looked {
    /// `square` was looked at.
    fn look(&mut self, square: Square);
}

/// An attack watches the squares it looks at.
impl Looked for Vec<Square> {
    fn look(&mut self, square: Square) {
        self.push(square);
    }
}

/// A listed path's crooked ending looks at squares without watching them.
impl Looked for () {
    fn look(&mut self, _: Square) {}
}

impl Flood {
    /// Starts a fill on a board of `squares` squares: none is visited.
    fn start(&mut self, squares: usize) -> Result<(), Refused> {
        self.seen.start(squares)?;
        self.stack.clear();
        Ok(())
    }

    /// Marks `square` visited; whether it was not yet.
    fn visit(&mut self, square: Square) -> bool {
        self.seen.insert(square as usize)
    }
}

impl Board {
    /// A flood fill from `start` over empty squares: whether it reaches
    /// `target`. `leaps(board, at, landed, looked)` adds to `landed` where
    /// each leap from `at` lands; `looked` (the squares an attack watches,
    /// or nothing) is passed along and also told every square the fill
    /// looks at, once each. The memory budget's error if the buffers
    /// cannot grow.
    pub(super) fn flood_reaches<L: Looked>(
        &self,
        flood: &mut Flood,
        start: Point,
        target: Square,
        looked: &mut L,
        leaps: impl Fn(&Board, Point, &mut Vec<Point>, &mut L) -> Result<(), Refused>,
    ) -> Result<bool, Refused> {
        flood.start(self.cells.len())?;
        flood.visit(start.row * self.cols + start.col);
        memory::push(&mut flood.stack, start)?;
        let mut landed = std::mem::take(&mut flood.landed);
        let reached = self.fill(flood, target, looked, &mut landed, leaps);
        flood.landed = landed;
        reached
    }

    /// [`Board::flood_reaches`] once started: the fill's loop (`landed`
    /// taken out of `flood`).
    fn fill<L: Looked>(
        &self,
        flood: &mut Flood,
        target: Square,
        looked: &mut L,
        landed: &mut Vec<Point>,
        leaps: impl Fn(&Board, Point, &mut Vec<Point>, &mut L) -> Result<(), Refused>,
    ) -> Result<bool, Refused> {
        while let Some(at) = flood.stack.pop() {
            landed.clear();
            leaps(self, at, landed, looked)?;
            for &end in landed.iter() {
                let square = end.row * self.cols + end.col;
                if square == target {
                    looked.look(square);
                    return Ok(true);
                }
                if flood.visit(square) {
                    looked.look(square);
                    if self.cells[square as usize] == Cell::Empty {
                        memory::push(&mut flood.stack, end)?;
                    }
                }
            }
        }
        Ok(false)
    }

    /// Whether leaps by any of `offsets`, one or more, lead from `start` to
    /// `end` over empty squares (a flood fill; the memory budget's error if
    /// it cannot grow).
    pub(in super::super) fn crooked_reaches(
        &self,
        offsets: &[(i32, i32)],
        start: Square,
        end: Square,
        flood: &mut Flood,
    ) -> Result<bool, Refused> {
        let (rows, cols) = (i64::from(self.rows), i64::from(self.cols));
        let start = self.points[start as usize];
        self.flood_reaches(flood, start, end, &mut (), |_, at, landed, _| {
            for &(d_row, d_col) in offsets {
                let (row, col) = (
                    i64::from(at.row) + i64::from(d_row),
                    i64::from(at.col) + i64::from(d_col),
                );
                if row >= 0 && col >= 0 && row < rows && col < cols {
                    let point = Point {
                        row: row as u32,
                        col: col as u32,
                    };
                    memory::push(landed, point)?;
                }
            }
            Ok(())
        })
    }
}
