//! A piece type's notation → its automaton over leaps (the runtime's
//! [`fv::Automaton`]), and the geometric paths one move line can take.
//!
//! The notation is a regular language of leaps and conditions, built here
//! the Thompson way: every construct adds states and *ordered* edges, in
//! the notation order the spec asks for (the runtime's search puts the
//! rounds of a repetition in order: fewer before more, see
//! `fv::search`):
//! - `(a,b)`: one edge per leap vector, in the fixed order (owner's
//!   forward/right coordinates, duplicates removed) (a,b), (a,−b), (−a,b),
//!   (−a,−b), (b,a), (b,−a), (−b,a), (−b,−a);
//! - `{A,B}`: A's branch before B's; `[A]`: A;
//! - `c(A)`, `m(A)`, `x`, `p`: an edge that records the condition or action;
//!   `r(A,b)`/`r!(A,b)`: a guard edge in front of A;
//! - every repetition: an `Enter` edge into the state where its rounds
//!   start, and at the end of each round `Exit` (or `Stop`) and `Loop` (or
//!   `Again`);
//! - `A`` ` (crooked): A in a loop, states marked crooked for the hole
//!   rule;
//! - `A*` (the same way each time): one loop per *way* of A, a way being
//!   the choices of leap vector and alternative A makes (in notation
//!   order), when A has few ways and no repetition nested in it; else one
//!   loop whose first round the search records and later rounds replay
//!   (`Begin`, `Stop`, `Again`);
//! - `"s"`: a *call* edge into s's automaton (built before, since references
//!   are acyclic): the search enters s's moves and, at their end, goes on
//!   after the call. Nothing is copied, so chains of references cost their
//!   length, not its square. An empty notation's automaton has no path at
//!   all (the piece cannot move), so a call into it goes nowhere.

use std::collections::HashMap;

use chess2rs_runtime::__private::fv::{self, Edge, State, Step, UNBOUNDED};

use super::syntax::{Atom, Item, Repeat, Seq};
use crate::diag::Diagnostic;
use crate::source::Span;

/// Most ways a `*` over a notation without nested repetitions may have to
/// be compiled as one loop per way (the fastest to search, and what the
/// compile-time path listing reads); a `*` over more ways, or over nested
/// repetitions, is compiled as one loop whose rounds the search records
/// and replays, so no notation is refused for its number of ways.
pub const EXPANDED_WAYS: u64 = 64;

/// Most leaps and conditions the ways of one expanded `*` may have in all
/// (long `"s"` chains inlined in each way): above, the `*` is recorded and
/// replayed instead.
pub const EXPANDED_PARTS: usize = 1024;

/// Most edges all piece types' automata may have together: what a search
/// node can name (see [`fv::MAX_EDGES`]), reached only by notations
/// megabytes long. Copies made for `*` over few ways stop at a quarter of
/// it (then the repetition is recorded instead), so they never push a
/// program over.
pub const MAX_EDGES: usize = 1 << 21;
const _: () = assert!(MAX_EDGES == 2_097_152, "the limit's message names it");

// The search remembers a `p` edge by its index in a few bits of a word.
const _: () = assert!(MAX_EDGES <= fv::MAX_EDGES);

/// An automaton owned by the compiler.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Automaton {
    /// States; 0 is the start.
    pub states: Vec<State>,
    /// Edges, consecutive per state.
    pub edges: Vec<Edge>,
    /// Promotion targets.
    pub targets: Vec<u16>,
    /// Whether searches must remember visited nodes (see
    /// [`fv::Automaton::memo`]).
    pub memo: bool,
    /// How the piece attacks, when along straight lines (see
    /// [`fv::Automaton::attacks`] and [`super::classes`]).
    pub attacks: Option<Vec<fv::Ray>>,
    /// The landings inside the bent lines' leaps (see
    /// [`fv::Automaton::bends`]).
    pub bends: Vec<fv::Bend>,
    /// How many paths lead from the start to the end (saturating; with
    /// repetitions, meaningless).
    pub paths: u64,
}

/// Most paths an automaton without repetition may have for its searches to
/// try them all instead of remembering visited nodes.
pub const MEMO_FREE_PATHS: u64 = 64;

impl Automaton {
    /// The runtime's view.
    pub fn view(&self) -> fv::Automaton<'_> {
        fv::Automaton {
            states: &self.states,
            edges: &self.edges,
            targets: &self.targets,
            memo: self.memo,
            attacks: self.attacks.as_deref(),
            bends: &self.bends,
        }
    }
}

/// What building needs to know besides the notation.
pub struct Context<'a> {
    /// Every piece's notation, by symbol (for `"s"` inside `*`).
    pub notations: &'a HashMap<String, &'a Seq>,
    /// The automata built so far, by symbol (for `"s"`).
    pub built: &'a HashMap<String, Automaton>,
    /// Every piece's type index, by symbol (for promotion targets and
    /// `"s"`).
    pub kinds: &'a HashMap<String, u16>,
    /// Every piece's symbol, by type index.
    pub symbols: &'a [String],
    /// Board rows (for negative ranks).
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// Edges the automata built so far have (against [`MAX_EDGES`]).
    pub edges_so_far: usize,
}

/// Builds the automaton of `notation`; `span` is where it is written.
pub fn build(notation: &Seq, context: &Context, span: &Span) -> Result<Automaton, Diagnostic> {
    let mut builder = Builder {
        context,
        states: vec![Vec::new()],
        crooked: vec![false],
        targets: Vec::new(),
        span,
        edge_count: 0,
    };
    if notation.is_empty() {
        // The piece cannot move: no path reaches the end (nor, through a
        // call, the rest of a notation that moves like it).
        let accept = builder.state(false);
        return Ok(builder.finish(accept));
    }
    let end = builder.seq(notation, 0, false)?;
    let accept = builder.state(false);
    builder.edge(end, Edge::Pass { to: accept })?;
    Ok(builder.finish(accept))
}

/// One part of a way of `A` in `A*`.
#[derive(Clone, Debug)]
enum Part {
    /// A leap by one vector.
    Leap(i32, i32),
    /// A condition or action edge (its `to` is filled in when placed).
    Edge(Edge),
}

struct Builder<'a> {
    context: &'a Context<'a>,
    /// Each state's edges, in order.
    states: Vec<Vec<Edge>>,
    crooked: Vec<bool>,
    targets: Vec<u16>,
    span: &'a Span,
    /// Edges so far.
    edge_count: usize,
}

impl<'a> Builder<'a> {
    fn state(&mut self, crooked: bool) -> u32 {
        self.states.push(Vec::new());
        self.crooked.push(crooked);
        (self.states.len() - 1) as u32
    }

    fn edge(&mut self, from: u32, edge: Edge) -> Result<(), Diagnostic> {
        self.edge_count += 1;
        if self.edge_count + self.context.edges_so_far > MAX_EDGES {
            return Err(Diagnostic::error(
                "the pieces' notations have more than 2,097,152 moves and conditions",
                self.span.clone(),
            )
            .with_label("the total passes the limit here")
            .with_help(
                "each leap direction, alternative and condition counts once toward the limit; \
                 shorten the notations (an alternative written twice adds nothing)",
            ));
        }
        self.states[from as usize].push(edge);
        Ok(())
    }

