//! What the Finvara runtime's tests share: small automata, rules and
//! boards of 3 x 3 squares.

use super::super::io::Io;
use super::{Automaton, Cell, Edge, Move, PieceValue, Ray, Rules, State, UNBOUNDED};

/// `(1,0)`: four steps.
pub(super) const WAZIR_STATES: [State; 3] = [
    State {
        first_edge: 0,
        edges: 4,
        accept: false,
        crooked: false,
        reach: 1,
    },
    State {
        first_edge: 4,
        edges: 1,
        accept: false,
        crooked: false,
        reach: 0,
    },
    State {
        first_edge: 5,
        edges: 0,
        accept: true,
        crooked: false,
        reach: 0,
    },
];

pub(super) const WAZIR_EDGES: [Edge; 5] = [
    Edge::Leap {
        forward: 1,
        right: 0,
        to: 1,
    },
    Edge::Leap {
        forward: -1,
        right: 0,
        to: 1,
    },
    Edge::Leap {
        forward: 0,
        right: 1,
        to: 1,
    },
    Edge::Leap {
        forward: 0,
        right: -1,
        to: 1,
    },
    Edge::Pass { to: 2 },
];

/// `(1,0)` as an automaton, searched (not a leaper).
pub(super) const WAZIR: Automaton<'static> = Automaton {
    states: &WAZIR_STATES,
    edges: &WAZIR_EDGES,
    targets: &[],
    memo: false,
    attacks: None,
    bends: &[],
};

/// `(1,0)` known to be a leaper (mapped: its leaps are hit counts).
pub(super) const WAZIR_LEAPER: Automaton<'static> = Automaton {
    attacks: Some(&[
        Ray::leap(1, 0),
        Ray::leap(-1, 0),
        Ray::leap(0, 1),
        Ray::leap(0, -1),
    ]),
    ..WAZIR
};

pub(super) fn rules<'a>(automata: &'a [Automaton<'a>], values: &'a [PieceValue]) -> Rules<'a> {
    Rules {
        automata,
        values,
        rows: 3,
        cols: 3,
    }
}

/// A 3 x 3 board with `pieces` (square, kind, white) and `holes`.
pub(super) fn board(pieces: &[(usize, u16, bool)], holes: &[usize]) -> Vec<Cell> {
    let mut cells = vec![Cell::Empty; 9];
    for &(square, kind, white) in pieces {
        cells[square] = Cell::Piece { kind, white };
    }
    for &square in holes {
        cells[square] = Cell::Hole;
    }
    cells
}

pub(super) fn io() -> Io<&'static [u8], Vec<u8>> {
    Io::new(&b"5"[..], Vec::new())
}

/// The move of a `kind` piece of `white`'s colour from square `from` to
/// `to`, without promotion.
pub(super) fn moving(white: bool, kind: u16, from: u32, to: u32) -> Move {
    Move {
        white,
        kind,
        from,
        to,
        promote: None,
    }
}

/// The automaton of `states` and `edges`, searched (no move class) with
/// its visited nodes remembered, without promotion targets.
pub(super) fn searched<'a>(states: &'a [State], edges: &'a [Edge]) -> Automaton<'a> {
    Automaton {
        states,
        edges,
        targets: &[],
        memo: true,
        attacks: None,
        bends: &[],
    }
}

/// `{(0,1|>),(0,2|>)}*` for White, one loop per way (a step, a jump
/// of two), or `{(0,1|>),(0,2|>)}`` (crooked: any of them each round).
pub(super) fn step_or_jump(crooked: bool) -> (Vec<State>, Vec<Edge>) {
    if !crooked {
        return two_ways((0, 1), (0, 2), 0);
    }
    let state = |first_edge, edges| State::new(first_edge, edges, UNBOUNDED);
    let states = vec![
        state(0, 1),
        state(1, 1),
        state(2, 2).in_crooked(),
        state(4, 2).in_crooked(),
        State::new(6, 1, 0),
        State::new(7, 0, 0).accepting(),
    ];
    let edges = vec![
        Edge::Enter { to: 1 },
        Edge::pass(2),
        Edge::leap(0, 1, 3),
        Edge::leap(0, 2, 3),
        Edge::Exit { to: 4 },
        Edge::Loop { to: 2 },
        Edge::pass(5),
    ];
    (states, edges)
}

/// `{A,B}*` for White where A and B are the leaps `first` and `second` (one loop per
/// way), then a leap by `(0, tail)` unless `tail` is 0.
pub(super) fn two_ways(
    first: (i32, i32),
    second: (i32, i32),
    tail: i32,
) -> (Vec<State>, Vec<Edge>) {
    let after = if tail == 0 { 0 } else { 1 };
    let states = vec![
        State::new(0, 1, UNBOUNDED),
        State::new(1, 2, UNBOUNDED),
        State::new(3, 1, UNBOUNDED),
        State::new(4, 2, UNBOUNDED),
        State::new(6, 1, UNBOUNDED),
        State::new(7, 2, UNBOUNDED),
        State::new(9, 1, after),
        State::new(10, 0, 0).accepting(),
    ];
    let last = if tail == 0 {
        Edge::pass(7)
    } else {
        Edge::leap(0, tail, 7)
    };
    let edges = vec![
        Edge::Enter { to: 1 },
        Edge::pass(2),
        Edge::pass(4),
        Edge::leap(first.0, first.1, 3),
        Edge::Exit { to: 6 },
        Edge::Loop { to: 2 },
        Edge::leap(second.0, second.1, 5),
        Edge::Exit { to: 6 },
        Edge::Loop { to: 4 },
        last,
    ];
    (states, edges)
}
