//! The InfChessPro board: an unbounded chess board without turns. See
//! [`Board`] for what its operations cost.

use std::collections::hash_map::Entry;
use std::collections::BTreeSet;
use std::ops::Bound::{Excluded, Unbounded};

use super::error::{ErrorKind, RuntimeError};
use super::hash::FastMap;

/// A square: (row, column). White pawns move toward higher rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The row.
    pub row: i64,
    /// The column.
    pub col: i64,
}

impl Square {
    /// The square at (`row`, `col`).
    pub const fn new(row: i64, col: i64) -> Self {
        Square { row, col }
    }

    /// This square moved by (`d_row`, `d_col`), or `None` if that leaves
    /// the `i64` range.
    pub fn offset(self, d_row: i64, d_col: i64) -> Option<Square> {
        Some(Square::new(
            self.row.checked_add(d_row)?,
            self.col.checked_add(d_col)?,
        ))
    }
}

/// The six kinds of chess piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// King: one step in any direction.
    King,
    /// Queen: any distance along rows, columns and diagonals.
    Queen,
    /// Rook: any distance along rows and columns.
    Rook,
    /// Bishop: any distance along diagonals.
    Bishop,
    /// Knight: (±1, ±2) or (±2, ±1).
    Knight,
    /// Pawn: one step forward, captures one step diagonally forward.
    Pawn,
}

/// White or black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Moves pawns toward higher rows.
    White,
    /// Moves pawns toward lower rows.
    Black,
}

impl Colour {
    fn index(self) -> usize {
        match self {
            Colour::White => 0,
            Colour::Black => 1,
        }
    }

    /// The row direction this colour's pawns move in.
    fn pawn_forward(self) -> i128 {
        match self {
            Colour::White => 1,
            Colour::Black => -1,
        }
    }
}

/// A piece type with its colour, as written `K Q R B N P` / `k q r b n p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The kind.
    pub kind: Kind,
    /// The colour.
    pub colour: Colour,
}

impl Piece {
    /// The letter the piece is written as (uppercase white, lowercase
    /// black).
    pub fn letter(self) -> char {
        let letter = match self.kind {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Pawn => 'P',
        };
        match self.colour {
            Colour::White => letter,
            Colour::Black => letter.to_ascii_lowercase(),
        }
    }

    /// The piece written as `letter` (uppercase white, lowercase black).
    pub fn from_letter(letter: char) -> Option<Piece> {
        let kind = match letter.to_ascii_uppercase() {
            'K' => Kind::King,
            'Q' => Kind::Queen,
            'R' => Kind::Rook,
            'B' => Kind::Bishop,
            'N' => Kind::Knight,
            'P' => Kind::Pawn,
            _ => return None,
        };
        let colour = if letter.is_ascii_uppercase() {
            Colour::White
        } else {
            Colour::Black
        };
        Some(Piece { kind, colour })
    }
}

/// An interned piece name: an index fixed at compile time.
pub type NameId = u32;

/// Which of the four families of lines through a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineFamily {
    /// Same row; position along it is the column.
    Row,
    /// Same column; position is the row.
    Col,
    /// Same row − col; position is the row.
    Diagonal,
    /// Same row + col; position is the row.
    AntiDiagonal,
}

const FAMILIES: [LineFamily; 4] = [
    LineFamily::Row,
    LineFamily::Col,
    LineFamily::Diagonal,
    LineFamily::AntiDiagonal,
];

impl LineFamily {
    fn index(self) -> usize {
        self as usize
    }

    /// The line through `sq` (its key) and the position of `sq` on it.
    fn locate(self, sq: Square) -> (i128, i64) {
        let (r, c) = (i128::from(sq.row), i128::from(sq.col));
        match self {
            LineFamily::Row => (r, sq.col),
            LineFamily::Col => (c, sq.row),
            LineFamily::Diagonal => (r - c, sq.row),
            LineFamily::AntiDiagonal => (r + c, sq.row),
        }
    }

