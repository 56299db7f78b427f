//! Parser unit tests for Finvara, written against the notation grammar and
//! source layout in `docs/languages.md`. They pin the tree shape
//! (atoms, items, repetition suffixes) and, for every error the parser can
//! report, the message and the text its span points at, so that a change
//! to the parser that alters what a program means cannot pass silently.

use super::*;

// ---------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------

/// Parses `text`, panicking with the diagnostics if it fails.
fn ok(text: &str) -> Program {
    match parse(&Source::new("t.fv", text)) {
        Ok(program) => program,
        Err(errors) => panic!("{text:?} should parse, got {errors:?}"),
    }
}

/// Parses `text`, which must fail; returns the errors.
fn errors(text: &str) -> Vec<Diagnostic> {
    match parse(&Source::new("t.fv", text)) {
        Ok(program) => panic!("{text:?} should not parse, got {program:?}"),
        Err(errors) => {
            assert!(errors.iter().all(Diagnostic::is_error));
            errors.into_iter().collect()
        }
    }
}

/// The one error `text` produces: its message and the text under its span.
fn error(text: &str) -> (String, String) {
    let all = errors(text);
    assert_eq!(all.len(), 1, "{text:?}: {all:?}");
    let d = &all[0];
    (d.message.clone(), text[d.span.clone()].to_string())
}

/// The notation of a single piece defined as `(z 0): NOTATION`, with all
/// spans cleared so that it can be compared to a tree built by hand.
fn notation(text: &str) -> Seq {
    let program = ok(&format!("(z 0): {text}"));
    assert_eq!(program.pieces.len(), 1);
    strip(&program.pieces[0].notation.value)
}

/// Clears every span in a notation tree.
fn strip(seq: &Seq) -> Seq {
    seq.iter()
        .map(|item| Item {
            atom: match &item.atom {
                Atom::Any(alternatives) => Atom::Any(alternatives.iter().map(strip).collect()),
                Atom::Group(s) => Atom::Group(strip(s)),
                Atom::Capture(s) => Atom::Capture(strip(s)),
                Atom::NoCapture(s) => Atom::NoCapture(strip(s)),
                Atom::Rank {
                    seq,
                    ranks,
                    negated,
                } => Atom::Rank {
                    seq: strip(seq),
                    ranks: *ranks,
                    negated: *negated,
                },
                Atom::Like(s) => Atom::Like(sym(&s.value)),
                Atom::Promote(targets) => {
                    Atom::Promote(targets.iter().map(|t| sym(&t.value)).collect())
                }
                other => other.clone(),
            },
            repeats: item.repeats.clone(),
            span: 0..0,
        })
        .collect()
}

fn sym(s: &str) -> Spanned<String> {
    Spanned::new(s.to_string(), 0..0)
}

/// An item without suffixes.
fn one(atom: Atom) -> Item {
    Item {
        atom,
        repeats: Vec::new(),
        span: 0..0,
    }
}

/// An item with suffixes.
fn rep(atom: Atom, repeats: &[Repeat]) -> Item {
    Item {
        atom,
        repeats: repeats.to_vec(),
        span: 0..0,
    }
}

fn leap(a: i64, b: i64) -> Atom {
    Atom::Leap { a, b, dirs: None }
}

/// A leap with a direction filter: forward (`^`), backward (`v`), right
/// (`>`), left (`<`), in the order the tree stores them.
fn leap_dirs(a: i64, b: i64, forward: bool, backward: bool, right: bool, left: bool) -> Atom {
    Atom::Leap {
        a,
        b,
        dirs: Some([forward, backward, right, left]),
    }
}

fn rank(seq: Seq, low: i64, high: i64, negated: bool) -> Atom {
    Atom::Rank {
        seq,
        ranks: (low, high),
        negated,
    }
}

fn promote(targets: &[&str]) -> Atom {
    Atom::Promote(targets.iter().map(|t| sym(t)).collect())
}

/// A program that is just a board drawing with these rows.
fn board(rows: &[&str]) -> Program {
    ok(&rows.join("\n"))
}

/// The only move line of `line`.
fn move_line(line: &str) -> MoveLine {
    let program = ok(line);
    assert_eq!(program.moves.len(), 1);
    program.moves[0].clone()
}

