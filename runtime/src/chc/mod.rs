//! Chess Code run-time helpers: checked addition and output in the
//! current mode. Cells and variables live in generated code (as locals) or
//! in the interpreter; both call these.

use std::io::{BufRead, Write};

mod passes;
mod poly;
pub mod table;

pub use self::passes::{
    count_direct_passes, fit_to_end, skip_passes, Exit, Role, Shape, DIRECT_PASSES,
    SKIP_AFTER_STEPS,
};
pub use self::poly::MAX_DEGREE;

use super::error::{ErrorKind, RuntimeError};
use super::io::Io;
use super::limits::StepCounter;

/// `a + b`, or a runtime error naming source line `line`.
#[inline(always)]
pub fn add(a: i64, b: i64, line: u32) -> Result<i64, RuntimeError> {
    match a.checked_add(b) {
        Some(sum) => Ok(sum),
        None => Err(overflow(a, b, line)),
    }
}

#[cold]
#[inline(never)]
fn overflow(a: i64, b: i64, line: u32) -> RuntimeError {
    RuntimeError::at(
        ErrorKind::Overflow {
            what: format!("the sum {a} + {b}"),
        },
        line,
    )
}

/// Calls `f` out of line, as a cold path: generated code wraps a loop's
/// rare closed-form try in it (a `move` closure over copies of the
/// locals, handing back their new values), so the try's code and the
/// values it needs do not crowd the loop's registers. Inlined, a try
/// inside a loop made its normal passes up to 1.6 times slower.
#[cold]
#[inline(never)]
pub fn cold_path<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Outputs `value`: in decimal with no separator (raw mode), or as the
/// character with that code point, UTF-8 encoded (ASCII mode).
#[inline]
pub fn output<R: BufRead, W: Write>(
    io: &mut Io<R, W>,
    value: i64,
    ascii: bool,
    line: u32,
) -> Result<(), RuntimeError> {
    if !ascii {
        return io.write_i64(value);
    }
    if io.write_code_point(value)? {
        return Ok(());
    }
    Err(RuntimeError::at(
        ErrorKind::Other {
            message: format!(
                "cannot output {value} in ASCII mode: it is not a Unicode scalar value"
            ),
            code: Some("E0607"),
        },
        line,
    ))
}

/// A cell or variable in a loop whose body only adds loop-invariant
/// amounts to it: its value before a pass and the amounts one pass adds,
/// summarised. The closed form of such loops (see [`skip`]) is exact in
/// the values, the steps and where an overflow happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pass {
    value: i64,
    /// What one pass adds in all.
    delta: i128,
    /// The lowest and highest running sum of the adds within a pass
    /// (including the sum of none, 0).
    low: i128,
    high: i128,
}

impl Pass {
    /// `value`, to which each pass adds `adds` in this order.
    #[inline]
    pub fn new(value: i64, adds: &[i64]) -> Self {
        Pass::summing(value, adds.iter().copied())
    }

    /// [`Pass::new`] of adds given one by one.
    #[inline]
    pub fn summing(value: i64, adds: impl IntoIterator<Item = i64>) -> Self {
        let (mut delta, mut low, mut high) = (0i128, 0i128, 0i128);
        for add in adds {
            delta += i128::from(add);
            low = low.min(delta);
            high = high.max(delta);
        }
        Pass {
            value,
            delta,
            low,
            high,
        }
    }

    /// A value the loop does not change.
    #[inline]
    pub fn fixed(value: i64) -> Self {
        Pass::new(value, &[])
    }

    /// How many whole passes run without any of their additions to this
    /// value overflowing (`u64::MAX`: never).
    #[inline]
    pub fn passes_in_range(&self) -> u64 {
        let (min, max) = (i128::from(i64::MIN), i128::from(i64::MAX));
        let value = i128::from(self.value);
        if value + self.high > max || value + self.low < min {
            return 0;
        }
        // Pass j (from 1) reaches value + (j - 1) * delta + the running sums.
        let room = match self.delta {
            0 => return u64::MAX,
            delta if delta > 0 => (max - value - self.high) / delta,
            delta => (value + self.low - min) / -delta,
        };
        saturating_u64(room + 1)
    }

