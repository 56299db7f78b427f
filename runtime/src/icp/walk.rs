//! Walks: a named move by a constant offset repeated while it succeeds
//! (`k;0,1?10` on line 10), made many steps at once when the board
//! proves that each step would succeed and change nothing but the
//! mover's square.

use super::super::limits::StepCounter;
use super::board::{Board, Slot, NO_SLOT};
use super::geometry::{is_knight_jump, Square};
use super::piece::{Colour, Kind, NameId, Piece};

/// A walk that makes fewer steps than this counts as a miss for
/// [`Pace`].
const FEW_STEPS: u64 = 4;

/// The most single steps a walk loop makes between two tries of a walk.
const LONGEST_WAIT: u32 = 64;

/// Single steps a walk loop makes before its first try of a walk, the
/// first time it runs: a try costs a pass over the pieces, about as much as
/// this many single steps, so a walk that ends sooner never pays for one,
/// and one that goes on costs at most twice its best.
const FIRST_WAIT: u32 = 8;

/// The most single steps a walk loop that keeps missing makes before its
/// first try when it starts again.
const LONGEST_FIRST_WAIT: u32 = 32;

/// The pace of a walk loop in generated code, kept from one run of the
/// loop to the next: each run starts with a few single steps before it
/// tries a walk (none once walks have paid, up to 32 while they miss);
/// after a walk that made few steps, the loop makes more and more single
/// steps (up to 64) before it tries again, so that a loop the board can
/// rarely walk costs hardly more than its single steps.
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    /// Single steps before the next try.
    wait: u32,
    /// The wait after the last miss.
    gap: u32,
    /// The wait at the start of a run.
    first: u32,
}

impl Default for Pace {
    fn default() -> Self {
        Pace::new()
    }
}

impl Pace {
    /// A loop that has not run yet.
    pub const fn new() -> Self {
        Pace {
            wait: FIRST_WAIT,
            gap: FIRST_WAIT,
            first: FIRST_WAIT,
        }
    }

    /// The loop starts a run.
    #[inline(always)]
    pub fn enter(&mut self) {
        self.wait = self.first;
        self.gap = self.first;
    }
}

/// The squares of a walk: `start + j * step` for `j = 1, 2, …`.
#[derive(Clone, Copy)]
struct Walk {
    start: Square,
    step: (i64, i64),
}

/// `n / d` if `d` (not 0) divides `n`, else `None`. Divides in 64 bits
/// when both fit (walks' numbers usually do), and not at all by ±1.
#[inline(always)]
fn exact_quotient(n: i128, d: i128) -> Option<i128> {
    let fits = |v: i128| v >= i128::from(i64::MIN) && v <= i128::from(i64::MAX);
    match d {
        1 => Some(n),
        -1 => Some(-n),
        // (`d` is not -1, so the 64-bit division cannot overflow.)
        _ if fits(n) && fits(d) => {
            let (n, d) = (n as i64, d as i64);
            (n % d == 0).then_some(i128::from(n / d))
        }
        _ => (n % d == 0).then_some(n / d),
    }
}

/// `ceil(n / d)` for `n > d > 0`, in 64 bits when `n` fits.
#[inline(always)]
fn quotient_up(n: i128, d: i128) -> i128 {
    if d == 1 {
        n
    } else if n <= i128::from(u64::MAX) {
        i128::from((n as u64 - 1) / d as u64 + 1)
    } else {
        (n - 1) / d + 1
    }
}

/// `j` as a step count: `u64::MAX` if it is out of range or below 1.
#[inline(always)]
fn step_count(j: i128) -> u64 {
    if j < 1 {
        u64::MAX
    } else {
        j.min(i128::from(u64::MAX)) as u64
    }
}

