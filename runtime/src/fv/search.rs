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

use super::super::hash::{FastMap, FastSet};
use super::super::memory::{self, Charged, Refused};
use super::automaton::{Automaton, Edge, UNBOUNDED};
use super::board::{Board, Flood};
use super::reach::{Line, Lines};
use super::repeat::{choice, Repetitions, OUTSIDE};
use super::rules::{Cell, Point, Rules, Square, Step};
use super::visited::NodeSet;

/// What a search node remembers about the path so far, packed in a word:
/// what the current square holds, whether a crooked repetition landed on a
/// hole, the `c`/`m` conditions, whether it captured, leapt or fell, and the
/// last `p` edge taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Memory(u32);

/// What the current square holds, as seen by the path.
const HERE_MASK: u32 = 0b111;
const HERE_START: u32 = 0;
const HERE_EMPTY: u32 = 1;
const HERE_HOLE: u32 = 2;
const HERE_ENEMY: u32 = 3;
const HERE_CAPTURED: u32 = 4;
const PENDING_HOLE: u32 = 1 << 3;
const MUST_CAPTURE: u32 = 1 << 4;
const NO_CAPTURE: u32 = 1 << 5;
const CAPTURED: u32 = 1 << 6;
const LEAPT: u32 = 1 << 7;
const FELL: u32 = 1 << 8;
const PROMOTE_SHIFT: u32 = 9;

/// The most edges an automaton may have (the last `p` edge is remembered in
/// the bits above [`PROMOTE_SHIFT`]).
pub const MAX_EDGES: usize = (1 << (32 - PROMOTE_SHIFT)) - 2;

impl Memory {
    fn here(self) -> u32 {
        self.0 & HERE_MASK
    }

    fn with_here(self, here: u32) -> Memory {
        Memory((self.0 & !HERE_MASK) | here)
    }

    fn has(self, flag: u32) -> bool {
        self.0 & flag != 0
    }

    fn promote_edge(self) -> Option<u32> {
        (self.0 >> PROMOTE_SHIFT).checked_sub(1)
    }

    fn ends_capturing(self) -> bool {
        matches!(self.here(), HERE_ENEMY | HERE_CAPTURED)
    }
}

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

/// No holder ([`Frame::entry`]).
const NONE: u32 = u32::MAX;

/// A node on the search's stack: 48 bytes, as many as before the spec's
/// path order, since a search copies nodes at every edge. What only nodes
/// of recorded repetitions or of holders need lives outside it: a holder's
/// queue in [`Search::holder_queues`], and the first round, chain and
/// restored keys in [`Search::marks`].
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The piece type whose automaton `state` belongs to (`"s"` enters
    /// another type's automaton).
    kind: u16,
    /// The piece type whose `p` edge [`Memory`] remembers.
    promote_kind: u16,
    state: u32,
    /// The `"s"` calls open around `state` (an index into
    /// [`Search::calls`]; 0: none).
    call: u32,
    at: Point,
    memory: Memory,
    /// What the path has done so far (an index into [`Search::effects`]).
    effects: u32,
    /// The `A*` repetitions open around `state` (a context of
    /// [`Search::repetitions`]; [`OUTSIDE`]: none).
    context: u32,
    /// The node's first round, chain and restored keys: an entry of
    /// [`Search::marks`] (0: none of them).
    mark: u32,
    /// The next edge of `state` to try ([`EDGE_MASK`]), and the flags
    /// [`ON_PATH`] and [`HOLDER`] in the bits above it.
    next_edge: u32,
    /// The path's landings so far: a node of [`Search::steps`] (0: none).
    path: u32,
    /// The holder of the innermost repetition whose round this node is in:
    /// its index in [`Search::frames`] ([`NONE`]: none). For a holder, the
    /// one around it.
    entry: u32,
}

const _: () = assert!(std::mem::size_of::<Frame>() == 48);

