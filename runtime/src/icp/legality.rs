//! Whether a move is legal: rules 1 and 2 (the target is not friendly and
//! the piece can get there by its own movement) and rule 3 (every king of
//! the mover's colour is safe afterwards), with the check flags kept.

use super::board::{Applied, Board, Slot, NO_SLOT};
use super::geometry::{distance, is_knight_jump, ray_towards, Square, KNIGHT_JUMPS, RAYS};
use super::piece::{Colour, Kind, Piece};

/// The pieces near a square: the nearest piece along each of the eight
/// rays (with its distance in steps) and the pieces a knight's jump away.
struct Around {
    rays: [Option<(Slot, u64)>; 8],
    jumps: [Slot; 8],
    jump_count: usize,
}

impl Around {
    fn add_jump(&mut self, slot: Slot) {
        self.jumps[self.jump_count] = slot;
        self.jump_count += 1;
    }
}

/// Paths of at most this many steps are checked square by square.
const PROBE_LIMIT: u64 = 8;

/// Up to this many kings on the board, the kings a change can affect are
/// found by scanning them all (a little arithmetic each); with more, by
/// looking along the rays from the changed squares, which costs O(log n)
/// whatever the number of kings.
const KING_SCAN_LIMIT: usize = 8;

/// The kings a change can affect: at most the nearest piece on 8 rays and
/// 8 knight squares around each of two squares, plus the mover.
struct KingSet {
    slots: [Slot; 34],
    len: usize,
}

impl KingSet {
    fn new() -> Self {
        KingSet {
            slots: [0; 34],
            len: 0,
        }
    }

    fn insert(&mut self, slot: Slot) {
        if !self.as_slice().contains(&slot) && self.len < self.slots.len() {
            self.slots[self.len] = slot;
            self.len += 1;
        }
    }

    fn as_slice(&self) -> &[Slot] {
        &self.slots[..self.len]
    }
}

/// Whether a change on `changed` can alter whether `king` is attacked: it
/// shares a row, column or diagonal with the king, or is a knight's jump
/// away.
#[inline(always)]
fn may_affect(changed: Square, king: Square) -> bool {
    let a = changed.row.abs_diff(king.row);
    let b = changed.col.abs_diff(king.col);
    a == 0 || b == 0 || a == b || is_knight_jump(a, b)
}

impl Board {
    /// Rule 3 for a move just applied: whether every king of the mover's
    /// colour is safe. If so, updates the check flags of the kings the move
    /// affects; if not, changes no flag.
    #[inline(always)]
    pub(super) fn keeps_kings_safe(&mut self, applied: &Applied) -> bool {
        let piece = self.record(applied.mover).piece;
        if self.kings.len() <= KING_SCAN_LIMIT {
            // Usually no king but the mover shares a line with the squares
            // involved.
            let mut untouched = true;
            for &king in &self.kings {
                let square = self.records[king as usize].square;
                untouched &= king == applied.mover
                    || (!may_affect(applied.to, square) && !may_affect(applied.from, square));
            }
            if untouched {
                if piece.kind == Kind::King {
                    return self.king_move_is_safe(applied.mover, applied.to, piece.colour);
                }
                return self.kings_in_check[piece.colour.index()] == 0;
            }
        }
        self.check_test(applied, piece.colour)
    }

    /// Rule 3 for a king of `colour` just moved to `to` when no other king
    /// can be affected by the move: the other kings keep their flags, so
    /// only the mover's own square needs a test. Sets its flag if legal.
    /// On a small board the king keeps a box of squares no enemy could
    /// attack, so a king stepping inside it needs no pass over the pieces.
    #[inline(never)]
    fn king_move_is_safe(&mut self, king: Slot, to: Square, colour: Colour) -> bool {
        let record = self.record(king);
        if self.kings_in_check[colour.index()] != usize::from(record.in_check) {
            return false;
        }
        let enemy_version = self.versions[1 - colour.index()];
        if self.scans() {
            let known_safe = record.safe_version == enemy_version
                && distance(record.safe_center, to) < record.safe;
            if !known_safe {
                let Some(safe) = self.safe_distance(to, colour) else {
                    return false;
                };
                let record = self.record_mut(king);
                record.safe = safe;
                record.safe_center = to;
                record.safe_version = enemy_version;
            }
        } else {
            self.sync_index();
            if self.is_attacked(to, colour) {
                return false;
            }
        }
        self.set_in_check(king, false);
        true
    }

