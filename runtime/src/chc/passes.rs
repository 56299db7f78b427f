//! Closed forms of loops whose values are polynomials in the pass number
//! (the compiler proves a bound on their degree; see the transpiler's
//! `chesscode::closed_form`).
//!
//! Generated code gives a loop's pass as a pure function: from the values
//! the loop changes at the start of a pass to their values at its end,
//! with the steps it took and the values to watch (every sum it computed,
//! inner loops' pass counts, the amounts added inside inner loops, the
//! compared values at the end). A few passes from the current state fit
//! every one of them as a polynomial ([`Poly`](super::poly::Poly)); from the fits follow the
//! pass at which the loop ends, the last pass within the step limit and
//! the first pass in which a watched value would leave its range, so
//! whole passes are skipped exactly up to the first of those and the rest
//! runs normally.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use super::super::limits::StepCounter;
use super::poly::{fit_in_place, to_u64, Newton, Overflow, MAX_DEGREE};

/// What a watched value must satisfy on every pass skipped. Every
/// watched value must also fit in an `i64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Nothing more: a sum computed by the pass, or a compared value.
    Value,
    /// Nothing more: a place an inner loop changes, at the loop's entry or
    /// end (these and the amounts bound what the inner loop's sums reach:
    /// see [`Role::Sign`]).
    Inside,
    /// Be at least 1: an inner loop's pass count (fewer means that loop
    /// would never end).
    Positive,
    /// Have one sign (or be 0) together with the other members of its
    /// group: the amounts added to one place inside an inner loop, so the
    /// place moves one way there and every value it takes lies between
    /// its first and its last (which are watched). Groups whose amounts
    /// change sign are accepted too when the amounts and the places'
    /// watched ends ([`Role::Inside`]) are small enough that no sum inside
    /// the inner loops can leave the `i64` range (see `small_enough`).
    Sign(u16),
    /// Have one strict sign (never 0) together with the other members of
    /// its group; groups come in pairs (`2p`, `2p + 1`), of which one must
    /// keep it: the gaps between an inner loop's counter and each of its
    /// two bounds at its first and last check (the counter moves by the
    /// same amount each pass, so a bound whose gaps keep one strict sign is
    /// never met, and the loop's pass count follows the other bound).
    Apart(u16),
}

/// When a loop stops looping back: its condition on the values it
/// compares at the end of a pass, named by their watched indices (`T =
/// usize`) or given as values that change by a constant each pass
/// (`Exit<Pass>`, whose [`Exit::passes`] says when the loop ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exit<T = usize> {
    /// The compared cell.
    pub cell: T,
    /// The compared variable.
    pub var: T,
    /// The second compared cell (`CxD=V`).
    pub also: Option<T>,
    /// Loops back on inequality (`+`) rather than equality.
    pub negated: bool,
}

impl Exit {
    /// The condition `C=V+` (`also`: `CxD=V+`) on watched indices: loop
    /// back while the cells differ from the variable.
    pub const fn unequal(cell: usize, var: usize, also: Option<usize>) -> Exit {
        Exit {
            cell,
            var,
            also,
            negated: true,
        }
    }
}

/// A loop's pass as generated code reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape<'a> {
    /// A bound on the degree, in the pass number, of every value the pass
    /// starts with, watches and of its steps.
    pub degree: usize,
    /// Whether the first pass is off the pattern (an inner loop's first
    /// pass count depends on values set before the loop) and the fit
    /// starts after it.
    pub warmup: bool,
    /// One role per watched value.
    pub roles: &'a [Role],
    /// The loop's condition.
    pub exit: Exit,
}

/// How many steps a loop runs normally before generated code first tries
/// to skip the rest in closed form: a fit costs about as much as this many
/// steps (0.2 µs, measured by `runtime/examples/fit_cost.rs`), so a loop
/// that ends sooner is not slowed down by more than that, and a longer one
/// is skipped. A loop whose try costs more (its inner loops run or are
/// fitted for every pass sampled) waits as long as its last try cost; one
/// whose last try saved many times its cost tries at once: see
/// [`skip_passes`].
pub const SKIP_AFTER_STEPS: u64 = 768;

/// A try that saved at least this many times its cost makes the loop's
/// next entry try at once: its entries are long, so waiting loses more
/// than a try that does not pay (which sets the wait back to its cost).
const PAID_FACTOR: u64 = 4;

