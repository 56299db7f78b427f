//! Model-based test of the Finvara move engine.
//!
//! The engine (`transpiler/src/lang/finvara/automaton.rs` builds an
//! automaton per piece type; `runtime/src/fv.rs`, `Game::try_move`, searches
//! it) is compared with a brute-force path enumerator written here from the
//! *syntax tree* (`syntax::Atom`/`Item`/`Repeat`), never from the automaton.
//!
//! The model follows `/work/shared/spec/finvara.md` ("What a notation
//! means", "Legal paths", "A valid move"):
//! - a path is a list of landings (square, `x` after landing, "crooked, not
//!   the last landing of its repetition": may not be a hole) plus the `c`
//!   and `m` flags and the last `p`; paths are produced depth first in
//!   notation order (leap vectors in the documented order (a,b), (a,−b),
//!   (−a,b), (−a,−b), (b,a), (b,−a), (−b,a), (−b,−a); alternatives left to
//!   right; after each round of a repetition "stop" before "one more";
//!   `A*` ways first, in notation order of their outer choices);
//! - each complete path is validated on the board as it is before the move,
//!   then the move is made and the check rule tried; the first path that
//!   passes is the move;
//! - the effects (falling into the first hole, captures, promotion, stack
//!   actions) are applied from the path list.
//!
//! Crooked riders may go round in circles; like any depth-first reading of
//! "the first path", the model never revisits, along one path, a point of
//! the notation with the same square and the same remembered facts (a
//! path that does has the same outcome as the one without the detour).

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;

use chess2rs::lang::finvara::{
    self,
    syntax::{self, Atom, Item, Repeat, Seq},
};
use chess2rs::Source;
use chess2rs_runtime::__private::{
    fv::{self, Cell},
    Io,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};

// ---------------------------------------------------------------------------
// The model: board, values
// ---------------------------------------------------------------------------

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
}

/// One part of a *way* of `A` in `A*`: A's syntax with its outer choices
/// (leap vector, alternative) made; nested repetitions stay free.
#[derive(Clone, Copy, Debug)]
enum Part<'a> {
    Leap(i64, i64),
    X,
    P(&'a [chess2rs::source::Spanned<String>]),
    C,
    M,
    Rank((i64, i64), bool),
    /// An item with repetitions, run with its first `n` repetitions.
    Nested(&'a Item, usize),
}

/// What is left to do, innermost last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Frame {
    /// The items `next..` of a sequence (by address).
    Items { seq: usize, len: usize, next: usize },
    /// The parts `next..` of way `way` of a `*`.
    Parts { way: usize, next: usize },
    /// After a round of `` ` ``: the item (by address) and how many of its
    /// repetitions make one round.
    AnyLoop { item: usize, depth: usize },
    /// After a round of `*` taken way `way`.
    SameLoop { item: usize, depth: usize, way: usize },
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
    /// Captures (false) and the fall (true) so far, in order, for the
    /// "same point again" test.
    effects: Vec<(usize, bool)>,
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
}

struct Search<'m, 'a> {
    model: &'m Model<'a>,
    board: &'m [MCell],
    white: bool,
    kind: usize,
    from: usize,
    goal: Goal,
    /// Ways of each `*` met so far: (item address, depth) → way indices.
    ways: &'m mut WayTable<'a>,
    on_path: HashSet<Key>,
    steps: &'m mut usize,
    limit: usize,
    /// Every complete path in order, before the check rule (for tests).
    record: Option<Vec<MPath<'a>>>,
    /// For moves: tries the check rule; `Some(board)` when it passes.
    found: Option<(MPath<'a>, Vec<MCell>, Vec<Effect>)>,
    /// Ends of legal paths (pre check rule) when listing targets.
    ends: Option<Vec<usize>>,
}

#[derive(Default)]
struct WayTable<'a> {
    index: HashMap<(usize, usize), Vec<usize>>,
    ways: Vec<Vec<Part<'a>>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct Key {
    frames: Vec<Frame>,
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
    Captured { kind: usize, white: bool, square: usize },
    Fell { square: usize },
}

fn addr<T: ?Sized>(r: &T) -> usize {
    r as *const T as *const u8 as usize
}

impl<'a> Model<'a> {
    fn new(tree: &'a syntax::Program) -> Self {
        let rows = tree.rows.len() as i32;
        let cols = tree.rows.first().map_or(0, Vec::len) as i32;
        Model {
            notations: tree.pieces.iter().map(|p| &p.notation.value).collect(),
            kinds: tree
                .pieces
                .iter()
                .enumerate()
                .map(|(i, p)| (p.symbol.value.clone(), i))
                .collect(),
            values: tree
                .pieces
                .iter()
                .map(|p| match p.value {
                    None => MValue::Royal,
                    Some(syntax::Value::Number(n)) => MValue::Number(n),
                    Some(syntax::Value::X) => MValue::X,
                    Some(syntax::Value::Y) => MValue::Y,
                })
                .collect(),
            rows,
            cols,
        }
    }

    /// The model's initial board from the drawing (top row drawn first;
    /// square = row * cols + column, row 0 at the bottom).
    fn board(&self, tree: &syntax::Program) -> Vec<MCell> {
        let mut cells = Vec::new();
        for row in tree.rows.iter().rev() {
            for cell in row {
                cells.push(match &cell.value {
                    syntax::Cell::Empty => MCell::Empty,
                    syntax::Cell::Hole => MCell::Hole,
                    syntax::Cell::Piece(s, w) => MCell::Piece {
                        kind: self.kinds[s],
                        white: *w,
                    },
                });
            }
        }
        cells
    }

    fn royal(&self, kind: usize) -> bool {
        self.values[kind] == MValue::Royal
    }

