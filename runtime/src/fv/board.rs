//! The board: cells, the pieces that attack in lists per colour, and an
//! incremental record of which royal pieces are attacked.
//!
//! Every piece type attacks one of four ways ([`Attacker`]): not at all; by
//! single leaps (*mapped*: found by looking back from a royal piece along
//! the union of all mapped leaps, so these pieces are in no list and moving
//! them costs a few comparisons); along straight lines ([`Ray`]: riders,
//! compounds, leapers with rank conditions), tested by a comparison and a
//! walk along the line; or by a search of its automaton.
//!
//! Whether a colour's royal pieces are attacked is counted once and kept
//! until a change that can matter: a royal piece of that colour came or
//! went; an enemy piece arrived on a square from which one of its lines or
//! leaps points at such a royal piece, or an enemy searched piece came or
//! went; or a *watched* square changed. When the count was made, every
//! square of a line between an aligned enemy piece and a royal piece up to
//! the first blocker, the squares of the aligned pieces themselves, and
//! every square an enemy piece's search looked at were watched: a search
//! is a deterministic function of the cells it reads, so while none of
//! them changes its answer stands. A move that touches none of these costs
//! a byte load per changed square.

use super::super::hash::FastSet;
use super::super::memory::Refused;
use super::automaton::{Automaton, Bend, Ray};
use super::rules::{Cell, Path, PieceValue, Point, Rules, Square};
use super::search::{captured_before, Goal, Search};

/// The board: cells, piece lists per colour, and what it knows about
/// attacks on royal pieces (see the module documentation).
#[derive(Clone, Debug)]
pub struct Board {
    pub(super) cells: Vec<Cell>,
    pub(super) rows: u32,
    pub(super) cols: u32,
    /// Each colour's listed pieces (white first): those that attack along
    /// lines or by a search.
    pub(super) listed: [Vec<Placed>; 2],
    /// Each colour's royal pieces.
    pub(super) royals: [Vec<Placed>; 2],
    /// Per cell: its index in `listed` (and in `royals` for royal pieces).
    pub(super) slots: Vec<(u32, u32)>,
    /// Per colour: how many of its royal pieces are attacked, and whether
    /// that must be counted again.
    pub(super) attacked: [AttackCount; 2],
    /// Per colour: how many of its pieces attack by exploring the board
    /// (crooked riders' flood fills, searches); none, and a count skips
    /// that pass.
    pub(super) explorers: [u32; 2],
    /// Per piece type: what the board needs to know about it.
    pub(super) kinds: Vec<KindFacts>,
    /// Per attacking colour: the distinct offsets from a mapped piece to
    /// the squares it attacks (the union over mapped piece types).
    pub(super) mapped_offsets: [Vec<Offset>; 2],
    /// Per cell: its (row, column), so that no move divides.
    pub(super) points: Vec<Point>,
    /// Per cell: bit 0 (1) set when a change there may change whether
    /// White's (Black's) royal pieces are attacked.
    pub(super) watch: Vec<u8>,
    /// Per colour: the cells whose watch bit for it is set.
    pub(super) watched: [Vec<Square>; 2],
    /// Per king direction ([`unit_direction`]) and cell: how many squares
    /// in a row after it, that way, are not holes (up to the board's edge).
    /// Holes never change, so a line that must cross a hole is blocked for
    /// good: no walk, nothing to watch.
    pub(super) hole_free: [Vec<u32>; 8],
}

/// The index (0..8) of a king direction (one step in each coordinate at
/// most, not both 0), if (`d_row`, `d_col`) is one.
fn unit_direction(d_row: i64, d_col: i64) -> Option<usize> {
    let index = match (d_row, d_col) {
        (1, 0) => 0,
        (-1, 0) => 1,
        (0, 1) => 2,
        (0, -1) => 3,
        (1, 1) => 4,
        (1, -1) => 5,
        (-1, 1) => 6,
        (-1, -1) => 7,
        _ => return None,
    };
    Some(index)
}

/// [`Board::hole_free`] for `cells` on a `rows` × `cols` board.
fn hole_free_runs(cells: &[Cell], rows: u32, cols: u32) -> [Vec<u32>; 8] {
    let directions = [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ];
    directions.map(|(d_row, d_col): (i64, i64)| {
        let mut runs = vec![0u32; cells.len()];
        // Visit each square after the one it looks at.
        let row_order: Vec<u32> = if d_row > 0 {
            (0..rows).rev().collect()
        } else {
            (0..rows).collect()
        };
        let col_order: Vec<u32> = if d_col > 0 {
            (0..cols).rev().collect()
        } else {
            (0..cols).collect()
        };
        for &row in &row_order {
            for &col in &col_order {
                let (next_row, next_col) = (i64::from(row) + d_row, i64::from(col) + d_col);
                if next_row < 0
                    || next_col < 0
                    || next_row >= i64::from(rows)
                    || next_col >= i64::from(cols)
                {
                    continue;
                }
                let next = (next_row * i64::from(cols) + next_col) as usize;
                if cells[next] != Cell::Hole {
                    runs[(row * cols + col) as usize] = runs[next] + 1;
                }
            }
        }
        runs
    })
}

