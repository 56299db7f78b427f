//! The one error type of a running program.

use std::fmt;

/// A runtime error: what went wrong and, when known, the source line that
/// was executing (1-based line number in the program file), the column of
/// its command when a line holds several, and where in the program that is
/// ([`Location`], filled in from the program's [`SourceMap`] when the error
/// leaves it).
#[derive(Clone, Debug)]
pub struct RuntimeError {
    /// What went wrong.
    pub kind: ErrorKind,
    /// The 1-based source line being executed, if known.
    pub line: Option<u32>,
    /// The 1-based column (in characters) of the command being executed,
    /// for lines that hold several (a game's annotated moves); `None`
    /// means the line's one command.
    pub column: Option<u32>,
    /// The command that failed, for [`RuntimeError::render`].
    pub location: Option<Box<Location>>,
}

/// The command a runtime error happened in: enough of the program's source
/// to show it the way compile errors are shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// The program file's name.
    pub file: String,
    /// The 1-based line.
    pub line: u32,
    /// The 1-based column (in characters) where the command starts.
    pub column: u32,
    /// How many terminal columns the caret spans (at least 1).
    pub width: u32,
    /// The terminal column (0-based) in `text` where the caret starts.
    pub caret: u32,
    /// The source line's text as shown (tabs expanded), or for a long
    /// line the part around the command, with `…` where it was cut.
    pub text: String,
}

/// What generated code knows of its source, for locating runtime errors:
/// the file name and, for every command a runtime error can name, one line
/// of `lines`: `LINE COLUMN WIDTH CARET TEXT` — the line number, where the
/// command starts (1-based, in characters), how many terminal columns the
/// caret under it covers and where it starts in the shown text (0-based),
/// and the shown text (the source line with tabs expanded, or the part of a
/// long line around the command). Columns on a terminal count characters
/// by display width, as the compiler's diagnostics do. A line
/// that holds several commands has an entry for each. Sorted by line and
/// column. Only read when an error happens.
#[derive(Clone, Copy, Debug)]
pub struct SourceMap<'a> {
    /// The program file's name.
    pub file: &'a str,
    /// The lines, as described above.
    pub lines: &'a str,
}

impl SourceMap<'_> {
    /// A map of no lines (errors keep only their line number).
    pub const EMPTY: SourceMap<'static> = SourceMap {
        file: "",
        lines: "",
    };

    /// The location of the command at `column` of `line` (with no
    /// column, of the line's first command), if the map has it.
    pub fn locate(&self, line: u32, column: Option<u32>) -> Option<Location> {
        self.lines.lines().find_map(|entry| {
            let mut fields = entry.splitn(5, ' ');
            let number = fields.next()?.parse::<u32>().ok()?;
            let at = fields.next()?.parse::<u32>().ok()?;
            if number != line || column.is_some_and(|column| column != at) {
                return None;
            }
            let width = fields.next()?.parse::<u32>().ok()?;
            let caret = fields.next()?.parse::<u32>().ok()?;
            Some(Location {
                file: self.file.to_string(),
                line,
                column: at,
                width: width.max(1),
                caret,
                text: fields.next().unwrap_or("").to_string(),
            })
        })
    }
}

/// The kinds of runtime error shared by every language.
#[derive(Clone, Debug)]
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
    /// A Turing machine's input state found no line of input. The error
    /// names the rule that entered the state.
    InputLineMissing,
    /// A Turing machine's input state read a line holding an integer
    /// outside the `i64` range. The error names the rule that entered the
    /// state.
    InputLineTooLarge {
        /// The integer as written (trimmed).
        number: String,
    },
    /// The program grew past its memory limit (`--max-memory`).
    MemoryLimit {
        /// The limit, in bytes.
        limit: u64,
    },
    /// The system refused the memory the program asked for to grow.
    OutOfMemory,
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
        /// Its diagnostic code (`E0607`), `None` for an internal error.
        code: Option<&'static str>,
    },
}

