//! Finvara's canonical layout (`chess2rs fmt`): piece definitions
//! `(SYMBOL VALUE): NOTATION` with the notation written without blanks,
//! the board redrawn with every cell as wide as the widest (rows that
//! were short completed with empty cells, a `+--+` line above every row
//! and below the last), and move lines with single blanks; comments kept,
//! one blank after the code they follow.

use std::fmt::Write;

use super::ir::row_letters;
use super::syntax::{
    self, border_width, comment_start, Atom, Cell, Item, MoveAction, MoveLine, PieceDef, Repeat,
    Seq, SquareRef, Value,
};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::format::{code_line, FormatOptions, Formatted, Layout};
use crate::source::{Source, Spanned};

/// `source` in its canonical layout.
pub fn format(source: &Source, _: &FormatOptions) -> Result<Formatted, Diagnostics> {
    let (program, mut repairs) = syntax::parse_completing_rows(source)?;
    let board = Board::new(&program.rows);
    let mut pieces = program.pieces.iter();
    let mut rows = program.rows.iter();
    let mut moves = program.moves.iter();
    let mut layout = Layout::new(source);
    // Whether the board's drawing has begun, and whether its last line
    // written is a `+--+` line.
    let (mut in_board, mut bordered) = (false, false);
    let board_lines = (source.lines().enumerate())
        .filter(|(_, (_, raw))| is_board_line(raw))
        .map(|(index, _)| index)
        .last();
    for (index, (start, raw)) in source.lines().enumerate() {
        let comment = comment_start(raw).map(|at| raw[at..].trim_end());
        let code = raw[..comment_start(raw).unwrap_or(raw.len())].trim();
        if is_board_line(raw) {
            in_board = true;
            if !code.starts_with('|') {
                // A `+--+` line, or a `+` line the parser passes over.
                let cells = border_width(code).unwrap_or(0);
                if cells != board.cells {
                    let at = start + (raw.len() - raw.trim_start().len());
                    repairs.push(redrawn_border(cells, board.cells, at..at + code.len()));
                }
                if !bordered {
                    layout.line(&code_line(0, &board.border(), comment));
                }
                bordered = true;
            } else if let Some(row) = rows.next() {
                if !bordered {
                    layout.line(&board.border());
                }
                layout.line(&code_line(0, &board.row(row), comment));
                bordered = false;
            }
            if Some(index) == board_lines && !bordered {
                layout.line(&board.border());
                bordered = true;
            }
            continue;
        }
        let written = if code.starts_with('(') {
            pieces.next().map(definition)
        } else if code.starts_with("Turn") {
            moves.next().map(move_line)
        } else {
            None
        };
        match written {
            Some(code) => layout.line(&code_line(0, &code, comment)),
            None if comment.is_some() => layout.line(&code_line(0, "", comment)),
            // A blank inside the board's drawing is dropped.
            None if in_board && board_lines.is_some_and(|last| index < last) => {}
            None => layout.blank(),
        }
    }
    repairs.sort_by_start();
    Ok(Formatted {
        text: layout.finish(),
        repairs,
    })
}

/// Whether `raw` is a line of the board's drawing: a row or a `+` line.
fn is_board_line(raw: &str) -> bool {
    let code = raw.trim_start();
    code.starts_with('|') || code.starts_with('+')
}

/// The note for a `+--+` line drawn for `cells` cells on a board `board`
/// cells wide.
fn redrawn_border(cells: usize, board: usize, span: std::ops::Range<usize>) -> Diagnostic {
    Diagnostic::warning(
        Code::FvBorderRedrawn,
        format!(
            "this `+--+` line was drawn for {}, redrawn for the board's {board}",
            syntax::cells(cells)
        ),
        span,
    )
    .with_label("redrawn")
}

/// The board's drawing: how many cells a row has and how wide each is.
struct Board {
    cells: usize,
    width: usize,
}

