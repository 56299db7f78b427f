//! Chess Code checks: every loop condition has a label (error); labels
//! with no condition, cells and variables read but never written, and
//! loops whose condition cannot change (warnings). Also computes the label of each condition.
//!
//! The checks read each line's [`Facts`]: what kind of line it is, the
//! cells and variable it reads (with where) and writes, as small numbers.
//! They are two passes over an array, nothing allocated per line, and a
//! diagnostic's text is made only when it is kept
//! ([`Diagnostics::push_with`]). [`check`] takes the facts from a parsed
//! program; [`Lines`] keeps them for a document open in the language
//! server and re-reads only the lines an edit changed, so that checking a
//! 10 MB program again after a keystroke costs those passes and not a
//! parse.

use std::collections::BTreeMap;

use super::syntax::{self, Command, Line, Program};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::lang::line_facts::{InSource, LineFact, LineFacts};
use crate::source::{Source, Span};

/// The index of the label line each condition line loops back to.
pub type LoopMatches = BTreeMap<usize, usize>;

/// The loop matches (complete if there are no errors) and the diagnostics
/// for `program`.
pub fn check(program: &Program) -> (LoopMatches, Diagnostics) {
    let facts: Vec<Facts> = (program.lines.iter())
        .map(|line| Facts::of_command(&line.command, line.span.start))
        .collect();
    let mut matches = Vec::new();
    let diagnostics = diagnose(&facts, program, Some(&mut matches));
    (matches.into_iter().collect(), diagnostics)
}

/// How deep loops may nest: far beyond real programs, and about as deep
/// as rustc compiles the nested `loop`s they become (1,000 overflow its
/// stack).
pub const MAX_LOOP_DEPTH: usize = 256;

/// Cells, variables and offsets that stand for none.
const NONE: u8 = u8::MAX;

/// What a line is to the checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Blank, or a comment.
    Blank,
    /// A line that does not parse.
    Error,
    /// `1/2 1/2`.
    Label,
    /// A loop condition.
    Condition,
    /// Any other command.
    Other,
}

/// One line as the checks read it ([`Lines`] keeps one for each line of
/// a document). Offsets are bytes from the start of its command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Facts {
    kind: Kind,
    /// Where in the source line its command starts (for a line that does
    /// not parse: its error), and how long the command is.
    indent: u32,
    length: u32,
    /// The cells read, in order, and where: a condition's compared cells.
    reads: [(u8, u8); 2],
    /// The variable read and where: a condition's compared one.
    read_var: (u8, u8),
    /// The cell and the variable written.
    writes: (u8, u8),
}

impl Facts {
    /// A line with nothing in it.
    const BLANK: Facts = Facts {
        kind: Kind::Blank,
        indent: 0,
        length: 0,
        reads: [(NONE, 0); 2],
        read_var: (NONE, 0),
        writes: (NONE, NONE),
    };

    /// The facts of `command`, written from byte `start`.
    fn of_command(command: &Command, start: usize) -> Facts {
        let mut facts = Facts {
            kind: Kind::Other,
            ..Facts::BLANK
        };
        let at = |span: &Span| u8::try_from(span.start.saturating_sub(start)).unwrap_or(NONE);
        let mut read = |cell: &crate::source::Spanned<syntax::Cell>| {
            let slot = usize::from(facts.reads[0].0 != NONE);
            facts.reads[slot] = (cell.value.0, at(&cell.span));
        };
        let mut writes = (NONE, NONE);
        let mut read_var = (NONE, 0);
        match command {
            Command::Output(c) => read(c),
            Command::Copy { to, from } | Command::AddCell { to, from } => {
                read(from);
                writes.0 = to.value.0;
            }
            Command::Increment(c) | Command::Input(c) => writes.0 = c.value.0,
            Command::VarFromCell(v, c) | Command::VarAddCell(v, c) => {
                read(c);
                writes.1 = v.value as u8;
            }
            Command::CellFromVar(v, c) | Command::CellAddVar(v, c) => {
                read_var = (v.value as u8, at(&v.span));
                writes.0 = c.value.0;
            }
            Command::VarInput(v, c) => writes = (c.value.0, v.value as u8),
            Command::Condition(condition) => {
                read(&condition.cell);
                if let Some(also) = &condition.also {
                    read(also);
                }
                read_var = (condition.var.value as u8, at(&condition.var.span));
            }
            Command::AsciiMode | Command::RawMode | Command::Label => {}
        }
        facts.writes = writes;
        facts.read_var = read_var;
        facts.kind = match command {
            Command::Label => Kind::Label,
            Command::Condition(_) => Kind::Condition,
            _ => Kind::Other,
        };
        facts
    }
}

/// Where the checks find the lines whose [`Facts`] they read.
trait Located {
    /// Where line `index`'s command starts.
    fn start(&self, index: usize) -> usize;