/// How many of a colour's royal pieces are attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct AttackCount {
    /// A change since the count may have changed it.
    pub(super) stale: bool,
    /// The count.
    pub(super) attacked: usize,
}

/// The most distinct leap offsets the mapped piece types may have together
/// ([`Board`]): a royal piece's attack test looks back along each.
pub const MAPPED_OFFSETS: usize = 256;

/// A (row, column) offset in two's complement, so that one unsigned
/// comparison tests both edges of the board.
type Offset = (u32, u32);

/// How a piece type attacks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Attacker {
    /// It cannot capture.
    Never,
    /// Single leaps, found by looking back from royal pieces.
    Mapped,
    /// Along straight lines ([`KindFacts::rays`]).
    Rays,
    /// Only a search of its automaton can tell.
    Searched,
}

/// A [`Ray`] in board coordinates for one colour.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct BoardRay {
    d_row: i64,
    d_col: i64,
    max: u32,
    /// The king direction ([`unit_direction`]) of a straight one-square
    /// step.
    direction: Option<usize>,
    /// The king direction a straight, orthogonal or diagonal, line points
    /// in ([`RayGroups`]).
    group: Option<usize>,
    /// The landings inside each leap of a bent line ([`Ray::bends`]), as
    /// (row, column) offsets from where the leap starts.
    bends: Vec<BoardBend>,
    ray: Ray,
}

/// A [`Bend`] in board coordinates for one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BoardBend {
    d_row: i64,
    d_col: i64,
    /// The square must hold an enemy piece (which `x` takes).
    capture: bool,
}

/// A crooked rider of a piece type, for one colour: its leaps (each leap
/// of the rider may take any of them) and where the piece must stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CrookedRider {
    leaps: Vec<BoardRay>,
    ranks: Option<super::automaton::RankRange>,
}

impl BoardRay {
    /// `ray` of a piece of `white`'s colour whose bent lines' landings are
    /// in `bends` ([`Automaton::bends`]).
    fn new(ray: Ray, bends: &[Bend], white: bool) -> BoardRay {
        let sign = if white { 1 } else { -1 };
        let (d_row, d_col) = (i64::from(ray.forward) * sign, i64::from(ray.right) * sign);
        let bends: Vec<BoardBend> = ray
            .bends_in(bends)
            .iter()
            .map(|bend| BoardBend {
                d_row: i64::from(bend.forward) * sign,
                d_col: i64::from(bend.right) * sign,
                capture: bend.capture,
            })
            .collect();
        let straight = d_row == 0 || d_col == 0 || d_row.abs() == d_col.abs();
        BoardRay {
            d_row,
            d_col,
            max: ray.max,
            direction: unit_direction(d_row, d_col).filter(|_| bends.is_empty()),
            group: unit_direction(d_row.signum(), d_col.signum()).filter(|_| straight),
            bends,
            ray,
        }
    }

    /// How many leaps along this line lead from `from` to `to`, if that is
    /// a whole number from 1 to `max`.
    #[inline]
    fn leaps_to(&self, from: Point, to: Point) -> Option<i64> {
        let d_row = i64::from(to.row) - i64::from(from.row);
        let d_col = i64::from(to.col) - i64::from(from.col);
        if self.max == 1 {
            return (d_row == self.d_row && d_col == self.d_col).then_some(1);
        }
        // Parallel (cross product 0) and the same way (dot product > 0)
        // before any division.
        if d_row * self.d_col != d_col * self.d_row || d_row * self.d_row + d_col * self.d_col <= 0
        {
            return None;
        }
        let count = if self.d_row.abs() <= 1 && self.d_col.abs() <= 1 {
            // A one-square step: the distance is the count, no division.
            d_row.abs().max(d_col.abs())
        } else if self.d_row != 0 {
            d_row / self.d_row
        } else {
            d_col / self.d_col
        };
        let whole = count * self.d_row == d_row && count * self.d_col == d_col;
        (whole && count <= i64::from(self.max)).then_some(count)
    }

    /// The farthest (in king steps) this line reaches.
    fn reach(&self) -> u64 {
        let step = self.d_row.unsigned_abs().max(self.d_col.unsigned_abs());
        step.saturating_mul(u64::from(self.max))
    }
}