/// The longest wait: a try that saved less than it cost doubles the wait
/// (the loop's entries end soon after it), up to this many steps, so an
/// entry longer than this is always tried.
const MAX_WAIT: u64 = 1 << 20;

/// What a fit costs, in steps run normally (see [`SKIP_AFTER_STEPS`]).
const FIT_COST: u64 = SKIP_AFTER_STEPS;

/// What a fit costs, in steps, for a loop that changes `width` values
/// and watches `shape.roles`: measured in generated code (corpus programs
/// 5 and 48, 0.75–1.25 µs for 22–35 values), about 24 ns a value on top
/// of a base: [`FIT_COST`] is this for about 7 values.
fn fit_cost(shape: &Shape, width: usize) -> u64 {
    const BASE: u64 = 256;
    const PER_VALUE: u64 = 96;
    BASE + PER_VALUE * (width + shape.roles.len()) as u64
}
/// What a call of a pass function costs, in steps run normally (a pure
/// pass watches every value it computes: about 4.5 ns, a step 0.25).
const PASS_COST: u64 = 16;

thread_local! {
    /// The work done by fits and pass functions on this thread, in steps
    /// (see [`FIT_COST`], [`PASS_COST`]); [`skip_passes`] measures a try
    /// with it, the inner loops' passes and [`fit_to_end`] included.
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// Adds `steps` to this thread's [`WORK`].
fn work(steps: u64) {
    WORK.with(|work| work.set(work.get().wrapping_add(steps)));
}

/// This thread's [`WORK`] so far.
fn work_done() -> u64 {
    WORK.with(Cell::get)
}

/// One pass of a loop as a pure function: the changed values at its start
/// (read) and end (written), the watched values (written, one per role);
/// the steps it took, or `None` if it cannot be computed without running
/// it (a sum overflows, an inner loop does not end), in which case the
/// loop simply runs.
pub trait PassFn: FnMut(&[i64], &mut [i64], &mut [i64]) -> Option<u64> {}
impl<F: FnMut(&[i64], &mut [i64], &mut [i64]) -> Option<u64>> PassFn for F {}

/// Skips whole passes of a loop at the start of its first pass: changes
/// `state` to what it is after them, records their steps on `steps`, and
/// returns how many. It skips only passes before the one that ends the
/// loop, within the step limit and with every watched value in range, so
/// the loop, run normally from there, ends, fails or stops at the limit
/// exactly where it would have. `wait` is how many steps the loop runs
/// before trying (generated code keeps one per loop, starting at
/// [`SKIP_AFTER_STEPS`]): it becomes what this try cost, so a loop whose
/// tries cost much waits as long next time (ski rental, learned); 0 if
/// the try saved [`PAID_FACTOR`] times its cost, so a loop whose entries
/// are long tries at the start of its second pass; twice
/// as long (up to [`MAX_WAIT`]) if it saved less than it cost, so a loop
/// whose entries end just after the wait stops trying.
#[cold]
#[inline(never)]
pub fn skip_passes(
    steps: &mut StepCounter,
    wait: &AtomicU64,
    shape: &Shape,
    state: &mut [i64],
    pass: impl PassFn,
) -> u64 {
    let (work_before, available_before) = (work_done(), steps.available());
    let skipped = try_skip(steps, shape, state, pass);
    let cost = work_done().wrapping_sub(work_before);
    let saved = available_before - steps.available();
    let next_wait = if saved / PAID_FACTOR >= cost {
        0
    } else if saved >= cost {
        cost.max(SKIP_AFTER_STEPS)
    } else {
        let longer = wait.load(Ordering::Relaxed).saturating_mul(2);
        longer.max(cost).clamp(SKIP_AFTER_STEPS, MAX_WAIT)
    };
    wait.store(next_wait, Ordering::Relaxed);
    skipped
}

/// [`skip_passes`] without the measuring.
fn try_skip(steps: &mut StepCounter, shape: &Shape, state: &mut [i64], pass: impl PassFn) -> u64 {
    with_fit(shape, state, pass, |mut fitted, state| {
        let (first_passes, first_steps) = fitted.first_passes();
        let available = steps.available().checked_sub(first_steps)?;
        if fitted.first.as_ref().is_some_and(|first| first.ends) {
            return None;
        }
        let within_limit = fitted.last_within(available);
        let passes = fitted.safe_passes(shape, within_limit, true);
        let taken = to_u64(fitted.steps().at(passes)?)?.checked_add(first_steps)?;
        if first_passes + passes == 0 || taken > steps.available() || !fitted.commit(state, passes)
        {
            return None;
        }
        steps.try_consume(taken);
        Some(first_passes + passes)
    })
    .unwrap_or(0)
}

/// What a pass made directly by generated code costs, in steps run
/// normally (an inner loop run to its end inside a pure pass runs its
/// first passes as plain code: about 1 ns a pass).
const DIRECT_PASS_COST: u64 = 4;

/// How many passes generated code makes one by one when it runs an inner
/// loop to its end inside an enclosing loop's pure pass, before it hands
/// the rest to [`fit_to_end`]: a fit costs about as much as this many
/// passes, so a short inner loop is cheaper run than fitted.
pub const DIRECT_PASSES: u64 = FIT_COST / DIRECT_PASS_COST;

/// Records that generated code made `passes` passes one by one (see
/// [`DIRECT_PASSES`]), for the cost of the try they are part of.
#[inline]
pub fn count_direct_passes(passes: u64) {
    work(passes.saturating_mul(DIRECT_PASS_COST));
}

/// Runs a loop to its end in closed form, as part of an enclosing loop's
/// pure pass, from `state`, its values after at least one pass (so the
/// rest is on the pattern: no warm-up pass): changes `state` to its values
/// when the loop ends and returns how many more passes and steps it took,
/// or `None` if that needs running it (a sum overflows on the way, it
/// never ends, or its values are too large to fit).
pub fn fit_to_end(shape: &Shape, state: &mut [i64], pass: impl PassFn) -> Option<(u64, u64)> {
    let rest = Shape {
        warmup: false,
        ..*shape
    };
    with_fit(&rest, state, pass, |mut fitted, state| {
        let ending = fitted.safe_passes(&rest, u64::MAX - 1, false);
        if ending == 0 || fitted.ending != Some(ending) {
            return None;
        }
        let taken = to_u64(fitted.steps().at(ending)?)?;
        fitted.commit(state, ending).then_some((ending, taken))
    })
}

/// Runs `f` on `len` zeroed values: on the stack when they are few (tries
/// run often and are mostly small), else on the heap.
fn with_zeroed<T: Copy + Default, R>(len: usize, f: impl FnOnce(&mut [T]) -> R) -> R {
    const ON_STACK: usize = 96;
    if len <= ON_STACK {
        f(&mut [T::default(); ON_STACK][..len])
    } else {
        f(&mut vec![T::default(); len])
    }
}

/// Fits a loop from the values in `state` (see [`Fitted::new`]) and hands
/// the fit and `state` to `then`; `None` if the fit fails or `then` gives
/// up.
fn with_fit<R>(
    shape: &Shape,
    state: &mut [i64],
    pass: impl PassFn,
    then: impl FnOnce(Fitted<'_>, &mut [i64]) -> Option<R>,
) -> Option<R> {
    if shape.degree > MAX_DEGREE {
        return None;
    }
    let (rows, coefficients) = Fitted::sizes(shape, state.len());
    with_zeroed(rows, |rows| {
        with_zeroed(coefficients, |coefficients| {
            let fitted = Fitted::new(shape, state, pass, rows, coefficients)?;
            then(fitted, state)
        })
    })
}

/// The pass run before fitting, for a shape with a warm-up pass.
struct FirstPass {
    /// Its steps.
    steps: u64,
    /// Whether the loop ends after it.
    ends: bool,
}

/// A loop's values fitted from its first passes (after the warm-up pass,
/// if any: pass numbers here count from the fit's start).
struct Fitted<'a> {
    /// The warm-up pass, if the shape has one.
    first: Option<FirstPass>,
    /// How many values the loop changes.
    width: usize,
    /// How many values it watches.
    watch_width: usize,
    /// Newton coefficients, `stride` per polynomial in pass `i`: the
    /// changed values at the start of pass `i`, the watched values of pass
    /// `i`, the steps of passes `0 … i - 1`, then the differences of the
    /// compared values whose zeros (or non-zeros) end the loop.
    coefficients: &'a mut [i128],
    /// Coefficients per polynomial (the number of passes sampled).
    stride: usize,
    /// How many passes the loop runs, if known from a straight-line
    /// condition (else found within the safe passes).
    ending: Option<u64>,
}

impl<'a> Fitted<'a> {
    /// How many sampled values and coefficients [`Fitted::new`] needs for
    /// a loop of this shape changing `width` values.
    fn sizes(shape: &Shape, width: usize) -> (usize, usize) {
        let samples = shape.degree + 2;
        let columns = width + shape.roles.len() + 1;
        let differences = 1 + usize::from(shape.exit.also.is_some());
        (columns * (samples + 1), samples * (columns + differences))
    }

    /// Runs `degree + 2` passes from `start` and fits each value on the
    /// first `degree + 1` of them; `None` if a pass fails or the last pass
    /// does not match the fit (which would mean the compiler's degree
    /// bound is wrong: the loop then just runs). `rows` and
    /// `coefficients` are zeroed, as large as [`Fitted::sizes`] says.
    fn new(
        shape: &Shape,
        start: &[i64],
        mut pass: impl PassFn,
        rows: &mut [i64],
        coefficients: &'a mut [i128],
    ) -> Option<Fitted<'a>> {
        let samples = shape.degree + 2;
        work(fit_cost(shape, start.len()) + PASS_COST * (samples as u64 + u64::from(shape.warmup)));
        let (width, watch_width) = (start.len(), shape.roles.len());
        // Row `k`: the changed values at the start of pass `k`, the watched
        // values of pass `k` and its steps; one more row for the values
        // after the last pass.
        let columns = width + watch_width + 1;
        let mut first = None;
        {
            let (state, watch) = rows.split_at_mut(width);
            if shape.warmup {
                let steps = pass(start, state, &mut watch[..watch_width])?;
                let ends = ends_after(shape, watch);
                first = Some(FirstPass { steps, ends });
            } else {
                state.copy_from_slice(start);
            }
        }
        for k in 0..samples {
            let (done, next) = rows.split_at_mut(columns * (k + 1));
            let (state, watch) = done[columns * k..].split_at_mut(width);
            let (watch, steps) = watch.split_at_mut(watch_width);
            steps[0] = pass(state, &mut next[..width], watch)? as i64;
        }
        // All samples fitted: the last one checks the degree bound (its
        // Newton coefficient must be 0).
        for (column, fit) in coefficients
            .chunks_exact_mut(samples)
            .take(columns)
            .enumerate()
        {
            for (k, value) in fit.iter_mut().enumerate() {
                *value = i128::from(rows[columns * k + column]);
            }
            fit_in_place(fit);
            if fit[samples - 1] != 0 {
                return None;
            }
        }
        // The steps of one pass, summed: one degree more, which the last
        // coefficient has room for.
        let steps = &mut coefficients[samples * (columns - 1)..samples * columns];
        steps.copy_within(..samples - 1, 1);
        steps[0] = 0;
        let mut fitted = Fitted {
            first,
            width,
            watch_width,
            coefficients,
            stride: samples,
            ending: None,
        };
        let exit = shape.exit;
        for (d, other) in [Some(exit.var), exit.also].iter().flatten().enumerate() {
            for k in 0..samples {
                let (cell, other) = (
                    fitted.column(width + exit.cell),
                    fitted.column(width + other),
                );
                let difference = cell[k].checked_sub(other[k])?;
                let at = samples * (columns + d) + k;
                fitted.coefficients[at] = difference;
            }
        }
        fitted.ending = fitted.straight_ending(shape);
        Some(fitted)
    }

    /// The coefficients of polynomial `p` (see [`Fitted::coefficients`]).
    fn column(&self, p: usize) -> &[i128] {
        &self.coefficients[self.stride * p..self.stride * (p + 1)]
    }

    /// Changed value `v` at the start of pass `i`.
    fn state(&self, v: usize) -> Newton<'_> {
        Newton::new(self.column(v))
    }

    /// The watched values of pass `i`, in order.
    fn watched(&self) -> impl Iterator<Item = Newton<'_>> {
        (self.width..self.width + self.watch_width).map(move |p| Newton::new(self.column(p)))
    }

    /// The steps of passes `0 … i - 1`.
    fn steps(&self) -> Newton<'_> {
        Newton::new(self.column(self.width + self.watch_width))
    }

    /// The differences whose zeros (or non-zeros) end the loop.
    fn differences(&self) -> impl Iterator<Item = Newton<'_>> {
        self.coefficients[self.stride * (self.width + self.watch_width + 1)..]
            .chunks_exact(self.stride)
            .map(Newton::new)
    }

    /// How many passes and steps the warm-up took (none without one).
    fn first_passes(&self) -> (u64, u64) {
        self.first.as_ref().map_or((0, 0), |first| (1, first.steps))
    }

    /// The largest `n` whose passes `0 … n - 1` take at most `available`
    /// steps (a pass takes at least one).
    fn last_within(&self, available: u64) -> u64 {
        let steps = self.steps();
        if steps.degree() <= 1 {
            // The same number of steps each pass (at least one).
            return steps
                .at(1)
                .and_then(to_u64)
                .map_or(0, |per_pass| available / per_pass.max(1));
        }
        let fits = |n: u64| steps.at(n).is_some_and(|s| s <= i128::from(available));
        last_where(available, fits)
    }

    /// How many passes the loop runs when its condition is decided by
    /// straight lines or constants (found in constant time);
    /// `Some(u64::MAX)` if it never ends.
    fn straight_ending(&self, shape: &Shape) -> Option<u64> {
        if self.differences().any(|d| d.degree() > 1) {
            return None;
        }
        self.ending_before(shape, u64::MAX - 1).ok()
    }

    /// How many passes the loop runs if it ends within `n` passes
    /// (`u64::MAX` if not).
    fn ending_before(&self, shape: &Shape, n: u64) -> Result<u64, Overflow> {
        let mut ending = u64::MAX;
        for difference in self.differences() {
            // Looping back on inequality ends at a zero, on equality at a
            // non-zero, of the difference at the end of a pass.
            let last = if shape.exit.negated {
                difference.first_zero(n)?
            } else {
                difference.first_nonzero(n)?
            };
            if let Some(last) = last {
                ending = ending.min(last + 1);
            }
        }
        Ok(ending)
    }

    /// How many passes from the start may be taken at once: at most
    /// `limit`, all with their watched values within their roles, and
    /// (`before_end`) before the pass that ends the loop or (else) up to
    /// and including it.
    fn safe_passes(&mut self, shape: &Shape, limit: u64, before_end: bool) -> u64 {
        let through_end = |ending: u64| if before_end { ending - 1 } else { ending };
        let mut cap = limit;
        if let Some(ending) = self.ending {
            cap = cap.min(through_end(ending));
        }
        let safe = last_where(cap, |n| self.in_range(shape, n));
        if self.ending.is_none() {
            // The condition is a curve: look for its end among the safe passes.
            match self.ending_before(shape, safe.saturating_add(1)) {
                Ok(ending) => {
                    self.ending = Some(ending);
                    return safe.min(through_end(ending));
                }
                Err(Overflow) => return 0,
            }
        }
        safe
    }

    /// Whether every watched value keeps its role on passes `0 … n - 1`.
    fn in_range(&self, shape: &Shape, n: u64) -> bool {
        if n == 0 {
            return true;
        }
        // Per sign group (a bit each): whether some member is below 0,
        // some above; per apart group, whether some member is at most 0,
        // some at least 0. A loop with more groups than bits is not
        // skipped.
        let (mut below, mut above) = (0u128, 0u128);
        let (mut not_above, mut not_below) = (0u128, 0u128);
        // The largest magnitude of any watched value, and of any inner
        // loop's pass count.
        let (mut magnitude, mut most_passes) = (1i128, 0i128);
        let mut groups = 0u128;
        for (poly, role) in self.watched().zip(shape.roles) {
            let Some((low, high)) = poly.extremes(n) else {
                return false;
            };
            if low < i128::from(i64::MIN) || high > i128::from(i64::MAX) {
                return false;
            }
            if matches!(role, Role::Inside | Role::Sign(_)) {
                magnitude = magnitude.max(-low).max(high);
            }
            match *role {
                Role::Value | Role::Inside => {}
                Role::Positive if low < 1 => return false,
                Role::Positive => most_passes = most_passes.max(high),
                Role::Sign(group) if group >= 128 => return false,
                Role::Sign(group) => {
                    below |= u128::from(low < 0) << group;
                    above |= u128::from(high > 0) << group;
                    groups |= 1 << group;
                }
                Role::Apart(group) if group >= 128 => return false,
                Role::Apart(group) => {
                    not_above |= u128::from(low <= 0) << group;
                    not_below |= u128::from(high >= 0) << group;
                }
            }
        }
        // An apart group fails if it has members on both sides of 0 or at
        // it; a pair fails if both its groups do.
        let failing = not_above & not_below;
        let pairs_failing = failing & (failing >> 1) & (u128::MAX / 3);
        let signs_hold =
            below & above == 0 || small_enough(magnitude, most_passes, groups.count_ones());
        signs_hold && pairs_failing == 0
    }

    /// Sets `state` to the values at the start of pass `n`; `false` (and
    /// `state` unchanged) if one does not fit.
    fn commit(&self, state: &mut [i64], n: u64) -> bool {
        if (0..self.width).any(|v| self.state(v).at_i64(n).is_none()) {
            return false;
        }
        for (v, value) in state.iter_mut().enumerate() {
            *value = self.state(v).at_i64(n).unwrap_or(*value);
        }
        true
    }
}