impl Walk {
    /// The first `j ≥ 1` for which a linear function of the square,
    /// `row * r + col * c` (`r` and `c` in -1..=1), equals its value on
    /// `target`; `u64::MAX` if none.
    #[inline(always)]
    fn first_on(self, (r, c): (i128, i128), target: Square) -> u64 {
        let value = |row: i64, col: i64| i128::from(row) * r + i128::from(col) * c;
        let per_step = value(self.step.0, self.step.1);
        let gap = value(target.row, target.col) - value(self.start.row, self.start.col);
        if per_step == 0 {
            return if gap == 0 { 1 } else { u64::MAX };
        }
        // Behind the walk or short of one step: no division needed.
        if (gap > 0) != (per_step > 0) || gap.unsigned_abs() < per_step.unsigned_abs() {
            return u64::MAX;
        }
        exact_quotient(gap, per_step).map_or(u64::MAX, step_count)
    }

    /// The first `j ≥ 1` at which the walk stands on `target`.
    #[inline(always)]
    fn first_at(self, target: Square) -> u64 {
        // Off the walk's line (the usual case): the cross product of the
        // step and the way to `target` is not 0. Wrapped products differ
        // only if the true ones do, so this skips no square on the line.
        let (d_row, d_col) = (i128::from(self.step.0), i128::from(self.step.1));
        let gap_row = i128::from(target.row) - i128::from(self.start.row);
        let gap_col = i128::from(target.col) - i128::from(self.start.col);
        if gap_row.wrapping_mul(d_col) != gap_col.wrapping_mul(d_row) {
            return u64::MAX;
        }
        // A coordinate that never changes matches every step or none.
        let moves = |d: i64| d != 0;
        let by_row = self.first_on((1, 0), target);
        if moves(self.step.0) && by_row == u64::MAX {
            return u64::MAX;
        }
        let by_col = self.first_on((0, 1), target);
        match (moves(self.step.0), moves(self.step.1)) {
            (true, true) if by_row == by_col => by_row,
            (true, true) => u64::MAX,
            (true, false) if by_col == 1 => by_row,
            (false, true) if by_row == 1 => by_col,
            _ => u64::MAX,
        }
    }

    /// The first `j ≥ 1` at which the walk stands on a row or column
    /// through `target` (if `straight`) or a diagonal (if `diagonal`).
    #[inline(always)]
    fn first_on_lines(self, target: Square, straight: bool, diagonal: bool) -> u64 {
        // (Literal lines, so that `first_on` multiplies by nothing.)
        let mut first = u64::MAX;
        if straight {
            first = first.min(self.first_on((1, 0), target));
            first = first.min(self.first_on((0, 1), target));
        }
        if diagonal {
            first = first.min(self.first_on((1, -1), target));
            first = first.min(self.first_on((1, 1), target));
        }
        first
    }

    /// The first `j ≥ 1` at which the walk stands on `target` moved by
    /// one of `offsets`.
    #[inline]
    fn first_at_any(self, target: Square, offsets: &[(i64, i64)]) -> u64 {
        offsets
            .iter()
            .filter_map(|&(r, c)| target.offset(r, c))
            .map(|sq| self.first_at(sq))
            .min()
            .unwrap_or(u64::MAX)
    }

    /// The first `j ≥ 1` at which the walk stands `a` rows and `b`
    /// columns from `center`, both at most `within`, with `near(a, b)`:
    /// the squares around `center` that one of its pieces reaches, found
    /// among the few steps that come that close (one division, not one
    /// per square). `u64::MAX` if none.
    #[inline(always)]
    fn first_near(self, center: Square, within: u64, near: impl Fn(u64, u64) -> bool) -> u64 {
        let row = (
            i128::from(self.start.row) - i128::from(center.row),
            i128::from(self.step.0),
        );
        let col = (
            i128::from(self.start.col) - i128::from(center.col),
            i128::from(self.step.1),
        );
        // Step through the coordinate that moves (`x`), mirrored so that
        // it grows; `y` is the other one.
        let rows_move = row.1 != 0;
        let ((x0, dx), (y0, dy)) = if rows_move { (row, col) } else { (col, row) };
        if dx == 0 {
            return u64::MAX;
        }
        let (x0, dx) = if dx < 0 { (-x0, -dx) } else { (x0, dx) };
        let w = i128::from(within);
        // The first step with x ≥ -w.
        let need = -w - x0;
        let mut j = if need <= dx { 1 } else { quotient_up(need, dx) };
        loop {
            let x = x0 + j * dx;
            if x > w {
                return u64::MAX;
            }
            let y = (j.checked_mul(dy)).and_then(|v| v.checked_add(y0));
            if let Some(y) = y {
                let (x, y) = (x.unsigned_abs() as u64, y.unsigned_abs());
                if y <= u128::from(within) {
                    let (a, b) = if rows_move {
                        (x, y as u64)
                    } else {
                        (y as u64, x)
                    };
                    if near(a, b) {
                        return step_count(j);
                    }
                }
            }
            j += 1;
        }
    }

