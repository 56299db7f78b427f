//! Walks: a named move by a constant offset repeated while it succeeds
//! (`k;0,1?10` on line 10), made many steps at once when the board
//! proves that each step would succeed and change nothing but the
//! mover's square.

use super::super::limits::StepCounter;
use super::board::{Board, NO_SLOT};
use super::geometry::{is_knight_jump, Square, KNIGHT_JUMPS};
use super::piece::{Colour, Kind, NameId, Piece};

/// A walk that makes fewer steps than this counts as a miss for
/// [`Pace`].
const FEW_STEPS: u64 = 4;

/// The most single steps a walk loop makes between two tries of a walk.
const LONGEST_WAIT: u32 = 64;

/// Single steps a walk loop makes before its first try of a walk: a try
/// costs a pass over the pieces, several single steps' worth, so short
/// walks (the usual ones between counters) never pay for one.
const FIRST_WAIT: u32 = 32;

/// The pace of a walk loop in generated code: it starts with
/// [`FIRST_WAIT`] single steps; after a walk that made few steps, the loop
/// makes more and more single steps (up to 64) before it tries again, so
/// that a loop the board can rarely walk costs hardly more than its single
/// steps.
#[derive(Clone, Debug, Default)]
pub struct Pace {
    wait: u32,
    gap: u32,
}

impl Pace {
    /// A loop about to start.
    pub const fn new() -> Self {
        Pace {
            wait: FIRST_WAIT,
            gap: FIRST_WAIT,
        }
    }
}

/// The squares of a walk: `start + j * step` for `j = 1, 2, …`.
#[derive(Clone, Copy)]
struct Walk {
    start: Square,
    step: (i64, i64),
}

impl Walk {
    /// The first `j ≥ 1` for which a linear function of the square,
    /// `row * r + col * c`, equals its value on `target`; `u64::MAX` if
    /// none.
    fn first_on(self, (r, c): (i128, i128), target: Square) -> u64 {
        let value = |row: i64, col: i64| i128::from(row) * r + i128::from(col) * c;
        let start = value(self.start.row, self.start.col);
        let per_step = value(self.step.0, self.step.1);
        let gap = value(target.row, target.col) - start;
        if per_step == 0 {
            return if gap == 0 { 1 } else { u64::MAX };
        }
        // (Unit steps, the usual ones, need no division.)
        let j = match per_step {
            1 => gap,
            -1 => -gap,
            _ if gap % per_step != 0 => return u64::MAX,
            _ => gap / per_step,
        };
        if j < 1 {
            return u64::MAX;
        }
        j.min(i128::from(u64::MAX)) as u64
    }

    /// The first `j ≥ 1` at which the walk stands on `target`.
    fn first_at(self, target: Square) -> u64 {
        let (by_row, by_col) = (self.first_on((1, 0), target), self.first_on((0, 1), target));
        // A coordinate that never changes matches every step or none.
        let moves = |d: i64| d != 0;
        match (moves(self.step.0), moves(self.step.1)) {
            (true, true) if by_row == by_col => by_row,
            (true, true) => u64::MAX,
            (true, false) if by_col == 1 => by_row,
            (false, true) if by_row == 1 => by_col,
            _ => u64::MAX,
        }
    }

