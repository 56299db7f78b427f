//! Chess Code checks: every loop condition has a label (error); labels
//! with no condition, cells and variables read but never written, and
//! loops whose condition cannot change (warnings). Also computes the label of each condition.

use std::collections::{BTreeMap, BTreeSet};

use super::syntax::{Cell, Command, Program, Var};
use crate::diag::{Diagnostic, Diagnostics};
use crate::source::Span;

/// The index of the label line each condition line loops back to.
pub type LoopMatches = BTreeMap<usize, usize>;

/// The loop matches (complete if there are no errors) and the diagnostics
/// for `program`.
pub fn check(program: &Program) -> (LoopMatches, Diagnostics) {
    let mut diagnostics = Diagnostics::default();
    let matches = match_loops(program, &mut diagnostics);
    warn_never_written(program, &mut diagnostics);
    warn_unchanging_loops(program, &matches, &mut diagnostics);
    diagnostics.sort();
    (matches, diagnostics)
}

/// How deep loops may nest: far beyond real programs, and about as deep
/// as rustc compiles the nested `loop`s they become (1,000 overflow its
/// stack).
pub const MAX_LOOP_DEPTH: usize = 256;

/// Scans back from each condition: conditions passed open a level, labels
/// close one, the first label at level 0 is the match.
fn match_loops(program: &Program, diagnostics: &mut Diagnostics) -> LoopMatches {
    let mut matches = LoopMatches::new();
    let mut open_labels: Vec<usize> = Vec::new();
    // A forward stack gives the same pairs as the backward scan: labels
    // are opening brackets, conditions closing ones.
    for (index, line) in program.lines.iter().enumerate() {
        match &line.command {
            Command::Label => {
                open_labels.push(index);
                if open_labels.len() == MAX_LOOP_DEPTH + 1 {
                    diagnostics.push(
                        Diagnostic::error(
                            format!("loops nest more than {MAX_LOOP_DEPTH} deep here"),
                            line.span.clone(),
                        )
                        .with_label(format!("loop {} inside the others", MAX_LOOP_DEPTH + 1))
                        .with_help(
                            "rustc cannot compile code nested much deeper; flatten some loops",
                        ),
                    );
                }
            }
            Command::Condition(condition) => match open_labels.pop() {
                Some(label) => {
                    matches.insert(index, label);
                }
                None => diagnostics.push(
                    Diagnostic::error(
                        "this loop condition has no label to loop back to",
                        condition.cell.span.start..line.span.end,
                    )
                    .with_label("no `1/2 1/2` before it is left unmatched")
                    .with_help("put a `1/2 1/2` line where the loop should start"),
                ),
            },
            _ => {}
        }
    }
    // A label no condition pairs with does nothing: harmless, but rarely
    // what was meant.
    for &label in &open_labels {
        diagnostics.push(
            Diagnostic::warning(
                "no loop condition loops back to this label",
                program.lines[label].span.clone(),
            )
            .with_label("a loop that never repeats")
            .with_help(
                "end the loop with a condition line such as `a1=R` (loop back while a1 = R), or delete this line",
            ),
        );
    }
    matches
}

/// What a command reads and writes.
#[derive(Default)]
struct Access {
    read_cells: Vec<(Cell, Span)>,
    read_vars: Vec<(Var, Span)>,
    written_cells: Vec<Cell>,
    written_vars: Vec<Var>,
}

fn access(command: &Command) -> Access {
    let mut access = Access::default();
    match command {
        Command::Output(c) => access.read_cells.push((c.value, c.span.clone())),
        Command::Copy { to, from } => {
            access.read_cells.push((from.value, from.span.clone()));
            access.written_cells.push(to.value);
        }
        Command::Increment(c) | Command::Input(c) => access.written_cells.push(c.value),
        Command::AddCell { to, from } => {
            access.read_cells.push((from.value, from.span.clone()));
            access.written_cells.push(to.value);
        }
        Command::VarFromCell(v, c) | Command::VarAddCell(v, c) => {
            access.read_cells.push((c.value, c.span.clone()));
            access.written_vars.push(v.value);
        }
        Command::CellFromVar(v, c) | Command::CellAddVar(v, c) => {
            access.read_vars.push((v.value, v.span.clone()));
            access.written_cells.push(c.value);
        }
        Command::VarInput(v, c) => {
            access.written_vars.push(v.value);
            access.written_cells.push(c.value);
        }
        Command::Condition(condition) => {
            access
                .read_cells
                .push((condition.cell.value, condition.cell.span.clone()));
            if let Some(also) = &condition.also {
                access.read_cells.push((also.value, also.span.clone()));
            }
            access
                .read_vars
                .push((condition.var.value, condition.var.span.clone()));
        }
        Command::AsciiMode | Command::RawMode | Command::Label => {}
    }
    access
}

/// For each cell and variable, the indices of the lines that write it, in
/// order — so that "is it written anywhere" and "is it written inside this
/// loop" cost a lookup, not a scan of the program.
struct Writes {
    cells: Vec<Vec<usize>>,
    vars: Vec<Vec<usize>>,
}

