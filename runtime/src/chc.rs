//! Chess Code run-time helpers: checked addition and output in the
//! current mode. Cells and variables live in generated code (as locals) or
//! in the interpreter; both call these.

use std::io::{BufRead, Write};

use super::error::{ErrorKind, RuntimeError};
use super::io::Io;

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
        },
        line,
    ))
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
    fn overflow_is_an_error() {
        assert_eq!(add(1, 2, 1).unwrap(), 3);
        let err = add(i64::MAX, 1, 4).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 4: the sum 9223372036854775807 + 1 does not fit in an i64"
        );
    }
}
