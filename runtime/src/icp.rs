//! The InfChessPro board: an unbounded chess board without turns.
//!
//! Costs (n = pieces on the board):
//! - a move, its path check and its check test: O(log n), independent of
//!   the distance moved — sliding paths and lines of attack are answered by
//!   ordered sets of the pieces on each row, column and diagonal;
//! - the check test looks only at kings whose safety the move can change
//!   (kings seen along a line from, or a knight's jump away from, the two
//!   squares involved); every king's "in check" flag is kept up to date, so
//!   boards with many kings cost no more;
//! - a named move: O(1) to find the name plus O(log n) per candidate tried.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::Bound::Excluded;

use super::error::{ErrorKind, RuntimeError};

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

/// A fast hasher for squares and line keys (FxHash's multiply-rotate).
/// Written here because the runtime has no dependencies, so that
/// `--standalone` programs build with rustc alone.
#[derive(Default, Clone, Copy)]
pub struct SquareHasher(u64);

impl Hasher for SquareHasher {
    #[inline]
    fn finish(&self) -> u64 {
        self.0
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    #[inline]
    fn write_i64(&mut self, v: i64) {
        self.write_u64(v as u64);
    }

    #[inline]
    fn write_i128(&mut self, v: i128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }
}

type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<SquareHasher>>;

/// Index of a piece record in the board's slab.
type Slot = usize;

#[derive(Clone, Debug)]
struct Record {
    piece: Piece,
    square: Square,
    name: NameId,
    /// Placement order: larger is newer.
    placed: u64,
    /// For kings: attacked by the other colour right now.
    in_check: bool,
    /// For kings: position in `Board::kings`.
    king_index: usize,
}

/// What a tentative move changed, so it can be taken back.
struct Applied {
    mover: Slot,
    from: Square,
    captured: Option<Slot>,
}

/// The unbounded board. Each piece has a kind, colour, square, name and
/// placement time.
#[derive(Default)]
pub struct Board {
    records: Vec<Option<Record>>,
    free_slots: Vec<Slot>,
    occupant: FastMap<Square, Slot>,
    /// For each family, each line's occupied positions.
    lines: [FastMap<i128, BTreeSet<i64>>; 4],
    /// For each name, its pieces on the board by placement order.
    named: Vec<BTreeMap<u64, Slot>>,
    placements: u64,
    /// Kings in check, per colour.
    kings_in_check: [usize; 2],
    /// Every king on the board.
    kings: Vec<Slot>,
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
fn may_affect(changed: Square, king: Square) -> bool {
    let d_row = i128::from(changed.row) - i128::from(king.row);
    let d_col = i128::from(changed.col) - i128::from(king.col);
    let (a, b) = (d_row.abs(), d_col.abs());
    a == 0 || b == 0 || a == b || (a == 1 && b == 2) || (a == 2 && b == 1)
}

impl Board {
    /// An empty board for a program with `names` interned names.
    pub fn new(names: usize) -> Self {
        Board {
            named: vec![BTreeMap::new(); names],
            ..Board::default()
        }
    }

    /// The number of pieces called `name` on the board.
    #[inline]
    pub fn count(&self, name: NameId) -> usize {
        self.named.get(name as usize).map_or(0, BTreeMap::len)
    }

    /// The piece on `sq`, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.occupant.get(&sq).map(|&slot| self.record(slot).piece)
    }

    /// Whether the king on `sq` is attacked by the other colour (`None` if
    /// there is no king there).
    pub fn king_in_check(&self, sq: Square) -> Option<bool> {
        let slot = *self.occupant.get(&sq)?;
        let record = self.record(slot);
        (record.piece.kind == Kind::King).then_some(record.in_check)
    }

    /// The number of pieces on the board.
    pub fn len(&self) -> usize {
        self.occupant.len()
    }

    /// Whether the board is empty.
    pub fn is_empty(&self) -> bool {
        self.occupant.is_empty()
    }

