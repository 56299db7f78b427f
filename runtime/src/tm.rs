//! The Turing machine of Chessoteric and BTM programs: a tape growing to
//! the right, and the input (state 1) and output (state 2) behaviours.
//! Rules are compiled into a `match` by the code generator; the
//! interpreter looks them up in a table.

use std::io::{BufRead, Write};

use super::error::{ErrorKind, RuntimeError};
use super::io::{parse_i64, Io};

/// The tape and the head.
#[derive(Clone, Debug)]
pub struct Tape {
    cells: Vec<i64>,
    head: usize,
}

impl Tape {
    /// A tape holding `initial` from cell 0 (a single 0 if empty), head
    /// at cell 0.
    pub fn new(initial: &[i64]) -> Self {
        let cells = if initial.is_empty() {
            vec![0]
        } else {
            initial.to_vec()
        };
        Tape { cells, head: 0 }
    }

    /// The symbol under the head.
    #[inline(always)]
    pub fn read(&self) -> i64 {
        self.cells[self.head]
    }

    /// Writes `symbol` under the head.
    #[inline(always)]
    pub fn write(&mut self, symbol: i64) {
        self.cells[self.head] = symbol;
    }

    /// Moves right, growing the tape with a blank (0) if needed.
    #[inline(always)]
    pub fn right(&mut self) {
        self.head += 1;
        if self.head == self.cells.len() {
            self.cells.push(0);
        }
    }

    /// Moves left; at cell 0 the head stays.
    #[inline(always)]
    pub fn left(&mut self) {
        self.head = self.head.saturating_sub(1);
    }

    /// The head's cell index.
    pub fn head(&self) -> usize {
        self.head
    }

    /// The cells written so far.
    pub fn cells(&self) -> &[i64] {
        &self.cells
    }
}

/// State 1: reads a line and writes its value — the integer it holds
/// (trimmed, optional sign), else the sum of its characters' code points —
/// then state 0 and a move right (done by the caller).
pub fn input_value<R: BufRead, W: Write>(io: &mut Io<R, W>) -> Result<i64, RuntimeError> {
    let Some(line) = io.read_line()? else {
        return Err(RuntimeError::new(ErrorKind::Other {
            message: "the input state wants a line, but standard input has ended".to_string(),
        }));
    };
    let text = String::from_utf8_lossy(&line);
    let trimmed = text.trim();
    let is_integer = {
        let digits = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
        !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
    };
    if is_integer {
        return parse_i64(trimmed.as_bytes()).ok_or_else(|| {
            RuntimeError::new(ErrorKind::Overflow {
                what: format!("the input number {trimmed}"),
            })
        });
    }
    Ok(text.chars().map(|c| i64::from(u32::from(c))).sum())
}

/// State 2: prints the character with code point `symbol`, or its decimal
/// digits if it is not a Unicode scalar value.
#[inline]
pub fn output_symbol<R: BufRead, W: Write>(
    io: &mut Io<R, W>,
    symbol: i64,
) -> Result<(), RuntimeError> {
    if io.write_code_point(symbol)? {
        return Ok(());
    }
    io.write_i64(symbol)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tape_grows_right_and_stops_at_the_left_end() {
        let mut tape = Tape::new(&[]);
        assert_eq!(tape.read(), 0);
        tape.left();
        assert_eq!(tape.head(), 0);
        tape.write(7);
        tape.right();
        tape.right();
        assert_eq!(tape.cells(), &[7, 0, 0]);
    }

    #[test]
    fn input_lines_are_numbers_or_code_point_sums() {
        let mut io = Io::new(&b" -12 \nAB\n\n"[..], Vec::new());
        assert_eq!(input_value(&mut io).unwrap(), -12);
        assert_eq!(input_value(&mut io).unwrap(), 65 + 66);
        assert_eq!(input_value(&mut io).unwrap(), 0);
        assert!(input_value(&mut io).is_err());
    }

    #[test]
    fn output_of_characters_and_non_characters() {
        let mut out = Vec::new();
        {
            let mut io = Io::new(&b""[..], &mut out);
            output_symbol(&mut io, 72).unwrap();
            output_symbol(&mut io, 0x2654).unwrap();
            output_symbol(&mut io, 0xD800).unwrap();
            output_symbol(&mut io, -5).unwrap();
            io.flush().unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), "H♔55296-5");
    }
}