/// What the board needs to know about a piece type.
#[derive(Clone, Debug)]
pub(super) struct KindFacts {
    pub(super) royal: bool,
    pub(super) attacker: Attacker,
    /// For mapped pieces: the leaps as offsets, for white and for black.
    pub(super) offsets: [Vec<Offset>; 2],
    /// For [`Attacker::Rays`]: the lines (crooked riders' leaps aside), for
    /// white and for black.
    pub(super) rays: [Vec<BoardRay>; 2],
    /// Per colour: the lines grouped by where they can point, so that a
    /// test looks only at those that can reach its square.
    pub(super) ray_groups: [RayGroups; 2],
    /// For [`Attacker::Rays`]: the crooked riders, for white and for
    /// black.
    pub(super) crooked: [Vec<CrookedRider>; 2],
    /// The farthest (in king steps) the piece attacks: an enemy royal piece
    /// farther away is not threatened when it arrives.
    pub(super) reach: u64,
}

/// A piece type's lines (indices into [`KindFacts::rays`]) by direction:
/// the straight lines (orthogonal or diagonal) in each king direction, and
/// the others.
#[derive(Clone, Debug, Default)]
pub(super) struct RayGroups {
    unit: [Vec<u16>; 8],
    other: Vec<u16>,
}

impl RayGroups {
    fn of(rays: &[BoardRay]) -> RayGroups {
        let mut groups = RayGroups::default();
        for (index, ray) in rays.iter().enumerate() {
            match ray.group {
                Some(direction) => groups.unit[direction].push(index as u16),
                None => groups.other.push(index as u16),
            }
        }
        groups
    }

    /// The lines that can lead from `from` to `to`: the straight lines of
    /// that direction (if it is a king direction) and all the others.
    #[inline]
    fn towards(&self, from: Point, to: Point) -> impl Iterator<Item = usize> + '_ {
        let d_row = i64::from(to.row) - i64::from(from.row);
        let d_col = i64::from(to.col) - i64::from(from.col);
        let straight = d_row == 0 || d_col == 0 || d_row.abs() == d_col.abs();
        let unit: &[u16] = match unit_direction(d_row.signum(), d_col.signum()) {
            Some(direction) if straight => &self.unit[direction],
            _ => &[],
        };
        unit.iter()
            .chain(self.other.iter())
            .map(|&index| usize::from(index))
    }
}

impl KindFacts {
    /// Whether pieces of this type are kept in the per-colour lists.
    fn listed(&self) -> bool {
        matches!(self.attacker, Attacker::Rays | Attacker::Searched)
    }

    /// Whether what pieces of this type attack is found by exploring the
    /// board (a search or a crooked rider's flood fill), so that their
    /// coming or going is a change for every enemy royal piece.
    fn explores(&self) -> bool {
        self.attacker == Attacker::Searched || !self.crooked[0].is_empty()
    }
}

/// A piece in a piece list: where it stands (both ways) and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Placed {
    pub(super) square: Square,
    pub(super) at: Point,
    pub(super) kind: u16,
}

pub(super) const NO_SLOT: u32 = u32::MAX;

/// The index of a colour in per-colour arrays: white 0, black 1.
pub(super) fn side(white: bool) -> usize {
    usize::from(!white)
}

/// `at` moved by `offset`, if that is on a `rows` × `cols` board.
fn offset_point(at: Point, offset: Offset, rows: u32, cols: u32) -> Option<Point> {
    let row = at.row.wrapping_add(offset.0);
    let col = at.col.wrapping_add(offset.1);
    if row < rows && col < cols {
        Some(Point { row, col })
    } else {
        None
    }
}

/// The offset from `from` to `to`.
fn offset_between(from: Point, to: Point) -> Offset {
    (to.row.wrapping_sub(from.row), to.col.wrapping_sub(from.col))
}

/// How a piece type with `automaton` attacks, and its rays as offsets
/// when it is a pure leaper (no rank condition).
fn attacker_of(automaton: &Automaton) -> Attacker {
    match automaton.attacks {
        None => Attacker::Searched,
        Some([]) => Attacker::Never,
        Some(rays)
            if rays
                .iter()
                .all(|r| r.max == 1 && r.ranks.is_none() && r.bends == 0 && r.crooked == 0) =>
        {
            Attacker::Mapped
        }
        Some(_) => Attacker::Rays,
    }
}

