//! Finvara checks: unique symbols, defined references without cycles,
//! a rectangular board of defined pieces, strict turn order, squares on the
//! board, jumps to existing turns (errors); a side without a royal piece
//! (warning).

use std::collections::{HashMap, HashSet};

use super::syntax::{Atom, Cell, MoveAction, Program, Seq, SquareRef};
use crate::diag::{Diagnostic, Diagnostics};
use crate::source::{Span, Spanned};

/// All diagnostics for `program`.
pub fn check(program: &Program) -> Diagnostics {
    let mut diagnostics = Diagnostics::default();
    let mut defined: HashMap<&str, Span> = HashMap::new();
    for piece in &program.pieces {
        if let Some(first) = defined.get(piece.symbol.value.as_str()) {
            diagnostics.push(
                Diagnostic::error(
                    format!("piece `{}` is defined twice", piece.symbol.value),
                    piece.symbol.span.clone(),
                )
                .with_label("defined again here")
                .with_secondary(first.clone(), "first defined here"),
            );
        } else {
            defined.insert(&piece.symbol.value, piece.symbol.span.clone());
        }
    }
    let undefined = |symbol: &Spanned<String>, what: &str| {
        let symbols = program.pieces.iter().map(|p| p.symbol.value.as_str());
        let help = match crate::diag::did_you_mean(&symbol.value, symbols) {
            Some(close) => {
                format!("did you mean `{close}`? (or define it: `(SYMBOL VALUE): NOTATION`)")
            }
            None => "define it first: `(SYMBOL VALUE): NOTATION`".to_string(),
        };
        Diagnostic::error(
            format!("no piece `{}` is defined", symbol.value),
            symbol.span.clone(),
        )
        .with_label(format!("{what} an undefined piece"))
        .with_help(help)
    };
    // References and promotion targets in notations; reference cycles.
    let mut references: HashMap<&str, Vec<&Spanned<String>>> = HashMap::new();
    for piece in &program.pieces {
        let mut found = Vec::new();
        collect_references(&piece.notation.value, &mut found, &mut |target| {
            if !defined.contains_key(target.value.as_str()) {
                diagnostics.push(undefined(target, "promotes to"));
            }
        });
        for reference in &found {
            if !defined.contains_key(reference.value.as_str()) {
                diagnostics.push(undefined(reference, "moves like"));
            }
        }
        references.insert(&piece.symbol.value, found);
    }
    for piece in &program.pieces {
        if let Some(cycle) = find_cycle(&piece.symbol.value, &references) {
            diagnostics.push(
                Diagnostic::error(
                    format!(
                        "`{}` moves like itself through {}",
                        piece.symbol.value,
                        cycle.join(" → ")
                    ),
                    piece.notation.span.clone(),
                )
                .with_label("a cycle of \"s\" references")
                .with_help("a piece cannot move like a piece that (eventually) moves like it"),
            );
        }
    }
    // The board.
    if program.rows.is_empty() {
        diagnostics.push(
            Diagnostic::error("the program has no board", 0..0)
                .with_help("draw the board between piece definitions and moves: `+--+` borders and `|kW|##|  |` rows"),
        );
    }
    let mut royal_sides = [false, false];
    for row in &program.rows {
        for cell in row {
            if let Cell::Piece(symbol, white) = &cell.value {
                match program.pieces.iter().find(|p| &p.symbol.value == symbol) {
                    None => diagnostics.push(undefined(
                        &Spanned::new(symbol.clone(), cell.span.clone()),
                        "places",
                    )),
                    Some(piece) if piece.value.is_none() => royal_sides[usize::from(!white)] = true,
                    Some(_) => {}
                }
            }
        }
    }
    if !program.rows.is_empty() {
        for (white, name) in [(true, "White"), (false, "Black")] {
            if !royal_sides[usize::from(!white)] {
                diagnostics.push(
                    Diagnostic::warning(format!("{name} has no royal piece on the board"), program.board_span.clone())
                        .with_label("no royal piece of this side")
                        .with_help("a side without royal pieces has lost: the program halts after its first move line"),
                );
            }
        }
    }
    // Moves.
    let rows = program.rows.len() as u64;
    let cols = program.rows.first().map_or(0, Vec::len) as u64;
    let on_board = |square: &SquareRef, diagnostics: &mut Diagnostics| {
        if square.row > rows || square.col == 0 || square.col > cols {
            diagnostics.push(
                Diagnostic::error("this square is off the board", square.span.clone())
                    .with_label(format!("the board has {rows} rows (a–{}) and {cols} columns", super::ir::row_letters(rows.max(1))))
                    .with_help("squares are row letters from the bottom, then the column number from the left: `a1` is bottom left"),
            );
        }
    };
    let white_turns: HashSet<u32> = program
        .moves
        .iter()
        .filter(|m| m.white)
        .map(|m| m.turn.value)
        .collect();
    for (index, line) in program.moves.iter().enumerate() {
        let expected_turn = index as u32 / 2 + 1;
        let expected_white = index % 2 == 0;
        if line.turn.value != expected_turn || line.white != expected_white {
            diagnostics.push(
                Diagnostic::error(
                    format!(
                        "expected `Turn {expected_turn} {}` here",
                        if expected_white { "W" } else { "B" }
                    ),
                    line.turn.span.clone(),
                )
                .with_label("out of order")
                .with_help("move lines run Turn 1 W, Turn 1 B, Turn 2 W, … without gaps"),
            );
        }
        if !defined.contains_key(line.symbol.value.as_str()) {
            diagnostics.push(undefined(&line.symbol, "moves"));
        }
        match &line.action {
            MoveAction::Move { from, to, promote } => {
                on_board(from, &mut diagnostics);
                on_board(to, &mut diagnostics);
                if let Some(target) = promote {
                    if !defined.contains_key(target.value.as_str()) {
                        diagnostics.push(undefined(target, "promotes to"));
                    }
                }
            }
            MoveAction::Checks { square, turn } => {
                on_board(square, &mut diagnostics);
                if !white_turns.contains(&turn.value) {
                    diagnostics.push(
                        Diagnostic::error(
                            format!("there is no turn {}", turn.value),
                            turn.span.clone(),
                        )
                        .with_label("jump to a missing turn")
                        .with_help(format!("the program has turns 1 to {}", white_turns.len())),
                    );
                }
            }
        }
    }
    diagnostics.sort();
    diagnostics
}