    /// Compiles `seq` starting at `start`; returns its end state.
    fn seq(&mut self, seq: &'a [Item], start: u32, crooked: bool) -> Result<u32, Diagnostic> {
        let mut at = start;
        for item in seq {
            at = self.repeated(&item.atom, &item.repeats, at, crooked)?;
        }
        Ok(at)
    }

    fn repeated(
        &mut self,
        atom: &'a Atom,
        repeats: &'a [Repeat],
        start: u32,
        crooked: bool,
    ) -> Result<u32, Diagnostic> {
        let Some((&last, earlier)) = repeats.split_last() else {
            return self.atom(atom, start, crooked);
        };
        let exit = self.state(crooked);
        // Where the rounds start: the search keeps here the nodes that
        // start a further round until every path with fewer is tried.
        let rounds = self.state(crooked);
        self.edge(start, Edge::Enter { to: rounds })?;
        match last {
            Repeat::Any => {
                let body = self.state(true);
                self.edge(rounds, Edge::Pass { to: body })?;
                let end = self.repeated(atom, earlier, body, true)?;
                self.edge(end, Edge::Exit { to: exit })?;
                self.edge(end, Edge::Loop { to: body })?;
            }
            Repeat::Same => match self.expanded_ways(atom, earlier) {
                Some(ways) => {
                    for way in ways {
                        let body = self.state(crooked);
                        self.edge(rounds, Edge::Pass { to: body })?;
                        let mut at = body;
                        for part in way {
                            at = match part {
                                Part::Leap(forward, right) => {
                                    let next = self.state(crooked);
                                    self.edge(
                                        at,
                                        Edge::Leap {
                                            forward,
                                            right,
                                            to: next,
                                        },
                                    )?;
                                    next
                                }
                                Part::Edge(edge) => {
                                    let next = self.state(crooked);
                                    self.edge(at, retarget(edge, next))?;
                                    next
                                }
                            };
                        }
                        self.edge(at, Edge::Exit { to: exit })?;
                        self.edge(at, Edge::Loop { to: body })?;
                    }
                }
                None => {
                    // The search records the first round's choices and
                    // replays them (runtime `fv::repeat`).
                    let body = self.state(crooked);
                    self.edge(rounds, Edge::Begin { to: body })?;
                    let end = self.repeated(atom, earlier, body, crooked)?;
                    self.edge(end, Edge::Stop { to: exit })?;
                    self.edge(end, Edge::Again { to: body })?;
                }
            },
        }
        Ok(exit)
    }

    fn atom(&mut self, atom: &'a Atom, start: u32, crooked: bool) -> Result<u32, Diagnostic> {
        let single = |builder: &mut Self, edge: Edge| -> Result<u32, Diagnostic> {
            let next = builder.state(crooked);
            builder.edge(start, retarget(edge, next))?;
            Ok(next)
        };
        match atom {
            Atom::Leap { a, b, dirs } => {
                let end = self.state(crooked);
                for (forward, right) in self.vectors(*a, *b, *dirs) {
                    self.edge(
                        start,
                        Edge::Leap {
                            forward,
                            right,
                            to: end,
                        },
                    )?;
                }
                Ok(end)
            }
            Atom::Any(alternatives) => {
                let end = self.state(crooked);
                for alternative in alternatives {
                    let branch = self.state(crooked);
                    self.edge(start, Edge::Pass { to: branch })?;
                    let branch_end = self.seq(alternative, branch, crooked)?;
                    self.edge(branch_end, Edge::Pass { to: end })?;
                }
                Ok(end)
            }
            Atom::Group(seq) => self.seq(seq, start, crooked),
            Atom::Capture(seq) => {
                let inner = single(self, Edge::MustCapture { to: 0 })?;
                self.seq(seq, inner, crooked)
            }
            Atom::NoCapture(seq) => {
                let inner = single(self, Edge::NoCapture { to: 0 })?;
                self.seq(seq, inner, crooked)
            }
            Atom::Rank {
                seq,
                ranks,
                negated,
            } => {
                let inner = single(self, self.rank_edge(*ranks, *negated))?;
                self.seq(seq, inner, crooked)
            }
            Atom::Like(symbol) => match self.context.kinds.get(&symbol.value) {
                Some(&piece) => single(self, Edge::Call { piece, to: 0 }),
                // Checked before lowering; nothing to call.
                None => Ok(start),
            },
            Atom::CaptureHere => single(self, Edge::CaptureHere { to: 0 }),
            Atom::Promote(targets) => {
                let edge = self.promote_edge(targets);
                single(self, edge)
            }
        }
    }

    /// The leap vectors of `(a,b|dirs)` on this board ([`leap_vectors`]).
    fn vectors(&self, a: i64, b: i64, dirs: Option<[bool; 4]>) -> Vec<(i32, i32)> {
        leap_vectors(a, b, dirs, self.context.rows, self.context.cols)
    }

    fn rank_edge(&self, ranks: (i64, i64), negated: bool) -> Edge {
        let range = rank_range(ranks, negated, self.context.rows);
        Edge::Rank {
            low: range.low,
            high: range.high,
            negated,
            to: 0,
        }
    }

    fn promote_edge(&mut self, targets: &[crate::source::Spanned<String>]) -> Edge {
        let first = self.targets.len() as u32;
        self.targets.extend(
            targets
                .iter()
                .filter_map(|t| self.context.kinds.get(&t.value).copied()),
        );
        Edge::Promote {
            first,
            count: self.targets.len() as u32 - first,
            to: 0,
        }
    }

    /// The ways of `atom` for `*` in notation order, when `*` is best
    /// compiled as one loop per way: no repetition nested in it (`earlier`
    /// empty, none inside) and at most [`EXPANDED_WAYS`] ways. `None`: the
    /// search records and replays the first round instead.
    fn expanded_ways(&mut self, atom: &'a Atom, earlier: &'a [Repeat]) -> Option<Vec<Vec<Part>>> {
        if !earlier.is_empty() || self.count_ways(atom) > EXPANDED_WAYS {
            return None;
        }
        let ways = self.atom_ways(atom)?;
        // Copies stay a small part of what the automata may hold, so that
        // only a notation itself that long meets the limit.
        let copies: usize = ways.iter().map(|way| way.len() + 2).sum();
        let so_far = self.context.edges_so_far + self.edge_count;
        (so_far + copies <= MAX_EDGES / 4).then_some(ways)
    }

