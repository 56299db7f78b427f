//! The Turing machine of Chessoteric and BTM programs: a tape growing to
//! the right, and the input (state 1) and output (state 2) behaviours.
//! Rules are compiled into code by the code generator (with scans and
//! sweeps for rules that keep their state and direction); the interpreter
//! looks them up in a table.

use std::io::{BufRead, Write};

use super::error::{ErrorKind, RuntimeError};
use super::io::{parse_i64, Io};
use super::limits::StepCounter;

/// The tape and the head.
#[derive(Clone, Debug)]
pub struct Tape {
    cells: Vec<i64>,
    head: usize,
}

impl Tape {
    /// A tape holding `initial` from cell 0 (a single 0 if empty), head
    /// at cell 0.
    pub fn new(initial: &[i64]) -> Self {
        let cells = if initial.is_empty() {
            vec![0]
        } else {
            initial.to_vec()
        };
        Tape { cells, head: 0 }
    }

    /// The symbol under the head.
    #[inline(always)]
    pub fn read(&self) -> i64 {
        self.cells[self.head]
    }

    /// Writes `symbol` under the head.
    #[inline(always)]
    pub fn write(&mut self, symbol: i64) {
        self.cells[self.head] = symbol;
    }

    /// Moves right, growing the tape with a blank (0) if needed.
    #[inline(always)]
    pub fn right(&mut self) {
        self.head += 1;
        if self.head == self.cells.len() {
            self.cells.push(0);
        }
    }

    /// Moves left; at cell 0 the head stays.
    #[inline(always)]
    pub fn left(&mut self) {
        self.head = self.head.saturating_sub(1);
    }

    /// Runs, in one go, the steps of rules that keep their state and move
    /// right over cells for which `over` holds, leaving those cells as they
    /// are: one step per cell, up to (not off) the last cell written so far
    /// and no more steps than `steps` allows. The caller runs whatever is
    /// left (the tape's end, the step limit) as single steps.
    #[inline]
    pub fn scan_right<F: Fn(i64) -> bool>(&mut self, steps: &mut StepCounter, over: F) {
        self.scan(steps, true, over)
    }

    /// [`scan_right`](Self::scan_right) to the left, passing cells down to
    /// cell 1 (a move left at cell 0 stays there: a single step).
    #[inline]
    pub fn scan_left<F: Fn(i64) -> bool>(&mut self, steps: &mut StepCounter, over: F) {
        self.scan(steps, false, over)
    }

    /// Like [`scan_right`](Self::scan_right) for rules that rewrite the
    /// cells they pass: `write` gives the symbol a cell gets, or `None`
    /// where no such rule applies (the sweep stops there).
    #[inline]
    pub fn sweep_right<F: Fn(i64) -> Option<i64>>(&mut self, steps: &mut StepCounter, write: F) {
        self.sweep(steps, true, write)
    }

    /// [`sweep_right`](Self::sweep_right) to the left, passing cells down
    /// to cell 1.
    #[inline]
    pub fn sweep_left<F: Fn(i64) -> Option<i64>>(&mut self, steps: &mut StepCounter, write: F) {
        self.sweep(steps, false, write)
    }

    /// How many cells the head may pass over in one go: to the right up to
    /// the last cell, to the left down to cell 1, at most as many as
    /// `steps` allows.
    #[inline(always)]
    fn reach(&self, steps: &StepCounter, right: bool) -> usize {
        let cells = if right {
            self.cells.len() - 1 - self.head
        } else {
            self.head
        };
        if (cells as u64) < steps.available() {
            cells
        } else {
            steps.available() as usize
        }
    }

    /// Moves the head `moved` cells and counts one step for each.
    #[inline(always)]
    fn moved(&mut self, steps: &mut StepCounter, right: bool, moved: usize) {
        if right {
            self.head += moved;
        } else {
            self.head -= moved;
        }
        // `reach` kept `moved` within what may run.
        let consumed = steps.try_consume(moved as u64);
        debug_assert!(consumed);
    }

