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

use super::super::memory::{self, Refused};
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

/// The lines of every piece type's states (most states have none).
#[derive(Clone, Debug, Default)]
pub(super) struct Lines {
    /// What the lines were found for: the automata (address, count).
    layout: (usize, usize),
    /// Per piece type: the index of its state 0 in `lines`.
    bases: Vec<u32>,
    lines: Vec<Line>,
}

impl Lines {
    /// Finds the lines of `automata`'s states, unless they were found for
    /// these automata already (a game's searches share them).
    #[inline]
    pub(super) fn prepare(&mut self, automata: &[Automaton]) -> Result<(), Refused> {
        let layout = (automata.as_ptr() as usize, automata.len());
        if layout == self.layout {
            return Ok(());
        }
        self.find(automata)?;
        self.layout = layout;
        Ok(())
    }

    /// Finds the lines of `automata`'s states.
    #[cold]
    #[inline(never)]
    fn find(&mut self, automata: &[Automaton]) -> Result<(), Refused> {
        self.bases.clear();
        self.lines.clear();
        for automaton in automata {
            memory::push(&mut self.bases, self.lines.len() as u32)?;
            let first = self.lines.len();
            memory::reserve(&mut self.lines, automaton.states.len())?;
            self.lines.resize(first + automaton.states.len(), NO_LINE);
            for (end, exit, start) in round_ends(automaton) {
                if let Some(after) = automaton.states.get(exit).map(|s| s.reach) {
                    if after != UNBOUNDED {
                        self.add_round(automaton, first, start, end, after);
                    }
                }
            }
        }
        Ok(())
    }

    /// The lines of the states of the round from `start` to `end` of
    /// `automaton` (whose state 0 is `first` in `lines`), if the round is
    /// a sequence of leaps.
    fn add_round(
        &mut self,
        automaton: &Automaton,
        first: usize,
        start: usize,
        end: usize,
        after: u32,
    ) {
        let mut states = Vec::new();
        let mut leaps = Vec::new();
        let mut state = start;
        while state != end {
            let Some(&Edge::Leap { forward, right, to }) = only_edge(automaton, state) else {
                return;
            };
            if leaps.len() == MOST_LEAPS {
                return;
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
    }

    /// The line of state `state` of piece type `kind`, if it is on one.
    #[inline(always)]
    pub(super) fn of(&self, kind: u16, state: u32) -> Option<Line> {
        let base = *self.bases.get(usize::from(kind))?;
        let line = *self.lines.get(base as usize + state as usize)?;
        (line.after != UNBOUNDED).then_some(line)
    }
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
        let sign = if white { 1 } else { -1 };
        let slack = i64::from(beyond);
        let mut fewest = 0i64;
        let mut most = i64::MAX;
        let axes = [
            (
                i64::from(to.row) - i64::from(at.row) - i64::from(self.forward) * sign,
                i64::from(self.round_forward) * sign,
            ),
            (
                i64::from(to.col) - i64::from(at.col) - i64::from(self.right) * sign,
                i64::from(self.round_right) * sign,
            ),
        ];
        for (gap, step) in axes {
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
        let automaton = |edges| Automaton {
            states: &states,
            edges,
            targets: &[],
            memo: true,
            attacks: None,
            bends: &[],
        };
        let mut lines = Lines::default();
        lines
            .prepare(&[automaton(&edges), automaton(&passing)])
            .unwrap();
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
}