impl Board {
    pub(super) fn new(rules: &Rules, cells: &[Cell]) -> Board {
        let mut union: FastSet<Offset> = FastSet::default();
        let kinds = rules
            .automata
            .iter()
            .zip(rules.values)
            .map(|(automaton, &value)| {
                let rays = automaton.attacks.unwrap_or(&[]);
                let oriented = |sign: i32| -> Vec<Offset> {
                    let mut offsets: Vec<Offset> = rays
                        .iter()
                        .map(|r| {
                            (
                                r.forward.wrapping_mul(sign) as u32,
                                r.right.wrapping_mul(sign) as u32,
                            )
                        })
                        .collect();
                    offsets.sort_unstable();
                    offsets.dedup();
                    offsets
                };
                let mut attacker = attacker_of(automaton);
                if attacker == Attacker::Mapped {
                    let white = oriented(1);
                    let fresh = white.iter().filter(|o| !union.contains(*o)).count();
                    if union.len() + fresh <= MAPPED_OFFSETS {
                        union.extend(white.iter().copied());
                    } else {
                        attacker = Attacker::Rays;
                    }
                }
                let on_board = |white: bool| -> Vec<BoardRay> {
                    rays.iter()
                        .filter(|r| r.crooked == 0)
                        .map(|&r| BoardRay::new(r, automaton.bends, white))
                        .collect()
                };
                let crooked = |white: bool| -> Vec<CrookedRider> {
                    let mut riders: Vec<CrookedRider> = Vec::new();
                    let mut numbers: Vec<u32> = Vec::new();
                    for ray in rays.iter().filter(|r| r.crooked != 0) {
                        let leap = BoardRay::new(*ray, automaton.bends, white);
                        match numbers.iter().position(|&n| n == ray.crooked) {
                            Some(index) => riders[index].leaps.push(leap),
                            None => {
                                numbers.push(ray.crooked);
                                riders.push(CrookedRider {
                                    leaps: vec![leap],
                                    ranks: ray.ranks,
                                });
                            }
                        }
                    }
                    riders
                };
                let reach = if rays.iter().any(|r| r.crooked != 0) {
                    u64::MAX
                } else {
                    on_board(true)
                        .iter()
                        .map(BoardRay::reach)
                        .max()
                        .unwrap_or(0)
                };
                KindFacts {
                    reach,
                    royal: value == PieceValue::Royal,
                    attacker,
                    offsets: if attacker == Attacker::Mapped {
                        [oriented(1), oriented(-1)]
                    } else {
                        [Vec::new(), Vec::new()]
                    },
                    rays: if attacker == Attacker::Rays {
                        [on_board(true), on_board(false)]
                    } else {
                        [Vec::new(), Vec::new()]
                    },
                    ray_groups: if attacker == Attacker::Rays {
                        [
                            RayGroups::of(&on_board(true)),
                            RayGroups::of(&on_board(false)),
                        ]
                    } else {
                        Default::default()
                    },
                    crooked: if attacker == Attacker::Rays {
                        [crooked(true), crooked(false)]
                    } else {
                        Default::default()
                    },
                }
            })
            .collect();
        let mut white_offsets: Vec<Offset> = union.into_iter().collect();
        white_offsets.sort_unstable();
        let black_offsets = white_offsets
            .iter()
            .map(|&(row, col)| (row.wrapping_neg(), col.wrapping_neg()))
            .collect();
        let stale = AttackCount {
            stale: true,
            attacked: 0,
        };
        let mut board = Board {
            cells: vec![Cell::Empty; cells.len()],
            rows: rules.rows,
            cols: rules.cols,
            listed: [Vec::new(), Vec::new()],
            royals: [Vec::new(), Vec::new()],
            slots: vec![(NO_SLOT, NO_SLOT); cells.len()],
            attacked: [stale, stale],
            explorers: [0; 2],
            kinds,
            mapped_offsets: [white_offsets, black_offsets],
            points: (0..cells.len() as Square).map(|s| rules.point(s)).collect(),
            watch: vec![0; cells.len()],
            watched: [Vec::new(), Vec::new()],
            hole_free: hole_free_runs(cells, rules.rows, rules.cols),
        };
        for (square, &cell) in cells.iter().enumerate() {
            board.set(square as Square, cell);
        }
        board
    }

    pub(super) fn get(&self, square: Square) -> Cell {
        self.cells[square as usize]
    }

    /// Puts `cell` on `square`, keeping the lists up to date, and marks a
    /// colour's count of attacked royal pieces stale when the change can
    /// matter (see the module documentation).
    #[inline]
    pub(super) fn set(&mut self, square: Square, cell: Cell) {
        let index = square as usize;
        if let Cell::Piece { kind, white } = self.cells[index] {
            let facts = &self.kinds[usize::from(kind)];
            if facts.listed() || facts.royal {
                self.lift(index, kind, white);
            }
        }
        self.cells[index] = cell;
        if let Cell::Piece { kind, white } = cell {
            self.drop_on(index, kind, white);
        }
        let watch = self.watch[index];
        if watch != 0 {
            self.attacked[0].stale |= watch & 1 != 0;
            self.attacked[1].stale |= watch & 2 != 0;
        }
    }

    /// Takes the piece on cell `index` out of the lists.
    #[inline(never)]
    fn lift(&mut self, index: usize, kind: u16, white: bool) {
        let colour = side(white);
        let facts = &self.kinds[usize::from(kind)];
        let (royal, listed) = (facts.royal, facts.listed());
        let explores = facts.explores();
        let (listed_slot, royal_slot) = self.slots[index];
        if listed {
            if explores {
                self.explorers[colour] -= 1;
                self.attacked[side(!white)].stale = true;
            }
            remove_at(&mut self.listed[colour], &mut self.slots, listed_slot, true);
        }
        if royal {
            self.attacked[colour].stale = true;
            remove_at(&mut self.royals[colour], &mut self.slots, royal_slot, false);
        }
        self.slots[index] = (NO_SLOT, NO_SLOT);
    }