    /// Spec "A valid move": x = column number, y = row number (1-based).
    fn value_at(&self, kind: usize, square: usize) -> Option<i64> {
        let cols = self.cols as usize;
        match self.values[kind] {
            MValue::Royal => None,
            MValue::Number(n) => Some(n),
            MValue::X => Some((square % cols) as i64 + 1),
            MValue::Y => Some((square / cols) as i64 + 1),
        }
    }

    /// Spec "Geometry": white looks up the board; Black's view is rotated
    /// 180° (forward toward row a, right toward column 1).
    fn leap(&self, square: usize, white: bool, forward: i64, right: i64) -> Option<usize> {
        let (dr, dc) = if white {
            (forward, right)
        } else {
            (-forward, -right)
        };
        let row = (square as i64) / i64::from(self.cols) + dr;
        let col = (square as i64) % i64::from(self.cols) + dc;
        if row < 0 || col < 0 || row >= i64::from(self.rows) || col >= i64::from(self.cols) {
            return None;
        }
        Some((row * i64::from(self.cols) + col) as usize)
    }

    /// The owner's rank: 1 = the owner's nearest row.
    fn rank(&self, square: usize, white: bool) -> i64 {
        let row = (square as i64) / i64::from(self.cols);
        if white {
            row + 1
        } else {
            i64::from(self.rows) - row
        }
    }

    /// Spec: `r(A,b)`: the piece stands on rank b (or in range b); negative
    /// ranks count from the far side (−1 = the owner's last row); `[x,y]`
    /// either way round is every rank from x to y; rank 0 matches no row.
    /// Read literally: the ranks from min to max, each mapped to its row.
    fn rank_matches(&self, rank: i64, (a, b): (i64, i64)) -> bool {
        let rows = i64::from(self.rows);
        (a.min(b)..=a.max(b)).any(|r| {
            let row = if r > 0 {
                r
            } else if r < 0 {
                rows + 1 + r
            } else {
                return false;
            };
            row >= 1 && row == rank
        })
    }
}

/// The leap vectors of `(a,b|dirs)` in the owner's (forward, right)
/// coordinates, in the order the project documents, duplicates and (0,0)
/// removed, then the direction filter (union of ^ v > <).
fn vectors(a: i64, b: i64, dirs: Option<[bool; 4]>) -> Vec<(i64, i64)> {
    let mut out = Vec::new();
    for v in [
        (a, b),
        (a, -b),
        (-a, b),
        (-a, -b),
        (b, a),
        (b, -a),
        (-b, a),
        (-b, -a),
    ] {
        if v == (0, 0) || out.contains(&v) {
            continue;
        }
        if let Some([up, down, right, left]) = dirs {
            if !((up && v.0 > 0) || (down && v.0 < 0) || (right && v.1 > 0) || (left && v.1 < 0)) {
                continue;
            }
        }
        out.push(v);
    }
    out
}

impl<'a> WayTable<'a> {
    /// The ways of one round of `item` with its first `depth` repetitions
    /// (`depth` > 0: the round is itself a repetition, one free way).
    fn of(&mut self, model: &Model<'a>, item: &'a Item, depth: usize) -> Vec<usize> {
        let key = (addr(item), depth);
        if let Some(ids) = self.index.get(&key) {
            return ids.clone();
        }
        let ways = if depth > 0 {
            vec![vec![Part::Nested(item, depth)]]
        } else {
            atom_ways(model, &item.atom)
        };
        let mut ids = Vec::new();
        for way in ways {
            ids.push(self.ways.len());
            self.ways.push(way);
        }
        self.index.insert(key, ids.clone());
        ids
    }
}

/// The ways of an atom: every combination of its outer choices, in
/// notation order (leftmost choice most significant).
fn atom_ways<'a>(model: &Model<'a>, atom: &'a Atom) -> Vec<Vec<Part<'a>>> {
    match atom {
        Atom::Leap { a, b, dirs } => vectors(*a, *b, *dirs)
            .into_iter()
            .map(|(f, r)| vec![Part::Leap(f, r)])
            .collect(),
        Atom::Any(alts) => alts.iter().flat_map(|alt| seq_ways(model, alt)).collect(),
        Atom::Group(seq) => seq_ways(model, seq),
        Atom::Capture(seq) => prefix(Part::C, seq_ways(model, seq)),
        Atom::NoCapture(seq) => prefix(Part::M, seq_ways(model, seq)),
        Atom::Rank {
            seq,
            ranks,
            negated,
        } => prefix(Part::Rank(*ranks, *negated), seq_ways(model, seq)),
        Atom::Like(symbol) => seq_ways(model, model.notations[model.kinds[&symbol.value]]),
        Atom::CaptureHere => vec![vec![Part::X]],
        Atom::Promote(targets) => vec![vec![Part::P(targets)]],
    }
}

fn seq_ways<'a>(model: &Model<'a>, seq: &'a [Item]) -> Vec<Vec<Part<'a>>> {
    let mut ways = vec![Vec::new()];
    for item in seq {
        let tails = if item.repeats.is_empty() {
            atom_ways(model, &item.atom)
        } else {
            vec![vec![Part::Nested(item, item.repeats.len())]]
        };
        let mut next = Vec::new();
        for way in &ways {
            for tail in &tails {
                let mut w: Vec<Part<'a>> = way.clone();
                w.extend(tail.iter().copied());
                next.push(w);
            }
        }
        ways = next;
    }
    ways
}

fn prefix<'a>(part: Part<'a>, ways: Vec<Vec<Part<'a>>>) -> Vec<Vec<Part<'a>>> {
    ways.into_iter()
        .map(|w| {
            let mut v = vec![part];
            v.extend(w);
            v
        })
        .collect()
}

/// The frames plus where they point to (the frames hold addresses; these
/// hold the references).
#[derive(Clone)]
struct Stack<'a> {
    frames: Vec<Frame>,
    seqs: Vec<&'a [Item]>,
    items: Vec<Option<&'a Item>>,
}

