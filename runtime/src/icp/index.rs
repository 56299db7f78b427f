//! The attack index: the occupied squares of every line, kept in order
//! for path and attack queries over any distance on large boards.

use std::collections::hash_map::Entry;
use std::collections::BTreeSet;
use std::ops::Bound::{Excluded, Unbounded};

use super::super::hash::FastMap;
use super::geometry::{Ray, Square, FAMILIES};

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
pub(super) struct LineIndex {
    pub(super) built: bool,
    lines: [FastMap<i128, Line>; 4],
    /// Squares emptied (`false`) or filled (`true`) since the last replay.
    pending: Vec<(Square, bool)>,
}

impl LineIndex {
    /// Notes that `sq` was filled or emptied; `pieces` is the board's size.
    #[inline(always)]
    pub(super) fn log(&mut self, sq: Square, filled: bool, pieces: usize, slack: usize) {
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
    pub(super) fn sync(&mut self, squares: &[Square]) {
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
    pub(super) fn nearest(&self, sq: Square, ray: Ray) -> Option<Square> {
        let (key, pos) = ray.family.locate(sq);
        let line = self.lines[ray.family.index()].get(&key)?;
        let other = line.next(pos, ray.increasing)?;
        Some(ray.family.square_at(key, other))
    }
}

#[cfg(test)]
mod tests {
    use super::super::geometry::RAYS;
    use super::*;

    #[test]
    fn a_line_grows_into_a_tree_and_shrinks_back_in_order() {
        let mut line = Line::Small(0, [0; SMALL_LINE]);
        for pos in [5, -3, 9, 0, 7, 1, 100, -50] {
            line.insert(pos);
        }
        assert!(matches!(line, Line::Large(_)));
        assert_eq!(line.next(1, true), Some(5));
        assert_eq!(line.next(1, false), Some(0));
        assert_eq!(line.next(100, true), None);
        for pos in [100, -50, 9, 7, 1] {
            assert!(!line.remove(pos));
        }
        assert!(matches!(line, Line::Small(3, _)), "back to the array");
        assert_eq!(line.next(-3, true), Some(0));
        assert_eq!(line.next(-3, false), None);
        for pos in [5, -3] {
            assert!(!line.remove(pos));
        }
        assert!(line.remove(0), "empty");
    }

    #[test]
    fn the_index_replays_its_log_and_rebuilds_after_dropping_it() {
        let sq = Square::new;
        let mut index = LineIndex::default();
        let mut squares = vec![sq(0, 0), sq(0, 4), sq(3, 3)];
        index.sync(&squares);
        assert_eq!(index.nearest(sq(0, 0), RAYS[0]), Some(sq(0, 4)));
        assert_eq!(index.nearest(sq(0, 0), RAYS[4]), Some(sq(3, 3)));
        // (0,4) moves to (0,2); the change waits in the log until a sync.
        squares[1] = sq(0, 2);
        index.log(sq(0, 4), false, squares.len(), 0);
        index.log(sq(0, 2), true, squares.len(), 0);
        index.sync(&squares);
        assert_eq!(index.nearest(sq(0, 0), RAYS[0]), Some(sq(0, 2)));
        assert_eq!(index.nearest(sq(0, 3), RAYS[1]), Some(sq(0, 2)));
        // A log longer than twice the board drops the index...
        for _ in 0..4 {
            index.log(sq(3, 3), false, squares.len(), 0);
            index.log(sq(3, 3), true, squares.len(), 0);
        }
        assert!(!index.built);
        // ...and the next sync builds it from the squares.
        squares.pop();
        index.sync(&squares);
        assert_eq!(index.nearest(sq(0, 0), RAYS[4]), None);
        assert_eq!(index.nearest(sq(0, 0), RAYS[0]), Some(sq(0, 2)));
    }
}