/// The `"s"` references of a notation; promotion targets go to `target`.
pub(super) fn collect_references<'a>(
    seq: &'a Seq,
    found: &mut Vec<&'a Spanned<String>>,
    target: &mut dyn FnMut(&'a Spanned<String>),
) {
    for item in seq {
        match &item.atom {
            Atom::Like(symbol) => found.push(symbol),
            Atom::Promote(targets) => targets.iter().for_each(&mut *target),
            Atom::Any(alternatives) => alternatives
                .iter()
                .for_each(|a| collect_references(a, found, target)),
            Atom::Group(s) | Atom::Capture(s) | Atom::NoCapture(s) | Atom::Rank { seq: s, .. } => {
                collect_references(s, found, target)
            }
            Atom::Leap { .. } | Atom::CaptureHere => {}
        }
    }
}

/// A chain of references from `start` back to itself, if any.
fn find_cycle(
    start: &str,
    references: &HashMap<&str, Vec<&Spanned<String>>>,
) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        start: &str,
        references: &HashMap<&str, Vec<&Spanned<String>>>,
        path: &mut Vec<String>,
        seen: &mut HashSet<String>,
    ) -> bool {
        for next in references.get(node).into_iter().flatten() {
            path.push(next.value.clone());
            if next.value == start {
                return true;
            }
            if seen.insert(next.value.clone()) && visit(&next.value, start, references, path, seen)
            {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut path = vec![start.to_string()];
    visit(start, start, references, &mut path, &mut HashSet::new()).then_some(path)
}
