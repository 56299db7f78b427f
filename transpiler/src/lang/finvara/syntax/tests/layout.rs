//! Piece definitions (symbols, values, comments, redefinitions) and board
//! drawings (cells, rows, widths, comments).

use super::*;

#[test]
fn piece_values() {
    let program = ok(
        "(n 3): (1,2)\n(m -7):\n(o +2):\n(X x):\n(Y y):\n(k):\n(K ):\n(big 9223372036854775807):",
    );
    let values: Vec<(&str, Option<Value>)> = program
        .pieces
        .iter()
        .map(|p| (p.symbol.value.as_str(), p.value))
        .collect();
    assert_eq!(
        values,
        [
            ("n", Some(Value::Number(3))),
            ("m", Some(Value::Number(-7))),
            ("o", Some(Value::Number(2))),
            ("X", Some(Value::X)),
            ("Y", Some(Value::Y)),
            ("k", None),
            ("K", None),
            ("big", Some(Value::Number(i64::MAX))),
        ]
    );
}

#[test]
fn piece_symbols_and_their_spans() {
    let text = "(Ab_9 1): x\n  ( x 0 ) : (1,0)  # the symbol x, not a capture\n(y y):";
    let program = ok(text);
    let symbols: Vec<&str> = program
        .pieces
        .iter()
        .map(|p| &text[p.symbol.span.clone()])
        .collect();
    assert_eq!(symbols, ["Ab_9", "x", "y"]);
    assert_eq!(program.pieces[0].symbol.value, "Ab_9");
    assert_eq!(
        strip(&program.pieces[0].notation.value),
        vec![one(Atom::CaptureHere)]
    );
    assert_eq!(program.pieces[1].value, Some(Value::Number(0)));
    assert_eq!(
        strip(&program.pieces[1].notation.value),
        vec![one(leap(1, 0))]
    );
    assert_eq!(program.pieces[2].value, Some(Value::Y));
}

#[test]
fn a_comment_ends_a_piece_definition() {
    let program = ok("(p 1): {c((1,1|^)),m((1,0|^))} #pawn (1,0)*");
    assert_eq!(
        strip(&program.pieces[0].notation.value),
        vec![one(Atom::Any(vec![
            vec![one(Atom::Capture(vec![one(leap_dirs(
                1, 1, true, false, false, false
            ))]))],
            vec![one(Atom::NoCapture(vec![one(leap_dirs(
                1, 0, true, false, false, false
            ))]))],
        ]))]
    );
}

#[test]
fn the_parser_keeps_redefinitions_for_the_checker() {
    // Uniqueness is the checker's job: the parser keeps both, in order.
    let program = ok("(a 1): (1,0)\n(a 2):");
    assert_eq!(program.pieces.len(), 2);
    assert_eq!(program.pieces[1].value, Some(Value::Number(2)));
}

#[test]
fn board_cells() {
    let program = board(&[
        "+--+--+--+--+",
        "|kB|##|  |n1W|",
        "+--+--+--+--+",
        "|| ##|Ab_W |kW|",
    ]);
    assert_eq!(
        cells(&program),
        vec![
            vec![
                piece("k", false),
                Cell::Hole,
                Cell::Empty,
                piece("n1", true)
            ],
            vec![
                Cell::Empty,
                Cell::Hole,
                piece("Ab_", true),
                piece("k", true)
            ],
        ]
    );
}

#[test]
fn board_rows_top_first() {
    let text = "+--+--+--+\n|kB|##|nB|\n+--+--+--+\n|iW|  |kW|\n+--+--+--+\n";
    let program = ok(text);
    assert_eq!(
        cells(&program),
        vec![
            vec![piece("k", false), Cell::Hole, piece("n", false)],
            vec![piece("i", true), Cell::Empty, piece("k", true)],
        ]
    );
    assert_eq!(
        &text[program.board_span.clone()],
        "|kB|##|nB|\n+--+--+--+\n|iW|  |kW|"
    );
    let spans: Vec<&str> = program.rows[0]
        .iter()
        .map(|c| &text[c.span.clone()])
        .collect();
    assert_eq!(spans, ["kB", "##", "nB"]);
}

