//! Large Chess Code programs as data: the code generator writes a
//! program of more than a thousand lines as two texts — its lines, one
//! operation each ([`write_line`]), and the closed forms of its loops as
//! words ([`Form::encode`]) — that [`run_table`] reads when the program
//! starts and walks, instead of straight-line Rust per line, so that
//! rustc's time and memory (and the code generator's) stay small at any
//! program size: a string literal is one token however long.
//!
//! The walk does what the code of a small program does, in the same
//! order: one step counted per line, the same additions, reads, outputs
//! and errors, and the same closed forms — a counting loop's passes
//! skipped when it first goes back ([`super::skip`] skips them before
//! the first pass: a loop that runs once then costs nothing more), a
//! polynomial loop's tried at the start of a pass once it ran its wait
//! ([`super::skip_passes`]), its pass given as a pure function by
//! interpreting [`PureOp`]s here rather than by generated code. Skips are
//! exact from any pass, so the steps, values and errors are the same.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicU64, Ordering};

use super::super::error::RuntimeError;
use super::super::io::Io;
use super::super::limits::StepCounter;
use super::passes::{
    count_direct_passes, fit_to_end, skip_passes, Exit, Role, Shape, DIRECT_PASSES,
    SKIP_AFTER_STEPS,
};
use super::{add, output, saturating_u64, Pass};

mod text;
mod words;

pub use self::text::{parse_lines, write_line};
pub use self::words::parse_forms;

/// A cell or a variable: cells `a1` = 0, `b1` = 1, … `h8` = 63 (file,
/// then rank), variables R N B Q K = 64 … 68.
pub type Place = u8;

/// How many places there are.
pub const PLACES: usize = 69;

/// The values of all places, in an array that any [`Place`] indexes
/// (so that no access needs a bounds check).
type Places = [i64; 256];

/// A loop's condition: loop back if `cell` equals `var` and `also` (or,
/// `negated`, differs from both).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Test {
    /// The compared cell.
    pub cell: Place,
    /// The variable it is compared with.
    pub var: Place,
    /// A second cell it is compared with (`CxD=V`).
    pub also: Option<Place>,
    /// Loop back on inequality (`+`).
    pub negated: bool,
}

impl Test {
    /// Whether the loop goes back with these values.
    #[inline(always)]
    fn holds(&self, places: &Places) -> bool {
        let value = places[usize::from(self.cell)];
        let var = places[usize::from(self.var)];
        let other = self.also.map(|also| places[usize::from(also)]);
        if self.negated {
            value != var && other.is_none_or(|other| value != other)
        } else {
            value == var && other.is_none_or(|other| value == other)
        }
    }
}

/// What a line does (each is one step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Op {
    /// Nothing: a label no condition goes back to, or the label of a loop
    /// that is not polynomial (its condition does the work).
    Nop,
    /// `to = from`.
    Copy(Place, Place),
    /// `to = to + from`, checked.
    Add(Place, Place),
    /// `to = to + 1`, checked.
    Increment(Place),
    /// Outputs a cell in the current mode.
    Output(Place),
    /// Reads a number into a cell.
    Input(Place),
    /// Reads a number into a variable and a cell.
    InputBoth(Place, Place),
    /// Output mode ASCII (`true`) or raw.
    Mode(bool),
    /// The label of a polynomial loop (a [`Form::Polynomial`], by its
    /// index): starts its wait.
    Polynomial(u32),
    /// A loop's condition: goes on after its label (the line index the
    /// line's entry gives) while it holds.
    Back(Test),
    /// A counting loop's condition (a [`Form::Counting`], by its index):
    /// going back, skips whole passes with the closed form (so a loop that
    /// runs once costs nothing more; a longer one skips at its second
    /// pass, then runs its last).
    BackCounting(Test, u32),
    /// A polynomial loop's condition (its form's index): going back, tries
    /// to skip the rest of the loop once it waited long enough.
    BackPolynomial(Test, u32),
}