// ---------------------------------------------------------------------
// Leaps and direction filters
// ---------------------------------------------------------------------

#[test]
fn leap_without_directions() {
    assert_eq!(notation("(1,2)"), vec![one(leap(1, 2))]);
    assert_eq!(notation("(0,0)"), vec![one(leap(0, 0))]);
    assert_eq!(notation("(12,345)"), vec![one(leap(12, 345))]);
}

#[test]
fn leap_with_each_direction_letter() {
    assert_eq!(
        notation("(1,0|^)"),
        vec![one(leap_dirs(1, 0, true, false, false, false))]
    );
    assert_eq!(
        notation("(1,0|v)"),
        vec![one(leap_dirs(1, 0, false, true, false, false))]
    );
    assert_eq!(
        notation("(1,0|>)"),
        vec![one(leap_dirs(1, 0, false, false, true, false))]
    );
    assert_eq!(
        notation("(1,0|<)"),
        vec![one(leap_dirs(1, 0, false, false, false, true))]
    );
}

#[test]
fn leap_with_combined_directions() {
    assert_eq!(
        notation("(1,1|^>)"),
        vec![one(leap_dirs(1, 1, true, false, true, false))]
    );
    assert_eq!(
        notation("(2,1|v<)"),
        vec![one(leap_dirs(2, 1, false, true, false, true))]
    );
    // Order of the letters does not matter, repeats are harmless.
    assert_eq!(
        notation("(1,2|<>v^)"),
        vec![one(leap_dirs(1, 2, true, true, true, true))]
    );
    assert_eq!(
        notation("(1,2|^^)"),
        vec![one(leap_dirs(1, 2, true, false, false, false))]
    );
}

#[test]
fn leap_with_negative_and_signed_numbers() {
    assert_eq!(notation("(-1,2)"), vec![one(leap(-1, 2))]);
    assert_eq!(notation("(1,-2)"), vec![one(leap(1, -2))]);
    assert_eq!(
        notation("(-3,-4|v)"),
        vec![one(leap_dirs(-3, -4, false, true, false, false))]
    );
    assert_eq!(notation("(+1,0)"), vec![one(leap(1, 0))]);
}

#[test]
fn leap_extremes_fit_in_i64() {
    assert_eq!(
        notation("(-9223372036854775808,9223372036854775807)"),
        vec![one(leap(i64::MIN, i64::MAX))]
    );
}

// ---------------------------------------------------------------------
// Sequences, alternatives, groups, suffixes
// ---------------------------------------------------------------------

#[test]
fn juxtaposition_is_a_sequence() {
    assert_eq!(
        notation("(1,1|^)(1,0|^)*"),
        vec![
            one(leap_dirs(1, 1, true, false, false, false)),
            rep(leap_dirs(1, 0, true, false, false, false), &[Repeat::Same]),
        ]
    );
}

#[test]
fn alternatives() {
    assert_eq!(
        notation("{(1,0),(1,1)}"),
        vec![one(Atom::Any(vec![
            vec![one(leap(1, 0))],
            vec![one(leap(1, 1))]
        ]))]
    );
    // An alternative may itself be a sequence.
    assert_eq!(
        notation("{(1,0)(2,0),x}"),
        vec![one(Atom::Any(vec![
            vec![one(leap(1, 0)), one(leap(2, 0))],
            vec![one(Atom::CaptureHere)]
        ]))]
    );
    // A single alternative.
    assert_eq!(
        notation("{(1,0)}"),
        vec![one(Atom::Any(vec![vec![one(leap(1, 0))]]))]
    );
}

#[test]
fn empty_alternatives() {
    assert_eq!(notation("{,}"), vec![one(Atom::Any(vec![vec![], vec![]]))]);
    assert_eq!(notation("{}"), vec![one(Atom::Any(vec![vec![]]))]);
    assert_eq!(
        notation("{(1,0),,x}"),
        vec![one(Atom::Any(vec![
            vec![one(leap(1, 0))],
            vec![],
            vec![one(Atom::CaptureHere)]
        ]))]
    );
}

