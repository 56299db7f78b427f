//! The path search over a piece type's automaton, in the spec's notation
//! order: edges are tried in order (alternatives left to right, leap
//! vectors in the documented order), and for every repetition all paths of
//! one round come before any of two, two before three, and so on.
//!
//! The search is depth first, except at the end of a round: the node that
//! would start one more round ([`Edge::Loop`], [`Edge::Again`]) is queued
//! on the node where the repetition was entered ([`Edge::Enter`], its
//! *holder*), which takes the queued nodes one by one, in the order they
//! came, once everything below it is done. So a repetition's rounds are
//! searched breadth first (every node that starts round 2 before any that
//! starts round 3) while what comes after the repetition, and every choice
//! inside a round, stays depth first. A node is still visited once: the
//! first time a node is reached is by the path that comes first in that
//! order, and a later path through it goes on the same way with the same
//! effects.
//!
//! Attack tests only ask whether a path exists: they take every edge at
//! once, depth first.

mod follow;
mod node;
mod queue;

pub use self::node::MAX_EDGES;
use self::node::{
    Call, Frame, Mark, Memory, CAPTURED, EDGE_MASK, HERE_ENEMY, HERE_START, HOLDER, LEAPT,
    MUST_CAPTURE, NONE, NO_CAPTURE, PENDING_HOLE,
};
use super::super::hash::{FastMap, FastSet};
use super::super::memory::{self, Charged, Refused};
use super::automaton::{Automaton, UNBOUNDED};
use super::board::{Board, Flood};
use super::reach::Lines;
use super::repeat::{choice, Repetitions, OUTSIDE};
use super::rules::{Point, Rules, Square, Step};
use super::visited::NodeSet;

/// What a search is for.
#[derive(Clone, Copy, Debug)]
pub(super) struct Goal {
    pub(super) to: Point,
    /// The move line's promotion target (moves only).
    pub(super) promote: Option<u16>,
    /// An attack: the path must end capturing on `to` and land on no hole;
    /// promotion does not matter.
    pub(super) attack: bool,
}

/// Reusable buffers of the path search.
#[derive(Clone, Debug, Default)]
pub(super) struct Search {
    frames: Vec<Frame>,
    /// The landings of the paths searched, as a tree: a landing and the
    /// node before it (node 0 is the empty path).
    steps: Vec<(Step, u32)>,
    /// The nodes that start a further round, queued on their holder: the
    /// node and the next in the queue (entry 0 is unused).
    deferred: Vec<(Frame, u32)>,
    /// The holders' queues: the first and the last of their nodes in
    /// `deferred` (0: empty; entry 0 is unused).
    queues: Vec<(u32, u32)>,
    /// By a holder's index in `frames`: its queue in `queues` (0 or
    /// missing: none yet). Only a holder's entry means anything; one left
    /// by a holder popped before is an empty queue, which the next holder
    /// there takes over.
    holder_queues: Vec<u32>,
    /// The nodes' [`Mark`]s ([`Frame::mark`]; entry 0 is all zero).
    marks: Vec<Mark>,
    /// The keys of [`Search::on_path`] along the paths searched, as a
    /// tree: a key and the one before it (node 0 is none), so that a node
    /// taken from a queue can put back those of the rounds that led to it.
    chains: Vec<(NodeKey, u32)>,
    /// The path found last ([`Search::next`]).
    path: Vec<Step>,
    visited: NodeSet,
    /// The nodes of the current path that are inside a first round being
    /// recorded, by their key with the recording forgotten
    /// ([`Repetitions::shape`]): such a node is not entered twice on one
    /// path.
    on_path: Charged<FastSet<NodeKey>>,
    /// The `A*` repetitions open along the paths searched.
    repetitions: Repetitions,
    /// The first rounds of outermost `A*`s begun so far ([`Mark::round`]).
    rounds: u32,
    /// Effects so far as a trie: (parent, event) → child; 0 is "nothing".
    effects: Charged<FastMap<(u32, u32), u32>>,
    /// Open calls (0 stands for none), each once.
    calls: Vec<Call>,
    call_ids: Charged<FastMap<(u32, u16, u32), u32>>,
    kind: u16,
    white: bool,
    /// Board columns.
    cols: u32,
    /// This search remembers visited nodes ([`Automaton::memo`]).
    memo: bool,
    /// Further rounds wait in their holder's queue (moves); attack tests,
    /// which only ask whether a path exists, take them at once.
    ordered: bool,
    /// Whether to list in [`Search::reads`] every square whose cell the
    /// search looks at.
    record_reads: bool,
    /// The squares looked at since [`Search::record_reads_from_now`] (with
    /// repeats): the search's result depends on the board only through
    /// them.
    reads: Vec<Square>,
    /// The buffers of crooked riders' attack tests ([`Board`]'s).
    pub(super) flood: Flood,
    /// The lines the piece types' rider repetitions ride on: a node off
    /// every line through the goal is not searched.
    lines: Lines,
}