/// Whether every value the places of inner loops take stays in `i64`
/// when the amounts added to some of them change sign inside them (so
/// they need not move one way between their watched ends, nor the places
/// they feed), given the largest magnitude of the amounts and of the
/// places' values at the inner loops' entries and ends, the most passes of any inner loop and the number
/// of places added to (`groups`): a place that receives only amounts of
/// watched size stays within `magnitude · (passes + 1)`, one that receives
/// those places' values within that times `passes + 1` again, and places
/// feed one another without cycles, so `groups` levels bound them all.
fn small_enough(magnitude: i128, most_passes: i128, groups: u32) -> bool {
    let mut bound = magnitude;
    for _ in 0..groups {
        bound = match bound.checked_mul(most_passes + 1) {
            Some(bound) if bound <= i128::from(i64::MAX) => bound,
            _ => return false,
        };
    }
    true
}

/// Whether a loop stops after a pass with these watched values.
fn ends_after(shape: &Shape, watch: &[i64]) -> bool {
    let exit = shape.exit;
    let cell = watch[exit.cell];
    let var = watch[exit.var];
    let also = exit.also.map(|also| watch[also]);
    if exit.negated {
        cell == var || also == Some(cell)
    } else {
        cell != var || also.is_some_and(|also| also != cell)
    }
}