    /// `NAME=T r,c`: places a new piece called `name` on `sq` if it is empty.
    /// Ignores check entirely.
    pub fn place(&mut self, name: NameId, piece: Piece, sq: Square) -> bool {
        if self.occupant.contains_key(&sq) {
            return false;
        }
        self.placements += 1;
        let record = Record {
            piece,
            square: sq,
            name,
            placed: self.placements,
            in_check: false,
            king_index: self.kings.len(),
        };
        let slot = match self.free_slots.pop() {
            Some(slot) => {
                self.records[slot] = Some(record);
                slot
            }
            None => {
                self.records.push(Some(record));
                self.records.len() - 1
            }
        };
        self.put(slot, sq);
        let names = self.named.len().max(name as usize + 1);
        self.named.resize_with(names, BTreeMap::new);
        self.named[name as usize].insert(self.placements, slot);
        if piece.kind == Kind::King {
            self.kings.push(slot);
        }
        let kings = self.affected_kings(None, sq, Some(slot), None);
        self.refresh_checks(kings.as_slice());
        true
    }

    /// `r1,c1,r2,c2`: moves the piece on `from` to `to`; fails if `from` is
    /// empty or the move is illegal.
    pub fn move_from(&mut self, from: Square, to: Square) -> bool {
        match self.occupant.get(&from) {
            Some(&slot) => self.try_move(slot, to),
            None => false,
        }
    }

    /// `NAME,r,c`: moves the newest piece called `name` that can legally go
    /// to `to`.
    pub fn move_named_to(&mut self, name: NameId, to: Square) -> bool {
        let mut newer_than = u64::MAX;
        while let Some((placed, slot)) = self.next_candidate(name, newer_than) {
            if self.try_move(slot, to) {
                return true;
            }
            newer_than = placed;
        }
        false
    }

    /// `NAME;dr,dc`: moves the newest piece called `name` that can legally
    /// move by (`d_row`, `d_col`) from its own square. A target outside the
    /// `i64` range is a runtime error.
    pub fn move_named_by(
        &mut self,
        name: NameId,
        d_row: i64,
        d_col: i64,
    ) -> Result<bool, RuntimeError> {
        let mut newer_than = u64::MAX;
        while let Some((placed, slot)) = self.next_candidate(name, newer_than) {
            let from = self.record(slot).square;
            let to = from.offset(d_row, d_col).ok_or_else(|| {
                RuntimeError::new(ErrorKind::Overflow {
                    what: format!(
                        "the target of a move by ({d_row},{d_col}) from ({},{})",
                        from.row, from.col
                    ),
                })
            })?;
            if self.try_move(slot, to) {
                return Ok(true);
            }
            newer_than = placed;
        }
        Ok(false)
    }

    /// The newest piece called `name` placed before `newer_than`.
    fn next_candidate(&self, name: NameId, newer_than: u64) -> Option<(u64, Slot)> {
        let pieces = self.named.get(name as usize)?;
        pieces
            .range(..newer_than)
            .next_back()
            .map(|(&placed, &slot)| (placed, slot))
    }

    fn record(&self, slot: Slot) -> &Record {
        match &self.records[slot] {
            Some(record) => record,
            None => unreachable!("board slot {} is empty", slot),
        }
    }

    fn record_mut(&mut self, slot: Slot) -> &mut Record {
        match &mut self.records[slot] {
            Some(record) => record,
            None => unreachable!("board slot {} is empty", slot),
        }
    }

    /// Moves the piece in `slot` to `to` if that is legal; otherwise leaves
    /// the board unchanged.
    fn try_move(&mut self, slot: Slot, to: Square) -> bool {
        if !self.can_reach(slot, to) {
            return false;
        }
        let applied = self.apply(slot, to);
        let colour = self.record(slot).piece.colour;
        // Kings whose safety this move can change; all other kings keep
        // their current flag.
        let kings = self.affected_kings(Some(applied.from), to, Some(slot), applied.captured);
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
        if !legal {
            self.undo(applied);
            return false;
        }
        if let Some(captured) = applied.captured {
            self.discard(captured);
        }
        for (&king, &attacked) in kings.as_slice().iter().zip(&attacked_now) {
            self.set_in_check(king, attacked);
        }
        true
    }