    /// The square at `pos` on the line `key`. Only called for squares that
    /// hold a piece, so the result is in range.
    fn square_at(self, key: i128, pos: i64) -> Square {
        let clamp = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        match self {
            LineFamily::Row => Square::new(clamp(key), pos),
            LineFamily::Col => Square::new(pos, clamp(key)),
            LineFamily::Diagonal => Square::new(pos, clamp(i128::from(pos) - key)),
            LineFamily::AntiDiagonal => Square::new(pos, clamp(key - i128::from(pos))),
        }
    }

    fn is_diagonal(self) -> bool {
        matches!(self, LineFamily::Diagonal | LineFamily::AntiDiagonal)
    }
}

/// One of the eight directions: a line family and which way along it.
#[derive(Clone, Copy, Debug)]
struct Ray {
    family: LineFamily,
    increasing: bool,
}

const RAYS: [Ray; 8] = [
    Ray {
        family: LineFamily::Row,
        increasing: true,
    },
    Ray {
        family: LineFamily::Row,
        increasing: false,
    },
    Ray {
        family: LineFamily::Col,
        increasing: true,
    },
    Ray {
        family: LineFamily::Col,
        increasing: false,
    },
    Ray {
        family: LineFamily::Diagonal,
        increasing: true,
    },
    Ray {
        family: LineFamily::Diagonal,
        increasing: false,
    },
    Ray {
        family: LineFamily::AntiDiagonal,
        increasing: true,
    },
    Ray {
        family: LineFamily::AntiDiagonal,
        increasing: false,
    },
];

/// The index in [`RAYS`] of the ray from a square to one `d_row` rows and
/// `d_col` columns away, if they share a line (and differ).
fn ray_towards(d_row: i128, d_col: i128) -> Option<usize> {
    if d_row == 0 {
        match d_col.signum() {
            1 => Some(0),
            -1 => Some(1),
            _ => None,
        }
    } else if d_col == 0 {
        Some(if d_row > 0 { 2 } else { 3 })
    } else if d_row == d_col {
        Some(if d_row > 0 { 4 } else { 5 })
    } else if d_row == -d_col {
        Some(if d_row > 0 { 6 } else { 7 })
    } else {
        None
    }
}

