//! Where a rider's repetition can still lead: a search node inside `A*`
//! whose round is a fixed sequence of leaps ((1,0)* and each way of
//! {(1,0),(0,1)}* or [(1,0)(1,0)]*, one loop per way) can only end its
//! rounds on squares along one line, then go at most as far as the rest of
//! the notation reaches. A node off every such line through the goal is not
//! searched: a rook rider looking for a square ahead of it rides only
//! toward it, not its other three ways first.
//!
//! The test is geometric (no cell is read), so pruning a node never
//! changes which path a search finds first, nor what it reads.
//!
//! A repetition whose rounds cannot lead to the goal in two ways that do
//! different things needs no order among its own paths: its search takes
//! its rounds depth first, without queueing them on the node where the
//! repetition was entered ([`Lines::unordered`]). That holds when the
//! notation ends with the repetition (nothing after it leaps) and either
//! - it is crooked and its rounds only leap (and test ranks or `c`/`m`):
//!   every landing before the last is an empty square, so every path to
//!   the goal does the same thing there; or
//! - each of its ways is a fixed sequence of leaps and no two ways' rounds
//!   point the same way: at most one path reaches the goal.
//!
//! A holder's paths come one after another in the search (it takes its
//! queue before it is popped), so where they do one thing their order
//! among themselves cannot change the move.
//!
//! The simplest of those crooked repetitions, a round of one leap by any
//! of a few vectors, is not searched at all by a move: the goal is reached
//! if a flood fill over empty squares reaches it ([`Lines::fill`]), and the
//! search goes on after the repetition, on the goal, as any of its paths
//! would.

use super::automaton::{Automaton, Edge, UNBOUNDED};
use super::rules::Point;

/// The line a repetition's node rides on: the rest of the current round
/// leaps by (`forward`, `right`) in all, each further round by
/// (`round_forward`, `round_right`), and after the last round the path
/// goes at most `after` king steps (the rest of the notation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Line {
    forward: i32,
    right: i32,
    round_forward: i32,
    round_right: i32,
    /// How far the path goes after the repetition ([`UNBOUNDED`]: this
    /// state is on no line).
    after: u32,
}

/// No line.
const NO_LINE: Line = Line {
    forward: 0,
    right: 0,
    round_forward: 0,
    round_right: 0,
    after: UNBOUNDED,
};

/// The most leaps a round may have for its states to get lines.
const MOST_LEAPS: usize = 64;

/// The most states a crooked round may have for its repetition to be
/// taken without order.
const MOST_ROUND_STATES: usize = 64;

/// The lines of every piece type's states (most states have none), and
/// which repetitions need no order.
#[derive(Clone, Debug, Default)]
pub(super) struct Lines {
    /// Per piece type: the index of its state 0 in `lines`.
    bases: Vec<u32>,
    lines: Vec<Line>,
    /// By state, as `lines`: a round of a repetition that needs no order
    /// starts here (when nothing follows an open `"s"` either).
    unordered: Vec<bool>,
    /// By state, as `lines`: where its chain of lone [`Edge::Pass`] edges
    /// leads ([`Lines::skip`]).
    skips: Vec<u32>,
    /// By state, as `lines`: the crooked repetition of one leap a round
    /// whose rounds start here, as 1 + its index in `fills` (0: none).
    fill_of: Vec<u32>,
    fills: Vec<Fill>,
}

/// A crooked repetition whose round is one leap by any of a few vectors
/// and after which the notation leaps no more ([`Lines::fill`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Fill {
    /// The leaps as (row, column) offsets on the board: White's, Black's.
    offsets: [Vec<(i32, i32)>; 2],
    /// The state after the repetition (not crooked).
    pub(super) exit: u32,
}

impl Fill {
    /// The leaps of a piece of `white`'s colour, as board offsets.
    pub(super) fn offsets(&self, white: bool) -> &[(i32, i32)] {
        &self.offsets[usize::from(!white)]
    }
}

