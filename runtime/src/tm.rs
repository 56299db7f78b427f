//! The Turing machine of Chessoteric and BTM programs: a tape growing to
//! the right, and the input (state 1) and output (state 2) behaviours.
//! Rules are compiled into code by the code generator (with scans and
//! sweeps for rules that keep their state and direction); the interpreter
//! looks them up in a table.

use std::io::{BufRead, Write};

use super::error::{ErrorKind, RuntimeError};
use super::io::{parse_i64, Io};
use super::limits::StepCounter;
use super::memory;

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

    /// Moves right, growing the tape with a blank (0) if needed; the
    /// memory limit's error, at `site` (the rule's line and column), if it
    /// cannot grow.
    #[inline(always)]
    pub fn right(&mut self, site: (u32, u32)) -> Result<(), RuntimeError> {
        self.head += 1;
        if self.head == self.cells.len() {
            grow(&mut self.cells, site)?;
        }
        Ok(())
    }

    /// Moves left; at cell 0 the head stays.
    #[inline(always)]
    pub fn left(&mut self) {
        self.head = self.head.saturating_sub(1);
    }

    /// The head's cell index.
    pub fn head(&self) -> usize {
        self.head
    }

    /// The cells and the head's index, for generated code that keeps the
    /// head in a local while it runs (and hands it back with
    /// [`set_head`](Self::set_head)).
    #[inline(always)]
    pub fn parts(&mut self) -> (&mut Vec<i64>, usize) {
        (&mut self.cells, self.head)
    }

    /// Puts the head at cell `head` (a cell that exists).
    #[inline(always)]
    pub fn set_head(&mut self, head: usize) {
        debug_assert!(head < self.cells.len());
        self.head = head;
    }

    /// The cells written so far.
    pub fn cells(&self) -> &[i64] {
        &self.cells
    }
}

/// Grows the tape by a blank cell after the head moved right off the last
/// one; generated code holding the cells as a slice takes the new slice.
/// Growth past the memory limit is an error at `site` (the rule's line and
/// column).
#[cold]
#[inline(never)]
pub fn grow(cells: &mut Vec<i64>, site: (u32, u32)) -> Result<&mut [i64], RuntimeError> {
    memory::push(cells, 0).map_err(|refused| at_site(refused.into(), site))?;
    Ok(&mut cells[..])
}

/// An error of `kind` at `site`, a rule's line and column.
pub(super) fn at_site(kind: ErrorKind, (line, column): (u32, u32)) -> RuntimeError {
    RuntimeError::at(kind, line).at_column(column)
}

/// How many cells right of `head` a scan or sweep may pass over: up to
/// (not off) the last cell, at most `fuel`.
#[inline(always)]
fn reach_right(cells: &[i64], head: usize, fuel: u64) -> usize {
    let cells = cells.len() - 1 - head;
    if (cells as u64) < fuel {
        cells
    } else {
        fuel as usize
    }
}

/// How many cells left of `head` a scan or sweep may pass over: down to
/// cell 1 (a move left at cell 0 stays there: a single step), at most
/// `fuel`.
#[inline(always)]
fn reach_left(head: usize, fuel: u64) -> usize {
    if (head as u64) < fuel {
        head
    } else {
        fuel as usize
    }
}

/// How many cells from `head` rightwards satisfy `over`, at most `fuel`
/// and never the last cell: the steps of rules that keep their state and
/// move right without changing what they pass, run in one go by
/// generated code (which moves the head and counts the steps).
#[inline(always)]
pub fn scan_right<F: Fn(i64) -> bool>(cells: &[i64], head: usize, fuel: u64, over: F) -> usize {
    let reach = reach_right(cells, head, fuel);
    run_length(&cells[head..head + reach], false, &over)
}

/// [`scan_right`] to the left, passing cells down to cell 1.
#[inline(always)]
pub fn scan_left<F: Fn(i64) -> bool>(cells: &[i64], head: usize, fuel: u64, over: F) -> usize {
    let reach = reach_left(head, fuel);
    run_length(&cells[head + 1 - reach..head + 1], true, &over)
}

