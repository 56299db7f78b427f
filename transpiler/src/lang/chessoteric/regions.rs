//! The states of a Turing machine grouped into regions whose transitions
//! the code generator writes as direct jumps (labelled loops and blocks).
//!
//! A region is entered at one state, its *root*, through the dispatch on
//! the state; every other state in it is reached only from inside it. The
//! roots are state 0 and any state that would otherwise break that shape:
//!
//! - a state reached from two roots without passing another root;
//! - the target of a transition that returns to a state which does not
//!   dominate it (the region's flow graph would be irreducible, which
//!   loops and blocks cannot express);
//! - a state where a region grows past [`REGION_WEIGHT`] rules (in
//!   reverse postorder), so that the functions of a large machine stay
//!   small and shallow.
//!
//! Each of these only adds roots, so finding them ends; after
//! [`MAX_ROUNDS`] rounds every state becomes a root (each then is a region
//! of its own: one dispatch per transition, the code of old).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::ir::Rule;

/// The most rules a region holds (about): larger machines are cut into
/// regions of this size, which the splitting of large programs then puts
/// into functions. Also bounds how deeply the states' code nests.
pub const REGION_WEIGHT: usize = 64;

/// How deeply a region's states nest in its dominator tree (so in the
/// code: each level is a block or loop inside the one above, and the code
/// generator recurses once a level): a state this deep starts a region of
/// its own, so a long chain of states cannot exhaust the stack of the
/// compiler or of the macro.
pub const MAX_NESTING: usize = 16;

/// How many rounds of adding roots are tried before every state becomes
/// a root.
pub const MAX_ROUNDS: usize = 8;

/// The regions of a machine, by root.
pub struct Regions {
    regions: Vec<Region>,
}

/// One region: its states in reverse postorder from the root (node 0),
/// with the facts its code needs.
pub struct Region {
    /// The state of each node.
    states: Vec<i64>,
    /// The node of each state.
    nodes: HashMap<i64, usize>,
    /// Whether a transition returns to the node (it is then a loop).
    headers: Vec<bool>,
    /// Whether two or more forward transitions reach the node.
    merges: Vec<bool>,
    /// The nodes each node immediately dominates.
    children: Vec<Vec<usize>>,
    /// For loop headers and the root: the most steps run from there
    /// before the next check (a loop header, leaving the region).
    budgets: Vec<u64>,
    /// How many rules each node's state has.
    rule_counts: Vec<usize>,
    /// How many rules its states have.
    weight: usize,
}

/// How the code of a transition reaches its target inside a region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// Back to a loop header: `continue` its loop.
    Back,
    /// Forward to a state several transitions reach: `break` the block
    /// it follows.
    Merge,
    /// Forward to a state only this transition reaches: its code goes
    /// here.
    Inline,
}

/// How the transition from `from` to `to` (nodes of `region`) is written.
pub fn edge(region: &Region, from: usize, to: usize) -> Edge {
    if to <= from {
        Edge::Back
    } else if region.merges[to] {
        Edge::Merge
    } else {
        Edge::Inline
    }
}

/// The states `rules` of `state` can go to that have rules themselves
/// (the others halt, or are the input and output states).
fn successors<'a>(
    by_state: &'a BTreeMap<i64, Vec<&Rule>>,
    state: i64,
) -> impl Iterator<Item = i64> + 'a {
    by_state
        .get(&state)
        .into_iter()
        .flatten()
        .map(|rule| rule.rule.next)
        .filter(|next| by_state.contains_key(next))
}

impl Regions {
    /// The regions of the machine whose rules, by state, are `by_state`
    /// (input and output states left out).
    pub fn new(by_state: &BTreeMap<i64, Vec<&Rule>>) -> Self {
        let mut roots: BTreeSet<i64> = BTreeSet::new();
        if by_state.contains_key(&0) {
            roots.insert(0);
        }
        for _ in 0..MAX_ROUNDS {
            let shared = shared_states(by_state, &roots);
            if !shared.is_empty() {
                roots.extend(shared);
                continue;
            }
            let mut more = BTreeSet::new();
            let regions: Vec<Region> = roots
                .iter()
                .filter_map(|&root| match Region::build(by_state, &roots, root) {
                    Ok(region) => {
                        more.extend(region.cuts());
                        Some(region)
                    }
                    Err(entry) => {
                        more.insert(entry);
                        None
                    }
                })
                .collect();
            if more.is_empty() {
                return Regions { regions };
            }
            roots.extend(more);
        }
        let roots: BTreeSet<i64> = by_state.keys().copied().collect();
        let regions = roots
            .iter()
            .filter_map(|&root| Region::build(by_state, &roots, root).ok())
            .collect();
        Regions { regions }
    }