impl Board {
    fn new(rows: &[Vec<Spanned<Cell>>]) -> Board {
        let widest = (rows.iter().flatten())
            .map(|cell| drawn(&cell.value).chars().count())
            .max();
        Board {
            cells: rows.first().map_or(0, Vec::len),
            width: widest.unwrap_or(0).max(2),
        }
    }

    /// A `+--+` line.
    fn border(&self) -> String {
        let mut line = "+".to_string();
        for _ in 0..self.cells {
            line.push_str(&"-".repeat(self.width));
            line.push('+');
        }
        line
    }

    /// A row, each cell padded to the board's width.
    fn row(&self, cells: &[Spanned<Cell>]) -> String {
        let mut line = "|".to_string();
        for cell in cells {
            let _ = write!(line, "{:<width$}|", drawn(&cell.value), width = self.width);
        }
        line
    }
}

/// A cell as drawn, unpadded.
fn drawn(cell: &Cell) -> String {
    match cell {
        Cell::Empty => String::new(),
        Cell::Hole => "##".to_string(),
        Cell::Piece(symbol, white) => format!("{symbol}{}", if *white { 'W' } else { 'B' }),
    }
}

/// `(SYMBOL VALUE): NOTATION`.
fn definition(piece: &PieceDef) -> String {
    let mut line = format!("({}", piece.symbol.value);
    let _ = match piece.value {
        None => Ok(()),
        Some(Value::Number(value)) => write!(line, " {value}"),
        Some(Value::X) => write!(line, " x"),
        Some(Value::Y) => write!(line, " y"),
    };
    line.push_str("):");
    if !piece.notation.value.is_empty() {
        line.push(' ');
        write_seq(&mut line, &piece.notation.value);
    }
    line
}

/// A notation sequence, without blanks.
fn write_seq(out: &mut String, seq: &Seq) {
    for item in seq {
        write_item(out, item);
    }
}

fn write_item(out: &mut String, item: &Item) {
    let list = |out: &mut String, seqs: &mut dyn Iterator<Item = &Seq>| {
        for (index, seq) in seqs.enumerate() {
            if index > 0 {
                out.push(',');
            }
            write_seq(out, seq);
        }
    };
    match &item.atom {
        Atom::Leap { a, b, dirs } => {
            let _ = write!(out, "({a},{b}");
            if let Some(dirs) = dirs {
                out.push('|');
                out.extend(
                    ['^', 'v', '>', '<']
                        .iter()
                        .zip(dirs)
                        .filter(|(_, on)| **on)
                        .map(|(c, _)| c),
                );
            }
            out.push(')');
        }
        Atom::Any(seqs) => {
            out.push('{');
            list(out, &mut seqs.iter());
            out.push('}');
        }
        Atom::Group(seq) => {
            out.push('[');
            write_seq(out, seq);
            out.push(']');
        }
        Atom::Capture(seq) | Atom::NoCapture(seq) => {
            out.push_str(if matches!(item.atom, Atom::Capture(_)) {
                "c("
            } else {
                "m("
            });
            write_seq(out, seq);
            out.push(')');
        }
        Atom::Rank {
            seq,
            ranks,
            negated,
        } => {
            out.push_str(if *negated { "r!(" } else { "r(" });
            write_seq(out, seq);
            let _ = match ranks {
                (low, high) if low == high => write!(out, ",{low})"),
                (low, high) => write!(out, ",[{low},{high}])"),
            };
        }
        Atom::Like(symbol) => {
            let _ = write!(out, "\"{}\"", symbol.value);
        }
        Atom::CaptureHere => out.push('x'),
        Atom::Promote(targets) => {
            out.push('p');
            if !targets.is_empty() {
                out.push_str("->[");
                for (index, target) in targets.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    out.push_str(&target.value);
                }
                out.push(']');
            }
        }
    }
    out.extend(item.repeats.iter().map(|repeat| match repeat {
        Repeat::Same => '*',
        Repeat::Any => '`',
    }));
}