/// The bits of [`Frame::next_edge`] that count edges (an automaton has at
/// most [`MAX_EDGES`]).
const EDGE_MASK: u32 = (1 << 30) - 1;
/// [`Frame::next_edge`]: the node is in [`Search::on_path`].
const ON_PATH: u32 = 1 << 31;
/// [`Frame::next_edge`]: the node was reached by [`Edge::Enter`]: it keeps
/// the nodes that start further rounds of its repetition (its queue is in
/// [`Search::holder_queues`]).
const HOLDER: u32 = 1 << 30;

const _: () = assert!(MAX_EDGES < EDGE_MASK as usize);

impl Frame {
    fn is(&self, flag: u32) -> bool {
        self.next_edge & flag != 0
    }
}

/// What a node of a recorded repetition remembers besides its [`Frame`]
/// (most nodes have none: [`Frame::mark`] 0, all zero).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Mark {
    /// Which first round of an outermost `A*` the node is in, while one is
    /// being recorded (a number handed out when that round begins; 0:
    /// none). Two nodes of one path in different first rounds are never
    /// the same node, whatever they recorded.
    round: u32,
    /// The last node of the path that is in [`Search::on_path`], as a node
    /// of [`Search::chains`] (0: none).
    chain: u32,
    /// A node taken from a holder's queue: the chain whose nodes between
    /// it and the holder were put back into [`Search::on_path`] (they are
    /// not on the stack), to take out again when it is popped (0: none).
    restored: u32,
}

/// What [`Search::follow`] needs of the node it follows an edge from.
#[derive(Clone, Copy)]
struct Parent {
    kind: u16,
    call: u32,
    at: Point,
    path: u32,
    context: u32,
    mark: u32,
}

/// What [`Search::filled`] found of a crooked repetition.
enum Filled {
    /// The node after it, on the goal.
    Reached(Frame),
    /// No path through it reaches the goal.
    Missed,
    /// The search takes its rounds.
    Searched,
}

