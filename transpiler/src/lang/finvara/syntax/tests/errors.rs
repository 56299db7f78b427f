//! Every error the parser reports: its message and the text its span
//! points at, line by line and within a notation.

use super::*;

#[test]
fn bad_board_cells() {
    for (row, cell) in [
        ("|kX|", "kX"),
        ("|kw|", "kw"),
        ("|W|", "W"),
        ("|k W|", "k W"),
        ("|k-W|", "k-W"),
        ("|#|", "#"),
        ("| ### |", "###"),
    ] {
        let (message, at) = error(row);
        assert_eq!(message, format!("`{cell}` is not a board cell"), "{row}");
        assert_eq!(at, cell, "{row}");
    }
}

#[test]
fn a_line_that_is_nothing() {
    let (message, at) = error("hello world # comment");
    assert_eq!(
        message,
        "this line is not a piece definition, a board row or a move"
    );
    assert_eq!(at, "hello world");
    let text = "(k):\n   turn 1 W: k a1 -> a2";
    let all = errors(text);
    assert_eq!(all.len(), 1);
    assert_eq!(&text[all[0].span.clone()], "turn 1 W: k a1 -> a2");
}

#[test]
fn every_bad_line_is_reported_in_order() {
    let text = "(a 1): (1,0\n(b 2): (1,0)\n|kB|kX|\nTurn 1 W: k a1 a2\nnonsense";
    let all = errors(text);
    let found: Vec<(&str, &str)> = all
        .iter()
        .map(|d| (d.message.as_str(), &text[d.span.clone()]))
        .collect();
    assert_eq!(
        found,
        [
            ("expected `)`, found the end of the line", ""),
            ("`kX` is not a board cell", "kX"),
            ("expected `->` or `checks turn`, found `a`", "a"),
            (
                "this line is not a piece definition, a board row or a move",
                "nonsense"
            ),
        ]
    );
    // The empty span of the first error sits at the end of its line.
    assert_eq!(all[0].span, 11..11);
}

#[test]
fn leap_errors() {
    assert_errors(&[
        ("(a 1): (1 0)", "expected `,`, found `0`", "0"),
        ("(a 1): (1,0]", "expected `)`, found `]`", "]"),
        ("(a 1): (a,0)", "expected a number, found `a`", "a"),
        ("(a 1): (1,-)", "expected a number, found `-`", "-"),
        (
            "(a 1): (1,0|)",
            "expected a direction letter (^ v < >), found `)`",
            ")",
        ),
        (
            "(a 1): (1,0|x)",
            "expected a direction letter (^ v < >), found `x`",
            "x",
        ),
        ("(a 1): (1,0|^x)", "expected `)`, found `x`", "x"),
        (
            "(a 1): (1,",
            "expected a number, found the end of the line",
            "",
        ),
        (
            "(a 1): (99999999999999999999,0)",
            "`99999999999999999999` does not fit in an i64",
            "99999999999999999999",
        ),
        (
            "(a 1): (0,-9223372036854775809)",
            "`-9223372036854775809` does not fit in an i64",
            "-9223372036854775809",
        ),
    ]);
}

#[test]
fn unknown_atoms() {
    let expected = "expected a move: (a,b), {..}, [..], c(..), m(..), r(..), \"s\", x or p";
    for (text, at) in [
        ("(a 1): q", "q"),
        ("(a 1): (1,0) y", "y"),
        ("(a 1): (1,0))", ")"),
        ("(a 1): }", "}"),
        ("(a 1): ]", "]"),
        ("(a 1): (1,0),(1,1)", ","),
        ("(a 1): *", "*"),
        ("(a 1): `", "`"),
        ("(a 1): r!x", "r"),
    ] {
        let (message, found) = error(text);
        assert_eq!(message, format!("{expected}, found `{at}`"), "{text}");
        assert_eq!(found, at, "{text}");
    }
}

#[test]
fn bracket_errors() {
    assert_errors(&[
        (
            "(a 1): {(1,0),(1,1)",
            "expected `}`, found the end of the line",
            "",
        ),
        (
            "(a 1): {(1,0)]",
            "expected a move: (a,b), {..}, [..], c(..), m(..), r(..), \"s\", x or p, found `]`",
            "]",
        ),
        (
            "(a 1): [(1,0)",
            "expected `]`, found the end of the line",
            "",
        ),
        (
            "(a 1): [(1,0)}",
            "expected a move: (a,b), {..}, [..], c(..), m(..), r(..), \"s\", x or p, found `}`",
            "}",
        ),
        (
            "(a 1): c((1,0)",
            "expected `)`, found the end of the line",
            "",
        ),
        (
            "(a 1): m((1,0),x)",
            "expected a move: (a,b), {..}, [..], c(..), m(..), r(..), \"s\", x or p, found `,`",
            ",",
        ),
    ]);
}

