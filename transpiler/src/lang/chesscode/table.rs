//! Chess Code IR → tables, for programs of more than
//! [`super::codegen::TABLE_ABOVE_LINES`] lines: the lines in order, one
//! operation each, in the text `LINES` (`rt::chc::table::write_line`), and
//! the loops' closed forms, each distinct one once, as words in the text
//! `FORMS` (`rt::chc::table::Form::encode`), which
//! `rt::chc::table::run_table` in the runtime library reads when the
//! program starts and walks. Two string literals are two tokens: rustc's
//! cost and the code generator's stay nearly flat in the program's size,
//! where straight-line code cost rustc about 5 ms of CPU and 45 KB a line
//! (and a table of Rust values, one value a line, cost the code generator
//! gigabytes at a million lines). The closed forms keep loops that skip
//! whole passes as fast as in compiled code.
//!
//! A loop is its label's line (a polynomial loop's starts its wait), its
//! body, and its condition's line, which goes back to the line after the
//! label (a counting loop's then skips whole passes, a polynomial loop's
//! tries to skip the rest once it waited): the same steps, in the same
//! order, as the code of a small program.

use std::collections::HashMap;
use std::io::{BufRead, Write};

use chess2rs_runtime::__private::chc::table::{
    self as rt_table, Addend as RtAddend, Form, Gap, Op, Place as Slot, PureOp as RtPureOp, Test,
};
use chess2rs_runtime::__private::{Io, StepCounter};
use chess2rs_runtime::RuntimeError;
use proc_macro2::TokenStream;
use quote::quote;

use super::closed_form::{self, Addend, ClosedForm, Counting, Place, Polynomial, PureOp};
use super::ir::{Cell, Condition, Loop, Op as IrOp, Program, Stmt, Var};
use crate::split::Items;

/// A program's tables.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tables {
    /// (source line, operation, for a condition its label's index in
    /// `lines`) per line, in order.
    pub lines: Vec<(u32, Op, u32)>,
    /// The distinct closed forms, each encoded.
    pub forms: Vec<Vec<u32>>,
}

impl Tables {
    /// The tables of `program` (of any size).
    pub fn of(program: &Program) -> Tables {
        let mut builder = Builder::default();
        builder.block(&program.body);
        builder.tables
    }

    /// The texts generated code holds: the lines and the forms.
    pub fn texts(&self) -> (String, String) {
        let mut lines = String::new();
        for &(at, op, label) in &self.lines {
            rt_table::write_line(&mut lines, at, op, label);
        }
        let mut forms = String::new();
        for words in &self.forms {
            let words: Vec<String> = words.iter().map(u32::to_string).collect();
            forms.push_str(&words.join(" "));
            forms.push('\n');
        }
        (lines, forms)
    }

    /// Runs the tables as generated code does (through their texts).
    pub fn run<R: BufRead, W: Write>(
        &self,
        io: &mut Io<R, W>,
        steps: &mut StepCounter,
    ) -> Result<(), RuntimeError> {
        let (lines, forms) = self.texts();
        let table = rt_table::Table {
            lines: &lines,
            forms: &forms,
        };
        rt_table::run_table(&table, io, steps)
    }
}

/// The body of the entry function's closure for a large program: the
/// tables and the call that runs them.
/// The texts are literals from `items` ([`Items::text`]).
pub fn generate(program: &Program, items: &mut dyn Items) -> TokenStream {
    let (lines, forms) = Tables::of(program).texts();
    let (lines, forms) = (items.text(&lines), items.text(&forms));
    quote! {
        /// Each line in order: its source line and what it does (places
        /// by name; a loop's condition goes back past its label, the line
        /// of that index here, while its test holds, and names its closed
        /// form, if any, by its index in [`FORMS`]).
        static LINES: &str = #lines;
        /// The closed forms of the loops, one a line, as words
        /// (`rt::chc::table::Form::encode`).
        static FORMS: &str = #forms;
        rt::chc::table::run_table(
            &rt::chc::table::Table {
                lines: LINES,
                forms: FORMS,
            },
            io,
            steps,
        )
    }
}

