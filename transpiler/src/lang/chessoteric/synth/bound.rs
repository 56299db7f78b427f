//! The search's lower bound: how many plies at least are left from an area
//! position with some of the values written.
//!
//! Per area (once): the distinct *readings* (the bits a position writes
//! when annotated), and for each position and reading the fewest plies
//! from the position to one with that reading. Per window of values: for
//! each slot, the readings that make progress from it, and for each of
//! them the fewest plies that can follow once it is written — each later
//! value needs at least the distance, from some position reading what was
//! written last, to a position reading something that can come next. The
//! estimate of (position, slot) is the best, over the readings that make
//! progress, of the plies to reach one plus what must follow it. Only the
//! position a reading is read at is forgotten, so the estimate counts the
//! moves between annotations as well as the annotations.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::area::{Area, Node};
use super::targets::{Bits, Progress};

/// A distance that cannot be covered (no position with the reading can be
/// reached).
const FAR: u8 = u8::MAX;

/// The area's readings, and the distances to each, worked out the first
/// time a search needs them (a machine needs few of the readings).
pub(super) struct Readings {
    /// The distinct readings of the area.
    readings: Vec<Bits>,
    /// Each node's reading, if it has one.
    reading_of: Vec<Option<u16>>,
    /// For each node, the nodes with a move to it.
    before: Vec<Vec<u32>>,
    /// For each reading, the distances to it.
    columns: Vec<OnceLock<Column>>,
}

/// The distances to one reading.
struct Column {
    /// For each node: the fewest plies (at least one) from it to a
    /// position with the reading, or [`FAR`].
    from_node: Vec<u8>,
    /// For each reading: the fewest plies (at least one) from any position
    /// with that reading to one with this reading, or [`FAR`].
    from_reading: Vec<u8>,
}

impl Readings {
    /// The readings of `nodes`.
    pub(super) fn new(nodes: &[Node]) -> Readings {
        let mut index: HashMap<(u32, u64), u16> = HashMap::new();
        let mut readings = Vec::new();
        let reading_of: Vec<Option<u16>> = nodes
            .iter()
            .map(|node| {
                node.bits.map(|bits| {
                    *index.entry((bits.len, bits.value)).or_insert_with(|| {
                        readings.push(bits);
                        (readings.len() - 1) as u16
                    })
                })
            })
            .collect();
        let columns = readings.iter().map(|_| OnceLock::new()).collect();
        Readings {
            readings,
            reading_of,
            before: predecessors(nodes),
            columns,
        }
    }

    /// How many distinct readings the area has.
    pub(super) fn len(&self) -> usize {
        self.readings.len()
    }

    /// The distances to `reading` in the area of `nodes` (these
    /// readings'), by a breadth-first search backwards from the positions
    /// with that reading.
    fn column(&self, nodes: &[Node], reading: u16) -> &Column {
        self.columns[reading as usize].get_or_init(|| {
            // Plies (maybe none) from each node to one with the reading.
            let mut at = vec![FAR; nodes.len()];
            let mut queue = Vec::new();
            for (node, &read) in self.reading_of.iter().enumerate() {
                if read == Some(reading) {
                    at[node] = 0;
                    queue.push(node as u32);
                }
            }
            let mut next = 0;
            while let Some(&node) = queue.get(next) {
                next += 1;
                let plies = at[node as usize].saturating_add(1);
                for &from in &self.before[node as usize] {
                    if at[from as usize] == FAR && plies < FAR {
                        at[from as usize] = plies;
                        queue.push(from);
                    }
                }
            }
            let from_node: Vec<u8> = nodes
                .iter()
                .map(|n| {
                    let nearest = n.moves.iter().map(|&(_, to)| at[to as usize]).min();
                    nearest.map_or(FAR, |plies| plies.saturating_add(1))
                })
                .collect();
            let mut from_reading = vec![FAR; self.readings.len()];
            for (&read, &plies) in self.reading_of.iter().zip(&from_node) {
                if let Some(read) = read {
                    let best = &mut from_reading[read as usize];
                    *best = (*best).min(plies);
                }
            }
            Column {
                from_node,
                from_reading,
            }
        })
    }
}

/// For each node, the nodes with a move to it.
fn predecessors(nodes: &[Node]) -> Vec<Vec<u32>> {
    let mut before = vec![Vec::new(); nodes.len()];
    for (from, node) in nodes.iter().enumerate() {
        for &(_, to) in &node.moves {
            before[to as usize].push(from as u32);
        }
    }
    before
}

/// The bound for one window of values.
pub(super) struct Bound<'a> {
    /// For each slot before the end: the distances to each reading that
    /// makes progress from it (and can lead to the end), with the fewest
    /// plies from a ply that reaches it (that ply included) to the end.
    progress: Vec<Vec<(&'a [u8], u32)>>,
}

impl<'a> Bound<'a> {
    /// The bound for `progress`'s values in `area`.
    pub(super) fn new(area: &'a Area, progress: &Progress) -> Bound<'a> {
        let readings = &area.readings;
        let end = progress.end as usize;
        // For each slot: each reading that makes progress, and the fewest
        // plies from a ply reaching it to the end (none if it cannot).
        let mut by_slot: Vec<Vec<(u16, Option<u32>)>> = vec![Vec::new(); end];
        // Progress only moves forwards: fill the slots from the last.
        for slot in (0..end).rev() {
            for (reading, &bits) in readings.readings.iter().enumerate() {
                let reading = reading as u16;
                let Some((next, _)) = progress.advance(slot as u32, bits) else {
                    continue;
                };
                let rest = match next as usize {
                    next if next == end => Some(1),
                    next => by_slot[next]
                        .iter()
                        .filter_map(|&(then, rest)| {
                            let column = readings.column(&area.nodes, then);
                            let plies = column.from_reading[reading as usize];
                            (plies != FAR).then_some(u32::from(plies) + rest?)
                        })
                        .min(),
                };
                by_slot[slot].push((reading, rest));
            }
        }
        let progress = by_slot
            .into_iter()
            .map(|choices| {
                choices
                    .into_iter()
                    .filter_map(|(reading, rest)| {
                        let column = readings.column(&area.nodes, reading);
                        Some((column.from_node.as_slice(), rest?))
                    })
                    .collect()
            })
            .collect();
        Bound { progress }
    }

    /// The fewest plies that can write the values from `slot` on, starting
    /// at `node`; `None` if they cannot be written from there. Consistent:
    /// one ply lowers it by at most one.
    pub(super) fn estimate(&self, node: u32, slot: u32) -> Option<u32> {
        let Some(choices) = self.progress.get(slot as usize) else {
            return Some(0);
        };
        choices
            .iter()
            .filter_map(|&(from_node, rest)| {
                let plies = from_node[node as usize];
                (plies != FAR).then(|| u32::from(plies) - 1 + rest)
            })
            .min()
    }
}
