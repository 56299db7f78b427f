//! Flood fills: from a square over empty squares by a set of leaps, as
//! far as they reach (crooked riders' attacks, crooked endings of listed
//! paths, crooked repetitions of moves).

use super::super::rules::{Cell, Point, Square};
use super::Board;

/// The reusable buffers of flood fills ([`Board::flood_reaches`]: crooked
/// riders' attacks, crooked endings of listed paths): a
/// generation-stamped set of squares, a stack, the landings of one
/// square's leaps.
#[derive(Clone, Debug, Default)]
pub(in super::super) struct Flood {
    /// Per square: the generation of the fill that visited it last.
    seen: Vec<u32>,
    generation: u32,
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
    fn start(&mut self, squares: usize) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 || self.seen.len() != squares {
            self.seen.clear();
            self.seen.resize(squares, 0);
            self.generation = 1;
        }
        self.stack.clear();
    }

    /// Marks `square` visited; whether it was not yet.
    fn visit(&mut self, square: Square) -> bool {
        let seen = &mut self.seen[square as usize];
        let new = *seen != self.generation;
        *seen = self.generation;
        new
    }
}

impl Board {
    /// A flood fill from `start` over empty squares: whether it reaches
    /// `target`. `leaps(board, at, landed, looked)` adds to `landed` where
    /// each leap from `at` lands; `looked` (the squares an attack watches,
    /// or nothing) is passed along and also told every square the fill
    /// looks at, once each.
    pub(super) fn flood_reaches<L: Looked>(
        &self,
        flood: &mut Flood,
        start: Point,
        target: Square,
        looked: &mut L,
        leaps: impl Fn(&Board, Point, &mut Vec<Point>, &mut L),
    ) -> bool {
        flood.start(self.cells.len());
        flood.visit(start.row * self.cols + start.col);
        flood.stack.push(start);
        let mut landed = std::mem::take(&mut flood.landed);
        let mut reached = false;
        'fill: while let Some(at) = flood.stack.pop() {
            landed.clear();
            leaps(self, at, &mut landed, looked);
            for &end in &landed {
                let square = end.row * self.cols + end.col;
                if square == target {
                    looked.look(square);
                    reached = true;
                    break 'fill;
                }
                if flood.visit(square) {
                    looked.look(square);
                    if self.cells[square as usize] == Cell::Empty {
                        flood.stack.push(end);
                    }
                }
            }
        }
        flood.landed = landed;
        reached
    }

    /// Whether leaps by any of `offsets`, one or more, lead from `start` to
    /// `end` over empty squares (a flood fill).
    pub(in super::super) fn crooked_reaches(
        &self,
        offsets: &[(i32, i32)],
        start: Square,
        end: Square,
        flood: &mut Flood,
    ) -> bool {
        let (rows, cols) = (i64::from(self.rows), i64::from(self.cols));
        let start = self.points[start as usize];
        self.flood_reaches(flood, start, end, &mut (), |_, at, landed, _| {
            for &(d_row, d_col) in offsets {
                let (row, col) = (
                    i64::from(at.row) + i64::from(d_row),
                    i64::from(at.col) + i64::from(d_col),
                );
                if row >= 0 && col >= 0 && row < rows && col < cols {
                    landed.push(Point {
                        row: row as u32,
                        col: col as u32,
                    });
                }
            }
        })
    }
}
