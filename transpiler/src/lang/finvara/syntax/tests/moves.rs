//! Move lines (moves, promotion targets, `checks turn`, squares past `z`,
//! source lines) and a whole program.

use super::*;

#[test]
fn a_move() {
    let text = "Turn 1 W: i a1 -> b1";
    let line = move_line(text);
    assert_eq!(line.source_line, 1);
    assert_eq!(line.text, text);
    assert_eq!(line.turn.value, 1);
    assert_eq!(&text[line.turn.span.clone()], "1");
    assert!(line.white);
    assert_eq!(line.symbol.value, "i");
    assert_eq!(&text[line.symbol.span.clone()], "i");
    let MoveAction::Move { from, to, promote } = &line.action else {
        panic!("expected a move");
    };
    assert_eq!((from.row, from.col), (1, 1));
    assert_eq!((to.row, to.col), (2, 1));
    assert_eq!(&text[from.span.clone()], "a1");
    assert_eq!(&text[to.span.clone()], "b1");
    assert_eq!(promote, &None);
}

#[test]
fn a_move_with_a_promotion_target() {
    let text = "Turn 12 B: u a2 -> a2 = q1";
    let line = move_line(text);
    assert_eq!(line.turn.value, 12);
    assert!(!line.white);
    let MoveAction::Move { from, to, promote } = &line.action else {
        panic!("expected a move");
    };
    assert_eq!((from.row, from.col, to.row, to.col), (1, 2, 1, 2));
    let promote = promote.as_ref().expect("a target");
    assert_eq!(promote.value, "q1");
    assert_eq!(&text[promote.span.clone()], "q1");
    // Spaces are optional around `->` and `=`.
    let tight = "Turn 12 B: u a2->a2=q1";
    let MoveAction::Move { from, to, promote } = move_line(tight).action else {
        panic!("expected a move");
    };
    assert_eq!((from.row, from.col, to.row, to.col), (1, 2, 1, 2));
    assert_eq!(&tight[to.span], "a2");
    assert_eq!(&tight[promote.expect("a target").span], "q1");
}

#[test]
fn a_checks_line() {
    let text = "Turn 4 W: p a2 checks turn 3";
    let line = move_line(text);
    assert_eq!(line.turn.value, 4);
    let MoveAction::Checks { square, turn } = &line.action else {
        panic!("expected checks");
    };
    assert_eq!((square.row, square.col), (1, 2));
    assert_eq!(turn.value, 3);
    assert_eq!(&text[turn.span.clone()], "3");
    assert_eq!(&text[square.span.clone()], "a2");
}

#[test]
fn row_letters_beyond_z() {
    let cases = [
        ("a1", 1, 1),
        ("z9", 26, 9),
        ("aa3", 27, 3),
        ("ab1", 28, 1),
        ("az10", 52, 10),
        ("ba1", 53, 1),
        ("iv256", 256, 256),
        ("zz1", 702, 1),
        ("aaa1", 703, 1),
    ];
    for (square, row, col) in cases {
        let text = format!("Turn 1 W: k {square} -> a1");
        let line = move_line(&text);
        let MoveAction::Move { from, .. } = &line.action else {
            panic!("expected a move");
        };
        assert_eq!((from.row, from.col), (row, col), "{square}");
        assert_eq!(&text[from.span.clone()], square);
    }
}

#[test]
fn move_lines_keep_source_lines_and_skip_comments() {
    let text = "(k):\n|kW|kB|\n\n# a comment\nTurn 1 W: k a1 -> a2 # go right\nTurn 1 B: k a2 checks turn 1\n";
    let program = ok(text);
    assert_eq!(program.moves.len(), 2);
    assert_eq!(program.moves[0].source_line, 5);
    assert_eq!(program.moves[0].text, "Turn 1 W: k a1 -> a2");
    assert_eq!(program.moves[1].source_line, 6);
    assert!(!program.moves[1].white);
}

#[test]
fn windows_line_endings() {
    let program = ok("(k):\r\n|kW|kB|\r\nTurn 1 W: k a1 -> a2\r\n");
    assert_eq!(program.pieces.len(), 1);
    assert_eq!(program.rows[0].len(), 2);
    assert_eq!(program.moves[0].text, "Turn 1 W: k a1 -> a2");
}

#[test]
fn the_parser_does_not_check_order_or_squares() {
    // Turn order, squares on the board and symbols are the checker's job.
    let program = ok("Turn 5 B: zz a99 -> zz1\nTurn 1 W: q a1 checks turn 77");
    assert_eq!(program.moves.len(), 2);
    assert_eq!(program.moves[0].turn.value, 5);
}

#[test]
fn a_whole_program() {
    let text = include_str!("../../../../../../examples/truth.fv");
    let program = ok(text);
    assert_eq!(program.pieces.len(), 5);
    assert_eq!(program.rows.len(), 3);
    assert!(program.rows.iter().all(|r| r.len() == 4));
    assert_eq!(program.moves.len(), 8);
    assert_eq!(program.moves[6].source_line, 21);
}

#[test]
fn the_largest_turn_number_is_accepted() {
    let line = move_line("Turn 4294967295 B: k a1 checks turn 4294967295");
    assert_eq!(line.turn.value, u32::MAX);
}