/// The longest chain of lone passes [`Lines::skip`] follows.
const MOST_PASSES: usize = 64;

impl Lines {
    /// The lines of `automata`'s states (a game's searches share them).
    pub(super) fn new(automata: &[Automaton]) -> Lines {
        let mut lines = Lines::default();
        for automaton in automata {
            lines.bases.push(lines.lines.len() as u32);
            let first = lines.lines.len();
            let count = automaton.states.len();
            lines.lines.resize(first + count, NO_LINE);
            lines.unordered.resize(first + count, false);
            lines
                .skips
                .extend((0..count).map(|state| passes_to(automaton, state) as u32));
            lines.fill_of.resize(first + count, 0);
            for (holder, fill) in crooked_fills(automaton) {
                lines.fills.push(fill);
                lines.fill_of[first + holder] = lines.fills.len() as u32;
            }
            // The rounds of repetitions that end the notation: the state
            // after the repetition, where a round starts, and what a round
            // leaps in all if it is a sequence of leaps.
            let mut last = Vec::new();
            for (end, exit, start) in round_ends(automaton) {
                let Some(after) = automaton.states.get(exit).map(|s| s.reach) else {
                    continue;
                };
                if after == UNBOUNDED {
                    continue;
                }
                let round = lines.add_round(automaton, first, start, end, after);
                if after == 0 {
                    if crooked_round_only_leaps(automaton, start, end) {
                        lines.unordered[first + start] = true;
                    }
                    last.push((exit, start, round));
                }
            }
            for &(exit, start, round) in &last {
                let Some(round) = round else {
                    continue;
                };
                let rival = last.iter().any(|&(other_exit, other_start, other)| {
                    other_exit == exit
                        && other_start != start
                        && other.is_none_or(|other| same_way(round, other))
                });
                if !rival {
                    lines.unordered[first + start] = true;
                }
            }
        }
        lines
    }

    /// The lines of the states of the round from `start` to `end` of
    /// `automaton` (whose state 0 is `first` in `lines`), if the round is
    /// a sequence of leaps; what it leaps in all.
    fn add_round(
        &mut self,
        automaton: &Automaton,
        first: usize,
        start: usize,
        end: usize,
        after: u32,
    ) -> Option<(i32, i32)> {
        let mut states = Vec::new();
        let mut leaps = Vec::new();
        let mut state = start;
        while state != end {
            let Some(&Edge::Leap { forward, right, to }) = only_edge(automaton, state) else {
                return None;
            };
            if leaps.len() == MOST_LEAPS {
                return None;
            }
            states.push(state);
            leaps.push((forward, right));
            state = to as usize;
        }
        let sum = |leaps: &[(i32, i32)]| {
            leaps.iter().fold((0i32, 0i32), |(f, r), &(df, dr)| {
                (f.saturating_add(df), r.saturating_add(dr))
            })
        };
        let (round_forward, round_right) = sum(&leaps);
        let on_line = |(forward, right)| Line {
            forward,
            right,
            round_forward,
            round_right,
            after,
        };
        self.lines[first + end] = on_line((0, 0));
        for (i, &state) in states.iter().enumerate() {
            self.lines[first + state] = on_line(sum(&leaps[i..]));
        }
        Some((round_forward, round_right))
    }

    /// The line of state `state` of piece type `kind`, if it is on one.
    #[inline(always)]
    pub(super) fn of(&self, kind: u16, state: u32) -> Option<Line> {
        let base = *self.bases.get(usize::from(kind))?;
        let line = *self.lines.get(base as usize + state as usize)?;
        (line.after != UNBOUNDED).then_some(line)
    }