    /// On a small board: `None` if a piece of the colour opposite to
    /// `colour` attacks `sq`; else how far from `sq` (Chebyshev distance,
    /// exclusive) no such piece could attack whatever stood between.
    fn safe_distance(&self, sq: Square, colour: Colour) -> Option<u64> {
        let mut safe = u64::MAX;
        for (&at, &piece) in self.live_squares.iter().zip(&self.live_pieces) {
            if piece.colour == colour {
                continue;
            }
            let reach = piece.reach_distance(at, sq);
            if reach == 0 && self.attacks_from(piece, at, sq) {
                return None;
            }
            safe = safe.min(reach);
        }
        Some(safe)
    }

    /// Whether `piece`, on `at`, attacks `sq` on this board (a small one:
    /// the path is scanned).
    #[inline(always)]
    fn attacks_from(&self, piece: Piece, at: Square, sq: Square) -> bool {
        let apart = (sq.row.abs_diff(at.row), sq.col.abs_diff(at.col));
        piece.reaches(at, sq, apart, true)
            && (!piece.kind.slides() || self.path_clear_by_scan(at, sq, apart.0.max(apart.1)))
    }

    /// [`Board::keeps_kings_safe`] when some king may be affected.
    #[inline(never)]
    fn check_test(&mut self, applied: &Applied, colour: Colour) -> bool {
        // Kings whose safety this move can change; all other kings keep
        // their current flag.
        let kings = self.affected_kings(
            Some(applied.from),
            applied.to,
            Some(applied.mover),
            applied.captured,
        );
        if kings.len == 0 {
            return self.kings_in_check[colour.index()] == 0;
        }
        self.sync_index();
        let mut flagged_here = 0;
        let mut attacked_now = [false; 34];
        let mut legal = true;
        for (i, &king) in kings.as_slice().iter().enumerate() {
            let record = self.record(king);
            let attacked = self.is_attacked(record.square, record.piece.colour);
            if record.piece.colour == colour {
                flagged_here += usize::from(record.in_check);
                legal &= !attacked;
            }
            attacked_now[i] = attacked;
        }
        legal &= self.kings_in_check[colour.index()] == flagged_here;
        if legal {
            for (&king, &attacked) in kings.as_slice().iter().zip(&attacked_now) {
                self.set_in_check(king, attacked);
            }
        }
        legal
    }

    /// Rules 1 and 2: the target (whose occupant is `target`) is not
    /// friendly and the piece can get there by its own movement (paths
    /// clear).
    #[inline(always)]
    pub(super) fn can_reach(
        &mut self,
        slot: Slot,
        from: Square,
        to: Square,
        (a, b): (u64, u64),
        target: Option<Slot>,
        known: Option<Piece>,
    ) -> bool {
        let record = self.record(slot);
        let piece = known.unwrap_or(record.piece);
        debug_assert_eq!(piece, record.piece, "a wrong piece was promised");
        if a == 0 && b == 0 {
            return false;
        }
        let target = target.map(|s| self.record(s).piece.colour);
        if target == Some(piece.colour) {
            return false;
        }
        let reaches = piece.reaches(from, to, (a, b), target.is_some());
        // Every square strictly between is empty (on one line, `a.max(b)`
        // steps apart).
        let steps = a.max(b);
        reaches && (!piece.kind.slides() || steps <= 1 || self.far_path_clear(from, to, steps))
    }