/// An addition of a pure pass: 1 or a place's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addend {
    /// 1.
    One,
    /// A place's value.
    Place(Place),
}

impl Addend {
    #[inline(always)]
    fn value(self, places: &Places) -> i64 {
        match self {
            Addend::One => 1,
            Addend::Place(place) => places[usize::from(place)],
        }
    }
}

/// A loop's closed form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// A counting loop.
    Counting(Counting),
    /// A polynomial loop.
    Polynomial(Polynomial),
}

/// A counting loop's closed form: each pass adds the same amounts (1 or
/// places the loop does not change) to each changed place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counting {
    /// The steps of one pass (its body's lines and the condition).
    pub steps_per_pass: u64,
    /// Each changed place and what a pass adds to it, in order.
    pub changed: Vec<(Place, Vec<Addend>)>,
    /// The loop's condition.
    pub test: Test,
}

impl Counting {
    /// A place's [`Pass`]: its value and what a pass adds to it (nothing
    /// if the loop does not change it).
    #[inline]
    fn pass(&self, places: &Places, place: Place) -> Pass {
        let value = places[usize::from(place)];
        match self.changed.iter().find(|(p, _)| *p == place) {
            Some((_, adds)) => Pass::summing(value, adds.iter().map(|add| add.value(places))),
            None => Pass::fixed(value),
        }
    }

    /// After how many passes the loop ends, from these values
    /// ([`Exit::passes`]; a compared difference moving by 1 a pass, as in
    /// most loops, without its `i128` division).
    #[inline]
    fn exit(&self, places: &Places) -> u64 {
        let test = self.test;
        let cell = self.pass(places, test.cell);
        let var = self.pass(places, test.var);
        let also = test.also.map(|also| self.pass(places, also));
        if test.negated {
            // The first pass where the difference a + b i is 0.
            let end = |other: Pass| {
                let a = i128::from(cell.value) - i128::from(other.value);
                match cell.delta - other.delta {
                    1 if -a >= 1 => Some(saturating_u64(-a)),
                    -1 if a >= 1 => Some(saturating_u64(a)),
                    1 | -1 => Some(u64::MAX),
                    _ => None,
                }
            };
            let ends = match also {
                None => end(var),
                Some(also) => end(var).zip(end(also)).map(|(a, b)| a.min(b)),
            };
            if let Some(ends) = ends {
                return ends;
            }
        }
        Exit {
            cell,
            var,
            also,
            negated: test.negated,
        }
        .passes()
    }

    /// Skips whole passes, and counts their steps: as [`super::skip`], fewer
    /// than the pass that ends the loop, within the step limit and with
    /// every sum in range; the division of the step limit and the range's
    /// only when they are what stops the skip.
    #[inline]
    fn skip(&self, places: &mut Places, mut steps: StepCounter) -> StepCounter {
        let exit = self.exit(places);
        if exit <= 1 {
            return steps;
        }
        let mut passes = exit - 1;
        let available = steps.available();
        if passes
            .checked_mul(self.steps_per_pass)
            .is_none_or(|needed| needed > available)
        {
            passes = passes.min(available / self.steps_per_pass);
        }
        for &(place, _) in &self.changed {
            let pass = self.pass(places, place);
            if !pass.in_range_for(passes) {
                passes = passes.min(pass.passes_in_range());
            }
        }
        if passes == 0 {
            return steps;
        }
        let consumed = steps.try_consume(passes * self.steps_per_pass);
        debug_assert!(consumed);
        self.advance(places, passes);
        steps
    }

    /// Sets each changed place to its value after `passes` passes (the
    /// amounts come from places the loop does not change).
    #[inline]
    fn advance(&self, places: &mut Places, passes: u64) {
        if passes == 0 {
            return;
        }
        for &(place, _) in &self.changed {
            let after = self.pass(places, place).after(passes);
            places[usize::from(place)] = after;
        }
    }
}

