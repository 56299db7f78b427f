//! Chess Code IR → tables, for programs of more than
//! [`super::codegen::TABLE_ABOVE_LINES`] lines: the lines in order as
//! (source line, operation, label) in `static LINES`, each distinct
//! operation once in `static OPS`, the closed forms of counting loops
//! (deduplicated) in `static COUNTING` and of polynomial loops (one per
//! loop) in `static POLYNOMIAL`, all walked by `rt::chc::table::run_table`
//! in the runtime library. rustc's cost then stays nearly flat in the
//! program's size, where straight-line code cost it about 5 ms of CPU and
//! 45 KB a line; the closed forms keep loops that skip whole passes as
//! fast as in compiled code.
//!
//! A loop is its label's line (a counting loop's skips passes, a
//! polynomial loop's starts its wait), its body, and its condition's line,
//! which goes back to the line after the label (a polynomial loop's then
//! tries to skip the rest): the same steps, in the same order, as the
//! code of a small program.

use std::collections::HashMap;

use chess2rs_runtime::__private::chc::table::{Op, Place as Slot, Test};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::closed_form::{
    self, Addend, ClosedForm, Counting, Place, Polynomial, PureOp, WatchRole,
};
use super::ir::{Cell, Condition, Loop, Op as IrOp, Program, Stmt, Var};