    /// Where a node at state `state` of piece type `kind` goes on: past the
    /// states whose one edge is a [`Edge::Pass`] (not accepting, as crooked
    /// as the state they pass to), which a node would only cross. (Not in
    /// a recorded repetition, where every edge is a recorded choice.)
    #[inline(always)]
    pub(super) fn skip(&self, kind: u16, state: u32) -> u32 {
        self.bases
            .get(usize::from(kind))
            .and_then(|&base| self.skips.get(base as usize + state as usize))
            .copied()
            .unwrap_or(state)
    }

    /// The crooked repetition entered at state `state` of piece type
    /// `kind` (the target of its [`Edge::Enter`]) if a flood fill can
    /// stand for its rounds.
    #[inline]
    pub(super) fn fill(&self, kind: u16, state: u32) -> Option<&Fill> {
        let base = *self.bases.get(usize::from(kind))?;
        let fill = *self.fill_of.get(base as usize + state as usize)?;
        self.fills.get((fill as usize).checked_sub(1)?)
    }

    /// Whether [`Lines::fill`] has a fill for state `state` of `kind`.
    #[inline(always)]
    pub(super) fn fills(&self, kind: u16, state: u32) -> bool {
        self.bases.get(usize::from(kind)).is_some_and(|&base| {
            self.fill_of
                .get(base as usize + state as usize)
                .is_some_and(|&fill| fill != 0)
        })
    }

    /// Whether the repetition whose round starts at state `state` of piece
    /// type `kind` needs no order among its paths (see the module
    /// documentation), if nothing follows it.
    #[inline]
    pub(super) fn unordered(&self, kind: u16, state: u32) -> bool {
        self.bases.get(usize::from(kind)).is_some_and(|&base| {
            self.unordered
                .get(base as usize + state as usize)
                .is_some_and(|&free| free)
        })
    }
}

/// Where the chain of lone passes from `state` of `automaton` ends
/// ([`Lines::skip`]).
fn passes_to(automaton: &Automaton, state: usize) -> usize {
    let mut at = state;
    for _ in 0..MOST_PASSES {
        let Some(info) = automaton.states.get(at) else {
            break;
        };
        let Some(&Edge::Pass { to }) = only_edge(automaton, at) else {
            break;
        };
        match automaton.states.get(to as usize) {
            Some(next) if !info.accept && next.crooked == info.crooked => at = to as usize,
            _ => break,
        }
    }
    at
}

/// The crooked repetitions of `automaton` that a flood fill can stand
/// for, by the state their [`Edge::Enter`] leads to: that state passes to
/// where a round starts, whose edges all leap to where it ends, which
/// exits to a state that is not crooked and leaps no more, or loops back.
fn crooked_fills(automaton: &Automaton) -> Vec<(usize, Fill)> {
    let mut fills = Vec::new();
    for (end, exit, start) in round_ends(automaton) {
        let (Some(after), Some(round)) = (automaton.states.get(exit), automaton.states.get(start))
        else {
            continue;
        };
        if after.reach != 0 || after.crooked || !round.crooked {
            continue;
        }
        let first = round.first_edge as usize;
        let Some(edges) = automaton.edges.get(first..first + round.edges as usize) else {
            continue;
        };
        let mut leaps = Vec::new();
        for edge in edges {
            match *edge {
                Edge::Leap { forward, right, to } if to as usize == end => {
                    leaps.push((forward, right));
                }
                _ => break,
            }
        }
        if leaps.is_empty() || leaps.len() != edges.len() {
            continue;
        }
        let black = leaps
            .iter()
            .map(|&(forward, right)| (forward.wrapping_neg(), right.wrapping_neg()))
            .collect();
        for edge in automaton.edges {
            let &Edge::Enter { to: holder } = edge else {
                continue;
            };
            if only_edge(automaton, holder as usize) == Some(&Edge::Pass { to: start as u32 }) {
                let fill = Fill {
                    offsets: [leaps.clone(), black],
                    exit: exit as u32,
                };
                fills.push((holder as usize, fill));
                break;
            }
        }
    }
    fills
}

