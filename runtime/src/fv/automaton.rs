//! A piece type's notation automaton as generated code holds it: states,
//! ordered edges, promotion targets, and the compact text form used when
//! automata are too large to write out as Rust.

use super::super::error::{ErrorKind, RuntimeError};

/// "No limit" for [`State::reach`].
pub const UNBOUNDED: u32 = u32::MAX;

/// One state of a notation automaton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Index of its first edge in [`Automaton::edges`]; its edges are tried
    /// in order.
    pub first_edge: u32,
    /// How many edges it has.
    pub edges: u32,
    /// The end of the notation: a path that gets here is complete.
    pub accept: bool,
    /// Inside a crooked repetition (`` A` ``): a landing on a hole must be
    /// the repetition's last.
    pub crooked: bool,
    /// The farthest (in king steps) a path can still go from here;
    /// [`UNBOUNDED`] when a repetition lies ahead.
    pub reach: u32,
}

impl State {
    /// A state whose edges are `edges[first_edge..first_edge + edges]`,
    /// reaching at most `reach` king steps further.
    pub const fn new(first_edge: u32, edges: u32, reach: u32) -> State {
        State {
            first_edge,
            edges,
            accept: false,
            crooked: false,
            reach,
        }
    }

    /// This state as the end of the notation.
    pub const fn accepting(self) -> State {
        State {
            accept: true,
            ..self
        }
    }

    /// This state inside a crooked repetition.
    pub const fn in_crooked(self) -> State {
        State {
            crooked: true,
            ..self
        }
    }
}

/// One edge of a notation automaton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// Leap by (`forward`, `right`) in the owner's view, then go to `to`.
    Leap {
        /// Rows toward the opponent.
        forward: i32,
        /// Columns to the owner's right.
        right: i32,
        /// The next state.
        to: u32,
    },
    /// `r(..)` (`negated`: `r!(..)`): go on only if the owner's rank of the
    /// current square is (is not) within `low..=high` (empty: rank 0).
    Rank {
        /// Lowest owner's rank (1 = the owner's first row).
        low: i64,
        /// Highest owner's rank.
        high: i64,
        /// `r!`.
        negated: bool,
        /// The next state.
        to: u32,
    },
    /// Entering `c(..)`: the move must end by capturing.
    MustCapture {
        /// The next state.
        to: u32,
    },
    /// Entering `m(..)`: the move must not capture at all.
    NoCapture {
        /// The next state.
        to: u32,
    },
    /// `x`: capture the enemy piece on the current square and go on.
    CaptureHere {
        /// The next state.
        to: u32,
    },
    /// `p`: promote to one of [`Automaton::targets`]`[first..first + count]`
    /// (`count` 0: to any other piece type).
    Promote {
        /// Index of the first allowed target.
        first: u32,
        /// Number of allowed targets.
        count: u32,
        /// The next state.
        to: u32,
    },
    /// Go to `to` (alternatives, the ways of a repetition, grouping).
    Pass {
        /// The next state.
        to: u32,
    },
    /// Into a repetition (`A*` or ``A` ``): `to` is where its rounds start
    /// (its ways, or its [`Edge::Begin`]). A move's search tries every
    /// path of one round before any of two, two before three, …: the
    /// node reached by this edge keeps the nodes that start a further
    /// round ([`Edge::Loop`], [`Edge::Again`]) until every path with fewer
    /// rounds is tried.
    Enter {
        /// The state where the rounds start.
        to: u32,
    },
    /// After a round of a repetition that is not recorded (``A` ``, or
    /// `A*` over few ways, one loop per way): stop repeating.
    Exit {
        /// The state after the repetition.
        to: u32,
    },
    /// After a round of a repetition that is not recorded: one more round.
    Loop {
        /// The state where the round starts.
        to: u32,
    },
    /// The start of `A*`'s first round, where A has nested repetitions or
    /// many ways: the search records every choice the round makes, so that
    /// later rounds make the same ones ([`Edge::Again`]).
    Begin {
        /// The state where A starts.
        to: u32,
    },
    /// After a round of a recorded `A*`: stop repeating.
    Stop {
        /// The state after `A*`.
        to: u32,
    },
    /// After a round of a recorded `A*`: one more round, making exactly
    /// the choices the first round made.
    Again {
        /// The state where A starts.
        to: u32,
    },
    /// `"s"`: move like piece type `piece` (its automaton from its start),
    /// then go on at `to`.
    Call {
        /// The piece type whose moves are borrowed.
        piece: u16,
        /// Where to go on once they end.
        to: u32,
    },
}

