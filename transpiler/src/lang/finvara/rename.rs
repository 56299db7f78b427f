//! What renaming finds in a Finvara program: a piece symbol, written in
//! its definition, in other pieces' notations (`"s"`, `->[s]`), on the
//! board and in move lines.

use std::collections::HashSet;

use super::syntax::{Atom, Cell, MoveAction, Program, Seq};
use crate::rename::{at, NameShape, Renaming};
use crate::source::{Span, Spanned};

/// The piece symbol at `offset` of `program`.
pub fn renaming(program: &Program, offset: usize) -> Option<Renaming> {
    let sites = symbol_sites(program);
    let (symbol, span) = sites.iter().find(|(_, span)| at(span, offset))?;
    Some(Renaming {
        what: format!("piece `{symbol}`"),
        at: span.clone(),
        sites: (sites.iter())
            .filter(|(other, _)| other == symbol)
            .map(|(_, span)| span.clone())
            .collect(),
        taken: (program.pieces.iter())
            .map(|piece| piece.symbol.value.clone())
            .filter(|other| other != symbol)
            .collect::<HashSet<_>>(),
        shape: NameShape::Word,
    })
}

/// Every piece symbol written in `program`, with where, in source order.
fn symbol_sites(program: &Program) -> Vec<(String, Span)> {
    let mut sites = Vec::new();
    let mut add =
        |symbol: &Spanned<String>| sites.push((symbol.value.clone(), symbol.span.clone()));
    for piece in &program.pieces {
        add(&piece.symbol);
        notation_symbols(&piece.notation.value, &mut add);
    }
    for cell in program.rows.iter().flatten() {
        if let Cell::Piece(symbol, _) = &cell.value {
            let span = cell.span.start..cell.span.start + symbol.len();
            add(&Spanned::new(symbol.clone(), span));
        }
    }
    for line in &program.moves {
        add(&line.symbol);
        if let MoveAction::Move {
            promote: Some(promoted),
            ..
        } = &line.action
        {
            add(promoted);
        }
    }
    sites.sort_by_key(|(_, span)| span.start);
    sites
}

/// The symbols a notation names: `"s"` and promotion targets.
fn notation_symbols(seq: &Seq, add: &mut impl FnMut(&Spanned<String>)) {
    for item in seq {
        match &item.atom {
            Atom::Like(symbol) => add(symbol),
            Atom::Promote(targets) => targets.iter().for_each(&mut *add),
            Atom::Any(seqs) => seqs.iter().for_each(|seq| notation_symbols(seq, add)),
            Atom::Group(seq) | Atom::Capture(seq) | Atom::NoCapture(seq) => {
                notation_symbols(seq, add)
            }
            Atom::Rank { seq, .. } => notation_symbols(seq, add),
            Atom::Leap { .. } | Atom::CaptureHere => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Source;

    fn renamed(text: &str, offset: usize, new: &str) -> Result<String, String> {
        let source = Source::new("t.fv", text);
        let program = super::super::syntax::parse(&source).map_err(|_| "parse".to_string())?;
        let renaming = renaming(&program, offset).ok_or("nothing to rename")?;
        renaming.renamed(text, new)
    }

    const PROGRAM: &str = "(k):\n(q 1): (1,0)p->[k,q]\n(n 2): {\"q\",(1,2)}\n|kW|qB|\n|  |nW|\nTurn 1 W: n a2 -> b2 = q\nTurn 1 B: q b2 checks turn 1\n";

    #[test]
    fn a_symbol_is_renamed_everywhere_it_is_written() {
        let from_definition = renamed(PROGRAM, 6, "queen").unwrap();
        assert_eq!(
            from_definition,
            "(k):\n(queen 1): (1,0)p->[k,queen]\n(n 2): {\"queen\",(1,2)}\n|kW|queenB|\n|  |nW|\nTurn 1 W: n a2 -> b2 = queen\nTurn 1 B: queen b2 checks turn 1\n"
        );
        // From a board cell: the symbol, not its colour.
        let from_board = PROGRAM.find("qB").unwrap();
        assert_eq!(
            renamed(PROGRAM, from_board, "queen").unwrap(),
            from_definition
        );
    }

    #[test]
    fn a_defined_symbol_is_taken() {
        assert!(renamed(PROGRAM, 6, "n").unwrap_err().contains("taken"));
        assert!(renamed(PROGRAM, 6, "q r")
            .unwrap_err()
            .contains("not a name"));
    }

    #[test]
    fn squares_and_numbers_are_not_symbols() {
        let square = PROGRAM.find("a2").unwrap();
        assert_eq!(
            renamed(PROGRAM, square, "x").unwrap_err(),
            "nothing to rename"
        );
    }
}
