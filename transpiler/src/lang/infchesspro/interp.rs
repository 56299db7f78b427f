//! The InfChessPro interpreter: runs the IR on the runtime's board, with
//! the same runtime calls the generated code makes.

use std::io::{BufRead, Write};

use chess2rs_runtime::__private::icp::{jump_target, Board, Square};
use chess2rs_runtime::__private::{Io, StepCounter};
use chess2rs_runtime::RuntimeError;

use super::ir::{Command, Line, Next, Operand, Program};

/// Runs `program` until it halts or fails, calling `trace` after each
/// executed line with the line, whether its command succeeded, and the
/// board.
pub fn run_traced<R: BufRead, W: Write, T: FnMut(&Line, bool, &Board)>(
    program: &Program,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
    trace: &mut T,
) -> Result<(), RuntimeError> {
    let mut board = Board::new(program.names.len());
    let mut pc = 0usize;
    while let Some(line) = program.lines.get(pc) {
        let at = line.source_line;
        steps.tick(at)?;
        // The `*`s of a command are read left to right before it runs.
        let mut values = [0i64; 4];
        let (operands, count) = line.command.operands();
        for (slot, &operand) in values.iter_mut().zip(&operands[..count]) {
            *slot = match operand {
                Operand::Literal(value) => value,
                Operand::Input => io.read_i64(at)?,
            };
        }
        let [a, b, c, d] = values;
        let succeeded = match &line.command {
            Command::Nop => true,
            Command::Print(text) => {
                io.write_line(text)?;
                true
            }
            Command::Count(name) => {
                io.write_i64_line(board.count(*name) as i64)?;
                true
            }
            Command::Place { name, piece, .. } => board
                .place(*name, *piece, Square::new(a, b))
                .map_err(|e| e.in_line(at))?,
            Command::MoveFrom { .. } => board.move_from(Square::new(a, b), Square::new(c, d)),
            Command::MoveNamedTo { name, .. } => {
                board.move_named_to(*name, Square::new(a, b), None)
            }
            Command::MoveNamedBy { name, .. } => board
                .move_named_by(*name, a, b, None)
                .map_err(|e| e.in_line(at))?,
        };
        trace(line, succeeded, &board);
        pc = match if succeeded {
            line.on_success
        } else {
            line.on_failure
        } {
            Next::Line(index) => index as usize,
            Next::Input => {
                let label = io.read_i64(at)?;
                jump_target(&program.labels, label, at)? as usize
            }
        };
    }
    Ok(())
}

/// The most pieces a trace line lists.
const TRACED_PIECES: usize = 24;

/// What `--trace` prints after a line: the line, whether its command
/// succeeded (and so which jump it takes), and the pieces by name.
pub fn trace_text(program: &Program, line: &Line, succeeded: bool, board: &Board) -> String {
    let mut pieces: Vec<(String, char, Square)> = board
        .pieces()
        .map(|(name, piece, square)| {
            let name = program
                .names
                .get(name as usize)
                .cloned()
                .unwrap_or_default();
            (name, piece.letter(), square)
        })
        .collect();
    pieces.sort_by(|a, b| (&a.0, a.2.row, a.2.col).cmp(&(&b.0, b.2.row, b.2.col)));
    let mut listed: Vec<String> = pieces
        .iter()
        .take(TRACED_PIECES)
        .map(|(name, letter, square)| format!("{name}={letter}{},{}", square.row, square.col))
        .collect();
    if pieces.len() > TRACED_PIECES {
        listed.push(format!("… {} more", pieces.len() - TRACED_PIECES));
    }
    format!(
        "line {}: {}  [{}]\n  pieces: {}\n",
        line.source_line,
        line.text.trim(),
        if succeeded { "succeeded" } else { "failed" },
        if listed.is_empty() {
            "none".to_string()
        } else {
            listed.join(" ")
        }
    )
}

/// How many rows and columns of the unbounded board a picture shows.
const WINDOW: (i64, i64) = (10, 12);

/// An InfChessPro step, for `--trace` and `chess2rs view`: the line run,
/// whether its command succeeded, the board after it.
pub struct Traced<'a> {
    /// The program.
    pub program: &'a Program,
    /// The line run.
    pub line: &'a Line,
    /// Whether its command succeeded.
    pub succeeded: bool,
    /// The board after it.
    pub board: &'a Board,
}

