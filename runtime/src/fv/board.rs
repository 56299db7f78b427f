//! The board: cells, piece lists per colour, and what it knows about
//! attacks on royal pieces.

use super::super::hash::FastSet;
use super::rules::{Cell, Path, PieceValue, Point, Rules, Square};
use super::search::captured_before;

/// The board: cells, the royal pieces of each colour in lists, and enough
/// about attacks that no test ever scans the whole board.
///
/// Attacks come two ways. A *mapped* piece — a leaper ([`Automaton::leaps`])
/// while the leaps of all mapped piece types stay within [`MAPPED_OFFSETS`]
/// distinct offsets — attacks by its landing squares alone: when one
/// arrives, the board tests its leaps against the enemy royal pieces, and
/// a royal piece is tested by looking back along each mapped offset for a
/// piece that leaps that way. Mapped pieces are in no list, so moving them
/// costs a few comparisons. Every other piece is *scanned*: it stays in a
/// per-colour list that the attack test walks (with a search where needed).
#[derive(Clone, Debug)]
pub struct Board {
    pub(super) cells: Vec<Cell>,
    pub(super) rows: u32,
    pub(super) cols: u32,
    /// Each colour's scanned pieces (white first).
    pub(super) scanned: [Vec<Placed>; 2],
    /// Each colour's royal pieces.
    pub(super) royals: [Vec<Placed>; 2],
    /// Per cell: its index in `scanned` (and in `royals` for royal pieces).
    pub(super) slots: Vec<(u32, u32)>,
    /// Per colour: none of its royal pieces is attacked, as far as the
    /// changes since that was last found can tell (see [`Board::set`]).
    pub(super) safe: [bool; 2],
    /// Per colour: how many of its scanned pieces are not leapers, whose
    /// attacks any change may open or block.
    pub(super) wanderers: [usize; 2],
    /// Per piece type: what the board needs to know about it.
    pub(super) kinds: Vec<KindFacts>,
    /// Per attacking colour: the distinct offsets from a mapped piece to
    /// the squares it attacks (the union over mapped piece types).
    pub(super) mapped_offsets: [Vec<Offset>; 2],
    /// Per cell: its (row, column), so that no move divides.
    pub(super) points: Vec<Point>,
}

/// The most distinct leap offsets the mapped piece types may have together
/// ([`Board`]): a royal piece's attack test looks back along each.
pub const MAPPED_OFFSETS: usize = 256;

/// A (row, column) offset in two's complement, so that one unsigned
/// comparison tests both edges of the board.
type Offset = (u32, u32);

/// What the board needs to know about a piece type.
#[derive(Clone, Debug)]
pub(super) struct KindFacts {
    pub(super) royal: bool,
    pub(super) leaper: bool,
    pub(super) mapped: bool,
    /// For mapped pieces: the leaps as offsets, for white and for black.
    pub(super) offsets: [Vec<Offset>; 2],
}

/// A piece in a piece list: where it stands (both ways) and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Placed {
    pub(super) square: Square,
    pub(super) at: Point,
    pub(super) kind: u16,
}

pub(super) const NO_SLOT: u32 = u32::MAX;

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

