//! The compiler's listed paths: whether a geometric path found at
//! compile time can be taken on the board as it is.

use super::super::super::memory::Refused;
use super::super::rules::{Cell, Path, Square};
use super::super::search::captured_before;
use super::flood::Flood;
use super::Board;

/// Whether a listed path can be taken ([`Board::allows`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in super::super) enum Allowed {
    /// No.
    No,
    /// Yes, landing on empty squares only, the last being this one: the
    /// move has no effect but moving the piece.
    Quietly(Square),
    /// Yes, with holes or captures on the way.
    Yes,
}

impl Board {
    /// Whether a compiler-found path can be taken on this board by a piece
    /// of `white`'s colour standing on `from` (occupancy, holes in crooked
    /// repetitions, `x`, `c` and `m`, a crooked way to the last step), and
    /// whether it lands on empty squares only (the memory budget's error if
    /// the flood fill of a crooked way cannot grow).
    pub(in super::super) fn allows(
        &self,
        path: &Path,
        from: Square,
        white: bool,
        flood: &mut Flood,
    ) -> Result<Allowed, Refused> {
        let allowed = self.allows_steps(path, white);
        if allowed == Allowed::No || path.crooked.is_empty() {
            return Ok(allowed);
        }
        let start = match path.steps {
            [.., before, _] => before.square,
            _ => from,
        };
        let reached = match path.steps.last() {
            Some(last) => self.crooked_reaches(path.crooked, start, last.square, flood)?,
            None => false,
        };
        Ok(if reached { allowed } else { Allowed::No })
    }

    /// [`Board::allows`] for the listed steps alone.
    fn allows_steps(&self, path: &Path, white: bool) -> Allowed {
        let mut captures = false;
        let mut ends_capturing = false;
        let mut quiet = !path.steps.is_empty();
        let last = path.steps.len().saturating_sub(1);
        for (i, step) in path.steps.iter().enumerate() {
            let cell = match self.get(step.square) {
                Cell::Piece { .. } if captured_before(&path.steps[..i], step.square) => Cell::Empty,
                cell => cell,
            };
            quiet &= cell == Cell::Empty && !step.capture;
            let enemy = match cell {
                Cell::Hole => {
                    if step.no_hole || step.capture {
                        return Allowed::No;
                    }
                    false
                }
                Cell::Empty => {
                    if step.capture {
                        return Allowed::No;
                    }
                    false
                }
                Cell::Piece { white: w, .. } => {
                    if w == white || !(step.capture || i == last) {
                        return Allowed::No;
                    }
                    true
                }
            };
            captures |= enemy;
            ends_capturing = enemy;
        }
        if path.must_capture && !ends_capturing || path.no_capture && captures {
            return Allowed::No;
        }
        match path.steps.last() {
            Some(step) if quiet => Allowed::Quietly(step.square),
            _ => Allowed::Yes,
        }
    }
}