/// An open `"s"` call: where the path goes on once s's moves end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Call {
    /// The call around this one.
    parent: u32,
    /// The caller's piece type and the state to go on at.
    kind: u16,
    state: u32,
    /// The call stands inside a crooked repetition of the caller (or of a
    /// call around it).
    crooked: bool,
    /// How far the path can still go after the call ends.
    reach_after: u32,
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

    /// `frame` with the mark `mark` (a new entry of `marks` unless it is
    /// the one `frame` has, or none).
    fn set_mark(&mut self, frame: &mut Frame, mark: Mark) -> Result<(), Refused> {
        if mark == self.marks[frame.mark as usize] {
            return Ok(());
        }
        if mark == Mark::default() {
            frame.mark = 0;
            return Ok(());
        }
        frame.mark = self.marks.len() as u32;
        memory::push(&mut self.marks, mark)
    }

    /// `frame` as a node not taken from a queue: no restored keys.
    #[inline(always)]
    fn unrestored(&mut self, frame: &mut Frame) -> Result<(), Refused> {
        if frame.mark != 0 {
            let mark = self.marks[frame.mark as usize];
            if mark.restored != 0 {
                return self.set_mark(
                    frame,
                    Mark {
                        restored: 0,
                        ..mark
                    },
                );
            }
        }
        Ok(())
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

    /// The key of `frame`'s node, with repetition context `context` (and
    /// the first round `frame` is in).
    fn key(&self, frame: &Frame, context: u32) -> NodeKey {
        let square = frame.at.row * self.cols + frame.at.col;
        (
            u64::from(frame.state) | u64::from(square) << 32,
            u64::from(frame.memory.0) | u64::from(frame.effects) << 32,
            u64::from(frame.kind)
                | u64::from(frame.promote_kind) << 16
                | u64::from(frame.call) << 32,
            u64::from(context) | u64::from(self.marks[frame.mark as usize].round) << 32,
        )
    }

    /// Whether the node `frame` is new: not visited, and no return to a
    /// node of its path inside a first round being recorded (`on_path`
    /// holds those of its path). Marks it visited.
    #[inline(always)]
    fn admits(&mut self, frame: &Frame) -> Result<bool, Refused> {
        if self.memo {
            let square = frame.at.row * self.cols + frame.at.col;
            let rest = (
                u64::from(frame.memory.0) | u64::from(frame.effects) << 32,
                u64::from(frame.promote_kind) | u64::from(frame.call) << 16,
                frame.context,
            );
            if !self.visited.insert(frame.kind, frame.state, square, rest)? {
                return Ok(false);
            }
        }
        if frame.context != OUTSIDE && self.repetitions.recording(frame.context) {
            let key = self.key(frame, self.repetitions.shape(frame.context));
            if self.on_path.contains(&key) {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Puts the admitted node `frame` on the stack (and, inside a first
    /// round being recorded, its key in `on_path`).
    #[inline(always)]
    fn enter(&mut self, mut frame: Frame) -> Result<(), Refused> {
        frame.next_edge &= HOLDER;
        if frame.context != OUTSIDE && self.repetitions.recording(frame.context) {
            let key = self.key(&frame, self.repetitions.shape(frame.context));
            memory::reserve_entries(&mut self.on_path, 1)?;
            let mark = self.marks[frame.mark as usize];
            memory::push(&mut self.chains, (key, mark.chain))?;
            self.on_path.insert(key);
            let chain = (self.chains.len() - 1) as u32;
            self.set_mark(&mut frame, Mark { chain, ..mark })?;
            frame.next_edge |= ON_PATH;
        }
        memory::push(&mut self.frames, frame)
    }

    /// Pushes the node `frame` (reached from the node on top) unless it
    /// was visited, or it returns to a node of its path inside a first
    /// round being recorded.
    #[inline(always)]
    fn push(&mut self, mut frame: Frame) -> Result<(), Refused> {
        if !self.admits(&frame)? {
            return Ok(());
        }
        self.unrestored(&mut frame)?;
        self.enter(frame)
    }

    /// Queues the node `frame`, which starts a further round, on the
    /// holder `holder` (unless it was visited or is a detour), to be
    /// searched once every path with fewer rounds is.
    fn defer(&mut self, mut frame: Frame, holder: u32) -> Result<(), Refused> {
        if !self.admits(&frame)? {
            return Ok(());
        }
        frame.next_edge &= !HOLDER;
        self.unrestored(&mut frame)?;
        let index = self.deferred.len() as u32;
        memory::push(&mut self.deferred, (frame, 0))?;
        let holder = holder as usize;
        let mut queue = self.holder_queues.get(holder).copied().unwrap_or(0);
        if queue == 0 {
            queue = self.queues.len() as u32;
            memory::push(&mut self.queues, (0, 0))?;
            let have = self.holder_queues.len();
            if have <= holder {
                memory::reserve(&mut self.holder_queues, holder + 1 - have)?;
                self.holder_queues.resize(holder + 1, 0);
            }
            self.holder_queues[holder] = queue;
        }
        let (head, tail) = &mut self.queues[queue as usize];
        if *tail == 0 {
            *head = index;
        } else {
            self.deferred[*tail as usize].1 = index;
        }
        *tail = index;
        Ok(())
    }

    /// Whether the node `top` of the stack is a holder with nodes in its
    /// queue.
    fn has_queued(&self, top: usize) -> bool {
        self.frames[top].is(HOLDER)
            && self
                .holder_queues
                .get(top)
                .is_some_and(|&queue| queue != 0 && self.queues[queue as usize].0 != 0)
    }

    /// Takes the next node queued on the holder on top of the stack and
    /// pushes it. The nodes of its path between the holder and it are not
    /// on the stack: their keys go back into `on_path` while it is.
    fn resume(&mut self, top: usize) -> Result<(), Refused> {
        let queue = self.holder_queues[top];
        let (head, tail) = &mut self.queues[queue as usize];
        let (mut frame, next) = self.deferred[*head as usize];
        *head = next;
        if next == 0 {
            *tail = 0;
        }
        let stop = self.marks[self.frames[top].mark as usize].chain;
        let mark = self.marks[frame.mark as usize];
        let mut chain = mark.chain;
        if chain != stop {
            self.set_mark(
                &mut frame,
                Mark {
                    restored: chain,
                    ..mark
                },
            )?;
            while chain != stop && chain != 0 {
                let (key, before) = self.chains[chain as usize];
                memory::reserve_entries(&mut self.on_path, 1)?;
                self.on_path.insert(key);
                chain = before;
            }
        }
        self.enter(frame)
    }

    /// Pops the top node (its edges are all tried).
    fn pop(&mut self) {
        if let Some(frame) = self.frames.pop() {
            if frame.is(ON_PATH) {
                let key = self.key(&frame, self.repetitions.shape(frame.context));
                self.on_path.remove(&key);
            }
            if frame.mark != 0 {
                let restored = self.marks[frame.mark as usize].restored;
                if restored != 0 {
                    let stop = self
                        .frames
                        .get(frame.entry as usize)
                        .map_or(0, |holder| self.marks[holder.mark as usize].chain);
                    let mut chain = restored;
                    while chain != stop && chain != 0 {
                        let (key, before) = self.chains[chain as usize];
                        self.on_path.remove(&key);
                        chain = before;
                    }
                }
            }
        }
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

    /// Whether the round of a repetition that starts at state `start` of
    /// `kind` inside `call` waits for the paths with fewer rounds (moves),
    /// or is taken at once: attack tests, and repetitions whose paths need
    /// no order among themselves ([`Lines::unordered`]).
    #[inline]
    fn in_order(&self, kind: u16, start: u32, call: u32) -> bool {
        self.ordered
            && !(self.lines.unordered(kind, start) && self.calls[call as usize].reach_after == 0)
    }

    /// Whether a node on `line` ([`Lines`]) inside `call` on `at` cannot
    /// lead to `to`. (Not inlined: only repetitions get here, and the
    /// search's loop stays small.)
    #[inline(never)]
    fn off_line(&self, line: Line, call: u32, at: Point, to: Point) -> bool {
        let beyond = add_reach(line.after(), self.calls[call as usize].reach_after);
        beyond != UNBOUNDED && !line.reaches(at, to, self.white, beyond)
    }

    /// A move's way through the crooked repetition that `enter` (reached
    /// from `frame`) enters at state `holder`, by a flood fill where it
    /// stands for the repetition's rounds ([`Lines::fill`]): the node after
    /// the repetition on the goal, as the search would have reached it.
    /// Outside recorded repetitions, when nothing follows an open `"s"`,
    /// and the path took no enemy with `x` (its square would be empty).
    /// (Not inlined: it would make the search's loop larger for every
    /// move.)
    #[inline(never)]
    fn filled(
        &mut self,
        rules: &Rules,
        board: &Board,
        mut enter: Frame,
        frame: Parent,
        holder: u32,
        goal: Goal,
    ) -> Result<Filled, Refused> {
        let mut memory = enter.memory;
        let Some(fill) = self.lines.fill(frame.kind, holder) else {
            return Ok(Filled::Searched);
        };
        if !self.ordered
            || self.record_reads
            || enter.context != OUTSIDE
            || memory.has(CAPTURED)
            || self.calls[frame.call as usize].reach_after != 0
        {
            return Ok(Filled::Searched);
        }
        if memory.has(PENDING_HOLE) || memory.here() == HERE_ENEMY {
            // No leap goes on from here.
            return Ok(Filled::Missed);
        }
        let (start, square) = (rules.square(enter.at), rules.square(goal.to));
        let exit = fill.exit;
        if !board.crooked_reaches(fill.offsets(self.white), start, square, &mut self.flood) {
            return Ok(Filled::Missed);
        }
        let here = match board.get(square) {
            Cell::Piece { white, .. } if white == self.white => return Ok(Filled::Missed),
            Cell::Piece { .. } => HERE_ENEMY,
            Cell::Empty => HERE_EMPTY,
            Cell::Hole => {
                if !memory.has(FELL) {
                    enter.effects = self.add_effect(enter.effects, square * 2 + 1)?;
                    memory = Memory(memory.0 | FELL);
                }
                HERE_HOLE
            }
        };
        enter.memory = Memory(memory.with_here(here).0 | LEAPT);
        enter.at = goal.to;
        enter.state = self.lines.skip(frame.kind, exit);
        // The landings before the last are empty squares: only the last
        // does anything.
        enter.path = self.steps.len() as u32;
        memory::push(&mut self.steps, (Step::land(square), frame.path))?;
        Ok(Filled::Reached(enter))
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

    /// Takes `edge` (the automaton's edge `index`) from `frame`'s node if
    /// the board allows it (the budget's error if the search cannot grow).
    /// Always inlined: the search's loop calls it for every edge.
    #[inline(always)]
    fn follow(
        &mut self,
        rules: &Rules,
        board: &Board,
        top: usize,
        edge: Edge,
        index: u32,
        goal: Goal,
    ) -> Result<(), Refused> {
        let mut next = self.frames[top];
        // What the node on top was (`next` starts as a copy of it).
        let frame = Parent {
            kind: next.kind,
            call: next.call,
            at: next.at,
            path: next.path,
            context: next.context,
            mark: next.mark,
        };
        next.state = edge.to();
        // The holder of the repetition whose round `next` is in.
        if next.is(HOLDER) {
            next.entry = top as u32;
            next.next_edge &= !HOLDER;
        }
        let (crooked, reach) = self.place(rules, frame.kind, edge.to(), frame.call);
        let (mut crooked, mut reach) = (crooked, reach);
        let mut memory = next.memory;
        match edge {
            Edge::Leap { forward, right, .. } => {
                if memory.has(PENDING_HOLE) || memory.here() == HERE_ENEMY {
                    return Ok(());
                }
                let Some(landing) = rules.leap_from(frame.at, self.white, forward, right) else {
                    return Ok(());
                };
                if landing.distance(goal.to) > reach {
                    return Ok(());
                }
                let square = rules.square(landing);
                if self.record_reads {
                    memory::push(&mut self.reads, square)?;
                }
                let here = match board.get(square) {
                    Cell::Piece { white, .. } if white == self.white => return Ok(()),
                    // An enemy this path already took with `x` is gone.
                    Cell::Piece { .. } if self.taken_before(frame.path, square) => HERE_EMPTY,
                    Cell::Piece { .. } => HERE_ENEMY,
                    Cell::Empty => HERE_EMPTY,
                    Cell::Hole if goal.attack => return Ok(()),
                    Cell::Hole => {
                        if crooked {
                            memory = Memory(memory.0 | PENDING_HOLE);
                        }
                        if !memory.has(FELL) {
                            next.effects = self.add_effect(next.effects, square * 2 + 1)?;
                            memory = Memory(memory.0 | FELL);
                        }
                        HERE_HOLE
                    }
                };
                memory = Memory(memory.with_here(here).0 | LEAPT);
                next.at = landing;
                next.path = self.steps.len() as u32;
                memory::push(
                    &mut self.steps,
                    (
                        Step {
                            square,
                            capture: false,
                            no_hole: false,
                        },
                        frame.path,
                    ),
                )?;
            }
            Edge::Rank {
                low, high, negated, ..
            } => {
                let rank = rules.rank_of_row(frame.at.row, self.white);
                if (low <= rank && rank <= high) == negated {
                    return Ok(());
                }
            }
            Edge::MustCapture { .. } => memory = Memory(memory.0 | MUST_CAPTURE),
            Edge::NoCapture { .. } => memory = Memory(memory.0 | NO_CAPTURE),
            Edge::CaptureHere { .. } => match memory.here() {
                HERE_ENEMY => {
                    // Part of the node's key even after a fall and in an
                    // attack test, where it changes no stack: the squares
                    // taken with `x` are gone for the rest of the path, so
                    // two paths that took different ones go on differently.
                    next.effects = self.add_effect(next.effects, rules.square(frame.at) * 2)?;
                    memory = Memory(memory.with_here(HERE_CAPTURED).0 | CAPTURED);
                    // The last landing, now with its capture.
                    let (step, before) = self.steps[frame.path as usize];
                    next.path = self.steps.len() as u32;
                    memory::push(
                        &mut self.steps,
                        (
                            Step {
                                capture: true,
                                ..step
                            },
                            before,
                        ),
                    )?;
                }
                HERE_CAPTURED => {}
                _ => return Ok(()),
            },
            Edge::Promote { .. } => {
                if !goal.attack {
                    memory = Memory(
                        (memory.0 & ((1 << PROMOTE_SHIFT) - 1)) | (index + 1) << PROMOTE_SHIFT,
                    );
                    next.promote_kind = frame.kind;
                }
            }
            Edge::Exit { .. } | Edge::Stop { .. } => {
                // Out of the repetition: into the round around it, if any.
                next.entry = self
                    .frames
                    .get(next.entry as usize)
                    .map_or(NONE, |holder| holder.entry);
            }
            Edge::Pass { .. }
            | Edge::Enter { .. }
            | Edge::Loop { .. }
            | Edge::Begin { .. }
            | Edge::Again { .. } => {}
            Edge::Call { piece, to } => {
                let call = self.open_call(frame.call, frame.kind, to, crooked, reach)?;
                next.kind = piece;
                next.state = 0;
                next.call = call;
                let (callee_crooked, callee_reach) = self.place(rules, piece, 0, call);
                crooked = callee_crooked;
                reach = callee_reach;
            }
        }
        if !crooked {
            memory = Memory(memory.0 & !PENDING_HOLE);
        }
        // A leap's landing was tested before its cell was read.
        let far = !matches!(edge, Edge::Leap { .. }) && next.at.distance(goal.to) > reach;
        if far
            || reach == UNBOUNDED
                && self
                    .lines
                    .of(next.kind, next.state)
                    .is_some_and(|line| self.off_line(line, next.call, next.at, goal.to))
        {
            return Ok(());
        }
        next.memory = memory;
        if frame.context != OUTSIDE || matches!(edge, Edge::Begin { .. }) {
            let made = choice(frame.kind, index);
            let reps = &mut self.repetitions;
            next.context = match edge {
                Edge::Begin { .. } => reps.begin(frame.context, made)?,
                Edge::Stop { .. } => reps.stop(frame.context, made)?,
                Edge::Again { .. } => reps.again(frame.context, made)?,
                _ => reps.after(frame.context, made)?,
            };
            // A detour is a return to a node of the same first round (its
            // recording forgotten, see `Repetitions::shape`): a first round
            // begun afresh is a new place, not a return to an earlier one
            // (its way is recorded anew and decides the rounds after it).
            let mark = self.marks[frame.mark as usize];
            let round = if !self.repetitions.recording(next.context) {
                0
            } else if self.repetitions.recording(frame.context) {
                mark.round
            } else {
                self.rounds += 1;
                self.rounds
            };
            if round != mark.round {
                self.set_mark(&mut next, Mark { round, ..mark })?;
            }
        }
        if next.context == OUTSIDE {
            next.state = self.lines.skip(next.kind, next.state);
        }
        match edge {
            Edge::Enter { to } => {
                if self.lines.fills(frame.kind, to) {
                    match self.filled(rules, board, next, frame, to, goal)? {
                        Filled::Reached(node) => return self.push(node),
                        Filled::Missed => return Ok(()),
                        Filled::Searched => {}
                    }
                }
                next.next_edge |= HOLDER;
                self.push(next)
            }
            Edge::Loop { to } if !self.in_order(frame.kind, to, next.call) => self.push(next),
            Edge::Loop { .. } | Edge::Again { .. }
                if self.ordered && (next.entry as usize) < self.frames.len() =>
            {
                let holder = next.entry;
                self.defer(next, holder)
            }
            _ => self.push(next),
        }
    }
}

/// Whether `path` captured with `x` on `square`.
pub(super) fn captured_before(path: &[Step], square: Square) -> bool {
    path.iter()
        .any(|step| step.capture && step.square == square)
}