impl Traced<'_> {
    /// The square of the piece the step's command is about, as far as the
    /// board tells: a named piece (the newest of its name) or the square a
    /// move by squares went to.
    fn focus(&self) -> Option<Square> {
        match &self.line.command {
            Command::Place { name, .. }
            | Command::MoveNamedTo { name, .. }
            | Command::MoveNamedBy { name, .. }
            | Command::Count(name) => self.board.square_of(*name),
            Command::MoveFrom {
                to: [Operand::Literal(row), Operand::Literal(col)],
                ..
            } => Some(Square::new(*row, *col)),
            _ => None,
        }
    }
}

impl crate::picture::Step for Traced<'_> {
    fn line(&self) -> u32 {
        self.line.source_line
    }

    fn text(&self) -> String {
        trace_text(self.program, self.line, self.succeeded, self.board)
    }

    /// A [`WINDOW`] of the board around the pieces (aligned to half its
    /// size while they fit in half of it, centred on them while they fit,
    /// else around the piece the step is about — aligned to half its size,
    /// so that a walking piece moves it seldom — or, if none, on their
    /// middle), higher rows on top; each piece as its letter and name.
    fn picture(&self) -> crate::picture::Picture {
        let pieces: Vec<(String, Square)> = self
            .board
            .pieces()
            .map(|(name, piece, square)| {
                let name = self
                    .program
                    .names
                    .get(name as usize)
                    .cloned()
                    .unwrap_or_default();
                (format!("{} {name}", piece.letter()), square)
            })
            .collect();
        let focus = self.focus();
        let span = |values: Vec<i64>, size: i64, focus: Option<i64>| -> (i64, i64) {
            let (Some(&low), Some(&high)) = (values.iter().min(), values.iter().max()) else {
                return (0, size - 1);
            };
            let half = size / 2;
            // Coordinates span the whole i64 range: their distance may not.
            let extent = high.saturating_sub(low);
            if extent < half {
                // Pieces close together: the window moves in steps of
                // half its size, so a walking piece changes it seldom.
                let snapped = low.div_euclid(half).saturating_mul(half);
                (snapped, snapped.saturating_add(size - 1))
            } else if extent < size {
                let spare = (size - 1 - extent) / 2;
                (
                    low.saturating_sub(spare),
                    low.saturating_sub(spare).saturating_add(size - 1),
                )
            } else if let Some(focus) = focus {
                let low = focus
                    .div_euclid(half)
                    .saturating_mul(half)
                    .saturating_sub((size - half) / 2);
                (low, low.saturating_add(size - 1))
            } else {
                let middle = low / 2 + high / 2;
                (
                    middle.saturating_sub(size / 2),
                    middle.saturating_sub(size / 2).saturating_add(size - 1),
                )
            }
        };
        let rows = pieces.iter().map(|(_, s)| s.row).collect();
        let (row_low, row_high) = span(rows, WINDOW.0, focus.map(|s| s.row));
        let columns = pieces.iter().map(|(_, s)| s.col).collect();
        let (col_low, col_high) = span(columns, WINDOW.1, focus.map(|s| s.col));
        let rows: Vec<i64> = (row_low..=row_high).rev().collect();
        let columns: Vec<i64> = (col_low..=col_high).collect();
        let mut cells = vec![String::new(); rows.len() * columns.len()];
        let mut outside = 0;
        for (text, square) in &pieces {
            let inside = (row_low..=row_high).contains(&square.row)
                && (col_low..=col_high).contains(&square.col);
            if inside {
                let at = (row_high - square.row) as usize * columns.len()
                    + (square.col - col_low) as usize;
                cells[at] = text.clone();
            } else {
                outside += 1;
            }
        }
        let mut panels = vec![
            (
                "command".to_string(),
                if self.succeeded {
                    "succeeded"
                } else {
                    "failed"
                }
                .to_string(),
            ),
            ("pieces".to_string(), pieces.len().to_string()),
        ];
        if outside > 0 {
            panels.push(("outside the window".to_string(), outside.to_string()));
        }
        crate::picture::Picture {
            grids: vec![crate::picture::Grid {
                title: "board".to_string(),
                columns: columns.iter().map(i64::to_string).collect(),
                rows: rows.iter().map(i64::to_string).collect(),
                cells,
                marked: Vec::new(),
                chequered: true,
            }],
            panels,
        }
    }
}