/// Whether two rounds that leap by `a` and by `b` in all can reach one
/// square from one start: they point the same way (or one stays put).
fn same_way(a: (i32, i32), b: (i32, i32)) -> bool {
    let (a0, a1) = (i64::from(a.0), i64::from(a.1));
    let (b0, b1) = (i64::from(b.0), i64::from(b.1));
    a0 * b1 == a1 * b0 && a0 * b0 + a1 * b1 >= 0
}

/// Whether the round from `start` to `end` of `automaton` is crooked and
/// only leaps, tests ranks or sets `c`/`m` (no `x`, promotion, `"s"` or
/// repetition inside).
fn crooked_round_only_leaps(automaton: &Automaton, start: usize, end: usize) -> bool {
    let mut seen = vec![start];
    let mut at = 0;
    while let Some(&state) = seen.get(at) {
        at += 1;
        let Some(info) = automaton.states.get(state) else {
            return false;
        };
        if !info.crooked {
            return false;
        }
        if state == end {
            continue;
        }
        let first = info.first_edge as usize;
        let Some(edges) = automaton.edges.get(first..first + info.edges as usize) else {
            return false;
        };
        for edge in edges {
            match edge {
                Edge::Leap { .. }
                | Edge::Pass { .. }
                | Edge::Rank { .. }
                | Edge::MustCapture { .. }
                | Edge::NoCapture { .. } => {}
                _ => return false,
            }
            let next = edge.to() as usize;
            if !seen.contains(&next) {
                if seen.len() == MOST_ROUND_STATES {
                    return false;
                }
                seen.push(next);
            }
        }
    }
    true
}

/// `state`'s edge, if it has exactly one.
fn only_edge<'a>(automaton: &'a Automaton, state: usize) -> Option<&'a Edge> {
    let info = automaton.states.get(state)?;
    let first = info.first_edge as usize;
    match automaton.edges.get(first..first + info.edges as usize)? {
        [edge] => Some(edge),
        _ => None,
    }
}

/// The ends of `automaton`'s unrecorded repetitions' rounds: the state
/// after a round (whose two edges stop the repetition or loop back), the
/// state after the repetition, and the state where a round starts.
fn round_ends(automaton: &Automaton) -> Vec<(usize, usize, usize)> {
    let mut ends = Vec::new();
    for (end, info) in automaton.states.iter().enumerate() {
        let first = info.first_edge as usize;
        let edges = automaton.edges.get(first..first + info.edges as usize);
        if let Some(
            &[Edge::Exit { to: exit }, Edge::Loop { to: start }]
            | &[Edge::Loop { to: start }, Edge::Exit { to: exit }],
        ) = edges
        {
            ends.push((end, exit as usize, start as usize));
        }
    }
    ends
}

impl Line {
    /// How far the path goes after the repetition.
    pub(super) fn after(self) -> u32 {
        self.after
    }