#[test]
fn cells_are_trimmed_and_symbols_may_be_long() {
    let text = "|  Ab_9W |  ##|x1B  |   |";
    let program = ok(text);
    let cells: Vec<Cell> = program.rows[0].iter().map(|c| c.value.clone()).collect();
    assert_eq!(
        cells,
        [
            piece("Ab_9", true),
            Cell::Hole,
            piece("x1", false),
            Cell::Empty
        ]
    );
    assert_eq!(&text[program.rows[0][0].span.clone()], "Ab_9W");
    assert_eq!(&text[program.rows[0][2].span.clone()], "x1B");
}

#[test]
fn a_comment_after_the_last_bar_is_ignored() {
    let text = "|kB|  |  # top row\n|##|kW|#";
    let program = ok(text);
    assert_eq!(program.rows.len(), 2);
    assert_eq!(program.rows[0].len(), 2);
    assert_eq!(program.rows[1].len(), 2);
    assert_eq!(program.rows[1][0].value, Cell::Hole);
    assert_eq!(program.rows[1][1].value, piece("k", true));
}

#[test]
fn hash_comments_elsewhere_on_a_board() {
    let text =
        "# the board\n+--+--+ # border\n  |kB|##|\n# between rows\n+--+--+\n|  |kW|\n+--+--+ # end";
    let program = ok(text);
    assert_eq!(program.rows.len(), 2);
    assert_eq!(program.rows[0][1].value, Cell::Hole);
    // The `##` cell is a hole, not the start of a comment.
    assert_eq!(&text[program.rows[0][1].span.clone()], "##");
}

#[test]
fn a_board_of_one_empty_square_and_rows_without_cells() {
    let program = ok("|  |");
    assert_eq!(
        program.rows,
        vec![vec![Spanned::new(
            Cell::Empty,
            program.rows[0][0].span.clone()
        )]]
    );
    // A lone `|` is a row with no cells.
    let program = ok("|");
    assert_eq!(program.rows.len(), 1);
    assert!(program.rows[0].is_empty());
}

#[test]
fn unequal_row_widths() {
    let text = "|kB|  |\n|kW|  |  |";
    let (message, at) = error(text);
    assert_eq!(
        message,
        "this row has 3 cells, the board's other rows have 2"
    );
    assert_eq!(at, "|kW|  |  |");
    // One short row among right ones: it alone is blamed, whether it is
    // first or in the middle.
    for text in ["|aW|\n|bW|cW|\n|dW|eW|", "|bW|cW|\n|aW|\n|dW|eW|"] {
        assert_eq!(
            messages(&errors(text)),
            ["this row has 1 cell, the board's other rows have 2"],
            "{text}"
        );
    }
    // The `+--+` lines count: with them, the wider of two rows is wrong.
    let (message, at) = error("+--+--+\n|aW|\n+--+--+\n|bW|cW|\n+--+--+");
    assert_eq!(
        message,
        "this row has 1 cell, the board's other rows have 2"
    );
    assert_eq!(at, "|aW|");
    // Without a majority for one width, the first seen is the board's.
    assert_eq!(
        messages(&errors("|aW|\n|bW|\n|cW|dW|\n|eW|fW|gW|\n|hW|")),
        [
            "this row has 2 cells, most of the board's rows have 1",
            "this row has 3 cells, most of the board's rows have 1"
        ]
    );
    assert_eq!(
        messages(&errors("|aW|\n|bW|cW|\n|dW|eW|fW|")),
        [
            "this row has 2 cells, the first row has 1",
            "this row has 3 cells, the first row has 1"
        ]
    );
}

#[test]
fn unequal_width_span_includes_a_trailing_comment() {
    let text = "|kB|\n  |kW|  | # wide";
    let all = errors(text);
    assert_eq!(all.len(), 1);
    assert_eq!(&text[all[0].span.clone()], "|kW|  | # wide");
}

#[test]
fn comments_start_at_a_hash_but_not_inside_a_board_row() {
    use super::super::comment_start;
    assert_eq!(comment_start("Turn 1 W: k a1 -> b1 # falls"), Some(21));
    assert_eq!(comment_start("(k): (1,0)"), None);
    assert_eq!(comment_start("# a whole line"), Some(0));
    // `##` in a row is a hole; a comment follows the row's last bar.
    assert_eq!(comment_start("|##|kW|"), None);
    assert_eq!(comment_start("  |##|kW| # the top row"), Some(10));
}