/// The largest `n ≤ cap` for which `holds(n)`, given that `holds(0)` and
/// that `holds` stays false once false: `cap` itself if it holds, else a
/// doubling then a binary search (logarithmic in the answer).
fn last_where(cap: u64, mut holds: impl FnMut(u64) -> bool) -> u64 {
    if holds(cap) {
        return cap;
    }
    // holds(low) and !holds(high).
    let (mut low, mut high) = (0u64, 1u64);
    while high < cap && holds(high) {
        low = high;
        high = high.saturating_mul(2).min(cap);
    }
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if holds(middle) {
            low = middle;
        } else {
            high = middle;
        }
    }
    low
}

#[cfg(test)]
mod tests {
    use super::super::super::limits::Options;
    use super::*;

    /// `b1+`, `c1+`, `c2xb1+`, loop while b1 ≠ N: state [b1, c1, c2],
    /// watched [b1, c1, c2, b1 (end), N].
    fn triangle(n: i64) -> impl PassFn {
        move |s: &[i64], next: &mut [i64], watch: &mut [i64]| {
            let b1 = s[0].checked_add(1)?;
            let c1 = s[1].checked_add(1)?;
            let c2 = s[2].checked_add(b1)?;
            watch.copy_from_slice(&[b1, c1, c2, b1, n]);
            next.copy_from_slice(&[b1, c1, c2]);
            Some(4)
        }
    }

