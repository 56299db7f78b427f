//! Run options and the step limit.

use super::error::{ErrorKind, RuntimeError};

/// Options for one run of a compiled or interpreted program.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Stop with a runtime error once this many steps have executed and
    /// another would start. `None` runs without limit.
    pub max_steps: Option<u64>,
    /// Stop with a runtime error when what the program grows (a tape,
    /// pieces, stacks) would take more than this many bytes. `None` means
    /// [`DEFAULT_MAX_MEMORY`](super::memory::DEFAULT_MAX_MEMORY) (2 GiB);
    /// `Some(u64::MAX)` sets no limit but the system's.
    pub max_memory: Option<u64>,
}

impl Options {
    /// Options with a step limit of `max_steps`.
    pub fn with_max_steps(max_steps: u64) -> Self {
        Options {
            max_steps: Some(max_steps),
            max_memory: None,
        }
    }

    /// The memory limit in bytes (the default if none is set).
    pub fn memory_limit(&self) -> u64 {
        self.max_memory.unwrap_or(super::memory::DEFAULT_MAX_MEMORY)
    }
}

/// Counts executed steps against the limit. It is `Copy`, and its cold
/// paths take it by value, so generated code can keep a copy in a local
/// that never has its address taken: the optimiser then keeps the count
/// in a register through loops (a counter behind a reference that a call
/// in the loop may see is loaded and stored every pass).
#[derive(Clone, Copy, Debug)]
pub struct StepCounter {
    remaining: u64,
    limit: u64,
    limited: bool,
}

impl StepCounter {
    /// A counter for the limit in `options`.
    pub fn new(options: &Options) -> Self {
        match options.max_steps {
            Some(limit) => StepCounter {
                remaining: limit,
                limit,
                limited: true,
            },
            None => StepCounter {
                remaining: u64::MAX,
                limit: u64::MAX,
                limited: false,
            },
        }
    }

    /// Records that a step of source line `line` starts; fails if the limit
    /// has been reached.
    #[inline(always)]
    pub fn tick(&mut self, line: u32) -> Result<(), RuntimeError> {
        self.tick_at(line, 0)
    }

    /// [`tick`](Self::tick) for the command at 1-based character `column`
    /// of line `line`, for lines that hold several (a game's annotated
    /// moves); `0` is the line's one command.
    #[inline(always)]
    pub fn tick_at(&mut self, line: u32, column: u32) -> Result<(), RuntimeError> {
        if self.remaining == 0 {
            return self.exhausted(line, column);
        }
        self.remaining -= 1;
        Ok(())
    }

    /// Records `count` steps at once if all of them may run; otherwise
    /// records nothing and returns `false`, and the caller runs those steps
    /// one [`tick`](Self::tick) at a time so the limit stops the right one.
    /// Generated code uses this for straight-line runs of steps.
    #[inline(always)]
    pub fn try_consume(&mut self, count: u64) -> bool {
        if self.remaining >= count {
            self.remaining -= count;
            true
        } else {
            false
        }
    }

    /// Records up to `count` steps at once: all of them when the limit
    /// allows (the usual case), else as many as it allows, which is
    /// returned. Generated code runs a straight-line run of `count` steps
    /// after one call, and stops with [`stopped`](Self::stopped) before
    /// the first step past the number returned.
    #[inline(always)]
    pub fn take_up_to(&mut self, count: u64) -> u64 {
        if self.remaining >= count {
            self.remaining -= count;
            count
        } else {
            let (after, allowed) = self.take_rest(count);
            *self = after;
            allowed
        }
    }

    /// [`take_up_to`](Self::take_up_to) past the end of the count: the
    /// counter after it and how many steps it allowed.
    #[cold]
    #[inline(never)]
    fn take_rest(mut self, count: u64) -> (StepCounter, u64) {
        if !self.limited {
            // u64::MAX steps ran without a limit: keep going, as written.
            self.remaining = u64::MAX - count;
            return (self, count);
        }
        let allowed = self.remaining;
        self.remaining = 0;
        (self, allowed)
    }

    /// The one-line guard of step `ordinal` (1-based) of a straight-line
    /// run for which [`take_up_to`](Self::take_up_to) returned `allowed`:
    /// `Ok` when it may run, else the step-limit error at `line`
    /// ([`stopped`](Self::stopped)).
    #[inline(always)]
    pub fn allows(self, allowed: u64, ordinal: u64, line: u32) -> Result<(), RuntimeError> {
        if allowed < ordinal {
            return Err(self.stopped(line));
        }
        Ok(())
    }