    /// Whether `passes` whole passes run without any of their additions
    /// overflowing (`passes_in_range() >= passes`), without a division.
    #[inline]
    fn in_range_for(&self, passes: u64) -> bool {
        if passes == 0 {
            return true;
        }
        let (min, max) = (i128::from(i64::MIN), i128::from(i64::MAX));
        let value = i128::from(self.value);
        if value + self.high > max || value + self.low < min {
            return false;
        }
        // Pass `passes` reaches value + (passes - 1) * delta + the running sums.
        let Some(last) = i128::from(passes - 1)
            .checked_mul(self.delta)
            .and_then(|moved| moved.checked_add(value))
        else {
            return false;
        };
        match self.delta {
            0 => true,
            delta if delta > 0 => last.checked_add(self.high).is_some_and(|top| top <= max),
            _ => last
                .checked_add(self.low)
                .is_some_and(|bottom| bottom >= min),
        }
    }

    /// The value after `passes` whole passes (which must be in range).
    #[inline]
    pub fn after(&self, passes: u64) -> i64 {
        let value = i128::from(self.value) + i128::from(passes) * self.delta;
        value.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64
    }
}

impl Exit<Pass> {
    /// After how many passes a do-while loop comparing these values ends
    /// (`u64::MAX`: never): `cell` against `var` and, if given, `also`,
    /// looping back on equality with both (or, `negated`, on inequality
    /// with both).
    #[inline]
    pub fn passes(self) -> u64 {
        let Exit {
            cell,
            var,
            also,
            negated,
        } = self;
        // The difference of two values after pass i: a + b * i.
        let difference = |other: Pass| {
            let b = cell.delta - other.delta;
            (i128::from(cell.value) - i128::from(other.value), b)
        };
        let end = |(a, b): (i128, i128)| -> u64 {
            if negated {
                // Ends at the first pass where the difference is 0.
                match b {
                    0 if a == 0 => 1,
                    0 => u64::MAX,
                    b if (-a) % b == 0 && (-a) / b >= 1 => saturating_u64(-a / b),
                    _ => u64::MAX,
                }
            } else if a + b != 0 {
                // Ends at the first pass where the difference is not 0.
                1
            } else if b != 0 {
                2
            } else {
                u64::MAX
            }
        };
        let first = end(difference(var));
        also.map_or(first, |also| first.min(end(difference(also))))
    }
}

/// `value` as a `u64`, `u64::MAX` if larger (callers pass non-negative
/// values).
#[inline]
fn saturating_u64(value: i128) -> u64 {
    if value >= i128::from(u64::MAX) {
        u64::MAX
    } else {
        value.max(0) as u64
    }
}

/// How many whole passes of a loop to skip at once, counting their steps:
/// fewer than `exit` (the pass that ends the loop runs normally), none
/// whose additions would overflow (see [`Pass::passes_in_range`]), and only
/// as many as the step limit allows for `steps_per_pass` each. The loop
/// then runs what is left pass by pass, so the exit, an overflow or the
/// step limit happen exactly where they would.
#[inline]
pub fn skip(steps: &mut StepCounter, steps_per_pass: u64, exit: u64, changed: &[Pass]) -> u64 {
    let mut passes = exit
        .saturating_sub(1)
        .min(steps.available() / steps_per_pass);
    for value in changed {
        passes = passes.min(value.passes_in_range());
    }
    let consumed = steps.try_consume(passes * steps_per_pass);
    debug_assert!(consumed);
    passes
}