impl Edge {
    /// [`Edge::Leap`] by (`forward`, `right`) to `to`.
    pub const fn leap(forward: i32, right: i32, to: u32) -> Edge {
        Edge::Leap { forward, right, to }
    }

    /// [`Edge::Pass`] to `to`.
    pub const fn pass(to: u32) -> Edge {
        Edge::Pass { to }
    }

    /// [`Edge::Call`] of `piece`'s moves, then `to`.
    pub const fn call(piece: u16, to: u32) -> Edge {
        Edge::Call { piece, to }
    }

    /// The state the edge leads to.
    pub fn to(&self) -> u32 {
        match *self {
            Edge::Leap { to, .. }
            | Edge::Rank { to, .. }
            | Edge::MustCapture { to }
            | Edge::NoCapture { to }
            | Edge::CaptureHere { to }
            | Edge::Promote { to, .. }
            | Edge::Pass { to }
            | Edge::Enter { to }
            | Edge::Exit { to }
            | Edge::Loop { to }
            | Edge::Begin { to }
            | Edge::Stop { to }
            | Edge::Again { to }
            | Edge::Call { to, .. } => to,
        }
    }
}

/// A piece type's moves: state 0 is the start.
#[derive(Clone, Copy, Debug)]
pub struct Automaton<'a> {
    /// The states.
    pub states: &'a [State],
    /// Every state's edges, consecutive per state.
    pub edges: &'a [Edge],
    /// Promotion targets of the `p` edges.
    pub targets: &'a [u16],
    /// Whether a search must remember the nodes it visited: the notation
    /// repeats, or has so many paths that trying each would cost more.
    pub memo: bool,
    /// When every path that can capture is a straight line of leaps from
    /// the piece's square (a leaper such as the knight, a rider such as the
    /// rook, a compound of them, a rank condition on where they start):
    /// those lines, so that an attack test is a comparison and a walk along
    /// the line instead of a search. `None` when some capturing path needs
    /// the search.
    pub attacks: Option<&'a [Ray]>,
    /// The landings inside one leap of the bent lines of `attacks`:
    /// [`Ray::first_bend`] and [`Ray::bends`] index this.
    pub bends: &'a [Bend],
}

/// A landing inside one leap of a bent line ([`Ray`]): an offset from
/// where the leap starts, in the owner's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bend {
    /// Rows toward the opponent.
    pub forward: i32,
    /// Columns to the owner's right.
    pub right: i32,
    /// The square must hold an enemy piece, which the path takes (`x`);
    /// otherwise it must be empty.
    pub capture: bool,
}

impl Bend {
    /// A landing on an empty square.
    pub const fn new(forward: i32, right: i32) -> Bend {
        Bend {
            forward,
            right,
            capture: false,
        }
    }

    /// A landing on an enemy piece, which the path takes.
    pub const fn taking(forward: i32, right: i32) -> Bend {
        Bend {
            forward,
            right,
            capture: true,
        }
    }
}

/// A line a piece can capture along, in the owner's view: the leap
/// (`forward`, `right`) made once (`max` 1: a leaper) or up to `max` times
/// the same way (a rider), all landings before the last empty; only from
/// squares whose owner's rank `ranks` admits.
///
/// A *bent* line lands on further squares inside each leap: a sequence of
/// leaps such as `(1,0)(0,1)`, or `[(1,0)(1,0)]*` repeated the same way,
/// is one leap by the sum of its parts whose intermediate landings (the
/// [`Automaton::bends`] `first_bend..first_bend + bends`) must be on the
/// board and empty too (or hold an enemy piece that `x` takes).
///
/// A crooked rider (``A` ``) is the set of rays with the same `crooked`
/// number (from 1): each of its leaps may take any of them, so what it
/// attacks is found by a flood fill rather than along a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ray {
    /// Rows toward the opponent per leap.
    pub forward: i32,
    /// Columns to the owner's right per leap.
    pub right: i32,
    /// Most leaps along the line ([`UNBOUNDED`]: to the board's edge).
    pub max: u32,
    /// Where the piece must stand for the line to be available.
    pub ranks: Option<RankRange>,
    /// The first of this line's intermediate landings in
    /// [`Automaton::bends`].
    pub first_bend: u32,
    /// How many intermediate landings each leap has (0: a straight leap).
    pub bends: u32,
    /// 0, or the crooked rider (numbered from 1) this ray is a leap of;
    /// `max` is then 1.
    pub crooked: u32,
}

