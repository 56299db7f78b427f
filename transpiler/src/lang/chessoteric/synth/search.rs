//! The search: the fewest plies through the writing area that write a
//! window of values, planned window by window.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use super::area::{Area, Node};
use super::bound::Bound;
use super::targets::{Progress, Target, Written};
use super::{Ply, SynthError};

/// How many search states the searches of one machine expanded.
#[derive(Default)]
pub(super) struct Expanded(pub(super) u64);

/// How many targets each search plans for, and how many of them it keeps
/// before planning again from where they end: a long machine costs time
/// in proportion to its length, with little lost against planning it
/// whole (hello world: 123 plies instead of 121).
const WINDOW: usize = 12;
const KEEP: usize = 6;

/// How often a long synthesis reports its progress, in values.
const REPORT_EVERY: usize = 300;

/// Few plies from the area's first position that write every target: searches
/// over windows of [`WINDOW`] targets, keeping the first [`KEEP`] each time.
/// A long machine's progress goes to `report` every [`REPORT_EVERY`]
/// values.
pub(super) fn plan(
    area: &Area,
    targets: &[Target],
    expanded: &mut Expanded,
    report: &mut dyn FnMut(&str),
) -> Result<Vec<Ply>, SynthError> {
    let mut plies = Vec::new();
    let (mut done, mut at) = (0, 0);
    while done < targets.len() {
        if done > 0 && done % REPORT_EVERY < KEEP {
            report(&format!("planned {done} of {} values", targets.len()));
        }
        let window = &targets[done..targets.len().min(done + WINDOW)];
        let last = done + window.len() == targets.len();
        let keep = if last { window.len() } else { KEEP };
        let found = search(area, at, &Progress::new(window), expanded)?;
        let mut kept = 0;
        for (to, mut ply) in found {
            if let Some(written) = &mut ply.writes {
                kept += usize::from(written.completes);
                written.target += done;
            }
            at = to;
            plies.push(ply);
            if kept == keep {
                break;
            }
        }
        done += keep;
    }
    Ok(plies)
}

/// The fewest plies from area position `start` that write `progress`'s
/// targets: an A* search over (position, slot), with the larger of
/// [`Progress::lower_bound`] and [`Bound::estimate`] as its estimate (both
/// consistent: each ply lowers them by at most one), the states of each
/// estimated length taken deepest first; states from which the values
/// cannot be written are left out. Only the states reached are stored.
fn search(
    area: &Area,
    start: u32,
    progress: &Progress,
    expanded: &mut Expanded,
) -> Result<Vec<(u32, Ply)>, SynthError> {
    let slots = u64::from(progress.end) + 1;
    let nodes = &area.nodes;
    let state = |node: u32, slot: u32| u64::from(node) * slots + u64::from(slot);
    let most_bits = nodes
        .iter()
        .filter_map(|n| n.bits.map(|b| b.len))
        .max()
        .unwrap_or(1)
        .max(1);
    let lower: Vec<usize> = (0..=progress.end)
        .map(|slot| progress.lower_bound(slot, most_bits) as usize)
        .collect();
    let bound = Bound::new(area, progress);
    let estimate_of = |node: u32, slot: u32| {
        let estimate = bound.estimate(node, slot)? as usize;
        Some(estimate.max(lower[slot as usize]))
    };
    let first = state(start, 0);
    let mut reached: States = HashMap::with_hasher(Mix);
    reached.insert(first, Reached::new(first, (0, false), 0));
    // Open states by plies + lower bound: (state, plies).
    let mut estimate = estimate_of(start, 0).ok_or(SynthError::NoPlan)?;
    let mut open: Vec<Vec<(u64, u16)>> = vec![Vec::new(); estimate + 1];
    open[estimate].push((first, 0));
    let mut found = None;
    'search: while estimate < open.len() {
        while let Some((here, plies)) = open[estimate].pop() {
            match reached.get_mut(&here) {
                Some(entry) if !entry.expanded && entry.depth == plies => entry.expanded = true,
                _ => continue,
            }
            expanded.0 += 1;
            let (node, slot) = ((here / slots) as u32, (here % slots) as u32);
            if slot == progress.end {
                found = Some(here);
                break 'search;
            }
            let after = plies.saturating_add(1);
            for (number, &(_, to)) in nodes[node as usize].moves.iter().enumerate() {
                let written = nodes[to as usize]
                    .bits
                    .and_then(|bits| progress.advance(slot, bits));
                let steps = written
                    .map(|(next, _)| (next, true))
                    .into_iter()
                    .chain([(slot, false)]);
                for (next_slot, annotated) in steps {
                    let there = state(to, next_slot);
                    let via = (number as u16, annotated);
                    let rest = match reached.entry(there) {
                        Entry::Occupied(mut entry) => {
                            let known = entry.get_mut();
                            if known.expanded || after >= known.depth {
                                continue;
                            }
                            (known.from, known.via, known.depth) = (here, via, after);
                            known.rest
                        }
                        Entry::Vacant(entry) => {
                            let rest = estimate_of(to, next_slot).map_or(CANNOT, |r| r as u32);
                            let mut reached = Reached::new(here, via, after);
                            reached.rest = rest;
                            entry.insert(reached);
                            rest
                        }
                    };
                    if rest == CANNOT {
                        continue;
                    }
                    let rest = rest as usize;
                    let estimated = after as usize + rest;
                    if open.len() <= estimated {
                        open.resize_with(estimated + 1, Vec::new);
                    }
                    open[estimated].push((there, after));
                }
            }
        }
        estimate += 1;
    }
    let found = found.ok_or(SynthError::NoPlan)?;
    path(nodes, progress, &reached, slots, (first, found))
}