#[test]
fn nested_alternatives_and_groups() {
    assert_eq!(
        notation("{[(1,0){(2,0),(3,0)}],[x]}"),
        vec![one(Atom::Any(vec![
            vec![one(Atom::Group(vec![
                one(leap(1, 0)),
                one(Atom::Any(vec![
                    vec![one(leap(2, 0))],
                    vec![one(leap(3, 0))]
                ])),
            ]))],
            vec![one(Atom::Group(vec![one(Atom::CaptureHere)]))],
        ]))]
    );
}

#[test]
fn grouping() {
    assert_eq!(
        notation("[(1,0)(0,1)]*"),
        vec![rep(
            Atom::Group(vec![one(leap(1, 0)), one(leap(0, 1))]),
            &[Repeat::Same]
        )]
    );
    assert_eq!(notation("[]"), vec![one(Atom::Group(vec![]))]);
}

#[test]
fn rider_and_crooked_suffixes() {
    assert_eq!(notation("(1,0)*"), vec![rep(leap(1, 0), &[Repeat::Same])]);
    assert_eq!(notation("(1,0)`"), vec![rep(leap(1, 0), &[Repeat::Any])]);
}

#[test]
fn stacked_suffixes_keep_their_order() {
    assert_eq!(
        notation("(1,0)*`"),
        vec![rep(leap(1, 0), &[Repeat::Same, Repeat::Any])]
    );
    assert_eq!(
        notation("(1,0)`*"),
        vec![rep(leap(1, 0), &[Repeat::Any, Repeat::Same])]
    );
    assert_eq!(
        notation("{(1,0),(1,1)}**``"),
        vec![rep(
            Atom::Any(vec![vec![one(leap(1, 0))], vec![one(leap(1, 1))]]),
            &[Repeat::Same, Repeat::Same, Repeat::Any, Repeat::Any]
        )]
    );
}

#[test]
fn a_suffix_binds_to_the_last_atom_only() {
    assert_eq!(
        notation("(2,0)(1,0)*"),
        vec![one(leap(2, 0)), rep(leap(1, 0), &[Repeat::Same])]
    );
}

// ---------------------------------------------------------------------
// c( m( r( r!(
// ---------------------------------------------------------------------

#[test]
fn capture_and_no_capture() {
    assert_eq!(
        notation("c((1,1|^))"),
        vec![one(Atom::Capture(vec![one(leap_dirs(
            1, 1, true, false, false, false
        ))]))]
    );
    assert_eq!(
        notation("m((1,0)x(1,0))"),
        vec![one(Atom::NoCapture(vec![
            one(leap(1, 0)),
            one(Atom::CaptureHere),
            one(leap(1, 0))
        ]))]
    );
    assert_eq!(notation("c()"), vec![one(Atom::Capture(vec![]))]);
    assert_eq!(
        notation("c((1,0))*"),
        vec![rep(Atom::Capture(vec![one(leap(1, 0))]), &[Repeat::Same])]
    );
}

#[test]
fn rank_with_a_single_rank() {
    assert_eq!(
        notation("r((2,0|^),2)"),
        vec![one(rank(
            vec![one(leap_dirs(2, 0, true, false, false, false))],
            2,
            2,
            false
        ))]
    );
    assert_eq!(
        notation("r(p,-1)"),
        vec![one(rank(vec![one(promote(&[]))], -1, -1, false))]
    );
    assert_eq!(
        notation("r!((1,0),0)"),
        vec![one(rank(vec![one(leap(1, 0))], 0, 0, true))]
    );
}

#[test]
fn rank_with_a_range_kept_as_written() {
    assert_eq!(
        notation("r(x,[9,12])"),
        vec![one(rank(vec![one(Atom::CaptureHere)], 9, 12, false))]
    );
    // Either way round; the tree keeps the written order.
    assert_eq!(
        notation("r!((1,0),[3,1])"),
        vec![one(rank(vec![one(leap(1, 0))], 3, 1, true))]
    );
    assert_eq!(
        notation("r((1,0),[-2,-1])"),
        vec![one(rank(vec![one(leap(1, 0))], -2, -1, false))]
    );
    assert_eq!(
        notation("r!((1,0),[1,-1])"),
        vec![one(rank(vec![one(leap(1, 0))], 1, -1, true))]
    );
}