/// Like [`scan_right`] for rules that rewrite the cells they pass:
/// `write` gives the symbol a cell gets, or `None` where no such rule
/// applies (the sweep stops there). Returns the cells passed.
#[inline(always)]
pub fn sweep_right<F: Fn(i64) -> Option<i64>>(
    cells: &mut [i64],
    head: usize,
    fuel: u64,
    write: F,
) -> usize {
    let reach = reach_right(cells, head, fuel);
    rewrite_run(&mut cells[head..head + reach], false, &write)
}

/// [`sweep_right`] to the left, passing cells down to cell 1.
#[inline(always)]
pub fn sweep_left<F: Fn(i64) -> Option<i64>>(
    cells: &mut [i64],
    head: usize,
    fuel: u64,
    write: F,
) -> usize {
    let reach = reach_left(head, fuel);
    rewrite_run(&mut cells[head + 1 - reach..head + 1], true, &write)
}

/// Rewrites cells from the start of `cells` (from its end if `backwards`)
/// with `write` up to the first it gives `None` for; how many it rewrote.
#[inline(always)]
fn rewrite_run<F: Fn(i64) -> Option<i64>>(cells: &mut [i64], backwards: bool, write: &F) -> usize {
    let mut moved = 0;
    let last = cells.len();
    while moved < last {
        let index = if backwards { last - 1 - moved } else { moved };
        match write(cells[index]) {
            Some(symbol) => cells[index] = symbol,
            None => break,
        }
        moved += 1;
    }
    moved
}

/// How many cells from the start of `cells` (from its end if `backwards`)
/// satisfy `over`; tested eight at a time without branches, which rustc
/// vectorises, then one at a time.
#[inline(always)]
fn run_length<F: Fn(i64) -> bool>(cells: &[i64], backwards: bool, over: &F) -> usize {
    // Many runs are short: the first cell alone often ends them.
    let first = if backwards {
        cells.last()
    } else {
        cells.first()
    };
    match first {
        Some(&cell) if over(cell) => {}
        _ => return 0,
    }
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

/// The input state: reads a line (see [`input_value`]).
pub const INPUT: i64 = 1;
/// The output state: prints symbols up to a 0 (see [`output_symbol`]).
pub const OUTPUT: i64 = 2;

/// One rule as generated code keeps it in a table sorted by
/// `(state, read)`, for the steps it runs one at a time ([`finish`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The state it applies in.
    pub state: i64,
    /// The symbol it applies to.
    pub read: i64,
    /// The state after.
    pub next: i64,
    /// The symbol written.
    pub write: i64,
    /// Move left (else right).
    pub left: bool,
    /// The source line its errors name.
    pub line: u32,
    /// The column its errors name (`0`: the whole line).
    pub column: u32,
}

impl Rule {
    /// The rule that, in `state` reading `read`, writes `write`, moves left
    /// (if `left`, else right) and goes to `next`; its errors name `site`
    /// (line and column).
    pub(crate) fn new(
        state: i64,
        read: i64,
        (next, write, left): (i64, i64, bool),
        (line, column): (u32, u32),
    ) -> Rule {
        Rule {
            state,
            read,
            next,
            write,
            left,
            line,
            column,
        }
    }
}

/// [`step`] takes any type that holds a [`Rule`]: this one, and the
/// interpreter's rules, which keep where they came from beside it.
impl AsRef<Rule> for Rule {
    fn as_ref(&self) -> &Rule {
        self
    }
}

/// The machine's state, and the rule that entered the input or output
/// state (whose line and column their errors name).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Control {
    /// The current state.
    pub state: i64,
    /// The line and column of the rule that last entered state 1 or 2.
    pub entered_by: (u32, u32),
}