/// The owner's ranks `low..=high` (or all others, `negated`), as `r(..)`
/// and `r!(..)` test them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RankRange {
    /// Lowest owner's rank (1 = the owner's first row).
    pub low: i64,
    /// Highest owner's rank.
    pub high: i64,
    /// `r!`: every rank outside the range.
    pub negated: bool,
}

impl RankRange {
    /// Whether the owner's rank `rank` passes.
    pub fn admits(&self, rank: i64) -> bool {
        (self.low <= rank && rank <= self.high) != self.negated
    }
}

impl Ray {
    /// A single leap by (`forward`, `right`).
    pub const fn leap(forward: i32, right: i32) -> Ray {
        Ray {
            forward,
            right,
            max: 1,
            ranks: None,
            first_bend: 0,
            bends: 0,
            crooked: 0,
        }
    }

    /// A rider along (`forward`, `right`) to the board's edge.
    pub const fn rider(forward: i32, right: i32) -> Ray {
        Ray {
            forward,
            right,
            max: UNBOUNDED,
            ranks: None,
            first_bend: 0,
            bends: 0,
            crooked: 0,
        }
    }

    /// This line, available only from the owner's ranks `low..=high` (or
    /// outside them, `negated`).
    pub const fn on_ranks(self, low: i64, high: i64, negated: bool) -> Ray {
        Ray {
            ranks: Some(RankRange { low, high, negated }),
            ..self
        }
    }

    /// This line with the `bends` intermediate landings per leap that
    /// start at `first_bend` in [`Automaton::bends`].
    pub const fn bent(self, first_bend: u32, bends: u32) -> Ray {
        Ray {
            first_bend,
            bends,
            ..self
        }
    }

    /// This leap as a leap of crooked rider `rider` (from 1).
    pub const fn of_crooked(self, rider: u32) -> Ray {
        Ray {
            crooked: rider,
            ..self
        }
    }

    /// This line's intermediate landings per leap, in `bends` (its
    /// automaton's [`Automaton::bends`]); empty if they lie outside.
    pub fn bends_in<'b>(&self, bends: &'b [Bend]) -> &'b [Bend] {
        let first = self.first_bend as usize;
        bends
            .get(first..first.saturating_add(self.bends as usize))
            .unwrap_or(&[])
    }
}

impl Automaton<'_> {
    /// Whether the `p` edge at `edge` allows a piece of `kind` to become
    /// `target`.
    pub fn allows(&self, edge: u32, kind: u16, target: u16) -> bool {
        match self.edges.get(edge as usize) {
            Some(&Edge::Promote { first, count, .. }) => {
                if count == 0 {
                    target != kind
                } else {
                    self.targets[first as usize..(first + count) as usize].contains(&target)
                }
            }
            _ => false,
        }
    }

    /// The farthest (in king steps) any path reaches from the start.
    pub fn reach(&self) -> u32 {
        self.states.first().map_or(0, |s| s.reach)
    }

    /// The automaton as compact text ([`OwnedAutomaton::decode`] reads it
    /// back): what generated code holds when the automata are too large to
    /// write out as Rust expressions.
    pub fn encode(&self) -> String {
        let mut words: Vec<String> = vec![String::from(if self.memo { "m" } else { "-" })];
        match self.attacks {
            Some(rays) => {
                words.push(format!("A{}", rays.len()));
                for ray in rays {
                    let Ray {
                        forward,
                        right,
                        max,
                        ranks,
                        first_bend,
                        bends,
                        crooked,
                    } = *ray;
                    let line = format!("{forward},{right},{max},{first_bend},{bends},{crooked}");
                    words.push(match ranks {
                        None => line,
                        Some(RankRange { low, high, negated }) => {
                            format!("{line},{low},{high},{}", u8::from(negated))
                        }
                    });
                }
            }
            None => words.push(String::from("N")),
        }
        words.push(format!("B{}", self.bends.len()));
        words.extend(
            self.bends
                .iter()
                .map(|bend| format!("{},{},{}", bend.forward, bend.right, u8::from(bend.capture))),
        );
        words.push(format!("T{}", self.targets.len()));
        words.extend(self.targets.iter().map(|t| t.to_string()));
        words.push(format!("S{}", self.states.len()));
        for state in self.states {
            let flags = u32::from(state.accept) | u32::from(state.crooked) << 1;
            words.push(format!(
                "{},{},{},{}",
                state.first_edge, state.edges, state.reach, flags
            ));
        }
        words.push(format!("E{}", self.edges.len()));
        for edge in self.edges {
            words.push(match *edge {
                Edge::Leap { forward, right, to } => format!("l{forward},{right},{to}"),
                Edge::Rank {
                    low,
                    high,
                    negated,
                    to,
                } => format!("r{low},{high},{},{to}", u8::from(negated)),
                Edge::MustCapture { to } => format!("c{to}"),
                Edge::NoCapture { to } => format!("n{to}"),
                Edge::CaptureHere { to } => format!("x{to}"),
                Edge::Promote { first, count, to } => format!("p{first},{count},{to}"),
                Edge::Pass { to } => format!("s{to}"),
                Edge::Enter { to } => format!("i{to}"),
                Edge::Exit { to } => format!("o{to}"),
                Edge::Loop { to } => format!("w{to}"),
                Edge::Begin { to } => format!("b{to}"),
                Edge::Stop { to } => format!("e{to}"),
                Edge::Again { to } => format!("a{to}"),
                Edge::Call { piece, to } => format!("g{piece},{to}"),
            });
        }
        words.join(" ")
    }
}

