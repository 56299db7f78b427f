//! What the board knows about each piece type: how it attacks (not at
//! all, by single leaps looked back along, along lines, or only by a
//! search), its lines in board coordinates for each colour, grouped by
//! direction, and how far it reaches.

use super::super::super::hash::FastSet;
use super::super::automaton::{Automaton, Bend, Ray};
use super::super::rules::{PieceValue, Point, Rules};

/// The index (0..8) of a king direction (one step in each coordinate at
/// most, not both 0), if (`d_row`, `d_col`) is one.
pub(super) fn unit_direction(d_row: i64, d_col: i64) -> Option<usize> {
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

/// The most distinct leap offsets the mapped piece types may have together
/// ([`Board`]): a royal piece's attack test looks back along each.
pub const MAPPED_OFFSETS: usize = 256;

/// A (row, column) offset in two's complement, so that one unsigned
/// comparison tests both edges of the board.
pub(super) type Offset = (u32, u32);

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
    pub(super) d_row: i64,
    pub(super) d_col: i64,
    pub(super) max: u32,
    /// The king direction ([`unit_direction`]) of a straight one-square
    /// step.
    pub(super) direction: Option<usize>,
    /// The king direction a straight, orthogonal or diagonal, line points
    /// in ([`RayGroups`]).
    pub(super) group: Option<usize>,
    /// The landings inside each leap of a bent line ([`Ray::bends`]), as
    /// (row, column) offsets from where the leap starts.
    pub(super) bends: Vec<BoardBend>,
    pub(super) ray: Ray,
}

/// A [`Bend`] in board coordinates for one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct BoardBend {
    pub(super) d_row: i64,
    pub(super) d_col: i64,
    /// The square must hold an enemy piece (which `x` takes).
    pub(super) capture: bool,
}

/// A crooked rider of a piece type, for one colour: its leaps (each leap
/// of the rider may take any of them) and where the piece must stand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct CrookedRider {
    pub(super) leaps: Vec<BoardRay>,
    pub(super) ranks: Option<super::super::automaton::RankRange>,
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
    pub(super) fn leaps_to(&self, from: Point, to: Point) -> Option<i64> {
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
    pub(super) fn reach(&self) -> u64 {
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
    pub(super) fn towards(&self, from: Point, to: Point) -> impl Iterator<Item = usize> + '_ {
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
    /// The facts of a piece type with `automaton` and `value`; a mapped
    /// type adds its leaps to `union`, unless they would pass
    /// [`MAPPED_OFFSETS`] (then it attacks along lines).
    fn new(automaton: &Automaton, value: PieceValue, union: &mut FastSet<Offset>) -> KindFacts {
        let rays = automaton.attacks.unwrap_or(&[]);
        let mut attacker = attacker_of(automaton);
        if attacker == Attacker::Mapped {
            let white = oriented(rays, 1);
            let fresh = white.iter().filter(|o| !union.contains(*o)).count();
            if union.len() + fresh <= MAPPED_OFFSETS {
                union.extend(white.iter().copied());
            } else {
                attacker = Attacker::Rays;
            }
        }
        let on_board = |white: bool| lines_on_board(rays, automaton.bends, white);
        let reach = if rays.iter().any(|r| r.crooked != 0) {
            u64::MAX
        } else {
            on_board(true)
                .iter()
                .map(BoardRay::reach)
                .max()
                .unwrap_or(0)
        };
        let rays_if = |attacks: Attacker| attacker == attacks;
        KindFacts {
            reach,
            royal: value == PieceValue::Royal,
            attacker,
            offsets: if rays_if(Attacker::Mapped) {
                [oriented(rays, 1), oriented(rays, -1)]
            } else {
                [Vec::new(), Vec::new()]
            },
            rays: if rays_if(Attacker::Rays) {
                [on_board(true), on_board(false)]
            } else {
                [Vec::new(), Vec::new()]
            },
            ray_groups: if rays_if(Attacker::Rays) {
                [
                    RayGroups::of(&on_board(true)),
                    RayGroups::of(&on_board(false)),
                ]
            } else {
                Default::default()
            },
            crooked: if rays_if(Attacker::Rays) {
                [
                    crooked_riders(rays, automaton.bends, true),
                    crooked_riders(rays, automaton.bends, false),
                ]
            } else {
                Default::default()
            },
        }
    }

    /// Whether pieces of this type are kept in the per-colour lists.
    pub(super) fn listed(&self) -> bool {
        matches!(self.attacker, Attacker::Rays | Attacker::Searched)
    }

    /// Whether what pieces of this type attack is found by exploring the
    /// board (a search or a crooked rider's flood fill), so that their
    /// coming or going is a change for every enemy royal piece.
    pub(super) fn explores(&self) -> bool {
        self.attacker == Attacker::Searched || !self.crooked[0].is_empty()
    }
}

/// `at` moved by `offset`, if that is on a `rows` × `cols` board.
pub(super) fn offset_point(at: Point, offset: Offset, rows: u32, cols: u32) -> Option<Point> {
    let row = at.row.wrapping_add(offset.0);
    let col = at.col.wrapping_add(offset.1);
    if row < rows && col < cols {
        Some(Point { row, col })
    } else {
        None
    }
}

/// The offset from `from` to `to`.
pub(super) fn offset_between(from: Point, to: Point) -> Offset {
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

/// What the board needs to know about every piece type of `rules`, and
/// the union of the mapped types' leaps (White's offsets, sorted).
pub(super) fn kind_facts(rules: &Rules) -> (Vec<KindFacts>, Vec<Offset>) {
    let mut union: FastSet<Offset> = FastSet::default();
    let kinds = rules
        .automata
        .iter()
        .zip(rules.values)
        .map(|(automaton, &value)| KindFacts::new(automaton, value, &mut union))
        .collect();
    let mut white_offsets: Vec<Offset> = union.into_iter().collect();
    white_offsets.sort_unstable();
    (kinds, white_offsets)
}

/// The distinct leaps of `rays` as offsets for a colour (`sign` 1: White,
/// -1: Black), sorted.
fn oriented(rays: &[Ray], sign: i32) -> Vec<Offset> {
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
}

/// The lines of `rays` (crooked riders' leaps aside) for `white`'s colour.
fn lines_on_board(rays: &[Ray], bends: &[Bend], white: bool) -> Vec<BoardRay> {
    rays.iter()
        .filter(|r| r.crooked == 0)
        .map(|&r| BoardRay::new(r, bends, white))
        .collect()
}

/// The crooked riders among `rays` for `white`'s colour: their leaps
/// gathered by rider number.
fn crooked_riders(rays: &[Ray], bends: &[Bend], white: bool) -> Vec<CrookedRider> {
    let mut riders: Vec<CrookedRider> = Vec::new();
    let mut numbers: Vec<u32> = Vec::new();
    for ray in rays.iter().filter(|r| r.crooked != 0) {
        let leap = BoardRay::new(*ray, bends, white);
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
}