#[test]
fn rank_body_may_be_a_sequence_or_empty() {
    assert_eq!(
        notation("r((1,0)(1,0)x,1)"),
        vec![one(rank(
            vec![one(leap(1, 0)), one(leap(1, 0)), one(Atom::CaptureHere)],
            1,
            1,
            false
        ))]
    );
    assert_eq!(notation("r(,1)"), vec![one(rank(vec![], 1, 1, false))]);
}

#[test]
fn rank_nested_in_alternatives() {
    // The seed's pawn.
    assert_eq!(
        notation("{c((1,1|^)),m((1,0|^)),r((2,0|^),2),r(p,-1)}"),
        vec![one(Atom::Any(vec![
            vec![one(Atom::Capture(vec![one(leap_dirs(
                1, 1, true, false, false, false
            ))]))],
            vec![one(Atom::NoCapture(vec![one(leap_dirs(
                1, 0, true, false, false, false
            ))]))],
            vec![one(rank(
                vec![one(leap_dirs(2, 0, true, false, false, false))],
                2,
                2,
                false
            ))],
            vec![one(rank(vec![one(promote(&[]))], -1, -1, false))],
        ]))]
    );
}

// ---------------------------------------------------------------------
// "s", x, p, ->[..]
// ---------------------------------------------------------------------

#[test]
fn like_another_piece() {
    assert_eq!(notation("\"r\""), vec![one(Atom::Like(sym("r")))]);
    assert_eq!(
        notation("{\"r\",\"b_2\"}"),
        vec![one(Atom::Any(vec![
            vec![one(Atom::Like(sym("r")))],
            vec![one(Atom::Like(sym("b_2")))]
        ]))]
    );
    assert_eq!(notation("\" r \""), vec![one(Atom::Like(sym("r")))]);
}

#[test]
fn like_span_is_the_symbol() {
    let text = "(q 9): {\"rook\",\"b\"}";
    let program = ok(text);
    let Atom::Any(alternatives) = &program.pieces[0].notation.value[0].atom else {
        panic!("expected alternatives");
    };
    let Atom::Like(rook) = &alternatives[0][0].atom else {
        panic!("expected a reference");
    };
    assert_eq!(&text[rook.span.clone()], "rook");
}

#[test]
fn capture_here() {
    assert_eq!(
        notation("(1,0|^)x(1,0|^)"),
        vec![
            one(leap_dirs(1, 0, true, false, false, false)),
            one(Atom::CaptureHere),
            one(leap_dirs(1, 0, true, false, false, false)),
        ]
    );
    assert_eq!(notation("x"), vec![one(Atom::CaptureHere)]);
    assert_eq!(
        notation("x*"),
        vec![rep(Atom::CaptureHere, &[Repeat::Same])]
    );
}

#[test]
fn promotions() {
    assert_eq!(notation("p"), vec![one(promote(&[]))]);
    assert_eq!(notation("p->[q]"), vec![one(promote(&["q"]))]);
    assert_eq!(notation("p->[a,b]"), vec![one(promote(&["a", "b"]))]);
    // The seed's phoenix writes the arrow without `p`.
    assert_eq!(notation("->[q]"), vec![one(promote(&["q"]))]);
    assert_eq!(
        notation("->[q,r,n1]"),
        vec![one(promote(&["q", "r", "n1"]))]
    );
    // `pp` is two promotions, `p x` a promotion then a capture.
    assert_eq!(notation("pp"), vec![one(promote(&[])), one(promote(&[]))]);
    assert_eq!(
        notation("px"),
        vec![one(promote(&[])), one(Atom::CaptureHere)]
    );
}

#[test]
fn seed_phoenix_and_gryphon() {
    assert_eq!(
        notation("{(1,0),(2,2)}r(->[q],[9,12])"),
        vec![
            one(Atom::Any(vec![
                vec![one(leap(1, 0))],
                vec![one(leap(2, 2))]
            ])),
            one(rank(vec![one(promote(&["q"]))], 9, 12, false)),
        ]
    );
    let forward = |a, b| leap_dirs(a, b, true, false, false, false);
    let right = |a, b| leap_dirs(a, b, false, false, true, false);
    let backward = |a, b| leap_dirs(a, b, false, true, false, false);
    let left = |a, b| leap_dirs(a, b, false, false, false, true);
    assert_eq!(
        notation("{(1,1|^)(1,0|^)*,(1,1|>)(1,0|>)*,(1,1|v)(1,0|v)*,(1,1|<)(1,0|<)*}"),
        vec![one(Atom::Any(vec![
            vec![one(forward(1, 1)), rep(forward(1, 0), &[Repeat::Same])],
            vec![one(right(1, 1)), rep(right(1, 0), &[Repeat::Same])],
            vec![one(backward(1, 1)), rep(backward(1, 0), &[Repeat::Same])],
            vec![one(left(1, 1)), rep(left(1, 0), &[Repeat::Same])],
        ]))]
    );
}

