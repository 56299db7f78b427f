//! Closed forms of loops whose values are polynomials in the pass number
//! (the compiler proves a bound on their degree; see the transpiler's
//! `chesscode::closed_form`).
//!
//! Generated code gives a loop's pass as a pure function: from the values
//! the loop changes at the start of a pass to their values at its end,
//! with the steps it took and the values to watch (every sum it computed,
//! inner loops' pass counts, the amounts added inside inner loops, the
//! compared values at the end). A few passes from the current state fit
//! every one of them as a polynomial ([`Poly`]); from the fits follow the
//! pass at which the loop ends, the last pass within the step limit and
//! the first pass in which a watched value would leave its range, so
//! whole passes are skipped exactly up to the first of those and the rest
//! runs normally.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use super::super::limits::StepCounter;
use super::poly::{to_u64, Overflow, Poly};

/// What a watched value must satisfy on every pass skipped. Every
/// watched value must also fit in an `i64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// Nothing more: a sum computed by the pass, or a compared value.
    Value,
    /// Be at least 1: an inner loop's pass count (fewer means that loop
    /// would never end).
    Positive,
    /// Have one sign (or be 0) together with the other members of its
    /// group: the amounts added to one place inside an inner loop, so the
    /// place moves one way there and every value it takes lies between
    /// its first and its last (which are watched).
    Sign(u16),
}

/// When a loop stops looping back: its condition on watched values taken
/// at the end of a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Exit {
    /// The compared cell's watched index.
    pub cell: usize,
    /// The compared variable's watched index.
    pub var: usize,
    /// The second compared cell's watched index (`CxD=V`).
    pub also: Option<usize>,
    /// Loops back on inequality (`+`) rather than equality.
    pub negated: bool,
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
/// steps, so a loop that ends sooner is not slowed down by more than that,
/// and a longer one is skipped. A loop whose try costs more (its inner
/// loops run or are fitted for every pass sampled) waits as long as its
/// last try cost: see [`skip_passes`].
pub const SKIP_AFTER_STEPS: u64 = 2048;

/// What a fit costs, in steps run normally (see [`SKIP_AFTER_STEPS`]).
const FIT_COST: u64 = SKIP_AFTER_STEPS;
/// What a call of a pass function costs, in steps run normally (a pure
/// pass watches every value it computes: about 4.5 ns, a step 0.25).
const PASS_COST: u64 = 16;

