//! The Chess Code interpreter: walks the IR's nested loops with the cells
//! and variables in arrays, calling the runtime helpers generated code
//! calls.

use std::io::{BufRead, Write};

use chess2rs_runtime::__private::{chc, Io, StepCounter};
use chess2rs_runtime::RuntimeError;

use super::ir::{Cell, Condition, Op, Program, Stmt, Var};

/// Cells, variables and the output mode, and what to call after each step.
struct Machine<'a, R: BufRead, W: Write, T> {
    cells: [i64; 64],
    vars: [i64; 5],
    ascii: bool,
    io: &'a mut Io<R, W>,
    steps: &'a mut StepCounter,
    trace: &'a mut T,
}

/// What a trace is shown after each step: the line and its text, the 64
/// cells (a1 first) and the five variables (R N B Q K).
pub type TraceFn<'a> = dyn FnMut(u32, &str, &[i64; 64], &[i64; 5]) + 'a;

/// Runs `program` until it ends or fails, calling `trace` after each
/// step (see [`TraceFn`]).
pub fn run_traced<R: BufRead, W: Write, T: FnMut(u32, &str, &[i64; 64], &[i64; 5])>(
    program: &Program,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
    trace: &mut T,
) -> Result<(), RuntimeError> {
    let mut machine = Machine {
        cells: [0; 64],
        vars: [0; 5],
        ascii: false,
        io,
        steps,
        trace,
    };
    machine.block(&program.body)
}

impl<R: BufRead, W: Write, T: FnMut(u32, &str, &[i64; 64], &[i64; 5])> Machine<'_, R, W, T> {
    fn cell(&mut self, cell: Cell) -> &mut i64 {
        &mut self.cells[usize::from(cell.0)]
    }

    fn var(&mut self, var: Var) -> &mut i64 {
        &mut self.vars[var as usize]
    }

    fn block(&mut self, statements: &[Stmt]) -> Result<(), RuntimeError> {
        for statement in statements {
            match statement {
                Stmt::Step(step) => {
                    self.steps.tick(step.source_line)?;
                    self.op(step.op, step.source_line)?;
                    (self.trace)(step.source_line, &step.text, &self.cells, &self.vars);
                }
                Stmt::Loop(body) => {
                    self.steps.tick(body.label_line)?;
                    (self.trace)(body.label_line, "1/2 1/2", &self.cells, &self.vars);
                    loop {
                        self.block(&body.body)?;
                        self.steps.tick(body.condition_line)?;
                        let again = self.holds(body.condition);
                        (self.trace)(
                            body.condition_line,
                            &body.condition_text,
                            &self.cells,
                            &self.vars,
                        );
                        if !again {
                            break;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn holds(&mut self, condition: Condition) -> bool {
        let value = *self.cell(condition.cell);
        let var = *self.var(condition.var);
        let other = condition.also.map(|also| *self.cell(also));
        if condition.negated {
            value != var && other.is_none_or(|other| value != other)
        } else {
            value == var && other.is_none_or(|other| value == other)
        }
    }

    fn op(&mut self, op: Op, line: u32) -> Result<(), RuntimeError> {
        match op {
            Op::Output(c) => {
                let value = *self.cell(c);
                chc::output(self.io, value, self.ascii, line)?;
            }
            Op::Copy(to, from) => *self.cell(to) = *self.cell(from),
            Op::Increment(c) => *self.cell(c) = chc::add(*self.cell(c), 1, line)?,
            Op::AddCell(to, from) => {
                let sum = chc::add(*self.cell(to), *self.cell(from), line)?;
                *self.cell(to) = sum;
            }
            Op::Input(c) => *self.cell(c) = self.io.read_i64(line)?,
            Op::AsciiMode => self.ascii = true,
            Op::RawMode => self.ascii = false,
            Op::VarFromCell(v, c) => *self.var(v) = *self.cell(c),
            Op::CellFromVar(v, c) => *self.cell(c) = *self.var(v),
            Op::VarAddCell(v, c) => *self.var(v) = chc::add(*self.var(v), *self.cell(c), line)?,
            Op::CellAddVar(v, c) => *self.cell(c) = chc::add(*self.cell(c), *self.var(v), line)?,
            Op::VarInput(v, c) => {
                let value = self.io.read_i64(line)?;
                *self.var(v) = value;
                *self.cell(c) = value;
            }
            Op::Label => {}
        }
        Ok(())
    }
}

/// What `--trace` prints after a step: the line, then the cells and
/// variables that are not 0.
pub fn trace_text(line: u32, text: &str, cells: &[i64; 64], vars: &[i64; 5]) -> String {
    let mut values: Vec<String> = cells
        .iter()
        .enumerate()
        .filter(|(_, &value)| value != 0)
        .map(|(index, value)| format!("{}={value}", Cell(index as u8).name()))
        .collect();
    let letters = [Var::Rook, Var::Knight, Var::Bishop, Var::Queen, Var::King];
    values.extend(
        letters
            .iter()
            .zip(vars)
            .filter(|(_, &value)| value != 0)
            .map(|(var, value)| format!("{}={value}", var.letter())),
    );
    let values = if values.is_empty() {
        "all 0".to_string()
    } else {
        values.join(" ")
    };
    format!("line {line}: {}\n  {values}\n", text.trim())
}

/// A Chess Code step, for `--trace` and `chess2rs view`: the line run and
/// the 64 cells and five variables after it.
pub struct Traced<'a> {
    /// The line run.
    pub line: u32,
    /// Its text.
    pub text: &'a str,
    /// The cells, a1 … h8.
    pub cells: &'a [i64; 64],
    /// The variables R N B Q K.
    pub vars: &'a [i64; 5],
}

impl crate::picture::Step for Traced<'_> {
    fn line(&self) -> u32 {
        self.line
    }

    fn text(&self) -> String {
        trace_text(self.line, self.text, self.cells, self.vars)
    }

    /// The cells as a chessboard (rank 8 on top), the variables beside it.
    fn picture(&self) -> crate::picture::Picture {
        let cells = (0..8u8)
            .rev()
            .flat_map(|rank| (0..8u8).map(move |file| rank * 8 + file))
            .map(|index| self.cells[usize::from(index)].to_string())
            .collect();
        let letters = [Var::Rook, Var::Knight, Var::Bishop, Var::Queen, Var::King];
        crate::picture::Picture {
            grids: vec![crate::picture::Grid::chessboard("cells", cells)],
            panels: letters
                .iter()
                .zip(self.vars)
                .map(|(var, value)| (var.letter().to_string(), value.to_string()))
                .collect(),
        }
    }
}