#[test]
fn promotion_target_spans() {
    let text = "(u 0): p->[ q , rook ]";
    let program = ok(text);
    let Atom::Promote(targets) = &program.pieces[0].notation.value[0].atom else {
        panic!("expected a promotion");
    };
    let names: Vec<&str> = targets.iter().map(|t| &text[t.span.clone()]).collect();
    assert_eq!(names, ["q", "rook"]);
}

// ---------------------------------------------------------------------
// Empty notation, whitespace, spans
// ---------------------------------------------------------------------

#[test]
fn empty_notation() {
    let program = ok("(k):\n(b 0):\n(c 1):   \n(d 2): # only a comment");
    assert_eq!(program.pieces.len(), 4);
    for piece in &program.pieces {
        assert_eq!(
            piece.notation.value,
            Vec::<Item>::new(),
            "{}",
            piece.symbol.value
        );
    }
}

#[test]
fn whitespace_inside_a_notation_is_ignored() {
    assert_eq!(notation("( 1 , 2 )"), notation("(1,2)"));
    assert_eq!(notation("( 1 , 0 | ^ > )"), notation("(1,0|^>)"));
    assert_eq!(
        notation("{ (1,0) , [ (1,1) (2,2) ] } * `"),
        notation("{(1,0),[(1,1)(2,2)]}*`")
    );
    assert_eq!(notation("c( (1,1) )"), notation("c((1,1))"));
    assert_eq!(notation("m( (1,0) )"), notation("m((1,0))"));
    assert_eq!(
        notation("r( (2,0) , [ 1 , 2 ] )"),
        notation("r((2,0),[1,2])")
    );
    assert_eq!(notation("r!( (2,0) , -1 )"), notation("r!((2,0),-1)"));
    assert_eq!(notation("p ->[ a , b ]"), notation("p->[a,b]"));
    assert_eq!(notation("(1,0) x (1,0)"), notation("(1,0)x(1,0)"));
    assert_eq!(notation("\t(1,0)\t"), notation("(1,0)"));
}

/// The spec says whitespace inside a notation is ignored, also inside the
/// tokens `c(`, `m(`, `r(`, `r!(`, `->` and between a sign and its digits.
#[test]
fn whitespace_inside_tokens_is_ignored() {
    assert_eq!(notation("c ((1,1))"), notation("c((1,1))"));
    assert_eq!(notation("m ((1,0))"), notation("m((1,0))"));
    assert_eq!(notation("r ((1,0),1)"), notation("r((1,0),1)"));
    assert_eq!(notation("r ! ((1,0),1)"), notation("r!((1,0),1)"));
    assert_eq!(notation("p - > [q]"), notation("p->[q]"));
    assert_eq!(notation("(- 1,0)"), notation("(-1,0)"));
}

#[test]
fn item_spans_cover_atom_and_suffixes() {
    let text = "(w 4): (1,0)` {(1,1),x}*` [(2,0)]";
    let program = ok(text);
    let items = &program.pieces[0].notation.value;
    // The span starts at the atom; it may run on over the blanks after the
    // last suffix (the parser skips them looking for another), so compare
    // the trimmed text.
    let spans: Vec<&str> = items
        .iter()
        .map(|i| text[i.span.clone()].trim_end())
        .collect();
    assert!(items.iter().all(|i| !text[i.span.clone()].starts_with(' ')));
    assert_eq!(spans, ["(1,0)`", "{(1,1),x}*`", "[(2,0)]"]);
    let Atom::Any(alternatives) = &items[1].atom else {
        panic!("expected alternatives");
    };
    assert_eq!(&text[alternatives[1][0].span.clone()], "x");
    assert_eq!(
        text[program.pieces[0].notation.span.clone()].trim(),
        "(1,0)` {(1,1),x}*` [(2,0)]"
    );
}