    /// Whether every square strictly between `from` and `to`, `steps` (two
    /// or more) apart on one line, is empty.
    #[inline(never)]
    fn far_path_clear(&mut self, from: Square, to: Square, steps: u64) -> bool {
        let d_row = i128::from(to.row) - i128::from(from.row);
        let d_col = i128::from(to.col) - i128::from(from.col);
        let (s_row, s_col) = (d_row.signum(), d_col.signum());
        if steps <= PROBE_LIMIT && self.hashed {
            // The square `k` steps along, in range for 0 ≤ k ≤ steps.
            return (1..i128::from(steps)).all(|k| {
                let sq = Square::new(
                    (i128::from(from.row) + k * s_row) as i64,
                    (i128::from(from.col) + k * s_col) as i64,
                );
                !self.occupant.contains_key(&sq)
            });
        }
        if self.scans() {
            return self.path_clear_by_scan(from, to, steps);
        }
        self.sync_index();
        let ray = match ray_towards(d_row, d_col) {
            Some(ray) => RAYS[ray],
            None => return false,
        };
        // Clear if the nearest piece along the way is `to` or beyond it.
        self.index
            .nearest(from, ray)
            .is_none_or(|sq| distance(from, sq) >= steps)
    }

    /// [`Board::far_path_clear`] by one pass over the pieces (for small
    /// boards): true if `steps` ≤ 1.
    fn path_clear_by_scan(&self, from: Square, to: Square, steps: u64) -> bool {
        if steps <= 1 {
            return true;
        }
        let s_row = (i128::from(to.row) - i128::from(from.row)).signum();
        let s_col = (i128::from(to.col) - i128::from(from.col)).signum();
        // A piece is in the way if it is k steps along for 0 < k < steps.
        !self.live_squares.iter().any(|&sq| {
            let a = i128::from(sq.row) - i128::from(from.row);
            let b = i128::from(sq.col) - i128::from(from.col);
            let k = if s_row != 0 { a * s_row } else { b * s_col };
            0 < k && k < i128::from(steps) && a == k * s_row && b == k * s_col
        })
    }

    pub(super) fn set_in_check(&mut self, king: Slot, attacked: bool) {
        let record = self.record_mut(king);
        if record.in_check != attacked {
            record.in_check = attacked;
            let colour = record.piece.colour.index();
            if attacked {
                self.kings_in_check[colour] += 1;
            } else {
                self.kings_in_check[colour] -= 1;
            }
        }
    }

    /// After the piece in `slot` was placed on `sq` (ignoring check):
    /// recomputes the check flag of each king that the new piece can
    /// affect.
    #[inline]
    pub(super) fn refresh_checks_after_placing(&mut self, slot: Slot, sq: Square) {
        let kings = self.affected_kings(None, sq, Some(slot), None);
        if kings.len > 0 {
            self.sync_index();
            self.refresh_checks(kings.as_slice());
        }
    }

    /// Recomputes the check flag of each king in `kings` (the index must be
    /// in sync).
    fn refresh_checks(&mut self, kings: &[Slot]) {
        for &king in kings {
            let record = self.record(king);
            let attacked = self.is_attacked(record.square, record.piece.colour);
            self.set_in_check(king, attacked);
        }
    }

    /// The kings whose attackers can change when `from` (emptied) and `to`
    /// (filled by `mover`) change, leaving out the `captured` piece.
    fn affected_kings(
        &mut self,
        from: Option<Square>,
        to: Square,
        mover: Option<Slot>,
        captured: Option<Slot>,
    ) -> KingSet {
        let mut kings = KingSet::new();
        if self.kings.len() <= KING_SCAN_LIMIT {
            for &king in &self.kings {
                let square = self.record(king).square;
                let affected = Some(king) == mover
                    || may_affect(to, square)
                    || from.is_some_and(|from| may_affect(from, square));
                if affected && Some(king) != captured {
                    kings.insert(king);
                }
            }
            return kings;
        }
        self.sync_index();
        if let Some(mover) = mover.filter(|&m| self.record(m).piece.kind == Kind::King) {
            kings.insert(mover);
        }
        for sq in from.into_iter().chain(Some(to)) {
            let around = self.around(sq);
            let rays = around.rays.iter().filter_map(|found| found.map(|(s, _)| s));
            for slot in rays.chain(around.jumps[..around.jump_count].iter().copied()) {
                if self.record(slot).piece.kind == Kind::King {
                    kings.insert(slot);
                }
            }
        }
        kings
    }