    /// Rules 1 and 2: the target is not friendly and the piece can get
    /// there by its own movement (paths clear).
    fn can_reach(&self, slot: Slot, to: Square) -> bool {
        let record = self.record(slot);
        let from = record.square;
        if from == to {
            return false;
        }
        let target = self.occupant.get(&to).map(|&s| self.record(s).piece.colour);
        if target == Some(record.piece.colour) {
            return false;
        }
        let d_row = i128::from(to.row) - i128::from(from.row);
        let d_col = i128::from(to.col) - i128::from(from.col);
        let straight = d_row == 0 || d_col == 0;
        let diagonal = d_row.abs() == d_col.abs();
        match record.piece.kind {
            Kind::King => d_row.abs() <= 1 && d_col.abs() <= 1,
            Kind::Knight => {
                let (a, b) = (d_row.abs(), d_col.abs());
                (a == 1 && b == 2) || (a == 2 && b == 1)
            }
            Kind::Pawn => {
                let forward = record.piece.colour.pawn_forward();
                d_row == forward
                    && ((d_col == 0 && target.is_none()) || (d_col.abs() == 1 && target.is_some()))
            }
            Kind::Rook => straight && self.path_clear(from, to),
            Kind::Bishop => diagonal && self.path_clear(from, to),
            Kind::Queen => (straight || diagonal) && self.path_clear(from, to),
        }
    }

    /// Whether every square strictly between `from` and `to` (on one line)
    /// is empty.
    fn path_clear(&self, from: Square, to: Square) -> bool {
        let family = if from.row == to.row {
            LineFamily::Row
        } else if from.col == to.col {
            LineFamily::Col
        } else if i128::from(to.row) - i128::from(from.row)
            == i128::from(to.col) - i128::from(from.col)
        {
            LineFamily::Diagonal
        } else {
            LineFamily::AntiDiagonal
        };
        let (key, a) = family.locate(from);
        let (_, b) = family.locate(to);
        let (low, high) = if a < b { (a, b) } else { (b, a) };
        match self.lines[family.index()].get(&key) {
            Some(line) => line.range((Excluded(low), Excluded(high))).next().is_none(),
            None => true,
        }
    }

    /// Moves `slot` to `to`, capturing what stands there.
    fn apply(&mut self, slot: Slot, to: Square) -> Applied {
        let from = self.record(slot).square;
        let captured = self.occupant.get(&to).copied();
        if let Some(victim) = captured {
            self.take(victim);
            let record = self.record(victim);
            let (name, placed) = (record.name as usize, record.placed);
            self.named[name].remove(&placed);
        }
        self.take(slot);
        self.put(slot, to);
        Applied {
            mover: slot,
            from,
            captured,
        }
    }

    /// Takes back a move made by [`Board::apply`].
    fn undo(&mut self, applied: Applied) {
        self.take(applied.mover);
        self.put(applied.mover, applied.from);
        if let Some(victim) = applied.captured {
            let record = self.record(victim);
            let (square, name, placed) = (record.square, record.name as usize, record.placed);
            self.put(victim, square);
            self.named[name].insert(placed, victim);
        }
    }

    /// Frees the record of a captured piece.
    fn discard(&mut self, slot: Slot) {
        let record = self.record(slot);
        let (in_check, colour, kind, index) = (
            record.in_check,
            record.piece.colour,
            record.piece.kind,
            record.king_index,
        );
        if in_check {
            self.kings_in_check[colour.index()] -= 1;
        }
        if kind == Kind::King {
            self.kings.swap_remove(index);
            if let Some(&moved) = self.kings.get(index) {
                self.record_mut(moved).king_index = index;
            }
        }
        self.records[slot] = None;
        self.free_slots.push(slot);
    }

    /// Removes `slot` from the square index and the line sets (its record
    /// keeps its square).
    fn take(&mut self, slot: Slot) {
        let sq = self.record(slot).square;
        self.occupant.remove(&sq);
        for family in FAMILIES {
            let (key, pos) = family.locate(sq);
            let lines = &mut self.lines[family.index()];
            if let Some(line) = lines.get_mut(&key) {
                line.remove(&pos);
                if line.is_empty() {
                    lines.remove(&key);
                }
            }
        }
    }