thread_local! {
    /// The work done by fits and pass functions on this thread, in steps
    /// (see [`FIT_COST`], [`PASS_COST`]); [`skip_passes`] measures a try
    /// with it, the inner loops' [`run_to_end`] included.
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
/// tries cost much waits as long next time (ski rental, learned).
#[cold]
#[inline(never)]
pub fn skip_passes(
    steps: &mut StepCounter,
    wait: &AtomicU64,
    shape: &Shape,
    state: &mut [i64],
    pass: impl PassFn,
) -> u64 {
    let before = work_done();
    let skipped = try_skip(steps, shape, state, pass);
    let cost = work_done().wrapping_sub(before);
    wait.store(cost.max(SKIP_AFTER_STEPS), Ordering::Relaxed);
    skipped
}

/// [`skip_passes`] without the measuring.
fn try_skip(steps: &mut StepCounter, shape: &Shape, state: &mut [i64], pass: impl PassFn) -> u64 {
    let Some(mut fitted) = Fitted::new(shape, state, pass) else {
        return 0;
    };
    let (first_passes, first_steps) = fitted.first_passes();
    let Some(available) = steps.available().checked_sub(first_steps) else {
        return 0;
    };
    if fitted.first.as_ref().is_some_and(|first| first.ends) {
        return 0;
    }
    let within_limit = fitted.last_within(available);
    let passes = fitted.safe_passes(shape, within_limit, true);
    let taken = fitted
        .steps
        .at(passes)
        .and_then(to_u64)
        .and_then(|s| s.checked_add(first_steps));
    match taken {
        Some(taken)
            if first_passes + passes > 0
                && taken <= steps.available()
                && fitted.commit(state, passes) =>
        {
            steps.try_consume(taken);
            first_passes + passes
        }
        _ => 0,
    }
}

/// How many passes [`run_to_end`] makes one by one, calling the pass
/// function, before it fits the rest: a fit costs about as much as this
/// many passes, so a short inner loop is cheaper run than fitted.
pub const DIRECT_PASSES: u64 = 128;

/// Runs a loop (after its label) to its end in closed form, as part of an
/// enclosing loop's pure pass: changes `state` to its values when the
/// loop ends and returns how many passes and steps it took, or `None` if
/// that needs running it (a sum overflows on the way, it never ends, or
/// its values are too large to fit). The first [`DIRECT_PASSES`] passes
/// are made one by one (every sum checked as it is made); a loop still
/// running after them is fitted from there.
pub fn run_to_end(shape: &Shape, state: &mut [i64], mut pass: impl PassFn) -> Option<(u64, u64)> {
    let mut current = state.to_vec();
    let mut next = vec![0; state.len()];
    let mut watch = vec![0; shape.roles.len()];
    let mut direct_steps = 0u64;
    for passes in 1..=DIRECT_PASSES {
        work(PASS_COST);
        direct_steps = direct_steps.checked_add(pass(&current, &mut next, &mut watch)?)?;
        ::std::mem::swap(&mut current, &mut next);
        if ends_after(shape, &watch) {
            state.copy_from_slice(&current);
            return Some((passes, direct_steps));
        }
    }
    // Past the first pass: the rest is on the pattern.
    let rest = Shape {
        warmup: false,
        ..*shape
    };
    let mut fitted = Fitted::new(&rest, &current, pass)?;
    let ending = fitted.safe_passes(&rest, u64::MAX - 1, false);
    if ending == 0 || fitted.ending != Some(ending) || !fitted.commit(state, ending) {
        return None;
    }
    let taken = to_u64(fitted.steps.at(ending)?)?;
    Some((DIRECT_PASSES + ending, direct_steps.checked_add(taken)?))
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
struct Fitted {
    /// The warm-up pass, if the shape has one.
    first: Option<FirstPass>,
    /// The changed values at the start of pass `i`.
    state: Vec<Poly>,
    /// The watched values of pass `i`.
    watched: Vec<Poly>,
    /// The steps of passes `0 … i - 1`.
    steps: Poly,
    /// How many passes the loop runs, if known from a straight-line
    /// condition (else found within the safe passes).
    ending: Option<u64>,
}

impl Fitted {
    /// Runs `degree + 2` passes from `start` and fits each value on the
    /// first `degree + 1` of them; `None` if a pass fails or the last pass
    /// does not match the fit (which would mean the compiler's degree
    /// bound is wrong: the loop then just runs).
    fn new(shape: &Shape, start: &[i64], mut pass: impl PassFn) -> Option<Fitted> {
        let samples = shape.degree + 2;
        work(FIT_COST + PASS_COST * (samples as u64 + u64::from(shape.warmup)));
        let (width, watch_width) = (start.len(), shape.roles.len());
        let mut first = None;
        let mut after_first = Vec::new();
        let start = if shape.warmup {
            after_first.resize(width, 0);
            let mut watch = vec![0; watch_width];
            let steps = pass(start, &mut after_first, &mut watch)?;
            let ends = ends_after(shape, &watch);
            first = Some(FirstPass { steps, ends });
            &after_first[..]
        } else {
            start
        };
        let mut states = Vec::with_capacity(width * (samples + 1));
        let mut watches = vec![0; watch_width * samples];
        let mut pass_steps = Vec::with_capacity(samples);
        states.extend_from_slice(start);
        for k in 0..samples {
            states.resize(width * (k + 2), 0);
            let (done, next) = states.split_at_mut(width * (k + 1));
            let watch = &mut watches[watch_width * k..watch_width * (k + 1)];
            pass_steps.push(pass(&done[width * k..], next, watch)? as i64);
        }
        // All samples fitted: the last one checks the degree bound (its
        // Newton coefficient must be 0).
        // Column `v` of `rows` (`columns` wide) fitted into `into`.
        let fit_columns = |rows: &[i64], columns: usize, into: &mut Vec<Poly>| {
            into.reserve_exact(columns);
            for v in 0..columns {
                let poly = Poly::fit((0..samples).map(|k| rows[columns * k + v]));
                if poly.degree() > shape.degree {
                    return None;
                }
                into.push(poly);
            }
            Some(())
        };
        let (mut state, mut watched) = (Vec::new(), Vec::new());
        fit_columns(&states, width, &mut state)?;
        fit_columns(&watches, watch_width, &mut watched)?;
        let steps = Poly::fit(pass_steps.iter().copied());
        if steps.degree() > shape.degree {
            return None;
        }
        let steps = steps.prefix_sum();
        let mut fitted = Fitted {
            first,
            state,
            watched,
            steps,
            ending: None,
        };
        fitted.ending = fitted.straight_ending(shape);
        Some(fitted)
    }

    /// How many passes and steps the warm-up took (none without one).
    fn first_passes(&self) -> (u64, u64) {
        self.first.as_ref().map_or((0, 0), |first| (1, first.steps))
    }

    /// The largest `n` whose passes `0 … n - 1` take at most `available`
    /// steps (a pass takes at least one).
    fn last_within(&self, available: u64) -> u64 {
        if self.steps.degree() <= 1 {
            // The same number of steps each pass (at least one).
            return self.steps.at(1).map_or(0, |per_pass| {
                (i128::from(available) / per_pass.max(1)).min(i128::from(available)) as u64
            });
        }
        let fits = |n: u64| self.steps.at(n).is_some_and(|s| s <= i128::from(available));
        last_where(available, fits)
    }

    /// The differences whose zeros (or non-zeros) end the loop.
    fn differences(&self, shape: &Shape) -> Option<Vec<Poly>> {
        let exit = shape.exit;
        let cell = &self.watched[exit.cell];
        let mut differences = vec![cell.minus(&self.watched[exit.var])?];
        if let Some(also) = exit.also {
            differences.push(cell.minus(&self.watched[also])?);
        }
        Some(differences)
    }

    /// How many passes the loop runs when its condition is decided by
    /// straight lines or constants (found in constant time);
    /// `Some(u64::MAX)` if it never ends.
    fn straight_ending(&self, shape: &Shape) -> Option<u64> {
        let differences = self.differences(shape)?;
        if differences.iter().any(|d| d.degree() > 1) {
            return None;
        }
        self.ending_before(shape, u64::MAX - 1).ok()
    }

    /// How many passes the loop runs if it ends within `n` passes
    /// (`u64::MAX` if not).
    fn ending_before(&self, shape: &Shape, n: u64) -> Result<u64, Overflow> {
        let mut ending = u64::MAX;
        for difference in self.differences(shape).ok_or(Overflow)? {
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
        // some above. A loop with more groups than bits is not skipped.
        let (mut below, mut above) = (0u128, 0u128);
        for (poly, role) in self.watched.iter().zip(shape.roles) {
            let Some((low, high)) = poly.extremes(n) else {
                return false;
            };
            if low < i128::from(i64::MIN) || high > i128::from(i64::MAX) {
                return false;
            }
            match *role {
                Role::Value => {}
                Role::Positive if low < 1 => return false,
                Role::Positive => {}
                Role::Sign(group) if group >= 128 => return false,
                Role::Sign(group) => {
                    below |= u128::from(low < 0) << group;
                    above |= u128::from(high > 0) << group;
                }
            }
        }
        below & above == 0
    }

    /// Sets `state` to the values at the start of pass `n`; `false` if
    /// one does not fit.
    fn commit(&self, state: &mut [i64], n: u64) -> bool {
        let Some(values) = self
            .state
            .iter()
            .map(|poly| poly.at_i64(n))
            .collect::<Option<Vec<_>>>()
        else {
            return false;
        };
        state.copy_from_slice(&values);
        true
    }
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
        exit: Exit {
            cell: 3,
            var: 4,
            also: None,
            negated: true,
        },
    };

    /// A fresh wait, as generated code starts each loop's.
    fn wait() -> AtomicU64 {
        AtomicU64::new(SKIP_AFTER_STEPS)
    }

    #[test]
    fn a_try_that_costs_more_makes_the_loop_wait_longer() {
        let mut steps = StepCounter::new(&Options::default());
        // A cheap try: one fit of 4 passes.
        let cheap = wait();
        skip_passes(
            &mut steps,
            &cheap,
            &TRIANGLE,
            &mut [0, 0, 0],
            triangle(1000),
        );
        assert_eq!(cheap.load(Ordering::Relaxed), FIT_COST + 4 * PASS_COST);
        // Each sampled pass runs an inner loop of 400 passes to its end: 128
        // one by one and a fit, for each of 4 samples.
        let costly = wait();
        let inner = |s: &[i64], next: &mut [i64], watch: &mut [i64]| {
            let mut inner_state = [0, 0, 0];
            let (_, inner_steps) = run_to_end(&TRIANGLE, &mut inner_state, triangle(400))?;
            let b1 = s[0] + 1;
            watch.copy_from_slice(&[b1, 0, 0, b1, 1000]);
            next.copy_from_slice(&[b1, 0, 0]);
            Some(inner_steps + 4)
        };
        skip_passes(&mut steps, &costly, &TRIANGLE, &mut [0, 0, 0], inner);
        let expected = FIT_COST + 4 * PASS_COST + 4 * (128 * PASS_COST + FIT_COST + 4 * PASS_COST);
        assert_eq!(costly.load(Ordering::Relaxed), expected);
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
    fn runs_to_the_end() {
        let mut state = [0, 0, 0];
        assert_eq!(
            run_to_end(&TRIANGLE, &mut state, triangle(1000)),
            Some((1000, 4000))
        );
        assert_eq!(state, [1000, 1000, 500_500]);
        // Never ends: b1 passes N.
        let mut state = [5, 0, 0];
        assert_eq!(run_to_end(&TRIANGLE, &mut state, triangle(2)), None);
    }

    #[test]
    fn short_loops_run_pass_by_pass_long_ones_are_fitted() {
        // Around DIRECT_PASSES: the same answers as running every pass.
        let direct = DIRECT_PASSES as i64;
        for n in [1, 2, direct - 1, direct, direct + 1, direct + 2, 3 * direct] {
            let mut state = [0, 0, 0];
            let result = run_to_end(&TRIANGLE, &mut state, triangle(n));
            assert_eq!(result, Some((n as u64, 4 * n as u64)), "n = {n}");
            assert_eq!(state, [n, n, n * (n + 1) / 2], "n = {n}");
        }
        // An overflow on a pass made one by one, and on a fitted one.
        for passes in [10, direct + 10] {
            let mut state = [0, 0, i64::MAX - passes * (passes + 1) / 2 + 1];
            assert_eq!(
                run_to_end(&TRIANGLE, &mut state, triangle(1_000)),
                None,
                "{passes}"
            );
            assert_eq!(state[0], 0, "state unchanged");
        }
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
        // One value falling through 0 in a sign group, or a count reaching 0.
        let falling = |s: &[i64], next: &mut [i64], watch: &mut [i64]| {
            let v = s[0] - 1;
            watch.copy_from_slice(&[v, v, -100]);
            next.copy_from_slice(&[v]);
            Some(1)
        };
        let shape = |role| Shape {
            degree: 1,
            warmup: false,
            roles: &*Box::leak(Box::new([Role::Value, role, Role::Value])),
            exit: Exit {
                cell: 0,
                var: 2,
                also: None,
                negated: true,
            },
        };
        for (role, expected) in [(Role::Sign(0), 10), (Role::Positive, 9), (Role::Value, 19)] {
            let mut steps = StepCounter::new(&Options::with_max_steps(19));
            let mut state = [10];
            let passes = skip_passes(&mut steps, &wait(), &shape(role), &mut state, falling);
            assert_eq!(passes, expected, "{role:?}");
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
