//! The Turing-machine interpreter: the runtime's tape and input/output
//! states, rules looked up in a table.

use std::collections::HashMap;
use std::io::{BufRead, Write};

use chess2rs_runtime::__private::{tm, Io, StepCounter};
use chess2rs_runtime::RuntimeError;

use super::ir::{states, Machine, Rule};

/// Runs the machine until it halts or fails, calling `trace` after each
/// step with the state it was in, the rule it took (`None` in the input and output states), and the tape.
pub fn run_traced<R: BufRead, W: Write, T: FnMut(i64, Option<&Rule>, &tm::Tape)>(
    machine: &Machine,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
    trace: &mut T,
) -> Result<(), RuntimeError> {
    let rules: HashMap<(i64, i64), &Rule> = machine
        .rules
        .iter()
        .map(|r| ((r.rule.state, r.rule.read), r))
        .collect();
    let mut tape = tm::Tape::new(&machine.tape);
    let mut control = tm::Control {
        state: 0,
        entered_by: (0, 0),
    };
    // One step is one transition; finding no rule halts without a step.
    loop {
        let from = control.state;
        let rule = |state, read| rules.get(&(state, read)).copied();
        match tm::step(&mut tape, &mut control, io, steps, rule)? {
            tm::Step::Halt => return Ok(()),
            tm::Step::Input | tm::Step::Output => trace(from, None, &tape),
            tm::Step::Rule(rule) => trace(from, Some(rule), &tape),
        }
    }
}

impl AsRef<tm::Rule> for Rule {
    fn as_ref(&self) -> &tm::Rule {
        &self.rule
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
            rule.rule.read,
            rule.rule.write,
            if rule.rule.left { "left" } else { "right" },
            rule.rule.next,
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

/// A picture shows at least this many tape cells on each side of the
/// head.
const PICTURED_CELLS: usize = 10;

/// A Turing-machine step, for `--trace` and `chess2rs view`: the state it
/// was in, the rule it took and the tape after it.
pub struct Traced<'a> {
    /// The state before the step.
    pub state: i64,
    /// The rule taken (none in the input and output states).
    pub rule: Option<&'a Rule>,
    /// The tape after the step.
    pub tape: &'a tm::Tape,
    /// Where the machine's steps come from.
    pub sources: &'a super::StepSources,
}

impl Traced<'_> {
    /// The annotated move (or listing line) the step comes from: its
    /// rule's first, or in the input and output states the one that wrote
    /// the initial symbol under the head.
    fn source(&self) -> Option<super::StepSource> {
        use crate::picture::Step as _;
        self.sources
            .step(self.line(), self.column(), self.tape.head())
    }
}

impl crate::picture::Step for Traced<'_> {
    /// The rule's line: its first annotated move, or the listing's line.
    fn line(&self) -> u32 {
        self.rule.map_or(0, |rule| rule.rule.line)
    }

    /// The column of the rule's first annotated move in a game.
    fn column(&self) -> u32 {
        self.rule.map_or(0, |rule| rule.rule.column)
    }

    fn text(&self) -> String {
        trace_text(self.state, self.rule, self.tape)
    }

    /// The rule's place, or in the input and output states the place of
    /// the move that wrote the symbol under the head.
    fn place(&self) -> (u32, u32) {
        let (line, column) = (self.line(), self.column());
        (self.sources.place(line, column, self.tape.head())).unwrap_or((line, column))
    }

    /// The tape around the head (the head marked), the state and rule.
    fn picture(&self) -> crate::picture::Picture {
        let (cells, head) = (self.tape.cells(), self.tape.head());
        // The window moves in steps of PICTURED_CELLS, so that it changes
        // seldom as the head walks (and a recording stays small).
        let from = (head / PICTURED_CELLS * PICTURED_CELLS).saturating_sub(PICTURED_CELLS);
        let to = from + 3 * PICTURED_CELLS;
        let rule = match self.rule {
            Some(rule) => format!(
                "read {} → write {}, {}, state {}",
                rule.rule.read,
                rule.rule.write,
                if rule.rule.left { "left" } else { "right" },
                rule.rule.next
            ),
            None if self.state == states::INPUT => "input state: read a line".to_string(),
            None => "output state".to_string(),
        };
        let mut picture = crate::picture::Picture {
            grids: vec![crate::picture::Grid {
                title: "tape".to_string(),
                columns: (from..to).map(|i| i.to_string()).collect(),
                rows: vec!["cell".to_string()],
                cells: (from..to)
                    .map(|i| cells.get(i).copied().unwrap_or(0).to_string())
                    .collect(),
                marked: vec![head - from],
                chequered: false,
            }],
            panels: vec![
                ("state".to_string(), self.state.to_string()),
                ("rule".to_string(), rule),
            ],
        };
        // The annotated move the step comes from: in a game the position
        // after it and the move, and its bits.
        if let Some(from) = self.source() {
            if let Some((board, san)) = from.position {
                picture.grids.insert(0, board);
                picture.panels.push(("move".to_string(), san));
            }
            picture.panels.push(("bits".to_string(), from.bits));
        }
        picture
    }
}