    const TRIANGLE: Shape = Shape {
        degree: 2,
        warmup: false,
        roles: &[Role::Value; 5],
        exit: Exit::unequal(3, 4, None),
    };

    /// A fresh wait, as generated code starts each loop's.
    fn wait() -> AtomicU64 {
        AtomicU64::new(SKIP_AFTER_STEPS)
    }

    #[test]
    fn a_try_that_costs_more_makes_the_loop_wait_longer() {
        let mut steps = StepCounter::new(&Options::default());
        // A cheap try that saves more than it costs, not much more (299
        // passes of 4 steps): one fit of 4 passes.
        let cheap = wait();
        skip_passes(&mut steps, &cheap, &TRIANGLE, &mut [0, 0, 0], triangle(300));
        let triangle_cost = fit_cost(&TRIANGLE, 3) + 4 * PASS_COST;
        assert_eq!(cheap.load(Ordering::Relaxed), triangle_cost);
        // Each sampled pass runs an inner loop of 400 passes to its end:
        // DIRECT_PASSES one by one (as generated code does) and a fit,
        // for each of 4 samples; the outer loop's 9 passes skipped save
        // less than 4 times that.
        let costly = wait();
        let inner = |s: &[i64], next: &mut [i64], watch: &mut [i64]| {
            let mut inner_state = [DIRECT_PASSES as i64, 0, 0];
            count_direct_passes(DIRECT_PASSES);
            let (more, more_steps) = fit_to_end(&TRIANGLE, &mut inner_state, triangle(400))?;
            let inner_steps = 4 * DIRECT_PASSES + more_steps;
            assert_eq!(more, 400 - DIRECT_PASSES);
            let b1 = s[0] + 1;
            watch.copy_from_slice(&[b1, 0, 0, b1, 10]);
            next.copy_from_slice(&[b1, 0, 0]);
            Some(inner_steps + 4)
        };
        skip_passes(&mut steps, &costly, &TRIANGLE, &mut [0, 0, 0], inner);
        let inner_cost = DIRECT_PASSES * DIRECT_PASS_COST + triangle_cost;
        let expected = triangle_cost + 4 * inner_cost;
        assert_eq!(costly.load(Ordering::Relaxed), expected);
    }