/// A state's estimate when the values cannot be written from it.
const CANNOT: u32 = u32::MAX;

/// How the search reached a state.
struct Reached {
    /// The state it was reached from.
    from: u64,
    /// The move (its index in that state's node's list) that reached it,
    /// and whether that ply was annotated.
    via: (u16, bool),
    /// The fewest plies it was reached in.
    depth: u16,
    /// Whether it was expanded (its depth is then final).
    expanded: bool,
    /// Its estimate of the plies left ([`CANNOT`]: the values cannot be
    /// written from it).
    rest: u32,
}

impl Reached {
    fn new(from: u64, via: (u16, bool), depth: u16) -> Reached {
        Reached {
            from,
            via,
            depth,
            expanded: false,
            rest: CANNOT,
        }
    }
}

/// The states reached, by number: with `slots` slots, state `s` is node
/// `s / slots` at slot `s % slots`.
type States = HashMap<u64, Reached, Mix>;

/// A quick hash for state numbers (no attacker chooses them).
#[derive(Clone, Copy, Default)]
struct Mix;

impl BuildHasher for Mix {
    type Hasher = MixHasher;
    fn build_hasher(&self) -> MixHasher {
        MixHasher(0)
    }
}

/// [`Mix`]'s hasher: a multiply and a shift of the state number.
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        let mixed = self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        mixed ^ (mixed >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 << 8) ^ u64::from(byte);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

/// The plies from state `ends.0` to state `ends.1`, as the search reached
/// them.
fn path(
    nodes: &[Node],
    progress: &Progress,
    reached: &States,
    slots: u64,
    (first, found): (u64, u64),
) -> Result<Vec<(u32, Ply)>, SynthError> {
    let mut at = found;
    let mut plies = Vec::new();
    while at != first {
        let entry = reached.get(&at).ok_or(SynthError::NoPlan)?;
        let (before, (number, annotated)) = (entry.from, entry.via);
        let (node, slot) = ((before / slots) as usize, (before % slots) as u32);
        let (m, to) = &nodes[node].moves[number as usize];
        let writes = match (annotated, nodes[*to as usize].bits) {
            (true, Some(bits)) => {
                Some(Written::at(progress, slot, bits).ok_or(SynthError::NoPlan)?)
            }
            _ => None,
        };
        plies.push((*to, Ply { m: *m, writes }));
        at = before;
    }
    plies.reverse();
    Ok(plies)
}