    /// How many steps keep both coordinates in the `i64` range.
    #[inline]
    fn steps_in_range(self) -> u64 {
        let room = |at: i64, d: i64| -> u64 {
            let room = match d.signum() {
                1 => i64::MAX.abs_diff(at),
                -1 => at.abs_diff(i64::MIN),
                _ => return u64::MAX,
            };
            match d.unsigned_abs() {
                1 => room,
                d => room / d,
            }
        };
        room(self.start.row, self.step.0).min(room(self.start.col, self.step.1))
    }

    /// The first step at which `piece` of the other colour, on `at`, could
    /// attack the walker's square, whatever stands between.
    #[inline]
    fn first_attack(self, piece: Piece, at: Square) -> u64 {
        match piece.kind {
            Kind::Rook => self.first_on_lines(at, true, false),
            Kind::Bishop => self.first_on_lines(at, false, true),
            Kind::Queen => self.first_on_lines(at, true, true),
            Kind::Knight => self.first_near(at, 2, is_knight_jump),
            Kind::King => self.first_near(at, 1, |a, b| a + b > 0),
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
    #[inline]
    fn first_touch(self, king: Square) -> u64 {
        self.first_on_lines(king, true, true)
            .min(self.first_near(king, 2, is_knight_jump))
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
            pace.first = (pace.first * 2 + 1).min(LONGEST_FIRST_WAIT);
        } else {
            pace.gap = 0;
            pace.first /= 4;
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
        let piece = known.unwrap_or(self.record(slot).piece);
        debug_assert_eq!(piece, self.record(slot).piece, "a wrong piece was promised");
        if piece.kind == Kind::King {
            self.walk_by_any::<true>(slot, piece, (d_row, d_col), max)
        } else {
            self.walk_by_any::<false>(slot, piece, (d_row, d_col), max)
        }
    }

    /// [`Board::walk_by`] of the piece in `slot` (a king if `KING`): the
    /// offsets of a king's and a knight's move (almost every walk) each
    /// get a copy with the offset's arithmetic folded away.
    #[inline(always)]
    fn walk_by_any<const KING: bool>(
        &mut self,
        slot: Slot,
        piece: Piece,
        offset: (i64, i64),
        max: u64,
    ) -> u64 {
        match offset {
            (0, 1) => self.walk_by_offset::<0, 1, KING>(slot, piece, max),
            (0, -1) => self.walk_by_offset::<0, -1, KING>(slot, piece, max),
            (1, 0) => self.walk_by_offset::<1, 0, KING>(slot, piece, max),
            (-1, 0) => self.walk_by_offset::<-1, 0, KING>(slot, piece, max),
            (1, 1) => self.walk_by_offset::<1, 1, KING>(slot, piece, max),
            (1, -1) => self.walk_by_offset::<1, -1, KING>(slot, piece, max),
            (-1, 1) => self.walk_by_offset::<-1, 1, KING>(slot, piece, max),
            (-1, -1) => self.walk_by_offset::<-1, -1, KING>(slot, piece, max),
            (1, 2) => self.walk_by_offset::<1, 2, KING>(slot, piece, max),
            (1, -2) => self.walk_by_offset::<1, -2, KING>(slot, piece, max),
            (-1, 2) => self.walk_by_offset::<-1, 2, KING>(slot, piece, max),
            (-1, -2) => self.walk_by_offset::<-1, -2, KING>(slot, piece, max),
            (2, 1) => self.walk_by_offset::<2, 1, KING>(slot, piece, max),
            (2, -1) => self.walk_by_offset::<2, -1, KING>(slot, piece, max),
            (-2, 1) => self.walk_by_offset::<-2, 1, KING>(slot, piece, max),
            (-2, -1) => self.walk_by_offset::<-2, -1, KING>(slot, piece, max),
            (d_row, d_col) => self.walk(slot, piece, KING, (d_row, d_col), max),
        }
    }

    /// [`Board::walk_by`] by a constant offset.
    #[inline(never)]
    fn walk_by_offset<const D_ROW: i64, const D_COL: i64, const KING: bool>(
        &mut self,
        slot: Slot,
        piece: Piece,
        max: u64,
    ) -> u64 {
        self.walk(slot, piece, KING, (D_ROW, D_COL), max)
    }

    /// The body of [`Board::walk_by`]: `piece` (a king if `is_king`) in
    /// `slot`, which is the newest of its name, walks by (`d_row`,
    /// `d_col`) at most `max` (> 0) times.
    #[inline(always)]
    fn walk(
        &mut self,
        slot: Slot,
        piece: Piece,
        is_king: bool,
        (d_row, d_col): (i64, i64),
        max: u64,
    ) -> u64 {
        let record = self.record(slot);
        let (start, in_check) = (record.square, record.in_check);
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
            let mut stop = match path.first_at(at) {
                on_path if stride > 1 && on_path != u64::MAX => on_path.div_ceil(stride),
                on_path => on_path,
            };
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
    use super::super::test_support::sq;
    use super::*;

    #[test]
    fn a_king_walks_up_to_its_own_wall_and_stops_before_an_attacked_square() {
        let mut board = Board::new(3);
        board.place(0, WHITE_KING, sq(0, 0)).unwrap();
        board.place(1, WHITE_PAWN, sq(0, 1000)).unwrap();
        board.place(2, BLACK_KING, sq(60, -700)).unwrap();
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
        board.place(2, BLACK_ROOK, sq(-40, 500)).unwrap();
        assert_eq!(board.walk_by(0, 0, -1, None, u64::MAX), 498);
        assert_eq!(board.king_in_check(sq(0, 501)), Some(false));
    }

    #[test]
    fn sliders_stop_before_pieces_they_would_pass_and_kings_they_would_touch() {
        let mut board = Board::new(2);
        board.place(0, WHITE_ROOK, sq(0, 0)).unwrap();
        board.place(1, WHITE_PAWN, sq(0, 7)).unwrap();
        // Steps of 2: 2, 4, 6 are clear; the step to 8 passes over 7.
        assert_eq!(board.walk_by(0, 0, 2, None, u64::MAX), 3);
        board.place(1, BLACK_KING, sq(9, -2)).unwrap();
        // Back along row 0: column -2 shares the king's column.
        assert_eq!(board.walk_by(0, 0, -2, None, u64::MAX), 3, "6 -> 0, not -2");
        assert_eq!(board.walk_by(0, 0, -2, None, u64::MAX), 0);
    }

    #[test]
    fn walks_stop_at_the_edge_of_the_range() {
        let mut board = Board::new(1);
        board.place(0, WHITE_ROOK, sq(0, i64::MAX - 10)).unwrap();
        assert_eq!(board.walk_by(0, 0, 3, None, u64::MAX), 3);
        assert_eq!(board.walk_by(0, 0, 3, None, u64::MAX), 0);
        assert!(board.move_named_by(0, 0, 3, None).is_err());
    }
}

/// The walk's arithmetic against a plain version of it: every square
/// tested one by one, with `i128` division throughout.
#[cfg(test)]
mod arithmetic {
    use super::super::geometry::KNIGHT_JUMPS;
    use super::super::piece::Piece;
    use super::*;
    use proptest::prelude::*;

    /// `first_on` as written first: divides whatever the numbers.
    fn plain_first_on(walk: Walk, (r, c): (i128, i128), target: Square) -> u64 {
        let value = |row: i64, col: i64| i128::from(row) * r + i128::from(col) * c;
        let start = value(walk.start.row, walk.start.col);
        let per_step = value(walk.step.0, walk.step.1);
        let gap = value(target.row, target.col) - start;
        if per_step == 0 {
            return if gap == 0 { 1 } else { u64::MAX };
        }
        if gap % per_step != 0 {
            return u64::MAX;
        }
        let j = gap / per_step;
        if j < 1 {
            return u64::MAX;
        }
        j.min(i128::from(u64::MAX)) as u64
    }

    fn plain_first_at(walk: Walk, target: Square) -> u64 {
        let by_row = plain_first_on(walk, (1, 0), target);
        let by_col = plain_first_on(walk, (0, 1), target);
        match (walk.step.0 != 0, walk.step.1 != 0) {
            (true, true) if by_row == by_col => by_row,
            (true, false) if by_col == 1 => by_row,
            (false, true) if by_row == 1 => by_col,
            _ => u64::MAX,
        }
    }

    fn plain_first_at_any(walk: Walk, target: Square, offsets: &[(i64, i64)]) -> u64 {
        offsets
            .iter()
            .filter_map(|&(r, c)| target.offset(r, c))
            .map(|sq| plain_first_at(walk, sq))
            .min()
            .unwrap_or(u64::MAX)
    }

    fn plain_first_on_lines(walk: Walk, target: Square, lines: &[(i128, i128)]) -> u64 {
        lines
            .iter()
            .map(|&line| plain_first_on(walk, line, target))
            .min()
            .unwrap_or(u64::MAX)
    }

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
    const ALL_LINES: [(i128, i128); 4] = [(1, 0), (0, 1), (1, -1), (1, 1)];

    /// Mostly near the walk; sometimes near the ends of the `i64` range.
    fn coord() -> impl Strategy<Value = i64> {
        prop_oneof![
            6 => -12i64..=12,
            1 => prop::sample::select(vec![i64::MIN, i64::MIN + 3, i64::MAX - 5, i64::MAX]),
            1 => any::<i64>(),
        ]
    }

    fn step() -> impl Strategy<Value = i64> {
        prop_oneof![
            6 => -3i64..=3,
            1 => prop::sample::select(vec![i64::MIN, -1_000_000_007, 1 << 40, i64::MAX]),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        #[test]
        fn fast_arithmetic_agrees_with_the_plain_one(
            start in (coord(), coord()),
            step in (step(), step()),
            target in (coord(), coord()),
            letter in prop::sample::select(vec!['K', 'Q', 'R', 'B', 'N', 'P', 'p']),
        ) {
            prop_assume!(step != (0, 0));
            let walk = Walk { start: Square::new(start.0, start.1), step };
            let target = Square::new(target.0, target.1);
            // Steps past the range are never made: compare up to there.
            let cap = walk.steps_in_range().saturating_add(1);
            let same = |fast: u64, plain: u64| fast.min(cap) == plain.min(cap);
            prop_assert!(same(walk.first_at(target), plain_first_at(walk, target)));
            let touch = plain_first_on_lines(walk, target, &ALL_LINES)
                .min(plain_first_at_any(walk, target, &KNIGHT_JUMPS));
            prop_assert!(same(walk.first_touch(target), touch));
            let piece = Piece::from_letter(letter).unwrap();
            let attack = match piece.kind {
                Kind::Rook => plain_first_on_lines(walk, target, &ALL_LINES[..2]),
                Kind::Bishop => plain_first_on_lines(walk, target, &ALL_LINES[2..]),
                Kind::Queen => plain_first_on_lines(walk, target, &ALL_LINES),
                Kind::Knight => plain_first_at_any(walk, target, &KNIGHT_JUMPS),
                Kind::King => plain_first_at_any(walk, target, &NEIGHBOURS),
                Kind::Pawn => {
                    let forward = if piece.colour == Colour::White { 1 } else { -1 };
                    plain_first_at_any(walk, target, &[(forward, 1), (forward, -1)])
                }
            };
            prop_assert!(same(walk.first_attack(piece, target), attack), "{:?}", piece);
        }
    }
}