    #[test]
    fn a_try_that_paid_well_makes_the_next_entry_try_at_once() {
        let mut steps = StepCounter::new(&Options::default());
        let paid = wait();
        // 9,999 passes of 4 steps saved: more than PAID_FACTOR times the cost.
        skip_passes(
            &mut steps,
            &paid,
            &TRIANGLE,
            &mut [0, 0, 0],
            triangle(10_000),
        );
        assert_eq!(paid.load(Ordering::Relaxed), 0);
        // Then an entry that ends soon sets the wait back.
        skip_passes(&mut steps, &paid, &TRIANGLE, &mut [0, 0, 0], triangle(20));
        let triangle_cost = fit_cost(&TRIANGLE, 3) + 4 * PASS_COST;
        assert_eq!(paid.load(Ordering::Relaxed), triangle_cost);
    }

    #[test]
    fn tries_that_do_not_pay_make_the_wait_double() {
        let mut steps = StepCounter::new(&Options::default());
        let wait = wait();
        let mut expected = SKIP_AFTER_STEPS;
        // 99 passes of 4 steps saved: less than a try costs.
        for _ in 0..20 {
            skip_passes(&mut steps, &wait, &TRIANGLE, &mut [0, 0, 0], triangle(100));
            expected = (2 * expected).min(MAX_WAIT);
            assert_eq!(wait.load(Ordering::Relaxed), expected);
        }
        assert_eq!(expected, MAX_WAIT);
    }

