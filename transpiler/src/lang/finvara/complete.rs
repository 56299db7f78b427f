//! Finvara completions: piece symbols in move lines, board cells, `"s"`
//! and promotions; a notation's atoms inside a piece definition.

use crate::complete::{after, line_before, Completion, CompletionKind};
use crate::source::Source;

/// The atoms of a notation, with what each does.
const ATOMS: [(&str, &str); 12] = [
    ("(1,0)", "a leap by (±1,±0) or (±0,±1): `(a,b)` leaps by every turn and mirror of (a,b)"),
    ("(1,0|^)", "a leap kept to some directions: `^` forward, `v` backward, `>` right, `<` left"),
    ("*", "after an item: again, the same way each time (a rider: `(1,0)*` is a rook)"),
    ("`", "after an item: again, any way each time (a crooked rider)"),
    ("{,}", "any one of the alternatives: `{(1,0),(1,1)}`"),
    ("[]", "a group, to repeat or condition together: `[(1,0)(0,1)]*`"),
    ("c()", "the move must end by capturing"),
    ("m()", "the move must not capture at all"),
    ("r(,)", "only when the piece stands on these ranks: `r((1,0),[1,2])`"),
    ("r!(,)", "only when the piece does not stand on these ranks"),
    ("x", "capture the enemy piece where the move stands now, and go on"),
    ("p", "turn into another piece, named in the move line with `= SYMBOL` (`p->[q,r]` limits the choice)"),
];

/// What may be written at `offset` of `source` (which need not parse).
pub fn completions(source: &Source, offset: usize) -> Vec<Completion> {
    let before = line_before(source.text(), offset);
    let line = before.trim_start();
    let in_move = line.starts_with("Turn") && line.contains(':');
    let in_notation = line.starts_with('(') && line.contains("):");
    let symbol_here = (in_move && (after(before, ":") || after(before, "=")))
        || (in_notation && after(before, "\"") && before.matches('"').count() % 2 == 1)
        || (line.starts_with('|') && after(before, "|"))
        || (in_notation && (after(before, "[") || after(before, ",")) && before.contains("->["));
    if symbol_here {
        return symbols(source);
    }
    if in_notation {
        return (ATOMS.iter())
            .map(|(atom, meaning)| {
                Completion::new(*atom, CompletionKind::Syntax, "notation").documented(*meaning)
            })
            .collect();
    }
    Vec::new()
}

/// The program's piece symbols (read leniently: a program being typed
/// need not parse), each with its notation.
fn symbols(source: &Source) -> Vec<Completion> {
    (source.lines())
        .filter_map(|(_, text)| {
            let definition = text.trim_start().strip_prefix('(')?;
            let (head, notation) = definition.split_once("):")?;
            let symbol = head.split_whitespace().next()?;
            let notation = notation.split('#').next().unwrap_or_default().trim();
            let moves = if notation.is_empty() {
                "cannot move"
            } else {
                notation
            };
            Some(
                Completion::new(
                    symbol,
                    CompletionKind::Piece,
                    format!("({head}): {notation}"),
                )
                .documented(format!("Piece `{symbol}`: {moves}.")),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str, offset: usize) -> Vec<String> {
        crate::complete::completed_for_test(text, crate::Language::Finvara, offset)
    }

    const PROGRAM: &str = "(k):\n(q 1): {(1,0)*,\"\n|kW|\nTurn 1 W: \n";

    #[test]
    fn symbols_where_a_piece_goes_and_atoms_in_a_notation() {
        let move_line = PROGRAM.len() - 1;
        assert_eq!(texts(PROGRAM, move_line), ["k", "q"]);
        let quote = PROGRAM.find('"').unwrap() + 1;
        assert_eq!(texts(PROGRAM, quote), ["k", "q"]);
        let row = PROGRAM.find("|kW|").unwrap() + 4;
        assert_eq!(texts(PROGRAM, row), ["k", "q"]);
        let notation = PROGRAM.find("{(").unwrap() + 1;
        assert_eq!(texts(PROGRAM, notation).len(), ATOMS.len());
        // On a turn's number, nothing.
        assert!(texts(PROGRAM, PROGRAM.find("Turn 1").unwrap() + 6).is_empty());
    }
}
