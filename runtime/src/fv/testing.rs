//! What the Finvara runtime's tests share: small automata, rules and
//! boards of 3 x 3 squares.

use super::super::io::Io;
use super::{Automaton, Cell, Edge, Move, PieceValue, Ray, Rules, State};

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