impl RuntimeError {
    /// An error of `kind` raised while executing source line `line`.
    pub fn at(kind: ErrorKind, line: u32) -> Self {
        RuntimeError {
            kind,
            line: Some(line),
            column: None,
            location: None,
        }
    }

    /// An internal error: a table chess2rs wrote that does not read back
    /// (`message` says which and where). Never a user's mistake.
    pub fn internal(message: String) -> Self {
        RuntimeError::new(ErrorKind::Other {
            message: format!("internal error: {message}"),
            code: None,
        })
    }

    /// An error of `kind` not tied to a source line.
    pub fn new(kind: ErrorKind) -> Self {
        RuntimeError {
            kind,
            line: None,
            column: None,
            location: None,
        }
    }

    /// The same error, at the command that starts at 1-based character
    /// `column` of its line (`0`: the line's one command).
    pub fn at_column(mut self, column: u32) -> Self {
        self.column = if column == 0 { None } else { Some(column) };
        self
    }

    /// The same error, located in `source` (if its line is there).
    pub fn located(mut self, source: &SourceMap) -> Self {
        if self.location.is_none() {
            if let Some(line) = self.line {
                self.location = source.locate(line, self.column).map(Box::new);
            }
        }
        self
    }

    /// The error's diagnostic code (`chess2rs --explain E0601` explains
    /// it; chess2rs's `docs/diagnostics.md` lists them), or `None` for
    /// what is not the program's doing: an internal error, or reading or
    /// writing the standard streams failing.
    pub fn code(&self) -> Option<&'static str> {
        match &self.kind {
            ErrorKind::StepLimit { .. } => Some("E0601"),
            ErrorKind::InputEnded | ErrorKind::InputLineMissing => Some("E0602"),
            ErrorKind::InputNotANumber { .. } | ErrorKind::InputLineTooLarge { .. } => {
                Some("E0603")
            }
            ErrorKind::Overflow { .. } => Some("E0604"),
            ErrorKind::MemoryLimit { .. } | ErrorKind::OutOfMemory => Some("E0605"),
            ErrorKind::NoSuchLabel { .. } => Some("E0606"),
            ErrorKind::Io { .. } => None,
            ErrorKind::Other { code, .. } => *code,
        }
    }

    /// `error[CODE]`, or `error` for an error without a code.
    fn level(&self) -> String {
        match self.code() {
            Some(code) => format!("error[{code}]"),
            None => "error".to_string(),
        }
    }

    /// What went wrong, as one sentence (no line number, no `error:`).
    pub fn message(&self) -> String {
        self.kind.to_string()
    }

    /// The text under the caret: what the failed command was doing.
    pub fn label(&self) -> &'static str {
        match self.kind {
            // A column names one of several commands of a line: in a game,
            // the annotated move that starts a rule.
            ErrorKind::StepLimit { .. } if self.column.is_some() => {
                "the step limit stops the program before the rule that starts here"
            }
            ErrorKind::StepLimit { .. } => "the step limit stops the program before this line",
            ErrorKind::InputEnded | ErrorKind::InputNotANumber { .. } => "reads a number here",
            ErrorKind::Overflow { .. } => "computed here",
            ErrorKind::NoSuchLabel { .. } => "jumps to a label read here",
            ErrorKind::MemoryLimit { .. } | ErrorKind::OutOfMemory => {
                "grows the program's memory here"
            }
            ErrorKind::InputLineMissing | ErrorKind::InputLineTooLarge { .. } => {
                "this rule enters the input state"
            }
            ErrorKind::Io { .. } | ErrorKind::Other { .. } => "",
        }
    }

    /// How to fix it or what it means, if there is more to say.
    pub fn help(&self) -> Option<String> {
        match &self.kind {
            ErrorKind::StepLimit { .. } => Some(
                "the program may run forever; if it does not, raise the limit with `--max-steps N`"
                    .to_string(),
            ),
            ErrorKind::InputEnded => {
                Some("give the program more input (numbers separated by whitespace)".to_string())
            }
            ErrorKind::InputNotANumber { found } => {
                let digits = found.strip_prefix(['-', '+']).unwrap_or(found);
                if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
                    Some(format!(
                        "the input number {} does not fit in an i64 (from {} to {})",
                        shorten(found),
                        i64::MIN,
                        i64::MAX
                    ))
                } else {
                    Some(
                        "input numbers are decimal integers with an optional sign, such as 42 or -7"
                            .to_string(),
                    )
                }
            }
            ErrorKind::Overflow { .. } => {
                Some(format!("values are i64, from {} to {}", i64::MIN, i64::MAX))
            }
            ErrorKind::InputLineMissing => Some(
                "the machine reads a line of input each time it enters state 1 (input); \
                 give it one more line"
                    .to_string(),
            ),
            ErrorKind::InputLineTooLarge { .. } => Some(format!(
                "a line holding an integer is read as that integer, from {} to {}; \
                 any other line as the sum of its characters' code points",
                i64::MIN,
                i64::MAX
            )),
            ErrorKind::MemoryLimit { .. } => Some(
                "the program may grow without end; if it does not, raise the limit with \
                 `--max-memory SIZE` (such as 8G)"
                    .to_string(),
            ),
            ErrorKind::OutOfMemory => Some(
                "the program may grow without end; `--max-memory SIZE` stops it at a size \
                 of your choice"
                    .to_string(),
            ),
            _ => None,
        }
    }

    /// The error as compile errors are shown (rustc-style): the message,
    /// `--> file:line:column`, the source line with a caret under the
    /// command, and a hint. Without a location, `error: line N: message`.
    pub fn render(&self) -> String {
        let location = match &self.location {
            Some(location) => location,
            None => return format!("{}: {self}\n", self.level()),
        };
        let number = location.line.to_string();
        let pad = " ".repeat(number.len());
        let mut out = format!("{}: {}\n", self.level(), self.message());
        out.push_str(&format!(
            "{pad} --> {}:{}:{}\n",
            location.file, location.line, location.column
        ));
        out.push_str(&format!("{pad} |\n"));
        // Trailing blanks are kept, as the diagnostics renderer keeps them.
        let text = location.text.trim_end_matches(['\n', '\r']);
        out.push_str(&format!("{number} | {text}\n"));
        let indent = " ".repeat(location.caret as usize);
        let carets = "^".repeat(location.width as usize);
        let label = self.label();
        if label.is_empty() {
            out.push_str(&format!("{pad} | {indent}{carets}\n"));
        } else {
            out.push_str(&format!("{pad} | {indent}{carets} {label}\n"));
        }
        if let Some(help) = self.help() {
            out.push_str(&format!("{pad} |\n{pad} = help: {help}\n"));
        }
        // A blank line ends a diagnostic, as for compile errors.
        out.push('\n');
        out
    }

    /// The error as `format` asks: [`RuntimeError::render`] for
    /// `Human`, one line `FILE:LINE:COL: error: MESSAGE` for `Short`, one
    /// JSON object and a newline for `Json` (see
    /// [`RuntimeError::render_json`]).
    pub fn render_as(&self, format: MessageFormat) -> String {
        match format {
            MessageFormat::Human => self.render(),
            MessageFormat::Short => match &self.location {
                Some(location) => format!(
                    "{}:{}:{}: {}: {}\n",
                    location.file,
                    location.line,
                    location.column,
                    self.level(),
                    self.message()
                ),
                None => format!("{}: {self}\n", self.level()),
            },
            MessageFormat::Json => self.render_json(),
        }
    }

    /// The error as one line of JSON in the shape of rustc's diagnostics
    /// (`--message-format json`): `$message_type` `"diagnostic"`,
    /// `message`, `code` (`{"code":"E0601","explanation":null}`, or null for an error
    /// without a code), `level` `"error"`, `spans` (the command:
    /// `file_name`, `line_start`, `line_end`, `column_start`, `column_end`
    /// just past it, `is_primary`, `text` — the source line as shown, with
    /// `highlight_start` and `highlight_end` — and `label`; `byte_start` and
    /// `byte_end` are null, a compiled program knowing lines, not bytes),
    /// `children` (the help) and `rendered` (the human text). An error
    /// that names no command has no spans and its line in the message.
    pub fn render_json(&self) -> String {
        let mut out = String::from("{\"$message_type\":\"diagnostic\",\"message\":");
        match &self.location {
            Some(_) => json_string(&mut out, &self.message()),
            None => json_string(&mut out, &self.to_string()),
        }
        // The explanation is chess2rs's (`--explain`): not in every
        // program.
        match self.code() {
            Some(code) => out.push_str(&format!(
                ",\"code\":{{\"code\":\"{code}\",\"explanation\":null}}"
            )),
            None => out.push_str(",\"code\":null"),
        }
        out.push_str(",\"level\":\"error\",\"spans\":[");
        if let Some(location) = &self.location {
            let end = location.column + location.width;
            out.push_str("{\"file_name\":");
            json_string(&mut out, &location.file);
            out.push_str(&format!(
                ",\"byte_start\":null,\"byte_end\":null,\"line_start\":{line},\"line_end\":{line},\"column_start\":{},\"column_end\":{end},\"is_primary\":true,\"text\":[{{\"text\":",
                location.column,
                line = location.line,
            ));
            json_string(&mut out, location.text.trim_end_matches(['\n', '\r']));
            out.push_str(&format!(
                ",\"highlight_start\":{},\"highlight_end\":{}}}],\"label\":",
                location.caret + 1,
                location.caret + 1 + location.width
            ));
            match self.label() {
                "" => out.push_str("null"),
                label => json_string(&mut out, label),
            }
            out.push_str(",\"suggested_replacement\":null,\"suggestion_applicability\":null,\"expansion\":null}");
        }
        out.push_str("],\"children\":[");
        if let Some(help) = self.help() {
            out.push_str("{\"message\":");
            json_string(&mut out, &help);
            out.push_str(
                ",\"code\":null,\"level\":\"help\",\"spans\":[],\"children\":[],\"rendered\":null}",
            );
        }
        out.push_str("],\"rendered\":");
        json_string(&mut out, &self.render());
        out.push_str("}\n");
        out
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

/// How a runtime error is printed (`--message-format`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MessageFormat {
    /// As compile errors are shown: the message, the source line, a caret
    /// and a hint.
    #[default]
    Human,
    /// One line: `FILE:LINE:COL: error: MESSAGE`.
    Short,
    /// One JSON object a line, in the shape of rustc's diagnostics.
    Json,
}