/// An automaton in its own storage: decoded from [`Automaton::encode`]'s
/// text, or built by the compiler (which keeps what it knows besides in a
/// type of its own around this one). Its fields are [`Automaton`]'s.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedAutomaton {
    /// The states; 0 is the start ([`Automaton::states`]).
    pub states: Vec<State>,
    /// Every state's edges, consecutive per state ([`Automaton::edges`]).
    pub edges: Vec<Edge>,
    /// Promotion targets of the `p` edges ([`Automaton::targets`]).
    pub targets: Vec<u16>,
    /// Whether searches remember visited nodes ([`Automaton::memo`]).
    pub memo: bool,
    /// The lines it attacks along, if they say it all
    /// ([`Automaton::attacks`]).
    pub attacks: Option<Vec<Ray>>,
    /// The landings inside bent lines' leaps ([`Automaton::bends`]).
    pub bends: Vec<Bend>,
}

impl OwnedAutomaton {
    /// The automaton to search.
    pub fn view(&self) -> Automaton<'_> {
        Automaton {
            states: &self.states,
            edges: &self.edges,
            targets: &self.targets,
            memo: self.memo,
            attacks: self.attacks.as_deref(),
            bends: &self.bends,
        }
    }

    /// Reads [`Automaton::encode`]'s text; `None` if it is not such text or
    /// refers outside itself.
    pub fn decode(text: &str) -> Option<OwnedAutomaton> {
        let mut words = text.split(' ');
        let memo = match words.next()? {
            "m" => true,
            "-" => false,
            _ => return None,
        };
        let attacks = match words.next()? {
            "N" => None,
            word => Some(decode_rays(word, &mut words)?),
        };
        let bends = decode_list(&mut words, 'B', 1024, decode_bend)?;
        if let Some(rays) = &attacks {
            let inside = |ray: &Ray| {
                (ray.first_bend as usize)
                    .checked_add(ray.bends as usize)
                    .is_some_and(|end| end <= bends.len())
            };
            if !rays.iter().all(inside) {
                return None;
            }
        }
        let targets = decode_list(&mut words, 'T', 1024, |word| word.parse().ok())?;
        let states = decode_list(&mut words, 'S', 1 << 16, decode_state)?;
        let edges = decode_list(&mut words, 'E', 1 << 16, decode_edge)?;
        if words.next().is_some() {
            return None;
        }
        let automaton = OwnedAutomaton {
            states,
            edges,
            targets,
            memo,
            attacks,
            bends,
        };
        automaton.fits().then_some(automaton)
    }

    /// Whether every reference stays inside: edges of states, edge
    /// targets, promotion targets.
    fn fits(&self) -> bool {
        let (states, edges) = (&self.states, &self.edges);
        states.iter().all(|s| {
            (s.first_edge as usize)
                .checked_add(s.edges as usize)
                .is_some_and(|end| end <= edges.len())
        }) && edges.iter().all(|e| {
            (e.to() as usize) < states.len()
                && match *e {
                    Edge::Promote { first, count, .. } => {
                        (first as usize) + (count as usize) <= self.targets.len()
                    }
                    _ => true,
                }
        }) && !states.is_empty()
    }
}