    /// Enters the piece now on cell `index` in the lists, and marks the
    /// enemy's count stale if the piece points at one of its royal pieces.
    fn drop_on(&mut self, index: usize, kind: u16, white: bool) {
        let colour = side(white);
        let enemy = side(!white);
        let at = self.points[index];
        let facts = &self.kinds[usize::from(kind)];
        let near = |royal: &Placed| u64::from(at.distance(royal.at)) <= facts.reach;
        let threat = facts.explores()
            || match facts.attacker {
                Attacker::Never => false,
                Attacker::Mapped => self.royals[enemy].iter().any(|royal| {
                    near(royal) && facts.offsets[colour].contains(&offset_between(at, royal.at))
                }),
                Attacker::Rays => {
                    let rank = self.rank_of_row(at.row, white);
                    self.royals[enemy].iter().any(|royal| {
                        near(royal)
                            && facts.ray_groups[colour].towards(at, royal.at).any(|index| {
                                let ray = &facts.rays[colour][index];
                                ray.ray.ranks.is_none_or(|r| r.admits(rank))
                                    && ray.leaps_to(at, royal.at).is_some()
                            })
                    })
                }
                Attacker::Searched => true,
            };
        if threat {
            self.attacked[enemy].stale = true;
        }
        let (royal, listed) = (facts.royal, facts.listed());
        let placed = Placed {
            square: index as Square,
            at,
            kind,
        };
        if listed {
            if facts.explores() {
                self.explorers[colour] += 1;
            }
            let list = &mut self.listed[colour];
            self.slots[index].0 = list.len() as u32;
            list.push(placed);
        }
        if royal {
            self.attacked[colour].stale = true;
            let list = &mut self.royals[colour];
            self.slots[index].1 = list.len() as u32;
            list.push(placed);
        }
    }

    /// The owner's rank of row `row`: 1 is the owner's nearest row.
    fn rank_of_row(&self, row: u32, white: bool) -> i64 {
        if white {
            i64::from(row) + 1
        } else {
            i64::from(self.rows) - i64::from(row)
        }
    }

    /// How many royal pieces of `white` are attacked: counted again only
    /// when a change since the last count may have changed it. (A search
    /// that outgrows the memory budget ends the count with its error.)
    #[inline]
    pub(super) fn attacked_royals(
        &mut self,
        rules: &Rules,
        white: bool,
        search: &mut Search,
    ) -> Result<usize, Refused> {
        let count = self.attacked[side(white)];
        if !count.stale {
            return Ok(count.attacked);
        }
        self.count_attacked_royals(rules, white, search)
    }

    /// Counts the attacked royal pieces of `white` from scratch, watching
    /// the squares whose change may change the count.
    #[inline(never)]
    pub(super) fn count_attacked_royals(
        &mut self,
        rules: &Rules,
        white: bool,
        search: &mut Search,
    ) -> Result<usize, Refused> {
        let colour = side(white);
        let bit = 1u8 << colour;
        let mut watched = std::mem::take(&mut self.watched[colour]);
        for &square in &watched {
            self.watch[square as usize] &= !bit;
        }
        watched.clear();
        let mut attacked = 0;
        let mut refused = None;
        for index in 0..self.royals[colour].len() {
            let royal = self.royals[colour][index].at;
            match self.royal_attacked(rules, royal, !white, search, &mut watched) {
                Ok(true) => attacked += 1,
                Ok(false) => {}
                Err(kind) => {
                    refused = Some(kind);
                    break;
                }
            }
        }
        for &square in &watched {
            self.watch[square as usize] |= bit;
        }
        self.watched[colour] = watched;
        if let Some(kind) = refused {
            // The count is unknown: it stays stale.
            return Err(kind);
        }
        self.attacked[colour] = AttackCount {
            stale: false,
            attacked,
        };
        Ok(attacked)
    }

