//! Large Turing machines (Chessoteric and BTM programs of more than a
//! thousand rules) as data: the code generator writes the rules
//! ([`write_rule`]), the states where its regions would start (for macro
//! steps) and the initial tape ([`write_numbers`]) as texts that
//! [`run_table`] reads when the program starts and runs — macro steps
//! while they pay, then one step at a time, each rule found from the last
//! one's next state without a search — instead of a Rust value per rule:
//! a string literal is one token however long, so the code generator's
//! cost and rustc's stay small at any program size (a table of Rust
//! values, one a rule, cost the code generator 1.6 GB for a million
//! lines).

use std::cell::Cell;
use std::io::{BufRead, Write};

use super::error::RuntimeError;
use super::io::Io;
use super::limits::StepCounter;
use super::tm::{step, Control, Rule, Step, Tape};
use super::tm_blocks;

/// A machine's tables, as generated code holds them.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    /// Every rule, sorted by state and symbol read, one a line
    /// ([`write_rule`]).
    pub rules: &'a str,
    /// The states where macro steps hand over, sorted ([`write_numbers`]).
    pub roots: &'a str,
    /// The initial tape from cell 0 ([`write_numbers`]).
    pub tape: &'a str,
    /// Whether the machine may run in macro steps ([`tm_blocks::run`]).
    pub macro_steps: bool,
}

/// Appends `rule` to `out`, as [`parse_rules`] reads it: `STATE READ NEXT
/// WRITE MOVE LINE COLUMN`, MOVE `L` or `R`.
pub fn write_rule(out: &mut String, rule: &Rule) {
    use std::fmt::Write as _;
    let direction = if rule.left { 'L' } else { 'R' };
    let (state, read, next, write) = (rule.state, rule.read, rule.next, rule.write);
    let (line, column) = (rule.line, rule.column);
    let _ = writeln!(
        out,
        "{state} {read} {next} {write} {direction} {line} {column}"
    );
}

/// Appends `numbers` to `out`, as [`parse_numbers`] reads them: separated
/// by spaces, a line break after every sixteenth.
pub fn write_numbers(out: &mut String, numbers: &[i64]) {
    use std::fmt::Write as _;
    for (index, number) in numbers.iter().enumerate() {
        let separator = match index {
            0 => "",
            index if index % 16 == 0 => "\n",
            _ => " ",
        };
        let _ = write!(out, "{separator}{number}");
    }
}

/// The rules [`write_rule`] wrote, checked to be sorted by state and
/// symbol read, each pair once.
pub fn parse_rules(text: &str) -> Result<Vec<Rule>, String> {
    let mut rules: Vec<Rule> = Vec::with_capacity(text.len() / 16);
    for (index, line) in text.lines().enumerate() {
        let rule = parse_rule(line).filter(|rule| {
            rules
                .last()
                .is_none_or(|last| (last.state, last.read) < (rule.state, rule.read))
        });
        match rule {
            Some(rule) => rules.push(rule),
            None => {
                return Err(format!(
                    "the table of rules is malformed at line {}: `{line}`",
                    index + 1
                ))
            }
        }
    }
    Ok(rules)
}

/// One line of [`parse_rules`].
fn parse_rule(line: &str) -> Option<Rule> {
    let mut words = line.split(' ');
    let mut number = || words.next()?.parse::<i64>().ok();
    let (state, read, next, write) = (number()?, number()?, number()?, number()?);
    let left = match words.next()? {
        "L" => true,
        "R" => false,
        _ => return None,
    };
    let mut number = || words.next()?.parse::<u32>().ok();
    let (line, column) = (number()?, number()?);
    let rule = Rule::new(state, read, (next, write, left), (line, column));
    words.next().is_none().then_some(rule)
}

/// The numbers [`write_numbers`] wrote.
pub fn parse_numbers(text: &str, what: &str) -> Result<Vec<i64>, String> {
    text.split_ascii_whitespace()
        .map(|word| {
            word.parse()
                .map_err(|_| format!("the table of {what} is malformed: `{word}`"))
        })
        .collect()
}

/// For each rule of `rules` (sorted by state and symbol), where the rules
/// of its next state are (`start..end` in `rules`), so that a step after a
/// rule finds its rule without a search.
fn next_rules(rules: &[Rule]) -> Vec<(u32, u32)> {
    rules
        .iter()
        .map(|rule| {
            let start = rules.partition_point(|r| r.state < rule.next);
            let end = rules.partition_point(|r| r.state <= rule.next);
            (start as u32, end as u32)
        })
        .collect()
}