/// Runs a counting loop to its end in closed form, as part of an
/// enclosing loop's pure pass (see [`fit_to_end`]): how many passes it
/// runs (`exit`, from [`exit_after`]), or `None` if it never ends or one
/// of its sums overflows on the way. Its values are then
/// [`Pass::after`] that many passes.
#[inline]
pub fn counting_to_end(exit: u64, changed: &[Pass]) -> Option<u64> {
    (exit != u64::MAX && changed.iter().all(|value| value.passes_in_range() >= exit))
        .then_some(exit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_and_ascii_output() {
        let mut out = Vec::new();
        {
            let mut io = Io::new(&b""[..], &mut out);
            output(&mut io, 68, false, 1).unwrap();
            output(&mut io, 68, true, 1).unwrap();
            output(&mut io, 0x265A, true, 1).unwrap();
            assert!(output(&mut io, 0xD800, true, 7).is_err());
            assert!(output(&mut io, -1, true, 7).is_err());
            io.flush().unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "68D♚");
    }

    #[test]
    fn passes_in_range_stop_before_the_overflowing_pass() {
        assert_eq!(Pass::new(i64::MAX - 10, &[3]).passes_in_range(), 3);
        assert_eq!(Pass::new(i64::MAX - 10, &[20, -20]).passes_in_range(), 0);
        assert_eq!(Pass::new(i64::MIN + 10, &[5, -7]).passes_in_range(), 5);
        assert_eq!(Pass::new(7, &[1, -1]).passes_in_range(), u64::MAX);
        assert_eq!(Pass::new(5, &[i64::MAX, i64::MAX]).passes_in_range(), 0);
        assert_eq!(Pass::new(-5, &[3, 4]).after(3), 16);
    }

    #[test]
    fn in_range_for_agrees_with_passes_in_range() {
        let values = [0, 5, -7, i64::MAX - 10, i64::MIN + 10, i64::MAX, i64::MIN];
        let adds: [&[i64]; 7] = [
            &[1],
            &[-1],
            &[3, -5],
            &[20, -20],
            &[i64::MAX, i64::MAX],
            &[i64::MIN, 7],
            &[],
        ];
        for value in values {
            for add in adds {
                let pass = Pass::new(value, add);
                let in_range = pass.passes_in_range();
                for n in [0, 1, 2, 3, 4, 5, 100, u64::MAX / 2, u64::MAX] {
                    assert_eq!(pass.in_range_for(n), in_range >= n, "{value} {add:?} {n}");
                }
                for n in [
                    in_range.saturating_sub(1),
                    in_range,
                    in_range.saturating_add(1),
                ] {
                    assert_eq!(pass.in_range_for(n), in_range >= n, "{value} {add:?} {n}");
                }
            }
        }
    }

    /// When a loop comparing these values ends ([`Exit::passes`]).
    fn exit_after(cell: Pass, var: Pass, also: Option<Pass>, negated: bool) -> u64 {
        Exit {
            cell,
            var,
            also,
            negated,
        }
        .passes()
    }

    #[test]
    fn exits_of_counting_loops() {
        let counter = Pass::new(0, &[1]);
        assert_eq!(exit_after(counter, Pass::fixed(10), None, true), 10);
        assert_eq!(exit_after(counter, Pass::fixed(0), None, true), u64::MAX);
        assert_eq!(exit_after(counter, Pass::fixed(1), None, false), 2);
        assert_eq!(exit_after(counter, Pass::fixed(5), None, false), 1);
        assert_eq!(
            exit_after(Pass::fixed(3), Pass::fixed(3), None, false),
            u64::MAX
        );
        assert_eq!(exit_after(Pass::fixed(3), Pass::fixed(3), None, true), 1);
        let down = Pass::new(10, &[-2]);
        assert_eq!(
            exit_after(down, Pass::fixed(0), Some(Pass::fixed(4)), true),
            3
        );
    }

    #[test]
    fn skipping_respects_exit_overflow_and_steps() {
        let mut steps = StepCounter::new(&super::super::limits::Options::with_max_steps(100));
        let counter = Pass::new(0, &[1]);
        assert_eq!(skip(&mut steps, 3, 10, &[counter]), 9);
        assert_eq!(steps.executed(), 27);
        assert_eq!(skip(&mut steps, 3, 1000, &[counter]), 24);
        let near = Pass::new(i64::MAX - 4, &[2]);
        assert_eq!(skip(&mut steps, 1, u64::MAX, &[near]), 1);
    }

    #[test]
    fn overflow_is_an_error() {
        assert_eq!(add(1, 2, 1).unwrap(), 3);
        let err = add(i64::MAX, 1, 4).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 4: the sum 9223372036854775807 + 1 does not fit in an i64"
        );
    }
}