impl MessageFormat {
    /// The format named `name` (`human`, `short` or `json`).
    pub fn from_name(name: &str) -> Option<MessageFormat> {
        match name {
            "human" => Some(MessageFormat::Human),
            "short" => Some(MessageFormat::Short),
            "json" => Some(MessageFormat::Json),
            _ => None,
        }
    }

    /// Its name, as `--message-format` takes it.
    pub fn name(self) -> &'static str {
        match self {
            MessageFormat::Human => "human",
            MessageFormat::Short => "short",
            MessageFormat::Json => "json",
        }
    }
}

/// Appends `text` to `out` as a JSON string: quoted, with `"`, `\\` and
/// control characters escaped. (The runtime has no JSON library; this is
/// all of JSON it writes.)
pub fn json_string(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// `text`, or for long text its ends around a count of what was left out
/// (an input token may be megabytes long).
fn shorten(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 40 {
        return text.to_string();
    }
    let head: String = chars[..20].iter().collect();
    let tail: String = chars[chars.len() - 12..].iter().collect();
    format!("{head}…{tail} ({} characters in all)", chars.len())
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::StepLimit { limit } => write!(f, "step limit of {limit} reached"),
            ErrorKind::InputEnded => write!(f, "expected a number in the input, found its end"),
            ErrorKind::InputNotANumber { found } => {
                write!(
                    f,
                    "expected a number in the input, found `{}`",
                    shorten(found)
                )
            }
            ErrorKind::Overflow { what } => write!(f, "{what} does not fit in an i64"),
            ErrorKind::InputLineMissing => {
                write!(f, "the input state wants a line, but the input has ended")
            }
            ErrorKind::InputLineTooLarge { number } => {
                write!(
                    f,
                    "the input number {} does not fit in an i64",
                    shorten(number)
                )
            }
            ErrorKind::NoSuchLabel { label } => {
                write!(f, "jump target {label} read from input names no line")
            }
            ErrorKind::MemoryLimit { limit } => write!(
                f,
                "the program needs more memory than its limit of {}",
                size(*limit)
            ),
            ErrorKind::OutOfMemory => write!(f, "the system has no more memory for the program"),
            ErrorKind::Io { message } => write!(f, "input/output failed: {message}"),
            ErrorKind::Other { message, .. } => f.write_str(message),
        }
    }
}

