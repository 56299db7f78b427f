//! The search: the fewest plies through the writing area that write a
//! window of values, planned window by window.

use super::super::chess::Move;
use super::super::syntax::Annotation;
use super::area::Node;
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
    nodes: &[Node],
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
        let found = search(nodes, at, &Progress::new(window), budget)?;
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
/// targets: an A* search over (position, slot), with
/// [`Progress::lower_bound`] as its estimate (consistent: each ply lowers
/// it by at most one), the states of each estimated length taken deepest
/// first.
fn search(
    nodes: &[Node],
    start: u32,
    progress: &Progress,
    budget: &mut Budget,
) -> Result<Vec<Ply>, SynthError> {
    const UNSEEN: u32 = u32::MAX;
    let slots = progress.end as usize + 1;
    let state = |node: u32, slot: u32| node as usize * slots + slot as usize;
    let most_bits = nodes
        .iter()
        .filter_map(|n| n.bits.map(|b| b.len))
        .max()
        .unwrap_or(1)
        .max(1);
    let lower: Vec<usize> = (0..=progress.end)
        .map(|slot| progress.lower_bound(slot, most_bits) as usize)
        .collect();
    // For each reached state: the state before it, the move (index in its
    // node's list) and whether that ply was annotated, its fewest plies
    // found so far, and whether it was expanded.
    let mut came_from: Vec<u32> = vec![UNSEEN; nodes.len() * slots];
    let mut via: Vec<(u16, bool)> = vec![(0, false); nodes.len() * slots];
    let mut depth: Vec<u16> = vec![u16::MAX; nodes.len() * slots];
    let mut expanded = vec![false; nodes.len() * slots];
    let first = state(start, 0);
    came_from[first] = first as u32;
    depth[first] = 0;
    // Open states by plies + lower bound: (state, plies).
    let mut open: Vec<Vec<(u32, u16)>> = vec![Vec::new(); lower[0] + 1];
    open[lower[0]].push((first as u32, 0));
    let mut found = None;
    let mut estimate = lower[0];
    'search: while estimate < open.len() {
        while let Some((here, plies)) = open[estimate].pop() {
            let here = here as usize;
            if expanded[here] || depth[here] != plies {
                continue;
            }
            expanded[here] = true;
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
                    if expanded[there] || after >= depth[there] {
                        continue;
                    }
                    depth[there] = after;
                    came_from[there] = here as u32;
                    via[there] = (number as u16, annotated);
                    let estimated = after as usize + lower[next_slot as usize];
                    if open.len() <= estimated {
                        open.resize_with(estimated + 1, Vec::new);
                    }
                    open[estimated].push((there as u32, after));
                }
            }
        }
        estimate += 1;
    }
    let found = found.ok_or(SynthError::NoPlan)?;
    let states = States {
        slots,
        came_from: &came_from,
        via: &via,
    };
    path(nodes, progress, &states, first, found)
}

/// The search's record of how it reached each state: with `slots` slots,
/// state `s` is node `s / slots` at slot `s % slots`.
struct States<'a> {
    slots: usize,
    /// The state each state was reached from.
    came_from: &'a [u32],
    /// The move (its index in the node's list) that reached each state,
    /// and whether that ply was annotated.
    via: &'a [(u16, bool)],
}

/// The plies from state `first` to state `found`, as the search reached
/// them.
fn path(
    nodes: &[Node],
    progress: &Progress,
    states: &States,
    first: usize,
    found: usize,
) -> Result<Vec<Ply>, SynthError> {
    let slots = states.slots;
    let mut at = found;
    let mut plies = Vec::new();
    while at != first {
        let before = states.came_from[at] as usize;
        let (number, annotated) = states.via[at];
        let (node, slot) = (before / slots, (before % slots) as u32);
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