    /// Whether a path on this line from `at`, of `white`'s colour, can
    /// still end on `to` when `beyond` more king steps may follow the
    /// repetition (the line's own `after` plus what follows an open `"s"`).
    pub(super) fn reaches(self, at: Point, to: Point, white: bool, beyond: u32) -> bool {
        // In the owner's view: Black's gap turned round, not the leaps.
        let (mut gap_row, mut gap_col) = (
            i64::from(to.row) - i64::from(at.row),
            i64::from(to.col) - i64::from(at.col),
        );
        if !white {
            (gap_row, gap_col) = (-gap_row, -gap_col);
        }
        let gap_row = gap_row - i64::from(self.forward);
        let gap_col = gap_col - i64::from(self.right);
        let (step_row, step_col) = (i64::from(self.round_forward), i64::from(self.round_right));
        if beyond == 0 {
            // Rounds `k` >= 0 with gap = k * step exactly.
            let rounds = |gap: i64, step: i64| (gap % step == 0).then(|| gap / step);
            return match (step_row, step_col) {
                (0, 0) => gap_row == 0 && gap_col == 0,
                (0, _) => gap_row == 0 && rounds(gap_col, step_col).is_some_and(|k| k >= 0),
                (_, 0) => gap_col == 0 && rounds(gap_row, step_row).is_some_and(|k| k >= 0),
                _ => rounds(gap_row, step_row).is_some_and(|k| k >= 0 && gap_col == k * step_col),
            };
        }
        let slack = i64::from(beyond);
        let mut fewest = 0i64;
        let mut most = i64::MAX;
        for (gap, step) in [(gap_row, step_row), (gap_col, step_col)] {
            // Rounds `k` with |gap - k * step| <= slack.
            let (gap, step) = if step < 0 { (-gap, -step) } else { (gap, step) };
            if step == 0 {
                if gap.abs() > slack {
                    return false;
                }
                continue;
            }
            fewest = fewest.max(-(slack - gap).div_euclid(step));
            most = most.min((gap + slack).div_euclid(step));
        }
        fewest <= most
    }
}

#[cfg(test)]
mod tests {
    use super::super::automaton::State;
    use super::super::testing::{searched, step_or_jump, two_ways};
    use super::*;

    fn point(row: u32, col: u32) -> Point {
        Point { row, col }
    }

    #[test]
    fn a_line_reaches_the_squares_ahead_and_near_its_end() {
        // A round of (1,2) leaps, the first not made yet.
        let line = Line {
            forward: 1,
            right: 2,
            round_forward: 1,
            round_right: 2,
            after: 0,
        };
        let at = point(2, 2);
        // White: (3,4), (4,6), … ahead; not its own square (one leap at
        // least), not behind, not beside.
        assert!(line.reaches(at, point(3, 4), true, 0));
        assert!(line.reaches(at, point(5, 8), true, 0));
        assert!(!line.reaches(at, at, true, 0));
        assert!(!line.reaches(at, point(1, 0), true, 0));
        assert!(!line.reaches(at, point(3, 5), true, 0));
        // After a round: its own square too.
        let ended = Line {
            forward: 0,
            right: 0,
            ..line
        };
        assert!(ended.reaches(at, at, true, 0));
        // One king step after the line: next to it.
        assert!(line.reaches(at, point(3, 5), true, 1));
        assert!(line.reaches(at, point(4, 7), true, 1));
        assert!(!line.reaches(at, point(2, 8), true, 1));
        // Black leaps the other way.
        assert!(line.reaches(at, point(1, 0), false, 0));
        assert!(!line.reaches(at, point(3, 4), false, 0));
        // Rounds that come back where they start: only the squares within
        // the rest of the round and the steps after it.
        let still = Line {
            round_forward: 0,
            round_right: 0,
            ..line
        };
        assert!(still.reaches(at, point(3, 4), true, 0));
        assert!(still.reaches(at, point(4, 4), true, 1));
        assert!(!still.reaches(at, point(5, 8), true, 1));
    }