/// A polynomial loop's closed form: its pass as pure operations on the
/// places it changes (see [`super::skip_passes`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Polynomial {
    /// A bound on the degree of every value (see [`Shape::degree`]).
    pub degree: usize,
    /// Whether the fit starts after the first pass ([`Shape::warmup`]).
    pub warmup: bool,
    /// What each watched value must satisfy.
    pub roles: Vec<Role>,
    /// The loop's condition on watched values.
    pub exit: Exit,
    /// The places it changes, in the order of the pass function's state.
    pub state: Vec<Place>,
    /// One pass.
    pub ops: Vec<PureOp>,
    /// The steps of one pass besides inner loops' passes.
    pub fixed_steps: u64,
}

impl Polynomial {
    fn shape(&self) -> Shape<'_> {
        Shape {
            degree: self.degree,
            warmup: self.warmup,
            roles: &self.roles,
            exit: self.exit,
        }
    }
}

/// An operation of a pure pass (checked: an overflow makes the pass
/// fail, and the loop then runs normally).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PureOp {
    /// `to += addend`.
    Add(Place, Addend),
    /// `to = from`.
    Assign(Place, Place),
    /// `watch[slot] = value`.
    Watch(u32, Addend),
    /// `watch[slot] = from - to + Σ plus - Σ minus`: the gap between an
    /// inner loop's counter and a bound.
    WatchGap(Gap),
    /// A counting inner loop run to its end; its pass count watched in
    /// the slot.
    InnerCounting(u32, Counting),
    /// A polynomial inner loop run to its end (its first passes one by
    /// one, the rest fitted), with its condition; its pass count watched
    /// in the slot.
    InnerPolynomial(u32, Test, Box<Polynomial>),
}

/// A watched gap ([`PureOp::WatchGap`]): `from - to + Σ plus - Σ minus`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Gap {
    /// The watched slot.
    pub slot: u32,
    /// The counter.
    pub from: Place,
    /// The bound.
    pub to: Place,
    /// Added to the gap.
    pub plus: Vec<Addend>,
    /// Taken from the gap.
    pub minus: Vec<Addend>,
}

impl Gap {
    /// The gap's value in `places`, `None` if it overflows.
    #[inline]
    fn value(&self, places: &Places) -> Option<i64> {
        let mut gap = places[usize::from(self.from)].checked_sub(places[usize::from(self.to)])?;
        for add in &self.plus {
            gap = gap.checked_add(add.value(places))?;
        }
        for sub in &self.minus {
            gap = gap.checked_sub(sub.value(places))?;
        }
        Some(gap)
    }
}

/// A program's tables, as generated code holds them.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    /// The lines in order, one a line ([`write_line`]).
    pub lines: &'a str,
    /// The loops' closed forms, each [`Form::encode`]d, as decimal words
    /// (one form a line).
    pub forms: &'a str,
}

/// A polynomial loop's wait: how many steps it runs before trying to
/// skip (learned from its tries), and the count of available steps below
/// which the current entry tries (0 once it has).
struct Wait {
    wait: AtomicU64,
    skip_below: u64,
}