    /// How many ways `atom` has for `*` (saturating, stopping early).
    fn count_ways(&self, atom: &Atom) -> u64 {
        let seq_ways = |seq: &[Item]| {
            seq.iter().fold(1u64, |n, item| {
                if !item.repeats.is_empty() {
                    n
                } else {
                    n.saturating_mul(self.count_ways(&item.atom))
                        .min(EXPANDED_WAYS + 1)
                }
            })
        };
        match atom {
            Atom::Leap { a, b, dirs } => self.vectors(*a, *b, *dirs).len() as u64,
            Atom::Any(alternatives) => alternatives.iter().fold(0u64, |n, alt| {
                n.saturating_add(seq_ways(alt)).min(EXPANDED_WAYS + 1)
            }),
            Atom::Group(seq)
            | Atom::Capture(seq)
            | Atom::NoCapture(seq)
            | Atom::Rank { seq, .. } => seq_ways(seq),
            // An empty notation has no way at all.
            Atom::Like(symbol) => self.context.notations.get(&symbol.value).map_or(1, |seq| {
                if seq.is_empty() {
                    0
                } else {
                    seq_ways(seq)
                }
            }),
            Atom::CaptureHere | Atom::Promote(_) => 1,
        }
    }

    /// The ways of `atom`, or `None` if a repetition is nested in it.
    fn atom_ways(&mut self, atom: &'a Atom) -> Option<Vec<Vec<Part>>> {
        Some(match atom {
            Atom::Leap { a, b, dirs } => self
                .vectors(*a, *b, *dirs)
                .into_iter()
                .map(|(f, r)| vec![Part::Leap(f, r)])
                .collect(),
            Atom::Any(alternatives) => {
                let mut ways = Vec::new();
                for alternative in alternatives {
                    ways.extend(self.seq_ways(alternative)?);
                }
                ways
            }
            Atom::Group(seq) => self.seq_ways(seq)?,
            Atom::Capture(seq) => prefixed(Edge::MustCapture { to: 0 }, self.seq_ways(seq)?),
            Atom::NoCapture(seq) => prefixed(Edge::NoCapture { to: 0 }, self.seq_ways(seq)?),
            Atom::Rank {
                seq,
                ranks,
                negated,
            } => {
                let edge = self.rank_edge(*ranks, *negated);
                prefixed(edge, self.seq_ways(seq)?)
            }
            Atom::Like(symbol) => match self.context.notations.get(&symbol.value) {
                // An empty notation has no way at all.
                Some(seq) if seq.is_empty() => Vec::new(),
                Some(seq) => self.seq_ways(seq)?,
                None => vec![Vec::new()],
            },
            Atom::CaptureHere => vec![vec![Part::Edge(Edge::CaptureHere { to: 0 })]],
            Atom::Promote(targets) => {
                let edge = self.promote_edge(targets);
                vec![vec![Part::Edge(edge)]]
            }
        })
    }

    fn seq_ways(&mut self, seq: &'a [Item]) -> Option<Vec<Vec<Part>>> {
        let mut ways: Vec<Vec<Part>> = vec![Vec::new()];
        for item in seq {
            let parts: usize = ways.iter().map(Vec::len).sum();
            if !item.repeats.is_empty() || parts > EXPANDED_PARTS {
                return None;
            }
            let item_ways = self.atom_ways(&item.atom)?;
            ways = ways
                .iter()
                .flat_map(|way| {
                    item_ways.iter().map(move |tail| {
                        let mut way = way.clone();
                        way.extend(tail.iter().cloned());
                        way
                    })
                })
                .collect();
        }
        Some(ways)
    }

    /// Lays the states out as the runtime reads them and works out how far
    /// each can still reach.
    fn finish(self, accept: u32) -> Automaton {
        let built = self.context.built;
        let symbols = self.context.symbols;
        let callee = |piece: u16| symbols.get(usize::from(piece)).and_then(|s| built.get(s));
        let (reach, paths) = reaches(&self.states, accept, &callee);
        let calls_memo = self.states.iter().flatten().any(|edge| match *edge {
            Edge::Call { piece, .. } => callee(piece).is_none_or(|c| c.memo),
            _ => false,
        });
        let mut automaton = Automaton {
            targets: self.targets,
            memo: reach[0] == UNBOUNDED || paths > MEMO_FREE_PATHS || calls_memo,
            paths,
            ..Automaton::default()
        };
        for (index, edges) in self.states.into_iter().enumerate() {
            automaton.states.push(State {
                first_edge: automaton.edges.len() as u32,
                edges: edges.len() as u32,
                accept: index as u32 == accept,
                crooked: self.crooked[index],
                reach: reach[index],
            });
            automaton.edges.extend(edges);
        }
        automaton
    }
}

/// The leap vectors of `(a,b|dirs)` in the owner's (forward, right)
/// coordinates, in the documented order, without duplicates, without the
/// null leap and without those that leave any board of `rows` × `cols`.
pub fn leap_vectors(
    a: i64,
    b: i64,
    dirs: Option<[bool; 4]>,
    rows: u32,
    cols: u32,
) -> Vec<(i32, i32)> {
    let mut vectors: Vec<(i32, i32)> = Vec::new();
    let fits = |n: i64, size: u32| n.unsigned_abs() < u64::from(size);
    for (forward, right) in [
        (a, b),
        (a, -b),
        (-a, b),
        (-a, -b),
        (b, a),
        (b, -a),
        (-b, a),
        (-b, -a),
    ] {
        let keep = match dirs {
            None => true,
            Some([up, down, rightward, leftward]) => {
                (up && forward > 0)
                    || (down && forward < 0)
                    || (rightward && right > 0)
                    || (leftward && right < 0)
            }
        };
        // (0,0) lands on the piece's own square: never a legal landing.
        let null = forward == 0 && right == 0;
        if keep && !null && fits(forward, rows) && fits(right, cols) {
            let vector = (forward as i32, right as i32);
            if !vectors.contains(&vector) {
                vectors.push(vector);
            }
        }
    }
    vectors
}

/// The owner's ranks `r(A,ranks)` (`r!`: `negated`) admits on a board of
/// `rows`: negative ranks count from the far side; the range is every rank
/// between its two ends, either way round. Rank 0 is no row, so `r(A,0)`
/// never applies and `[0,2]` means ranks 1 and 2.
pub fn rank_range((a, b): (i64, i64), negated: bool, rows: u32) -> fv::RankRange {
    let rows = i64::from(rows);
    let resolve = |r: i64| if r < 0 { rows.saturating_add(r + 1) } else { r };
    let (a, b) = (resolve(a), resolve(b));
    fv::RankRange {
        low: a.min(b),
        high: a.max(b),
        negated,
    }
}

fn prefixed(edge: Edge, ways: Vec<Vec<Part>>) -> Vec<Vec<Part>> {
    ways.into_iter()
        .map(|way| {
            let mut parts = vec![Part::Edge(edge)];
            parts.extend(way);
            parts
        })
        .collect()
}

/// `edge` leading to `to` instead.
fn retarget(edge: Edge, to: u32) -> Edge {
    match edge {
        Edge::Leap { forward, right, .. } => Edge::Leap { forward, right, to },
        Edge::Rank {
            low, high, negated, ..
        } => Edge::Rank {
            low,
            high,
            negated,
            to,
        },
        Edge::MustCapture { .. } => Edge::MustCapture { to },
        Edge::NoCapture { .. } => Edge::NoCapture { to },
        Edge::CaptureHere { .. } => Edge::CaptureHere { to },
        Edge::Promote { first, count, .. } => Edge::Promote { first, count, to },
        Edge::Pass { .. } => Edge::Pass { to },
        Edge::Enter { .. } => Edge::Enter { to },
        Edge::Exit { .. } => Edge::Exit { to },
        Edge::Loop { .. } => Edge::Loop { to },
        Edge::Begin { .. } => Edge::Begin { to },
        Edge::Stop { .. } => Edge::Stop { to },
        Edge::Again { .. } => Edge::Again { to },
        Edge::Call { piece, .. } => Edge::Call { piece, to },
    }
}