/// The comma-separated numbers of `word`.
fn numbers<T: std::str::FromStr>(word: &str) -> Option<Vec<T>> {
    word.split(',').map(|n| n.parse().ok()).collect()
}

/// A count tagged `tag` (`S12`), then that many words read by `item`; a
/// list's first `most` entries are reserved at once.
fn decode_list<'a, T>(
    words: &mut impl Iterator<Item = &'a str>,
    tag: char,
    most: usize,
    item: impl Fn(&str) -> Option<T>,
) -> Option<Vec<T>> {
    let n: usize = words.next()?.strip_prefix(tag)?.parse().ok()?;
    let mut list = Vec::with_capacity(n.min(most));
    for _ in 0..n {
        list.push(item(words.next()?)?);
    }
    Some(list)
}

/// The attack lines: `word` is their count (`A3`), then a word each.
fn decode_rays<'a>(word: &str, words: &mut impl Iterator<Item = &'a str>) -> Option<Vec<Ray>> {
    let n: usize = word.strip_prefix('A')?.parse().ok()?;
    let mut rays = Vec::with_capacity(n.min(64));
    for _ in 0..n {
        let fields: Vec<i64> = numbers(words.next()?)?;
        let small = |n: i64| Some(n as i32).filter(|&m| i64::from(m) == n);
        let count = |n: i64| Some(n as u32).filter(|&m| i64::from(m) == n);
        let &[forward, right, max, first_bend, bends, crooked, ref ranks @ ..] = fields.as_slice()
        else {
            return None;
        };
        let ray = Ray {
            forward: small(forward)?,
            right: small(right)?,
            max: count(max)?,
            ranks: None,
            first_bend: count(first_bend)?,
            bends: count(bends)?,
            crooked: count(crooked)?,
        };
        rays.push(match *ranks {
            [] => ray,
            [low, high, negated] => ray.on_ranks(low, high, negated != 0),
            _ => return None,
        });
    }
    Some(rays)
}

/// One landing inside a bent line's leap: `forward,right,capture`.
fn decode_bend(word: &str) -> Option<Bend> {
    let &[forward, right, capture] = numbers::<i32>(word)?.as_slice() else {
        return None;
    };
    Some(Bend {
        forward,
        right,
        capture: capture != 0,
    })
}

/// One state: `first_edge,edges,reach,flags`.
fn decode_state(word: &str) -> Option<State> {
    let &[first_edge, edges, reach, flags] = numbers::<u32>(word)?.as_slice() else {
        return None;
    };
    Some(State {
        first_edge,
        edges,
        accept: flags & 1 != 0,
        crooked: flags & 2 != 0,
        reach,
    })
}

/// One edge: its tag letter, then its numbers.
fn decode_edge(word: &str) -> Option<Edge> {
    let tag = word.chars().next()?;
    let rest = &word[tag.len_utf8()..];
    let state = |n: i64| (0..=i64::from(u32::MAX)).contains(&n).then_some(n as u32);
    Some(match tag {
        'l' => {
            let &[forward, right, to] = numbers::<i64>(rest)?.as_slice() else {
                return None;
            };
            let small = |n: i64| Some(n as i32).filter(|&m| i64::from(m) == n);
            Edge::Leap {
                forward: small(forward)?,
                right: small(right)?,
                to: state(to)?,
            }
        }
        'r' => {
            let &[low, high, negated, to] = numbers::<i64>(rest)?.as_slice() else {
                return None;
            };
            Edge::Rank {
                low,
                high,
                negated: negated != 0,
                to: state(to)?,
            }
        }
        'p' => match *numbers::<u32>(rest)?.as_slice() {
            [first, count, to] => Edge::Promote { first, count, to },
            _ => return None,
        },
        'g' => match *numbers::<u32>(rest)?.as_slice() {
            // (`TryFrom` is not in the 2015 prelude of standalone output.)
            [piece, to] if piece <= u32::from(u16::MAX) => Edge::Call {
                piece: piece as u16,
                to,
            },
            _ => return None,
        },
        _ => {
            let to: u32 = rest.parse().ok()?;
            match tag {
                'c' => Edge::MustCapture { to },
                'n' => Edge::NoCapture { to },
                'x' => Edge::CaptureHere { to },
                's' => Edge::Pass { to },
                'i' => Edge::Enter { to },
                'o' => Edge::Exit { to },
                'w' => Edge::Loop { to },
                'b' => Edge::Begin { to },
                'e' => Edge::Stop { to },
                'a' => Edge::Again { to },
                _ => return None,
            }
        }
    })
}