#[test]
fn rank_errors() {
    assert_errors(&[
        (
            "(a 1): r((1,0))",
            "expected a move: (a,b), {..}, [..], c(..), m(..), r(..), \"s\", x or p, found `)`",
            ")",
        ),
        ("(a 1): r((1,0),)", "expected a number, found `)`", ")"),
        ("(a 1): r((1,0),[1 2])", "expected `,`, found `2`", "2"),
        ("(a 1): r((1,0),[1,2)", "expected `]`, found `)`", ")"),
        ("(a 1): r!((1,0),[1,2],3)", "expected `)`, found `,`", ","),
        (
            "(a 1): r((1,0),1",
            "expected `)`, found the end of the line",
            "",
        ),
        ("(a 1): r((1,0),x)", "expected a number, found `x`", "x"),
    ]);
}

#[test]
fn reference_and_promotion_errors() {
    assert_errors(&[
        ("(a 1): \"r", "expected `\"`, found the end of the line", ""),
        ("(a 1): \"\"", "expected a piece symbol, found `\"`", "\""),
        ("(a 1): \"r-s\"", "expected `\"`, found `-`", "-"),
        ("(a 1): p->q", "expected `[`, found `q`", "q"),
        ("(a 1): p->[]", "expected a piece symbol, found `]`", "]"),
        ("(a 1): ->[q,]", "expected a piece symbol, found `]`", "]"),
        ("(a 1): p->[q r]", "expected `]`, found `r`", "r"),
    ]);
}

#[test]
fn piece_head_errors() {
    assert_errors(&[
        ("(: (1,0)", "expected a piece symbol, found `:`", ":"),
        ("(k 1) (1,0)", "expected `:`, found `(`", "("),
        ("(k 1", "expected `)`, found the end of the line", ""),
        ("(k z): (1,0)", "expected a number, found `z`", "z"),
        ("(k xy):", "expected `)`, found `y`", "y"),
        ("(k 1 2):", "expected `)`, found `2`", "2"),
        (
            "(k 99999999999999999999):",
            "`99999999999999999999` does not fit in an i64",
            "99999999999999999999",
        ),
    ]);
}

#[test]
fn move_line_errors() {
    assert_errors(&[
        ("Turn W: k a1 -> a2", "expected a number, found `W`", "W"),
        ("Turn 1 X: k a1 -> a2", "expected `W` or `B`, found `X`", "X"),
        ("Turn 1 W k a1 -> a2", "expected `:`, found `k`", "k"),
        ("Turn 1 W: -> a2", "expected a piece symbol, found `-`", "-"),
        (
            "Turn 1 W: k 1a -> a2",
            "expected a square like `a1` (row letters, then column number), found `1`",
            "1",
        ),
        (
            "Turn 1 W: k a -> a2",
            "expected a square like `a1` (row letters, then column number), found `a`",
            "a",
        ),
        (
            "Turn 1 W: k A1 -> a2",
            "expected a square like `a1` (row letters, then column number), found `A`",
            "A",
        ),
        (
            "Turn 1 W: k a1 ->",
            "expected a square like `a1` (row letters, then column number), found the end of the line",
            "",
        ),
        ("Turn 1 W: k a1 a2", "expected `->` or `checks turn`, found `a`", "a"),
        ("Turn 1 W: k a1 -> a2 x", "expected the end of the move line, found `x`", "x"),
        ("Turn 1 W: k a1 -> a2 =", "expected a piece symbol, found the end of the line", ""),
        ("Turn 1 W: k a1 checks 2", "expected `turn`, found `2`", "2"),
        ("Turn 1 W: k a1 checks turn", "expected a number, found the end of the line", ""),
        ("Turn 1 W: k a1 checks turn 2 3", "expected the end of the move line, found `3`", "3"),
        ("Turn 0 W: k a1 -> a2", "turn numbers start at 1", "0"),
        ("Turn -3 W: k a1 -> a2", "turn numbers start at 1", "-3"),
        ("Turn 4294967296 W: k a1 -> a2", "turn numbers start at 1", "4294967296"),
        ("Turn 1 W: k a1 checks turn 0", "turn numbers start at 1", "0"),
        (
            "Turn 1 W: k a1 checks turn 4294967296",
            "turn numbers start at 1",
            "4294967296",
        ),
        (
            "Turn 99999999999999999999 W: k a1 -> a2",
            "`99999999999999999999` does not fit in an i64",
            "99999999999999999999",
        ),
        ("Turnip", "expected a number, found `i`", "i"),
    ]);
}

#[test]
fn error_spans_are_offsets_into_the_whole_text() {
    // The same bad notation on line 3, after leading spaces: the span is
    // an offset into the whole program, not into the line.
    let text = "(a 1): (1,0)\n\n   (b 2): (1,0|q)";
    let all = errors(text);
    assert_eq!(all.len(), 1);
    assert_eq!(all[0].span, 29..30);
    assert_eq!(&text[all[0].span.clone()], "q");
    assert_eq!(Source::new("t", text).line_col(all[0].span.start), (3, 16));
}

/// A notation nested absurdly deep must be refused with a diagnostic, not
/// overflow the stack (the parser caps nesting at `MAX_NESTING`).
#[test]
fn absurd_nesting_is_an_error_not_a_crash() {
    let depth = 100_000;
    let text = format!("(z 0): {}(1,0){}", "[".repeat(depth), "]".repeat(depth));
    assert!(parse(&Source::new("t.fv", text)).is_err());
}