/// The tables under construction.
#[derive(Default)]
struct Builder {
    tables: Tables,
    /// Each form's index, by its words.
    form_index: HashMap<Vec<u32>, u32>,
}

impl Builder {
    /// Adds a line; returns its index.
    fn line(&mut self, at: u32, op: Op, label: u32) -> u32 {
        self.tables.lines.push((at, op, label));
        self.tables.lines.len() as u32 - 1
    }

    /// The index of `form`, written once.
    fn form(&mut self, form: &Form) -> u32 {
        let mut words = Vec::new();
        form.encode(&mut words);
        let next = self.form_index.len() as u32;
        let forms = &mut self.tables.forms;
        *self.form_index.entry(words).or_insert_with_key(|words| {
            forms.push(words.clone());
            next
        })
    }

    fn block(&mut self, statements: &[Stmt]) {
        for statement in statements {
            match statement {
                Stmt::Step(step) => {
                    self.line(step.source_line, step_op(step.op), 0);
                }
                Stmt::Loop(body) => self.looped(body),
            }
        }
    }

    /// A loop: its label (with its closed form), its body, its condition.
    fn looped(&mut self, body: &Loop) {
        let test = test(body.condition);
        let (label_op, back_op) = match closed_form::closed_form(body) {
            Some(ClosedForm::Counting(form)) => {
                let index = self.form(&Form::Counting(counting(&form, body.condition)));
                (Op::Nop, Op::BackCounting(test, index))
            }
            Some(ClosedForm::Polynomial(form)) => {
                let index = self.form(&Form::Polynomial(polynomial(&form)));
                (Op::Polynomial(index), Op::BackPolynomial(test, index))
            }
            None => (Op::Nop, Op::Back(test)),
        };
        let label = self.line(body.label_line, label_op, 0);
        self.block(&body.body);
        self.line(body.condition_line, back_op, label);
    }
}

/// A place's number in the tables.
fn slot(place: Place) -> Slot {
    match place {
        Place::Cell(cell) => cell_slot(cell),
        Place::Var(var) => var_slot(var),
    }
}

fn cell_slot(cell: Cell) -> Slot {
    cell.0
}

fn var_slot(var: Var) -> Slot {
    64 + var as u8
}

/// A condition as the runtime tests it.
fn test(condition: Condition) -> Test {
    Test {
        cell: cell_slot(condition.cell),
        var: var_slot(condition.var),
        also: condition.also.map(cell_slot),
        negated: condition.negated,
    }
}

/// A command's operation.
fn step_op(op: IrOp) -> Op {
    match op {
        IrOp::Output(c) => Op::Output(cell_slot(c)),
        IrOp::Copy(to, from) => Op::Copy(cell_slot(to), cell_slot(from)),
        IrOp::Increment(c) => Op::Increment(cell_slot(c)),
        IrOp::AddCell(to, from) => Op::Add(cell_slot(to), cell_slot(from)),
        IrOp::Input(c) => Op::Input(cell_slot(c)),
        IrOp::AsciiMode => Op::Mode(true),
        IrOp::RawMode => Op::Mode(false),
        IrOp::VarFromCell(v, c) => Op::Copy(var_slot(v), cell_slot(c)),
        IrOp::CellFromVar(v, c) => Op::Copy(cell_slot(c), var_slot(v)),
        IrOp::VarAddCell(v, c) => Op::Add(var_slot(v), cell_slot(c)),
        IrOp::CellAddVar(v, c) => Op::Add(cell_slot(c), var_slot(v)),
        IrOp::VarInput(v, c) => Op::InputBoth(var_slot(v), cell_slot(c)),
        IrOp::Label => Op::Nop,
    }
}

fn addend(addend: Addend) -> RtAddend {
    match addend {
        Addend::One => RtAddend::One,
        Addend::Place(place) => RtAddend::Place(slot(place)),
    }
}

