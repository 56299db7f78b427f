//! The Turing-machine interpreter: the runtime's tape and input/output
//! states, rules looked up in a table.

use std::collections::HashMap;
use std::io::{BufRead, Write};

use chess2rs_runtime::__private::{tm, Io, StepCounter};
use chess2rs_runtime::RuntimeError;

use super::ir::{states, Machine, Rule};

/// Runs the machine until it halts or fails.
pub fn run<R: BufRead, W: Write>(
    machine: &Machine,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
) -> Result<(), RuntimeError> {
    run_traced(machine, io, steps, &mut |_, _, _| {})
}

/// [`run`], calling `trace` after each step with the state it was in, the
/// rule it took (`None` in the input and output states), and the tape.
pub fn run_traced<R: BufRead, W: Write, T: FnMut(i64, Option<&Rule>, &tm::Tape)>(
    machine: &Machine,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
    trace: &mut T,
) -> Result<(), RuntimeError> {
    let rules: HashMap<(i64, i64), &Rule> = machine
        .rules
        .iter()
        .map(|r| ((r.state, r.read), r))
        .collect();
    let mut tape = tm::Tape::new(&machine.tape);
    let mut state = 0i64;
    // The line and column of the rule that entered the input or output
    // state.
    let mut entered_by = (0u32, 0u32);
    // One step is one transition; finding no rule halts without a step.
    loop {
        match state {
            states::INPUT => {
                steps.tick_at(entered_by.0, entered_by.1)?;
                tape.write(tm::input_value(io, entered_by)?);
                state = 0;
                tape.right();
                trace(states::INPUT, None, &tape);
            }
            states::OUTPUT => {
                steps.tick_at(entered_by.0, entered_by.1)?;
                let symbol = tape.read();
                if symbol != 0 {
                    tm::output_symbol(io, symbol)?;
                } else {
                    state = 0;
                }
                tape.right();
                trace(states::OUTPUT, None, &tape);
            }
            _ => {
                let Some(rule) = rules.get(&(state, tape.read())) else {
                    return Ok(());
                };
                steps.tick_at(rule.line, rule.column)?;
                tape.write(rule.write);
                let from = state;
                state = rule.next;
                if state == states::INPUT || state == states::OUTPUT {
                    entered_by = (rule.line, rule.column);
                }
                if rule.left {
                    tape.left();
                } else {
                    tape.right();
                }
                trace(from, Some(rule), &tape);
            }
        }
    }
}

/// Cells shown on each side of the head by `--trace`.
const TRACED_CELLS: usize = 8;

/// What `--trace` prints after a step: the state it was in and the rule it
/// took (with the moves or listing lines that made it), then the tape
/// around the head, the head's cell in brackets.
pub fn trace_text(state: i64, rule: Option<&Rule>, tape: &tm::Tape) -> String {
    let what = match rule {
        Some(rule) => format!(
            "state {state} read {} -> write {}, {}, state {}  ({})",
            rule.read,
            rule.write,
            if rule.left { "left" } else { "right" },
            rule.next,
            rule.origin
        ),
        None if state == states::INPUT => "input state: read a line".to_string(),
        None => "output state".to_string(),
    };
    let (cells, head) = (tape.cells(), tape.head());
    let from = head.saturating_sub(TRACED_CELLS);
    let to = (head + TRACED_CELLS + 1).min(cells.len());
    let mut shown: Vec<String> = (from..to)
        .map(|i| {
            let value = cells.get(i).copied().unwrap_or(0);
            if i == head {
                format!("[{value}]")
            } else {
                value.to_string()
            }
        })
        .collect();
    if head >= cells.len() {
        shown.push("[0]".to_string());
    }
    let before = if from > 0 { "… " } else { "" };
    let after = if to < cells.len() { " …" } else { "" };
    format!(
        "{what}\n  tape (cell {from}…): {before}{}{after}\n",
        shown.join(" ")
    )
}
