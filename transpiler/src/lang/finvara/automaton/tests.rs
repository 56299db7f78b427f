//! Tests of the automata the notations build and of the paths listed
//! from them.

use super::*;
use crate::lang::finvara::{lower, syntax};
use crate::source::Source;

/// Builds every piece of `pieces` (definition lines) for a board of
/// `rows` × `cols` as the compiler does, returning the automata by type
/// index and the type indices by symbol.
fn automata(pieces: &str, rows: u32, cols: u32) -> (Vec<Automaton>, HashMap<String, u16>) {
    let text = format!("{pieces}\n+--+\n|  |\n+--+\n");
    let source = Source::new("test.fv", text);
    let program = syntax::parse(&source).expect("parses");
    let kinds = lower::kinds(&program);
    let automata = lower::automata(&program, &kinds, rows, cols).expect("builds");
    (automata, kinds)
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