    /// The regions in increasing order of their roots.
    pub fn iter(&self) -> impl Iterator<Item = &Region> {
        self.regions.iter()
    }
}

/// The states (not roots) that two roots reach without passing a root.
fn shared_states(by_state: &BTreeMap<i64, Vec<&Rule>>, roots: &BTreeSet<i64>) -> BTreeSet<i64> {
    let mut owner: HashMap<i64, i64> = HashMap::new();
    let mut shared = BTreeSet::new();
    for &root in roots {
        let mut stack = vec![root];
        while let Some(state) = stack.pop() {
            for next in successors(by_state, state) {
                if roots.contains(&next) {
                    continue;
                }
                match owner.get(&next) {
                    None => {
                        owner.insert(next, root);
                        stack.push(next);
                    }
                    Some(&other) if other != root => {
                        shared.insert(next);
                    }
                    Some(_) => {}
                }
            }
        }
    }
    shared
}

impl Region {
    /// The region of `root`: the states it reaches without passing
    /// another root. Fails with a state that must become a root if its
    /// flow graph is irreducible.
    fn build(
        by_state: &BTreeMap<i64, Vec<&Rule>>,
        roots: &BTreeSet<i64>,
        root: i64,
    ) -> Result<Self, i64> {
        let inside = |next: i64| next == root || !roots.contains(&next);
        // Depth-first postorder, iteratively: (state, successors left).
        let mut postorder: Vec<i64> = Vec::new();
        let mut seen: BTreeSet<i64> = BTreeSet::from([root]);
        let mut stack: Vec<(i64, Vec<i64>)> = vec![(root, successor_list(by_state, root))];
        while let Some((state, pending)) = stack.last_mut() {
            let state = *state;
            match pending.pop() {
                Some(next) => {
                    if inside(next) && seen.insert(next) {
                        stack.push((next, successor_list(by_state, next)));
                    }
                }
                None => {
                    postorder.push(state);
                    stack.pop();
                }
            }
        }
        let states: Vec<i64> = postorder.into_iter().rev().collect();
        let nodes: HashMap<i64, usize> = states
            .iter()
            .enumerate()
            .map(|(node, &state)| (state, node))
            .collect();
        let count = states.len();
        // Edges by node, one per rule (two rules to one state are two).
        let edges: Vec<Vec<usize>> = states
            .iter()
            .map(|&state| {
                successors(by_state, state)
                    .filter(|&next| inside(next))
                    .filter_map(|next| nodes.get(&next).copied())
                    .collect()
            })
            .collect();
        let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); count];
        for (from, targets) in edges.iter().enumerate() {
            for &to in targets {
                predecessors[to].push(from);
            }
        }
        let idom = dominators(&predecessors);
        let mut children: Vec<Vec<usize>> = vec![Vec::new(); count];
        for node in 1..count {
            children[idom[node]].push(node);
        }
        let (enter, leave) = dominator_intervals(&children);
        let dominates = |a: usize, b: usize| enter[a] <= enter[b] && leave[b] <= leave[a];
        let mut headers = vec![false; count];
        let mut forward = vec![0usize; count];
        for (from, targets) in edges.iter().enumerate() {
            for &to in targets {
                if to <= from {
                    if !dominates(to, from) {
                        return Err(states[to]);
                    }
                    headers[to] = true;
                } else {
                    forward[to] += 1;
                }
            }
        }
        let merges = forward.iter().map(|&count| count >= 2).collect();
        let rule_counts: Vec<usize> = states.iter().map(|state| by_state[state].len()).collect();
        let weight = rule_counts.iter().sum();
        let mut region = Region {
            states,
            nodes,
            headers,
            merges,
            children,
            budgets: Vec::new(),
            rule_counts,
            weight,
        };
        region.budgets = region.longest_stretches(&edges);
        Ok(region)
    }

    /// For each node, the most steps run from its rules up to the next
    /// check: a loop header, or leaving the region (forward transitions
    /// go to higher nodes, so one pass from the last node counts them).
    fn longest_stretches(&self, edges: &[Vec<usize>]) -> Vec<u64> {
        let mut longest = vec![1u64; self.states.len()];
        for node in (0..self.states.len()).rev() {
            let after = edges[node]
                .iter()
                .filter(|&&to| to > node && !self.headers[to])
                .map(|&to| longest[to])
                .max()
                .unwrap_or(0);
            longest[node] = 1 + after;
        }
        longest
    }

    /// States where this region should be cut to stay within
    /// [`REGION_WEIGHT`] rules and [`MAX_NESTING`] levels.
    fn cuts(&self) -> Vec<i64> {
        let mut cuts = Vec::new();
        // Depths in the dominator tree, parents first.
        let mut depths = vec![0usize; self.states.len()];
        let mut stack = vec![0usize];
        while let Some(node) = stack.pop() {
            for &child in &self.children[node] {
                depths[child] = depths[node] + 1;
                if depths[child] == MAX_NESTING {
                    cuts.push(self.states[child]);
                } else {
                    stack.push(child);
                }
            }
        }
        if self.weight <= REGION_WEIGHT {
            return cuts;
        }
        let mut weight = 0;
        for (&state, &rules) in self.states.iter().zip(&self.rule_counts) {
            if weight > 0 && weight + rules > REGION_WEIGHT {
                cuts.push(state);
                weight = 0;
            }
            weight += rules;
        }
        cuts
    }

    /// The state the region is entered at.
    pub fn root(&self) -> i64 {
        self.states[0]
    }

    /// How many rules the region's states have.
    pub fn weight(&self) -> usize {
        self.weight
    }

    /// The state of `node`.
    pub fn state(&self, node: usize) -> i64 {
        self.states[node]
    }

    /// The node of `state`, if the region holds it.
    pub fn node(&self, state: i64) -> Option<usize> {
        self.nodes.get(&state).copied()
    }

    /// Whether a transition returns to `node` (its code is then a loop).
    pub fn is_header(&self, node: usize) -> bool {
        self.headers[node]
    }

    /// The states `node` dominates that several forward transitions
    /// reach, highest first in reverse postorder.
    pub fn merge_children(&self, node: usize) -> Vec<usize> {
        let mut merges: Vec<usize> = self.children[node]
            .iter()
            .copied()
            .filter(|&child| self.merges[child])
            .collect();
        merges.sort_unstable_by(|a, b| b.cmp(a));
        merges
    }

    /// The most steps the code of `node` and of the states it runs into
    /// may take before the next check of the steps allowed.
    pub fn budget(&self, node: usize) -> u64 {
        self.budgets[node]
    }
}

