//! Parser unit tests for Finvara, written against the notation grammar and
//! source layout in `docs/languages.md`. They pin the tree shape
//! (atoms, items, repetition suffixes) and, for every error the parser can
//! report, the message and the text its span points at, so that a change
//! to the parser that alters what a program means cannot pass silently.
//!
//! This module holds the helpers (parsing, and trees built by hand); the
//! tests are in its modules by what they parse: [`notation`]s,
//! [`layout`] (piece definitions and boards), [`moves`] and [`errors`].

use super::*;

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

/// Checks that each `(text, message, at)` makes the one error `message`
/// whose span covers `at`.
fn assert_errors(cases: &[(&str, &str, &str)]) {
    for &(text, message, at) in cases {
        assert_eq!(error(text), (message.to_string(), at.to_string()), "{text}");
    }
}

/// The messages of `errors`, in order.
fn messages(errors: &[Diagnostic]) -> Vec<&str> {
    errors.iter().map(|d| d.message.as_str()).collect()
}

/// The notation of a single piece defined as `(z 0): NOTATION`, with all
/// spans cleared so that it can be compared to a tree built by hand.
fn notation(text: &str) -> Seq {
    let program = ok(&format!("(z 0): {text}"));
    assert_eq!(program.pieces.len(), 1);
    strip(&program.pieces[0].notation.value)
}

/// Checks that each notation is the one leap given.
fn assert_leaps(cases: &[(&str, Atom)]) {
    for (text, atom) in cases {
        assert_eq!(notation(text), vec![one(atom.clone())], "{text}");
    }
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

/// The first atom of the first piece's notation in `text`.
fn first_atom(text: &str) -> Atom {
    ok(text).pieces[0].notation.value[0].atom.clone()
}

/// A program that is just a board drawing with these rows.
fn board(rows: &[&str]) -> Program {
    ok(&rows.join("\n"))
}

/// A piece cell: its symbol, white or black.
fn piece(symbol: &str, white: bool) -> Cell {
    Cell::Piece(symbol.into(), white)
}

/// The cells of a program's board rows, without their spans.
fn cells(program: &Program) -> Vec<Vec<Cell>> {
    program
        .rows
        .iter()
        .map(|row| row.iter().map(|c| c.value.clone()).collect())
        .collect()
}

/// The only move line of `line`.
fn move_line(line: &str) -> MoveLine {
    let program = ok(line);
    assert_eq!(program.moves.len(), 1);
    program.moves[0].clone()
}

mod errors;
mod layout;
mod moves;
mod notation;