impl<'a> Stack<'a> {
    fn push_items(&mut self, seq: &'a [Item], next: usize) {
        self.frames.push(Frame::Items {
            seq: addr(seq),
            len: seq.len(),
            next,
        });
        self.seqs.push(seq);
        self.items.push(None);
    }
    fn push_other(&mut self, frame: Frame, item: Option<&'a Item>) {
        self.frames.push(frame);
        self.seqs.push(&[]);
        self.items.push(item);
    }
    fn pop(&mut self) -> Option<(Frame, &'a [Item], Option<&'a Item>)> {
        let f = self.frames.pop()?;
        Some((f, self.seqs.pop().unwrap(), self.items.pop().unwrap()))
    }
    fn crooked_depth(&self) -> usize {
        self.frames
            .iter()
            .filter(|f| matches!(f, Frame::AnyLoop { .. }))
            .count()
    }
}

impl<'m, 'a> Search<'m, 'a> {
    fn new(
        model: &'m Model<'a>,
        board: &'m [MCell],
        ways: &'m mut WayTable<'a>,
        steps: &'m mut usize,
        limit: usize,
        (white, kind, from): (bool, usize, usize),
        goal: Goal,
    ) -> Self {
        Search {
            model,
            board,
            white,
            kind,
            from,
            goal,
            ways,
            on_path: HashSet::new(),
            steps,
            limit,
            record: None,
            found: None,
            ends: None,
        }
    }

    /// Runs the search; Ok(true) when it stopped at a path.
    fn run(&mut self) -> Result<bool, Budget> {
        let mut stack = Stack {
            frames: Vec::new(),
            seqs: Vec::new(),
            items: Vec::new(),
        };
        stack.push_items(self.model.notations[self.kind], 0);
        let walk = Walk {
            square: self.from,
            lands: Vec::new(),
            here: Here::Start,
            open: false,
            must_capture: false,
            no_capture: false,
            captured: false,
            fell: false,
            promote: None,
            effects: Vec::new(),
        };
        self.step(stack, walk)
    }

    fn attack(&self) -> bool {
        matches!(self.goal, Goal::Attack { .. })
    }

    /// Continues the path: `stack` is what is left to do.
    fn step(&mut self, mut stack: Stack<'a>, walk: Walk<'a>) -> Result<bool, Budget> {
        *self.steps += 1;
        if *self.steps > self.limit {
            return Err(Budget);
        }
        let key = Key {
            frames: stack.frames.clone(),
            square: walk.square,
            here: walk.here,
            pending_hole: walk.open && walk.here == Here::Hole,
            must_capture: walk.must_capture,
            no_capture: walk.no_capture,
            captured: walk.captured,
            leapt: !walk.lands.is_empty(),
            promote: walk.promote.map(addr),
            effects: walk.effects.clone(),
        };
        if !self.on_path.insert(key.clone()) {
            // The same point of the notation again with nothing new: a
            // detour (see the module doc).
            return Ok(false);
        }
        let result = self.step_inner(&mut stack, walk);
        self.on_path.remove(&key);
        result
    }

    fn step_inner(&mut self, stack: &mut Stack<'a>, walk: Walk<'a>) -> Result<bool, Budget> {
        let Some((frame, seq, item)) = stack.pop() else {
            return self.complete(walk);
        };
        match frame {
            Frame::Items { next, len, .. } => {
                if next == len {
                    return self.step(stack.clone(), walk);
                }
                let mut rest = stack.clone();
                rest.push_items(seq, next + 1);
                self.item(rest, walk, &seq[next], seq[next].repeats.len())
            }
            Frame::Parts { way, next } => {
                let parts = &self.ways.ways[way];
                if next == parts.len() {
                    return self.step(stack.clone(), walk);
                }
                let part = parts[next];
                let mut rest = stack.clone();
                rest.push_other(Frame::Parts { way, next: next + 1 }, None);
                self.part(rest, walk, part)
            }
            Frame::AnyLoop { depth, .. } => {
                let item = item.unwrap();
                // Stop first …
                let mut stopped = walk.clone();
                if stack.crooked_depth() == 0 {
                    stopped.open = false;
                }
                if self.step(stack.clone(), stopped)? {
                    return Ok(true);
                }
                // … then one more round.
                let mut again = stack.clone();
                again.push_other(frame, Some(item));
                self.item(again, walk, item, depth)
            }
            Frame::SameLoop { depth: _, way, .. } => {
                let item = item.unwrap();
                if self.step(stack.clone(), walk.clone())? {
                    return Ok(true);
                }
                let mut again = stack.clone();
                again.push_other(frame, Some(item));
                again.push_other(Frame::Parts { way, next: 0 }, None);
                self.step(again, walk)
            }
        }
    }