fn addends(addends: &[Addend]) -> Vec<RtAddend> {
    addends.iter().map(|&a| addend(a)).collect()
}

/// A counting loop's closed form, with its condition.
fn counting(form: &Counting, condition: Condition) -> rt_table::Counting {
    rt_table::Counting {
        steps_per_pass: form.steps_per_pass,
        changed: form
            .changed
            .iter()
            .map(|(place, adds)| (slot(*place), addends(adds)))
            .collect(),
        test: test(condition),
    }
}

/// A polynomial loop's closed form.
fn polynomial(form: &Polynomial) -> rt_table::Polynomial {
    rt_table::Polynomial {
        degree: form.degree,
        warmup: form.warmup,
        roles: form.roles.clone(),
        exit: form.exit,
        state: form.state.iter().map(|&place| slot(place)).collect(),
        ops: form.ops.iter().map(pure_op).collect(),
        fixed_steps: form.fixed_steps,
    }
}

fn pure_op(op: &PureOp) -> RtPureOp {
    let watched = |slot: usize| slot as u32;
    match op {
        PureOp::Add { to, addend: a } => RtPureOp::Add(slot(*to), addend(*a)),
        PureOp::Assign { to, from } => RtPureOp::Assign(slot(*to), slot(*from)),
        PureOp::Watch { slot: at, value } => RtPureOp::Watch(watched(*at), addend(*value)),
        PureOp::WatchGap {
            slot: at,
            from,
            to,
            plus,
            minus,
        } => RtPureOp::WatchGap(Gap {
            slot: watched(*at),
            from: slot(*from),
            to: slot(*to),
            plus: addends(plus),
            minus: addends(minus),
        }),
        PureOp::Inner(inner) => {
            let at = watched(inner.count_slot);
            match &*inner.closed {
                ClosedForm::Counting(form) => {
                    RtPureOp::InnerCounting(at, counting(form, inner.condition))
                }
                ClosedForm::Polynomial(form) => {
                    RtPureOp::InnerPolynomial(at, test(inner.condition), Box::new(polynomial(form)))
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::lowered;
    use super::*;

    fn tables(text: &str) -> Tables {
        Tables::of(&lowered(text))
    }

    #[test]
    fn lines_name_distinct_operations_and_forms() {
        // Two counting loops alike, a polynomial one, a loop that prints.
        let counting = "b1xa8\n1/2 1/2\nb1+\nb1=R+\n";
        let text = format!("{counting}{counting}1/2 1/2\nc1+\nd1xc1+\nc1=K+\n1/2 1/2\nd1\nd1=R+\n");
        let tables = tables(&text);
        let forms: Vec<Form> = tables
            .forms
            .iter()
            .flat_map(|words| Form::decode_all(words))
            .collect();
        assert_eq!(forms.len(), 2, "{forms:?}");
        assert!(matches!(forms[0], Form::Counting(_)));
        assert!(matches!(forms[1], Form::Polynomial(_)));
        let ops: Vec<Op> = tables.lines.iter().map(|&(_, op, _)| op).collect();
        let b1_back = Op::BackCounting(
            Test {
                cell: 1,
                var: 64,
                also: None,
                negated: true,
            },
            0,
        );
        assert_eq!(
            ops[..4],
            [Op::Copy(1, 56), Op::Nop, Op::Increment(1), b1_back]
        );
        assert_eq!(ops[4..8], ops[..4]);
        assert!(matches!(ops[8], Op::Polynomial(1)));
        assert!(matches!(ops[11], Op::BackPolynomial(_, 1)));
        assert_eq!(ops[12], Op::Nop, "no closed form: it prints");
        // Each condition names its label's line index.
        assert_eq!(tables.lines[3], (4, b1_back, 1));
        assert_eq!(tables.lines[14].2, 12);
        let (lines, _) = tables.texts();
        assert!(
            lines.starts_with("1 copy b1 a8\n2 nop\n3 inc b1\n4 back 1 b1=R+ count 0\n"),
            "{lines}"
        );
    }
}