    /// The error for a step of source line `line` that
    /// [`take_up_to`](Self::take_up_to) did not allow.
    #[cold]
    #[inline(never)]
    pub fn stopped(self, line: u32) -> RuntimeError {
        RuntimeError::at(ErrorKind::StepLimit { limit: self.limit }, line)
    }

    /// How many more steps may run before the limit (without a limit, a
    /// very large number). Generated code that skips many steps at once
    /// takes at most this many and leaves the rest to single steps.
    #[inline(always)]
    pub fn available(&self) -> u64 {
        self.remaining
    }

    /// Records that steps ran until only `available` may still run (no
    /// more than [`available`](Self::available) gave): generated code
    /// counts down a local copy while it runs and hands it back.
    #[inline(always)]
    pub fn spend_down_to(&mut self, available: u64) {
        debug_assert!(available <= self.remaining);
        self.remaining = available;
    }

    /// [`tick_at`](Self::tick_at) at the end of the count: the step limit's
    /// error, or (without a limit) the count starts again. Unlike the cold
    /// paths of [`take_up_to`](Self::take_up_to) it takes `&mut self`:
    /// `tick_at` then ends in a tail call, and the Turing machines' hot
    /// loops compile to the same code as before the by-value paths came.
    #[cold]
    #[inline(never)]
    fn exhausted(&mut self, line: u32, column: u32) -> Result<(), RuntimeError> {
        if self.limited {
            return Err(
                RuntimeError::at(ErrorKind::StepLimit { limit: self.limit }, line)
                    .at_column(column),
            );
        }
        // u64::MAX steps ran without a limit: keep going, as written.
        self.remaining = u64::MAX - 1;
        Ok(())
    }

    /// How many steps have executed so far.
    pub fn executed(&self) -> u64 {
        self.limit - self.remaining
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limit_lets_exactly_n_steps_run() {
        let mut steps = StepCounter::new(&Options::with_max_steps(2));
        assert!(steps.tick(1).is_ok());
        assert!(steps.tick(2).is_ok());
        let err = steps.tick(3).unwrap_err();
        assert_eq!(err.to_string(), "line 3: step limit of 2 reached");
        assert_eq!(steps.executed(), 2);
    }

    #[test]
    fn a_step_of_one_command_of_a_line_names_its_column() {
        let mut steps = StepCounter::new(&Options::with_max_steps(1));
        assert!(steps.tick_at(1, 9).is_ok());
        let err = steps.tick_at(1, 17).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1, column 17: step limit of 1 reached"
        );
    }

    #[test]
    fn consuming_several_steps_is_all_or_nothing() {
        let mut steps = StepCounter::new(&Options::with_max_steps(5));
        assert!(steps.try_consume(3));
        assert!(!steps.try_consume(3));
        assert_eq!(steps.executed(), 3);
        assert!(steps.tick(1).is_ok());
        assert!(steps.tick(1).is_ok());
        assert!(steps.tick(1).is_err());
    }

    #[test]
    fn taking_several_steps_takes_what_the_limit_allows() {
        let mut steps = StepCounter::new(&Options::with_max_steps(5));
        assert_eq!(steps.take_up_to(3), 3);
        assert_eq!(steps.take_up_to(3), 2);
        assert_eq!(steps.executed(), 5);
        assert_eq!(steps.take_up_to(3), 0);
        assert_eq!(
            steps.stopped(7).to_string(),
            "line 7: step limit of 5 reached"
        );
        let mut unlimited = StepCounter::new(&Options::default());
        assert_eq!(unlimited.take_up_to(u64::MAX), u64::MAX);
        assert_eq!(
            unlimited.take_up_to(3),
            3,
            "keeps going past u64::MAX steps"
        );
    }

    #[test]
    fn available_counts_down_to_the_limit() {
        let mut steps = StepCounter::new(&Options::with_max_steps(4));
        assert_eq!(steps.available(), 4);
        assert!(steps.try_consume(3));
        assert_eq!(steps.available(), 1);
    }

    #[test]
    fn zero_limit_stops_before_the_first_step() {
        let mut steps = StepCounter::new(&Options::with_max_steps(0));
        assert!(steps.tick(1).is_err());
    }
}
