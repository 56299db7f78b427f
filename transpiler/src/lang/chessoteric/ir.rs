//! The lowered Chessoteric/BTM program: only the Turing machine. Both the
//! code generator and the interpreter consume this.

use chess2rs_runtime::__private::tm;

use crate::runtime_errors::{CommandSite, ErrorSite};
use crate::source::Span;

/// A Turing machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Machine {
    /// The rules in order, one per (state, read); states 1 and 2 left out
    /// (input and output states never consult rules).
    pub rules: Vec<Rule>,
    /// The initial tape from cell 0.
    pub tape: Vec<i64>,
    /// The source file's name.
    pub source_name: String,
    /// Where each step comes from: the annotated move (or listing line) of
    /// each rule and initial tape symbol.
    pub sources: super::StepSources,
}

/// `(state, read) → (next, write, direction)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rule {
    /// What it does and the site its run-time errors name: the runtime's
    /// rule, as generated code's table holds it. The line is that of its
    /// first part (a game's annotated move, a listing's line), the column
    /// that move's 1-based column in characters (a line may hold many) or
    /// `0` for a listing's line. Errors in the input and output states
    /// name the rule that entered them.
    pub rule: tm::Rule,
    /// Where its five parts came from: the annotated moves of a game, with
    /// line and column, e.g. ``from `Qg8!` (1:47) to `Ne5!` (1:124)``, or
    /// the lines of a BTM listing, ``from `10!` (line 1) to `10!` (line
    /// 5)``.
    pub origin: String,
    /// Where its first part is: the annotated move, or the listing's line.
    pub span: Span,
}

impl Rule {
    /// The command its run-time errors name, and where it is.
    pub fn command(&self) -> CommandSite {
        CommandSite {
            site: ErrorSite {
                line: self.rule.line,
                column: self.rule.column,
            },
            span: self.span.clone(),
        }
    }
}

/// The machine's special states.
pub mod states {
    /// Reads a line of input.
    pub const INPUT: i64 = 1;
    /// Prints symbols until a 0.
    pub const OUTPUT: i64 = 2;
}

/// What a rule does, without where it came from:
/// `(state, read, next, write, left)`.
pub type RuleEffect = (i64, i64, i64, i64, bool);

impl Machine {
    /// The rules' effects in sorted order: two machines with the same
    /// effects and the same tape behave the same (rules are one per
    /// `(state, read)`, so their order never matters).
    pub fn rule_effects(&self) -> Vec<RuleEffect> {
        let mut effects: Vec<RuleEffect> = self
            .rules
            .iter()
            .map(|r| {
                (
                    r.rule.state,
                    r.rule.read,
                    r.rule.next,
                    r.rule.write,
                    r.rule.left,
                )
            })
            .collect();
        effects.sort_unstable();
        effects
    }

    /// The rule for `(state, read)`, if any.
    pub fn rule(&self, state: i64, read: i64) -> Option<&Rule> {
        self.rules
            .iter()
            .find(|r| r.rule.state == state && r.rule.read == read)
    }
}
