//! Chess Code IR → Rust: cells and variables become local `i64`s (only
//! those the program uses), loops become Rust `loop`s ending in the
//! condition, commands become straight-line arithmetic. Nothing is
//! dispatched at run time. A loop with a closed form (see
//! [`super::closed_form`]: a counting loop, or one whose values are
//! polynomials in the pass number) first skips whole passes at once.
//!
//! A program of more than [`TABLE_ABOVE_LINES`] lines is written as data
//! instead (see [`super::table`]): its lines, their operations and its
//! loops' closed forms in static tables that the runtime walks.

use std::collections::BTreeSet;

use chess2rs_runtime::__private::chc::Role;
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use super::closed_form::{self, Addend, ClosedForm, Counting, Inner, Place, Polynomial, PureOp};
use super::ir::{Cell, Condition, Loop, Op, Program, Stmt, Var};
use crate::emit::source_comment;
use crate::split::{self, Items, FUNCTION_WEIGHT};

/// Above this many lines (commands, loop labels and conditions), the
/// program is a table (`static LINES`) that the runtime walks, instead of
/// code: rustc's cost then stays nearly flat in the program's size.
pub const TABLE_ABOVE_LINES: usize = 1_000;

/// The body of the entry function's closure (`io`, `steps`, `rt` in scope).
/// A large program is split into functions (see [`crate::split`]) that
/// share a `State` holding the locals, copied in and out around each call;
/// one of more than [`TABLE_ABOVE_LINES`] lines is a table.
pub fn generate(program: &Program, items: &mut dyn Items) -> TokenStream {
    if weight(&program.body) > TABLE_ABOVE_LINES {
        return super::table::generate(program, items);
    }
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
    let local_steps = local_steps();
    if !parts.split {
        return quote! {
            #local_steps
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
        #local_steps
        #(#decls)*
        #body
        Ok(())
    }
}

/// Shadows the `steps` parameter (a `&mut rt::StepCounter`) with a copy
/// in a local, whose address is never taken, so the optimiser keeps the
/// count in a register through loops; calls that need the counter get a
/// copy of their own (see [`with_counter`]). The count is not needed
/// after the program ends (nor after an error), so only split-off parts
/// hand theirs back.
fn local_steps() -> TokenStream {
    quote! { let mut steps: rt::StepCounter = *steps; }
}

/// `call`, an expression that uses `counter: &mut rt::StepCounter`, made
/// with a copy of the local counter (see [`local_steps`]) that is taken
/// back after it.
fn with_counter(call: TokenStream) -> TokenStream {
    quote! {
        {
            let mut counter = steps;
            let result = #call;
            steps = counter;
            result
        }
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
                let steps_given: &mut rt::StepCounter = steps;
                let mut steps: rt::StepCounter = *steps_given;
                #code
                *steps_given = steps;
                *state = State { #(#names),* };
                Ok(())
            }
        });
        let call = with_counter(quote! { #name(&mut state, io, &mut counter) });
        quote! {
            let mut state = State { #(#names),* };
            #call?;
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
    // A counting loop's skip costs little: it comes first. A polynomial
    // loop's try costs at least a fit, about as much as several hundred
    // steps, so the loop runs what its wait says normally first (a short
    // loop is not slowed down) and then tries to skip the rest, at the
    // start of a pass; the wait is learned from its tries (what they cost
    // and saved) and kept in a static of its own (`rt::chc::skip_passes`).
    let (skip, at_top) = match closed_form::closed_form(body) {
        Some(ClosedForm::Counting(counting)) => (skip(body, &counting), TokenStream::new()),
        Some(ClosedForm::Polynomial(polynomial)) => {
            let skip = polynomial_skip(body, &polynomial);
            // One value lives through the loop, tested once a pass: the
            // count of steps still available below which the loop tries
            // (0 once it has: the count never goes below 0). More state
            // (a countdown, a flag) crowded the registers of the passes.
            (
                quote! {
                    static SKIP_WAIT: ::std::sync::atomic::AtomicU64 =
                        ::std::sync::atomic::AtomicU64::new(rt::chc::SKIP_AFTER_STEPS);
                    let mut skip_below = steps
                        .available()
                        .saturating_sub(SKIP_WAIT.load(::std::sync::atomic::Ordering::Relaxed));
                },
                quote! {
                    if steps.available() < skip_below {
                        skip_below = 0;
                        #skip
                    }
                },
            )
        }
        None => (TokenStream::new(), TokenStream::new()),
    };
    let Some(exit) = exit_condition(body.condition) else {
        // A loop that never loops back runs its body once.
        return inner;
    };
    let condition = source_comment(&format!(
        "line {}: {} (back to line {})",
        body.condition_line, body.condition_text, body.label_line
    ));
    let looped = quote! {
        loop {
            #at_top
            #inner
            #condition
            if #exit {
                break;
            }
        }
    };
    if at_top.is_empty() {
        quote! { #skip #looped }
    } else {
        // A block of its own for the loop's `SKIP_WAIT`.
        quote! { { #skip #looped } }
    }
}

/// Steps executed one after another, in one copy: one `take_up_to`
/// records them all, and before each step a test of how many the limit
/// allowed stops the program at the first step past it (`steps.allows`:
/// a compare with a constant, which the processor predicts; the limit
/// falls inside a run at most once a program). A single step is a `tick`.
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
            steps.allows(allowed, #ordinal, #line)?;
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
    let (setup, changed) = counting_passes(body.condition, counting);
    let per_pass = Literal::u64_unsuffixed(counting.steps_per_pass);
    let names = counting.changed.iter().map(|(p, _)| place_ident(*p));
    let skip_call = with_counter(quote! {
        rt::chc::skip(&mut counter, #per_pass, exit, &[#(#changed),*])
    });
    let comment = source_comment(&format!(
        "Lines {}-{} only add loop-invariant amounts: skip whole passes at once.",
        body.label_line, body.condition_line
    ));
    quote! {
        #comment
        {
            #setup
            let passes = #skip_call;
            #(#names = #changed.after(passes);)*
        }
    }
}

/// A counting loop's summary in locals: a `rt::chc::Pass` per changed
/// place (their names are returned) and `exit`, the pass that ends it.
fn counting_passes(condition: Condition, counting: &Counting) -> (TokenStream, Vec<Ident>) {
    let pass_ident = |place: Place| format_ident!("{}_pass", place_ident(place));
    let passes = counting.changed.iter().map(|(place, adds)| {
        let (name, pass) = (place_ident(*place), pass_ident(*place));
        let adds = adds.iter().map(|addend| addend_value(*addend));
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
    let changed = counting
        .changed
        .iter()
        .map(|(p, _)| pass_ident(*p))
        .collect();
    let setup = quote! {
        #(#passes)*
        let exit = rt::chc::Exit {
            cell: #cell,
            var: #var,
            also: #also,
            negated: #negated,
        }
        .passes();
    };
    (setup, changed)
}

/// An addend's value: 1 or a place's local.
fn addend_value(addend: Addend) -> TokenStream {
    match addend {
        Addend::One => quote! { 1 },
        Addend::Place(from) => {
            let from = place_ident(from);
            quote! { #from }
        }
    }
}

/// Skips whole passes of a polynomial loop: the runtime fits its values
/// from a few passes of the pure pass function and skips exactly up to
/// its last pass, the step limit or the first overflow.
fn polynomial_skip(body: &Loop, polynomial: &Polynomial) -> TokenStream {
    let names: Vec<Ident> = polynomial.state.iter().map(|p| place_ident(*p)).collect();
    let shape = shape(polynomial);
    let pass = pure_pass(polynomial);
    let comment = source_comment(&format!(
        "Lines {}-{}: values are polynomials (degree <= {}) in the pass number: skip whole passes at once.",
        body.label_line, body.condition_line, polynomial.degree
    ));
    // Out of line, over copies of the locals (see `rt::chc::cold_path`).
    quote! {
        #comment
        {
            let (state, counter) = rt::chc::cold_path(move || {
                let mut state = [#(#names),*];
                let mut counter = steps;
                rt::chc::skip_passes(&mut counter, &SKIP_WAIT, &#shape, &mut state, #pass);
                (state, counter)
            });
            [#(#names),*] = state;
            steps = counter;
        }
    }
}

/// A polynomial loop's `rt::chc::Shape`.
fn shape(polynomial: &Polynomial) -> TokenStream {
    let degree = Literal::usize_unsuffixed(polynomial.degree);
    let warmup = polynomial.warmup;
    let roles = polynomial.roles.iter().map(|role| match role {
        Role::Value => quote! { rt::chc::Role::Value },
        Role::Inside => quote! { rt::chc::Role::Inside },
        Role::Positive => quote! { rt::chc::Role::Positive },
        Role::Sign(group) => {
            let group = Literal::u16_unsuffixed(*group);
            quote! { rt::chc::Role::Sign(#group) }
        }
        Role::Apart(group) => {
            let group = Literal::u16_unsuffixed(*group);
            quote! { rt::chc::Role::Apart(#group) }
        }
    });
    let exit = polynomial.exit;
    let (cell, var) = (
        Literal::usize_unsuffixed(exit.cell),
        Literal::usize_unsuffixed(exit.var),
    );
    let also = match exit.also {
        Some(also) => {
            let also = Literal::usize_unsuffixed(also);
            quote! { ::std::option::Option::Some(#also) }
        }
        None => quote! { ::std::option::Option::None },
    };
    let negated = exit.negated;
    quote! {
        rt::chc::Shape {
            degree: #degree,
            warmup: #warmup,
            roles: &[#(#roles),*],
            exit: rt::chc::Exit { cell: #cell, var: #var, also: #also, negated: #negated },
        }
    }
}

/// A polynomial loop's pass as a pure closure: the changed places from
/// `s`, the operations with checked sums (an overflow makes the pass
/// `None`: the loop then runs normally and reports it), the watched
/// values into `watch`, the places at the end into `next`, its steps.
fn pure_pass(polynomial: &Polynomial) -> TokenStream {
    let names: Vec<Ident> = polynomial.state.iter().map(|p| place_ident(*p)).collect();
    let fixed = Literal::u64_unsuffixed(polynomial.fixed_steps);
    let ops = polynomial.ops.iter().map(pure_op);
    // Inner loops add their steps to the pass's.
    let pass_steps = if polynomial
        .ops
        .iter()
        .any(|op| matches!(op, PureOp::Inner(_)))
    {
        quote! { let mut pass_steps: u64 = #fixed; }
    } else {
        quote! { let pass_steps: u64 = #fixed; }
    };
    quote! {
        move |s: &[i64], next: &mut [i64], watch: &mut [i64]| -> ::std::option::Option<u64> {
            let &[#(mut #names),*] = s else {
                return ::std::option::Option::None;
            };
            #pass_steps
            #(#ops)*
            next.copy_from_slice(&[#(#names),*]);
            ::std::option::Option::Some(pass_steps)
        }
    }
}

/// One operation of a pure pass.
fn pure_op(op: &PureOp) -> TokenStream {
    match op {
        PureOp::Add { to, addend } => {
            let (to, addend) = (place_ident(*to), addend_value(*addend));
            quote! { #to = #to.checked_add(#addend)?; }
        }
        PureOp::Assign { to, from } => {
            let (to, from) = (place_ident(*to), place_ident(*from));
            quote! { #to = #from; }
        }
        PureOp::Watch { slot, value } => {
            let (slot, value) = (Literal::usize_unsuffixed(*slot), addend_value(*value));
            quote! { watch[#slot] = #value; }
        }
        PureOp::WatchGap {
            slot,
            from,
            to,
            plus,
            minus,
        } => {
            let slot = Literal::usize_unsuffixed(*slot);
            let (from, to) = (place_ident(*from), place_ident(*to));
            let plus = plus.iter().map(|addend| addend_value(*addend));
            let minus = minus.iter().map(|addend| addend_value(*addend));
            quote! {
                watch[#slot] = #from.checked_sub(#to)?
                    #(.checked_add(#plus)?)*
                    #(.checked_sub(#minus)?)*;
            }
        }
        PureOp::Inner(inner) => inner_run(inner),
    }
}

/// An inner loop run to its end inside a pure pass: its values, its pass
/// count (watched) and its steps; `None` (the outer pass cannot be
/// computed) if it overflows or never ends.
fn inner_run(inner: &Inner) -> TokenStream {
    let slot = Literal::usize_unsuffixed(inner.count_slot);
    let comment = source_comment(&format!(
        "The loop of line {} run to its end in closed form.",
        inner.label_line
    ));
    let run = match &*inner.closed {
        ClosedForm::Counting(counting) => {
            let (setup, changed) = counting_passes(inner.condition, counting);
            let names = counting.changed.iter().map(|(p, _)| place_ident(*p));
            let per_pass = Literal::u64_unsuffixed(counting.steps_per_pass);
            quote! {
                #setup
                let passes = rt::chc::counting_to_end(exit, &[#(#changed),*])?;
                #(#names = #changed.after(passes);)*
                let inner_steps = passes.checked_mul(#per_pass)?;
            }
        }
        ClosedForm::Polynomial(polynomial) => {
            let names: Vec<Ident> = polynomial.state.iter().map(|p| place_ident(*p)).collect();
            let shape = shape(polynomial);
            let pass = pure_pass(polynomial);
            // The first passes as plain code (every sum checked), the
            // rest, if the loop is still running, fitted.
            let direct = polynomial
                .ops
                .iter()
                .filter(|op| matches!(op, PureOp::Add { .. } | PureOp::Assign { .. }))
                .map(pure_op);
            let ends = exit_condition(inner.condition).unwrap_or_else(|| quote! { true });
            let per_pass = Literal::u64_unsuffixed(polynomial.fixed_steps);
            quote! {
                let mut passes: u64 = 0;
                loop {
                    #(#direct)*
                    passes += 1;
                    if #ends {
                        rt::chc::count_direct_passes(passes);
                        break;
                    }
                    if passes == rt::chc::DIRECT_PASSES {
                        rt::chc::count_direct_passes(passes);
                        let mut inner_state = [#(#names),*];
                        let (more, _) = rt::chc::fit_to_end(&#shape, &mut inner_state, #pass)?;
                        [#(#names),*] = inner_state;
                        passes += more;
                        break;
                    }
                }
                let inner_steps = passes.checked_mul(#per_pass)?;
            }
        }
    };
    quote! {
        #comment
        {
            #run
            watch[#slot] = <i64 as ::std::convert::TryFrom<u64>>::try_from(passes).ok()?;
            pass_steps = pass_steps.checked_add(inner_steps)?;
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
    Ident::new(var.piece(), Span::call_site())
}

#[cfg(test)]
mod tests {
    use super::super::lowered as program;
    use super::*;

    /// `lines` lines: a counting loop, a polynomial loop, then increments.
    fn text(lines: usize) -> String {
        let loops = "1/2 1/2\nb1+\nb1=R+\n1/2 1/2\nc1+\nd1xc1+\nc1=K+\n";
        let mut text = loops.to_string();
        text.push_str(&"a1+\n".repeat(lines - loops.lines().count()));
        text
    }

    #[test]
    fn programs_above_the_threshold_are_tables_keeping_closed_forms() {
        let mut items = Vec::new();
        let small = generate(&program(&text(TABLE_ABOVE_LINES)), &mut items).to_string();
        assert!(!small.contains("static LINES"));
        let parts: String = items.iter().map(ToString::to_string).collect();
        assert!(parts.contains("rt :: chc :: skip ("), "code with its skips");
        let mut items = Vec::new();
        let large = generate(&program(&text(TABLE_ABOVE_LINES + 1)), &mut items).to_string();
        assert!(items.is_empty(), "the runtime walks the tables");
        assert!(large.contains("static LINES : & str"));
        assert!(large.contains("static FORMS : & str"));
        // The two loops' conditions name their closed forms.
        assert!(large.contains("3 back 0 b1=R+ count 0\n"), "{large}");
        assert!(large.contains("7 back 3 c1=K+ poly 1\n"));
        assert_eq!(
            large.matches(" inc a1\n").count(),
            TABLE_ABOVE_LINES + 1 - 7
        );
    }
}