/// `Turn N C: SYMBOL FROM -> TO [= PROMOTED]` or `... SQUARE checks turn M`.
fn move_line(line: &MoveLine) -> String {
    let square = |square: &SquareRef| format!("{}{}", row_letters(square.row), square.col);
    let mut text = format!(
        "Turn {} {}: {} ",
        line.turn.value,
        if line.white { 'W' } else { 'B' },
        line.symbol.value
    );
    let _ = match &line.action {
        MoveAction::Move { from, to, promote } => {
            let _ = write!(text, "{} -> {}", square(from), square(to));
            match promote {
                Some(promoted) => write!(text, " = {}", promoted.value),
                None => Ok(()),
            }
        }
        MoveAction::Checks { square: at, turn } => {
            write!(text, "{} checks turn {}", square(at), turn.value)
        }
    };
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formatted(text: &str) -> (String, Vec<String>) {
        let source = Source::new("t.fv", text);
        match format(&source, &FormatOptions::default()) {
            Ok(formatted) => (
                formatted.text,
                formatted
                    .repairs
                    .iter()
                    .map(|d| d.message.clone())
                    .collect(),
            ),
            Err(errors) => panic!("{:?}", errors.iter().next()),
        }
    }

    const TRUTH: &str = "(k):\n(n 0): (0,0)\n(q 0): (1,0)\n(i 3): (1,0)\n(p 4): (1,0)\n\n+--+--+--+--+\n|kB|##|qB|nB|\n+--+--+--+--+\n|##|##|  |  |\n+--+--+--+--+\n|iW|pW|  |kW|\n+--+--+--+--+\n\nTurn 1 W: i a1 -> b1\nTurn 1 B: k c1 -> c2\n";

    #[test]
    fn the_seed_is_formatted_already() {
        assert_eq!(formatted(TRUTH), (TRUTH.to_string(), vec![]));
    }

    #[test]
    fn notations_lose_their_blanks_and_moves_get_single_ones() {
        let text = "( q  1 ) :  { (1,0 | ^>) * , [ (1,1) x ] ` }  r!( c(\"q\") , [9, 12]) ->[q , k] # riders\n(k):\n|kW|kB|\nTurn  1  W :  q a1->a2  =  k\nTurn 1 B: k a2   checks   turn 1\n";
        assert_eq!(
            formatted(text).0,
            "(q 1): {(1,0|^>)*,[(1,1)x]`}r!(c(\"q\"),[9,12])p->[q,k] # riders\n(k):\n+--+--+\n|kW|kB|\n+--+--+\nTurn 1 W: q a1 -> a2 = k\nTurn 1 B: k a2 checks turn 1\n"
        );
    }

    #[test]
    fn a_board_is_redrawn_to_its_widest_cell_and_short_rows_completed() {
        let text = "(k):\n(rook 5): (1,0)*\n+--+-+\n|kW|rookB| # top\n+--+--+\n|##|\n\n+---+\n|  |kB|\nTurn 1 W: k a1 -> a2\n";
        let (text, repairs) = formatted(text);
        assert_eq!(
            text,
            "(k):\n(rook 5): (1,0)*\n+-----+-----+\n|kW   |rookB| # top\n+-----+-----+\n|##   |     |\n+-----+-----+\n|     |kB   |\n+-----+-----+\nTurn 1 W: k a1 -> a2\n"
        );
        assert_eq!(
            repairs,
            [
                "this row had 1 cell, completed with 1 empty cell",
                "this `+--+` line was drawn for 1 cell, redrawn for the board's 2",
            ]
        );
    }

    #[test]
    fn formatting_is_a_fixed_point() {
        let text = "(k):\n(q 1): {(1,0)*, (1,1)*}\n|kW|qB|\n|  |\nTurn 1 W: q a1 -> b1 # x\n";
        let (once, _) = formatted(text);
        assert_eq!(formatted(&once), (once.clone(), vec![]));
    }

    #[test]
    fn a_row_longer_than_the_board_is_not_guessed_at() {
        let source = Source::new("t.fv", "(k):\n|kW|kB|\n|kW|  |  |\n|kB|  |\n");
        assert!(format(&source, &FormatOptions::default()).is_err());
    }
}