    #[inline(always)]
    fn scan<F: Fn(i64) -> bool>(&mut self, steps: &mut StepCounter, right: bool, over: F) {
        let reach = self.reach(steps, right);
        let moved = if right {
            run_length(&self.cells[self.head..self.head + reach], false, &over)
        } else {
            run_length(
                &self.cells[self.head + 1 - reach..self.head + 1],
                true,
                &over,
            )
        };
        self.moved(steps, right, moved);
    }

    #[inline(always)]
    fn sweep<F: Fn(i64) -> Option<i64>>(&mut self, steps: &mut StepCounter, right: bool, write: F) {
        let reach = self.reach(steps, right);
        let mut moved = 0;
        while moved < reach {
            let index = if right {
                self.head + moved
            } else {
                self.head - moved
            };
            match write(self.cells[index]) {
                Some(symbol) => self.cells[index] = symbol,
                None => break,
            }
            moved += 1;
        }
        self.moved(steps, right, moved);
    }

    /// The head's cell index.
    pub fn head(&self) -> usize {
        self.head
    }

    /// The cells written so far.
    pub fn cells(&self) -> &[i64] {
        &self.cells
    }
}

/// How many cells from the start of `cells` (from its end if `backwards`)
/// satisfy `over`; tested eight at a time without branches, which rustc
/// vectorises, then one at a time.
#[inline(always)]
fn run_length<F: Fn(i64) -> bool>(cells: &[i64], backwards: bool, over: &F) -> usize {
    let all = |chunk: &[i64]| chunk.iter().fold(true, |all, &cell| all & over(cell));
    let mut whole = 0;
    if backwards {
        for chunk in cells.rchunks_exact(8) {
            if !all(chunk) {
                break;
            }
            whole += 8;
        }
        let rest = &cells[..cells.len() - whole];
        whole
            + rest
                .iter()
                .rev()
                .position(|&c| !over(c))
                .unwrap_or(rest.len())
    } else {
        for chunk in cells.chunks_exact(8) {
            if !all(chunk) {
                break;
            }
            whole += 8;
        }
        let rest = &cells[whole..];
        whole + rest.iter().position(|&c| !over(c)).unwrap_or(rest.len())
    }
}