impl Board {
    pub(super) fn new(rules: &Rules, cells: &[Cell]) -> Board {
        let mut union: FastSet<Offset> = FastSet::default();
        let kinds = rules
            .automata
            .iter()
            .zip(rules.values)
            .map(|(automaton, &value)| {
                let oriented = |sign: i32| -> Vec<Offset> {
                    let mut offsets: Vec<Offset> = automaton
                        .leaps
                        .unwrap_or(&[])
                        .iter()
                        .map(|&(f, r)| (f.wrapping_mul(sign) as u32, r.wrapping_mul(sign) as u32))
                        .collect();
                    offsets.sort_unstable();
                    offsets.dedup();
                    offsets
                };
                let white = oriented(1);
                let fresh = white.iter().filter(|o| !union.contains(*o)).count();
                let mapped = automaton.leaps.is_some() && union.len() + fresh <= MAPPED_OFFSETS;
                if mapped {
                    union.extend(white.iter().copied());
                }
                KindFacts {
                    royal: value == PieceValue::Royal,
                    leaper: automaton.leaps.is_some(),
                    mapped,
                    offsets: if mapped {
                        [white, oriented(-1)]
                    } else {
                        [Vec::new(), Vec::new()]
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
        let mut board = Board {
            cells: vec![Cell::Empty; cells.len()],
            rows: rules.rows,
            cols: rules.cols,
            scanned: [Vec::new(), Vec::new()],
            royals: [Vec::new(), Vec::new()],
            slots: vec![(NO_SLOT, NO_SLOT); cells.len()],
            safe: [false; 2],
            wanderers: [0; 2],
            kinds,
            mapped_offsets: [white_offsets, black_offsets],
            points: (0..cells.len() as Square).map(|s| rules.point(s)).collect(),
        };
        for (square, &cell) in cells.iter().enumerate() {
            board.set(square as Square, cell);
        }
        board
    }

    pub(super) fn get(&self, square: Square) -> Cell {
        self.cells[square as usize]
    }

    /// Puts `cell` on `square`, keeping the lists up to date, and forgets
    /// that a side is safe when the change can matter: one of its royal
    /// pieces came or went, a scanned enemy piece arrived, a mapped one
    /// arrived a leap away from one of its royal pieces, or the enemy has
    /// scanned pieces that are not leapers (whose paths the change may
    /// open). A leaper attacks by its landing square alone, so other changes
    /// cannot put a royal piece in its reach.
    #[inline]
    pub(super) fn set(&mut self, square: Square, cell: Cell) {
        let index = square as usize;
        if let Cell::Piece { kind, white } = self.cells[index] {
            let facts = &self.kinds[usize::from(kind)];
            // A mapped piece that is not royal is in no list.
            if !facts.mapped || facts.royal {
                self.lift(index, kind, white);
            }
        }
        self.cells[index] = cell;
        if let Cell::Piece { kind, white } = cell {
            self.drop_on(index, kind, white);
        }
        if self.wanderers[0] > 0 {
            self.safe[1] = false;
        }
        if self.wanderers[1] > 0 {
            self.safe[0] = false;
        }
    }

    /// Takes the piece on cell `index` out of the lists.
    #[inline(never)]
    fn lift(&mut self, index: usize, kind: u16, white: bool) {
        let colour = side(white);
        let facts = &self.kinds[usize::from(kind)];
        let (royal, mapped, leaper) = (facts.royal, facts.mapped, facts.leaper);
        let (scanned_slot, royal_slot) = self.slots[index];
        if !mapped {
            if !leaper {
                self.wanderers[colour] -= 1;
            }
            remove_at(
                &mut self.scanned[colour],
                &mut self.slots,
                scanned_slot,
                true,
            );
        }
        if royal {
            self.safe[colour] = false;
            remove_at(&mut self.royals[colour], &mut self.slots, royal_slot, false);
        }
        self.slots[index] = (NO_SLOT, NO_SLOT);
    }

    /// Enters the piece now on cell `index` in the lists (or tests its
    /// leaps against the enemy royal pieces).
    fn drop_on(&mut self, index: usize, kind: u16, white: bool) {
        let colour = side(white);
        let facts = &self.kinds[usize::from(kind)];
        let at = self.points[index];
        let enemy = side(!white);
        if facts.mapped
            && self.safe[enemy]
            && self.royals[enemy]
                .iter()
                .any(|royal| facts.offsets[colour].contains(&offset_between(at, royal.at)))
        {
            self.safe[enemy] = false;
        }
        let (royal, mapped, leaper) = (facts.royal, facts.mapped, facts.leaper);
        let placed = Placed {
            square: index as Square,
            at,
            kind,
        };
        if !mapped {
            if !leaper {
                self.wanderers[colour] += 1;
            }
            self.safe[side(!white)] = false;
            let list = &mut self.scanned[colour];
            self.slots[index].0 = list.len() as u32;
            list.push(placed);
        }
        if royal {
            self.safe[colour] = false;
            let list = &mut self.royals[colour];
            self.slots[index].1 = list.len() as u32;
            list.push(placed);
        }
    }

    /// Whether a mapped piece of colour `by_white` leaps to `target`: looks
    /// back along every mapped offset.
    pub(super) fn mapped_attack(&self, target: Point, by_white: bool) -> bool {
        let colour = side(by_white);
        self.mapped_offsets[colour].iter().any(|&(row, col)| {
            let back = (row.wrapping_neg(), col.wrapping_neg());
            let Some(from) = offset_point(target, back, self.rows, self.cols) else {
                return false;
            };
            match self.cells[(from.row * self.cols + from.col) as usize] {
                Cell::Piece { kind, white } if white == by_white => {
                    let facts = &self.kinds[usize::from(kind)];
                    facts.mapped && facts.offsets[colour].binary_search(&(row, col)).is_ok()
                }
                _ => false,
            }
        })
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

impl Board {
    /// Whether a compiler-found path can be taken on this board by a piece
    /// of `white`'s colour (occupancy, holes in crooked repetitions, `x`,
    /// `c` and `m`).
    pub(super) fn allows(&self, path: &Path, white: bool) -> bool {
        let mut captures = false;
        let mut ends_capturing = false;
        let last = path.steps.len().saturating_sub(1);
        for (i, step) in path.steps.iter().enumerate() {
            let cell = match self.get(step.square) {
                Cell::Piece { .. } if captured_before(&path.steps[..i], step.square) => Cell::Empty,
                cell => cell,
            };
            let enemy = match cell {
                Cell::Hole => {
                    if step.no_hole || step.capture {
                        return false;
                    }
                    false
                }
                Cell::Empty => {
                    if step.capture {
                        return false;
                    }
                    false
                }
                Cell::Piece { white: w, .. } => {
                    if w == white || !(step.capture || i == last) {
                        return false;
                    }
                    true
                }
            };
            captures |= enemy;
            ends_capturing = enemy;
        }
        !(path.must_capture && !ends_capturing || path.no_capture && captures)
    }
}
