//! The one error type of a running program.

use std::fmt;

/// A runtime error: what went wrong and, when known, the source line that
/// was executing (1-based line number in the program file).
#[derive(Debug)]
pub struct RuntimeError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The 1-based source line being executed, if known.
    pub line: Option<u32>,
}

/// The kinds of runtime error shared by every language.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The step limit was reached: `limit` steps ran and another would start.
    StepLimit {
        /// The limit that was set.
        limit: u64,
    },
    /// Numeric input was wanted but standard input had no more tokens.
    InputEnded,
    /// Numeric input was wanted but the next token is not a decimal `i64`.
    InputNotANumber {
        /// The token that was found (lossily decoded).
        found: String,
    },
    /// Arithmetic on program values left the `i64` range.
    Overflow {
        /// What was being computed, e.g. "target row".
        what: String,
    },
    /// A jump target read from input names no line.
    NoSuchLabel {
        /// The label that was read.
        label: i64,
    },
    /// Reading standard input or writing standard output failed.
    Io {
        /// The operating system's message.
        message: String,
    },
    /// A language-specific error with its own message.
    Other {
        /// The message, without the `error: ` prefix.
        message: String,
    },
}

impl RuntimeError {
    /// An error of `kind` raised while executing source line `line`.
    pub fn at(kind: ErrorKind, line: u32) -> Self {
        RuntimeError {
            kind,
            line: Some(line),
        }
    }

    /// An error of `kind` not tied to a source line.
    pub fn new(kind: ErrorKind) -> Self {
        RuntimeError { kind, line: None }
    }

    /// The same error, attributed to source line `line` unless it already
    /// names one.
    pub fn in_line(mut self, line: u32) -> Self {
        if self.line.is_none() {
            self.line = Some(line);
        }
        self
    }

    /// The exit code a program stops with after this error (always 1).
    pub fn exit_code(&self) -> i32 {
        1
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::StepLimit { limit } => write!(f, "step limit of {limit} reached"),
            ErrorKind::InputEnded => {
                write!(f, "expected a number on standard input, found end of input")
            }
            ErrorKind::InputNotANumber { found } => write!(
                f,
                "expected a number on standard input, found `{found}` (a decimal integer in the i64 range)"
            ),
            ErrorKind::Overflow { what } => write!(f, "{what} does not fit in an i64"),
            ErrorKind::NoSuchLabel { label } => {
                write!(f, "jump target {label} read from input names no line")
            }
            ErrorKind::Io { message } => write!(f, "input/output failed: {message}"),
            ErrorKind::Other { message } => f.write_str(message),
        }
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.kind),
            None => write!(f, "{}", self.kind),
        }
    }
}

impl std::error::Error for RuntimeError {}

impl From<std::io::Error> for RuntimeError {
    fn from(err: std::io::Error) -> Self {
        RuntimeError::new(ErrorKind::Io {
            message: err.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_line() {
        let err = RuntimeError::at(ErrorKind::StepLimit { limit: 5 }, 3);
        assert_eq!(err.to_string(), "line 3: step limit of 5 reached");
        let err = RuntimeError::new(ErrorKind::InputEnded).in_line(7);
        assert_eq!(
            err.to_string(),
            "line 7: expected a number on standard input, found end of input"
        );
    }
}