/// A search node as a key of [`Search::on_path`]: state and square; memory
/// and effects; piece types and calls; repetition context (its shape) and
/// the first round it is in ([`Mark::round`]).
type NodeKey = (u64, u64, u64, u64);

/// A search's node set is dropped instead of cleared when it grew past this
/// many entries, so that one big search does not slow down later small ones.
const KEEP_CAPACITY: usize = 1 << 12;

/// `a + b` for reaches ([`UNBOUNDED`] stays unbounded).
fn add_reach(a: u32, b: u32) -> u32 {
    if a == UNBOUNDED || b == UNBOUNDED {
        UNBOUNDED
    } else {
        a.saturating_add(b).min(UNBOUNDED - 1)
    }
}

impl Search {
    /// A search over the piece types of `rules`.
    pub(super) fn new(rules: &Rules) -> Search {
        Search {
            lines: Lines::new(rules.automata),
            ..Search::default()
        }
    }

    /// Starts a search of piece type `kind`'s paths from `from`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn start(
        &mut self,
        rules: &Rules,
        automaton: &Automaton,
        kind: u16,
        white: bool,
        from: Point,
        cols: u32,
    ) -> Result<(), Refused> {
        self.cols = cols;
        self.memo = automaton.memo;
        self.frames.clear();
        self.path.clear();
        // Entry 0 of the landings, the queued nodes, the queues, the chains
        // and the marks stands for "none"; it stays from one search to the
        // next.
        if self.marks.is_empty() {
            self.first_start(kind, from)?;
        }
        self.steps.truncate(1);
        // Only searches with further rounds queue nodes, and only recorded
        // repetitions add chains and marks: most searches reset none.
        if self.deferred.len() > 1 {
            self.deferred.truncate(1);
            self.queues.truncate(1);
            self.holder_queues.clear();
        }
        if self.chains.len() > 1 || self.marks.len() > 1 {
            self.chains.truncate(1);
            self.marks.truncate(1);
        }
        self.calls.clear();
        // Clearing an empty hash table still writes its control bytes.
        if !self.call_ids.is_empty() {
            self.call_ids.clear();
        }
        if !self.on_path.is_empty() {
            self.on_path.clear();
        }
        self.repetitions.clear();
        self.rounds = 0;
        memory::push(
            &mut self.calls,
            Call {
                parent: 0,
                kind,
                state: 0,
                crooked: false,
                reach_after: 0,
            },
        )?;
        self.kind = kind;
        self.white = white;
        if self.memo {
            self.visited
                .start(rules.automata, rules.rows * rules.cols)?;
            if self.effects.capacity() > KEEP_CAPACITY {
                memory::free_table(&mut self.effects);
            } else if !self.effects.is_empty() {
                self.effects.clear();
            }
        }
        let mut root = Self::root(kind, from);
        root.state = self.lines.skip(kind, 0);
        self.push(root)
    }

    /// The node a search of `kind`'s paths from `from` starts at.
    fn root(kind: u16, from: Point) -> Frame {
        Frame {
            kind,
            promote_kind: kind,
            state: 0,
            call: 0,
            at: from,
            memory: Memory(HERE_START),
            effects: 0,
            context: OUTSIDE,
            mark: 0,
            next_edge: 0,
            path: 0,
            entry: NONE,
        }
    }

    /// Puts the entries that stand for "none" into the buffers (the first
    /// search; `marks` last, which tells that they are there).
    #[cold]
    #[inline(never)]
    fn first_start(&mut self, kind: u16, from: Point) -> Result<(), Refused> {
        if self.steps.is_empty() {
            let none = Step {
                square: 0,
                capture: false,
                no_hole: false,
            };
            memory::push(&mut self.steps, (none, 0))?;
        }
        if self.deferred.is_empty() {
            memory::push(&mut self.deferred, (Self::root(kind, from), 0))?;
        }
        if self.queues.is_empty() {
            memory::push(&mut self.queues, (0, 0))?;
        }
        if self.chains.is_empty() {
            memory::push(&mut self.chains, ((0, 0, 0, 0), 0))?;
        }
        memory::push(&mut self.marks, Mark::default())
    }

    /// Lists every square the searches look at from now on (until
    /// [`Search::take_reads`]), so that a caller can tell which changes of
    /// the board may change their results.
    pub(super) fn record_reads_from_now(&mut self) {
        self.record_reads = true;
        self.reads.clear();
    }

    /// Stops listing read squares and moves those listed into `into` (the
    /// memory budget's error if `into` cannot grow).
    pub(super) fn take_reads(&mut self, into: &mut Vec<Square>) -> Result<(), Refused> {
        self.record_reads = false;
        let taken = memory::reserve(into, self.reads.len());
        if taken.is_ok() {
            into.append(&mut self.reads);
        }
        self.reads.clear();
        taken
    }

    /// The open call for `"s"` in `caller` going on at `state`, inside
    /// `parent`.
    fn open_call(
        &mut self,
        parent: u32,
        caller: u16,
        state: u32,
        crooked: bool,
        reach_after: u32,
    ) -> Result<u32, Refused> {
        let key = (parent, caller, state);
        if let Some(&id) = self.call_ids.get(&key) {
            return Ok(id);
        }
        let id = self.calls.len() as u32;
        memory::push(
            &mut self.calls,
            Call {
                parent,
                kind: caller,
                state,
                crooked,
                reach_after,
            },
        )?;
        memory::reserve_entries(&mut self.call_ids, 1)?;
        self.call_ids.insert(key, id);
        Ok(id)
    }

    /// Whether `state` of `kind` inside `call` is in a crooked repetition,
    /// and how far a path can still go from it.
    fn place(&self, rules: &Rules, kind: u16, state: u32, call: u32) -> (bool, u32) {
        let info = rules.automata[usize::from(kind)].states[state as usize];
        let call = &self.calls[call as usize];
        (
            info.crooked || call.crooked,
            add_reach(info.reach, call.reach_after),
        )
    }

    /// The effects `effects` followed by `event` (a capture or a fall).
    fn add_effect(&mut self, effects: u32, event: u32) -> Result<u32, Refused> {
        if !self.memo {
            // Without memo, effects serve no key.
            return Ok(0);
        }
        memory::reserve_entries(&mut self.effects, 1)?;
        let next = self.effects.len() as u32 + 1;
        Ok(*self.effects.entry((effects, event)).or_insert(next))
    }

    /// The next complete path in notation order that the board allows, or
    /// `None` when there is none left; the memory budget's error if the
    /// search outgrows it.
    pub(super) fn next(
        &mut self,
        rules: &Rules,
        board: &Board,
        goal: Goal,
    ) -> Result<Option<&[Step]>, Refused> {
        self.ordered = !goal.attack;
        loop {
            let Some(top) = self.frames.len().checked_sub(1) else {
                return Ok(None);
            };
            let (kind, state, next_edge, context) = {
                let frame = &self.frames[top];
                (
                    frame.kind,
                    frame.state,
                    frame.next_edge & EDGE_MASK,
                    frame.context,
                )
            };
            let automaton = &rules.automata[usize::from(kind)];
            let state = automaton.states[state as usize];
            if next_edge == 0 && state.accept {
                let frame = self.frames[top];
                self.frames[top].next_edge |= state.edges.max(1);
                if frame.call != 0 {
                    // The end of a `"s"`: go on in the caller.
                    let call = self.calls[frame.call as usize];
                    let mut next = frame;
                    next.next_edge &= !HOLDER;
                    next.kind = call.kind;
                    next.state = call.state;
                    next.call = call.parent;
                    if !self.place(rules, next.kind, next.state, next.call).0 {
                        next.memory = Memory(next.memory.0 & !PENDING_HOLE);
                    }
                    if next.context == OUTSIDE {
                        next.state = self.lines.skip(next.kind, next.state);
                    }
                    self.push(next)?;
                    continue;
                }
                if self.accepts(rules, frame, goal) {
                    self.materialize(frame.path)?;
                    return Ok(Some(&self.path));
                }
                continue;
            }
            let edge = (next_edge < state.edges)
                .then(|| automaton.edges.get((state.first_edge + next_edge) as usize))
                .flatten();
            let Some(&edge) = edge else {
                if self.has_queued(top) {
                    // Every path with fewer rounds is tried: the next node
                    // that starts a further round.
                    self.resume(top)?;
                } else {
                    self.pop();
                }
                continue;
            };
            self.frames[top].next_edge += 1;
            let index = state.first_edge + next_edge;
            if let Some(expected) = self.repetitions.expected(context) {
                // A replayed round makes the first round's choice here.
                if expected != choice(kind, index) {
                    continue;
                }
            }
            self.follow(rules, board, top, edge, index, goal)?;
        }
    }

    /// The landings of the path ending at node `path` of
    /// [`Search::steps`], in order, into [`Search::path`].
    fn materialize(&mut self, path: u32) -> Result<(), Refused> {
        self.path.clear();
        let mut node = path;
        while node != 0 {
            let (step, before) = self.steps[node as usize];
            memory::push(&mut self.path, step)?;
            node = before;
        }
        self.path.reverse();
        Ok(())
    }

    /// Whether the path ending at node `path` took the enemy on `square`
    /// with `x`.
    fn taken_before(&self, path: u32, square: Square) -> bool {
        let mut node = path;
        while node != 0 {
            let (step, before) = self.steps[node as usize];
            if step.capture && step.square == square {
                return true;
            }
            node = before;
        }
        false
    }

    /// Whether the path of `frame` (at the end of the searched piece's
    /// notation) is a complete legal path for `goal`, the check rule aside.
    fn accepts(&self, rules: &Rules, frame: Frame, goal: Goal) -> bool {
        let memory = frame.memory;
        if frame.at != goal.to || memory.has(PENDING_HOLE) {
            return false;
        }
        if memory.has(MUST_CAPTURE) && !memory.ends_capturing() {
            return false;
        }
        if memory.has(NO_CAPTURE) && (memory.has(CAPTURED) || memory.here() == HERE_ENEMY) {
            return false;
        }
        if goal.attack {
            return memory.ends_capturing();
        }
        let promote = memory.promote_edge();
        if !memory.has(LEAPT) && promote.is_none() {
            return false;
        }
        match (promote, goal.promote) {
            (None, None) => true,
            (Some(edge), Some(target)) => {
                rules.automata[usize::from(frame.promote_kind)].allows(edge, self.kind, target)
            }
            _ => false,
        }
    }
}

/// Whether `path` captured with `x` on `square`.
pub(super) fn captured_before(path: &[Step], square: Square) -> bool {
    path.iter()
        .any(|step| step.capture && step.square == square)
}
