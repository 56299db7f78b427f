//! The depth-first path search over a piece type's automaton.

use super::super::hash::{FastMap, FastSet};
use super::super::memory::{self, Charged, Refused};
use super::automaton::{Automaton, Edge, UNBOUNDED};
use super::board::{Board, Flood};
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

/// A node on the search's stack.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The piece type whose automaton `state` belongs to (`"s"` enters
    /// another type's automaton).
    kind: u16,
    state: u32,
    /// The `"s"` calls open around `state` (an index into
    /// [`Search::calls`]; 0: none).
    call: u32,
    at: Point,
    memory: Memory,
    /// The piece type whose `p` edge [`Memory`] remembers.
    promote_kind: u16,
    /// What the path has done so far (an index into [`Search::effects`]).
    effects: u32,
    /// The `A*` repetitions open around `state` (a context of
    /// [`Search::repetitions`]; [`OUTSIDE`]: none).
    context: u32,
    /// Which first round of an outermost `A*` the node is in, while one is
    /// being recorded (a number handed out when that round begins; 0:
    /// none). Two nodes of one path in different first rounds are never
    /// the same node, whatever they recorded.
    round: u32,
    /// This node is in [`Search::on_path`].
    on_path: bool,
    /// The next edge of `state` to try.
    next_edge: u32,
    /// The path's length when this node was reached, and the `capture` flag
    /// its last step had then (`x` sets it; backtracking restores it).
    path_len: u32,
    last_capture: bool,
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

/// Reusable buffers of the depth-first path search.
#[derive(Clone, Debug, Default)]
pub(super) struct Search {
    frames: Vec<Frame>,
    path: Vec<Step>,
    visited: NodeSet,
    /// The nodes of the current path that are inside a first round being
    /// recorded, by their key with the recording forgotten
    /// ([`Repetitions::shape`]): such a node is not entered twice on one
    /// path.
    on_path: Charged<FastSet<NodeKey>>,
    /// The `A*` repetitions open along the paths searched.
    repetitions: Repetitions,
    /// The first rounds of outermost `A*`s begun so far ([`Frame::round`]).
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
    /// Whether to list in [`Search::reads`] every square whose cell the
    /// search looks at.
    record_reads: bool,
    /// The squares looked at since [`Search::record_reads_from_now`] (with
    /// repeats): the search's result depends on the board only through
    /// them.
    reads: Vec<Square>,
    /// The buffers of crooked riders' attack tests ([`Board`]'s).
    pub(super) flood: Flood,
}

/// A search node as a key of [`Search::on_path`]: state and square; memory
/// and effects; piece types and calls; repetition context (its shape) and
/// the first round it is in ([`Frame::round`]).
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
            } else {
                self.effects.clear();
            }
        }
        let root = Frame {
            kind,
            state: 0,
            call: 0,
            at: from,
            memory: Memory(HERE_START),
            promote_kind: kind,
            effects: 0,
            context: OUTSIDE,
            round: 0,
            on_path: false,
            next_edge: 0,
            path_len: 0,
            last_capture: false,
        };
        self.push(root)
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
            u64::from(context) | u64::from(frame.round) << 32,
        )
    }

    /// Pushes the node `frame` unless it was visited, or it returns to a
    /// node of the current path inside a first round being recorded.
    #[inline]
    fn push(&mut self, mut frame: Frame) -> Result<(), Refused> {
        if self.memo {
            let square = frame.at.row * self.cols + frame.at.col;
            let rest = (
                u64::from(frame.memory.0) | u64::from(frame.effects) << 32,
                u64::from(frame.promote_kind) | u64::from(frame.call) << 16,
                frame.context,
            );
            if !self.visited.insert(frame.kind, frame.state, square, rest)? {
                return Ok(());
            }
        }
        frame.on_path = false;
        if frame.context != OUTSIDE && self.repetitions.recording(frame.context) {
            let key = self.key(&frame, self.repetitions.shape(frame.context));
            memory::reserve_entries(&mut self.on_path, 1)?;
            if !self.on_path.insert(key) {
                return Ok(());
            }
            frame.on_path = true;
        }
        frame.next_edge = 0;
        frame.path_len = self.path.len() as u32;
        frame.last_capture = self.path.last().is_some_and(|s| s.capture);
        memory::push(&mut self.frames, frame)
    }

    /// Pops the top node (its edges are all tried).
    fn pop(&mut self) {
        if let Some(frame) = self.frames.pop() {
            if frame.on_path {
                let key = self.key(&frame, self.repetitions.shape(frame.context));
                self.on_path.remove(&key);
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
        loop {
            let Some(top) = self.frames.len().checked_sub(1) else {
                return Ok(None);
            };
            let frame = self.frames[top];
            // Backtrack the path to this node.
            self.path.truncate(frame.path_len as usize);
            if let Some(last) = self.path.last_mut() {
                last.capture = frame.last_capture;
            }
            let automaton = &rules.automata[usize::from(frame.kind)];
            let state = automaton.states[frame.state as usize];
            if frame.next_edge == 0 && state.accept {
                self.frames[top].next_edge = state.edges.max(1);
                if frame.call != 0 {
                    // The end of a `"s"`: go on in the caller.
                    let call = self.calls[frame.call as usize];
                    let mut next = frame;
                    next.kind = call.kind;
                    next.state = call.state;
                    next.call = call.parent;
                    if !self.place(rules, next.kind, next.state, next.call).0 {
                        next.memory = Memory(next.memory.0 & !PENDING_HOLE);
                    }
                    self.push(next)?;
                    continue;
                }
                if self.accepts(rules, frame, goal) {
                    return Ok(Some(&self.path));
                }
                continue;
            }
            let Some(&edge) = automaton
                .edges_of(frame.state)
                .get(frame.next_edge as usize)
            else {
                self.pop();
                continue;
            };
            self.frames[top].next_edge += 1;
            let index = state.first_edge + frame.next_edge;
            if let Some(expected) = self.repetitions.expected(frame.context) {
                // A replayed round makes the first round's choice here.
                if expected != choice(frame.kind, index) {
                    continue;
                }
            }
            self.follow(rules, board, frame, edge, index, goal)?;
        }
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
    fn follow(
        &mut self,
        rules: &Rules,
        board: &Board,
        frame: Frame,
        edge: Edge,
        index: u32,
        goal: Goal,
    ) -> Result<(), Refused> {
        let mut next = frame;
        next.state = edge.to();
        let (crooked, reach) = self.place(rules, frame.kind, edge.to(), frame.call);
        let (mut crooked, mut reach) = (crooked, reach);
        let mut memory = frame.memory;
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
                    Cell::Piece { .. } if captured_before(&self.path, square) => HERE_EMPTY,
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
                memory::push(
                    &mut self.path,
                    Step {
                        square,
                        capture: false,
                        no_hole: false,
                    },
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
                    if let Some(last) = self.path.last_mut() {
                        last.capture = true;
                    }
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
            Edge::Pass { .. } | Edge::Begin { .. } | Edge::Stop { .. } | Edge::Again { .. } => {}
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
        if next.at.distance(goal.to) > reach {
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
            next.round = if !self.repetitions.recording(next.context) {
                0
            } else if self.repetitions.recording(frame.context) {
                frame.round
            } else {
                self.rounds += 1;
                self.rounds
            };
        }
        self.push(next)
    }
}

/// Whether `path` captured with `x` on `square`.
pub(super) fn captured_before(path: &[Step], square: Square) -> bool {
    path.iter()
        .any(|step| step.capture && step.square == square)
}
