//! Model-based test of the Finvara move engine.
//!
//! The engine (`transpiler/src/lang/finvara/automaton/` builds an
//! automaton per piece type; `runtime/src/fv/`, `Game::try_move`, searches
//! it) is compared with a brute-force path enumerator written here from the
//! *syntax tree* (`syntax::Atom`/`Item`/`Repeat`), never from the automaton.
//!
//! The model follows `docs/languages.md` ("What a notation
//! means", "Legal paths", "A valid move"):
//! - a path is a list of landings (square, `x` after landing, "crooked, not
//!   the last landing of its repetition": may not be a hole) plus the `c`
//!   and `m` flags and the last `p`; paths are produced in the spec's
//!   order (leap vectors in the documented order (a,b), (a,−b), (−a,b),
//!   (−a,−b), (b,a), (b,−a), (−b,a), (−b,−a); alternatives left to right;
//!   fewer repetitions before more: every repetition is tried with exactly
//!   1 round, then exactly 2, 3, …, as long as some path gets through that
//!   many, each count searched in full before the next — the count decided
//!   where the repetition starts, before its rounds' choices);
//! - `"s"` is s's notation inlined; an empty one has no path (the piece
//!   cannot move), so neither has `"s"` nor anything in sequence with it;
//! - `A*` is "A, the same way each time": round 1 runs A freely and records
//!   its *way*, every choice it makes in order (each leap's vector, each
//!   `{…}`'s alternative, and for every repetition nested in A its number of
//!   rounds and every choice inside them; `"s"` is its notation inlined).
//!   Every later round replays that record choice by
//!   choice, so a nested `B*` makes as many rounds as in round 1, by the
//!   same vector, and a nested ``B` `` takes round 1's route again. The
//!   conditions are tested afresh in each round where they stand (the
//!   board, the edge, `r`, `x`, `c`, `m`, the crooked no-hole rule). A `*`
//!   inside a round being replayed takes every choice, its count too, from
//!   that replay;
//! - each complete path is validated on the board as it is before the move
//!   (except that an enemy the path already took with `x` is gone: see
//!   [`GONE_AFTER_X`]), then the move is made and the check rule tried; the
//!   first path that passes is the move;
//! - the effects (falling into the first hole, captures, promotion, stack
//!   actions) are applied from the path list; then the losing test.
//!
//! Like the engine's search, the model never revisits, along one path, a
//! point of the notation (the frames still to do, including the start of a
//! round but not how many rounds are left, and the place in a way being
//! replayed) with the same square and
//! the same remembered facts (what the square holds, the `c`/`m` flags,
//! captured, leapt, the last `p`, the captures and the fall so far): a path
//! that does has the same outcome as the one without the detour, which has
//! fewer rounds and so comes first. (It also ends the counts: once every
//! path of n rounds is cut or stopped, none of n + 1 rounds exists.) Rounds
//! being replayed are deterministic, so a revisit there (a round whose
//! displacement is zero) is cut at the start of a round. Inside round 1 of
//! the outermost `*` being recorded, the recorded way grows with every
//! choice, so there the model cuts a return to the same point on the same
//! square with the same facts *whatever was recorded*: keys carry the
//! serial number of that round 1 instead of the record (see [`Scope`]);
//! across two such round 1s only an identical record counts.
//!
//! A `*` over a notation with finitely many ways and no repetition nested
//! in it (at most [`EXPANDED_WAYS`] of them, as docs/architecture.md
//! describes) is read as one rider per way (`(1,0)*` is four riders):
//! the model tries, for 1, 2, … rounds, the ways in notation order and makes
//! every round, the first too, replay the chosen way, which is part of
//! every point inside
//! and after the repetition (see [`Search::one_rider_per_way`]). The paths
//! and their order are those of recording round 1; what changes is the
//! "same point again" test: two landings that ride different ways of such
//! a `*` are never the same point, even inside an outer round 1 whose
//! record is forgotten, and the point after round 1 is the point after
//! round 2. The spec's "first found in notation order" decides: a path
//! that rides the first leap variant must not be cut in favour of one
//! riding a later variant only because an earlier round landed on the
//! same square riding another way (which its later rounds would repeat).
//!
//! Compared per random case: `Game::try_move` (valid, cells, both stacks,
//! output, runtime error, `someone_lost`); the same move as a move line
//! through `Game::try_paths` with the compiler's listed paths, when it
//! lists them; and that list itself against the model's geometric listing
//! (same paths, same order). The model gives up on a case after [`LIMIT`]
//! steps (`prop_assume!`); `most_generated_cases_are_compared` checks that
//! few are skipped. `MODEL_CASES=5000` runs more cases. The generator
//! often nests a repetition in a `*` ([`nested_item`]).
//!
//! The modules: the model's types here; [`model`] (reading the program's
//! tree, the board), [`search`] (a notation's paths in the spec's order),
//! [`moves`] (judging a path, making the move), [`runner`] (a whole case);
//! [`programs`] (random programs and the comparison with the engine),
//! [`known`] (hand-checked positions) and [`brute`].
//!
//! A second, independent reference, [`brute`], enumerates the
//! same-way paths of `[A]*` by brute force (every round-1 way of A listed
//! flat, then replayed) on small boards, for a family of notations where
//! that is exhaustive; it checks the model and the engine on every TO
//! (see "Same-way paths by brute force").

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::rc::Rc;