/// The body of the entry function's closure for a large program: the
/// tables and the call that runs them.
pub fn generate(program: &Program) -> TokenStream {
    let mut tables = Tables::default();
    tables.block(&program.body);
    let Tables {
        ops,
        lines,
        counting,
        polynomial,
        ..
    } = tables;
    let lines = lines.iter().map(|&(at, op, label)| {
        let (at, op, label) = (
            Literal::u32_unsuffixed(at),
            Literal::u32_unsuffixed(op),
            Literal::u32_unsuffixed(label),
        );
        quote! { (#at, #op, #label) }
    });
    let ops_tokens = ops.iter().map(|op| op_tokens(*op));
    let (op_count, line_count, counting_count, polynomial_count) = (
        Literal::usize_unsuffixed(ops.len()),
        Literal::usize_unsuffixed(lines.len()),
        Literal::usize_unsuffixed(counting.len()),
        Literal::usize_unsuffixed(polynomial.len()),
    );
    quote! {
        /// The program's distinct operations. Places are numbers: cells
        /// a1 = 0, b1 = 1, ..., h8 = 63, variables R N B Q K = 64 ... 68.
        static OPS: [rt::chc::table::Op; #op_count] = [#(#ops_tokens),*];
        /// Each line in order: its source line, its entry in [`OPS`] and,
        /// for a loop's condition, the index of its label in `LINES`
        /// (the loop goes back to the line after it).
        static LINES: [(u32, u32, u32); #line_count] = [#(#lines),*];
        /// The closed forms of counting loops, skipped at their label.
        static COUNTING: [rt::chc::table::Counting<'static>; #counting_count] = [#(#counting),*];
        /// The closed forms of polynomial loops, one per loop.
        static POLYNOMIAL: [rt::chc::table::Polynomial<'static>; #polynomial_count] = [#(#polynomial),*];
        rt::chc::table::run_table(
            &rt::chc::table::Table {
                ops: &OPS,
                lines: &LINES,
                counting: &COUNTING,
                polynomial: &POLYNOMIAL,
            },
            io,
            steps,
        )
    }
}

/// The tables under construction.
#[derive(Default)]
struct Tables {
    /// The distinct operations, in order of first use.
    ops: Vec<Op>,
    /// Each operation's index in `ops`.
    op_index: HashMap<Op, u32>,
    /// (source line, operation, label index) per line.
    lines: Vec<(u32, u32, u32)>,
    /// The distinct counting forms' tokens.
    counting: Vec<TokenStream>,
    /// Each counting form's index, by its tokens' text.
    counting_index: HashMap<String, u32>,
    /// The polynomial forms' tokens, one per loop.
    polynomial: Vec<TokenStream>,
}

impl Tables {
    /// Adds a line; returns its index.
    fn line(&mut self, at: u32, op: Op, label: u32) -> u32 {
        let next = self.ops.len() as u32;
        let index = *self.op_index.entry(op).or_insert(next);
        if index == next {
            self.ops.push(op);
        }
        self.lines.push((at, index, label));
        self.lines.len() as u32 - 1
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
                let tokens = counting_tokens(&form, body.condition).to_string();
                let next = self.counting.len() as u32;
                let index = *self.counting_index.entry(tokens).or_insert(next);
                if index == next {
                    self.counting.push(counting_tokens(&form, body.condition));
                }
                (Op::Counting(index), Op::Back(test))
            }
            Some(ClosedForm::Polynomial(form)) => {
                let id = self.polynomial.len() as u32;
                self.polynomial.push(polynomial_tokens(&form));
                (Op::Polynomial(id), Op::BackPolynomial(test, id))
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
        Op::Counting(form) => {
            let form = index(form);
            quote! { rt::chc::table::Op::Counting(#form) }
        }
        Op::Polynomial(id) => {
            let id = index(id);
            quote! { rt::chc::table::Op::Polynomial(#id) }
        }
        Op::Back(test) => {
            let test = test_tokens(test);
            quote! { rt::chc::table::Op::Back(#test) }
        }
        Op::BackPolynomial(test, id) => {
            let (test, id) = (test_tokens(test), index(id));
            quote! { rt::chc::table::Op::BackPolynomial(#test, #id) }
        }
    }
}

fn addend_tokens(addend: Addend) -> TokenStream {
    match addend {
        Addend::One => quote! { rt::chc::table::Addend::One },
        Addend::Place(place) => {
            let place = number(slot(place));
            quote! { rt::chc::table::Addend::Place(#place) }
        }
    }
}

/// A counting loop's `rt::chc::table::Counting`.
fn counting_tokens(form: &Counting, condition: Condition) -> TokenStream {
    let steps = Literal::u64_unsuffixed(form.steps_per_pass);
    let changed = form.changed.iter().map(|(place, adds)| {
        let place = number(slot(*place));
        let adds = adds.iter().map(|addend| addend_tokens(*addend));
        quote! { (#place, &[#(#adds),*]) }
    });
    let test = test_tokens(test(condition));
    quote! {
        rt::chc::table::Counting {
            steps_per_pass: #steps,
            changed: &[#(#changed),*],
            test: #test,
        }
    }
}

/// A polynomial loop's `rt::chc::table::Polynomial`.
fn polynomial_tokens(form: &Polynomial) -> TokenStream {
    let degree = Literal::usize_unsuffixed(form.degree);
    let warmup = form.warmup;
    let roles = form.roles.iter().map(|role| match role {
        WatchRole::Value => quote! { rt::chc::Role::Value },
        WatchRole::Inside => quote! { rt::chc::Role::Inside },
        WatchRole::Positive => quote! { rt::chc::Role::Positive },
        WatchRole::Sign(group) => {
            let group = Literal::u16_unsuffixed(*group);
            quote! { rt::chc::Role::Sign(#group) }
        }
        WatchRole::Apart(group) => {
            let group = Literal::u16_unsuffixed(*group);
            quote! { rt::chc::Role::Apart(#group) }
        }
    });
    let exit = form.exit;
    let (cell, var) = (
        Literal::usize_unsuffixed(exit.cell),
        Literal::usize_unsuffixed(exit.var),
    );
    let also = match exit.also {
        Some(also) => {
            let also = Literal::usize_unsuffixed(also);
            quote! { Some(#also) }
        }
        None => quote! { None },
    };
    let negated = exit.negated;
    let state = form.state.iter().map(|place| number(slot(*place)));
    let ops = form.ops.iter().map(pure_op_tokens);
    let fixed = Literal::u64_unsuffixed(form.fixed_steps);
    quote! {
        rt::chc::table::Polynomial {
            shape: rt::chc::Shape {
                degree: #degree,
                warmup: #warmup,
                roles: &[#(#roles),*],
                exit: rt::chc::Exit { cell: #cell, var: #var, also: #also, negated: #negated },
            },
            state: &[#(#state),*],
            ops: &[#(#ops),*],
            fixed_steps: #fixed,
        }
    }
}

fn pure_op_tokens(op: &PureOp) -> TokenStream {
    let slot_number = |slot: usize| Literal::u32_unsuffixed(slot as u32);
    match op {
        PureOp::Add { to, addend } => {
            let (to, addend) = (number(slot(*to)), addend_tokens(*addend));
            quote! { rt::chc::table::PureOp::Add(#to, #addend) }
        }
        PureOp::Assign { to, from } => {
            let (to, from) = (number(slot(*to)), number(slot(*from)));
            quote! { rt::chc::table::PureOp::Assign(#to, #from) }
        }
        PureOp::Watch {
            slot: watched,
            value,
        } => {
            let (watched, value) = (slot_number(*watched), addend_tokens(*value));
            quote! { rt::chc::table::PureOp::Watch(#watched, #value) }
        }
        PureOp::WatchGap {
            slot: watched,
            from,
            to,
            plus,
            minus,
        } => {
            let watched = slot_number(*watched);
            let (from, to) = (number(slot(*from)), number(slot(*to)));
            let plus = plus.iter().map(|addend| addend_tokens(*addend));
            let minus = minus.iter().map(|addend| addend_tokens(*addend));
            quote! {
                rt::chc::table::PureOp::WatchGap {
                    slot: #watched,
                    from: #from,
                    to: #to,
                    plus: &[#(#plus),*],
                    minus: &[#(#minus),*],
                }
            }
        }
        PureOp::Inner(inner) => {
            let count = slot_number(inner.count_slot);
            match &*inner.closed {
                ClosedForm::Counting(form) => {
                    let form = counting_tokens(form, inner.condition);
                    quote! { rt::chc::table::PureOp::InnerCounting(#count, &#form) }
                }
                ClosedForm::Polynomial(form) => {
                    let (test, form) =
                        (test_tokens(test(inner.condition)), polynomial_tokens(form));
                    quote! { rt::chc::table::PureOp::InnerPolynomial(#count, #test, &#form) }
                }
            }
        }
    }
}
