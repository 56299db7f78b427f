//! Chess Code syntax tree → IR: matched label/condition pairs become loops.
//! Runs only on programs that passed [`super::check`].

use super::check::LoopMatches;
use super::ir::{Condition, Loop, Op, Program, Step, Stmt};
use super::syntax::{self, Command};

/// Lowers a checked program with its loop matches.
pub fn lower(program: &syntax::Program, matches: &LoopMatches, source_name: &str) -> Program {
    let lines = &program.lines;
    // Where each matched label's loop ends (its condition's index).
    let mut loop_end = vec![None; lines.len()];
    for (&condition, &label) in matches {
        loop_end[label] = Some(condition);
    }
    let (body, _) = block(lines, &loop_end, 0, lines.len());
    Program {
        body,
        source_name: source_name.to_string(),
    }
}

/// The statements of `lines[start..end]`, and where they stopped.
fn block(
    lines: &[syntax::Line],
    loop_end: &[Option<usize>],
    start: usize,
    end: usize,
) -> (Vec<Stmt>, usize) {
    let mut statements = Vec::new();
    let mut index = start;
    while index < end {
        let line = &lines[index];
        if let Some(condition_index) = loop_end[index] {
            let (body, _) = block(lines, loop_end, index + 1, condition_index);
            let condition_line = &lines[condition_index];
            let Command::Condition(condition) = &condition_line.command else {
                unreachable!("loop matches pair labels with conditions");
            };
            statements.push(Stmt::Loop(Loop {
                label_line: line.source_line,
                label_span: line.span.clone(),
                body,
                condition_line: condition_line.source_line,
                condition_span: condition_line.span.clone(),
                condition_text: condition_line.text.clone(),
                condition: Condition {
                    cell: condition.cell.value,
                    also: condition.also.as_ref().map(|c| c.value),
                    var: condition.var.value,
                    negated: condition.negated,
                },
            }));
            index = condition_index + 1;
            continue;
        }
        let op = match &line.command {
            Command::Output(c) => Op::Output(c.value),
            Command::Copy { to, from } => Op::Copy(to.value, from.value),
            Command::Increment(c) => Op::Increment(c.value),
            Command::AddCell { to, from } => Op::AddCell(to.value, from.value),
            Command::Input(c) => Op::Input(c.value),
            Command::AsciiMode => Op::AsciiMode,
            Command::RawMode => Op::RawMode,
            Command::VarFromCell(v, c) => Op::VarFromCell(v.value, c.value),
            Command::CellFromVar(v, c) => Op::CellFromVar(v.value, c.value),
            Command::VarAddCell(v, c) => Op::VarAddCell(v.value, c.value),
            Command::CellAddVar(v, c) => Op::CellAddVar(v.value, c.value),
            Command::VarInput(v, c) => Op::VarInput(v.value, c.value),
            Command::Label => Op::Label,
            // Checked: every condition closes a loop handled above.
            Command::Condition(_) => unreachable!("conditions end loops"),
        };
        statements.push(Stmt::Step(Step {
            source_line: line.source_line,
            span: line.span.clone(),
            text: line.text.clone(),
            op,
        }));
        index += 1;
    }
    (statements, index)
}