    /// The first `j ≥ 1` at which the walk stands on a row, column or
    /// diagonal through `target` (one of `lines`: 0 row, 1 column, 2 and 3
    /// the diagonals).
    fn first_on_lines(self, target: Square, lines: &[usize]) -> u64 {
        const LINES: [(i128, i128); 4] = [(1, 0), (0, 1), (1, -1), (1, 1)];
        lines
            .iter()
            .map(|&line| self.first_on(LINES[line], target))
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The first `j ≥ 1` at which the walk stands on `target` moved by
    /// one of `offsets`.
    fn first_at_any(self, target: Square, offsets: &[(i64, i64)]) -> u64 {
        offsets
            .iter()
            .filter_map(|&(r, c)| target.offset(r, c))
            .map(|sq| self.first_at(sq))
            .min()
            .unwrap_or(u64::MAX)
    }

    /// How many steps keep both coordinates in the `i64` range.
    fn steps_in_range(self) -> u64 {
        let room = |at: i64, d: i64| -> u64 {
            let room = match d.signum() {
                1 => i64::MAX.abs_diff(at),
                -1 => at.abs_diff(i64::MIN),
                _ => return u64::MAX,
            };
            room / d.unsigned_abs()
        };
        room(self.start.row, self.step.0).min(room(self.start.col, self.step.1))
    }

    /// The first step at which `piece` of the other colour, on `at`, could
    /// attack the walker's square, whatever stands between.
    fn first_attack(self, piece: Piece, at: Square) -> u64 {
        const NEIGHBOURS: [(i64, i64); 8] = [
            (1, 0),
            (1, 1),
            (0, 1),
            (-1, 1),
            (-1, 0),
            (-1, -1),
            (0, -1),
            (1, -1),
        ];
        match piece.kind {
            Kind::Rook => self.first_on_lines(at, &[0, 1]),
            Kind::Bishop => self.first_on_lines(at, &[2, 3]),
            Kind::Queen => self.first_on_lines(at, &[0, 1, 2, 3]),
            Kind::Knight => self.first_at_any(at, &KNIGHT_JUMPS),
            Kind::King => self.first_at_any(at, &NEIGHBOURS),
            Kind::Pawn => {
                let forward = match piece.colour {
                    Colour::White => 1,
                    Colour::Black => -1,
                };
                self.first_at_any(at, &[(forward, 1), (forward, -1)])
            }
        }
    }

    /// The first step whose square shares a line with `king`, or is a
    /// knight's jump from it: from there a move may change what attacks
    /// the king.
    fn first_touch(self, king: Square) -> u64 {
        self.first_on_lines(king, &[0, 1, 2, 3])
            .min(self.first_at_any(king, &KNIGHT_JUMPS))
    }
}

impl Board {
    /// Before a step of a walk loop (`NAME;dr,dc` whose success jumps to
    /// itself): unless `pace` says to wait, [`Board::walk_by`] as far as
    /// `steps` allows, with the steps made taken from it. The loop then
    /// makes its next step as usual.
    #[inline(always)]
    pub fn walk_paced(
        &mut self,
        pace: &mut Pace,
        name: NameId,
        (d_row, d_col): (i64, i64),
        known: Option<Piece>,
        steps: &mut StepCounter,
    ) {
        if pace.wait > 0 {
            pace.wait -= 1;
            return;
        }
        let made = self.walk_by(name, d_row, d_col, known, steps.available());
        steps.take_up_to(made);
        if made < FEW_STEPS {
            pace.gap = (pace.gap * 2 + 1).min(LONGEST_WAIT);
            pace.wait = pace.gap;
        } else {
            pace.gap = 0;
        }
    }

