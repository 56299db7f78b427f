//! Large Finvara programs as data: the code generator writes a program of
//! more than a thousand move lines as its distinct moves (Rust values,
//! each once) and its lines as one text ([`write_line`]: the source line
//! and the move's index), which [`run_table`] reads when the program
//! starts and plays, instead of a Rust value per line: a string literal is
//! one token however long, so the code generator's cost and rustc's stay
//! small at any program size (a table of Rust values, one a line, cost
//! the code generator 2.4 GB for a million lines).

use std::io::{BufRead, Write};

use super::super::error::RuntimeError;
use super::super::io::Io;
use super::super::limits::StepCounter;
use super::{Game, MoveLine, Rules, Square};

/// `to` of a `checks` line among the moves (no square): it places its
/// piece on `from` and goes on at `next`.
pub const CHECKS: Square = Square::MAX;

/// Appends the line at source line `at` playing move `index` to `out`, as
/// [`parse_lines`] reads it: `AT INDEX`.
pub fn write_line(out: &mut String, at: u32, index: u32) {
    use std::fmt::Write as _;
    let _ = writeln!(out, "{at} {index}");
}

/// The lines [`write_line`] wrote, (source line, move index) each, every
/// index below `moves`.
pub fn parse_lines(text: &str, moves: usize) -> Result<Vec<(u32, u32)>, String> {
    let mut lines = Vec::with_capacity(text.len() / 8);
    for (index, line) in text.lines().enumerate() {
        let mut words = line.split(' ');
        let at = words.next().and_then(|word| word.parse().ok());
        let entry = words.next().and_then(|word| word.parse().ok());
        match (at, entry, words.next()) {
            (Some(at), Some(entry), None) if (entry as usize) < moves => lines.push((at, entry)),
            _ => {
                return Err(format!(
                    "the table of lines is malformed at line {}: `{line}`",
                    index + 1
                ))
            }
        }
    }
    Ok(lines)
}

/// Plays the program's lines, `lines` as [`write_line`] wrote them, each
/// naming its move among `moves` (whose `line`, and a move's `next`, are
/// each line's own), from the first line until one is past the last or
/// someone lost. Malformed lines (which chess2rs never writes) are an
/// error naming the table.
pub fn run_table<R: BufRead, W: Write>(
    game: &mut Game,
    rules: &Rules<'_>,
    moves: &[MoveLine<'_>],
    lines: &str,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
) -> Result<(), RuntimeError> {
    let lines = parse_lines(lines, moves.len()).map_err(RuntimeError::internal)?;
    run_lines(0, game, rules, moves, &lines, io, steps)
}

/// Runs the lines from line index `pc`: one loop over the tables instead
/// of one `match` arm per line of a small program's code.
#[inline(never)]
fn run_lines<R: BufRead, W: Write>(
    mut pc: u32,
    game: &mut Game,
    rules: &Rules<'_>,
    moves: &[MoveLine<'_>],
    lines: &[(u32, u32)],
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
) -> Result<(), RuntimeError> {
    while let Some(&(at, index)) = lines.get(pc as usize) {
        steps.tick(at)?;
        let Some(&(mut line)) = moves.get(index as usize) else {
            break;
        };
        line.line = at;
        if line.to == CHECKS {
            game.place(line.kind, line.white, line.from, at);
            pc = line.next;
        } else {
            line.next = pc + 1;
            pc = game.play(rules, io, &line)?;
        }
        if game.someone_lost(rules)? {
            return Ok(());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_through_text() {
        let mut text = String::new();
        write_line(&mut text, 12, 0);
        write_line(&mut text, u32::MAX, 3);
        assert_eq!(text, "12 0\n4294967295 3\n");
        assert_eq!(parse_lines(&text, 4), Ok(vec![(12, 0), (u32::MAX, 3)]));
        for bad in ["12 4\n", "12\n", "12 0 1\n", "x 0\n"] {
            assert!(parse_lines(bad, 4).is_err(), "{bad}");
        }
    }
}