    /// The pieces around `sq` (the index must be in sync if queries use
    /// it).
    fn around(&self, sq: Square) -> Around {
        let mut around = Around {
            rays: [None; 8],
            jumps: [NO_SLOT; 8],
            jump_count: 0,
        };
        if self.scans() {
            for (&slot, &other) in self.live.iter().zip(&self.live_squares) {
                let d_row = i128::from(other.row) - i128::from(sq.row);
                let d_col = i128::from(other.col) - i128::from(sq.col);
                if let Some(ray) = ray_towards(d_row, d_col) {
                    let distance = distance(sq, other);
                    if around.rays[ray].is_none_or(|(_, d)| distance < d) {
                        around.rays[ray] = Some((slot, distance));
                    }
                } else if is_knight_jump(other.row.abs_diff(sq.row), other.col.abs_diff(sq.col)) {
                    around.add_jump(slot);
                }
            }
            return around;
        }
        for (d_row, d_col) in KNIGHT_JUMPS {
            if let Some(slot) = sq.offset(d_row, d_col).and_then(|s| self.slot_at(s)) {
                around.add_jump(slot);
            }
        }
        for (found, &ray) in around.rays.iter_mut().zip(&RAYS) {
            *found = self.index.nearest(sq, ray).and_then(|other| {
                let slot = self.slot_at(other)?;
                Some((slot, distance(sq, other)))
            });
        }
        around
    }