/// Runs the program of `table` from its first line to its last.
#[inline(never)]
pub fn run_table<R: BufRead, W: Write>(
    table: &Table,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
) -> Result<(), RuntimeError> {
    let (code, forms) = match (parse_lines(table.lines), parse_forms(table.forms)) {
        (Ok(code), Ok(forms)) => (code, forms),
        (Err(message), _) | (_, Err(message)) => {
            return Err(RuntimeError::internal(message));
        }
    };
    let mut places: Places = [0; 256];
    let mut ascii = false;
    let mut waits: Vec<Wait> = forms
        .iter()
        .map(|_| Wait {
            wait: AtomicU64::new(SKIP_AFTER_STEPS),
            skip_below: 0,
        })
        .collect();
    // The steps left in a local whose address is never taken, so that it
    // stays in a register (`StepCounter::tick`'s cold path takes the
    // counter's): the counter is brought up to date where it is read.
    let mut counter: StepCounter = *steps;
    let mut left = counter.available();
    let mut pc = 0usize;
    while let Some(&(line, op, back)) = code.get(pc) {
        if left == 0 {
            // The limit's error, or without one the count starts again.
            counter.spend_down_to(0);
            counter.tick(line)?;
            left = counter.available();
        } else {
            left -= 1;
        }
        pc += 1;
        match op {
            Op::Nop => {}
            Op::Copy(to, from) => places[usize::from(to)] = places[usize::from(from)],
            Op::Add(to, from) => {
                let (to, from) = (usize::from(to), usize::from(from));
                places[to] = add(places[to], places[from], line)?;
            }
            Op::Increment(to) => {
                let to = usize::from(to);
                places[to] = add(places[to], 1, line)?;
            }
            Op::Output(cell) => output(io, places[usize::from(cell)], ascii, line)?,
            Op::Input(cell) => places[usize::from(cell)] = io.read_i64(line)?,
            Op::InputBoth(var, cell) => {
                let value = io.read_i64(line)?;
                places[usize::from(var)] = value;
                places[usize::from(cell)] = value;
            }
            Op::Mode(mode) => ascii = mode,
            Op::Polynomial(form) => {
                let wait = &mut waits[form as usize];
                wait.skip_below = left.saturating_sub(wait.wait.load(Ordering::Relaxed));
            }
            Op::Back(test) => {
                if test.holds(&places) {
                    pc = back as usize + 1;
                }
            }
            Op::BackCounting(test, form) => {
                if test.holds(&places) {
                    pc = back as usize + 1;
                    if let Form::Counting(form) = &forms[form as usize] {
                        counter.spend_down_to(left);
                        counter = form.skip(&mut places, counter);
                        left = counter.available();
                    }
                }
            }
            Op::BackPolynomial(test, form) => {
                if test.holds(&places) {
                    pc = back as usize + 1;
                    let wait = &mut waits[form as usize];
                    if left < wait.skip_below {
                        wait.skip_below = 0;
                        if let Form::Polynomial(form) = &forms[form as usize] {
                            counter.spend_down_to(left);
                            counter = skip_polynomial(form, &wait.wait, &mut places, counter);
                            left = counter.available();
                        }
                    }
                }
            }
        }
    }
    counter.spend_down_to(left);
    *steps = counter;
    Ok(())
}

/// The values of a pass's `state` places, read from `places` into the
/// front of `buffer`.
#[inline(always)]
fn load_state<'b>(
    buffer: &'b mut [i64; PLACES],
    state: &[Place],
    places: &Places,
) -> &'b mut [i64] {
    let loaded = &mut buffer[..state.len()];
    for (value, &place) in loaded.iter_mut().zip(state) {
        *value = places[usize::from(place)];
    }
    loaded
}

/// Tries to skip whole passes of a polynomial loop at the start of a
/// pass (see [`super::skip_passes`]); the step counter after it.
#[cold]
#[inline(never)]
fn skip_polynomial(
    form: &Polynomial,
    wait: &AtomicU64,
    places: &mut Places,
    mut steps: StepCounter,
) -> StepCounter {
    let mut buffer = [0i64; PLACES];
    let state = load_state(&mut buffer, &form.state, places);
    let mut scratch = *places;
    let pass = |s: &[i64], next: &mut [i64], watch: &mut [i64]| {
        pure_pass(form, &mut scratch, s, next, watch)
    };
    skip_passes(&mut steps, wait, &form.shape(), state, pass);
    for (&value, &place) in state.iter().zip(&form.state) {
        places[usize::from(place)] = value;
    }
    steps
}

