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

use chess2rs_runtime::__private::fv::{self, Edge, State, UNBOUNDED};

use super::syntax::{Atom, Item, Repeat, Seq};

mod listing;
#[cfg(test)]
mod tests;

pub use self::listing::*;
use crate::diag::{Code, Diagnostic};
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

/// An automaton as the compiler builds it: the runtime's
/// ([`fv::OwnedAutomaton`], which it reads through, so that `states`,
/// `edges`, `view()`… are the runtime's), and what building the automata
/// of the pieces that move like it needs besides.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Automaton {
    /// The automaton the runtime searches; its `attacks` and `bends` are
    /// the piece's move class ([`super::classes`]), filled in once known.
    pub moves: fv::OwnedAutomaton,
    /// How many paths lead from the start to the end (saturating; with
    /// repetitions, meaningless).
    pub paths: u64,
}

impl std::ops::Deref for Automaton {
    type Target = fv::OwnedAutomaton;

    fn deref(&self) -> &fv::OwnedAutomaton {
        &self.moves
    }
}

/// Most paths an automaton without repetition may have for its searches to
/// try them all instead of remembering visited nodes.
pub const MEMO_FREE_PATHS: u64 = 64;

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
                Code::Limit,
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
        let mut moves = fv::OwnedAutomaton {
            targets: self.targets,
            memo: reach[0] == UNBOUNDED || paths > MEMO_FREE_PATHS || calls_memo,
            ..fv::OwnedAutomaton::default()
        };
        for (index, edges) in self.states.into_iter().enumerate() {
            moves.states.push(State {
                first_edge: moves.edges.len() as u32,
                edges: edges.len() as u32,
                accept: index as u32 == accept,
                crooked: self.crooked[index],
                reach: reach[index],
            });
            moves.edges.extend(edges);
        }
        Automaton { moves, paths }
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