    /// Puts `slot` on `sq` in the square index and the line sets.
    fn put(&mut self, slot: Slot, sq: Square) {
        self.record_mut(slot).square = sq;
        self.occupant.insert(sq, slot);
        for family in FAMILIES {
            let (key, pos) = family.locate(sq);
            self.lines[family.index()]
                .entry(key)
                .or_default()
                .insert(pos);
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

    /// Recomputes the check flag of each king in `kings`.
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
        &self,
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
        if let Some(mover) = mover.filter(|&m| self.record(m).piece.kind == Kind::King) {
            kings.insert(mover);
        }
        for sq in from.into_iter().chain(Some(to)) {
            self.kings_seen_from(sq, &mut kings);
        }
        kings
    }

    /// Adds the kings whose attackers can change when `sq` changes: the
    /// nearest piece along each of the eight rays, and pieces a knight's
    /// jump away.
    fn kings_seen_from(&self, sq: Square, kings: &mut KingSet) {
        let mut consider = |slot: Slot| {
            if self.record(slot).piece.kind == Kind::King {
                kings.insert(slot);
            }
        };
        for ray in RAYS {
            if let Some((slot, _)) = self.nearest(sq, ray) {
                consider(slot);
            }
        }
        for (d_row, d_col) in KNIGHT_JUMPS {
            if let Some(&slot) = sq.offset(d_row, d_col).and_then(|s| self.occupant.get(&s)) {
                consider(slot);
            }
        }
    }

    /// The nearest piece from `sq` along `ray` and its distance in steps.
    fn nearest(&self, sq: Square, ray: Ray) -> Option<(Slot, u128)> {
        let (key, pos) = ray.family.locate(sq);
        let line = self.lines[ray.family.index()].get(&key)?;
        let found = if ray.increasing {
            line.range((Excluded(pos), std::ops::Bound::Unbounded))
                .next()
        } else {
            line.range(..pos).next_back()
        };
        let &other = found?;
        let distance = (i128::from(other) - i128::from(pos)).unsigned_abs();
        let slot = self.occupant[&ray.family.square_at(key, other)];
        Some((slot, distance))
    }

    /// Whether a piece of the colour opposite to `colour` attacks `sq`.
    fn is_attacked(&self, sq: Square, colour: Colour) -> bool {
        for ray in RAYS {
            let Some((slot, distance)) = self.nearest(sq, ray) else {
                continue;
            };
            let attacker = self.record(slot).piece;
            if attacker.colour == colour {
                continue;
            }
            let diagonal = ray.family.is_diagonal();
            let attacks = match attacker.kind {
                Kind::Queen => true,
                Kind::Rook => !diagonal,
                Kind::Bishop => diagonal,
                Kind::King => distance == 1,
                Kind::Pawn => {
                    // A pawn attacks one step diagonally forward: it stands
                    // one row behind the square, as seen from its side.
                    let row_of_pawn = i128::from(self.record(slot).square.row);
                    diagonal
                        && distance == 1
                        && i128::from(sq.row) - row_of_pawn == attacker.colour.pawn_forward()
                }
                Kind::Knight => false,
            };
            if attacks {
                return true;
            }
        }
        KNIGHT_JUMPS.iter().any(|&(d_row, d_col)| {
            sq.offset(d_row, d_col)
                .and_then(|s| self.occupant.get(&s))
                .is_some_and(|&slot| {
                    let piece = self.record(slot).piece;
                    piece.kind == Kind::Knight && piece.colour != colour
                })
        })
    }
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
        assert!(board.move_named_to(0, sq(0, 3)));
        assert_eq!(board.piece_at(sq(0, 3)), Some(piece('R')));
        assert!(
            board.move_named_by(0, 1, 0).unwrap(),
            "the pawn, newest, steps up"
        );
        assert_eq!(board.piece_at(sq(2, 0)), Some(piece('P')));
        assert!(board.move_named_by(0, i64::MAX, 0).is_err());
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