    /// Runs `item` with its first `depth` repetitions, then `stack`.
    fn item(
        &mut self,
        stack: Stack<'a>,
        walk: Walk<'a>,
        item: &'a Item,
        depth: usize,
    ) -> Result<bool, Budget> {
        if depth == 0 {
            return self.atom(stack, walk, &item.atom);
        }
        match item.repeats[depth - 1] {
            Repeat::Any => {
                // One round at least, then the loop decides.
                let mut s = stack;
                s.push_other(
                    Frame::AnyLoop {
                        item: addr(item),
                        depth: depth - 1,
                    },
                    Some(item),
                );
                self.item(s, walk, item, depth - 1)
            }
            Repeat::Same => {
                let ways = self.ways.of(self.model, item, depth - 1);
                for way in ways {
                    let mut s = stack.clone();
                    s.push_other(
                        Frame::SameLoop {
                            item: addr(item),
                            depth: depth - 1,
                            way,
                        },
                        Some(item),
                    );
                    s.push_other(Frame::Parts { way, next: 0 }, None);
                    if self.step(s, walk.clone())? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
        }
    }

    fn atom(&mut self, stack: Stack<'a>, walk: Walk<'a>, atom: &'a Atom) -> Result<bool, Budget> {
        match atom {
            Atom::Leap { a, b, dirs } => {
                for (f, r) in vectors(*a, *b, *dirs) {
                    if let Some(next) = self.land(&stack, &walk, f, r) {
                        if self.step(stack.clone(), next)? {
                            return Ok(true);
                        }
                    }
                }
                Ok(false)
            }
            Atom::Any(alts) => {
                for alt in alts {
                    let mut s = stack.clone();
                    s.push_items(alt, 0);
                    if self.step(s, walk.clone())? {
                        return Ok(true);
                    }
                }
                Ok(false)
            }
            Atom::Group(seq) => {
                let mut s = stack;
                s.push_items(seq, 0);
                self.step(s, walk)
            }
            Atom::Like(symbol) => {
                let mut s = stack;
                s.push_items(self.model.notations[self.model.kinds[&symbol.value]], 0);
                self.step(s, walk)
            }
            Atom::Capture(seq) | Atom::NoCapture(seq) | Atom::Rank { seq, .. } => {
                let part = match atom {
                    Atom::Capture(_) => Part::C,
                    Atom::NoCapture(_) => Part::M,
                    Atom::Rank { ranks, negated, .. } => Part::Rank(*ranks, *negated),
                    _ => unreachable!(),
                };
                let Some(walk) = self.condition(walk, part) else {
                    return Ok(false);
                };
                let mut s = stack;
                s.push_items(seq, 0);
                self.step(s, walk)
            }
            Atom::CaptureHere => match self.condition(walk, Part::X) {
                Some(w) => self.step(stack, w),
                None => Ok(false),
            },
            Atom::Promote(t) => match self.condition(walk, Part::P(t)) {
                Some(w) => self.step(stack, w),
                None => Ok(false),
            },
        }
    }

    fn part(&mut self, stack: Stack<'a>, walk: Walk<'a>, part: Part<'a>) -> Result<bool, Budget> {
        match part {
            Part::Leap(f, r) => match self.land(&stack, &walk, f, r) {
                Some(next) => self.step(stack, next),
                None => Ok(false),
            },
            Part::Nested(item, depth) => self.item(stack, walk, item, depth),
            other => match self.condition(walk, other) {
                Some(w) => self.step(stack, w),
                None => Ok(false),
            },
        }
    }

    /// `x`, `p`, `c(`, `m(`, `r(`: the walk after it, or None.
    fn condition(&self, mut walk: Walk<'a>, part: Part<'a>) -> Option<Walk<'a>> {
        match part {
            Part::C => walk.must_capture = true,
            Part::M => walk.no_capture = true,
            Part::Rank(ranks, negated) => {
                let rank = self.model.rank(walk.square, self.white);
                if self.model.rank_matches(rank, ranks) == negated {
                    return None;
                }
            }
            // Spec: `x` captures the enemy piece where the move stands; a
            // second `x` on the same landing does nothing more; `x` before
            // any leap (on FROM) or on an empty square or hole is impossible.
            Part::X => match walk.here {
                Here::Enemy => {
                    walk.here = Here::Captured;
                    walk.captured = true;
                    if !walk.fell {
                        walk.effects.push((walk.square, false));
                    }
                    walk.lands.last_mut().unwrap().x = true;
                }
                Here::Captured => {}
                _ => return None,
            },
            Part::P(targets) => {
                if !self.attack() {
                    walk.promote = Some(targets);
                }
            }
            Part::Leap(..) | Part::Nested(..) => unreachable!(),
        }
        Some(walk)
    }

    /// One leap from the walk's square. Prunes prefixes that no board
    /// check below could accept (the full check is [`path_allowed`]).
    fn land(&self, stack: &Stack<'a>, walk: &Walk<'a>, f: i64, r: i64) -> Option<Walk<'a>> {
        // A landing holding an enemy must be followed by `x` before the path
        // goes on.
        if walk.here == Here::Enemy {
            return None;
        }
        // Crooked: a hole must be the last landing of its repetitions.
        if walk.open && walk.here == Here::Hole {
            return None;
        }
        let square = self.model.leap(walk.square, self.white, f, r)?;
        let here = match self.board[square] {
            MCell::Piece { white, .. } if white == self.white => return None,
            MCell::Piece { .. } => Here::Enemy,
            MCell::Empty => Here::Empty,
            MCell::Hole if self.attack() => return None,
            MCell::Hole => Here::Hole,
        };
        // The mover's own square holds the mover (caught above).
        debug_assert_ne!(square, self.from);
        let mut next = walk.clone();
        if walk.open {
            if let Some(last) = next.lands.last_mut() {
                last.no_hole = true;
            }
        }
        next.lands.push(Land {
            square,
            x: false,
            no_hole: false,
        });
        next.square = square;
        next.here = here;
        next.open = stack.crooked_depth() > 0;
        if here == Here::Hole && !next.fell {
            next.fell = true;
            next.effects.push((square, true));
        }
        Some(next)
    }

    /// A complete path: validate it in full and decide.
    fn complete(&mut self, walk: Walk<'a>) -> Result<bool, Budget> {
        let path = MPath {
            lands: walk.lands,
            must_capture: walk.must_capture,
            no_capture: walk.no_capture,
            promote: walk.promote,
        };
        let end = path.lands.last().map_or(self.from, |l| l.square);
        if let Some(ends) = &mut self.ends {
            if path_allowed(self.board, self.white, self.from, &path, false) {
                ends.push(end);
            }
            return Ok(false);
        }
        if let Some(record) = &mut self.record {
            record.push(path);
            return Ok(false);
        }
        match self.goal {
            Goal::Attack { to } => {
                Ok(end == to && path_allowed(self.board, self.white, self.from, &path, true))
            }
            Goal::Move { to, promote } => {
                if end != to
                    || !path_allowed(self.board, self.white, self.from, &path, false)
                    || !promotion_matches(self.model, self.kind, &path, promote)
                {
                    return Ok(false);
                }
                // The check rule: make the move, then no royal piece of the
                // mover may be attacked; else try the next path.
                let (cells, effects) =
                    make_move(self.board, self.white, self.kind, self.from, &path, promote);
                if royals_safe(self.model, &cells, self.white, self.steps, self.limit)? {
                    self.found = Some((path, cells, effects));
                    return Ok(true);
                }
                Ok(false)
            }
        }
    }
}