/// For every state, the most king steps a path can still make from it:
/// [`UNBOUNDED`] where a cycle can be reached, else the longest way to the
/// end (the edge graph without cycles is walked in reverse topological
/// order, iteratively); and how many paths lead from the start to `accept`
/// (saturating; meaningless with cycles).
fn reaches<'a>(
    states: &[Vec<Edge>],
    accept: u32,
    callee: &dyn Fn(u16) -> Option<&'a Automaton>,
) -> (Vec<u32>, u64) {
    let mut paths = vec![0u64; states.len()];
    if let Some(count) = paths.get_mut(accept as usize) {
        *count = 1;
    }
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let mut mark = vec![NEW; states.len()];
    let mut reach = vec![0u32; states.len()];
    for root in 0..states.len() {
        if mark[root] != NEW {
            continue;
        }
        // (state, next edge index)
        let mut stack = vec![(root, 0usize)];
        mark[root] = OPEN;
        while let Some(&mut (state, ref mut next)) = stack.last_mut() {
            if let Some(edge) = states[state].get(*next) {
                *next += 1;
                let to = edge.to() as usize;
                match mark[to] {
                    NEW => {
                        mark[to] = OPEN;
                        stack.push((to, 0));
                    }
                    OPEN => reach[state] = UNBOUNDED,
                    _ => {}
                }
                continue;
            }
            stack.pop();
            mark[state] = DONE;
            let mut best = reach[state];
            for edge in &states[state] {
                let through = match *edge {
                    Edge::Call { piece, .. } => callee(piece).map_or(1, |c| c.paths.max(1)),
                    _ => 1,
                };
                paths[state] =
                    paths[state].saturating_add(paths[edge.to() as usize].saturating_mul(through));
            }
            if best != UNBOUNDED {
                for edge in &states[state] {
                    let to = reach[edge.to() as usize];
                    let step = match *edge {
                        Edge::Leap { forward, right, .. } => {
                            forward.unsigned_abs().max(right.unsigned_abs())
                        }
                        Edge::Call { piece, .. } => {
                            callee(piece).map_or(0, |c| c.states.first().map_or(0, |s| s.reach))
                        }
                        _ => 0,
                    };
                    let total = if to == UNBOUNDED || step == UNBOUNDED {
                        UNBOUNDED
                    } else {
                        to.saturating_add(step).min(UNBOUNDED - 1)
                    };
                    best = best.max(total);
                }
            }
            reach[state] = best;
        }
    }
    (reach, paths.first().copied().unwrap_or(0))
}

/// Most nodes the compile-time path listing visits for one move line.
pub const LISTING_BUDGET: usize = 4096;

/// Deepest the listing's walk goes (states and calls along one path); a
/// deeper path is searched at run time instead, and the compiler's stack
/// stays small.
pub const LISTING_DEPTH: usize = 256;

/// Most landing squares the listed paths of one move line may have in all.
pub const LISTING_STEPS: usize = 64;

/// A geometric path from a move line's FROM to its TO.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StaticPath {
    /// The landing squares.
    pub steps: Vec<Step>,
    /// `c(..)` applies.
    pub must_capture: bool,
    /// `m(..)` applies.
    pub no_capture: bool,
    /// When not empty, the last step is reached by one or more crooked
    /// leaps by these (row, column) offsets over empty squares
    /// ([`fv::Path::crooked`]).
    pub crooked: Vec<(i32, i32)>,
}

/// Where a move is made, for listing its paths.
#[derive(Clone, Copy, Debug)]
pub struct MoveQuery {
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
    /// The mover's colour.
    pub white: bool,
    /// The mover's type.
    pub kind: u16,
    /// FROM.
    pub from: u32,
    /// TO.
    pub to: u32,
    /// The move line's promotion target.
    pub promote: Option<u16>,
}

/// Every geometric path of piece type `query.kind` (its automaton in
/// `automata`, by type) from FROM to TO that could be legal on some board,
/// in notation order, or `None` when listing them would make the generated
/// code large ([`LISTING_BUDGET`], [`LISTING_STEPS`]) — then the generated
/// code searches the automaton at run time instead, exactly as the
/// interpreter does: no move is refused.
pub fn list_paths(automata: &[Automaton], query: MoveQuery) -> Option<Vec<StaticPath>> {
    let views: Vec<fv::Automaton> = automata.iter().map(Automaton::view).collect();
    let values = vec![fv::PieceValue::Royal; automata.len()];
    let rules = fv::Rules {
        automata: &views,
        values: &values,
        rows: query.rows,
        cols: query.cols,
    };
    let mut lister = Lister {
        automata,
        rules,
        query,
        path: Vec::new(),
        found: Vec::new(),
        calls: Vec::new(),
        order: Vec::new(),
        rounds: Vec::new(),
        visited: 0,
        steps: 0,
        depth: 0,
    };
    if !lister.walk(query.kind, 0, query.from, Walk::default()) {
        return None;
    }
    // The walk meets paths depth first ("stop" before "once more"); the
    // spec's order puts every path of fewer rounds of a repetition first.
    let mut found = lister.found;
    found.sort_by(|a, b| a.1.cmp(&b.1));
    Some(found.into_iter().map(|(path, _)| path).collect())
}

/// What the listing remembers along a path.
#[derive(Clone, Copy, Debug, Default)]
struct Walk {
    must_capture: bool,
    no_capture: bool,
    leapt: bool,
    /// The last landing was inside a crooked repetition that has not ended.
    pending: bool,
    /// The last `p` edge: its piece type's automaton and its index.
    promote: Option<(u16, u32)>,
}

/// A crooked repetition that ends a move ([`Lister::crooked_tail`]).
struct CrookedTail {
    /// Its leaps as board offsets.
    offsets: Vec<(i32, i32)>,
    /// `c(..)` applies (before or after it).
    must_capture: bool,
    /// `m(..)` applies.
    no_capture: bool,
}

/// An open `"s"` call of the listing: the caller, where it goes on, and
/// whether the call stands in a crooked repetition.
#[derive(Clone, Copy, Debug)]
struct OpenCall {
    kind: u16,
    state: u32,
    crooked: bool,
    reach_after: u32,
}

struct Lister<'a> {
    automata: &'a [Automaton],
    rules: fv::Rules<'a>,
    query: MoveQuery,
    path: Vec<Step>,
    /// The paths found, each with its place in the spec's order (the
    /// first of its places, if several paths are the same landings).
    found: Vec<(StaticPath, Vec<u32>)>,
    calls: Vec<OpenCall>,
    /// The current path's place in the spec's order: the index of every
    /// edge it took among its state's edges, except that a repetition's
    /// rounds are counted where it starts instead of each "stop" or "once
    /// more" — so comparing two places compares round counts first, as
    /// the spec orders paths ("fewer repetitions before more").
    order: Vec<u32>,
    /// The open repetitions: where their count stands in `order`, and
    /// their rounds so far.
    rounds: Vec<(usize, u32)>,
    visited: usize,
    steps: usize,
    depth: usize,
}