/// A size in bytes as `--max-memory` takes it: whole GiB, MiB or KiB when
/// it is one, else bytes.
fn size(bytes: u64) -> String {
    for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)].iter() {
        if bytes >= 1 << *shift && bytes.is_multiple_of(1 << *shift) {
            return format!("{} {}", bytes >> *shift, unit);
        }
    }
    format!("{bytes} bytes")
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (Some(line), Some(column)) => write!(f, "line {line}, column {column}: {}", self.kind),
            (Some(line), None) => write!(f, "line {line}: {}", self.kind),
            (None, _) => write!(f, "{}", self.kind),
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
            "line 7: expected a number in the input, found its end"
        );
    }

    const MAP: SourceMap<'static> = SourceMap {
        file: "add.chc",
        lines: "2 1 7 0 Ra1 Rb2\n12 5 6 4 10. a;0,-1!40\n",
    };

    /// A game's line with two commands, and a long line cut before its
    /// command.
    const GAME: SourceMap<'static> = SourceMap {
        file: "g.pgn",
        lines: "1 4 3 3 1. e4! e5?\n1 8 3 7 1. e4! e5?\n2 301 4 5 …b3 a6 Nf3! Nc6 20…\n",
    };

    #[test]
    fn a_column_picks_one_of_the_commands_of_a_line() {
        let err = RuntimeError::at(ErrorKind::StepLimit { limit: 5 }, 1).at_column(8);
        assert_eq!(err.to_string(), "line 1, column 8: step limit of 5 reached");
        let located = err.located(&GAME);
        let location = located.location.as_deref().map(|l| (l.column, l.caret));
        assert_eq!(location, Some((8, 7)));
        assert!(located
            .render()
            .contains("1 | 1. e4! e5?\n  |        ^^^ the step limit stops the program before the rule that starts here\n"));
        let first = RuntimeError::at(ErrorKind::InputEnded, 1).located(&GAME);
        assert_eq!(first.location.map(|l| l.column), Some(4));
        let missing = RuntimeError::at(ErrorKind::InputEnded, 1).at_column(5);
        assert!(missing.located(&GAME).location.is_none());
    }

    #[test]
    fn a_cut_line_puts_the_caret_under_the_command() {
        let err = RuntimeError::at(ErrorKind::InputEnded, 2)
            .at_column(301)
            .located(&GAME);
        let text = err.render();
        assert!(text.contains("--> g.pgn:2:301\n"), "{text}");
        assert!(
            text.contains("2 | …b3 a6 Nf3! Nc6 20…\n  |      ^^^^ reads"),
            "{text}"
        );
    }

    #[test]
    fn a_located_error_renders_like_a_compile_error() {
        let err = RuntimeError::at(
            ErrorKind::InputNotANumber {
                found: "two".into(),
            },
            2,
        )
        .located(&MAP);
        assert_eq!(
            err.render(),
            "error[E0603]: expected a number in the input, found `two`\n\
             \x20 --> add.chc:2:1\n\
             \x20 |\n\
             2 | Ra1 Rb2\n\
             \x20 | ^^^^^^^ reads a number here\n\
             \x20 |\n\
             \x20 = help: input numbers are decimal integers with an optional sign, such as 42 or -7\n\n"
        );
        let err = RuntimeError::at(
            ErrorKind::Other {
                message: "x".into(),
                code: None,
            },
            12,
        )
        .located(&MAP);
        assert_eq!(
            err.render(),
            "error: x\n   --> add.chc:12:5\n   |\n12 | 10. a;0,-1!40\n   |     ^^^^^^\n\n"
        );
    }

    #[test]
    fn short_and_json_forms_say_the_same_on_one_line() {
        let err = RuntimeError::at(
            ErrorKind::InputNotANumber {
                found: "t\"w\\o\u{1}".into(),
            },
            2,
        )
        .located(&MAP);
        assert_eq!(
            err.render_as(MessageFormat::Short),
            "add.chc:2:1: error[E0603]: expected a number in the input, found `t\"w\\o\u{1}`\n"
        );
        let json = err.render_as(MessageFormat::Json);
        assert!(json.ends_with("}\n") && json.lines().count() == 1, "{json}");
        assert!(json.starts_with(
            "{\"$message_type\":\"diagnostic\",\"message\":\"expected a number in the input, found `t\\\"w\\\\o\\u0001`\",\"code\":{\"code\":\"E0603\",\"explanation\":null},\"level\":\"error\",\"spans\":[{\"file_name\":\"add.chc\",\"byte_start\":null,\"byte_end\":null,\"line_start\":2,\"line_end\":2,\"column_start\":1,\"column_end\":8,\"is_primary\":true,\"text\":[{\"text\":\"Ra1 Rb2\",\"highlight_start\":1,\"highlight_end\":8}],\"label\":\"reads a number here\""
        ), "{json}");
        assert!(
            json.contains("\"children\":[{\"message\":\"input numbers are"),
            "{json}"
        );
        assert!(
            json.contains("\"rendered\":\"error[E0603]: expected"),
            "{json}"
        );
        assert_eq!(err.render_as(MessageFormat::Human), err.render());
        let unplaced = RuntimeError::at(ErrorKind::InputEnded, 5).located(&MAP);
        assert_eq!(
            unplaced.render_as(MessageFormat::Short),
            "error[E0602]: line 5: expected a number in the input, found its end\n"
        );
        assert!(unplaced
            .render_as(MessageFormat::Json)
            .contains("\"message\":\"line 5: expected a number in the input, found its end\",\"code\":{\"code\":\"E0602\",\"explanation\":null},\"level\":\"error\",\"spans\":[],"));
    }

    #[test]
    fn an_error_outside_the_map_keeps_its_line_number() {
        let err = RuntimeError::at(ErrorKind::InputEnded, 5).located(&MAP);
        assert!(err.location.is_none());
        assert_eq!(
            err.render(),
            "error[E0602]: line 5: expected a number in the input, found its end\n"
        );
    }

    #[test]
    fn numbers_too_large_and_long_tokens_are_explained_briefly() {
        let err = RuntimeError::at(
            ErrorKind::InputNotANumber {
                found: "99999999999999999999".into(),
            },
            2,
        );
        let help = err.help().unwrap_or_default();
        assert!(help.starts_with("the input number 99999999999999999999 does not fit in an i64"));
        let long = "x".repeat(10_000_000);
        let err = RuntimeError::at(ErrorKind::InputNotANumber { found: long }, 2);
        let text = err.to_string();
        assert!(text.len() < 200, "{text}");
        assert!(text.contains("10000000 characters in all"), "{text}");
    }
}