/// Whether `square` is attacked by a piece of colour `by_white` on `board`
/// (spec: that piece has a legal path, check rule ignored, ending with a
/// capture there and landing on no hole).
fn attacked(
    model: &Model,
    board: &[MCell],
    square: usize,
    by_white: bool,
    steps: &mut usize,
    limit: usize,
) -> Result<bool, Budget> {
    let mut ways = WayTable::default();
    for (from, cell) in board.iter().enumerate() {
        let MCell::Piece { kind, white } = *cell else {
            continue;
        };
        if white != by_white {
            continue;
        }
        let mut search = Search::new(
            model,
            board,
            &mut ways,
            steps,
            limit,
            (white, kind, from),
            Goal::Attack { to: square },
        );
        if search.run()? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The check rule: none of `white`'s royal pieces attacked.
fn royals_safe(
    model: &Model,
    board: &[MCell],
    white: bool,
    steps: &mut usize,
    limit: usize,
) -> Result<bool, Budget> {
    for (square, cell) in board.iter().enumerate() {
        if let MCell::Piece { kind, white: w } = *cell {
            if w == white && model.royal(kind) && attacked(model, board, square, !white, steps, limit)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// Spec "Legal paths", the board conditions, on the board before the move.
fn path_allowed(
    board: &[MCell],
    white: bool,
    from: usize,
    path: &MPath,
    attack: bool,
) -> bool {
    let n = path.lands.len();
    // A path with no leap only promotes (then TO = FROM).
    if n == 0 {
        return !attack && path.promote.is_some();
    }
    let mut captures = false;
    for (i, land) in path.lands.iter().enumerate() {
        let last = i + 1 == n;
        if land.square == from {
            return false;
        }
        match board[land.square] {
            MCell::Piece { white: w, .. } if w == white => return false,
            MCell::Piece { .. } => {
                // Before the last, an enemy only where `x` follows.
                if !(land.x || last) {
                    return false;
                }
                captures = true;
            }
            MCell::Empty => {
                if land.x {
                    return false;
                }
            }
            MCell::Hole => {
                if land.x || land.no_hole || attack {
                    return false;
                }
            }
        }
    }
    let ends_capturing = matches!(board[path.lands[n - 1].square], MCell::Piece { .. });
    if path.must_capture && !ends_capturing {
        return false;
    }
    if path.no_capture && captures {
        return false;
    }
    if attack && !ends_capturing {
        return false;
    }
    true
}

/// Spec: "if the path promotes, the move line names an allowed target; if
/// the move line names a target, the path promotes"; `p` alone allows any
/// other type.
fn promotion_matches(model: &Model, kind: usize, path: &MPath, promote: Option<usize>) -> bool {
    match (path.promote, promote) {
        (None, None) => true,
        (Some(targets), Some(t)) => {
            if targets.is_empty() {
                t != kind
            } else {
                targets.iter().any(|s| model.kinds[&s.value] == t)
            }
        }
        _ => false,
    }
}

/// Makes the move along `path` on a copy of `board` (spec "A valid move"):
/// the mover leaves FROM; at the first hole it falls and nothing after
/// happens; `x` captures; an enemy on the last landing is captured; the
/// mover (promoted) lands.
fn make_move(
    board: &[MCell],
    white: bool,
    kind: usize,
    from: usize,
    path: &MPath,
    promote: Option<usize>,
) -> (Vec<MCell>, Vec<Effect>) {
    let mut cells = board.to_vec();
    let mut effects = Vec::new();
    cells[from] = MCell::Empty;
    for land in &path.lands {
        match cells[land.square] {
            MCell::Hole => {
                effects.push(Effect::Fell {
                    square: land.square,
                });
                return (cells, effects);
            }
            MCell::Piece {
                kind: victim,
                white: w,
            } if w != white && land.x => {
                effects.push(Effect::Captured {
                    kind: victim,
                    white: w,
                    square: land.square,
                });
                cells[land.square] = MCell::Empty;
            }
            _ => {}
        }
    }
    let end = path.lands.last().map_or(from, |l| l.square);
    if let MCell::Piece {
        kind: victim,
        white: w,
    } = cells[end]
    {
        assert_ne!(w, white);
        effects.push(Effect::Captured {
            kind: victim,
            white: w,
            square: end,
        });
    }
    cells[end] = MCell::Piece {
        kind: promote.unwrap_or(kind),
        white,
    };
    (cells, effects)
}

/// The model's whole case runner.
struct Runner<'m, 'a> {
    model: &'m Model<'a>,
    ways: WayTable<'a>,
    steps: usize,
    limit: usize,
}

impl<'m, 'a> Runner<'m, 'a> {
    fn new(model: &'m Model<'a>, limit: usize) -> Self {
        Runner {
            model,
            ways: WayTable::default(),
            steps: 0,
            limit,
        }
    }

    /// Every complete path of the mover in order (no board validation
    /// beyond pruning), for the unit tests.
    fn paths(
        &mut self,
        board: &[MCell],
        mover: (bool, usize, usize),
        to: usize,
    ) -> Result<Vec<MPath<'a>>, Budget> {
        let mut search = Search::new(
            self.model,
            board,
            &mut self.ways,
            &mut self.steps,
            self.limit,
            mover,
            Goal::Move { to, promote: None },
        );
        search.record = Some(Vec::new());
        search.run()?;
        Ok(search.record.take().unwrap())
    }

    /// End squares of the legal paths (before the check rule) met within
    /// `limit` steps: good targets for random moves.
    fn ends(&mut self, board: &[MCell], mover: (bool, usize, usize), limit: usize) -> Vec<usize> {
        let mut steps = 0;
        let mut search = Search::new(
            self.model,
            board,
            &mut self.ways,
            &mut steps,
            limit,
            mover,
            Goal::Move {
                to: usize::MAX,
                promote: None,
            },
        );
        search.ends = Some(Vec::new());
        let _ = search.run();
        search.ends.take().unwrap()
    }

    /// The move: the first path in order that is legal and passes the check
    /// rule, then its effects.
    fn play(
        &mut self,
        board: &[MCell],
        (white, kind, from): (bool, usize, usize),
        to: usize,
        promote: Option<usize>,
        input: &mut std::vec::IntoIter<i64>,
    ) -> Result<Outcome, Budget> {
        let mut stacks = [Vec::new(), Vec::new()];
        let unchanged = |stacks: [Vec<i64>; 2]| Outcome {
            valid: false,
            cells: board.to_vec(),
            stacks,
            output: String::new(),
            error: None,
        };
        if board[from] != (MCell::Piece { kind, white }) {
            return Ok(unchanged(stacks));
        }
        let mut search = Search::new(
            self.model,
            board,
            &mut self.ways,
            &mut self.steps,
            self.limit,
            (white, kind, from),
            Goal::Move { to, promote },
        );
        search.run()?;
        let chosen = search.found.take().map(|(_, cells, effects)| (cells, effects));
        let Some((cells, effects)) = chosen else {
            return Ok(unchanged(stacks));
        };
        let mut output = String::new();
        let mut error = None;
        for effect in effects {
            match effect {
                Effect::Captured {
                    kind: victim,
                    white: w,
                    square,
                } => {
                    if let Some(v) = self.model.value_at(victim, square) {
                        stacks[usize::from(!w)].push(v);
                    }
                }
                Effect::Fell { square } => {
                    if let Some(v) = self.model.value_at(kind, square) {
                        if let Err(e) =
                            stack_action(&mut stacks[usize::from(!white)], white, v, input, &mut output)
                        {
                            error = Some(e);
                            break;
                        }
                    }
                }
            }
        }
        Ok(Outcome {
            valid: true,
            cells,
            stacks,
            output,
            error,
        })
    }
}

/// Spec's stack-action table, chosen by value mod 6 (always 0..5).
fn stack_action(
    stack: &mut Vec<i64>,
    white: bool,
    value: i64,
    input: &mut std::vec::IntoIter<i64>,
    output: &mut String,
) -> Result<(), String> {
    let action = value.rem_euclid(6);
    let need = match action {
        0..=2 => 2,
        4 | 5 => 1,
        _ => 0,
    };
    if stack.len() < need {
        return Err(format!(
            "stack action {action} needs {need} value{} on the {} stack, which has {}",
            if need == 1 { "" } else { "s" },
            if white { "white" } else { "black" },
            stack.len()
        ));
    }
    match action {
        0 | 1 | 2 => {
            let a = stack.pop().unwrap();
            let b = stack.pop().unwrap();
            stack.push(match action {
                0 => a + b,
                1 => a - b,
                _ => i64::from(a == b),
            });
        }
        3 => stack.push(input.next().ok_or("input ended")?),
        4 => writeln!(output, "{}", stack.last().unwrap()).unwrap(),
        _ => {
            stack.pop();
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Random programs
// ---------------------------------------------------------------------------

/// A generated notation atom (`Like` and `P` name piece types by index,
/// resolved when printed).
#[derive(Clone, Debug)]
enum G {
    Leap(i64, i64, &'static str),
    Any(Vec<Vec<GItem>>),
    Group(Vec<GItem>),
    C(Vec<GItem>),
    M(Vec<GItem>),
    R(Vec<GItem>, (i64, i64), bool, bool),
    Like(usize),
    X,
    P(Vec<usize>),
}

#[derive(Clone, Debug)]
struct GItem {
    atom: G,
    repeats: &'static str,
}

const SYMBOLS: [&str; 4] = ["K", "A", "B", "C"];

fn print_seq(seq: &[GItem], me: usize, out: &mut String) {
    for (i, item) in seq.iter().enumerate() {
        if i > 0 && i % 2 == 0 {
            out.push(' ');
        }
        print_atom(&item.atom, me, out);
        out.push_str(item.repeats);
    }
}

fn print_atom(atom: &G, me: usize, out: &mut String) {
    match atom {
        G::Leap(a, b, dirs) => {
            if dirs.is_empty() {
                write!(out, "({a},{b})").unwrap();
            } else {
                write!(out, "({a},{b}|{dirs})").unwrap();
            }
        }
        G::Any(alts) => {
            out.push('{');
            for (i, alt) in alts.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                print_seq(alt, me, out);
            }
            out.push('}');
        }
        G::Group(s) => {
            out.push('[');
            print_seq(s, me, out);
            out.push(']');
        }
        G::C(s) | G::M(s) => {
            out.push_str(if matches!(atom, G::C(_)) { "c(" } else { "m(" });
            print_seq(s, me, out);
            out.push(')');
        }
        G::R(s, (a, b), negated, range) => {
            out.push_str(if *negated { "r!(" } else { "r(" });
            print_seq(s, me, out);
            if *range {
                write!(out, ",[{a},{b}])").unwrap();
            } else {
                write!(out, ",{a})").unwrap();
            }
        }
        G::Like(k) => {
            if *k < me {
                write!(out, "\"{}\"", SYMBOLS[*k]).unwrap();
            } else {
                // No earlier type to move like: a plain step instead.
                out.push_str("(1,0)");
            }
        }
        G::X => out.push('x'),
        G::P(targets) => {
            out.push('p');
            if !targets.is_empty() {
                out.push_str("->[");
                for (i, t) in targets.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(SYMBOLS[*t]);
                }
                out.push(']');
            }
        }
    }
}

fn leaf() -> impl Strategy<Value = G> {
    prop_oneof![
        6 => (
            prop_oneof![3 => 0i64..=2, 1 => -1i64..=3],
            prop_oneof![3 => 0i64..=2, 1 => -1i64..=3],
            prop_oneof![
                4 => Just(""),
                1 => Just("^"),
                1 => Just("v"),
                1 => Just(">"),
                1 => Just("<"),
                1 => Just("^>"),
                1 => Just("v<"),
            ]
        )
            .prop_map(|(a, b, d)| G::Leap(a, b, d)),
        1 => Just(G::X),
        1 => prop::collection::vec(0usize..4, 0..=2).prop_map(G::P),
        1 => (0usize..4).prop_map(G::Like),
    ]
}

fn repeats() -> BoxedStrategy<&'static str> {
    prop_oneof![
        10 => Just(""),
        3 => Just("*"),
        3 => Just("`"),
        1 => Just("**"),
        1 => Just("*`"),
        1 => Just("`*"),
        1 => Just("``"),
    ]
    .boxed()
}

/// Ranks well inside the spec's unambiguous readings: a single rank (0
/// included), or a range whose two ends have the same sign.
fn ranks() -> impl Strategy<Value = ((i64, i64), bool)> {
    prop_oneof![
        (-4i64..=4).prop_map(|r| ((r, r), false)),
        (1i64..=4, 1i64..=4).prop_map(|(a, b)| ((a, b), true)),
        (-4i64..=-1, -4i64..=-1).prop_map(|(a, b)| ((a, b), true)),
    ]
}

fn notation() -> impl Strategy<Value = Vec<GItem>> {
    let atom = leaf().prop_recursive(3, 24, 3, |inner| {
        let item = (inner, repeats()).prop_map(|(atom, repeats)| GItem { atom, repeats });
        let seq = prop::collection::vec(item, 1..=2).boxed();
        prop_oneof![
            2 => prop::collection::vec(seq.clone(), 2..=3).prop_map(G::Any),
            2 => seq.clone().prop_map(G::Group),
            1 => seq.clone().prop_map(G::C),
            1 => seq.clone().prop_map(G::M),
            1 => (seq, ranks(), any::<bool>())
                .prop_map(|(s, (r, range), negated)| G::R(s, r, negated, range)),
        ]
    });
    let item = (atom, repeats()).prop_map(|(atom, repeats)| GItem { atom, repeats });
    prop::collection::vec(item, 0..=3)
}

/// A value: royal, numbers that push input (≡ 3), and the rest.
fn value() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        3 => Just(""),
        3 => Just(" 3"),
        2 => Just(" 9"),
        1 => Just(" -3"),
        1 => Just(" 7"),
        1 => Just(" x"),
        1 => Just(" y"),
        1 => Just(" 4"),
    ]
}

#[derive(Clone, Debug)]
struct Case {
    pieces: Vec<(&'static str, Vec<GItem>)>,
    rows: usize,
    cols: usize,
    /// Per cell: 0 empty, 1 hole, 2.. a piece (kind, white).
    cells: Vec<(u8, usize, bool)>,
    mover: usize,
    to: usize,
    to_reachable: bool,
    promote: Option<usize>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::collection::vec((value(), notation()), 1..=4),
        2usize..=6,
        2usize..=6,
    )
        .prop_flat_map(|(pieces, rows, cols)| {
            let n = pieces.len();
            let cell = prop_oneof![
                6 => Just((0u8, 0usize, false)),
                2 => Just((1u8, 0usize, false)),
                5 => (0..n, any::<bool>()).prop_map(|(k, w)| (2u8, k, w)),
            ];
            (
                Just(pieces),
                Just(rows),
                Just(cols),
                prop::collection::vec(cell, rows * cols),
                any::<prop::sample::Index>(),
                0..rows * cols,
                prop::bool::weighted(0.75),
                prop::option::weighted(0.25, 0..n),
            )
        })
        .prop_map(
            |(pieces, rows, cols, cells, mover, to, to_reachable, promote)| Case {
                pieces,
                rows,
                cols,
                mover: mover.index(1 << 20),
                cells,
                to,
                to_reachable,
                promote,
            },
        )
}

/// The program text of a case, and the mover (white, kind, from) if the
/// board has a piece at all.
fn program_text(case: &Case) -> (String, Option<(bool, usize, usize)>) {
    let mut text = String::new();
    for (i, (value, notation)) in case.pieces.iter().enumerate() {
        let mut n = String::new();
        print_seq(notation, i, &mut n);
        writeln!(text, "({}{value}): {n}", SYMBOLS[i]).unwrap();
    }
    let border: String = "+--".repeat(case.cols) + "+";
    let mut pieces = Vec::new();
    for row in (0..case.rows).rev() {
        writeln!(text, "{border}").unwrap();
        text.push('|');
        for col in 0..case.cols {
            let (what, kind, white) = case.cells[row * case.cols + col];
            match what {
                0 => text.push_str("  |"),
                1 => text.push_str("##|"),
                _ => {
                    write!(text, "{}{}|", SYMBOLS[kind], if white { 'W' } else { 'B' }).unwrap();
                    pieces.push((white, kind, row * case.cols + col));
                }
            }
        }
        text.push('\n');
    }
    writeln!(text, "{border}").unwrap();
    pieces.sort_by_key(|p| p.2);
    let mover = (!pieces.is_empty()).then(|| pieces[case.mover % pieces.len()]);
    writeln!(text, "Turn 1 W: K a1 -> a1").unwrap();
    (text, mover)
}

/// The engine's outcome, in the model's terms.
fn engine_outcome(
    program: &finvara::ir::Program,
    (white, kind, from): (bool, usize, usize),
    to: usize,
    promote: Option<usize>,
    input: &str,
) -> Outcome {
    let data = program.rules_data();
    let rules = data.rules();
    let mut game = fv::Game::new(&rules, &program.board);
    let mut out = Vec::new();
    let mut io = Io::new(input.as_bytes(), &mut out);
    let result = game.try_move(
        &rules,
        &mut io,
        white,
        kind as u16,
        from as u32,
        to as u32,
        promote.map(|p| p as u16),
        1,
    );
    io.flush().unwrap();
    drop(io);
    let cells = game
        .cells()
        .iter()
        .map(|c| match *c {
            Cell::Empty => MCell::Empty,
            Cell::Hole => MCell::Hole,
            Cell::Piece { kind, white } => MCell::Piece {
                kind: usize::from(kind),
                white,
            },
        })
        .collect();
    let (valid, error) = match result {
        Ok(v) => (v, None),
        Err(e) => (true, Some(e.to_string())),
    };
    Outcome {
        valid,
        cells,
        stacks: [game.stack(true).to_vec(), game.stack(false).to_vec()],
        output: String::from_utf8(out).unwrap(),
        error,
    }
}

/// Most search steps the model may take on one case.
const LIMIT: usize = 20_000;

#[derive(Debug)]
enum Verdict {
    Agree,
    /// The model gave up or the program did not compile.
    Skipped(&'static str),
    Disagree(String),
}

const INPUT: &str = "100 101 102 103";

/// Runs a case on a thread with a big stack (the model recurses once per
/// step of a path).
fn run_case(case: &Case) -> Verdict {
    let case = case.clone();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || run_case_here(&case))
        .unwrap()
        .join()
        .unwrap()
}

fn run_case_here(case: &Case) -> Verdict {
    let (text, mover) = program_text(case);
    let Some(mover) = mover else {
        return Verdict::Skipped("no piece");
    };
    let source = Source::new("model.fv", text.clone());
    let Ok(tree) = syntax::parse(&source) else {
        return Verdict::Disagree(format!("generated program does not parse:\n{text}"));
    };
    let program = match finvara::front_end(&source) {
        Ok((program, _)) => program,
        Err(e) => {
            if std::env::var_os("MODEL_DEBUG").is_some() {
                eprintln!("{text}{e:?}");
            }
            return Verdict::Skipped("compile error");
        }
    };
    let model = Model::new(&tree);
    let board = model.board(&tree);
    let mut runner = Runner::new(&model, LIMIT);
    let to = if case.to_reachable {
        let ends = runner.ends(&board, mover, 2_000);
        if ends.is_empty() {
            case.to
        } else {
            ends[case.to % ends.len()]
        }
    } else {
        case.to
    };
    let mut input = vec![100i64, 101, 102, 103].into_iter();
    let Ok(mut expected) = runner.play(&board, mover, to, case.promote, &mut input) else {
        return Verdict::Skipped("model budget");
    };
    let mut actual = engine_outcome(&program, mover, to, case.promote, INPUT);
    // The engine reports a failing stack action as an error of the line;
    // the model only has its message.
    if let (Some(e), Some(a)) = (&expected.error, &actual.error) {
        if a.ends_with(e.as_str()) {
            actual.error = Some(e.clone());
        }
    }
    if expected.error.is_some() {
        // After a runtime error only the error matters.
        expected.cells.clone_from(&actual.cells);
        expected.stacks.clone_from(&actual.stacks);
        expected.output.clone_from(&actual.output);
    }
    if expected == actual {
        Verdict::Agree
    } else {
        let name = |sq: usize| finvara::ir::square_name(case.cols as u32, sq as u32);
        Verdict::Disagree(format!(
            "{text}move: {} {} {} -> {}{}\nmodel:  {}\nengine: {}",
            if mover.0 { "W" } else { "B" },
            SYMBOLS[mover.1],
            name(mover.2),
            name(to),
            case.promote.map_or(String::new(), |p| format!(" = {}", SYMBOLS[p])),
            show(&expected, case.cols),
            show(&actual, case.cols),
        ))
    }
}

fn show(o: &Outcome, cols: usize) -> String {
    let mut s = format!("valid={} ", o.valid);
    for (i, c) in o.cells.iter().enumerate() {
        if i % cols == 0 {
            s.push('|');
        }
        match c {
            MCell::Empty => s.push_str(". "),
            MCell::Hole => s.push_str("##"),
            MCell::Piece { kind, white } => {
                write!(s, "{}{}", SYMBOLS[*kind], if *white { 'W' } else { 'B' }).unwrap()
            }
        }
    }
    write!(
        s,
        " (rows bottom first) white={:?} black={:?} out={:?} err={:?}",
        o.stacks[0], o.stacks[1], o.output, o.error
    )
    .unwrap();
    s
}

proptest! {
    #![proptest_config(Config { cases: 400, ..Config::default() })]

    #[test]
    fn engine_agrees_with_the_brute_force_model(case in case()) {
        match run_case(&case) {
            Verdict::Agree => {}
            Verdict::Skipped(why) => prop_assume!(false, "{}", why),
            Verdict::Disagree(report) => prop_assert!(false, "{}", report),
        }
    }
}

/// A fixed-seed run of the same generator: most cases are compared, not
/// skipped, and every compared case agrees.
#[test]
fn most_generated_cases_are_compared() {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strategy = case();
    let (mut agree, mut skipped, mut valid) = (0, HashMap::new(), 0);
    for _ in 0..300 {
        let case = strategy.new_tree(&mut runner).unwrap().current();
        match run_case(&case) {
            Verdict::Agree => {
                agree += 1;
                let _ = &mut valid;
            }
            Verdict::Skipped(why) => *skipped.entry(why).or_insert(0) += 1,
            Verdict::Disagree(report) => panic!("{report}"),
        }
    }
    eprintln!("compared {agree}, skipped {skipped:?}");
    assert!(agree >= 240, "only {agree} of 300 cases compared: {skipped:?}");
}
