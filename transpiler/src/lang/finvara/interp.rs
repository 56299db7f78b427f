//! The Finvara interpreter: the move lines over the runtime's game, each
//! move found by the runtime's search over the piece type's automaton —
//! and, for `interpret --trace`, the board and both stacks after every
//! executed line.

use std::fmt::Write as _;
use std::io::{BufRead, Write};

use chess2rs_runtime::__private::{fv, Io, StepCounter};
use chess2rs_runtime::RuntimeError;

use super::ir::{Action, Line, Program};

/// Runs `program`, calling `trace` after each executed line with the line,
/// whether it was a valid move (`None` for `checks` lines) and the game.
pub fn run_traced<R: BufRead, W: Write>(
    program: &Program,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
    trace: &mut dyn FnMut(&Line, Option<bool>, &fv::Game),
) -> Result<(), RuntimeError> {
    let rules_data = program.rules_data();
    let rules = rules_data.rules();
    let mut game = fv::Game::new(&rules, &program.board);
    let mut pc = 0usize;
    while let Some(line) = program.lines.get(pc) {
        steps.tick(line.source_line)?;
        if let Some(mv) = line.mv() {
            let valid = game.try_move(&rules, io, mv, line.source_line)?;
            trace(line, Some(valid), &game);
            pc += if !valid && game.skip_next() { 2 } else { 1 };
        } else if let Action::Checks { square, target } = line.action {
            game.place(line.kind, line.white, square, line.source_line);
            trace(line, None, &game);
            pc = target as usize;
        }
        if game.someone_lost(&rules)? {
            return Ok(());
        }
    }
    Ok(())
}

/// The trace of one executed line: the line, valid or not, the board
/// (top row first) and both stacks.
pub fn trace_text(program: &Program, line: &Line, valid: Option<bool>, game: &fv::Game) -> String {
    let mut out = String::new();
    let verdict = match valid {
        Some(true) => "valid",
        Some(false) => "invalid",
        None => "checks",
    };
    let _ = writeln!(out, "line {}: {}  [{verdict}]", line.source_line, line.text);
    let cols = program.cols as usize;
    for row in (0..program.rows as usize).rev() {
        let _ = write!(out, "{:>3} ", super::ir::row_letters(row as u64 + 1));
        for cell in &game.cells()[row * cols..(row + 1) * cols] {
            let text = match *cell {
                fv::Cell::Empty => "  ".to_string(),
                fv::Cell::Hole => "##".to_string(),
                fv::Cell::Piece { kind, white } => {
                    format!(
                        "{}{}",
                        program.pieces[usize::from(kind)].symbol,
                        if white { 'W' } else { 'B' }
                    )
                }
            };
            let _ = write!(out, "|{text:>2}");
        }
        out.push_str("|\n");
    }
    let _ = write!(out, "    ");
    for col in 1..=cols {
        let _ = write!(out, " {col:>2}");
    }
    out.push('\n');
    let _ = writeln!(
        out,
        "stacks: W {:?}  B {:?}\n",
        game.stack(true),
        game.stack(false)
    );
    out
}

/// A Finvara step, for `--trace` and `chess2rs view`: the move line run,
/// whether its move was valid (none for a `checks` line), the game after
/// it.
pub struct Traced<'a> {
    /// The program.
    pub program: &'a Program,
    /// The line run.
    pub line: &'a Line,
    /// Whether the move was valid.
    pub valid: Option<bool>,
    /// The board and stacks after it.
    pub game: &'a fv::Game,
}

