//! The board: cells, the pieces that attack in lists per colour, and an
//! incremental record of which royal pieces are attacked. Its parts:
//! what each piece type attacks ([`kinds`]), the piece lists
//! ([`pieces`]), attacks and the count of attacked royal pieces
//! ([`attacks`]), flood fills ([`flood`]) and the compiler's listed paths
//! ([`listed`]).
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

mod attacks;
mod flood;
mod kinds;
mod listed;
mod pieces;

use self::attacks::AttackCount;
pub(super) use self::flood::Flood;
use self::kinds::{kind_facts, KindFacts, Offset};
pub(super) use self::listed::Allowed;
use self::pieces::{Placed, NO_SLOT};
use super::rules::{Cell, Rules, Square};
use super::Point;

/// The board: cells, piece lists per colour, and what it knows about
/// attacks on royal pieces (see the module documentation).
#[derive(Clone, Debug)]
pub struct Board {
    cells: Vec<Cell>,
    rows: u32,
    cols: u32,
    /// Each colour's listed pieces (white first): those that attack along
    /// lines or by a search.
    listed: [Vec<Placed>; 2],
    /// Each colour's royal pieces.
    royals: [Vec<Placed>; 2],
    /// Per cell: its index in `listed` (and in `royals` for royal pieces).
    slots: Vec<(u32, u32)>,
    /// Per colour: how many of its royal pieces are attacked, and whether
    /// that must be counted again.
    attacked: [AttackCount; 2],
    /// Per colour: how many of its pieces attack by exploring the board
    /// (crooked riders' flood fills, searches); none, and a count skips
    /// that pass.
    explorers: [u32; 2],
    /// Per piece type: what the board needs to know about it.
    kinds: Vec<KindFacts>,
    /// Per attacking colour: the distinct offsets from a mapped piece to
    /// the squares it attacks (the union over mapped piece types).
    mapped_offsets: [Vec<Offset>; 2],
    /// Per cell: its (row, column), so that no move divides.
    points: Vec<Point>,
    /// Per cell: bit 0 (1) set when a change there may change whether
    /// White's (Black's) royal pieces are attacked.
    watch: Vec<u8>,
    /// Per colour: the cells whose watch bit for it is set.
    watched: [Vec<Square>; 2],
    /// Per king direction ([`unit_direction`]) and cell: how many squares
    /// in a row after it, that way, are not holes (up to the board's edge).
    /// Holes never change, so a line that must cross a hole is blocked for
    /// good: no walk, nothing to watch.
    hole_free: [Vec<u32>; 8],
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

/// The index of a colour in per-colour arrays: white 0, black 1.
pub(super) fn side(white: bool) -> usize {
    usize::from(!white)
}

impl Board {
    /// The board of `cells` (row 0 first) for the piece types of `rules`.
    pub(super) fn new(rules: &Rules, cells: &[Cell]) -> Board {
        let (kinds, white_offsets) = kind_facts(rules);
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

    /// The cells, row 0 (the bottom row) first.
    pub(super) fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// How many royal pieces `white` has on the board.
    pub(super) fn royal_count(&self, white: bool) -> usize {
        self.royals[side(white)].len()
    }

    /// The cell on `square`.
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

    /// The owner's rank of row `row`: 1 is the owner's nearest row.
    fn rank_of_row(&self, row: u32, white: bool) -> i64 {
        if white {
            i64::from(row) + 1
        } else {
            i64::from(self.rows) - i64::from(row)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::kinds::unit_direction;
    use super::*;

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
