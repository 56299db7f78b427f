//! Chess Code IR → Rust: cells and variables become local `i64`s (only
//! those the program uses), loops become Rust `loop`s ending in the
//! condition, commands become straight-line arithmetic. Nothing is
//! dispatched at run time. A loop whose body only adds loop-invariant
//! amounts first skips whole passes in closed form (see
//! [`super::closed_form`]).

use std::collections::BTreeSet;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use super::closed_form::{self, Addend, Counting, Place};
use super::ir::{Cell, Condition, Loop, Op, Program, Stmt, Var};
use crate::emit::source_comment;
use crate::split::{self, Items, FUNCTION_WEIGHT};

/// The body of the entry function's closure (`io`, `steps`, `rt` in scope).
/// A large program is split into functions (see [`crate::split`]) that
/// share a `State` holding the locals, copied in and out around each call.
pub fn generate(program: &Program, items: &mut dyn Items) -> TokenStream {
    let mut cells = BTreeSet::new();
    let mut vars = BTreeSet::new();
    let mut outputs = false;
    collect(&program.body, &mut cells, &mut vars, &mut outputs);
    let mut locals: Vec<(Ident, TokenStream, TokenStream)> = Vec::new();
    for &c in &cells {
        locals.push((cell_ident(c), quote! { i64 }, quote! { 0 }));
    }
    for &v in &vars {
        locals.push((var_ident(v), quote! { i64 }, quote! { 0 }));
    }
    if outputs {
        locals.push((format_ident!("ascii"), quote! { bool }, quote! { false }));
    }
    // `ascii`'s type is clear from its value.
    let decls = locals.iter().map(|(name, ty, zero)| {
        if name == "ascii" {
            quote! { let mut #name = #zero; }
        } else {
            quote! { let mut #name: #ty = #zero; }
        }
    });
    let mut parts = Parts {
        split: weight(&program.body) > FUNCTION_WEIGHT,
        names: locals.iter().map(|(name, _, _)| name.clone()).collect(),
        count: 0,
        items,
    };
    let body = block(&program.body, None, &mut parts);
    if !parts.split {
        return quote! {
            #(#decls)*
            #body
            Ok(())
        };
    }
    let fields = locals.iter().map(|(name, ty, _)| quote! { #name: #ty });
    quote! {
        /// The cells, variables and output mode, passed between the parts.
        #[derive(::std::clone::Clone, ::std::marker::Copy)]
        struct State {
            #(#fields,)*
        }
        #(#decls)*
        #body
        Ok(())
    }
}

/// The functions a large program is split into.
struct Parts<'a> {
    /// Whether the program is large enough to split.
    split: bool,
    /// The locals, which are also the fields of `State`.
    names: Vec<Ident>,
    /// How many functions (`part_0`, `part_1`, …) were made so far.
    count: usize,
    /// Where they go.
    items: &'a mut dyn Items,
}

impl Parts<'_> {
    /// Moves `code` into a new function and returns its call, which
    /// copies the locals into a `State` and back.
    fn call(&mut self, code: TokenStream, first_line: u32, last_line: u32) -> TokenStream {
        let name = format_ident!("part_{}", self.count);
        self.count += 1;
        let names = &self.names;
        let (generics, io_params) = split::io_params();
        let doc = format!(" Lines {first_line}-{last_line}.");
        self.items.push(quote! {
            #[doc = #doc]
            #[inline(never)]
            fn #name #generics(state: &mut State, #io_params) -> ::std::result::Result<(), rt::RuntimeError> {
                let State { #(mut #names),* } = *state;
                #code
                *state = State { #(#names),* };
                Ok(())
            }
        });
        quote! {
            let mut state = State { #(#names),* };
            #name(&mut state, io, steps)?;
            State { #(#names),* } = state;
        }
    }
}

/// How many source lines statements hold (a loop: its label, body and
/// condition).
fn weight(statements: &[Stmt]) -> usize {
    statements.iter().map(statement_weight).sum()
}

fn statement_weight(statement: &Stmt) -> usize {
    match statement {
        Stmt::Step(_) => 1,
        Stmt::Loop(body) => 2 + weight(&body.body),
    }
}

/// The first and last source lines of statements.
fn line_range(statements: &[Stmt]) -> (u32, u32) {
    let first = |statement: &Stmt| match statement {
        Stmt::Step(step) => step.source_line,
        Stmt::Loop(body) => body.label_line,
    };
    let last = |statement: &Stmt| match statement {
        Stmt::Step(step) => step.source_line,
        Stmt::Loop(body) => body.condition_line,
    };
    match (statements.first(), statements.last()) {
        (Some(a), Some(b)) => (first(a), last(b)),
        _ => (0, 0),
    }
}

/// The cells and variables a block uses, and whether it outputs anything.
fn collect(
    statements: &[Stmt],
    cells: &mut BTreeSet<Cell>,
    vars: &mut BTreeSet<Var>,
    outputs: &mut bool,
) {
    for statement in statements {
        match statement {
            Stmt::Step(step) => match step.op {
                Op::Output(c) | Op::Increment(c) | Op::Input(c) => {
                    *outputs |= matches!(step.op, Op::Output(_));
                    cells.insert(c);
                }
                Op::Copy(a, b) | Op::AddCell(a, b) => {
                    cells.extend([a, b]);
                }
                Op::VarFromCell(v, c)
                | Op::CellFromVar(v, c)
                | Op::VarAddCell(v, c)
                | Op::CellAddVar(v, c)
                | Op::VarInput(v, c) => {
                    cells.insert(c);
                    vars.insert(v);
                }
                Op::AsciiMode | Op::RawMode => *outputs = true,
                Op::Label => {}
            },
            Stmt::Loop(body) => {
                cells.insert(body.condition.cell);
                cells.extend(body.condition.also);
                vars.insert(body.condition.var);
                collect(&body.body, cells, vars, outputs);
            }
        }
    }
}

/// A block of statements. Straight-line runs of steps (including a loop's
/// label before it and its condition after its body) count their steps
/// with one `take_up_to` (see [`straight_line`]). `condition_line` is the tick of the
/// condition that follows the block when it is a loop body. In a split
/// program a block heavier than a function holds becomes calls of parts
/// (a loop heavier than that stays, its body split in turn).
fn block(statements: &[Stmt], condition_line: Option<u32>, parts: &mut Parts) -> TokenStream {
    if parts.split && weight(statements) > FUNCTION_WEIGHT {
        let mut out = TokenStream::new();
        for group in split::groups(statements, statement_weight) {
            match group {
                [Stmt::Loop(body)] if statement_weight(&group[0]) > FUNCTION_WEIGHT => {
                    out.extend(straight_line(&[Counted::label(body)]));
                    out.extend(loop_code(body, parts));
                }
                _ => {
                    let code = block(group, None, parts);
                    let (first, last) = line_range(group);
                    out.extend(parts.call(code, first, last));
                }
            }
        }
        if let Some(line) = condition_line {
            out.extend(straight_line(&[Counted::condition(line)]));
        }
        return out;
    }
    let mut out = TokenStream::new();
    let mut run: Vec<Counted> = Vec::new();
    for statement in statements {
        match statement {
            Stmt::Step(step) => {
                let line = Literal::u32_unsuffixed(step.source_line);
                run.push(Counted {
                    line: step.source_line,
                    comment: source_comment(&format!("line {}: {}", step.source_line, step.text)),
                    effect: op(step.op, &line),
                });
            }
            Stmt::Loop(body) => {
                run.push(Counted::label(body));
                out.extend(straight_line(&std::mem::take(&mut run)));
                out.extend(loop_code(body, parts));
            }
        }
    }
    if let Some(line) = condition_line {
        run.push(Counted::condition(line));
    }
    out.extend(straight_line(&run));
    out
}

/// One step of a straight-line run: its line, its source comment and what
/// it does.
struct Counted {
    line: u32,
    comment: TokenStream,
    effect: TokenStream,
}

impl Counted {
    /// A loop's label, which does nothing but count a step.
    fn label(body: &Loop) -> Self {
        Counted {
            line: body.label_line,
            comment: source_comment(&format!(
                "line {}: 1/2 1/2 (loops back from line {})",
                body.label_line, body.condition_line
            )),
            effect: TokenStream::new(),
        }
    }

    /// The step of a loop's condition (commented where it is tested).
    fn condition(line: u32) -> Self {
        Counted {
            line,
            comment: TokenStream::new(),
            effect: TokenStream::new(),
        }
    }
}

/// A loop after its label: the closed-form skip if it has one, then the
/// do-while loop.
fn loop_code(body: &Loop, parts: &mut Parts) -> TokenStream {
    let inner = block(&body.body, Some(body.condition_line), parts);
    let skip = closed_form::counting(body).map(|counting| skip(body, &counting));
    let Some(exit) = exit_condition(body.condition) else {
        // A loop that never loops back runs its body once.
        return inner;
    };
    let condition = source_comment(&format!(
        "line {}: {} (back to line {})",
        body.condition_line, body.condition_text, body.label_line
    ));
    quote! {
        #skip
        loop {
            #inner
            #condition
            if #exit {
                break;
            }
        }
    }
}

/// Steps executed one after another, in one copy: one `take_up_to`
/// records them all, and before each step a test of how many the limit
/// allowed stops the program at the first step past it (a compare with a
/// constant, which the processor predicts; the limit falls inside a run at
/// most once a program). A single step is a `tick`.
fn straight_line(run: &[Counted]) -> TokenStream {
    if let [step] = run {
        let (comment, effect) = (&step.comment, &step.effect);
        let line = Literal::u32_unsuffixed(step.line);
        return quote! { #comment steps.tick(#line)?; #effect };
    }
    if run.is_empty() {
        return TokenStream::new();
    }
    let count = Literal::u64_unsuffixed(run.len() as u64);
    let steps = run.iter().enumerate().map(|(index, step)| {
        let (comment, effect) = (&step.comment, &step.effect);
        let (line, ordinal) = (
            Literal::u32_unsuffixed(step.line),
            Literal::u64_unsuffixed(index as u64 + 1),
        );
        quote! {
            #comment
            if allowed < #ordinal {
                return ::std::result::Result::Err(steps.stopped(#line));
            }
            #effect
        }
    });
    quote! {
        let allowed = steps.take_up_to(#count);
        #(#steps)*
    }
}

/// Skips whole passes of a counting loop: each changed place's value and
/// per-pass additions, when the loop ends, and then the values after the
/// skipped passes. The loop that follows runs the rest.
fn skip(body: &Loop, counting: &Counting) -> TokenStream {
    let pass_ident = |place: Place| format_ident!("{}_pass", place_ident(place));
    let passes = counting.changed.iter().map(|(place, adds)| {
        let (name, pass) = (place_ident(*place), pass_ident(*place));
        let adds = adds.iter().map(|addend| match *addend {
            Addend::One => quote! { 1 },
            Addend::Place(from) => {
                let from = place_ident(from);
                quote! { #from }
            }
        });
        quote! { let #pass = rt::chc::Pass::new(#name, &[#(#adds),*]); }
    });
    let compared = |place: Place| {
        if counting.changes(place) {
            let pass = pass_ident(place);
            quote! { #pass }
        } else {
            let name = place_ident(place);
            quote! { rt::chc::Pass::fixed(#name) }
        }
    };
    let condition = body.condition;
    let cell = compared(Place::Cell(condition.cell));
    let var = compared(Place::Var(condition.var));
    let also = match condition.also {
        Some(also) => {
            let also = compared(Place::Cell(also));
            quote! { Some(#also) }
        }
        None => quote! { None },
    };
    let negated = condition.negated;
    let per_pass = Literal::u64_unsuffixed(counting.steps_per_pass);
    let changed: Vec<Ident> = counting
        .changed
        .iter()
        .map(|(p, _)| pass_ident(*p))
        .collect();
    let names = counting.changed.iter().map(|(p, _)| place_ident(*p));
    let comment = source_comment(&format!(
        "Lines {}-{} only add loop-invariant amounts: skip whole passes at once.",
        body.label_line, body.condition_line
    ));
    quote! {
        #comment
        {
            #(#passes)*
            let exit = rt::chc::exit_after(#cell, #var, #also, #negated);
            let passes = rt::chc::skip(steps, #per_pass, exit, &[#(#changed),*]);
            #(#names = #changed.after(passes);)*
        }
    }
}

/// A cell's or variable's local.
fn place_ident(place: Place) -> Ident {
    match place {
        Place::Cell(cell) => cell_ident(cell),
        Place::Var(var) => var_ident(var),
    }
}

/// When a loop stops: its condition (loop back if the cell equals, or
/// with `+` differs from, the variable and the other cell) negated; `None`
/// when it always stops (`CxC=V+`: the cell never differs from itself). A
/// comparison of the cell with itself is left out.
fn exit_condition(condition: Condition) -> Option<TokenStream> {
    let cell = cell_ident(condition.cell);
    let var = var_ident(condition.var);
    let also = match condition.also {
        Some(also) if also == condition.cell && condition.negated => return None,
        Some(also) if also == condition.cell => None,
        also => also.map(cell_ident),
    };
    Some(match (condition.negated, also) {
        (false, None) => quote! { #cell != #var },
        (true, None) => quote! { #cell == #var },
        (false, Some(also)) => quote! { #cell != #var || #cell != #also },
        (true, Some(also)) => quote! { #cell == #var || #cell == #also },
    })
}

fn op(op: Op, line: &Literal) -> TokenStream {
    match op {
        Op::Output(c) => {
            let c = cell_ident(c);
            quote! { rt::chc::output(io, #c, ascii, #line)?; }
        }
        // `a1xa1` copies a cell onto itself: nothing to do.
        Op::Copy(to, from) if to == from => quote! {},
        Op::Copy(to, from) => {
            let (to, from) = (cell_ident(to), cell_ident(from));
            quote! { #to = #from; }
        }
        Op::Increment(c) => {
            let c = cell_ident(c);
            quote! { #c = rt::chc::add(#c, 1, #line)?; }
        }
        Op::AddCell(to, from) => {
            let (to, from) = (cell_ident(to), cell_ident(from));
            quote! { #to = rt::chc::add(#to, #from, #line)?; }
        }
        Op::Input(c) => {
            let c = cell_ident(c);
            quote! { #c = io.read_i64(#line)?; }
        }
        Op::AsciiMode => quote! { ascii = true; },
        Op::RawMode => quote! { ascii = false; },
        Op::VarFromCell(v, c) => {
            let (v, c) = (var_ident(v), cell_ident(c));
            quote! { #v = #c; }
        }
        Op::CellFromVar(v, c) => {
            let (v, c) = (var_ident(v), cell_ident(c));
            quote! { #c = #v; }
        }
        Op::VarAddCell(v, c) => {
            let (v, c) = (var_ident(v), cell_ident(c));
            quote! { #v = rt::chc::add(#v, #c, #line)?; }
        }
        Op::CellAddVar(v, c) => {
            let (v, c) = (var_ident(v), cell_ident(c));
            quote! { #c = rt::chc::add(#c, #v, #line)?; }
        }
        Op::VarInput(v, c) => {
            let (v, c) = (var_ident(v), cell_ident(c));
            quote! { #v = io.read_i64(#line)?; #c = #v; }
        }
        Op::Label => quote! {},
    }
}

/// A cell's local: its name (`a1` … `h8` are identifiers).
fn cell_ident(cell: Cell) -> Ident {
    Ident::new(&cell.name(), Span::call_site())
}

/// A variable's local, named after its piece.
fn var_ident(var: Var) -> Ident {
    let name = match var {
        Var::Rook => "rook",
        Var::Knight => "knight",
        Var::Bishop => "bishop",
        Var::Queen => "queen",
        Var::King => "king",
    };
    Ident::new(name, Span::call_site())
}
