//! Piece notations: leaps and their direction filters, sequences,
//! alternatives, groups and repetition suffixes, `c( m( r( r!(`,
//! references, capture here, promotions, whitespace, spans and nesting.

use super::*;

/// Leaps without and with direction filters, with negative, signed and
/// extreme numbers.
#[test]
fn leaps() {
    assert_leaps(&[
        ("(1,2)", leap(1, 2)),
        ("(0,0)", leap(0, 0)),
        ("(12,345)", leap(12, 345)),
        // Each direction letter.
        ("(1,0|^)", leap_dirs(1, 0, true, false, false, false)),
        ("(1,0|v)", leap_dirs(1, 0, false, true, false, false)),
        ("(1,0|>)", leap_dirs(1, 0, false, false, true, false)),
        ("(1,0|<)", leap_dirs(1, 0, false, false, false, true)),
        // Letters combine.
        ("(1,1|^>)", leap_dirs(1, 1, true, false, true, false)),
        ("(2,1|v<)", leap_dirs(2, 1, false, true, false, true)),
        // Order of the letters does not matter, repeats are harmless.
        ("(1,2|<>v^)", leap_dirs(1, 2, true, true, true, true)),
        ("(1,2|^^)", leap_dirs(1, 2, true, false, false, false)),
        // Negative and signed numbers.
        ("(-1,2)", leap(-1, 2)),
        ("(1,-2)", leap(1, -2)),
        ("(-3,-4|v)", leap_dirs(-3, -4, false, true, false, false)),
        ("(+1,0)", leap(1, 0)),
        // The extremes fit in an i64.
        (
            "(-9223372036854775808,9223372036854775807)",
            leap(i64::MIN, i64::MAX),
        ),
    ]);
}

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
    let Atom::Any(alternatives) = first_atom(text) else {
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
    let Atom::Promote(targets) = first_atom(text) else {
        panic!("expected a promotion");
    };
    let names: Vec<&str> = targets.iter().map(|t| &text[t.span.clone()]).collect();
    assert_eq!(names, ["q", "rook"]);
}

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
