//! Chess Code IR → tables, for programs of more than
//! [`super::codegen::TABLE_ABOVE_LINES`] lines: the lines in order as
//! (source line, operation, label) in `static LINES`, each distinct
//! operation once in `static OPS`, and the loops' closed forms (each
//! distinct one once) as words in `static FORMS` (`rt::chc::table::Form`),
//! walked by `rt::chc::table::run_table` in the runtime library. rustc's
//! cost then stays nearly flat in the program's size, where straight-line
//! code cost it about 5 ms of CPU and 45 KB a line; the closed forms keep
//! loops that skip whole passes as fast as in compiled code.
//!
//! A loop is its label's line (a counting loop's skips passes, a
//! polynomial loop's starts its wait), its body, and its condition's line,
//! which goes back to the line after the label (a polynomial loop's then
//! tries to skip the rest): the same steps, in the same order, as the
//! code of a small program.

use std::collections::HashMap;
use std::io::{BufRead, Write};

use chess2rs_runtime::__private::chc::table::{
    self as rt_table, Addend as RtAddend, Form, Op, Place as Slot, PureOp as RtPureOp, Test,
};
use chess2rs_runtime::__private::chc::{Exit, Role};
use chess2rs_runtime::__private::{Io, StepCounter};
use chess2rs_runtime::RuntimeError;
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::closed_form::{
    self, Addend, ClosedForm, Counting, Place, Polynomial, PureOp, WatchRole,
};
use super::ir::{Cell, Condition, Loop, Op as IrOp, Program, Stmt, Var};

/// A program's tables, as its generated code holds them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tables {
    /// The distinct operations, in order of first use.
    pub ops: Vec<Op>,
    /// (source line, index in `ops`, for a condition its label's index in
    /// `lines`) per line, in order.
    pub lines: Vec<(u32, u32, u32)>,
    /// The distinct closed forms, encoded one after another.
    pub forms: Vec<u32>,
}

impl Tables {
    /// The tables of `program` (of any size).
    pub fn of(program: &Program) -> Tables {
        let mut builder = Builder::default();
        builder.block(&program.body);
        builder.tables
    }

    /// Runs the tables as generated code does.
    pub fn run<R: BufRead, W: Write>(
        &self,
        io: &mut Io<R, W>,
        steps: &mut StepCounter,
    ) -> Result<(), RuntimeError> {
        let table = rt_table::Table {
            ops: &self.ops,
            lines: &self.lines,
            forms: &self.forms,
        };
        rt_table::run_table(&table, io, steps)
    }
}