    /// `NAME;dr,dc` repeated, as many times as the board proves at once:
    /// moves the newest piece called `name` (which is `known`, if given)
    /// by (`d_row`, `d_col`) up to `max` times in one go and returns how
    /// many. Each of those steps is one that [`Board::move_named_by`] would
    /// make: the newest piece moves onto an empty square, and no check
    /// flag but the mover's can change. It stops short (even at 0) before
    /// a step that may fail, capture, leave the `i64` range or change what
    /// attacks a king; the caller makes that step with `move_named_by`.
    /// Costs one pass over the pieces; large boards (more than 32 pieces)
    /// always return 0.
    #[inline(never)]
    pub fn walk_by(
        &mut self,
        name: NameId,
        d_row: i64,
        d_col: i64,
        known: Option<Piece>,
        max: u64,
    ) -> u64 {
        let slot = self.newest(name);
        if max == 0 || slot == NO_SLOT || !self.scans() {
            return 0;
        }
        let record = self.record(slot);
        let (piece, start, in_check) = (
            known.unwrap_or(record.piece),
            record.square,
            record.in_check,
        );
        debug_assert_eq!(piece, record.piece, "a wrong piece was promised");
        let apart = (d_row.unsigned_abs(), d_col.unsigned_abs());
        if apart == (0, 0) {
            return 0;
        }
        let Some(first) = start.offset(d_row, d_col) else {
            return 0;
        };
        // Rules 1 and 2 onto an empty square are the same at every step.
        if !piece.reaches(start, first, apart, false) {
            return 0;
        }
        // Rule 3: kings the walk does not touch keep their flags, so the
        // other kings of the mover's colour must be safe already.
        let is_king = piece.kind == Kind::King;
        let own_flag = usize::from(is_king && in_check);
        if self.kings_in_check[piece.colour.index()] != own_flag {
            return 0;
        }
        let walk = Walk {
            start,
            step: (d_row, d_col),
        };
        // A slider passes over every square on its way (it moves along a
        // line, as rule 2 held): those are the squares one unit step at a
        // time, `stride` of them a move.
        let (stride, path) = if piece.kind.slides() {
            let unit = (d_row.signum(), d_col.signum());
            (apart.0.max(apart.1), Walk { start, step: unit })
        } else {
            (1, walk)
        };
        let mut steps = max.min(walk.steps_in_range());
        for (&at, &other) in self.live_squares.iter().zip(&self.live_pieces) {
            if at == start {
                continue;
            }
            // A piece on the way: the move reaching or passing it is the
            // first that may not be made at once.
            let mut stop = path.first_at(at).div_ceil(stride);
            if other.kind == Kind::King {
                if may_touch(start, at) {
                    return 0;
                }
                stop = stop.min(walk.first_touch(at));
            }
            if is_king && other.colour != piece.colour {
                stop = stop.min(walk.first_attack(other, at));
            }
            steps = steps.min(stop.saturating_sub(1));
            if steps == 0 {
                return 0;
            }
        }
        // In range: `steps` is at most `steps_in_range`.
        let along = |at: i64, d: i64| (i128::from(at) + i128::from(d) * i128::from(steps)) as i64;
        let to = Square::new(along(start.row, d_row), along(start.col, d_col));
        self.apply(slot, to, None);
        if is_king {
            self.set_in_check(slot, false);
        }
        steps
    }
}

/// Whether a change on `sq` can alter what attacks a king on `king`.
fn may_touch(sq: Square, king: Square) -> bool {
    let (a, b) = (sq.row.abs_diff(king.row), sq.col.abs_diff(king.col));
    a == 0 || b == 0 || a == b || is_knight_jump(a, b)
}

#[cfg(test)]
mod tests {
    use super::super::piece::{BLACK_KING, BLACK_ROOK, WHITE_KING, WHITE_PAWN, WHITE_ROOK};
    use super::*;

    fn sq(row: i64, col: i64) -> Square {
        Square::new(row, col)
    }

    #[test]
    fn a_king_walks_up_to_its_own_wall_and_stops_before_an_attacked_square() {
        let mut board = Board::new(3);
        board.place(0, WHITE_KING, sq(0, 0));
        board.place(1, WHITE_PAWN, sq(0, 1000));
        board.place(2, BLACK_KING, sq(60, -700));
        assert_eq!(
            board.walk_by(0, 0, 1, Some(WHITE_KING), 5),
            5,
            "as far as allowed"
        );
        assert_eq!(board.walk_by(0, 0, 1, None, u64::MAX), 994, "to the pawn");
        assert_eq!(board.piece_at(sq(0, 999)), Some(WHITE_KING));
        assert_eq!(board.walk_by(0, 0, 1, None, u64::MAX), 0, "blocked");
        // A black rook's column crosses the row at 500: the walk back stops
        // on 501, whatever stands between.
        board.place(2, BLACK_ROOK, sq(-40, 500));
        assert_eq!(board.walk_by(0, 0, -1, None, u64::MAX), 498);
        assert_eq!(board.king_in_check(sq(0, 501)), Some(false));
    }

    #[test]
    fn sliders_stop_before_pieces_they_would_pass_and_kings_they_would_touch() {
        let mut board = Board::new(2);
        board.place(0, WHITE_ROOK, sq(0, 0));
        board.place(1, WHITE_PAWN, sq(0, 7));
        // Steps of 2: 2, 4, 6 are clear; the step to 8 passes over 7.
        assert_eq!(board.walk_by(0, 0, 2, None, u64::MAX), 3);
        board.place(1, BLACK_KING, sq(9, -2));
        // Back along row 0: column -2 shares the king's column.
        assert_eq!(board.walk_by(0, 0, -2, None, u64::MAX), 3, "6 -> 0, not -2");
        assert_eq!(board.walk_by(0, 0, -2, None, u64::MAX), 0);
    }

    #[test]
    fn walks_stop_at_the_edge_of_the_range() {
        let mut board = Board::new(1);
        board.place(0, WHITE_ROOK, sq(0, i64::MAX - 10));
        assert_eq!(board.walk_by(0, 0, 3, None, u64::MAX), 3);
        assert_eq!(board.walk_by(0, 0, 3, None, u64::MAX), 0);
        assert!(board.move_named_by(0, 0, 3, None).is_err());
    }
}