    /// Whether a piece of colour `by_white` attacks `target`; the squares
    /// whose change may change that are added to `watched`.
    fn royal_attacked(
        &self,
        rules: &Rules,
        target: Point,
        by_white: bool,
        search: &mut Search,
        watched: &mut Vec<Square>,
    ) -> Result<bool, Refused> {
        if let Some(from) = self.mapped_attacker(target, by_white) {
            watched.push(from);
            return Ok(true);
        }
        let goal = Goal {
            to: target,
            promote: None,
            attack: true,
        };
        let listed = &self.listed[side(by_white)];
        // Lines first: they cost a comparison or a short walk, while flood
        // fills and searches explore the board.
        let on_a_line = listed.iter().any(|placed| {
            self.kinds[usize::from(placed.kind)].attacker == Attacker::Rays
                && self.rays_attack(placed, by_white, target, watched)
        });
        if on_a_line || self.explorers[side(by_white)] == 0 {
            return Ok(on_a_line);
        }
        for placed in listed {
            let kind = usize::from(placed.kind);
            let attacks = match self.kinds[kind].attacker {
                Attacker::Rays => {
                    self.crooked_attack(placed, by_white, target, &mut search.flood, watched)
                }
                Attacker::Searched => {
                    let automaton = &rules.automata[kind];
                    automaton.reach() >= placed.at.distance(target) && {
                        // The search's answer depends on the board only
                        // through the cells it looks at (and where the
                        // piece and the target stand): watch them.
                        watched.push(placed.square);
                        search.start(
                            rules,
                            automaton,
                            placed.kind,
                            by_white,
                            placed.at,
                            rules.cols,
                        )?;
                        search.record_reads_from_now();
                        let found = search.next(rules, self, goal).map(|path| path.is_some());
                        let taken = search.take_reads(watched);
                        taken?;
                        found?
                    }
                }
                Attacker::Never | Attacker::Mapped => false,
            };
            if attacks {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Whether the piece `placed` of colour `by_white` attacks `target`
    /// along one of its lines; the piece's square and every square of an
    /// aligned line up to its first blocker are added to `watched`.
    fn rays_attack(
        &self,
        placed: &Placed,
        by_white: bool,
        target: Point,
        watched: &mut Vec<Square>,
    ) -> bool {
        let facts = &self.kinds[usize::from(placed.kind)];
        let rank = self.rank_of_row(placed.at.row, by_white);
        let colour = side(by_white);
        let mut attacks = false;
        for index in facts.ray_groups[colour].towards(placed.at, target) {
            let ray = &facts.rays[colour][index];
            if ray.ray.ranks.is_some_and(|r| !r.admits(rank)) {
                continue;
            }
            let Some(leaps) = ray.leaps_to(placed.at, target) else {
                continue;
            };
            if let Some(direction) = ray.direction {
                let clear = self.hole_free[direction][placed.square as usize];
                if leaps - 1 > i64::from(clear) {
                    // A hole on the way: blocked for good.
                    continue;
                }
            }
            watched.push(placed.square);
            if self.line_is_clear(ray, placed.at, leaps, by_white, watched) {
                attacks = true;
                break;
            }
        }
        attacks
    }

    /// Whether a crooked rider of the piece `placed` (of colour `by_white`)
    /// reaches `target`: a flood fill from the piece's square over the
    /// empty squares its leaps reach. Every square looked at is added to
    /// `watched`.
    fn crooked_attack(
        &self,
        placed: &Placed,
        by_white: bool,
        target: Point,
        flood: &mut Flood,
        watched: &mut Vec<Square>,
    ) -> bool {
        let facts = &self.kinds[usize::from(placed.kind)];
        let riders = &facts.crooked[side(by_white)];
        if riders.is_empty() {
            return false;
        }
        let rank = self.rank_of_row(placed.at.row, by_white);
        let target_square = target.row * self.cols + target.col;
        watched.push(placed.square);
        riders.iter().any(|rider| {
            rider.ranks.is_none_or(|r| r.admits(rank))
                && self.flood_reaches(
                    flood,
                    placed.at,
                    target_square,
                    watched,
                    |board, at, landed, watched| {
                        for leap in &rider.leaps {
                            landed.extend(board.leap_lands(leap, at, by_white, watched));
                        }
                    },
                )
        })
    }

    /// A flood fill from `start` over empty squares: whether it reaches
    /// `target`. `leaps(board, at, landed, looked)` adds to `landed` where
    /// each leap from `at` lands; `looked` (the squares an attack watches,
    /// or nothing) is passed along and also told every square the fill
    /// looks at, once each.
    fn flood_reaches<L: Looked>(
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

    /// Where one leap of `leap` from `at` by a piece of `by_white`'s colour
    /// ends, if it is on the board and its intermediate landings allow it
    /// (those looked at are added to `watched`).
    #[inline]
    fn leap_lands(
        &self,
        leap: &BoardRay,
        at: Point,
        by_white: bool,
        watched: &mut Vec<Square>,
    ) -> Option<Point> {
        let (rows, cols) = (i64::from(self.rows), i64::from(self.cols));
        let on_board = |d_row: i64, d_col: i64| {
            let (row, col) = (i64::from(at.row) + d_row, i64::from(at.col) + d_col);
            (row >= 0 && col >= 0 && row < rows && col < cols).then_some(Point {
                row: row as u32,
                col: col as u32,
            })
        };
        for bend in &leap.bends {
            let point = on_board(bend.d_row, bend.d_col)?;
            let square = point.row * self.cols + point.col;
            watched.push(square);
            if !self.bend_allows(bend, square, by_white) {
                return None;
            }
        }
        on_board(leap.d_row, leap.d_col)
    }

    /// Whether an intermediate landing `bend` on `square` allows a path of
    /// a piece of `by_white`'s colour to go on.
    #[inline]
    fn bend_allows(&self, bend: &BoardBend, square: Square, by_white: bool) -> bool {
        match self.cells[square as usize] {
            Cell::Empty => !bend.capture,
            Cell::Piece { white, .. } => bend.capture && white != by_white,
            Cell::Hole => false,
        }
    }

    /// Whether every landing of `leaps` leaps along `ray` from `from` before
    /// the last is on the board and empty (or an enemy piece taken by `x`);
    /// the squares looked at are added to `watched`.
    #[inline]
    fn line_is_clear(
        &self,
        ray: &BoardRay,
        from: Point,
        leaps: i64,
        by_white: bool,
        watched: &mut Vec<Square>,
    ) -> bool {
        if ray.bends.is_empty() {
            let cols = i64::from(self.cols);
            let (mut row, mut col) = (i64::from(from.row), i64::from(from.col));
            // A straight line between two squares on the board stays on it.
            for _ in 1..leaps {
                row += ray.d_row;
                col += ray.d_col;
                let square = (row * cols + col) as Square;
                watched.push(square);
                if self.cells[square as usize] != Cell::Empty {
                    return false;
                }
            }
            return true;
        }
        let mut at = from;
        for leap in 0..leaps {
            if leap > 0 {
                let square = at.row * self.cols + at.col;
                watched.push(square);
                if self.cells[square as usize] != Cell::Empty {
                    return false;
                }
            }
            match self.leap_lands(ray, at, by_white, watched) {
                Some(end) => at = end,
                None => return false,
            }
        }
        true
    }

    /// The square of a mapped piece of colour `by_white` that leaps to
    /// `target`, if any: looks back along every mapped offset.
    fn mapped_attacker(&self, target: Point, by_white: bool) -> Option<Square> {
        let colour = side(by_white);
        self.mapped_offsets[colour].iter().find_map(|&(row, col)| {
            let back = (row.wrapping_neg(), col.wrapping_neg());
            let from = offset_point(target, back, self.rows, self.cols)?;
            let square = from.row * self.cols + from.col;
            match self.cells[square as usize] {
                Cell::Piece { kind, white } if white == by_white => {
                    let facts = &self.kinds[usize::from(kind)];
                    (facts.attacker == Attacker::Mapped
                        && facts.offsets[colour].binary_search(&(row, col)).is_ok())
                    .then_some(square)
                }
                _ => None,
            }
        })
    }
}

/// The reusable buffers of flood fills ([`Board::flood_reaches`]: crooked
/// riders' attacks, crooked endings of listed paths): a
/// generation-stamped set of squares, a stack, the landings of one
/// square's leaps.
#[derive(Clone, Debug, Default)]
pub(super) struct Flood {
    /// Per square: the generation of the fill that visited it last.
    seen: Vec<u32>,
    generation: u32,
    /// Squares to leap on from.
    stack: Vec<Point>,
    /// Where the leaps from one square land.
    landed: Vec<Point>,
}

/// Who is told the squares a flood fill looks at.
trait Looked {
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

/// Removes entry `slot` of `list` by swapping the last entry into its place.
fn remove_at(list: &mut Vec<Placed>, slots: &mut [(u32, u32)], slot: u32, piece_list: bool) {
    let slot = slot as usize;
    if slot >= list.len() {
        return;
    }
    list.swap_remove(slot);
    if let Some(moved) = list.get(slot) {
        let entry = &mut slots[moved.square as usize];
        if piece_list {
            entry.0 = slot as u32;
        } else {
            entry.1 = slot as u32;
        }
    }
}

/// Whether a listed path can be taken ([`Board::allows`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Allowed {
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
    /// whether it lands on empty squares only.
    pub(super) fn allows(
        &self,
        path: &Path,
        from: Square,
        white: bool,
        flood: &mut Flood,
    ) -> Allowed {
        let allowed = self.allows_steps(path, white);
        if allowed == Allowed::No || path.crooked.is_empty() {
            return allowed;
        }
        let start = match path.steps {
            [.., before, _] => before.square,
            _ => from,
        };
        match path.steps.last() {
            Some(last) if self.crooked_reaches(path.crooked, start, last.square, flood) => allowed,
            _ => Allowed::No,
        }
    }

    /// Whether leaps by any of `offsets`, one or more, lead from `start` to
    /// `end` over empty squares (a flood fill).
    pub(super) fn crooked_reaches(
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

#[cfg(test)]
mod tests {
    use super::super::testing::{rules, WAZIR, WAZIR_LEAPER};
    use super::super::{Automaton, Game, PieceValue};
    use super::*;

    #[test]
    fn piece_lists_follow_every_change() {
        // Kind 0 moves like a wazir but is not known to be a leaper (so it
        // is scanned); kind 1 is a royal wazir (mapped, and in the royal
        // lists); kind 2 a mapped wazir (in no list).
        let automata = [WAZIR, WAZIR_LEAPER, WAZIR_LEAPER];
        let values = [
            PieceValue::Number(1),
            PieceValue::Royal,
            PieceValue::Number(2),
        ];
        let rules = rules(&automata, &values);
        let mut game = Game::with_position(
            &rules,
            &[(4, 1)],
            &[(0, 0, true), (1, 1, true), (8, 1, false), (6, 2, true)],
        );
        game.place(0, false, 2, 1);
        game.place(0, false, 4, 1);
        let squares = |list: &[Placed]| {
            let mut squares: Vec<Square> = list.iter().map(|p| p.square).collect();
            squares.sort();
            squares
        };
        let board = &game.board;
        assert_eq!(squares(&board.listed[0]), [0]);
        assert_eq!(squares(&board.listed[1]), [2]);
        assert_eq!(squares(&board.royals[0]), [1]);
        assert_eq!(squares(&board.royals[1]), [8]);
        assert_eq!(board.listed[1][0].at, Point { row: 0, col: 2 });
        assert_eq!(game.cells()[4], Cell::Hole);
        // The black king steps to (1,2); the white scanned piece leaves.
        game.board.set(8, Cell::Empty);
        game.board.set(
            5,
            Cell::Piece {
                kind: 1,
                white: false,
            },
        );
        assert_eq!(squares(&game.board.royals[1]), [5]);
        assert_eq!(game.board.slots[5], (NO_SLOT, 0));
        game.board.set(0, Cell::Empty);
        assert!(game.board.listed[0].is_empty());
        // Offsets: the four wazir leaps, black's the other way round.
        assert_eq!(game.board.mapped_offsets[0].len(), 4);
        assert_eq!(
            game.board.kinds[2].offsets[1],
            [(0, 1), (0, u32::MAX), (1, 0), (u32::MAX, 0)]
        );
    }

    #[test]
    fn royal_pieces_are_attacked_by_leaps_and_scans() {
        // Kind 1, the royal piece, attacks nothing (no capturing leap).
        let royal = Automaton {
            attacks: Some(&[]),
            ..WAZIR
        };
        let automata = [WAZIR, royal, WAZIR_LEAPER];
        let values = [
            PieceValue::Number(1),
            PieceValue::Royal,
            PieceValue::Number(2),
        ];
        let rules = rules(&automata, &values);
        // White king on (0,0), black king on (2,2); a black mapped wazir on
        // (1,1) does not touch the white king.
        let mut game =
            Game::with_position(&rules, &[], &[(0, 1, true), (8, 1, false), (4, 2, false)]);
        assert!(!game.attacked(&rules, true).unwrap());
        // A black mapped wazir on (1,0) attacks it (a leap looking back).
        game.place(2, false, 3, 1);
        assert!(game.attacked(&rules, true).unwrap());
        assert_eq!(
            game.board
                .attacked_royals(&rules, true, &mut game.attacks)
                .unwrap(),
            1
        );
        game.board.set(3, Cell::Empty);
        assert!(!game.attacked(&rules, true).unwrap());
        // A black scanned piece on (0,1) attacks it through the scan.
        game.place(0, false, 1, 1);
        assert!(game.attacked(&rules, true).unwrap());
        game.board.set(1, Cell::Empty);
        assert!(!game.attacked(&rules, true).unwrap());
        // A second white king on (2,1) is attacked by the wazir on (1,1):
        // one of two royal pieces attacked is not a loss; both are.
        game.place(1, true, 7, 1);
        assert_eq!(
            game.board
                .attacked_royals(&rules, true, &mut game.attacks)
                .unwrap(),
            1
        );
        assert!(!game.someone_lost(&rules).unwrap());
        game.place(2, false, 3, 1);
        assert_eq!(
            game.board
                .attacked_royals(&rules, true, &mut game.attacks)
                .unwrap(),
            2
        );
        assert!(game.someone_lost(&rules).unwrap());
    }

    #[test]
    fn hole_free_runs_stop_at_holes_and_edges() {
        // 3 × 3, a hole in the middle (square 4).
        let mut cells = vec![Cell::Empty; 9];
        cells[4] = Cell::Hole;
        let runs = hole_free_runs(&cells, 3, 3);
        let up = unit_direction(1, 0).expect("a direction");
        let right = unit_direction(0, 1).expect("a direction");
        let diagonal = unit_direction(1, 1).expect("a direction");
        // From a2 (square 1) up: b2 is the hole at once.
        assert_eq!(runs[up][1], 0);
        // From a1 up: b1, c1, then the edge.
        assert_eq!(runs[up][0], 2);
        // From b1 (square 3) right: b2 is the hole.
        assert_eq!(runs[right][3], 0);
        // From a1 along the diagonal: b2 is the hole.
        assert_eq!(runs[diagonal][0], 0);
        // From c3 (square 8) nothing lies further up.
        assert_eq!(runs[up][8], 0);
        assert_eq!(unit_direction(2, 1), None);
    }
}