/// The body of the entry function's closure for a large program: the
/// tables and the call that runs them.
pub fn generate(program: &Program) -> TokenStream {
    let Tables { ops, lines, forms } = Tables::of(program);
    let lines = lines.iter().map(|&(at, op, label)| {
        let (at, op, label) = (
            Literal::u32_unsuffixed(at),
            Literal::u32_unsuffixed(op),
            Literal::u32_unsuffixed(label),
        );
        quote! { (#at, #op, #label) }
    });
    let words = forms.iter().map(|&word| Literal::u32_unsuffixed(word));
    let ops_tokens = ops.iter().map(|op| op_tokens(*op));
    let (op_count, line_count, word_count) = (
        Literal::usize_unsuffixed(ops.len()),
        Literal::usize_unsuffixed(lines.len()),
        Literal::usize_unsuffixed(forms.len()),
    );
    quote! {
        /// The program's distinct operations. Places are numbers: cells
        /// a1 = 0, b1 = 1, ..., h8 = 63, variables R N B Q K = 64 ... 68;
        /// a loop's label and condition name its closed form, if any, by
        /// its index among the forms of [`FORMS`].
        static OPS: [rt::chc::table::Op; #op_count] = [#(#ops_tokens),*];
        /// Each line in order: its source line, its entry in [`OPS`] and,
        /// for a loop's condition, the index of its label in `LINES`
        /// (the loop goes back to the line after it).
        static LINES: [(u32, u32, u32); #line_count] = [#(#lines),*];
        /// The closed forms of the loops, each written once as words
        /// (`rt::chc::table::Form::encode`).
        static FORMS: [u32; #word_count] = [#(#words),*];
        rt::chc::table::run_table(
            &rt::chc::table::Table {
                ops: &OPS,
                lines: &LINES,
                forms: &FORMS,
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
    /// Each operation's index in `ops`.
    op_index: HashMap<Op, u32>,
    /// Each form's index, by its words.
    form_index: HashMap<Vec<u32>, u32>,
}

impl Builder {
    /// Adds a line; returns its index.
    fn line(&mut self, at: u32, op: Op, label: u32) -> u32 {
        let ops = &mut self.tables.ops;
        let next = ops.len() as u32;
        let index = *self.op_index.entry(op).or_insert(next);
        if index == next {
            ops.push(op);
        }
        self.tables.lines.push((at, index, label));
        self.tables.lines.len() as u32 - 1
    }

    /// The index of `form`, written once.
    fn form(&mut self, form: &Form) -> u32 {
        let mut words = Vec::new();
        form.encode(&mut words);
        let next = self.form_index.len() as u32;
        let forms = &mut self.tables.forms;
        *self.form_index.entry(words).or_insert_with_key(|words| {
            forms.extend_from_slice(words);
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

fn number(slot: Slot) -> Literal {
    Literal::u8_unsuffixed(slot)
}

fn test_tokens(test: Test) -> TokenStream {
    let (cell, var, negated) = (number(test.cell), number(test.var), test.negated);
    let also = match test.also {
        Some(also) => {
            let also = number(also);
            quote! { Some(#also) }
        }
        None => quote! { None },
    };
    quote! { rt::chc::table::Test { cell: #cell, var: #var, also: #also, negated: #negated } }
}

fn op_tokens(op: Op) -> TokenStream {
    let index = |value: u32| Literal::u32_unsuffixed(value);
    match op {
        Op::Nop => quote! { rt::chc::table::Op::Nop },
        Op::Copy(to, from) => {
            let (to, from) = (number(to), number(from));
            quote! { rt::chc::table::Op::Copy(#to, #from) }
        }
        Op::Add(to, from) => {
            let (to, from) = (number(to), number(from));
            quote! { rt::chc::table::Op::Add(#to, #from) }
        }
        Op::Increment(to) => {
            let to = number(to);
            quote! { rt::chc::table::Op::Increment(#to) }
        }
        Op::Output(cell) => {
            let cell = number(cell);
            quote! { rt::chc::table::Op::Output(#cell) }
        }
        Op::Input(cell) => {
            let cell = number(cell);
            quote! { rt::chc::table::Op::Input(#cell) }
        }
        Op::InputBoth(var, cell) => {
            let (var, cell) = (number(var), number(cell));
            quote! { rt::chc::table::Op::InputBoth(#var, #cell) }
        }
        Op::Mode(ascii) => quote! { rt::chc::table::Op::Mode(#ascii) },
        Op::Polynomial(id) => {
            let id = index(id);
            quote! { rt::chc::table::Op::Polynomial(#id) }
        }
        Op::Back(test) => {
            let test = test_tokens(test);
            quote! { rt::chc::table::Op::Back(#test) }
        }
        Op::BackCounting(test, form) => {
            let (test, form) = (test_tokens(test), index(form));
            quote! { rt::chc::table::Op::BackCounting(#test, #form) }
        }
        Op::BackPolynomial(test, id) => {
            let (test, id) = (test_tokens(test), index(id));
            quote! { rt::chc::table::Op::BackPolynomial(#test, #id) }
        }
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
    let roles = form
        .roles
        .iter()
        .map(|role| match *role {
            WatchRole::Value => Role::Value,
            WatchRole::Inside => Role::Inside,
            WatchRole::Positive => Role::Positive,
            WatchRole::Sign(group) => Role::Sign(group),
            WatchRole::Apart(group) => Role::Apart(group),
        })
        .collect();
    let exit = form.exit;
    rt_table::Polynomial {
        degree: form.degree,
        warmup: form.warmup,
        roles,
        exit: Exit {
            cell: exit.cell,
            var: exit.var,
            also: exit.also,
            negated: exit.negated,
        },
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
        } => RtPureOp::WatchGap {
            slot: watched(*at),
            from: slot(*from),
            to: slot(*to),
            plus: addends(plus),
            minus: addends(minus),
        },
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
    use super::*;
    use crate::lang::chesscode::{check, lower, syntax};
    use crate::source::Source;

    fn tables(text: &str) -> Tables {
        let source = Source::new("t.chc", text);
        let tree = syntax::parse(&source).expect("parses");
        let (matches, _) = check::check(&tree);
        Tables::of(&lower::lower(&tree, &matches, "t.chc"))
    }

    #[test]
    fn lines_name_distinct_operations_and_forms() {
        // Two counting loops alike, a polynomial one, a loop that prints.
        let counting = "b1xa8\n1/2 1/2\nb1+\nb1=R+\n";
        let text = format!("{counting}{counting}1/2 1/2\nc1+\nd1xc1+\nc1=K+\n1/2 1/2\nd1\nd1=R+\n");
        let tables = tables(&text);
        let forms = Form::decode_all(&tables.forms);
        assert_eq!(forms.len(), 2, "{forms:?}");
        assert!(matches!(forms[0], Form::Counting(_)));
        assert!(matches!(forms[1], Form::Polynomial(_)));
        let ops: Vec<Op> = tables
            .lines
            .iter()
            .map(|&(_, op, _)| tables.ops[op as usize])
            .collect();
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
        assert_eq!(tables.lines[3], (4, 3, 1));
        assert_eq!(tables.lines[14], (15, 9, 12));
    }
}