    /// Its span (its command).
    fn span(&self, index: usize) -> Span;
}

impl Located for Program {
    fn start(&self, index: usize) -> usize {
        self.lines[index].span.start
    }

    fn span(&self, index: usize) -> Span {
        self.lines[index].span.clone()
    }
}

/// The diagnostics of the lines `facts` (found in `located`), sorted;
/// each condition's label goes to `matches`, if given.
fn diagnose(
    facts: &[Facts],
    located: &impl Located,
    matches: Option<&mut Vec<(usize, usize)>>,
) -> Diagnostics {
    let mut diagnostics = Diagnostics::default();
    let walked = walk(facts, located, matches, &mut diagnostics);
    unmatched_labels(&walked.open, located, &mut diagnostics);
    never_written(facts, &walked, located, &mut diagnostics);
    unchanging_conditions(&walked.unchanging, located, &mut diagnostics);
    diagnostics.sort();
    diagnostics
}

/// What one walk over the lines learns for the warnings after it.
struct Walked {
    /// The labels no condition paired with.
    open: Vec<usize>,
    /// The last line that wrote each cell.
    cell_written: [Option<usize>; 64],
    /// The last line that wrote each variable.
    var_written: [Option<usize>; 5],
    /// The cells read anywhere (a bit each).
    cells_read: u64,
    /// The variables read anywhere (a bit each).
    vars_read: u8,
    /// The loops (condition, label) whose condition nothing in them writes.
    unchanging: Vec<(usize, usize)>,
}

/// Pairs labels with conditions (errors: too deep, a condition with no
/// label) and notes what each line reads and writes.
fn walk(
    facts: &[Facts],
    located: &impl Located,
    mut matches: Option<&mut Vec<(usize, usize)>>,
    diagnostics: &mut Diagnostics,
) -> Walked {
    // Labels are opening brackets, conditions closing ones.
    let mut open: Vec<usize> = Vec::new();
    // The last line before this one that wrote each cell and variable.
    let mut cell_written = [None; 64];
    let mut var_written = [None; 5];
    let (mut cells_read, mut vars_read) = (0u64, 0u8);
    // The loops whose condition nothing in them writes.
    let mut unchanging = Vec::new();
    for (index, line) in facts.iter().enumerate() {
        match line.kind {
            Kind::Blank | Kind::Error => continue,
            Kind::Label => {
                open.push(index);
                if open.len() == MAX_LOOP_DEPTH + 1 {
                    diagnostics.push_with(Severity::Error, located.start(index), || {
                        Diagnostic::error(
                            Code::Limit,
                            format!("loops nest more than {MAX_LOOP_DEPTH} deep here"),
                            located.span(index),
                        )
                        .with_label(format!("loop {} inside the others", MAX_LOOP_DEPTH + 1))
                        .with_help(
                            "rustc cannot compile code nested much deeper; flatten some loops",
                        )
                    });
                }
            }
            Kind::Condition => match open.pop() {
                Some(label) => {
                    if let Some(matches) = matches.as_deref_mut() {
                        matches.push((index, label));
                    }
                    let since = |written: Option<usize>| written.is_some_and(|at| at > label);
                    let changes = (line.reads.iter())
                        .any(|&(cell, _)| cell != NONE && since(cell_written[usize::from(cell)]))
                        || since(
                            var_written
                                .get(usize::from(line.read_var.0))
                                .copied()
                                .flatten(),
                        );
                    if !changes {
                        unchanging.push((index, label));
                    }
                }
                None => {
                    let start = located.start(index) + usize::from(line.reads[0].1);
                    diagnostics.push_with(Severity::Error, start, || {
                        Diagnostic::error(
                            Code::ChcConditionWithoutLabel,
                            "this loop condition has no label to loop back to",
                            start..located.span(index).end,
                        )
                        .with_label("no `1/2 1/2` before it is left unmatched")
                        .with_help("put a `1/2 1/2` line where the loop should start")
                    });
                }
            },
            Kind::Other => {}
        }
        for &(cell, _) in &line.reads {
            if cell != NONE {
                cells_read |= 1 << cell;
            }
        }
        if line.read_var.0 != NONE {
            vars_read |= 1 << line.read_var.0;
        }
        if let Some(cell) = cell_written.get_mut(usize::from(line.writes.0)) {
            *cell = Some(index);
        }
        if let Some(var) = var_written.get_mut(usize::from(line.writes.1)) {
            *var = Some(index);
        }
    }
    Walked {
        open,
        cell_written,
        var_written,
        cells_read,
        vars_read,
        unchanging,
    }
}