/// The targets of `state`'s rules in reverse order (a stack pops them in
/// rule order).
fn successor_list(by_state: &BTreeMap<i64, Vec<&Rule>>, state: i64) -> Vec<i64> {
    let mut list: Vec<i64> = successors(by_state, state).collect();
    list.reverse();
    list
}

/// Immediate dominators of nodes numbered in reverse postorder from node
/// 0 (Cooper, Harvey and Kennedy's iterative algorithm).
fn dominators(predecessors: &[Vec<usize>]) -> Vec<usize> {
    let count = predecessors.len();
    let mut idom: Vec<Option<usize>> = vec![None; count];
    if count > 0 {
        idom[0] = Some(0);
    }
    let mut changed = true;
    while changed {
        changed = false;
        for node in 1..count {
            let mut new = None;
            for &pred in &predecessors[node] {
                if idom[pred].is_none() {
                    continue;
                }
                new = Some(match new {
                    None => pred,
                    Some(other) => intersect(&idom, pred, other),
                });
            }
            if new.is_some() && new != idom[node] {
                idom[node] = new;
                changed = true;
            }
        }
    }
    // Every node is reachable from node 0, so each has a dominator.
    idom.into_iter().map(|d| d.unwrap_or(0)).collect()
}

/// The nearest common dominator of `a` and `b`.
fn intersect(idom: &[Option<usize>], mut a: usize, mut b: usize) -> usize {
    while a != b {
        while a > b {
            a = idom[a].unwrap_or(0);
        }
        while b > a {
            b = idom[b].unwrap_or(0);
        }
    }
    a
}

/// When the depth-first walk of the dominator tree from node 0 enters and
/// leaves each node: `a` dominates `b` exactly when `b`'s interval lies in
/// `a`'s.
fn dominator_intervals(children: &[Vec<usize>]) -> (Vec<usize>, Vec<usize>) {
    let count = children.len();
    let (mut enter, mut leave) = (vec![0; count], vec![0; count]);
    if count == 0 {
        return (enter, leave);
    }
    let mut clock = 0;
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    enter[0] = clock;
    while let Some((node, next_child)) = stack.last_mut() {
        let node = *node;
        if let Some(&child) = children[node].get(*next_child) {
            *next_child += 1;
            clock += 1;
            enter[child] = clock;
            stack.push((child, 0));
        } else {
            clock += 1;
            leave[node] = clock;
            stack.pop();
        }
    }
    (enter, leave)
}