/// What one [`step`] did.
#[derive(Debug)]
pub enum Step<'r, T> {
    /// Read a line in the input state.
    Input,
    /// Printed a symbol, or left the output state at a 0.
    Output,
    /// Ran this rule.
    Rule(&'r T),
    /// Found no rule: the machine halts (not a step).
    Halt,
}

/// Runs one step of the machine, the semantics every way of running it
/// keeps: the input and output states do their own thing, any other state
/// runs the rule `rule(state, symbol)` gives, or halts if there is none.
/// The step is counted before it changes anything, so the step limit
/// stops it with the tape as it was.
#[inline]
pub fn step<'r, T: AsRef<Rule>, R: BufRead, W: Write>(
    tape: &mut Tape,
    control: &mut Control,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
    rule: impl FnOnce(i64, i64) -> Option<&'r T>,
) -> Result<Step<'r, T>, RuntimeError> {
    let (line, column) = control.entered_by;
    match control.state {
        INPUT => {
            steps.tick_at(line, column)?;
            tape.write(input_value(io, control.entered_by)?);
            control.state = 0;
            tape.right(control.entered_by)?;
            Ok(Step::Input)
        }
        OUTPUT => {
            steps.tick_at(line, column)?;
            let symbol = tape.read();
            if symbol != 0 {
                output_symbol(io, symbol)?;
            } else {
                control.state = 0;
            }
            tape.right(control.entered_by)?;
            Ok(Step::Output)
        }
        state => {
            let Some(taken) = rule(state, tape.read()) else {
                return Ok(Step::Halt);
            };
            let rule = taken.as_ref();
            let site = (rule.line, rule.column);
            steps.tick_at(rule.line, rule.column)?;
            tape.write(rule.write);
            control.state = rule.next;
            if control.state == INPUT || control.state == OUTPUT {
                control.entered_by = site;
            }
            if rule.left {
                tape.left();
            } else {
                tape.right(site)?;
            }
            Ok(Step::Rule(taken))
        }
    }
}

/// The rule for `state` reading `read` in `rules` (sorted by state and
/// symbol, as generated code's `RULES`), if any.
pub fn rule_for(rules: &[Rule], state: i64, read: i64) -> Option<&Rule> {
    rules
        .binary_search_by(|rule| (rule.state, rule.read).cmp(&(state, read)))
        .ok()
        .map(|index| &rules[index])
}