    #[test]
    fn skips_to_the_last_pass() {
        let mut steps = StepCounter::new(&Options::default());
        let mut state = [0, 0, 0];
        assert_eq!(
            skip_passes(&mut steps, &wait(), &TRIANGLE, &mut state, triangle(1000)),
            999
        );
        assert_eq!(state, [999, 999, 999 * 1000 / 2]);
        assert_eq!(steps.executed(), 999 * 4);
    }

    #[test]
    fn fits_to_the_end() {
        // From after k passes, the rest: 1000 - k passes of 4 steps.
        for k in [1i64, 2, 5, 100, 998, 999] {
            let mut state = [k, k, k * (k + 1) / 2];
            let rest = (1000 - k) as u64;
            assert_eq!(
                fit_to_end(&TRIANGLE, &mut state, triangle(1000)),
                Some((rest, 4 * rest)),
                "k = {k}"
            );
            assert_eq!(state, [1000, 1000, 500_500], "k = {k}");
        }
        // Never ends: b1 passes N.
        let mut state = [5, 0, 0];
        assert_eq!(fit_to_end(&TRIANGLE, &mut state, triangle(2)), None);
        // An overflow on the way: nothing changes.
        let mut state = [10, 0, i64::MAX - 100];
        assert_eq!(fit_to_end(&TRIANGLE, &mut state, triangle(1_000)), None);
        assert_eq!(state, [10, 0, i64::MAX - 100]);
    }

    #[test]
    fn stops_within_the_step_limit() {
        let mut steps = StepCounter::new(&Options::with_max_steps(4001));
        let mut state = [0, 0, 0];
        assert_eq!(
            skip_passes(&mut steps, &wait(), &TRIANGLE, &mut state, triangle(5000)),
            1000
        );
        assert_eq!(steps.executed(), 4000);
    }