/// The automata to search, one per decoded piece type.
pub fn views(decoded: &[OwnedAutomaton]) -> Vec<Automaton<'_>> {
    decoded.iter().map(OwnedAutomaton::view).collect()
}

/// Decodes every piece type's automaton ([`OwnedAutomaton::decode`]); an
/// error names the first that does not decode (generated code is damaged).
pub fn decode_all(texts: &[&str]) -> Result<Vec<OwnedAutomaton>, RuntimeError> {
    let calls_fit = |automaton: &OwnedAutomaton| {
        automaton.edges.iter().all(|edge| match *edge {
            Edge::Call { piece, .. } => usize::from(piece) < texts.len(),
            _ => true,
        })
    };
    texts
        .iter()
        .enumerate()
        .map(|(kind, text)| {
            OwnedAutomaton::decode(text)
                .filter(|a| calls_fit(a))
                .ok_or_else(|| {
                    RuntimeError::new(ErrorKind::Other {
                        message: format!(
                            "the moves of piece type {kind} in the generated code are damaged"
                        ),
                        code: None,
                    })
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_automaton_survives_encoding_and_bad_text_is_refused() {
        let edges = [
            Edge::leap(1, -2, 1),
            Edge::Rank {
                low: -3,
                high: 4,
                negated: true,
                to: 1,
            },
            Edge::MustCapture { to: 1 },
            Edge::NoCapture { to: 1 },
            Edge::CaptureHere { to: 1 },
            Edge::Promote {
                first: 0,
                count: 2,
                to: 1,
            },
            Edge::call(3, 2),
            Edge::pass(2),
            Edge::Enter { to: 1 },
            Edge::Exit { to: 2 },
            Edge::Loop { to: 1 },
        ];
        let states = [
            State::new(0, 7, UNBOUNDED),
            State::new(7, 1, 2).in_crooked(),
            State::new(8, 0, 0).accepting(),
        ];
        let original = Automaton {
            states: &states,
            edges: &edges,
            targets: &[4, 5],
            memo: true,
            attacks: Some(&[
                Ray::leap(1, 2),
                Ray::rider(-2, 1).on_ranks(-3, 2, true),
                Ray::leap(1, 1).bent(0, 1).of_crooked(2),
            ]),
            bends: &[Bend::taking(1, 0)],
        };
        let text = original.encode();
        let decoded = OwnedAutomaton::decode(&text).expect("decodes");
        assert_eq!(decoded.view().encode(), text);
        assert_eq!(decoded.states, states);
        assert_eq!(decoded.edges, edges);
        assert_eq!(decoded.bends, [Bend::taking(1, 0)]);
        assert!(OwnedAutomaton::decode("- A1 1,1,1,0,1,3 B1 1,0,1 T0 S1 0,0,0,1 E0").is_some());
        assert_eq!(
            decoded.attacks.as_deref(),
            Some(
                &[
                    Ray::leap(1, 2),
                    Ray::rider(-2, 1).on_ranks(-3, 2, true),
                    Ray::leap(1, 1).bent(0, 1).of_crooked(2)
                ][..]
            )
        );
        for bad in [
            "",
            "m",
            "x N T0 S0 E0",
            "- N T0 S1 0,1,0,1 E0",
            "- N T0 S1 0,0,0,1 E1 s5",
            // A bent line whose landings lie past the table's end.
            "- A1 1,1,1,0,2,0 B1 1,0,0 T0 S1 0,0,0,1 E0",
            &text[..text.len() - 1],
        ] {
            assert!(OwnedAutomaton::decode(bad).is_none(), "{bad:?}");
        }
        assert!(decode_all(&["- N T0 S1 0,0,0,1 E0", "bad"]).is_err());
    }
}
