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
    let rules: HashMap<(i64, i64), &Rule> = machine
        .rules
        .iter()
        .map(|r| ((r.state, r.read), r))
        .collect();
    let mut tape = tm::Tape::new(&machine.tape);
    let mut state = 0i64;
    // One step is one transition; finding no rule halts without a step.
    loop {
        match state {
            states::INPUT => {
                steps.tick_unlocated()?;
                tape.write(tm::input_value(io)?);
                state = 0;
                tape.right();
            }
            states::OUTPUT => {
                steps.tick_unlocated()?;
                let symbol = tape.read();
                if symbol != 0 {
                    tm::output_symbol(io, symbol)?;
                } else {
                    state = 0;
                }
                tape.right();
            }
            _ => {
                let Some(rule) = rules.get(&(state, tape.read())) else {
                    return Ok(());
                };
                steps.tick_unlocated()?;
                tape.write(rule.write);
                state = rule.next;
                if rule.left {
                    tape.left();
                } else {
                    tape.right();
                }
            }
        }
    }
}