const KNIGHT_JUMPS: [(i64, i64); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Whether squares `a` rows and `b` columns apart are a knight's jump
/// apart.
#[inline]
fn is_knight_jump(a: u64, b: u64) -> bool {
    a < 3 && b < 3 && a + b == 3
}

/// Up to this many positions a line keeps them in a sorted array; beyond,
/// in a B-tree.
const SMALL_LINE: usize = 6;

/// The occupied positions on one line, in order.
enum Line {
    /// Few positions: sorted, in place (no allocation).
    Small(u8, [i64; SMALL_LINE]),
    /// Many positions.
    Large(BTreeSet<i64>),
}

impl Line {
    fn insert(&mut self, pos: i64) {
        match self {
            Line::Small(len, items) => {
                let n = usize::from(*len);
                if n < SMALL_LINE {
                    let at = items[..n].partition_point(|&p| p < pos);
                    items.copy_within(at..n, at + 1);
                    items[at] = pos;
                    *len += 1;
                } else {
                    let mut set: BTreeSet<i64> = items.iter().copied().collect();
                    set.insert(pos);
                    *self = Line::Large(set);
                }
            }
            Line::Large(set) => {
                set.insert(pos);
            }
        }
    }

    /// Removes `pos`; true if the line is empty now.
    fn remove(&mut self, pos: i64) -> bool {
        match self {
            Line::Small(len, items) => {
                let n = usize::from(*len);
                if let Some(at) = items[..n].iter().position(|&p| p == pos) {
                    items.copy_within(at + 1..n, at);
                    *len -= 1;
                }
                *len == 0
            }
            Line::Large(set) => {
                set.remove(&pos);
                // Back to the array well below its limit, so that a piece
                // moving back and forth does not convert every time.
                if set.len() <= SMALL_LINE / 2 {
                    let mut items = [0; SMALL_LINE];
                    for (slot, &p) in items.iter_mut().zip(set.iter()) {
                        *slot = p;
                    }
                    *self = Line::Small(set.len() as u8, items);
                }
                false
            }
        }
    }

    /// The nearest position after (`increasing`) or before `pos`.
    fn next(&self, pos: i64, increasing: bool) -> Option<i64> {
        match self {
            Line::Small(len, items) => {
                let items = &items[..usize::from(*len)];
                if increasing {
                    items.iter().copied().find(|&p| p > pos)
                } else {
                    items.iter().rev().copied().find(|&p| p < pos)
                }
            }
            Line::Large(set) if increasing => set.range((Excluded(pos), Unbounded)).next().copied(),
            Line::Large(set) => set.range(..pos).next_back().copied(),
        }
    }
}

/// Ordered occupied positions on every row, column and diagonal, for path
/// and attack queries over any distance on large boards.
///
/// Built on the first query that needs it and kept lazily: while built,
/// every change is logged and the log is replayed before the next query,
/// so moves that need no query pay only for the log entry. A log that grows
/// longer than rebuilding would cost drops the index (rebuilt when next
/// needed).
#[derive(Default)]
struct LineIndex {
    built: bool,
    lines: [FastMap<i128, Line>; 4],
    /// Squares emptied (`false`) or filled (`true`) since the last replay.
    pending: Vec<(Square, bool)>,
}

impl LineIndex {
    /// Notes that `sq` was filled or emptied; `pieces` is the board's size.
    #[inline(always)]
    fn log(&mut self, sq: Square, filled: bool, pieces: usize, slack: usize) {
        if self.built {
            self.pending.push((sq, filled));
            if self.pending.len() > 2 * pieces + slack {
                self.built = false;
                self.pending.clear();
                for lines in &mut self.lines {
                    lines.clear();
                }
            }
        }
    }

    /// Brings the index up to date with `squares`, the occupied squares.
    fn sync(&mut self, squares: &[Square]) {
        if !self.built {
            for &sq in squares {
                self.change(sq, true);
            }
            self.built = true;
            return;
        }
        let mut pending = std::mem::take(&mut self.pending);
        for &(sq, filled) in &pending {
            self.change(sq, filled);
        }
        pending.clear();
        self.pending = pending;
    }

    fn change(&mut self, sq: Square, filled: bool) {
        for family in FAMILIES {
            let (key, pos) = family.locate(sq);
            let lines = &mut self.lines[family.index()];
            if filled {
                lines
                    .entry(key)
                    .or_insert(Line::Small(0, [0; SMALL_LINE]))
                    .insert(pos);
            } else if let Entry::Occupied(mut line) = lines.entry(key) {
                if line.get_mut().remove(pos) {
                    line.remove();
                }
            }
        }
    }

    /// The nearest occupied square from `sq` along `ray`. The index must be
    /// in sync.
    fn nearest(&self, sq: Square, ray: Ray) -> Option<Square> {
        let (key, pos) = ray.family.locate(sq);
        let line = self.lines[ray.family.index()].get(&key)?;
        let other = line.next(pos, ray.increasing)?;
        Some(ray.family.square_at(key, other))
    }
}

/// Index of a piece record in the board's slab.
type Slot = u32;

/// No piece (the end of a name's list).
const NO_SLOT: Slot = u32::MAX;

#[derive(Clone, Debug)]
struct Record {
    piece: Piece,
    square: Square,
    name: NameId,
    /// The next older piece of the same name on the board, or `NO_SLOT`.
    older: Slot,
    /// The next newer piece of the same name on the board, or `NO_SLOT`.
    newer: Slot,
    /// Position in `Board::live` and `Board::live_squares`.
    live_index: u32,
    /// For kings: position in `Board::kings`.
    king_index: u32,
    /// For kings: attacked by the other colour right now.
    in_check: bool,
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
struct Applied {
    mover: Slot,
    from: Square,
    to: Square,
    captured: Option<Slot>,
}

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

/// Paths of at most this many steps are checked square by square.
const PROBE_LIMIT: u64 = 8;

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
///   beyond, O(log n) queries on the ordered [`LineIndex`] — independent
///   of the distance moved either way;
/// - the check test looks only at kings whose safety the move can change
///   (kings seen along a line from, or a knight's jump away from, the two
///   squares involved); every king's "in check" flag is kept up to date, so
///   boards with many kings cost no more; without kings it is skipped;
/// - a named move: O(1) to find the name and O(1) to step to each older
///   candidate, plus the move tried for each.
pub struct Board {
    records: Vec<Record>,
    free_slots: Vec<Slot>,
    /// Every piece on the board, unordered, and its square.
    live: Vec<Slot>,
    live_squares: Vec<Square>,
    /// How many pieces stand on squares of each [`bucket`]: a square whose
    /// bucket is empty is empty, which spares most scans of a small board.
    /// Kept only while the board is small (not `hashed`).
    buckets: Box<[u32; BUCKETS]>,
    /// Square → piece, kept while the board is large (`hashed`).
    occupant: FastMap<Square, Slot>,
    hashed: bool,
    names: Vec<NameList>,
    /// Kings in check, per colour.
    kings_in_check: [usize; 2],
    /// Every king on the board.
    kings: Vec<Slot>,
    index: LineIndex,
    small_board: usize,
    log_slack: usize,
}

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

/// Steps from `from` to `to` along their common line (the larger of the
/// row and column distances; at most 2^64 − 1, so a `u64`).
#[inline]
fn distance(from: Square, to: Square) -> u64 {
    let d_row = to.row.abs_diff(from.row);
    let d_col = to.col.abs_diff(from.col);
    d_row.max(d_col)
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
    /// size. For tests of every strategy.
    #[doc(hidden)]
    pub fn tuned(names: usize, small_board: usize, log_slack: usize) -> Self {
        Board {
            records: Vec::new(),
            free_slots: Vec::new(),
            live: Vec::new(),
            live_squares: Vec::new(),
            buckets: Box::new([0; BUCKETS]),
            occupant: FastMap::default(),
            hashed: false,
            names: vec![EMPTY_NAME; names],
            kings_in_check: [0; 2],
            kings: Vec::new(),
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

    /// The number of pieces on the board.
    pub fn len(&self) -> usize {
        self.live.len()
    }

    /// Whether the board is empty.
    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// Whether any king is on the board (without one, moves skip the check
    /// test entirely).
    pub fn has_kings(&self) -> bool {
        !self.kings.is_empty()
    }

    /// `NAME=T r,c`: places a new piece called `name` on `sq` if it is empty.
    /// Ignores check entirely.
    pub fn place(&mut self, name: NameId, piece: Piece, sq: Square) -> bool {
        if self.slot_at(sq).is_some() {
            return false;
        }
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
            let kings = self.affected_kings(None, sq, Some(slot), None);
            if kings.len > 0 {
                self.sync_index();
                self.refresh_checks(kings.as_slice());
            }
        }
        true
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
    fn newest(&self, name: NameId) -> Slot {
        self.names
            .get(name as usize)
            .map_or(NO_SLOT, |list| list.newest)
    }

    #[inline]
    fn record(&self, slot: Slot) -> &Record {
        &self.records[slot as usize]
    }

    #[inline]
    fn record_mut(&mut self, slot: Slot) -> &mut Record {
        &mut self.records[slot as usize]
    }

    /// The piece on `sq`: from the hash map on a large board, by scanning
    /// the squares on a small one.
    #[inline(always)]
    fn slot_at(&self, sq: Square) -> Option<Slot> {
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

    /// Rule 3 for a move just applied: whether every king of the mover's
    /// colour is safe. If so, updates the check flags of the kings the move
    /// affects; if not, changes no flag.
    #[inline(always)]
    fn keeps_kings_safe(&mut self, applied: &Applied) -> bool {
        let colour = self.record(applied.mover).piece.colour;
        if self.kings.len() <= KING_SCAN_LIMIT {
            // Usually no king shares a line with the squares involved.
            let mut untouched = true;
            for &king in &self.kings {
                let square = self.records[king as usize].square;
                untouched &= king != applied.mover
                    && !may_affect(applied.to, square)
                    && !may_affect(applied.from, square);
            }
            if untouched {
                return self.kings_in_check[colour.index()] == 0;
            }
        }
        self.check_test(applied, colour)
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
    fn can_reach(
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
        let straight = a == 0 || b == 0;
        let diagonal = a == b;
        // Each arm is a plain test, so with the piece and the offset known
        // (generated code) the match folds away.
        let reaches = match piece.kind {
            Kind::King => a <= 1 && b <= 1,
            Kind::Knight => is_knight_jump(a, b),
            Kind::Pawn => {
                let forward = match piece.colour {
                    Colour::White => to.row > from.row,
                    Colour::Black => to.row < from.row,
                };
                a == 1 && forward && ((b == 0 && target.is_none()) || (b == 1 && target.is_some()))
            }
            Kind::Rook => straight,
            Kind::Bishop => diagonal,
            Kind::Queen => straight || diagonal,
        };
        let slides = matches!(piece.kind, Kind::Rook | Kind::Bishop | Kind::Queen);
        // Every square strictly between is empty (on one line, `a.max(b)`
        // steps apart).
        let steps = a.max(b);
        reaches && (!slides || steps <= 1 || self.far_path_clear(from, to, steps))
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
            // A piece is in the way if it is k steps along for 0 < k < steps.
            return !self.live_squares.iter().any(|&sq| {
                let a = i128::from(sq.row) - i128::from(from.row);
                let b = i128::from(sq.col) - i128::from(from.col);
                let k = if s_row != 0 { a * s_row } else { b * s_col };
                0 < k && k < i128::from(steps) && a == k * s_row && b == k * s_col
            });
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

    /// Whether queries scan the pieces rather than use the line index.
    #[inline]
    fn scans(&self) -> bool {
        self.live.len() <= self.small_board
    }

    /// Brings the line index up to date if queries use it.
    fn sync_index(&mut self) {
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
        let index = record.live_index as usize;
        self.live_squares[index] = sq;
        if !self.hashed {
            self.buckets[bucket(old)] -= 1;
            self.buckets[bucket(sq)] += 1;
        }
    }

    /// Moves `slot` to `to`, capturing `target`, the piece there.
    #[inline(always)]
    fn apply(&mut self, slot: Slot, to: Square, target: Option<Slot>) -> Applied {
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

    /// Adds `slot` to the list of pieces on the board.
    fn list(&mut self, slot: Slot) {
        let index = self.live.len() as u32;
        let record = self.record_mut(slot);
        record.live_index = index;
        let square = record.square;
        self.live.push(slot);
        self.live_squares.push(square);
        if !self.hashed {
            self.buckets[bucket(square)] += 1;
        }
    }

    /// Removes `slot` from the list of pieces on the board.
    fn unlist(&mut self, slot: Slot) {
        let index = self.record(slot).live_index as usize;
        self.live.swap_remove(index);
        let square = self.live_squares.swap_remove(index);
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

    fn set_in_check(&mut self, king: Slot, attacked: bool) {
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
            let attacks = match attacker.piece.kind {
                Kind::Queen => true,
                Kind::Rook => !diagonal,
                Kind::Bishop => diagonal,
                Kind::King => distance == 1,
                Kind::Pawn => {
                    // A pawn attacks one step diagonally forward: it stands
                    // one row behind the square, as seen from its side.
                    let row_of_pawn = i128::from(attacker.square.row);
                    diagonal
                        && distance == 1
                        && i128::from(sq.row) - row_of_pawn == attacker.piece.colour.pawn_forward()
                }
                Kind::Knight => false,
            };
            if attacks {
                return true;
            }
        }
        around.jumps[..around.jump_count].iter().any(|&slot| {
            let piece = self.record(slot).piece;
            piece.kind == Kind::Knight && piece.colour != colour
        })
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

/// Resolves a jump target read from input: the index of the line labelled
/// `label` in `labels` (sorted by label), or a runtime error.
pub fn jump_target(labels: &[(i64, u32)], label: i64, line: u32) -> Result<u32, RuntimeError> {
    match labels.binary_search_by_key(&label, |&(l, _)| l) {
        Ok(i) => Ok(labels[i].1),
        Err(_) => Err(RuntimeError::at(ErrorKind::NoSuchLabel { label }, line)),
    }
}

/// White king, as written `K`.
pub const WHITE_KING: Piece = Piece {
    kind: Kind::King,
    colour: Colour::White,
};
/// White queen, `Q`.
pub const WHITE_QUEEN: Piece = Piece {
    kind: Kind::Queen,
    colour: Colour::White,
};
/// White rook, `R`.
pub const WHITE_ROOK: Piece = Piece {
    kind: Kind::Rook,
    colour: Colour::White,
};
/// White bishop, `B`.
pub const WHITE_BISHOP: Piece = Piece {
    kind: Kind::Bishop,
    colour: Colour::White,
};
/// White knight, `N`.
pub const WHITE_KNIGHT: Piece = Piece {
    kind: Kind::Knight,
    colour: Colour::White,
};
/// White pawn, `P`.
pub const WHITE_PAWN: Piece = Piece {
    kind: Kind::Pawn,
    colour: Colour::White,
};
/// Black king, `k`.
pub const BLACK_KING: Piece = Piece {
    kind: Kind::King,
    colour: Colour::Black,
};
/// Black queen, `q`.
pub const BLACK_QUEEN: Piece = Piece {
    kind: Kind::Queen,
    colour: Colour::Black,
};
/// Black rook, `r`.
pub const BLACK_ROOK: Piece = Piece {
    kind: Kind::Rook,
    colour: Colour::Black,
};
/// Black bishop, `b`.
pub const BLACK_BISHOP: Piece = Piece {
    kind: Kind::Bishop,
    colour: Colour::Black,
};
/// Black knight, `n`.
pub const BLACK_KNIGHT: Piece = Piece {
    kind: Kind::Knight,
    colour: Colour::Black,
};
/// Black pawn, `p`.
pub const BLACK_PAWN: Piece = Piece {
    kind: Kind::Pawn,
    colour: Colour::Black,
};

/// Moves by name as functions that are never inlined. Generated code of
/// large programs calls these instead of the `Board` methods: the moves'
/// legality tests are inlined into one copy here rather than at each of
/// thousands of lines, which would cost rustc minutes of optimisation; a
/// call costs nothing measurable beside a move.
pub mod outlined {
    use super::super::error::RuntimeError;
    use super::{Board, NameId, Piece, Square};

    /// [`Board::move_named_to`], not inlined.
    #[inline(never)]
    pub fn move_named_to(
        board: &mut Board,
        name: NameId,
        to: Square,
        known: Option<Piece>,
    ) -> bool {
        board.move_named_to(name, to, known)
    }

    /// [`Board::move_named_by`], not inlined, its error placed in `line`.
    #[inline(never)]
    pub fn move_named_by(
        board: &mut Board,
        name: NameId,
        d_row: i64,
        d_col: i64,
        known: Option<Piece>,
        line: u32,
    ) -> Result<bool, RuntimeError> {
        board
            .move_named_by(name, d_row, d_col, known)
            .map_err(|e| e.in_line(line))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(row: i64, col: i64) -> Square {
        Square::new(row, col)
    }

    fn piece(letter: char) -> Piece {
        Piece::from_letter(letter).unwrap()
    }

    #[test]
    fn sliders_stop_at_pieces_between() {
        let mut board = Board::new(2);
        assert!(board.place(0, piece('R'), sq(0, 0)));
        assert!(board.place(1, piece('p'), sq(0, 5)));
        assert!(!board.move_from(sq(0, 0), sq(0, 9)));
        assert!(board.move_from(sq(0, 0), sq(0, 5)), "captures the pawn");
        assert_eq!(board.count(1), 0);
        assert!(board.move_from(sq(0, 5), sq(1_000_000_000_000_000, 5)));
        assert!(!board.move_from(sq(1_000_000_000_000_000, 5), sq(3, 4)));
    }

    #[test]
    fn extreme_coordinates_do_not_overflow() {
        let mut board = Board::new(1);
        assert!(board.place(0, piece('B'), sq(i64::MIN, i64::MIN)));
        assert!(board.move_from(sq(i64::MIN, i64::MIN), sq(i64::MAX, i64::MAX)));
        assert!(board.place(0, piece('q'), sq(i64::MAX, i64::MIN)));
        assert!(board.move_from(sq(i64::MAX, i64::MIN), sq(i64::MIN, i64::MAX)));
        assert!(board.place(0, piece('K'), sq(i64::MAX, 0)));
        assert_eq!(board.king_in_check(sq(i64::MAX, 0)), Some(false));
    }

    #[test]
    fn pawns_move_forward_and_capture_diagonally() {
        let mut board = Board::new(1);
        board.place(0, piece('P'), sq(0, 0));
        board.place(0, piece('p'), sq(5, 0));
        assert!(!board.move_from(sq(0, 0), sq(-1, 0)), "white pawns go up");
        assert!(!board.move_from(sq(0, 0), sq(2, 0)), "no two-square move");
        assert!(
            !board.move_from(sq(0, 0), sq(1, 1)),
            "diagonal only to capture"
        );
        assert!(board.move_from(sq(0, 0), sq(1, 0)));
        assert!(board.move_from(sq(5, 0), sq(4, 0)), "black pawns go down");
        board.place(0, piece('n'), sq(2, 1));
        assert!(board.move_from(sq(1, 0), sq(2, 1)));
    }

    #[test]
    fn moves_may_not_leave_or_put_a_king_in_check() {
        let mut board = Board::new(1);
        board.place(0, piece('K'), sq(0, 0));
        board.place(0, piece('R'), sq(0, 1));
        board.place(0, piece('r'), sq(0, 7));
        assert!(!board.move_from(sq(0, 1), sq(1, 1)), "the rook is pinned");
        assert!(
            board.move_from(sq(0, 1), sq(0, 4)),
            "moving along the pin is fine"
        );
        // The king may not step into the black rook's column.
        board.place(0, piece('r'), sq(9, 1));
        assert!(!board.move_from(sq(0, 0), sq(1, 1)));
        // A second white king, placed in check, freezes every white move
        // that does not resolve it.
        board.place(0, piece('K'), sq(9, 5));
        assert_eq!(board.king_in_check(sq(9, 5)), Some(true));
        assert!(!board.move_from(sq(0, 4), sq(0, 3)));
        assert!(board.move_from(sq(9, 5), sq(10, 5)), "the king walks out");
        assert!(board.move_from(sq(0, 4), sq(0, 3)));
    }

    #[test]
    fn pawns_and_knights_attack_kings() {
        let mut board = Board::new(1);
        board.place(0, piece('k'), sq(5, 5));
        board.place(0, piece('P'), sq(4, 4));
        assert_eq!(board.king_in_check(sq(5, 5)), Some(true));
        assert!(!board.place(0, piece('n'), sq(4, 4)), "occupied");
        let mut board = Board::new(1);
        board.place(0, piece('K'), sq(0, 0));
        board.place(0, piece('p'), sq(-1, 1));
        assert_eq!(
            board.king_in_check(sq(0, 0)),
            Some(false),
            "black pawns attack downward"
        );
        board.place(0, piece('n'), sq(2, 1));
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

    #[test]
    fn named_moves_try_newest_first() {
        let mut board = Board::new(1);
        board.place(0, piece('R'), sq(0, 0));
        board.place(0, piece('R'), sq(5, 5));
        board.place(0, piece('P'), sq(1, 0));
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
        board.place(0, piece('K'), sq(0, 0));
        board.place(1, piece('r'), sq(5, 1));
        board.place(1, piece('b'), sq(1, 1));
        // Capturing the bishop would step into the rook's column.
        assert!(!board.move_from(sq(0, 0), sq(1, 1)));
        assert_eq!(board.count(1), 2);
        assert_eq!(board.piece_at(sq(1, 1)), Some(piece('b')));
        assert_eq!(board.piece_at(sq(0, 0)), Some(piece('K')));
    }
}