/// One pass of a polynomial loop as a pure function (see
/// [`super::passes::PassFn`]): the changed places from `s`, the other places as
/// in `scratch` (the pass writes only changed places), the places at the
/// end into `next`, the watched values into `watch`; its steps, or `None`
/// if a sum overflows or an inner loop cannot be run to its end.
fn pure_pass(
    form: &Polynomial,
    scratch: &mut Places,
    s: &[i64],
    next: &mut [i64],
    watch: &mut [i64],
) -> Option<u64> {
    if s.len() != form.state.len() {
        return None;
    }
    for (&place, &value) in form.state.iter().zip(s) {
        scratch[usize::from(place)] = value;
    }
    let mut pass_steps = form.fixed_steps;
    for op in &form.ops {
        match op {
            PureOp::Add(to, addend) => {
                let to = usize::from(*to);
                scratch[to] = scratch[to].checked_add(addend.value(scratch))?;
            }
            PureOp::Assign(to, from) => {
                scratch[usize::from(*to)] = scratch[usize::from(*from)];
            }
            PureOp::Watch(slot, value) => watch[*slot as usize] = value.value(scratch),
            PureOp::WatchGap(gap) => watch[gap.slot as usize] = gap.value(scratch)?,
            PureOp::InnerCounting(slot, inner) => {
                let exit = inner.exit(scratch);
                let fits = exit != u64::MAX
                    && inner
                        .changed
                        .iter()
                        .all(|&(place, _)| inner.pass(scratch, place).passes_in_range() >= exit);
                if !fits {
                    return None;
                }
                inner.advance(scratch, exit);
                let inner_steps = exit.checked_mul(inner.steps_per_pass)?;
                pass_steps = inner_passes(watch, *slot, exit, pass_steps, inner_steps)?;
            }
            PureOp::InnerPolynomial(slot, test, inner) => {
                let passes = run_inner(inner, *test, scratch)?;
                let inner_steps = passes.checked_mul(inner.fixed_steps)?;
                pass_steps = inner_passes(watch, *slot, passes, pass_steps, inner_steps)?;
            }
        }
    }
    for (value, &place) in next.iter_mut().zip(&form.state) {
        *value = scratch[usize::from(place)];
    }
    Some(pass_steps)
}

/// Watches an inner loop's pass count and adds its steps to the pass's.
fn inner_passes(
    watch: &mut [i64],
    slot: u32,
    passes: u64,
    pass_steps: u64,
    inner_steps: u64,
) -> Option<u64> {
    watch[slot as usize] = super::poly::to_i64(i128::from(passes))?;
    pass_steps.checked_add(inner_steps)
}