    #[test]
    fn repetitions_of_leaps_have_lines_and_others_do_not() {
        // [(1,0)(0,1)]* then (0,1): 0 -Enter-> 1 -> 2 (a round starts:
        // leap) -> 3 (leap) -> 4 (exit or loop) -> 5 -> leap -> 6 (accept);
        // then the same with a pass inside the round (no lines).
        let states = [
            State::new(0, 1, UNBOUNDED),
            State::new(1, 1, UNBOUNDED),
            State::new(2, 1, UNBOUNDED),
            State::new(3, 1, UNBOUNDED),
            State::new(4, 2, UNBOUNDED),
            State::new(6, 1, 1),
            State::new(7, 0, 0).accepting(),
        ];
        let edges = [
            Edge::Enter { to: 1 },
            Edge::pass(2),
            Edge::leap(1, 0, 3),
            Edge::leap(0, 1, 4),
            Edge::Exit { to: 5 },
            Edge::Loop { to: 2 },
            Edge::leap(0, 1, 6),
        ];
        let mut passing = edges;
        passing[3] = Edge::pass(4);
        let automaton = |edges| searched(&states, edges);
        let lines = Lines::new(&[automaton(&edges), automaton(&passing)]);
        let line = |forward, right| Line {
            forward,
            right,
            round_forward: 1,
            round_right: 1,
            after: 1,
        };
        assert_eq!(lines.of(0, 2), Some(line(1, 1)));
        assert_eq!(lines.of(0, 3), Some(line(0, 1)));
        assert_eq!(lines.of(0, 4), Some(line(0, 0)));
        for state in [0, 1, 5, 6, 7] {
            assert_eq!(lines.of(0, state), None, "state {state}");
        }
        for state in 0..7 {
            assert_eq!(lines.of(1, state), None, "a pass: state {state}");
        }
        assert_eq!(lines.of(2, 0), None, "no such piece type");
    }

    #[test]
    fn repetitions_whose_paths_cannot_meet_need_no_order() {
        let lines_of =
            |(states, edges): (Vec<State>, Vec<Edge>)| Lines::new(&[searched(&states, &edges)]);
        // Opposite ways (a rook's two): no square is on both lines.
        let rook = lines_of(two_ways((0, 1), (0, -1), 0));
        assert!(rook.unordered(0, 2) && rook.unordered(0, 4));
        // The spec's example: a step and a jump the same way meet.
        let same = lines_of(step_or_jump(false));
        assert!(!same.unordered(0, 2) && !same.unordered(0, 4));
        // A leap after the repetition: its paths meet beside the lines.
        let tail = lines_of(two_ways((0, 1), (0, -1), 1));
        assert!(!tail.unordered(0, 2) && !tail.unordered(0, 4));
        assert!(rook.fill(0, 1).is_none(), "not crooked");
    }

    #[test]
    fn a_crooked_repetition_of_leaps_is_filled() {
        // (0,1|>)` for White, or with `x` after each leap.
        for capturing in [false, true] {
            let states = [
                State::new(0, 1, UNBOUNDED),
                State::new(1, 1, UNBOUNDED),
                State::new(2, 1, UNBOUNDED).in_crooked(),
                State::new(3, 1, UNBOUNDED).in_crooked(),
                State::new(4, 2, UNBOUNDED).in_crooked(),
                State::new(6, 1, 0),
                State::new(7, 0, 0).accepting(),
            ];
            let inside = if capturing {
                Edge::CaptureHere { to: 4 }
            } else {
                Edge::pass(4)
            };
            let edges = [
                Edge::Enter { to: 1 },
                Edge::pass(2),
                Edge::leap(0, 1, 3),
                inside,
                Edge::Exit { to: 5 },
                Edge::Loop { to: 2 },
                Edge::pass(6),
            ];
            let lines = Lines::new(&[searched(&states, &edges)]);
            assert_eq!(lines.unordered(0, 2), !capturing, "x: {capturing}");
            // The fill needs a round of one leap (here leap, then pass).
            assert!(lines.fill(0, 1).is_none());
        }
        // {(0,1|>),(0,2|>)}`: a crooked round of one leap, two ways.
        let (states, edges) = step_or_jump(true);
        let lines = Lines::new(&[searched(&states, &edges)]);
        let fill = lines.fill(0, 1).expect("a fill");
        assert_eq!(fill.offsets(true), [(0, 1), (0, 2)]);
        assert_eq!(fill.offsets(false), [(0, -1), (0, -2)]);
        assert_eq!(fill.exit, 4);
        assert_eq!(lines.skip(0, 5), 5, "an accepting state");
        assert_eq!(lines.skip(0, 4), 5, "one pass to the end");
        assert_eq!(lines.skip(0, 1), 1, "into a crooked state");
    }
}
