//! The geometric paths one move line can take: every path of the piece's
//! automaton from the line's FROM to its TO that some board could allow,
//! in notation order, when they are few; generated code then tries those
//! instead of searching.

use chess2rs_runtime::__private::fv::{self, Edge, Step, UNBOUNDED};

use super::Automaton;

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
    let views: Vec<fv::Automaton> = automata.iter().map(|automaton| automaton.view()).collect();
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
