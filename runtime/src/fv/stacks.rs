//! The two stacks: the action a fall performs, by the faller's value.

use std::io::{BufRead, Write};

use super::super::error::{ErrorKind, RuntimeError};
use super::super::io::Io;
use super::super::memory;
use super::board::side;
use super::Game;

/// The error of a stack action that needs more values than the stack has.
#[cold]
#[inline(never)]
fn short_stack(white: bool, action: i64, need: usize, has: usize, line: u32) -> RuntimeError {
    let colour = if white { "white" } else { "black" };
    RuntimeError::at(
        ErrorKind::Other {
            message: format!(
                "stack action {action} needs {need} value{} on the {colour} stack, which has {has}",
                if need == 1 { "" } else { "s" },
            ),
            code: Some("E0608"),
        },
        line,
    )
}

/// The error of a stack sum (action 0) or difference (action 1) that
/// leaves the i64 range.
#[cold]
#[inline(never)]
fn sum_overflow(action: i64, a: i64, b: i64, line: u32) -> RuntimeError {
    let op = if action == 0 { "+" } else { "-" };
    RuntimeError::at(
        ErrorKind::Overflow {
            what: format!("{a} {op} {b}"),
        },
        line,
    )
}

impl Game {
    #[inline]
    pub(super) fn stack_action<R: BufRead, W: Write>(
        &mut self,
        io: &mut Io<R, W>,
        white: bool,
        value: i64,
        line: u32,
    ) -> Result<(), RuntimeError> {
        let action = value.rem_euclid(6);
        let stack = &mut self.stacks[side(white)];
        let need = match action {
            0..=2 => 2,
            4 | 5 => 1,
            _ => 0,
        };
        if stack.len() < need {
            return Err(short_stack(white, action, need, stack.len(), line));
        }
        match action {
            0..=2 => {
                let a = stack.pop().unwrap_or_default();
                let b = stack.pop().unwrap_or_default();
                let result = match action {
                    0 => a.checked_add(b),
                    1 => a.checked_sub(b),
                    _ => Some(i64::from(a == b)),
                };
                let result = result.ok_or_else(|| sum_overflow(action, a, b, line))?;
                stack.push(result);
            }
            3 => {
                let value = io.read_i64(line)?;
                memory::push(stack, value).map_err(|kind| RuntimeError::at(kind.into(), line))?;
            }
            4 => {
                let top = stack.last().copied().unwrap_or_default();
                io.write_i64_line(top)?;
            }
            _ => {
                stack.pop();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::error::ErrorKind;
    use super::super::testing::{moving, rules, WAZIR};
    use super::super::{PieceValue, Rules};
    use super::*;

    /// A 3×3 board with a hole on b2, kings on a1 (white) and c3 (black),
    /// and wazirs of values 0..=5 (kinds 0..=5; kind 6 is the king) that
    /// fall into the hole from a2, and the program's input.
    struct Falls<'a> {
        game: Game,
        rules: Rules<'a>,
        io: Io<&'static [u8], Vec<u8>>,
    }

    impl Falls<'_> {
        /// Drops a white wazir of value `value` into the hole; the result
        /// of the move.
        fn fall(&mut self, value: u16) -> Result<bool, RuntimeError> {
            self.game.place(value, true, 1, 1);
            let mv = moving(true, value, 1, 4);
            self.game.try_move(&self.rules, &mut self.io, mv, 7)
        }

        /// White's stack.
        fn stack(&self) -> &[i64] {
            self.game.stack(true)
        }
    }

    /// Runs `test` on the falls of a game reading `input`.
    fn with_falls(input: &'static [u8], test: impl FnOnce(&mut Falls)) {
        let automata = [WAZIR; 7];
        let mut values: Vec<PieceValue> = (0..6).map(PieceValue::Number).collect();
        values.push(PieceValue::Royal);
        let rules = rules(&automata, &values);
        let game = Game::with_position(&rules, &[(4, 1)], &[(0, 6, true), (8, 6, false)]);
        let io = Io::new(input, Vec::new());
        test(&mut Falls { game, rules, io });
    }

    #[test]
    fn every_stack_action_and_its_errors() {
        with_falls(b"5 7 9223372036854775807", |falls| {
            // 3: push input, twice.
            assert!(falls.fall(3).unwrap());
            assert!(falls.fall(3).unwrap());
            assert_eq!(falls.stack(), &[5, 7]);
            // 1: A - B with A the top.
            assert!(falls.fall(1).unwrap());
            assert_eq!(falls.stack(), &[2]);
            // 4: print the top, keep it.
            assert!(falls.fall(4).unwrap());
            assert_eq!(falls.stack(), &[2]);
            // 3 (reads the last number) then 2: equal? no.
            assert!(falls.fall(3).unwrap());
            assert!(falls.fall(2).unwrap());
            assert_eq!(falls.stack(), &[0]);
            // 5: pop; then 0 needs two values.
            assert!(falls.fall(5).unwrap());
            assert!(falls.stack().is_empty());
            let error = falls.fall(0).unwrap_err();
            assert_eq!(error.line, Some(7));
            assert!(
                error
                    .to_string()
                    .contains("stack action 0 needs 2 values on the white stack, which has 0"),
                "{error}"
            );
            // All three numbers were read; the next read finds none.
            let error = falls.fall(3).unwrap_err();
            assert!(matches!(error.kind, ErrorKind::InputEnded), "{error}");
        });
    }

    #[test]
    fn a_sum_that_leaves_i64_is_an_error() {
        with_falls(b"9223372036854775807 1", |falls| {
            assert!(falls.fall(3).unwrap());
            assert!(falls.fall(3).unwrap());
            let error = falls.fall(0).unwrap_err();
            assert!(
                error.to_string().contains("1 + 9223372036854775807"),
                "{error}"
            );
        });
    }
}
