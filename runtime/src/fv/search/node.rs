//! A search node and what it remembers: the path's memory packed in a
//! word, the node on the stack (48 bytes, copied at every edge), the marks
//! of recorded repetitions' nodes, and the open `"s"` calls.

use super::super::rules::Point;

/// What a search node remembers about the path so far, packed in a word:
/// what the current square holds, whether a crooked repetition landed on a
/// hole, the `c`/`m` conditions, whether it captured, leapt or fell, and the
/// last `p` edge taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Memory(pub(super) u32);

/// What the current square holds, as seen by the path.
pub(super) const HERE_MASK: u32 = 0b111;
pub(super) const HERE_START: u32 = 0;
pub(super) const HERE_EMPTY: u32 = 1;
pub(super) const HERE_HOLE: u32 = 2;
pub(super) const HERE_ENEMY: u32 = 3;
pub(super) const HERE_CAPTURED: u32 = 4;
pub(super) const PENDING_HOLE: u32 = 1 << 3;
pub(super) const MUST_CAPTURE: u32 = 1 << 4;
pub(super) const NO_CAPTURE: u32 = 1 << 5;
pub(super) const CAPTURED: u32 = 1 << 6;
pub(super) const LEAPT: u32 = 1 << 7;
pub(super) const FELL: u32 = 1 << 8;
pub(super) const PROMOTE_SHIFT: u32 = 9;

/// The most edges an automaton may have (the last `p` edge is remembered in
/// the bits above [`PROMOTE_SHIFT`]).
pub const MAX_EDGES: usize = (1 << (32 - PROMOTE_SHIFT)) - 2;

impl Memory {
    pub(super) fn here(self) -> u32 {
        self.0 & HERE_MASK
    }

    pub(super) fn with_here(self, here: u32) -> Memory {
        Memory((self.0 & !HERE_MASK) | here)
    }

    pub(super) fn has(self, flag: u32) -> bool {
        self.0 & flag != 0
    }

    pub(super) fn promote_edge(self) -> Option<u32> {
        (self.0 >> PROMOTE_SHIFT).checked_sub(1)
    }

    pub(super) fn ends_capturing(self) -> bool {
        matches!(self.here(), HERE_ENEMY | HERE_CAPTURED)
    }
}

/// No holder ([`Frame::entry`]).
pub(super) const NONE: u32 = u32::MAX;

/// A node on the search's stack: 48 bytes, as many as before the spec's
/// path order, since a search copies nodes at every edge. What only nodes
/// of recorded repetitions or of holders need lives outside it: a holder's
/// queue in [`Search::holder_queues`], and the first round, chain and
/// restored keys in [`Search::marks`].
#[derive(Clone, Copy, Debug)]
pub(super) struct Frame {
    /// The piece type whose automaton `state` belongs to (`"s"` enters
    /// another type's automaton).
    pub(super) kind: u16,
    /// The piece type whose `p` edge [`Memory`] remembers.
    pub(super) promote_kind: u16,
    pub(super) state: u32,
    /// The `"s"` calls open around `state` (an index into
    /// [`Search::calls`]; 0: none).
    pub(super) call: u32,
    pub(super) at: Point,
    pub(super) memory: Memory,
    /// What the path has done so far (an index into [`Search::effects`]).
    pub(super) effects: u32,
    /// The `A*` repetitions open around `state` (a context of
    /// [`Search::repetitions`]; [`OUTSIDE`]: none).
    pub(super) context: u32,
    /// The node's first round, chain and restored keys: an entry of
    /// [`Search::marks`] (0: none of them).
    pub(super) mark: u32,
    /// The next edge of `state` to try ([`EDGE_MASK`]), and the flags
    /// [`ON_PATH`] and [`HOLDER`] in the bits above it.
    pub(super) next_edge: u32,
    /// The path's landings so far: a node of [`Search::steps`] (0: none).
    pub(super) path: u32,
    /// The holder of the innermost repetition whose round this node is in:
    /// its index in [`Search::frames`] ([`NONE`]: none). For a holder, the
    /// one around it.
    pub(super) entry: u32,
}

const _: () = assert!(std::mem::size_of::<Frame>() == 48);

/// The bits of [`Frame::next_edge`] that count edges (an automaton has at
/// most [`MAX_EDGES`]).
pub(super) const EDGE_MASK: u32 = (1 << 30) - 1;
/// [`Frame::next_edge`]: the node is in [`Search::on_path`].
pub(super) const ON_PATH: u32 = 1 << 31;
/// [`Frame::next_edge`]: the node was reached by [`Edge::Enter`]: it keeps
/// the nodes that start further rounds of its repetition (its queue is in
/// [`Search::holder_queues`]).
pub(super) const HOLDER: u32 = 1 << 30;

const _: () = assert!(MAX_EDGES < EDGE_MASK as usize);

impl Frame {
    pub(super) fn is(&self, flag: u32) -> bool {
        self.next_edge & flag != 0
    }
}

/// What a node of a recorded repetition remembers besides its [`Frame`]
/// (most nodes have none: [`Frame::mark`] 0, all zero).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Mark {
    /// Which first round of an outermost `A*` the node is in, while one is
    /// being recorded (a number handed out when that round begins; 0:
    /// none). Two nodes of one path in different first rounds are never
    /// the same node, whatever they recorded.
    pub(super) round: u32,
    /// The last node of the path that is in [`Search::on_path`], as a node
    /// of [`Search::chains`] (0: none).
    pub(super) chain: u32,
    /// A node taken from a holder's queue: the chain whose nodes between
    /// it and the holder were put back into [`Search::on_path`] (they are
    /// not on the stack), to take out again when it is popped (0: none).
    pub(super) restored: u32,
}

/// An open `"s"` call: where the path goes on once s's moves end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Call {
    /// The call around this one.
    pub(super) parent: u32,
    /// The caller's piece type and the state to go on at.
    pub(super) kind: u16,
    pub(super) state: u32,
    /// The call stands inside a crooked repetition of the caller (or of a
    /// call around it).
    pub(super) crooked: bool,
    /// How far the path can still go after the call ends.
    pub(super) reach_after: u32,
}