/// Runs the machine of `table` from state 0 with the head on cell 0 until
/// it halts or fails. Malformed texts (which chess2rs never writes) are
/// an error naming the table.
pub fn run_table<R: BufRead, W: Write>(
    table: &Table,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
) -> Result<(), RuntimeError> {
    let internal = RuntimeError::internal;
    let rules = parse_rules(table.rules).map_err(internal)?;
    let roots = parse_numbers(table.roots, "roots").map_err(internal)?;
    let tape = parse_numbers(table.tape, "the tape").map_err(internal)?;
    let next = next_rules(&rules);
    let mut tape = Tape::new(&tape);
    let mut state: i64 = 0;
    let entered_by = &Cell::new((0u32, 0u32));
    if table.macro_steps {
        // Macro steps while they pay, then one step at a time.
        tm_blocks::run(&rules, &roots, &mut tape, &mut state, entered_by, steps);
    }
    let mut control = Control {
        state,
        entered_by: entered_by.get(),
    };
    run_steps(&rules, &next, &mut tape, &mut control, io, steps)
}

/// Runs the machine one step at a time (see [`run_table`]).
#[inline(never)]
fn run_steps<R: BufRead, W: Write>(
    rules: &[Rule],
    next: &[(u32, u32)],
    tape: &mut Tape,
    control: &mut Control,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
) -> Result<(), RuntimeError> {
    // The rule of the last step (`usize::MAX`: none yet).
    let mut last = usize::MAX;
    loop {
        let rule = |state: i64, read: i64| {
            let (mut start, mut end) = match next.get(last) {
                Some(&(start, end)) => (start as usize, end as usize),
                None => (0, 0),
            };
            if start == end || rules.get(start).is_none_or(|rule| rule.state != state) {
                // After the input or output state, or at the start.
                start = rules.partition_point(|rule| rule.state < state);
                end = rules.partition_point(|rule| rule.state <= state);
            }
            let candidates = rules.get(start..end)?;
            let found = candidates.binary_search_by_key(&read, |rule| rule.read);
            let index = start + found.ok()?;
            last = index;
            rules.get(index)
        };
        if let Step::Halt = step(tape, control, io, steps, rule)? {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::limits::Options;
    use super::*;

    fn rule(state: i64, read: i64, next: i64, write: i64, left: bool) -> Rule {
        Rule::new(state, read, (next, write, left), (state as u32 + 1, 0))
    }

    #[test]
    fn rules_and_numbers_round_trip_through_text() {
        let rules = [
            rule(-3, 0, 2, i64::MIN, true),
            rule(0, -1, 0, 5, false),
            rule(0, 7, i64::MAX, 0, true),
        ];
        let mut text = String::new();
        for rule in &rules {
            write_rule(&mut text, rule);
        }
        assert!(
            text.starts_with("-3 0 2 -9223372036854775808 L 4294967294 0\n"),
            "{text}"
        );
        assert_eq!(parse_rules(&text), Ok(rules.to_vec()));
        let unsorted: String = text.lines().rev().map(|line| format!("{line}\n")).collect();
        assert!(parse_rules(&unsorted).is_err());
        for bad in [
            "0 0 0 0 X 1 0",
            "0 0 0 0 L 1",
            "0 0 0 0 L 1 0 0",
            "a 0 0 0 L 1 0",
        ] {
            assert!(parse_rules(bad).is_err(), "{bad}");
        }
        let numbers: Vec<i64> = (-20..20).collect();
        let mut text = String::new();
        write_numbers(&mut text, &numbers);
        assert_eq!(text.lines().count(), 3);
        assert_eq!(parse_numbers(&text, "the tape"), Ok(numbers));
        assert_eq!(parse_numbers("", "roots"), Ok(vec![]));
    }

    #[test]
    fn a_table_runs_like_its_rules() {
        // 0 runs right over 1s to the first 0, then state 2 prints up to
        // the next 0 and goes back to state 0, which finds no rule for 5.
        let rules = [rule(0, 0, 2, 0, false), rule(0, 1, 0, 1, false)];
        let mut text = String::new();
        for rule in &rules {
            write_rule(&mut text, rule);
        }
        let table = Table {
            rules: &text,
            roots: "0",
            tape: "1 1 0 65 66 0 5",
            macro_steps: false,
        };
        let mut out = Vec::new();
        let mut steps = StepCounter::new(&Options::with_max_steps(100));
        let result = {
            let mut io = Io::new(&b""[..], &mut out);
            let result = run_table(&table, &mut io, &mut steps);
            io.flush().map(|()| result)
        };
        assert!(matches!(result, Ok(Ok(()))), "{result:?}");
        assert_eq!(out, b"AB");
        assert_eq!(steps.executed(), 6);
        let bad = Table { tape: "x", ..table };
        let mut io = Io::new(&b""[..], Vec::new());
        let error = run_table(&bad, &mut io, &mut steps).map_err(|e| e.to_string());
        assert!(error.is_err_and(|e| e.contains("internal error: the table of the tape")),);
    }
}