// ---------------------------------------------------------------------
// Piece definitions
// ---------------------------------------------------------------------

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

// ---------------------------------------------------------------------
// Board rows
// ---------------------------------------------------------------------

#[test]
fn board_cells() {
    let program = board(&[
        "+--+--+--+--+",
        "|kB|##|  |n1W|",
        "+--+--+--+--+",
        "|| ##|Ab_W |kW|",
    ]);
    let cells: Vec<Vec<Cell>> = program
        .rows
        .iter()
        .map(|row| row.iter().map(|c| c.value.clone()).collect())
        .collect();
    assert_eq!(
        cells,
        vec![
            vec![
                Cell::Piece("k".into(), false),
                Cell::Hole,
                Cell::Empty,
                Cell::Piece("n1".into(), true)
            ],
            vec![
                Cell::Empty,
                Cell::Hole,
                Cell::Piece("Ab_".into(), true),
                Cell::Piece("k".into(), true)
            ],
        ]
    );
}

#[test]
fn board_rows_top_first() {
    let text = "+--+--+--+\n|kB|##|nB|\n+--+--+--+\n|iW|  |kW|\n+--+--+--+\n";
    let program = ok(text);
    let cells: Vec<Vec<Cell>> = program
        .rows
        .iter()
        .map(|row| row.iter().map(|c| c.value.clone()).collect())
        .collect();
    assert_eq!(
        cells,
        vec![
            vec![
                Cell::Piece("k".into(), false),
                Cell::Hole,
                Cell::Piece("n".into(), false)
            ],
            vec![
                Cell::Piece("i".into(), true),
                Cell::Empty,
                Cell::Piece("k".into(), true)
            ],
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
            Cell::Piece("Ab_9".into(), true),
            Cell::Hole,
            Cell::Piece("x1".into(), false),
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
    assert_eq!(program.rows[1][1].value, Cell::Piece("k".into(), true));
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
        let all = errors(text);
        let messages: Vec<&str> = all.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
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
    let all = errors("|aW|\n|bW|\n|cW|dW|\n|eW|fW|gW|\n|hW|");
    let messages: Vec<&str> = all.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
        [
            "this row has 2 cells, most of the board's rows have 1",
            "this row has 3 cells, most of the board's rows have 1"
        ]
    );
    let all = errors("|aW|\n|bW|cW|\n|dW|eW|fW|");
    let messages: Vec<&str> = all.iter().map(|d| d.message.as_str()).collect();
    assert_eq!(
        messages,
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

// ---------------------------------------------------------------------
// Move lines
// ---------------------------------------------------------------------

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
    let text = "\
(k):
(n 0): (0,0)
(q 0): (1,0)
(i 3): (1,0)
(p 4): (1,0)

+--+--+--+--+
|kB|##|qB|nB|
+--+--+--+--+
|##|##|  |  |
+--+--+--+--+
|iW|pW|  |kW|
+--+--+--+--+

Turn 1 W: i a1 -> b1
Turn 1 B: k c1 -> c2
Turn 2 W: p a2 -> b2
Turn 2 B: q c3 -> b3
Turn 3 W: p a2 -> b2
Turn 3 B: n c4 -> c4
Turn 4 W: p a2 checks turn 3
Turn 4 B: n c4 -> c4";
    let program = ok(text);
    assert_eq!(program.pieces.len(), 5);
    assert_eq!(program.rows.len(), 3);
    assert!(program.rows.iter().all(|r| r.len() == 4));
    assert_eq!(program.moves.len(), 8);
    assert_eq!(program.moves[6].source_line, 21);
}

// ---------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------

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
    assert_eq!(
        error("(a 1): (1 0)"),
        ("expected `,`, found `0`".into(), "0".into())
    );
    assert_eq!(
        error("(a 1): (1,0]"),
        ("expected `)`, found `]`".into(), "]".into())
    );
    assert_eq!(
        error("(a 1): (a,0)"),
        ("expected a number, found `a`".into(), "a".into())
    );
    assert_eq!(
        error("(a 1): (1,-)"),
        ("expected a number, found `-`".into(), "-".into())
    );
    assert_eq!(
        error("(a 1): (1,0|)"),
        (
            "expected a direction letter (^ v < >), found `)`".into(),
            ")".into()
        )
    );
    assert_eq!(
        error("(a 1): (1,0|x)"),
        (
            "expected a direction letter (^ v < >), found `x`".into(),
            "x".into()
        )
    );
    assert_eq!(
        error("(a 1): (1,0|^x)"),
        ("expected `)`, found `x`".into(), "x".into())
    );
    assert_eq!(
        error("(a 1): (1,"),
        (
            "expected a number, found the end of the line".into(),
            "".into()
        )
    );
    assert_eq!(
        error("(a 1): (99999999999999999999,0)"),
        (
            "`99999999999999999999` does not fit in an i64".into(),
            "99999999999999999999".into()
        )
    );
    assert_eq!(
        error("(a 1): (0,-9223372036854775809)"),
        (
            "`-9223372036854775809` does not fit in an i64".into(),
            "-9223372036854775809".into()
        )
    );
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
    assert_eq!(
        error("(a 1): {(1,0),(1,1)"),
        ("expected `}`, found the end of the line".into(), "".into())
    );
    assert_eq!(
        error("(a 1): {(1,0)]"),
        (
            "expected a move: (a,b), {..}, [..], c(..), m(..), r(..), \"s\", x or p, found `]`"
                .into(),
            "]".into()
        )
    );
    assert_eq!(
        error("(a 1): [(1,0)"),
        ("expected `]`, found the end of the line".into(), "".into())
    );
    assert_eq!(
        error("(a 1): [(1,0)}"),
        (
            "expected a move: (a,b), {..}, [..], c(..), m(..), r(..), \"s\", x or p, found `}`"
                .into(),
            "}".into()
        )
    );
    assert_eq!(
        error("(a 1): c((1,0)"),
        ("expected `)`, found the end of the line".into(), "".into())
    );
    assert_eq!(
        error("(a 1): m((1,0),x)"),
        (
            "expected a move: (a,b), {..}, [..], c(..), m(..), r(..), \"s\", x or p, found `,`"
                .into(),
            ",".into()
        )
    );
}

#[test]
fn rank_errors() {
    assert_eq!(
        error("(a 1): r((1,0))"),
        (
            "expected a move: (a,b), {..}, [..], c(..), m(..), r(..), \"s\", x or p, found `)`"
                .into(),
            ")".into()
        )
    );
    assert_eq!(
        error("(a 1): r((1,0),)"),
        ("expected a number, found `)`".into(), ")".into())
    );
    assert_eq!(
        error("(a 1): r((1,0),[1 2])"),
        ("expected `,`, found `2`".into(), "2".into())
    );
    assert_eq!(
        error("(a 1): r((1,0),[1,2)"),
        ("expected `]`, found `)`".into(), ")".into())
    );
    assert_eq!(
        error("(a 1): r!((1,0),[1,2],3)"),
        ("expected `)`, found `,`".into(), ",".into())
    );
    assert_eq!(
        error("(a 1): r((1,0),1"),
        ("expected `)`, found the end of the line".into(), "".into())
    );
    assert_eq!(
        error("(a 1): r((1,0),x)"),
        ("expected a number, found `x`".into(), "x".into())
    );
}

#[test]
fn reference_and_promotion_errors() {
    assert_eq!(
        error("(a 1): \"r"),
        ("expected `\"`, found the end of the line".into(), "".into())
    );
    assert_eq!(
        error("(a 1): \"\""),
        ("expected a piece symbol, found `\"`".into(), "\"".into())
    );
    assert_eq!(
        error("(a 1): \"r-s\""),
        ("expected `\"`, found `-`".into(), "-".into())
    );
    assert_eq!(
        error("(a 1): p->q"),
        ("expected `[`, found `q`".into(), "q".into())
    );
    assert_eq!(
        error("(a 1): p->[]"),
        ("expected a piece symbol, found `]`".into(), "]".into())
    );
    assert_eq!(
        error("(a 1): ->[q,]"),
        ("expected a piece symbol, found `]`".into(), "]".into())
    );
    assert_eq!(
        error("(a 1): p->[q r]"),
        ("expected `]`, found `r`".into(), "r".into())
    );
}

#[test]
fn piece_head_errors() {
    assert_eq!(
        error("(: (1,0)"),
        ("expected a piece symbol, found `:`".into(), ":".into())
    );
    assert_eq!(
        error("(k 1) (1,0)"),
        ("expected `:`, found `(`".into(), "(".into())
    );
    assert_eq!(
        error("(k 1"),
        ("expected `)`, found the end of the line".into(), "".into())
    );
    assert_eq!(
        error("(k z): (1,0)"),
        ("expected a number, found `z`".into(), "z".into())
    );
    assert_eq!(
        error("(k xy):"),
        ("expected `)`, found `y`".into(), "y".into())
    );
    assert_eq!(
        error("(k 1 2):"),
        ("expected `)`, found `2`".into(), "2".into())
    );
    assert_eq!(
        error("(k 99999999999999999999):"),
        (
            "`99999999999999999999` does not fit in an i64".into(),
            "99999999999999999999".into()
        )
    );
}

#[test]
fn move_line_errors() {
    for (text, message, at) in [
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
    ] {
        let (found, span) = error(text);
        assert_eq!(found, message, "{text}");
        assert_eq!(span, at, "{text}");
    }
}

#[test]
fn the_largest_turn_number_is_accepted() {
    let line = move_line("Turn 4294967295 B: k a1 checks turn 4294967295");
    assert_eq!(line.turn.value, u32::MAX);
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

#[test]
fn commas_belong_to_the_innermost_construct() {
    // The rank's comma inside alternatives, alternatives inside a rank.
    assert_eq!(
        notation("{r((1,0),1),x}"),
        vec![one(Atom::Any(vec![
            vec![one(rank(vec![one(leap(1, 0))], 1, 1, false))],
            vec![one(Atom::CaptureHere)],
        ]))]
    );
    assert_eq!(
        notation("r({(1,0),(0,1)},[1,2])"),
        vec![one(rank(
            vec![one(Atom::Any(vec![
                vec![one(leap(1, 0))],
                vec![one(leap(0, 1))]
            ]))],
            1,
            2,
            false
        ))]
    );
    assert_eq!(
        notation("c(r!(m((1,0)),-1))"),
        vec![one(Atom::Capture(vec![one(rank(
            vec![one(Atom::NoCapture(vec![one(leap(1, 0))]))],
            -1,
            -1,
            true
        ))]))]
    );
}

#[test]
fn letters_that_are_also_atoms() {
    // Inside quotes `x` and `p` are symbols, not a capture or a promotion.
    assert_eq!(notation("\"x\""), vec![one(Atom::Like(sym("x")))]);
    assert_eq!(notation("\"p\""), vec![one(Atom::Like(sym("p")))]);
    // A piece may be called `p`, `c`, `m` or `r`; its notation still reads
    // `p` as a promotion.
    let program = ok("(p 1): p\n(c 2): c((1,0))\n(r 5): (1,0)*\n(m 0): m((1,0))");
    let symbols: Vec<&str> = program
        .pieces
        .iter()
        .map(|p| p.symbol.value.as_str())
        .collect();
    assert_eq!(symbols, ["p", "c", "r", "m"]);
    assert_eq!(
        strip(&program.pieces[0].notation.value),
        vec![one(promote(&[]))]
    );
}

#[test]
fn moderate_nesting_parses() {
    let depth = 60;
    let text = format!("{}(1,0){}", "[".repeat(depth), "]".repeat(depth));
    let mut seq = notation(&text);
    for _ in 0..depth {
        assert_eq!(seq.len(), 1);
        let Atom::Group(inner) = seq.remove(0).atom else {
            panic!("expected a group");
        };
        seq = inner;
    }
    assert_eq!(seq, vec![one(leap(1, 0))]);
}

/// A notation nested absurdly deep must be refused with a diagnostic, not
/// overflow the stack (the parser caps nesting at `MAX_NESTING`).
#[test]
fn absurd_nesting_is_an_error_not_a_crash() {
    let depth = 100_000;
    let text = format!("(z 0): {}(1,0){}", "[".repeat(depth), "]".repeat(depth));
    assert!(parse(&Source::new("t.fv", text)).is_err());
}