/// Runs the machine from `control` one step at a time, looking rules up in
/// `rules` (sorted by `(state, read)`), until it halts or fails: generated
/// code hands over to this when fewer steps may run than its next stretch
/// of code takes without counting, so the step limit stops exactly the
/// right step.
#[cold]
#[inline(never)]
pub fn finish<R: BufRead, W: Write>(
    rules: &[Rule],
    tape: &mut Tape,
    mut control: Control,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
) -> Result<(), RuntimeError> {
    loop {
        let lookup = |state, read| rule_for(rules, state, read);
        if let Step::Halt = step(tape, &mut control, io, steps, lookup)? {
            return Ok(());
        }
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
        tape.right((1, 0)).unwrap();
        tape.right((1, 0)).unwrap();
        assert_eq!(tape.cells(), &[7, 0, 0]);
    }

    #[test]
    fn scans_stop_at_other_symbols_the_last_cell_and_cell_1() {
        let cells: Vec<i64> = (0..40).map(|i| if i == 30 { 4 } else { i % 2 }).collect();
        let bit = |s: i64| s == 0 || s == 1;
        assert_eq!(scan_right(&cells, 3, u64::MAX, bit), 27);
        assert_eq!(
            scan_right(&cells, 31, u64::MAX, bit),
            8,
            "never off the last cell"
        );
        assert_eq!(scan_left(&cells, 39, u64::MAX, bit), 9);
        assert_eq!(
            scan_left(&cells, 29, u64::MAX, bit),
            29,
            "passes cell 1; cell 0 itself is for single steps"
        );
    }

    #[test]
    fn scans_and_sweeps_stop_at_the_steps_allowed() {
        assert_eq!(scan_right(&[1; 20], 0, 5, |s| s == 1), 5);
        let mut cells = [1, 1, 1, 1, 1, 2];
        assert_eq!(
            sweep_left(&mut cells, 5, 3, |s| if s == 2 { Some(7) } else { None }),
            1
        );
        assert_eq!(
            sweep_left(&mut cells, 4, 2, |s| if s == 1 { Some(0) } else { None }),
            2
        );
        assert_eq!(cells, [1, 1, 1, 0, 0, 7]);
        assert_eq!(
            sweep_right(&mut cells, 0, 9, |s| if s == 1 { Some(3) } else { None }),
            3
        );
        assert_eq!(cells, [3, 3, 3, 0, 0, 7]);
    }

    /// A sweep (or, with `write` giving each symbol back, a scan) run
    /// one step at a time, as the rules run it: how many cells it passes.
    fn by_steps(
        cells: &mut [i64],
        head: usize,
        fuel: u64,
        left: bool,
        write: &dyn Fn(i64) -> Option<i64>,
    ) -> usize {
        let (mut at, mut moved) = (head, 0);
        while (moved as u64) < fuel && if left { at > 0 } else { at + 1 < cells.len() } {
            match write(cells[at]) {
                Some(symbol) => cells[at] = symbol,
                None => break,
            }
            at = if left { at - 1 } else { at + 1 };
            moved += 1;
        }
        moved
    }

    #[test]
    fn scans_and_sweeps_agree_with_single_steps_everywhere() {
        // Tapes of 1s shorter and longer than a chunk of 8, one other
        // symbol somewhere or none; every head; steps allowed running out
        // before, inside and after a chunk. 2 becomes 3: a cell rewritten
        // twice would show.
        let sweep = |cell: i64| match cell {
            1 => Some(2),
            2 => Some(3),
            _ => None,
        };
        let over = |cell: i64| cell == 1;
        for len in 1..40usize {
            for stop in [None, Some(0), Some(len / 2), Some(len - 1)] {
                let tape: Vec<i64> = (0..len)
                    .map(|i| if Some(i) == stop { 7 } else { 1 })
                    .collect();
                for head in 0..len {
                    for fuel in [0, 1, 3, 8, 9, 17, 100] {
                        for left in [false, true] {
                            let mut expected = tape.clone();
                            let moved = by_steps(&mut expected, head, fuel, left, &sweep);
                            let mut cells = tape.clone();
                            let (scanned, swept) = if left {
                                let scanned = scan_left(&cells, head, fuel, over);
                                (scanned, sweep_left(&mut cells, head, fuel, sweep))
                            } else {
                                let scanned = scan_right(&cells, head, fuel, over);
                                (scanned, sweep_right(&mut cells, head, fuel, sweep))
                            };
                            let case = format!(
                                "len {len} stop {stop:?} head {head} fuel {fuel} left {left}"
                            );
                            assert_eq!((scanned, swept), (moved, moved), "{case}");
                            assert_eq!(cells, expected, "{case}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn finish_runs_the_last_steps_by_table_up_to_the_limit() {
        let rules = [
            Rule::new(0, 0, (3, 72, false), (1, 0)),
            Rule::new(0, 72, (3, 72, false), (3, 0)),
            Rule::new(3, 0, (0, 0, true), (2, 0)),
        ];
        let mut out = Vec::new();
        let mut io = Io::new(&b""[..], &mut out);
        let mut steps = StepCounter::new(&super::super::limits::Options::with_max_steps(3));
        let mut tape = Tape::new(&[]);
        let control = Control {
            state: 0,
            entered_by: (0, 0),
        };
        let err = finish(&rules, &mut tape, control, &mut io, &mut steps).unwrap_err();
        assert_eq!((err.line, steps.executed()), (Some(2), 3));
        assert_eq!((tape.cells(), tape.head()), (&[72, 0][..], 1));
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