/// Runs a polynomial inner loop (after its label) to its end inside a
/// pure pass: its first [`DIRECT_PASSES`] passes one by one, the rest, if
/// it is still running, fitted. Its pass count, or `None`.
fn run_inner(inner: &Polynomial, test: Test, scratch: &mut Places) -> Option<u64> {
    let mut passes: u64 = 0;
    loop {
        for op in &inner.ops {
            match *op {
                PureOp::Add(to, addend) => {
                    let to = usize::from(to);
                    scratch[to] = scratch[to].checked_add(addend.value(scratch))?;
                }
                PureOp::Assign(to, from) => {
                    scratch[usize::from(to)] = scratch[usize::from(from)];
                }
                _ => {}
            }
        }
        passes += 1;
        if !test.holds(scratch) {
            count_direct_passes(passes);
            return Some(passes);
        }
        if passes == DIRECT_PASSES {
            count_direct_passes(passes);
            let mut buffer = [0i64; PLACES];
            let state = load_state(&mut buffer, &inner.state, scratch);
            let mut inner_scratch = *scratch;
            let pass = |s: &[i64], next: &mut [i64], watch: &mut [i64]| {
                pure_pass(inner, &mut inner_scratch, s, next, watch)
            };
            let (more, _) = fit_to_end(&inner.shape(), state, pass)?;
            for (&value, &place) in state.iter().zip(&inner.state) {
                scratch[usize::from(place)] = value;
            }
            return Some(passes + more);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::limits::Options;
    use super::*;

    const B1: Place = 1;
    const C1: Place = 2;
    const D1: Place = 3;
    const H1: Place = 7;
    const R: Place = 64;

    /// The condition `CELL=R+`: go back while `cell` differs from R.
    fn differs_from_r(cell: Place) -> Test {
        Test {
            cell,
            var: R,
            also: None,
            negated: true,
        }
    }

    fn words(forms: &[Form]) -> Vec<u32> {
        let mut words = Vec::new();
        for form in forms {
            form.encode(&mut words);
        }
        words
    }

    /// The texts of a table of these lines and forms.
    fn texts(lines: &[(u32, Op, u32)], forms: &[Form]) -> (String, String) {
        let mut text = String::new();
        for &(at, op, label) in lines {
            write_line(&mut text, at, op, label);
        }
        let words: Vec<String> = words(forms).iter().map(u32::to_string).collect();
        (text, words.join(" "))
    }

    #[test]
    fn lines_round_trip_through_text() {
        let test = |cell, also, negated| Test {
            cell,
            var: 68,
            also,
            negated,
        };
        let lines = [
            (1, Op::Nop, 0),
            (2, Op::Copy(0, 63), 0),
            (3, Op::Copy(64, 7), 0),
            (4, Op::Add(9, 65), 0),
            (5, Op::Increment(66), 0),
            (6, Op::Output(8), 0),
            (7, Op::Input(1), 0),
            (8, Op::InputBoth(67, 2), 0),
            (9, Op::Mode(true), 0),
            (10, Op::Mode(false), 0),
            (11, Op::Polynomial(12), 0),
            (12, Op::Back(test(3, None, false)), 4),
            (13, Op::BackCounting(test(3, Some(4), true), 7), 11),
            (
                u32::MAX,
                Op::BackPolynomial(test(63, Some(0), false), 12),
                10,
            ),
        ];
        let (text, _) = texts(&lines, &[]);
        assert!(
            text.starts_with("1 nop\n2 copy a1 h8\n3 copy R h1\n"),
            "{text}"
        );
        assert!(text.contains("13 back 11 d1xe1=K+ count 7\n"), "{text}");
        assert_eq!(parse_lines(&text), Ok(lines.to_vec()));
        for bad in [
            "x nop",
            "1 jump",
            "1 copy a1",
            "1 copy a1 i9",
            "1 back 2 a1=",
            "1 nop 3",
        ] {
            assert!(parse_lines(bad).is_err(), "{bad}");
        }
    }

    fn run(table: &Table, input: &str, max_steps: Option<u64>) -> (String, Result<u64, String>) {
        let mut out = Vec::new();
        let options = match max_steps {
            Some(limit) => Options::with_max_steps(limit),
            None => Options::default(),
        };
        let mut steps = StepCounter::new(&options);
        let result = {
            let mut io = Io::new(input.as_bytes(), &mut out);
            let result = run_table(table, &mut io, &mut steps);
            io.flush().unwrap();
            result
        };
        let result = result
            .map(|()| steps.executed())
            .map_err(|err| err.to_string());
        (String::from_utf8(out).unwrap(), result)
    }

    /// `c1` counts to R while `d1` sums it (so `d1` = R (R + 1) / 2).
    fn triangle() -> Polynomial {
        Polynomial {
            degree: 2,
            warmup: false,
            roles: vec![Role::Value; 4],
            exit: Exit::unequal(2, 3, None),
            state: vec![C1, D1],
            ops: vec![
                PureOp::Add(C1, Addend::One),
                PureOp::Watch(0, Addend::Place(C1)),
                PureOp::Add(D1, Addend::Place(C1)),
                PureOp::Watch(1, Addend::Place(D1)),
                PureOp::Watch(2, Addend::Place(C1)),
                PureOp::Watch(3, Addend::Place(R)),
            ],
            fixed_steps: 3,
        }
    }

    #[test]
    fn forms_round_trip_through_words() {
        let test = Test {
            cell: B1,
            var: R,
            also: Some(H1),
            negated: false,
        };
        let counting = Counting {
            steps_per_pass: u64::from(u32::MAX) + 5,
            changed: vec![(B1, vec![Addend::One, Addend::Place(68)]), (R, vec![])],
            test,
        };
        let mut nest = triangle();
        nest.roles.extend([
            Role::Sign(300),
            Role::Apart(7),
            Role::Positive,
            Role::Inside,
        ]);
        nest.exit.also = Some(1);
        nest.ops.extend([
            PureOp::Assign(D1, H1),
            PureOp::WatchGap(Gap {
                slot: 4,
                from: C1,
                to: R,
                plus: vec![Addend::One],
                minus: vec![Addend::Place(D1), Addend::One],
            }),
            PureOp::InnerCounting(5, counting.clone()),
            PureOp::InnerPolynomial(6, test, Box::new(triangle())),
        ]);
        let forms = vec![Form::Counting(counting), Form::Polynomial(nest)];
        assert_eq!(Form::decode_all(&words(&forms)), forms);
    }

    #[test]
    fn counting_loops_skip_their_passes_and_stop_where_the_limit_says() {
        // b1 counts up to R, read from input.
        let test = differs_from_r(B1);
        let lines = [
            (1, Op::InputBoth(R, H1), 0),
            (2, Op::Nop, 0),
            (3, Op::Increment(B1), 0),
            (4, Op::BackCounting(test, 0), 1),
            (5, Op::Output(B1), 0),
        ];
        let forms = [Form::Counting(Counting {
            steps_per_pass: 2,
            changed: vec![(B1, vec![Addend::One])],
            test,
        })];
        let (lines, forms) = texts(&lines, &forms);
        let table = Table {
            lines: &lines,
            forms: &forms,
        };
        let million = run(&table, "1000000", None);
        assert_eq!(million, ("1000000".to_string(), Ok(2_000_003)));
        // Step 2,000 is a condition (line 4); the next, an increment.
        let (out, stopped) = run(&table, "1000000", Some(2_000));
        assert_eq!(out, "");
        assert_eq!(
            stopped,
            Err("line 3: step limit of 2000 reached".to_string())
        );
        // Overflow: b1 from 0 never meets -1 and passes i64::MAX.
        let (_, overflow) = run(&table, "-1", None);
        assert_eq!(
            overflow,
            Err("line 3: the sum 9223372036854775807 + 1 does not fit in an i64".to_string())
        );
    }

    #[test]
    fn polynomial_loops_skip_after_their_wait() {
        let test = differs_from_r(C1);
        let lines = [
            (1, Op::InputBoth(R, H1), 0),
            (2, Op::Polynomial(0), 0),
            (3, Op::Increment(C1), 0),
            (4, Op::Add(D1, C1), 0),
            (5, Op::BackPolynomial(test, 0), 1),
            (6, Op::Output(D1), 0),
        ];
        let (lines, forms) = texts(&lines, &[Form::Polynomial(triangle())]);
        let table = Table {
            lines: &lines,
            forms: &forms,
        };
        let n: u64 = 100_000_000;
        let (out, steps) = run(&table, &n.to_string(), None);
        assert_eq!(out, (n * (n + 1) / 2).to_string());
        assert_eq!(steps, Ok(3 * n + 3));
        // Stopped by the limit in the middle of a skipped stretch: step
        // 1,000,002 is the first line of pass 333,334.
        let (_, stopped) = run(&table, &n.to_string(), Some(1_000_001));
        assert_eq!(
            stopped,
            Err("line 3: step limit of 1000001 reached".to_string())
        );
        let (_, stopped) = run(&table, &n.to_string(), Some(1_000_002));
        assert_eq!(
            stopped,
            Err("line 4: step limit of 1000002 reached".to_string())
        );
    }
}