/// A label no condition pairs with: a warning.
fn unmatched_labels(open: &[usize], located: &impl Located, diagnostics: &mut Diagnostics) {
    // A label no condition pairs with does nothing: harmless, but rarely
    // what was meant.
    for &label in open {
        diagnostics.push_with(Severity::Warning, located.start(label), || {
            Diagnostic::warning(
                Code::ChcLabelWithoutCondition, "no loop condition loops back to this label",
                located.span(label),
            )
            .with_label("a loop that never repeats")
            .with_help(
                "end the loop with a condition line such as `a1=R` (loop back while a1 = R), or delete this line",
            )
        });
    }
}

/// A warning where each cell and variable that is read but never written
/// is first read.
fn never_written(
    facts: &[Facts],
    walked: &Walked,
    located: &impl Located,
    diagnostics: &mut Diagnostics,
) {
    // Cells and variables read but never written: each where it is first
    // read.
    let unwritten = |written: &[Option<usize>], read: u64| {
        (0..written.len())
            .filter(|&at| written[at].is_none() && read & (1 << at) != 0)
            .fold(0u64, |mask, at| mask | (1 << at))
    };
    let mut cells = unwritten(&walked.cell_written, walked.cells_read);
    let mut vars = unwritten(&walked.var_written, u64::from(walked.vars_read));
    for (index, line) in facts.iter().enumerate() {
        if cells == 0 && vars == 0 {
            break;
        }
        let start = || located.start(index);
        for &(cell, at) in &line.reads {
            if cell != NONE && cells & (1 << cell) != 0 {
                cells &= !(1 << cell);
                let at = start() + usize::from(at);
                diagnostics.push_with(Severity::Warning, at, || {
                    Diagnostic::warning(
                        Code::ChcNeverWritten,
                        format!(
                            "cell {} is read but never written",
                            syntax::Cell(cell).name()
                        ),
                        at..at + 2,
                    )
                    .with_label("always 0 here")
                    .with_help("nothing in the program sets this cell; did you mean another one?")
                });
            }
        }
        let (var, at) = line.read_var;
        if var != NONE && vars & (1 << var) != 0 {
            vars &= !(1 << var);
            let at = start() + usize::from(at);
            diagnostics.push_with(Severity::Warning, at, || {
                let letter = syntax::Var::ALL[usize::from(var)].letter();
                Diagnostic::warning(
                    Code::ChcNeverWritten,
                    format!("variable {letter} is read but never written"),
                    at..at + 1,
                )
                .with_label("always 0 here")
                .with_help("nothing in the program sets this variable; did you mean another one?")
            });
        }
    }
}

/// A warning on each loop whose condition can never change.
fn unchanging_conditions(
    unchanging: &[(usize, usize)],
    located: &impl Located,
    diagnostics: &mut Diagnostics,
) {
    for &(condition, label) in unchanging {
        diagnostics.push_with(Severity::Warning, located.start(condition), || {
            Diagnostic::warning(Code::ChcUnchangingLoop, "this loop's condition can never change", located.span(condition))
                .with_label("nothing in the loop writes the cells or the variable compared here")
                .with_secondary(located.span(label), "the loop starts here")
                .with_help("once it loops back it loops forever; write to a compared cell or variable inside the loop")
        });
    }
}

impl LineFact for Facts {
    type Parsed = Line;
    const SYNTAX: Code = Code::ChcNotACommand;

    fn parse(source: &Source, index: usize) -> Option<Result<Line, Diagnostic>> {
        syntax::parse_line(source, index)
    }

    fn of(line: &Line, start: usize) -> Facts {
        let offset = |at: usize| u32::try_from(at.saturating_sub(start)).unwrap_or(u32::MAX);
        Facts {
            indent: offset(line.span.start),
            length: offset(line.span.end) - offset(line.span.start),
            ..Facts::of_command(&line.command, line.span.start)
        }
    }

    fn blank() -> Facts {
        Facts::BLANK
    }

    fn error(at: u32) -> Facts {
        Facts {
            kind: Kind::Error,
            indent: at,
            ..Facts::BLANK
        }
    }

    fn error_at(&self) -> Option<u32> {
        (self.kind == Kind::Error).then_some(self.indent)
    }

    /// The checks' errors and warnings (lowering a Chess Code program adds
    /// none).
    fn check(lines: InSource<'_, Facts>) -> Diagnostics {
        diagnose(lines.facts, &lines, None)
    }
}

/// A program's lines as the checks read them, kept for a document that
/// is being edited: [`LineFacts::edited`] re-reads only the lines an edit
/// changed, and [`LineFacts::diagnostics`] checks the facts kept.
pub type Lines = LineFacts<Facts>;

impl Located for InSource<'_, Facts> {
    fn start(&self, index: usize) -> usize {
        self.source.line_start(index).unwrap_or(0) + self.facts[index].indent as usize
    }

    fn span(&self, index: usize) -> Span {
        let start = self.start(index);
        start..start + self.facts[index].length as usize
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