    /// Whether a piece of the colour opposite to `colour` attacks `sq` (the
    /// index must be in sync if queries use it).
    fn is_attacked(&self, sq: Square, colour: Colour) -> bool {
        if self.scans() {
            // Each piece of the other colour placed to attack `sq`, with
            // nothing between for a slider.
            return self
                .live_squares
                .iter()
                .zip(&self.live_pieces)
                .any(|(&at, &piece)| piece.colour != colour && self.attacks_from(piece, at, sq));
        }
        let around = self.around(sq);
        for (ray, found) in RAYS.iter().zip(around.rays) {
            let Some((slot, distance)) = found else {
                continue;
            };
            let attacker = self.record(slot);
            if attacker.piece.colour == colour {
                continue;
            }
            let diagonal = ray.family.is_diagonal();
            if attacker
                .piece
                .attacks_along(attacker.square, sq, diagonal, distance)
            {
                return true;
            }
        }
        around.jumps[..around.jump_count].iter().any(|&slot| {
            let piece = self.record(slot).piece;
            piece.kind == Kind::Knight && piece.colour != colour
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{piece, sq};
    use super::*;

    #[test]
    fn sliders_stop_at_pieces_between() {
        let mut board = Board::new(2);
        assert!(board.place(0, piece('R'), sq(0, 0)).unwrap());
        assert!(board.place(1, piece('p'), sq(0, 5)).unwrap());
        assert!(!board.move_from(sq(0, 0), sq(0, 9)));
        assert!(board.move_from(sq(0, 0), sq(0, 5)), "captures the pawn");
        assert_eq!(board.count(1), 0);
        assert!(board.move_from(sq(0, 5), sq(1_000_000_000_000_000, 5)));
        assert!(!board.move_from(sq(1_000_000_000_000_000, 5), sq(3, 4)));
    }

    #[test]
    fn extreme_coordinates_do_not_overflow() {
        let mut board = Board::new(1);
        assert!(board.place(0, piece('B'), sq(i64::MIN, i64::MIN)).unwrap());
        assert!(board.move_from(sq(i64::MIN, i64::MIN), sq(i64::MAX, i64::MAX)));
        assert!(board.place(0, piece('q'), sq(i64::MAX, i64::MIN)).unwrap());
        assert!(board.move_from(sq(i64::MAX, i64::MIN), sq(i64::MIN, i64::MAX)));
        assert!(board.place(0, piece('K'), sq(i64::MAX, 0)).unwrap());
        assert_eq!(board.king_in_check(sq(i64::MAX, 0)), Some(false));
    }

    #[test]
    fn pawns_move_forward_and_capture_diagonally() {
        let mut board = Board::new(1);
        board.place(0, piece('P'), sq(0, 0)).unwrap();
        board.place(0, piece('p'), sq(5, 0)).unwrap();
        assert!(!board.move_from(sq(0, 0), sq(-1, 0)), "white pawns go up");
        assert!(!board.move_from(sq(0, 0), sq(2, 0)), "no two-square move");
        assert!(
            !board.move_from(sq(0, 0), sq(1, 1)),
            "diagonal only to capture"
        );
        assert!(board.move_from(sq(0, 0), sq(1, 0)));
        assert!(board.move_from(sq(5, 0), sq(4, 0)), "black pawns go down");
        board.place(0, piece('n'), sq(2, 1)).unwrap();
        assert!(board.move_from(sq(1, 0), sq(2, 1)));
    }

    #[test]
    fn moves_may_not_leave_or_put_a_king_in_check() {
        let mut board = Board::new(1);
        board.place(0, piece('K'), sq(0, 0)).unwrap();
        board.place(0, piece('R'), sq(0, 1)).unwrap();
        board.place(0, piece('r'), sq(0, 7)).unwrap();
        assert!(!board.move_from(sq(0, 1), sq(1, 1)), "the rook is pinned");
        assert!(
            board.move_from(sq(0, 1), sq(0, 4)),
            "moving along the pin is fine"
        );
        // The king may not step into the black rook's column.
        board.place(0, piece('r'), sq(9, 1)).unwrap();
        assert!(!board.move_from(sq(0, 0), sq(1, 1)));
        // A second white king, placed in check, freezes every white move
        // that does not resolve it.
        board.place(0, piece('K'), sq(9, 5)).unwrap();
        assert_eq!(board.king_in_check(sq(9, 5)), Some(true));
        assert!(!board.move_from(sq(0, 4), sq(0, 3)));
        assert!(board.move_from(sq(9, 5), sq(10, 5)), "the king walks out");
        assert!(board.move_from(sq(0, 4), sq(0, 3)));
    }

    #[test]
    fn pawns_and_knights_attack_kings() {
        let mut board = Board::new(1);
        board.place(0, piece('k'), sq(5, 5)).unwrap();
        board.place(0, piece('P'), sq(4, 4)).unwrap();
        assert_eq!(board.king_in_check(sq(5, 5)), Some(true));
        assert!(!board.place(0, piece('n'), sq(4, 4)).unwrap(), "occupied");
        let mut board = Board::new(1);
        board.place(0, piece('K'), sq(0, 0)).unwrap();
        board.place(0, piece('p'), sq(-1, 1)).unwrap();
        assert_eq!(
            board.king_in_check(sq(0, 0)),
            Some(false),
            "black pawns attack downward"
        );
        board.place(0, piece('n'), sq(2, 1)).unwrap();
        assert_eq!(board.king_in_check(sq(0, 0)), Some(true));
        assert!(
            board.move_from(sq(2, 1), sq(4, 2)),
            "black may move: its king is safe"
        );
        assert_eq!(
            board.king_in_check(sq(0, 0)),
            Some(false),
            "discovered by the knight leaving"
        );
    }
}
