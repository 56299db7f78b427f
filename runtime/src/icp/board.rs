//! The board: the piece records, where each piece stands, the names' lists,
//! and making and taking back moves.

use super::super::error::{ErrorKind, RuntimeError};
use super::super::hash::FastMap;
use super::super::memory::{self, Charged};
use super::geometry::Square;
use super::index::LineIndex;
use super::piece::{Kind, NameId, Piece};

/// Index of a piece record in the board's slab.
pub(super) type Slot = u32;

/// No piece (the end of a name's list).
pub(super) const NO_SLOT: Slot = u32::MAX;

/// One piece: what it is, where it stands, its name and its place in
/// the board's lists (a freed slot keeps its last piece's record).
#[derive(Clone, Debug)]
pub(super) struct Record {
    pub(super) piece: Piece,
    pub(super) square: Square,
    name: NameId,
    /// The next older piece of the same name on the board, or `NO_SLOT`.
    older: Slot,
    /// The next newer piece of the same name on the board, or `NO_SLOT`.
    newer: Slot,
    /// Position in `Board::live`, `Board::live_squares` and
    /// `Board::live_pieces`.
    live_index: u32,
    /// For kings: position in `Board::kings`.
    king_index: u32,
    /// For kings: attacked by the other colour right now.
    pub(super) in_check: bool,
    /// For kings: squares closer than `safe` (Chebyshev distance) to
    /// `safe_center` cannot be attacked by the other colour, whatever
    /// stands between, while that colour's pieces are as they were at
    /// `safe_version` (see [`Board::versions`]); 0 when nothing is known.
    pub(super) safe: u64,
    pub(super) safe_center: Square,
    pub(super) safe_version: u64,
}

/// The pieces of one name: a list linked through the records, newest
/// first (placement order; moving does not change it).
#[derive(Clone, Copy, Debug)]
struct NameList {
    newest: Slot,
    count: usize,
}

const EMPTY_NAME: NameList = NameList {
    newest: NO_SLOT,
    count: 0,
};

/// What a tentative move changed, so it can be taken back.
pub(super) struct Applied {
    pub(super) mover: Slot,
    pub(super) from: Square,
    pub(super) to: Square,
    pub(super) captured: Option<Slot>,
}

/// Boards with at most this many pieces find pieces by scanning them (a
/// few comparisons each) instead of keeping a hash map of squares and the
/// ordered [`LineIndex`].
const SMALL_BOARD: usize = 32;

/// The number of buckets that squares are spread over ([`bucket`]).
const BUCKETS: usize = 256;