use chess2rs::lang::finvara::{
    self,
    automaton::{EXPANDED_PARTS, EXPANDED_WAYS},
    syntax::{self, Atom, Item, Repeat, Seq},
};
use chess2rs::lang::FrontEnd as _;
use chess2rs::Source;
use chess2rs_corpus::fv::leap_symmetries;
use chess2rs_runtime::__private::{
    fv::{self, Cell},
    Io,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

mod brute;
mod known;
mod model;
mod moves;
mod programs;
mod runner;
mod search;
#[allow(unused_imports)]
use self::{brute::*, known::*, model::*, moves::*, programs::*, runner::*, search::*};

// The model's types: board, values, paths, the search's frames.

/// A board cell in the model (same encoding as the runtime's, but ours).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum MCell {
    Empty,
    Hole,
    Piece { kind: usize, white: bool },
}

/// A piece value (spec "Piece definitions": omitted = royal).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MValue {
    Royal,
    Number(i64),
    X,
    Y,
}

/// Everything the model knows about a program's piece types.
struct Model<'a> {
    notations: Vec<&'a Seq>,
    kinds: HashMap<String, usize>,
    values: Vec<MValue>,
    rows: i32,
    cols: i32,
}

/// One landing of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Land {
    square: usize,
    /// `x` was done on this landing.
    x: bool,
    /// Inside a crooked repetition and not the last landing of every crooked
    /// repetition containing it: may not be a hole.
    no_hole: bool,
}

/// A complete path.
#[derive(Clone, Debug, PartialEq, Eq)]
struct MPath<'a> {
    lands: Vec<Land>,
    must_capture: bool,
    no_capture: bool,
    /// The last `p` on the path: its allowed targets (empty: any other).
    promote: Option<&'a [chess2rs::source::Spanned<String>]>,
}

/// A search gave up: too many steps.
#[derive(Debug)]
struct Budget;

/// What the current landing holds, as the path sees it (board before the
/// move; `x` turns an enemy into "captured").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Here {
    Start,
    Empty,
    Hole,
    Enemy,
    Captured,
    /// Geometric listing: the square may hold anything.
    Any,
}

/// A condition met on the way (no leap, no choice).
#[derive(Clone, Copy, Debug)]
enum Cond<'a> {
    /// `c(`: the move must end capturing.
    C,
    /// `m(`: the move must not capture.
    M,
    /// `r(` / `r!(`: the ranks and whether negated.
    Rank((i64, i64), bool),
    /// `x`.
    X,
    /// `p`: its targets and which `p` of the notation it is (address).
    P(&'a [chess2rs::source::Spanned<String>], usize),
}

/// A recorded way: every choice one round of a `*` made, in order
/// (leap vector index, alternative index, and for a repetition nested in
/// it how many rounds it makes).
type Way = Rc<[u32]>;

/// What is left to do, innermost last.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Frame {
    /// The items `next..` of a sequence (by address).
    Items { seq: usize, len: usize, next: usize },
    /// After a round of `` ` ``: the item (by address) and how many of its
    /// repetitions make one round; `left`: rounds still to make after this
    /// one; `attempt`: which try of a round count it is (see
    /// [`Search::reached`]).
    AnyLoop {
        item: usize,
        depth: usize,
        left: usize,
        attempt: usize,
    },
    /// About to run one round of a repetition (so that coming back to the
    /// start of a round with nothing new counts as a detour).
    Round { item: usize, depth: usize },
    /// After round 1 of a `*` whose choices are being recorded: they are
    /// [`Walk::log`]`[start..]`. `outermost`: no enclosing `*` is recording
    /// (this one started [`Walk::recording`]).
    Record {
        item: usize,
        depth: usize,
        start: usize,
        outermost: bool,
        left: usize,
        attempt: usize,
    },
    /// After round 2, 3, … of a `*`. `way`: the round 1 it repeats, when
    /// this `*` replays it itself; `None` when an enclosing `*` is
    /// replaying, whose [`Walk::cursor`] dictates every choice anyway.
    SameLoop {
        item: usize,
        depth: usize,
        way: Option<Way>,
        left: usize,
        attempt: usize,
    },
}

impl Frame {
    /// The frame as a point of the notation: a [`Frame::Record`]'s log
    /// position is part of the recorded way, not of the point, and how many
    /// rounds are left is no part of it either (a path that comes back to
    /// the same point with fewer rounds left is a detour of one with fewer
    /// rounds, which comes first).
    fn point(&self) -> Frame {
        match *self {
            Frame::AnyLoop { item, depth, .. } => Frame::AnyLoop {
                item,
                depth,
                left: 0,
                attempt: 0,
            },
            Frame::Record {
                item,
                depth,
                outermost,
                ..
            } => Frame::Record {
                item,
                depth,
                start: 0,
                outermost,
                left: 0,
                attempt: 0,
            },
            Frame::SameLoop {
                item,
                depth,
                ref way,
                ..
            } => Frame::SameLoop {
                item,
                depth,
                way: way.clone(),
                left: 0,
                attempt: 0,
            },
            ref other => other.clone(),
        }
    }
}