impl crate::picture::Step for Traced<'_> {
    fn line(&self) -> u32 {
        self.line.source_line
    }

    fn text(&self) -> String {
        trace_text(self.program, self.line, self.valid, self.game)
    }

    /// The board (top row first, holes as `##`), both stacks beside it.
    fn picture(&self) -> crate::picture::Picture {
        let (rows, cols) = (self.program.rows as usize, self.program.cols as usize);
        let cells = (0..rows)
            .rev()
            .flat_map(|row| self.game.cells()[row * cols..(row + 1) * cols].iter())
            .map(|cell| match *cell {
                fv::Cell::Empty => String::new(),
                fv::Cell::Hole => "##".to_string(),
                fv::Cell::Piece { kind, white } => format!(
                    "{}{}",
                    self.program.pieces[usize::from(kind)].symbol,
                    if white { 'W' } else { 'B' }
                ),
            })
            .collect();
        let stack = |white| {
            let values: Vec<String> = self.game.stack(white).iter().map(i64::to_string).collect();
            format!("[{}]", values.join(", "))
        };
        let verdict = match self.valid {
            Some(true) => "valid",
            Some(false) => "invalid",
            None => "checks",
        };
        crate::picture::Picture {
            grids: vec![crate::picture::Grid {
                title: "board".to_string(),
                columns: (1..=cols).map(|col| col.to_string()).collect(),
                rows: (1..=rows as u64)
                    .rev()
                    .map(super::ir::row_letters)
                    .collect(),
                cells,
                marked: Vec::new(),
                chequered: true,
            }],
            panels: vec![
                ("move".to_string(), verdict.to_string()),
                ("white stack".to_string(), stack(true)),
                ("black stack".to_string(), stack(false)),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Source;
    use chess2rs_runtime::Options;

    /// What `text` prints when the interpreter runs it with `input`, or
    /// its runtime error.
    fn output_of(text: &str, input: &str) -> Result<String, String> {
        let source = Source::new("order.fv", text.to_string());
        let (program, _) =
            <crate::lang::finvara::Stages as crate::lang::FrontEnd>::front_end(&source)
                .map_err(|error| format!("{error:?}"))?;
        let mut output = Vec::new();
        chess2rs_runtime::__private::run_program(
            input.as_bytes(),
            &mut output,
            &Options::default(),
            &chess2rs_runtime::SourceMap::EMPTY,
            |io, steps| crate::lang::BackEnd::interpret(&program, io, steps),
        )
        .map_err(|error| error.to_string())?;
        Ok(String::from_utf8_lossy(&output).into_owned())
    }

    #[test]
    fn the_search_takes_fewer_rounds_first_in_sequences_and_nested_repetitions() {
        // Spec "Legal paths": "fewer repetitions before more" across the
        // ways of a repetition, also when notation comes before or after
        // it or another repetition holds it. Each piece crosses a hole in
        // column 2 to column 3: one jump of two (one round) comes before
        // two steps (two rounds). A fall into column 2 (value x: compare)
        // would be a runtime error on White's one value; its next move
        // falls into column 4 and prints that value.
        let board = "\
            +--+--+--+--+--+\n|kB|  |  |  |kW|\n\
            +--+--+--+--+--+\n|##|iW|  |  |  |\n\
            +--+--+--+--+--+\n|hW|##|  |##|  |\n\
            +--+--+--+--+--+\n|  |##|  |##|  |\n\
            +--+--+--+--+--+\n|hW|##|  |  |  |\n\
            +--+--+--+--+--+\n";
        let cases = [
            // Notation after it: B, then up (not A, A, up into a2).
            ("{(0,1|>),(0,2|>)}*(1,0|^)", "a1 -> b3", "b3 -> c4"),
            // Notation before it: up, then B (not up, A, A into b2).
            ("(1,0|^){(0,1|>),(0,2|>)}*", "a1 -> b3", "b3 -> c4"),
            // Inside a repetition: one outer round of one B (not AA).
            ("[{(0,1|>),(0,2|>)}*]*", "c1 -> c3", "c3 -> c4"),
        ];
        for (notation, first, second) in cases {
            let text = format!(
                "(k):\n(i 3): (1,0)\n(h x): {notation}\n\n{board}\n\
                 Turn 1 W: i d2 -> d1\nTurn 1 B: k e1 -> e2\n\
                 Turn 2 W: h {first}\nTurn 2 B: k e1 -> e2\nTurn 3 W: h {second}\n"
            );
            assert_eq!(output_of(&text, "7").as_deref(), Ok("7\n"), "{notation}");
        }
    }

    #[test]
    fn trace_shows_each_line_the_board_and_the_stacks() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../golden/finvara/truth.fv");
        let source = Source::new("truth.fv", std::fs::read_to_string(path).unwrap());
        let (program, _) =
            <crate::lang::finvara::Stages as crate::lang::FrontEnd>::front_end(&source).unwrap();
        let mut trace = String::new();
        let mut output = Vec::new();
        chess2rs_runtime::__private::run_program(
            &b"0"[..],
            &mut output,
            &Options::default(),
            &chess2rs_runtime::SourceMap::EMPTY,
            |io, steps| {
                run_traced(&program, io, steps, &mut |line, valid, game| {
                    trace.push_str(&trace_text(&program, line, valid, game))
                })
            },
        )
        .unwrap();
        assert_eq!(output, b"0\n");
        assert!(trace.starts_with("line 15: Turn 1 W: i a1 -> b1  [valid]\n  c |kB|##|qB|nB|\n  b |##|##|  |  |\n  a |  |pW|  |kW|\n      1  2  3  4\nstacks: W [0]  B []\n"), "{trace}");
        assert!(
            trace.contains("line 16: Turn 1 B: k c1 -> c2  [invalid]"),
            "{trace}"
        );
        assert!(!trace.contains("Turn 2 W"), "skipped: {trace}");
    }
}