impl Writes {
    fn of(program: &Program) -> Writes {
        let mut writes = Writes {
            cells: vec![Vec::new(); 64],
            vars: vec![Vec::new(); 5],
        };
        for (index, line) in program.lines.iter().enumerate() {
            let access = access(&line.command);
            for cell in access.written_cells {
                writes.cells[usize::from(cell.0)].push(index);
            }
            for var in access.written_vars {
                writes.vars[var as usize].push(index);
            }
        }
        writes
    }
}

/// Whether one of the sorted `lines` lies in `range`.
fn within(lines: &[usize], range: &std::ops::Range<usize>) -> bool {
    let first = lines.partition_point(|&line| line < range.start);
    lines.get(first).is_some_and(|&line| line < range.end)
}

fn warn_never_written(program: &Program, diagnostics: &mut Diagnostics) {
    let accesses: Vec<Access> = program.lines.iter().map(|l| access(&l.command)).collect();
    let written = Writes::of(program);
    let mut reported_cells = BTreeSet::new();
    let mut reported_vars = BTreeSet::new();
    for access in &accesses {
        for (cell, span) in &access.read_cells {
            if written.cells[usize::from(cell.0)].is_empty() && reported_cells.insert(cell.0) {
                diagnostics.push(
                    Diagnostic::warning(
                        format!("cell {} is read but never written", cell.name()),
                        span.clone(),
                    )
                    .with_label("always 0 here")
                    .with_help("nothing in the program sets this cell; did you mean another one?"),
                );
            }
        }
        for (var, span) in &access.read_vars {
            if written.vars[*var as usize].is_empty() && reported_vars.insert(*var) {
                diagnostics.push(
                    Diagnostic::warning(
                        format!("variable {} is read but never written", var.letter()),
                        span.clone(),
                    )
                    .with_label("always 0 here")
                    .with_help(
                        "nothing in the program sets this variable; did you mean another one?",
                    ),
                );
            }
        }
    }
}

fn warn_unchanging_loops(program: &Program, matches: &LoopMatches, diagnostics: &mut Diagnostics) {
    let written = Writes::of(program);
    for (&condition_index, &label_index) in matches {
        let Command::Condition(condition) = &program.lines[condition_index].command else {
            continue;
        };
        let body = label_index + 1..condition_index;
        let cell_changes = |cell: Cell| within(&written.cells[usize::from(cell.0)], &body);
        let changes = cell_changes(condition.cell.value)
            || condition
                .also
                .as_ref()
                .is_some_and(|also| cell_changes(also.value))
            || within(&written.vars[condition.var.value as usize], &body);
        if !changes {
            let line = &program.lines[condition_index];
            diagnostics.push(
                Diagnostic::warning("this loop's condition can never change", line.span.clone())
                    .with_label("nothing in the loop writes the cells or the variable compared here")
                    .with_secondary(program.lines[label_index].span.clone(), "the loop starts here")
                    .with_help("once it loops back it loops forever; write to a compared cell or variable inside the loop"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::chesscode::syntax::parse;
    use crate::source::Source;

    fn messages(text: &str) -> Vec<String> {
        let program = parse(&Source::new("t.chc", text)).unwrap();
        check(&program).1.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn unmatched_conditions_are_errors() {
        assert_eq!(
            messages("a1#\nRa1\na1=R\n"),
            vec!["this loop condition has no label to loop back to"]
        );
        assert_eq!(
            messages("1/2 1/2\na1+\na1=R+\na1=R+\n"),
            vec![
                "variable R is read but never written",
                "this loop condition has no label to loop back to"
            ]
        );
    }

    #[test]
    fn loops_nest_at_most_max_depth_deep() {
        let nest = |depth: usize| {
            let mut text = "a1+\n".to_string();
            text.push_str(&"1/2 1/2\n".repeat(depth));
            text.push_str(&"a1=R\n".repeat(depth));
            text
        };
        assert!(!messages(&nest(MAX_LOOP_DEPTH))
            .iter()
            .any(|m| m.contains("nest")));
        let deep = messages(&nest(50_000));
        let nesting: Vec<_> = deep.iter().filter(|m| m.contains("nest")).collect();
        assert_eq!(nesting, ["loops nest more than 256 deep here"]);
    }

    #[test]
    fn loops_pair_like_brackets() {
        let program = parse(&Source::new(
            "t.chc",
            "1/2 1/2\n1/2 1/2\na1+\nRa1\na1=R+\na2+\nKa2\na2=K+\n",
        ))
        .unwrap();
        let (matches, diagnostics) = check(&program);
        assert!(!diagnostics.has_errors());
        assert_eq!(matches, LoopMatches::from([(4, 1), (7, 0)]));
    }

    #[test]
    fn warnings() {
        assert_eq!(messages("b2\n"), vec!["cell b2 is read but never written"]);
        assert_eq!(
            messages("a1#\n1/2 1/2\nb1+\na1=R+\n"),
            vec![
                "this loop's condition can never change",
                "variable R is read but never written"
            ]
        );
        assert_eq!(
            messages("a1#\nRa1\n1/2 1/2\na1xa1+\na1=R+\n"),
            Vec::<String>::new()
        );
        // The outer label pairs with nothing; the inner one with `a1=R+`.
        assert_eq!(
            messages("a1#\nRa1\n1/2 1/2\n1/2 1/2\na1xa1+\na1=R+\n"),
            vec!["no loop condition loops back to this label"]
        );
    }
}