/// State 1: reads a line and writes its value — the integer it holds
/// (trimmed, optional sign), else the sum of its characters' code points —
/// then state 0 and a move right (done by the caller). Errors name
/// `entered_by`, the line and column (`0`: the whole line) of the rule that
/// entered the input state.
pub fn input_value<R: BufRead, W: Write>(
    io: &mut Io<R, W>,
    entered_by: (u32, u32),
) -> Result<i64, RuntimeError> {
    let (rule_line, rule_column) = entered_by;
    let Some(line) = io.read_line()? else {
        return Err(RuntimeError::at(ErrorKind::InputLineMissing, rule_line).at_column(rule_column));
    };
    let text = String::from_utf8_lossy(&line);
    let trimmed = text.trim();
    let is_integer = {
        let digits = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    if is_integer {
        return parse_i64(trimmed.as_bytes()).ok_or_else(|| {
            RuntimeError::at(
                ErrorKind::InputLineTooLarge {
                    number: trimmed.to_string(),
                },
                rule_line,
            )
            .at_column(rule_column)
        });
    }
    Ok(text.chars().map(|c| i64::from(u32::from(c))).sum())
}

/// State 2: prints the character with code point `symbol`, or its decimal
/// digits if it is not a Unicode scalar value.
#[inline]
pub fn output_symbol<R: BufRead, W: Write>(
    io: &mut Io<R, W>,
    symbol: i64,
) -> Result<(), RuntimeError> {
    if io.write_code_point(symbol)? {
        return Ok(());
    }
    io.write_i64(symbol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tape_grows_right_and_stops_at_the_left_end() {
        let mut tape = Tape::new(&[]);
        assert_eq!(tape.read(), 0);
        tape.left();
        assert_eq!(tape.head(), 0);
        tape.write(7);
        tape.right();
        tape.right();
        assert_eq!(tape.cells(), &[7, 0, 0]);
    }

    fn tape(cells: &[i64], head: usize) -> Tape {
        let mut tape = Tape::new(cells);
        tape.head = head;
        tape
    }

    #[test]
    fn scans_stop_at_other_symbols_the_last_cell_and_cell_1() {
        let cells: Vec<i64> = (0..40).map(|i| if i == 30 { 4 } else { i % 2 }).collect();
        let mut steps = StepCounter::new(&super::super::limits::Options::default());
        let mut t = tape(&cells, 3);
        t.scan_right(&mut steps, |s| s == 0 || s == 1);
        assert_eq!(t.head(), 30);
        assert_eq!(steps.executed(), 27);
        t.head = 31;
        t.scan_right(&mut steps, |s| s == 0 || s == 1);
        assert_eq!(t.head(), 39, "never off the last cell");
        t.scan_left(&mut steps, |s| s == 0 || s == 1);
        assert_eq!(t.head(), 30);
        t.head = 29;
        t.scan_left(&mut steps, |s| s == 0 || s == 1);
        assert_eq!(
            t.head(),
            0,
            "passes cell 1; cell 0 itself is for single steps"
        );
    }

    #[test]
    fn scans_and_sweeps_stop_at_the_step_limit() {
        let mut steps = StepCounter::new(&super::super::limits::Options::with_max_steps(5));
        let mut t = tape(&[1; 20], 0);
        t.scan_right(&mut steps, |s| s == 1);
        assert_eq!((t.head(), steps.available()), (5, 0));
        let mut steps = StepCounter::new(&super::super::limits::Options::with_max_steps(3));
        let mut t = tape(&[1, 1, 1, 1, 1, 2], 5);
        t.sweep_left(&mut steps, |s| if s == 2 { Some(7) } else { None });
        assert_eq!(t.head(), 4);
        t.sweep_left(&mut steps, |s| if s == 1 { Some(0) } else { None });
        assert_eq!(t.cells(), &[1, 1, 1, 0, 0, 7]);
        assert_eq!((t.head(), steps.available()), (2, 0));
    }

    #[test]
    fn input_lines_are_numbers_or_code_point_sums() {
        let mut io = Io::new(&b" -12 \nAB\n\n"[..], Vec::new());
        assert_eq!(input_value(&mut io, (3, 0)).unwrap(), -12);
        assert_eq!(input_value(&mut io, (3, 0)).unwrap(), 65 + 66);
        assert_eq!(input_value(&mut io, (3, 0)).unwrap(), 0);
        assert_eq!(input_value(&mut io, (3, 0)).unwrap_err().line, Some(3));
    }

    #[test]
    fn input_errors_name_the_rule_and_stay_short() {
        let long = "9".repeat(1_000_000);
        let mut io = Io::new(long.as_bytes(), Vec::new());
        let err = input_value(&mut io, (4, 16)).unwrap_err();
        assert_eq!((err.line, err.column), (Some(4), Some(16)));
        let text = err.to_string();
        assert!(
            text.starts_with("line 4, column 16: the input number 99"),
            "{text}"
        );
        assert!(text.len() < 200, "{} bytes", text.len());
        let err = input_value(&mut io, (4, 16)).unwrap_err();
        assert_eq!(err.label(), "this rule enters the input state");
    }

    #[test]
    fn output_of_characters_and_non_characters() {
        let mut out = Vec::new();
        {
            let mut io = Io::new(&b""[..], &mut out);
            output_symbol(&mut io, 72).unwrap();
            output_symbol(&mut io, 0x2654).unwrap();
            output_symbol(&mut io, 0xD800).unwrap();
            output_symbol(&mut io, -5).unwrap();
            io.flush().unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "H♔55296-5");
    }
}