    #[test]
    fn stops_before_the_pass_that_overflows() {
        let mut steps = StepCounter::new(&Options::default());
        // c2 goes i64::MAX - 10 + 1 + 2 + 3 + 4 = i64::MAX: the fifth pass,
        // which would add 5, is not skipped; the normal loop reports it.
        let mut state = [0, 0, i64::MAX - 10];
        assert_eq!(
            skip_passes(&mut steps, &wait(), &TRIANGLE, &mut state, triangle(-1)),
            4
        );
        assert_eq!(state, [4, 4, i64::MAX]);
    }

    #[test]
    fn sign_groups_and_positive_counts() {
        // One value falling through 0 in a sign group, or a count reaching
        // 0; beside them a large value and an inner loop's pass count of 3.
        let falling = |s: &[i64], next: &mut [i64], watch: &mut [i64]| {
            let v = s[0] - 1;
            watch.copy_from_slice(&[v, v, i64::MAX / 3, 3, -100]);
            next.copy_from_slice(&[v]);
            Some(1)
        };
        let shape = |role| Shape {
            degree: 1,
            warmup: false,
            roles: &*Box::leak(Box::new([
                Role::Value,
                role,
                Role::Inside,
                Role::Positive,
                Role::Value,
            ])),
            exit: Exit::unequal(0, 4, None),
        };
        for (role, expected) in [(Role::Sign(0), 10), (Role::Positive, 9), (Role::Value, 19)] {
            let mut steps = StepCounter::new(&Options::with_max_steps(19));
            let mut state = [10];
            let passes = skip_passes(&mut steps, &wait(), &shape(role), &mut state, falling);
            assert_eq!(passes, expected, "{role:?}");
        }
    }

    #[test]
    fn sign_changes_are_allowed_while_no_sum_can_overflow() {
        let bound = i64::MAX / 4;
        assert!(small_enough(i128::from(bound), 3, 1));
        assert!(!small_enough(i128::from(bound), 4, 1));
        assert!(small_enough(1 << 20, 1 << 10, 4));
        assert!(!small_enough(1 << 20, 1 << 10, 5));
        assert!(small_enough(i128::from(i64::MAX), 1 << 30, 0));
        // A value falling through 0 in a sign group, all values small:
        // the skip goes on to the step limit.
        let falling = |s: &[i64], next: &mut [i64], watch: &mut [i64]| {
            let v = s[0] - 1;
            watch.copy_from_slice(&[v, v, 3, -100]);
            next.copy_from_slice(&[v]);
            Some(1)
        };
        let shape = Shape {
            degree: 1,
            warmup: false,
            roles: &[Role::Value, Role::Sign(0), Role::Positive, Role::Value],
            exit: Exit::unequal(0, 3, None),
        };
        let mut steps = StepCounter::new(&Options::with_max_steps(19));
        let passes = skip_passes(&mut steps, &wait(), &shape, &mut [10], falling);
        assert_eq!(passes, 19);
    }

    #[test]
    fn one_group_of_each_apart_pair_keeps_a_strict_sign() {
        // A value falling from 10 through 0 in group 0 and a constant in
        // group 1: the pair holds while either group keeps a strict sign.
        let falling = |constant: i64| {
            move |s: &[i64], next: &mut [i64], watch: &mut [i64]| {
                let v = s[0] - 1;
                watch.copy_from_slice(&[v, v, constant, -100]);
                next.copy_from_slice(&[v]);
                Some(1)
            }
        };
        let shape = Shape {
            degree: 1,
            warmup: false,
            roles: &[Role::Value, Role::Apart(0), Role::Apart(1), Role::Value],
            exit: Exit::unequal(0, 3, None),
        };
        // The constant is 0: group 1 fails, group 0 holds for 9 passes.
        // The constant is 5: group 1 holds, the step limit decides.
        for (constant, expected) in [(0, 9), (5, 19)] {
            let mut steps = StepCounter::new(&Options::with_max_steps(19));
            let mut state = [10];
            let passes = skip_passes(&mut steps, &wait(), &shape, &mut state, falling(constant));
            assert_eq!(passes, expected, "constant {constant}");
        }
    }

    #[test]
    fn last_where_finds_the_boundary() {
        for boundary in [0u64, 1, 2, 3, 17, 1000, u64::MAX / 3] {
            assert_eq!(last_where(u64::MAX, |n| n <= boundary), boundary);
            assert_eq!(last_where(10, |n| n <= boundary), boundary.min(10));
        }
    }
}