impl Lister<'_> {
    /// Whether `state` of `kind` is crooked, and how far a path can still go
    /// from it, inside the open calls.
    fn place(&self, kind: u16, state: u32) -> (bool, u32) {
        let info = self.automata[usize::from(kind)].states[state as usize];
        match self.calls.last() {
            Some(call) => (
                info.crooked || call.crooked,
                if info.reach == UNBOUNDED || call.reach_after == UNBOUNDED {
                    UNBOUNDED
                } else {
                    info.reach.saturating_add(call.reach_after)
                },
            ),
            None => (info.crooked, info.reach),
        }
    }

    /// Lists from `state` of `kind` on `square`; false when over budget.
    fn walk(&mut self, kind: u16, state: u32, square: u32, walk: Walk) -> bool {
        self.visited += 1;
        if self.visited > LISTING_BUDGET || self.depth >= LISTING_DEPTH {
            return false;
        }
        self.depth += 1;
        let ok = self.walk_from(kind, state, square, walk);
        self.depth -= 1;
        ok
    }

    fn walk_from(&mut self, kind: u16, state: u32, square: u32, walk: Walk) -> bool {
        let automaton = &self.automata[usize::from(kind)];
        let info = automaton.states[state as usize];
        if self.rules.distance(square, self.query.to) > self.place(kind, state).1 {
            return true;
        }
        if info.accept {
            let Some(call) = self.calls.pop() else {
                return self.accept(square, walk);
            };
            // The end of a `"s"`: go on in the caller.
            let mut next = walk;
            if !self.place(call.kind, call.state).0 {
                next.pending = false;
            }
            let ok = self.walk(call.kind, call.state, square, next);
            self.calls.push(call);
            return ok;
        }
        let first = info.first_edge as usize;
        for index in first..first + info.edges as usize {
            let edge = automaton.edges[index];
            // Where the path stands in the spec's order (undone below).
            let order_len = self.order.len();
            let mut closed = None;
            match edge {
                Edge::Exit { .. } => match self.rounds.pop() {
                    Some((slot, rounds)) => {
                        self.order[slot] = rounds;
                        closed = Some((slot, rounds));
                    }
                    None => return false,
                },
                Edge::Loop { .. } => match self.rounds.last_mut() {
                    Some((_, rounds)) => *rounds += 1,
                    None => return false,
                },
                Edge::Enter { .. } => {
                    self.order.push((index - first) as u32);
                    self.rounds.push((self.order.len(), 1));
                    self.order.push(0);
                }
                _ => self.order.push((index - first) as u32),
            }
            let ok = self.follow(kind, state, square, walk, index, edge);
            self.order.truncate(order_len);
            match edge {
                Edge::Exit { .. } => self.rounds.extend(closed),
                Edge::Loop { .. } => {
                    if let Some((_, rounds)) = self.rounds.last_mut() {
                        *rounds -= 1;
                    }
                }
                Edge::Enter { .. } => {
                    self.rounds.pop();
                }
                _ => {}
            }
            if !ok {
                return false;
            }
        }
        true
    }

    /// Lists the paths that take `edge` (index `index` of `kind`'s
    /// automaton) from `state` on `square`; false when over budget.
    fn follow(
        &mut self,
        kind: u16,
        state: u32,
        square: u32,
        walk: Walk,
        index: usize,
        edge: Edge,
    ) -> bool {
        let (target_crooked, target_reach) = self.place(kind, edge.to());
        let mut next = walk;
        let mut at = square;
        let mut marked = None;
        let mut into = (kind, edge.to());
        let mut entered = false;
        if target_crooked && !self.place(kind, state).0 {
            // Into a crooked repetition: when it ends the move, every way
            // through it has the same effect.
            if let Some(tail) = self.crooked_tail(kind, edge, walk) {
                return self.accept_crooked(tail);
            }
        }
        match edge {
            Edge::Leap { forward, right, .. } => {
                let Some(landing) = self.rules.leap(square, self.query.white, forward, right)
                else {
                    return true;
                };
                if landing == self.query.from {
                    return true;
                }
                if walk.pending {
                    if let Some(last) = self.path.last_mut() {
                        marked = Some(last.no_hole);
                        last.no_hole = true;
                    }
                }
                self.path.push(Step {
                    square: landing,
                    capture: false,
                    no_hole: false,
                });
                next.leapt = true;
                next.pending = target_crooked;
                at = landing;
            }
            Edge::Rank {
                low, high, negated, ..
            } => {
                let rank = self.rules.rank(square, self.query.white);
                if (low <= rank && rank <= high) == negated {
                    return true;
                }
            }
            Edge::MustCapture { .. } => next.must_capture = true,
            Edge::NoCapture { .. } => next.no_capture = true,
            Edge::CaptureHere { .. } => match self.path.last_mut() {
                Some(last) => {
                    marked = Some(last.capture);
                    last.capture = true;
                }
                None => return true,
            },
            Edge::Promote { .. } => next.promote = Some((kind, index as u32)),
            Edge::Pass { .. } | Edge::Enter { .. } | Edge::Exit { .. } | Edge::Loop { .. } => {}
            // A recorded repetition: the listing does not replay; such
            // moves are searched at run time.
            Edge::Begin { .. } | Edge::Stop { .. } | Edge::Again { .. } => return false,
            Edge::Call { piece, to } => {
                self.calls.push(OpenCall {
                    kind,
                    state: to,
                    crooked: target_crooked,
                    reach_after: target_reach,
                });
                into = (piece, 0);
                entered = true;
            }
        }
        if !self.place(into.0, into.1).0 {
            next.pending = false;
        }
        let leapt = matches!(edge, Edge::Leap { .. });
        let ok = self.walk(into.0, into.1, at, next);
        if entered {
            self.calls.pop();
        }
        if leapt {
            self.path.pop();
        }
        if let Some(flag) = marked {
            if let Some(last) = self.path.last_mut() {
                match edge {
                    Edge::CaptureHere { .. } => last.capture = flag,
                    _ => last.no_hole = flag,
                }
            }
        }
        ok
    }

    /// When `edge` (a `Pass` from outside) enters a crooked repetition of
    /// single leaps that ends the move — after it only `c`/`m` conditions
    /// stand before the end of the notation — and the path so far took
    /// nothing and promotes nowhere: the repetition's leaps as board
    /// offsets, and the conditions after it.
    fn crooked_tail(&self, kind: u16, edge: Edge, walk: Walk) -> Option<CrookedTail> {
        let Edge::Pass { to: body } = edge else {
            return None;
        };
        if walk.promote.is_some()
            || self.query.promote.is_some()
            || self.query.to == self.query.from
            || self.path.iter().any(|step| step.capture)
        {
            return None;
        }
        let automaton = &self.automata[usize::from(kind)];
        let crooked = |state: u32| automaton.states[state as usize].crooked;
        // Inside: passes, then one leap, then passes back to the body or
        // out of the repetition.
        let mut offsets = Vec::new();
        let mut exit = None;
        let mut looped = false;
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![(body, false)];
        while let Some((state, leapt)) = stack.pop() {
            if !seen.insert((state, leapt)) {
                continue;
            }
            let info = automaton.states[state as usize];
            if info.accept {
                return None;
            }
            let first = info.first_edge as usize;
            for edge in &automaton.edges[first..first + info.edges as usize] {
                match *edge {
                    Edge::Loop { to } if to == body => {
                        if !leapt {
                            return None;
                        }
                        looped = true;
                    }
                    Edge::Pass { to } if crooked(to) => stack.push((to, leapt)),
                    Edge::Exit { to } => {
                        if !leapt || exit.is_some_and(|e| e != to) {
                            return None;
                        }
                        exit = Some(to);
                    }
                    Edge::Leap { forward, right, to } if !leapt && crooked(to) => {
                        let sign = if self.query.white { 1 } else { -1 };
                        let offset = (forward * sign, right * sign);
                        if !offsets.contains(&offset) {
                            offsets.push(offset);
                        }
                        stack.push((to, true));
                    }
                    _ => return None,
                }
            }
        }
        let exit = exit?;
        if !looped || offsets.is_empty() {
            return None;
        }
        // After: only `c`/`m`, passes and the ends of open `"s"` calls, on
        // one way to the end of the notation.
        let (mut must_capture, mut no_capture) = (walk.must_capture, walk.no_capture);
        let mut calls = self.calls.clone();
        let (mut kind, mut state) = (kind, exit);
        let budget: usize = self.automata.iter().map(|a| a.states.len()).sum();
        for _ in 0..budget {
            let automaton = &self.automata[usize::from(kind)];
            let info = automaton.states[state as usize];
            let first = info.first_edge as usize;
            let edges = &automaton.edges[first..first + info.edges as usize];
            if info.accept {
                if !edges.is_empty() {
                    return None;
                }
                let Some(call) = calls.pop() else {
                    return Some(CrookedTail {
                        offsets,
                        must_capture,
                        no_capture,
                    });
                };
                (kind, state) = (call.kind, call.state);
                continue;
            }
            let [edge] = edges else {
                return None;
            };
            match *edge {
                Edge::Pass { to } => state = to,
                Edge::MustCapture { to } => {
                    must_capture = true;
                    state = to;
                }
                Edge::NoCapture { to } => {
                    no_capture = true;
                    state = to;
                }
                _ => return None,
            }
        }
        None
    }

    /// Lists the path that ends with `tail`'s crooked leaps onto TO.
    fn accept_crooked(&mut self, tail: CrookedTail) -> bool {
        let mut steps = self.path.clone();
        steps.push(Step {
            square: self.query.to,
            capture: false,
            no_hole: false,
        });
        let path = StaticPath {
            steps,
            must_capture: tail.must_capture,
            no_capture: tail.no_capture,
            crooked: tail.offsets,
        };
        self.list(path)
    }

    /// Adds `path` to the listing, at the current path's place in the
    /// spec's order, unless it is there at an earlier place; false when
    /// over budget.
    fn list(&mut self, path: StaticPath) -> bool {
        match self.found.iter_mut().find(|(found, _)| *found == path) {
            Some((_, order)) => {
                if self.order < *order {
                    order.clone_from(&self.order);
                }
            }
            None => {
                self.steps += path.steps.len().max(1);
                if self.steps > LISTING_STEPS {
                    return false;
                }
                self.found.push((path, self.order.clone()));
            }
        }
        true
    }

    fn accept(&mut self, square: u32, walk: Walk) -> bool {
        if square != self.query.to {
            return true;
        }
        if !walk.leapt && walk.promote.is_none() {
            return true;
        }
        let promotes =
            match (walk.promote, self.query.promote) {
                (None, None) => true,
                (Some((kind, edge)), Some(target)) => self.automata[usize::from(kind)]
                    .view()
                    .allows(edge, self.query.kind, target),
                _ => false,
            };
        if !promotes {
            return true;
        }
        let path = StaticPath {
            steps: self.path.clone(),
            must_capture: walk.must_capture,
            no_capture: walk.no_capture,
            crooked: Vec::new(),
        };
        self.list(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::finvara::syntax;
    use crate::source::Source;

    /// Builds every piece of `pieces` (definition lines) for a board of
    /// `rows` × `cols`, returning the automata by symbol and type index.
    fn automata(pieces: &str, rows: u32, cols: u32) -> (Vec<Automaton>, HashMap<String, u16>) {
        let text = format!("{pieces}\n+--+\n|  |\n+--+\n");
        let source = Source::new("test.fv", text);
        let program = syntax::parse(&source).expect("parses");
        let kinds: HashMap<String, u16> = program
            .pieces
            .iter()
            .enumerate()
            .map(|(i, p)| (p.symbol.value.clone(), i as u16))
            .collect();
        let notations: HashMap<String, &Seq> = program
            .pieces
            .iter()
            .map(|p| (p.symbol.value.clone(), &p.notation.value))
            .collect();
        let symbols: Vec<String> = program
            .pieces
            .iter()
            .map(|p| p.symbol.value.clone())
            .collect();
        let mut built = HashMap::new();
        let mut out = Vec::new();
        for piece in &program.pieces {
            let context = Context {
                notations: &notations,
                built: &built,
                kinds: &kinds,
                symbols: &symbols,
                rows,
                cols,
                edges_so_far: 0,
            };
            let automaton =
                build(&piece.notation.value, &context, &piece.notation.span).expect("builds");
            built.insert(piece.symbol.value.clone(), automaton.clone());
            out.push(automaton);
        }
        (out, kinds)
    }

    /// Square index of a name like `b3` on a board `cols` wide.
    fn sq(name: &str, cols: u32) -> u32 {
        let row = u32::from(name.as_bytes()[0] - b'a');
        let col: u32 = name[1..].parse().expect("column");
        row * cols + col - 1
    }

    /// The listed paths of the last piece in `pieces`, as square names.
    fn listed(
        pieces: &str,
        (rows, cols): (u32, u32),
        white: bool,
        from: &str,
        to: &str,
        promote: Option<u16>,
    ) -> Option<Vec<Vec<String>>> {
        let (automata, _) = automata(pieces, rows, cols);
        let kind = automata.len() as u16 - 1;
        let query = MoveQuery {
            rows,
            cols,
            white,
            kind,
            from: sq(from, cols),
            to: sq(to, cols),
            promote,
        };
        let paths = list_paths(&automata, query)?;
        Some(
            paths
                .iter()
                .map(|p| {
                    let last = p.steps.len().saturating_sub(1);
                    p.steps
                        .iter()
                        .enumerate()
                        .map(|(i, s)| {
                            let mut name = super::super::ir::square_name(cols, s.square);
                            if i == last && !p.crooked.is_empty() {
                                // Reached by crooked leaps.
                                name.insert(0, '~');
                            }
                            if s.capture {
                                name.push('x');
                            }
                            if s.no_hole {
                                name.push('!');
                            }
                            name
                        })
                        .collect()
                })
                .collect(),
        )
    }

    fn names(paths: &[&[&str]]) -> Option<Vec<Vec<String>>> {
        Some(
            paths
                .iter()
                .map(|p| p.iter().map(|s| s.to_string()).collect())
                .collect(),
        )
    }

    #[test]
    fn a_leap_has_its_vectors_in_the_documented_order_without_duplicates_or_null() {
        let (automata, _) = automata("(a 1): (1,2)\n(b 1): (1,0)\n(c 1): (0,0)", 8, 8);
        let leaps = |a: &Automaton| -> Vec<(i32, i32)> {
            a.edges
                .iter()
                .filter_map(|e| match *e {
                    Edge::Leap { forward, right, .. } => Some((forward, right)),
                    _ => None,
                })
                .collect()
        };
        assert_eq!(
            leaps(&automata[0]),
            [
                (1, 2),
                (1, -2),
                (-1, 2),
                (-1, -2),
                (2, 1),
                (2, -1),
                (-2, 1),
                (-2, -1)
            ]
        );
        assert_eq!(leaps(&automata[1]), [(1, 0), (-1, 0), (0, 1), (0, -1)]);
        assert!(leaps(&automata[2]).is_empty());
    }

    #[test]
    fn directions_are_the_owners() {
        let pawn = "(p 1): (1,0|^)";
        assert_eq!(
            listed(pawn, (3, 3), true, "a1", "b1", None),
            names(&[&["b1"]])
        );
        assert_eq!(listed(pawn, (3, 3), true, "b1", "a1", None), names(&[]));
        assert_eq!(
            listed(pawn, (3, 3), false, "b1", "a1", None),
            names(&[&["a1"]])
        );
        // Black's right is toward column 1.
        let right = "(r 1): (0,1|>)";
        assert_eq!(
            listed(right, (3, 3), false, "b2", "b1", None),
            names(&[&["b1"]])
        );
        assert_eq!(
            listed(right, (3, 3), true, "b2", "b3", None),
            names(&[&["b3"]])
        );
    }

    #[test]
    fn a_rider_rides_one_way_and_reaches_no_further_than_the_board() {
        let rook = "(r 5): (1,0)*";
        assert_eq!(
            listed(rook, (4, 4), true, "a1", "d1", None),
            names(&[&["b1", "c1", "d1"]])
        );
        assert_eq!(listed(rook, (4, 4), true, "a1", "b2", None), names(&[]));
        let (automata, _) = automata(rook, 4, 4);
        assert_eq!(automata[0].states[0].reach, UNBOUNDED);
    }

    #[test]
    fn the_same_way_fixes_every_choice_outside_nested_repetitions() {
        // Two ways reach c3 from a1: forward-then-right and right-then-forward.
        let stair = "(s 1): [(1,0)(0,1)]*";
        assert_eq!(
            listed(stair, (3, 3), true, "a1", "c3", None),
            names(&[&["b1", "b2", "c2", "c3"], &["a2", "b2", "b3", "c3"]])
        );
        // A nested rider repeats its direction and its count in every
        // round: the repetition is recorded and replayed by the search at
        // run time, not listed.
        let nested = "(f 1): [(1,0|^)*(0,1|>)]*";
        assert_eq!(listed(nested, (4, 4), true, "a1", "d3", None), None);
        let (automata, _) = automata(nested, 4, 4);
        let begins = automata[0]
            .edges
            .iter()
            .filter(|e| matches!(e, Edge::Begin { .. }))
            .count();
        assert_eq!(begins, 1);
    }

    #[test]
    fn alternatives_are_tried_left_to_right_and_references_copy_the_other_piece() {
        let pieces = "(r 5): (1,0|^)*\n(b 3): (1,1|^>)*\n(q 9): {\"b\",\"r\",(2,0|^)}";
        assert_eq!(
            listed(pieces, (4, 4), true, "a1", "c1", None),
            names(&[&["b1", "c1"], &["c1"]])
        );
        assert_eq!(
            listed(pieces, (4, 4), true, "a1", "c3", None),
            names(&[&["b2", "c3"]])
        );
    }

    #[test]
    fn fewer_rounds_come_first_across_the_ways_and_routes_of_a_repetition() {
        // The spec's example: from a1 to a3, one jump (one round) before
        // two steps (two rounds), although the step is the first way.
        let hop = "(h 1): {(0,1|>),(0,2|>)}*";
        assert_eq!(
            listed(hop, (3, 4), true, "a1", "a3", None),
            names(&[&["a3"], &["a2", "a3"]])
        );
        // Crooked: every route of one round before any of two.
        let crooked = "(h 1): {(0,1|>),(0,2|>)}`(1,0|^)";
        assert_eq!(
            listed(crooked, (3, 4), true, "a1", "b3", None),
            names(&[&["a3", "b3"], &["a2!", "a3", "b3"]])
        );
        // Two repetitions in a row: the first one's count decides first.
        let two = "(h 1): {(0,1|>),(0,2|>)}*{(1,0|^),(2,0|^)}*";
        assert_eq!(
            listed(two, (3, 3), true, "a1", "c3", None),
            names(&[
                &["a3", "c3"],
                &["a3", "b3", "c3"],
                &["a2", "a3", "c3"],
                &["a2", "a3", "b3", "c3"]
            ])
        );
        // Inside a group: round counts first there too.
        let inner = "(h 1): [{(0,1|>),(0,2|>)}*](1,0|^)";
        assert_eq!(
            listed(inner, (3, 4), true, "a1", "b3", None),
            names(&[&["a3", "b3"], &["a2", "a3", "b3"]])
        );
    }

    #[test]
    fn moving_like_a_piece_that_cannot_move_has_no_path() {
        // `"k"` of an empty notation has no path, and neither has a
        // sequence with it (not the step alone, not a promotion).
        let pieces = "(k):\n(q 1): (1,0)\n(g 4): \"k\"(0,1|>)";
        assert_eq!(listed(pieces, (3, 3), true, "a1", "a2", None), names(&[]));
        let pieces = "(k):\n(q 1): (1,0)\n(d 4): \"k\"p";
        assert_eq!(
            listed(pieces, (3, 3), true, "a1", "a1", Some(1)),
            names(&[])
        );
        // Through a chain of references, and inside a `*` (whose ways are
        // copied): still none.
        let pieces = "(k):\n(j 1): \"k\"\n(g 4): [\"j\"(0,1|>)]*";
        assert_eq!(listed(pieces, (3, 3), true, "a1", "a2", None), names(&[]));
        // An alternative without it still moves.
        let pieces = "(k):\n(f 4): {\"k\",(0,1|>)}";
        assert_eq!(
            listed(pieces, (3, 3), true, "a1", "a2", None),
            names(&[&["a2"]])
        );
    }

    #[test]
    fn conditions_and_captures_are_recorded_on_the_path() {
        let (automata, _) = automata(
            "(c 1): c((1,1))\n(m 1): m((1,0))\n(x 1): (1,0|^)x(1,0|^)",
            4,
            4,
        );
        let query = |kind: u16, to: &str| MoveQuery {
            rows: 4,
            cols: 4,
            white: true,
            kind,
            from: sq("a1", 4),
            to: sq(to, 4),
            promote: None,
        };
        let capturing = list_paths(&automata, query(0, "b2")).expect("listable");
        assert!(capturing[0].must_capture && !capturing[0].no_capture);
        let quiet = list_paths(&automata, query(1, "b1")).expect("listable");
        assert!(quiet[0].no_capture && !quiet[0].must_capture);
        assert_eq!(
            listed("(x 1): (1,0|^)x(1,0|^)", (4, 4), true, "a1", "c1", None),
            names(&[&["b1x", "c1"]])
        );
        // `x` before any leap would capture the piece itself.
        assert_eq!(
            listed("(y 1): x(1,0)", (4, 4), true, "a1", "b1", None),
            names(&[])
        );
    }

    #[test]
    fn ranks_are_counted_from_the_owner_and_negative_ranks_from_the_far_side() {
        let pawn = "(p 1): {(1,0|^), r((2,0|^),2)}";
        assert_eq!(
            listed(pawn, (5, 3), true, "b1", "d1", None),
            names(&[&["d1"]])
        );
        assert_eq!(listed(pawn, (5, 3), true, "a1", "c1", None), names(&[]));
        // Black's rank 2 is the second row from the top.
        assert_eq!(
            listed(pawn, (5, 3), false, "d1", "b1", None),
            names(&[&["b1"]])
        );
        let last = "(l 1): r!((1,0|^),-1)";
        assert_eq!(
            listed(last, (3, 3), true, "b1", "c1", None),
            names(&[&["c1"]])
        );
        assert_eq!(listed(last, (3, 3), false, "a1", "b1", None), names(&[]));
        let never = "(z 1): r((1,0),0)";
        assert_eq!(listed(never, (3, 3), true, "a1", "b1", None), names(&[]));
        let from_zero = "(z 1): r((1,0|^),[0,2])";
        assert_eq!(
            listed(from_zero, (3, 3), true, "b1", "c1", None),
            names(&[&["c1"]])
        );
        assert_eq!(
            listed(from_zero, (4, 3), true, "c1", "d1", None),
            names(&[])
        );
    }

    #[test]
    fn only_a_promotion_without_a_leap_stays_on_its_square() {
        let pieces = "(q 9): (1,0)\n(e 1):\n(p 1): {(1,0|^), p->[q]}";
        assert_eq!(
            listed(pieces, (3, 3), true, "a1", "a1", Some(0)),
            names(&[&[]])
        );
        assert_eq!(listed(pieces, (3, 3), true, "a1", "a1", None), names(&[]));
        // A promotion to a type the list does not allow.
        assert_eq!(
            listed(pieces, (3, 3), true, "a1", "a1", Some(1)),
            names(&[])
        );
        // An empty notation cannot move at all, not even onto its square.
        assert_eq!(listed("(e 1):", (3, 3), true, "a2", "a2", None), names(&[]));
        let any = "(q 9): (1,0)\n(p 1): p";
        assert_eq!(
            listed(any, (3, 3), true, "a1", "a1", Some(0)),
            names(&[&[]])
        );
        assert_eq!(listed(any, (3, 3), true, "a1", "a1", Some(1)), names(&[]));
    }

    #[test]
    fn crooked_landings_before_the_end_may_not_be_holes_and_crooked_endings_are_one_path() {
        let crooked = "(w 4): [(1,0|^)(0,1|>)]`";
        assert_eq!(
            listed(crooked, (3, 3), true, "a1", "c3", None),
            names(&[&["b1!", "b2!", "c2!", "c3"]])
        );
        // A crooked rider of single leaps that ends the move: every way has
        // the same effect, so one path stands for them all, reached by its
        // leaps over empty squares (the board decides).
        assert_eq!(
            listed("(w 4): (1,0)`", (8, 8), true, "a1", "h8", None),
            names(&[&["~h8"]])
        );
        // After the leaps of other alternatives, in notation order; after
        // a first leap.
        assert_eq!(
            listed("(w 4): {(1,1),(1,0)`}", (8, 8), true, "a1", "b2", None),
            names(&[&["b2"], &["~b2"]])
        );
        assert_eq!(
            listed("(w 4): (0,2)(1,0)`", (8, 8), true, "a1", "d4", None),
            names(&[&["a3", "~d4"], &["c1", "~d4"]])
        );
        let (automata, _) = automata("(w 4): c((1,1)`)\n(v 4): (1,0)`", 8, 8);
        let query = |kind, white| MoveQuery {
            rows: 8,
            cols: 8,
            white,
            kind,
            from: sq("d4", 8),
            to: sq("f6", 8),
            promote: None,
        };
        let paths = list_paths(&automata, query(0, true)).expect("listed");
        assert!(paths[0].must_capture);
        assert_eq!(paths[0].crooked, [(1, 1), (1, -1), (-1, 1), (-1, -1)]);
        // Black's leaps are the other way round on the board.
        let paths = list_paths(&automata, query(1, false)).expect("listed");
        assert_eq!(paths[0].crooked, [(-1, 0), (1, 0), (0, -1), (0, 1)]);
        // Inside a reference to another piece, after a rank test.
        assert_eq!(
            listed(
                "(c 4): (1,0)`\n(v 4): {(1,1),r!(\"c\",-1)}",
                (8, 8),
                true,
                "a1",
                "c3",
                None
            ),
            names(&[&["~c3"]])
        );
        // Not at the end of the move, or onto FROM, or with a promotion:
        // listed way by way, or (too many) searched.
        assert_eq!(
            listed("(w 4): (1,0)`(1,1)", (8, 8), true, "a1", "h8", None),
            None
        );
        assert_eq!(
            listed("(w 4): (1,0)`", (8, 8), true, "a1", "a1", None),
            None
        );
    }

    #[test]
    fn reach_bounds_how_far_a_path_can_go() {
        let (automata, _) = automata(
            "(n 3): (1,2)\n(t 1): (1,0)(1,1)\n(e 1):\n(c 1): (1,0)`",
            8,
            8,
        );
        let reach: Vec<u32> = automata.iter().map(|a| a.states[0].reach).collect();
        assert_eq!(reach, [2, 2, 0, UNBOUNDED]);
    }

    #[test]
    fn a_star_over_many_ways_is_one_recorded_loop() {
        // 8^5 = 32,768 ways: one loop whose rounds the search records, its
        // size that of the notation.
        let (many, _) = automata(&format!("(a 1): [{}]*", "(1,2)".repeat(5)), 64, 64);
        let edges = &many[0].edges;
        assert_eq!(
            edges
                .iter()
                .filter(|e| matches!(e, Edge::Begin { .. }))
                .count(),
            1
        );
        assert!(edges.len() < 50, "{} edges", edges.len());
        // A few ways are still one loop each (what the listing reads).
        let (rook, _) = automata("(r 1): (1,0)*", 8, 8);
        assert!(rook[0]
            .edges
            .iter()
            .all(|e| !matches!(e, Edge::Begin { .. })));
    }
}
