//! The lowered Chess Code program: a tree of statements in which each
//! matched label/condition pair has become a do-while loop. Both the code
//! generator and the interpreter consume this.

pub use super::syntax::{Cell, Var};
use crate::runtime_errors::CommandSite;
use crate::source::Span;

/// A program ready to run or to generate code from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The top-level statements.
    pub body: Vec<Stmt>,
    /// The source file's name.
    pub source_name: String,
}

/// A statement: one source line, or a loop spanning several.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stmt {
    /// One command.
    Step(Step),
    /// `1/2 1/2`, body, condition: the body runs, then loops back while the
    /// condition holds.
    Loop(Loop),
}

/// Every command of `body` that runs (commands, loop labels and
/// conditions), with where it is, in no particular order.
pub fn command_sites(body: &[Stmt]) -> Vec<CommandSite> {
    let mut sites = Vec::new();
    let mut pending: Vec<&[Stmt]> = vec![body];
    while let Some(stmts) = pending.pop() {
        for stmt in stmts {
            match stmt {
                Stmt::Step(step) => {
                    sites.push(CommandSite::line(step.source_line, step.span.clone()));
                }
                Stmt::Loop(looped) => {
                    sites.push(CommandSite::line(
                        looped.label_line,
                        looped.label_span.clone(),
                    ));
                    sites.push(CommandSite::line(
                        looped.condition_line,
                        looped.condition_span.clone(),
                    ));
                    pending.push(&looped.body);
                }
            }
        }
    }
    sites
}

/// A command with the source line it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// 1-based line number in the source file.
    pub source_line: u32,
    /// Where its command is (comment and blanks left out): what its
    /// run-time errors point at.
    pub span: Span,
    /// The source text.
    pub text: String,
    /// What it does.
    pub op: Op,
}

/// A do-while loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The label's source line (executed once, on entry).
    pub label_line: u32,
    /// Where the label is.
    pub label_span: Span,
    /// The statements between label and condition.
    pub body: Vec<Stmt>,
    /// The condition's source line and text.
    pub condition_line: u32,
    /// Where the condition is.
    pub condition_span: Span,
    /// The condition's source text.
    pub condition_text: String,
    /// The condition.
    pub condition: Condition,
}

/// Loop back while this holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Condition {
    /// The cell compared.
    pub cell: Cell,
    /// A second cell compared with `cell` (`CxD=V`).
    pub also: Option<Cell>,
    /// The variable compared with `cell`.
    pub var: Var,
    /// Loop back on inequality (`+`) instead of equality.
    pub negated: bool,
}

/// One command, without spans.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// Output a cell.
    Output(Cell),
    /// C = D.
    Copy(Cell, Cell),
    /// C = C + 1.
    Increment(Cell),
    /// C = C + D.
    AddCell(Cell, Cell),
    /// C = input.
    Input(Cell),
    /// Output mode ASCII.
    AsciiMode,
    /// Output mode raw.
    RawMode,
    /// V = C.
    VarFromCell(Var, Cell),
    /// C = V.
    CellFromVar(Var, Cell),
    /// V = V + C.
    VarAddCell(Var, Cell),
    /// C = C + V.
    CellAddVar(Var, Cell),
    /// V = C = input.
    VarInput(Var, Cell),
    /// A label no condition loops back to: does nothing.
    Label,
}
