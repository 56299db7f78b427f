//! The search: the fewest plies through the writing area that write a
//! window of values, planned window by window.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasher, Hasher};

use super::super::chess::Move;
use super::super::syntax::Annotation;
use super::area::{Area, Node};
use super::bound::Bound;
use super::targets::{Progress, Target};
use super::SynthError;

/// How many search states a synthesis may still expand: the searches of
/// one machine share it, so that a design whose area is large gives up
/// (deterministically) on a machine it would take too long to write.
pub(super) struct Budget {
    /// States left, if limited.
    left: Option<u64>,
    /// States expanded so far.
    pub(super) spent: u64,
}

impl Budget {
    pub(super) fn new(left: Option<u64>) -> Budget {
        Budget { left, spent: 0 }
    }

    /// Expands one state, or fails when none are left.
    fn spend(&mut self) -> Result<(), SynthError> {
        self.spent += 1;
        match &mut self.left {
            None => Ok(()),
            Some(0) => Err(SynthError::OverBudget),
            Some(left) => {
                *left -= 1;
                Ok(())
            }
        }
    }
}

/// The search states the king's-walk design may expand for one machine
/// under [`Design::Best`] before the corner design's game is kept.
pub(super) const KINGS_WALK_BUDGET: u64 = 60_000_000;

/// One planned ply.
#[derive(Clone, Debug)]
pub(super) struct Ply {
    pub(super) m: Move,
    /// The area position it leads to.
    pub(super) to: u32,
    /// If annotated: the annotation, the target it writes (an index into
    /// all targets) and whether it writes the target's last digits.
    pub(super) writes: Option<(Annotation, usize, bool)>,
}

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
    budget: &mut Budget,
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
        let found = search(area, at, &Progress::new(window), budget)?;
        let mut kept = 0;
        for mut ply in found {
            if let Some((_, target, completes)) = &mut ply.writes {
                kept += usize::from(*completes);
                *target += done;
            }
            at = ply.to;
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
    budget: &mut Budget,
) -> Result<Vec<Ply>, SynthError> {
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
            budget.spend()?;
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
) -> Result<Vec<Ply>, SynthError> {
    let mut at = found;
    let mut plies = Vec::new();
    while at != first {
        let entry = reached.get(&at).ok_or(SynthError::NoPlan)?;
        let (before, (number, annotated)) = (entry.from, entry.via);
        let (node, slot) = ((before / slots) as usize, (before % slots) as u32);
        let (m, to) = &nodes[node].moves[number as usize];
        let writes = match (annotated, nodes[*to as usize].bits) {
            (true, Some(bits)) => {
                let (next, annotation) = progress.advance(slot, bits).ok_or(SynthError::NoPlan)?;
                let target = progress.target_of[slot as usize];
                let completes = progress.target_of.get(next as usize) != Some(&target);
                Some((annotation, target as usize, completes))
            }
            _ => None,
        };
        plies.push(Ply {
            m: *m,
            to: *to,
            writes,
        });
        at = before;
    }
    plies.reverse();
    Ok(plies)
}