/// The search's state besides the frames.
#[derive(Clone, Debug)]
struct Walk<'a> {
    square: usize,
    lands: Vec<Land>,
    here: Here,
    /// The last landing lies inside crooked repetitions that have not all
    /// ended (the crooked depth has not dropped to 0 since).
    open: bool,
    must_capture: bool,
    no_capture: bool,
    captured: bool,
    fell: bool,
    promote: Option<&'a [chess2rs::source::Spanned<String>]>,
    /// Which `p` of the notation that was (its address).
    promote_at: Option<usize>,
    /// Captures (false) and the fall (true) so far, in order, for the
    /// "same point again" test.
    effects: Vec<(usize, bool)>,
    /// The outermost `*` in its round 1 (its choices being recorded, no
    /// replay under way): a serial number telling apart each time a path
    /// starts such a round 1.
    recording: Option<usize>,
    /// The choices made since that round 1 started (every `*` recording
    /// inside it takes a slice of it).
    log: Vec<u32>,
    /// A way being replayed and how much of it is done: it dictates every
    /// choice until the round ends.
    cursor: Option<(Way, usize)>,
}

impl Walk<'_> {
    /// The options at a choice point with `n` of them: the one the way being
    /// replayed made, or all of them in order.
    fn options(&self, n: usize) -> std::ops::Range<usize> {
        match &self.cursor {
            Some((way, done)) => {
                let c = way[*done] as usize;
                debug_assert!(c < n, "a replayed choice out of range");
                c..c + 1
            }
            None => 0..n,
        }
    }

    /// How many rounds a repetition makes: the number the way being
    /// replayed recorded, or `None` (every count, fewest first).
    fn rounds(&self) -> Option<usize> {
        self.cursor.as_ref().map(|(way, done)| way[*done] as usize)
    }

    /// The walk after choosing option `c` (recorded, and the replay moves
    /// on).
    fn chose(&self, c: usize) -> Self {
        let mut next = self.clone();
        if let Some((_, done)) = &mut next.cursor {
            *done += 1;
        }
        if next.recording.is_some() {
            next.log.push(c as u32);
        }
        next
    }
}

/// What a search is for.
#[derive(Clone, Copy, Debug)]
enum Goal {
    /// A move to `to`, promoting to `promote`.
    Move { to: usize, promote: Option<usize> },
    /// An attack on `to` (spec: a path ending with a capture there that
    /// lands on no hole; promotion and the check rule ignored).
    Attack { to: usize },
}

/// The outcome of a move in the model.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Outcome {
    valid: bool,
    cells: Vec<MCell>,
    stacks: [Vec<i64>; 2],
    output: String,
    error: Option<String>,
    /// After the move: a player has no royal piece, or all of them are
    /// attacked (spec "Losing"; the engine's `someone_lost`).
    lost: bool,
}

struct Search<'m, 'a> {
    model: &'m Model<'a>,
    board: &'m [MCell],
    white: bool,
    kind: usize,
    from: usize,
    goal: Goal,
    on_path: HashSet<Key>,
    /// Serial numbers handed out to round 1s of outermost `*`s so far.
    recordings: usize,
    /// Per try of a repetition with a given number of rounds: whether some
    /// path got to the end of its last round. The counts are tried 1, 2,
    /// 3, … until one where no path gets that far (then no larger count
    /// can: its paths begin with such a path).
    reached: Vec<bool>,
    steps: &'m mut usize,
    limit: usize,
    /// Every complete path in order, before the check rule (for tests).
    record: Option<Vec<MPath<'a>>>,
    /// For moves: tries the check rule; `Some(board)` when it passes.
    found: Option<(MPath<'a>, Vec<MCell>, Vec<Effect>)>,
    /// Ends of legal paths (pre check rule) when listing targets.
    ends: Option<Vec<usize>>,
    /// List the geometric paths to the goal's TO that some board could
    /// allow (no board at all: only the edges and FROM stop a leap), each
    /// once, in order — what the compiler lists for a move line.
    geometric: Option<Vec<MPath<'a>>>,
}

/// Inside a recording round 1, which states count as "the same again".
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Scope {
    /// Not recording: the log does not matter.
    Free,
    /// The same round 1 (serial number), whatever was recorded so far.
    Recording(usize),
    /// Any round 1 that recorded exactly this so far.
    Recorded(Vec<u32>),
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    frames: Vec<Frame>,
    cursor: Option<(Way, usize)>,
    scope: Scope,
    square: usize,
    here: Here,
    pending_hole: bool,
    must_capture: bool,
    no_capture: bool,
    captured: bool,
    leapt: bool,
    promote: Option<usize>,
    effects: Vec<(usize, bool)>,
}
/// The effects of a trial move, applied to the stacks once the check rule
/// allowed it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Effect {
    Captured {
        kind: usize,
        white: bool,
        square: usize,
    },
    Fell {
        square: usize,
    },
}