/// The bucket of `sq`: a multiplicative hash of its row and column.
#[inline(always)]
fn bucket(sq: Square) -> usize {
    let mixed = (sq.row as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (sq.col as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (mixed >> 56) as usize
}

/// The replay log may grow to twice the board's size plus this many
/// entries before the line index is dropped.
const LOG_SLACK: usize = 64;

/// The unbounded board. Each piece has a kind, colour, square, name and
/// placement time.
///
/// Costs (n = pieces on the board):
/// - a one-square move with no king it could affect: with n ≤ 32, a scan
///   of the pieces' squares for the target; beyond, two hash-map updates;
///   nothing allocates once the board's tables have grown;
/// - a longer path or a king to test: with n ≤ 32, a scan of the pieces;
///   beyond, O(log n) queries on the ordered line index — independent
///   of the distance moved either way;
/// - the check test looks only at kings whose safety the move can change
///   (kings seen along a line from, or a knight's jump away from, the two
///   squares involved); every king's "in check" flag is kept up to date, so
///   boards with many kings cost no more; without kings it is skipped;
/// - a named move: O(1) to find the name and O(1) to step to each older
///   candidate, plus the move tried for each.
pub struct Board {
    pub(super) records: Vec<Record>,
    free_slots: Vec<Slot>,
    /// Every piece on the board, unordered, and its square.
    pub(super) live: Vec<Slot>,
    pub(super) live_squares: Vec<Square>,
    /// What each piece of `live` is (for scans that test attackers).
    pub(super) live_pieces: Vec<Piece>,
    /// How many pieces stand on squares of each [`bucket`]: a square whose
    /// bucket is empty is empty, which spares most scans of a small board.
    /// Kept only while the board is small (not `hashed`).
    buckets: Box<[u32; BUCKETS]>,
    /// Square → piece, kept while the board is large (`hashed`).
    pub(super) occupant: Charged<FastMap<Square, Slot>>,
    pub(super) hashed: bool,
    names: Vec<NameList>,
    /// Kings in check, per colour.
    pub(super) kings_in_check: [usize; 2],
    /// Every king on the board.
    pub(super) kings: Vec<Slot>,
    /// Per colour, a count of changes to its pieces (placed, moved, taken
    /// off, put back): kings' safe squares stay valid while the other
    /// colour's count is unchanged.
    pub(super) versions: [u64; 2],
    pub(super) index: LineIndex,
    small_board: usize,
    log_slack: usize,
}

impl Default for Board {
    fn default() -> Self {
        Board::new(0)
    }
}

impl Board {
    /// An empty board for a program with `names` interned names.
    pub fn new(names: usize) -> Self {
        Board::tuned(names, SMALL_BOARD, LOG_SLACK)
    }

    /// An empty board that treats boards of up to `small_board` pieces as
    /// small (scanned rather than hashed and indexed) and lets the line
    /// index's replay log grow by `log_slack` beyond twice the board's
    /// size; tests of every strategy make boards with other sizes.
    pub(super) fn tuned(names: usize, small_board: usize, log_slack: usize) -> Self {
        Board {
            records: Vec::new(),
            free_slots: Vec::new(),
            live: Vec::new(),
            live_squares: Vec::new(),
            live_pieces: Vec::new(),
            buckets: Box::new([0; BUCKETS]),
            occupant: Charged::default(),
            hashed: false,
            names: vec![EMPTY_NAME; names],
            kings_in_check: [0; 2],
            kings: Vec::new(),
            versions: [0; 2],
            index: LineIndex::default(),
            small_board,
            log_slack,
        }
    }

    /// The number of pieces called `name` on the board.
    #[inline]
    pub fn count(&self, name: NameId) -> usize {
        self.names.get(name as usize).map_or(0, |list| list.count)
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.slot_at(sq).map(|slot| self.record(slot).piece)
    }

    /// Whether the king on `sq` is attacked by the other colour (`None` if
    /// there is no king there).
    pub fn king_in_check(&self, sq: Square) -> Option<bool> {
        let record = self.record(self.slot_at(sq)?);
        (record.piece.kind == Kind::King).then_some(record.in_check)
    }

    /// Every piece on the board: its name, what it is and where it stands
    /// (in no particular order).
    pub fn pieces(&self) -> impl Iterator<Item = (NameId, Piece, Square)> + '_ {
        self.live.iter().map(move |&slot| {
            let record = self.record(slot);
            (record.name, record.piece, record.square)
        })
    }

    /// Where the newest piece called `name` stands, if there is one.
    pub fn square_of(&self, name: NameId) -> Option<Square> {
        match self.newest(name) {
            NO_SLOT => None,
            slot => Some(self.record(slot).square),
        }
    }

    /// The number of pieces on the board.
    pub fn len(&self) -> usize {
        self.live.len()
    }

    /// Whether the board is empty.
    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// `NAME=T r,c`: places a new piece called `name` on `sq` if it is empty.
    /// Ignores check entirely. The memory limit's error (without a line) if
    /// the board cannot grow by a piece.
    pub fn place(&mut self, name: NameId, piece: Piece, sq: Square) -> Result<bool, RuntimeError> {
        if self.slot_at(sq).is_some() {
            return Ok(false);
        }
        self.make_room(piece.kind == Kind::King)
            .map_err(RuntimeError::new)?;
        if self.names.len() <= name as usize {
            self.names.resize(name as usize + 1, EMPTY_NAME);
        }
        let record = Record {
            piece,
            square: sq,
            name,
            older: self.names[name as usize].newest,
            newer: NO_SLOT,
            live_index: 0,
            king_index: self.kings.len() as u32,
            in_check: false,
            safe: 0,
            safe_center: sq,
            safe_version: 0,
        };
        let slot = match self.free_slots.pop() {
            Some(slot) => {
                self.records[slot as usize] = record;
                slot
            }
            None => {
                self.records.push(record);
                (self.records.len() - 1) as Slot
            }
        };
        self.list(slot);
        self.link_name(slot);
        if self.hashed {
            self.occupant.insert(sq, slot);
        } else if self.live.len() > self.small_board {
            self.hashed = true;
            self.occupant.extend(
                self.live_squares
                    .iter()
                    .copied()
                    .zip(self.live.iter().copied()),
            );
        }
        self.log(sq, true);
        if piece.kind == Kind::King {
            self.kings.push(slot);
        }
        if !self.kings.is_empty() {
            self.refresh_checks_after_placing(slot, sq);
        }
        Ok(true)
    }

    /// Room in the board's lists for one more piece (a king if `king`),
    /// charged to the run's memory budget ([`memory`]).
    fn make_room(&mut self, king: bool) -> Result<(), ErrorKind> {
        if self.free_slots.is_empty() {
            memory::reserve(&mut self.records, 1)?;
        }
        memory::reserve(&mut self.live, 1)?;
        memory::reserve(&mut self.live_squares, 1)?;
        memory::reserve(&mut self.live_pieces, 1)?;
        if king {
            memory::reserve(&mut self.kings, 1)?;
        }
        if self.hashed || self.live.len() >= self.small_board {
            // The square → piece map holds every piece once the board is
            // large.
            let wanted = self.live.len() + 1 - self.occupant.len();
            memory::reserve_entries(&mut self.occupant, wanted)?;
        }
        Ok(())
    }

    /// `r1,c1,r2,c2`: moves the piece on `from` to `to`; fails if `from` is
    /// empty or the move is illegal.
    pub fn move_from(&mut self, from: Square, to: Square) -> bool {
        match self.slot_at(from) {
            Some(slot) => self.try_move(slot, to, None),
            None => false,
        }
    }

    /// `NAME,r,c`: moves the newest piece called `name` that can legally go
    /// to `to`. `known` is the piece every piece of that name is, when the
    /// caller knows it (generated code: all the name's placements agree),
    /// so that the legality test folds to what that piece needs.
    #[inline]
    pub fn move_named_to(&mut self, name: NameId, to: Square, known: Option<Piece>) -> bool {
        let mut candidate = self.newest(name);
        while candidate != NO_SLOT {
            let older = self.record(candidate).older;
            if self.try_move(candidate, to, known) {
                return true;
            }
            candidate = older;
        }
        false
    }

    /// `NAME;dr,dc`: moves the newest piece called `name` that can legally
    /// move by (`d_row`, `d_col`) from its own square. A target outside the
    /// `i64` range is a runtime error. `known` as for
    /// [`Board::move_named_to`].
    #[inline(always)]
    pub fn move_named_by(
        &mut self,
        name: NameId,
        d_row: i64,
        d_col: i64,
        known: Option<Piece>,
    ) -> Result<bool, RuntimeError> {
        let mut candidate = self.newest(name);
        while candidate != NO_SLOT {
            let record = self.record(candidate);
            let (from, older) = (record.square, record.older);
            let to = match from.offset(d_row, d_col) {
                Some(to) => to,
                None => return Err(offset_overflow(from, d_row, d_col)),
            };
            let (a, b) = (d_row.unsigned_abs(), d_col.unsigned_abs());
            if self.try_move_apart(candidate, from, to, (a, b), known) {
                return Ok(true);
            }
            candidate = older;
        }
        Ok(false)
    }

    /// The newest piece called `name`, or `NO_SLOT`.
    #[inline]
    pub(super) fn newest(&self, name: NameId) -> Slot {
        self.names
            .get(name as usize)
            .map_or(NO_SLOT, |list| list.newest)
    }

    #[inline]
    pub(super) fn record(&self, slot: Slot) -> &Record {
        &self.records[slot as usize]
    }

    #[inline]
    pub(super) fn record_mut(&mut self, slot: Slot) -> &mut Record {
        &mut self.records[slot as usize]
    }

    /// The piece on `sq`: from the hash map on a large board, by scanning
    /// the squares on a small one.
    #[inline(always)]
    pub(super) fn slot_at(&self, sq: Square) -> Option<Slot> {
        if self.hashed {
            self.occupant.get(&sq).copied()
        } else {
            if self.buckets[bucket(sq)] == 0 {
                return None;
            }
            let i = self.live_squares.iter().position(|&s| s == sq)?;
            Some(self.live[i])
        }
    }

    /// Moves the piece in `slot` (which is `known`, if given) to `to` if
    /// that is legal; otherwise leaves the board unchanged.
    #[inline(always)]
    fn try_move(&mut self, slot: Slot, to: Square, known: Option<Piece>) -> bool {
        let from = self.record(slot).square;
        let apart = (to.row.abs_diff(from.row), to.col.abs_diff(from.col));
        self.try_move_apart(slot, from, to, apart, known)
    }

    /// [`Board::try_move`] from `from`, the piece's square, which is
    /// `apart` (rows, columns) from `to` — constants when generated code
    /// moves by a constant offset, so that the legality test folds.
    #[inline(always)]
    fn try_move_apart(
        &mut self,
        slot: Slot,
        from: Square,
        to: Square,
        apart: (u64, u64),
        known: Option<Piece>,
    ) -> bool {
        let target = self.slot_at(to);
        if !self.can_reach(slot, from, to, apart, target, known) {
            return false;
        }
        let applied = self.apply(slot, to, target);
        if self.kings.is_empty() || self.keeps_kings_safe(&applied) {
            if let Some(captured) = applied.captured {
                self.discard(captured);
            }
            true
        } else {
            self.undo(applied);
            false
        }
    }

    /// Whether queries scan the pieces rather than use the line index.
    #[inline]
    pub(super) fn scans(&self) -> bool {
        self.live.len() <= self.small_board
    }

    /// Brings the line index up to date if queries use it.
    pub(super) fn sync_index(&mut self) {
        if !self.scans() {
            self.index.sync(&self.live_squares);
        }
    }

    /// Logs a filled or emptied square for the line index.
    #[inline]
    fn log(&mut self, sq: Square, filled: bool) {
        if self.index.built {
            let pieces = self.live.len();
            self.index.log(sq, filled, pieces, self.log_slack);
        }
    }

    /// Sets the square of `slot`, a piece on the board.
    #[inline(always)]
    fn set_square(&mut self, slot: Slot, sq: Square) {
        let record = self.record_mut(slot);
        let old = record.square;
        record.square = sq;
        let (colour, index) = (record.piece.colour.index(), record.live_index as usize);
        self.changed(colour);
        self.live_squares[index] = sq;
        if !self.hashed {
            self.buckets[bucket(old)] -= 1;
            self.buckets[bucket(sq)] += 1;
        }
    }

    /// Moves `slot` to `to`, capturing `target`, the piece there.
    #[inline(always)]
    pub(super) fn apply(&mut self, slot: Slot, to: Square, target: Option<Slot>) -> Applied {
        let from = self.record(slot).square;
        if let Some(victim) = target {
            self.unlink_name(victim);
            self.unlist(victim);
        }
        self.set_square(slot, to);
        if self.hashed {
            self.occupant.remove(&from);
            self.occupant.insert(to, slot);
        }
        self.log(from, false);
        if target.is_none() {
            self.log(to, true);
        }
        Applied {
            mover: slot,
            from,
            to,
            captured: target,
        }
    }

    /// Takes back a move made by [`Board::apply`].
    fn undo(&mut self, applied: Applied) {
        let Applied {
            mover,
            from,
            to,
            captured,
        } = applied;
        self.set_square(mover, from);
        if self.hashed {
            self.occupant.insert(from, mover);
        }
        self.log(from, true);
        match captured {
            Some(victim) => {
                if self.hashed {
                    self.occupant.insert(to, victim);
                }
                self.list(victim);
                self.link_name(victim);
            }
            None => {
                if self.hashed {
                    self.occupant.remove(&to);
                }
                self.log(to, false);
            }
        }
    }

    /// Notes a change to the pieces of colour `colour` (an index).
    #[inline(always)]
    fn changed(&mut self, colour: usize) {
        self.versions[colour] = self.versions[colour].wrapping_add(1);
    }

    /// Adds `slot` to the list of pieces on the board.
    fn list(&mut self, slot: Slot) {
        let index = self.live.len() as u32;
        let record = self.record_mut(slot);
        record.live_index = index;
        let (square, piece) = (record.square, record.piece);
        self.changed(piece.colour.index());
        self.live.push(slot);
        self.live_squares.push(square);
        self.live_pieces.push(piece);
        if !self.hashed {
            self.buckets[bucket(square)] += 1;
        }
    }

    /// Removes `slot` from the list of pieces on the board.
    fn unlist(&mut self, slot: Slot) {
        let index = self.record(slot).live_index as usize;
        self.live.swap_remove(index);
        let square = self.live_squares.swap_remove(index);
        let piece = self.live_pieces.swap_remove(index);
        self.changed(piece.colour.index());
        if !self.hashed {
            self.buckets[bucket(square)] -= 1;
        }
        if let Some(&moved) = self.live.get(index) {
            self.record_mut(moved).live_index = index as u32;
        }
    }

    /// Puts `slot` back into its name's list where its links say (as the
    /// newest when placed; where it was when a capture is taken back).
    fn link_name(&mut self, slot: Slot) {
        let (name, older, newer) = {
            let record = self.record(slot);
            (record.name as usize, record.older, record.newer)
        };
        if newer == NO_SLOT {
            self.names[name].newest = slot;
        } else {
            self.record_mut(newer).older = slot;
        }
        if older != NO_SLOT {
            self.record_mut(older).newer = slot;
        }
        self.names[name].count += 1;
    }

    /// Takes `slot` out of its name's list, keeping its own links so that
    /// [`Board::link_name`] can put it back.
    fn unlink_name(&mut self, slot: Slot) {
        let (name, older, newer) = {
            let record = self.record(slot);
            (record.name as usize, record.older, record.newer)
        };
        if newer == NO_SLOT {
            self.names[name].newest = older;
        } else {
            self.record_mut(newer).older = older;
        }
        if older != NO_SLOT {
            self.record_mut(older).newer = newer;
        }
        self.names[name].count -= 1;
    }

    /// Frees the record of a captured piece (already off the board's
    /// lists); a board that has become small drops its hash map.
    fn discard(&mut self, slot: Slot) {
        let record = self.record(slot);
        let (in_check, colour, kind, index) = (
            record.in_check,
            record.piece.colour,
            record.piece.kind,
            record.king_index as usize,
        );
        if in_check {
            self.kings_in_check[colour.index()] -= 1;
        }
        if kind == Kind::King {
            self.kings.swap_remove(index);
            if let Some(&moved) = self.kings.get(index) {
                self.record_mut(moved).king_index = index as u32;
            }
        }
        self.free_slots.push(slot);
        if self.hashed && self.live.len() < self.small_board / 2 {
            self.hashed = false;
            self.occupant.clear();
            // The bucket counts were not kept while hashed.
            self.buckets.iter_mut().for_each(|count| *count = 0);
            for &square in &self.live_squares {
                self.buckets[bucket(square)] += 1;
            }
        }
    }
}

/// The runtime error for a move by (`d_row`, `d_col`) from `from` that
/// leaves the `i64` range.
#[cold]
fn offset_overflow(from: Square, d_row: i64, d_col: i64) -> RuntimeError {
    RuntimeError::new(ErrorKind::Overflow {
        what: format!(
            "the target of a move by ({d_row},{d_col}) from ({},{})",
            from.row, from.col
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{piece, sq};
    use super::*;

    #[test]
    fn named_moves_try_newest_first() {
        let mut board = Board::new(1);
        board.place(0, piece('R'), sq(0, 0)).unwrap();
        board.place(0, piece('R'), sq(5, 5)).unwrap();
        board.place(0, piece('P'), sq(1, 0)).unwrap();
        // The newest rook (5,5) cannot reach (0,3); the older one can.
        assert!(board.move_named_to(0, sq(0, 3), None));
        assert_eq!(board.piece_at(sq(0, 3)), Some(piece('R')));
        assert!(
            board.move_named_by(0, 1, 0, None).unwrap(),
            "the pawn, newest, steps up"
        );
        assert_eq!(board.piece_at(sq(2, 0)), Some(piece('P')));
        assert!(board.move_named_by(0, i64::MAX, 0, None).is_err());
    }

    #[test]
    fn failed_moves_change_nothing() {
        let mut board = Board::new(2);
        board.place(0, piece('K'), sq(0, 0)).unwrap();
        board.place(1, piece('r'), sq(5, 1)).unwrap();
        board.place(1, piece('b'), sq(1, 1)).unwrap();
        // Capturing the bishop would step into the rook's column.
        assert!(!board.move_from(sq(0, 0), sq(1, 1)));
        assert_eq!(board.count(1), 2);
        assert_eq!(board.piece_at(sq(1, 1)), Some(piece('b')));
        assert_eq!(board.piece_at(sq(0, 0)), Some(piece('K')));
    }
}
