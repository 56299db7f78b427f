//! InfChessPro text → syntax tree with spans.
//!
//! One numbered line per source line: `LABEL. COMMAND JUMPS`. A line with
//! a syntax error is reported and skipped, so every bad line of a program
//! is reported in one run.

use chess2rs_runtime::__private::icp::Piece;

use crate::cursor::Cursor;
use crate::diag::{excerpt, Code, Diagnostic, Diagnostics};
use crate::lang::line_facts::{parse_line_at, parse_lines};
use crate::source::{Source, Span, Spanned};

/// A parsed program: its numbered lines in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The numbered lines.
    pub lines: Vec<Line>,
}

/// One numbered line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The 1-based line number in the file.
    pub source_line: u32,
    /// The span of the line's text, trimmed ([`Line::text`]).
    pub span: Span,
    /// The span of the command and its jumps (the line after its label):
    /// what its run-time errors point at.
    pub command_span: Span,
    /// The label before the `.`.
    pub label: Spanned<i64>,
    /// The command.
    pub command: Command,
    /// `?TARGET`: where to go if the command succeeded.
    pub on_success: Option<Spanned<Target>>,
    /// `!TARGET`: where to go if the command failed.
    pub on_failure: Option<Spanned<Target>>,
}

/// A number in a command: a literal or `*` (read from input).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A literal integer.
    Literal(i64),
    /// `*`: the next number on standard input.
    Input,
}

/// A jump target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// A line label.
    Label(i64),
    /// `*`: a label read from input when the jump is taken.
    Input,
}

/// A command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `^`: does nothing, succeeds.
    Nop,
    /// `"TEXT`: prints the text and a newline.
    Print {
        /// The text, trailing whitespace removed.
        text: Spanned<String>,
    },
    /// `%NAME`: prints how many pieces are called NAME.
    Count {
        /// The name.
        name: Spanned<String>,
    },
    /// `NAME=TN,N`: places a new piece.
    Place {
        /// The new piece's name.
        name: Spanned<String>,
        /// Its type and colour.
        piece: Spanned<Piece>,
        /// Row and column.
        square: [Spanned<Operand>; 2],
    },
    /// `N,N,N,N`: moves whatever stands on a square.
    MoveFrom {
        /// Row and column of the piece.
        from: [Spanned<Operand>; 2],
        /// Row and column of the target.
        to: [Spanned<Operand>; 2],
    },
    /// `NAME,N,N`: moves a piece called NAME to a square.
    MoveNamedTo {
        /// The name.
        name: Spanned<String>,
        /// Row and column of the target.
        to: [Spanned<Operand>; 2],
    },
    /// `NAME;N,N`: moves a piece called NAME by an offset.
    MoveNamedBy {
        /// The name.
        name: Spanned<String>,
        /// Row and column offset.
        by: [Spanned<Operand>; 2],
    },
}

impl Line {
    /// The line's text, trimmed, in `source` (the program's).
    pub fn text<'s>(&self, source: &'s Source) -> &'s str {
        source.text().get(self.span.clone()).unwrap_or_default()
    }
}

impl Command {
    /// The piece name the command uses, if it names one (places, moves
    /// or counts pieces by name).
    pub fn name(&self) -> Option<&Spanned<String>> {
        match self {
            Command::Place { name, .. }
            | Command::MoveNamedTo { name, .. }
            | Command::MoveNamedBy { name, .. }
            | Command::Count { name } => Some(name),
            Command::Nop | Command::Print { .. } | Command::MoveFrom { .. } => None,
        }
    }

    /// Whether the command can fail: `^`, `"` and `%` always succeed.
    pub fn can_fail(&self) -> bool {
        !matches!(
            self,
            Command::Nop | Command::Print { .. } | Command::Count { .. }
        )
    }
}

const COMMAND_FORMS: &str = "commands are `r,c,r,c` (move from a square), `NAME=Tr,c` (place), \
`NAME,r,c` (move to), `NAME;dr,dc` (move by), `^` (nothing), `\"TEXT` (print) and `%NAME` (count)";

/// Parses a whole program; all syntax errors are collected.
pub fn parse(source: &Source) -> Result<Program, Diagnostics> {
    let lines = parse_lines(source, numbered_line)?;
    Ok(Program { lines })
}

/// Parses line `index` (0-based) of `source` alone, as [`parse`] parses
/// it (see [`parse_line_at`]).
pub fn parse_line(source: &Source, index: usize) -> Option<Result<Line, Diagnostic>> {
    parse_line_at(source, index, numbered_line)
}

/// Where the comment of line `text` starts, if it is one: a line whose
/// first non-blank is `#` is a comment (there are no comments after a
/// command). Blanks are spaces and tabs only: other whitespace in a text
/// is printed verbatim. The parser and the editor's outline both ask here.
pub fn comment_start(text: &str) -> Option<usize> {
    let trimmed = text.trim_start_matches([' ', '\t']);
    trimmed
        .starts_with('#')
        .then_some(text.len() - trimmed.len())
}

/// The numbered line of `text`, line `index` (0-based) of the source,
/// starting at byte `start`; `None` for a blank line or a comment.
fn numbered_line(start: usize, text: &str, source_line: u32) -> Option<Result<Line, Diagnostic>> {
    // Blanks are spaces and tabs (and the CR of a CRLF line end) only.
    let trimmed = text.trim_start_matches([' ', '\t']);
    if trimmed.trim_end_matches([' ', '\t', '\r']).is_empty() || comment_start(text).is_some() {
        return None;
    }
    let offset = start + (text.len() - trimmed.len());
    let trimmed = trimmed.trim_end_matches([' ', '\t', '\r']);
    Some(LineParser::new(trimmed, offset).line(source_line))
}

/// A word before `=`, `;` or `,`: a name, a number, or `*`.
#[derive(Clone, Debug)]
enum Word {
    /// Letters, digits and underscores (may also be a number).
    Name(String),
    /// A signed number (not a name).
    Signed(i64),
    /// `*`.
    Input,
}

struct LineParser<'a> {
    cursor: Cursor<'a>,
}

type Parsed<T> = Result<T, Diagnostic>;

/// An optional jump target.
type Jump = Option<Spanned<Target>>;

impl<'a> LineParser<'a> {
    fn new(text: &'a str, base: usize) -> Self {
        LineParser {
            cursor: Cursor::new(text, base),
        }
    }

    /// Skips spaces and tabs.
    fn skip_blanks(&mut self) {
        self.cursor.take_while(|c| c == ' ' || c == '\t');
    }

    /// Consumes `wanted` if it comes next after blanks.
    fn eat(&mut self, wanted: char) -> bool {
        self.skip_blanks();
        self.cursor.eat(wanted)
    }

    fn line(mut self, source_line: u32) -> Parsed<Line> {
        let label = self.label()?;
        if !self.eat('.') {
            return Err(self
                .cursor
                .unexpected(Code::IcpSyntax, "`.` after the label")
                .with_help("a numbered line is `LABEL. COMMAND`, e.g. `1. x=K0,0`"));
        }
        self.skip_blanks();
        let command_start = self.cursor.pos();
        let command = self.command()?;
        let (on_success, on_failure) = if matches!(command, Command::Print { .. }) {
            (None, None)
        } else {
            self.jumps()?
        };
        Ok(Line {
            source_line,
            span: self.cursor.span(0, self.cursor.text().len()),
            command_span: self.cursor.span(command_start, self.cursor.text().len()),
            label,
            command,
            on_success,
            on_failure,
        })
    }

    fn label(&mut self) -> Parsed<Spanned<i64>> {
        let (start, digits) = self.cursor.take_while(|c| c.is_ascii_digit());
        if digits.is_empty() {
            return Err(self
                .cursor
                .unexpected(Code::IcpSyntax, "a line label (a number followed by `.`)")
                .with_help(
                "every line is `LABEL. COMMAND`; comments start with `#`, blank lines are ignored",
            ));
        }
        let span = self.cursor.span(start, self.cursor.pos());
        let value = digits.parse::<i64>().map_err(|_| {
            Diagnostic::error(Code::IcpNumberTooLarge, "label is too large", span.clone())
                .with_label("labels must fit in a 64-bit signed integer")
        })?;
        Ok(Spanned::new(value, span))
    }

    fn command(&mut self) -> Parsed<Command> {
        match self.cursor.peek() {
            Some('^') => {
                self.cursor.bump();
                Ok(Command::Nop)
            }
            Some('"') => {
                let start = self.cursor.pos() + 1;
                self.cursor.set_pos(usize::MAX);
                let text = self.cursor.text()[start..].trim_end_matches([' ', '\t', '\r']);
                let span = self.cursor.span(start, start + text.len());
                Ok(Command::Print {
                    text: Spanned::new(text.to_string(), span),
                })
            }
            Some('%') => {
                self.cursor.bump();
                let name = self.name()?;
                Ok(Command::Count { name })
            }
            None => Err(self
                .cursor
                .unexpected(Code::IcpSyntax, "a command")
                .with_help(COMMAND_FORMS)),
            Some(_) => self.piece_command(),
        }
    }

    fn piece_command(&mut self) -> Parsed<Command> {
        let first_start = self.cursor.pos();
        let first = self.word()?;
        let first_span = self.cursor.span(first_start, self.cursor.pos());
        self.skip_blanks();
        let as_name = |what: &str| -> Parsed<Spanned<String>> {
            match &first {
                Word::Name(name) => Ok(Spanned::new(name.clone(), first_span.clone())),
                _ => Err(Diagnostic::error(
                    Code::IcpSyntax,
                    format!("{what} needs a piece name here"),
                    first_span.clone(),
                )
                .with_label("not a name")
                .with_help("names are made of letters, digits and `_`")),
            }
        };
        match self.cursor.peek() {
            Some('=') => {
                let name = as_name("placing a piece")?;
                self.cursor.bump();
                let piece = self.piece()?;
                let square = self.pair()?;
                Ok(Command::Place {
                    name,
                    piece,
                    square,
                })
            }
            Some(';') => {
                let name = as_name("a move by an offset")?;
                self.cursor.bump();
                let by = self.pair()?;
                Ok(Command::MoveNamedBy { name, by })
            }
            Some(',') => {
                self.cursor.bump();
                let second = self.operand()?;
                if !self.eat(',') {
                    return Err(self
                        .cursor
                        .unexpected(Code::IcpSyntax, "`,`")
                        .with_help(COMMAND_FORMS));
                }
                let third = self.operand()?;
                if self.eat(',') {
                    let fourth = self.operand()?;
                    let row = self.word_as_operand(first, first_span)?;
                    return Ok(Command::MoveFrom {
                        from: [row, second],
                        to: [third, fourth],
                    });
                }
                let name = as_name("a move to a square")?;
                Ok(Command::MoveNamedTo {
                    name,
                    to: [second, third],
                })
            }
            _ => Err(self
                .cursor
                .unexpected(Code::IcpSyntax, "`=`, `;` or `,`")
                .with_help(COMMAND_FORMS)),
        }
    }

    /// A name, a signed number or `*` at the start of a command.
    fn word(&mut self) -> Parsed<Word> {
        match self.cursor.peek() {
            Some('*') => {
                self.cursor.bump();
                Ok(Word::Input)
            }
            Some('+' | '-') => match self.operand()?.value {
                Operand::Literal(value) => Ok(Word::Signed(value)),
                Operand::Input => Ok(Word::Input),
            },
            _ => {
                let name = self.name()?;
                Ok(Word::Name(name.value))
            }
        }
    }

    fn word_as_operand(&self, word: Word, span: Span) -> Parsed<Spanned<Operand>> {
        let value = match word {
            Word::Input => Operand::Input,
            Word::Signed(value) => Operand::Literal(value),
            Word::Name(name) => Operand::Literal(parse_number(&name, span.clone())?),
        };
        Ok(Spanned::new(value, span))
    }

    fn name(&mut self) -> Parsed<Spanned<String>> {
        self.skip_blanks();
        let (start, name) = self
            .cursor
            .take_while(|c| c.is_ascii_alphanumeric() || c == '_');
        if name.is_empty() {
            return Err(self
                .cursor
                .unexpected(Code::IcpSyntax, "a piece name")
                .with_help("names are made of letters, digits and `_`"));
        }
        Ok(Spanned::new(
            name.to_string(),
            self.cursor.span(start, self.cursor.pos()),
        ))
    }

    fn piece(&mut self) -> Parsed<Spanned<Piece>> {
        self.skip_blanks();
        let start = self.cursor.pos();
        let found = self.cursor.peek();
        match found.and_then(Piece::from_letter) {
            Some(piece) => {
                self.cursor.bump();
                Ok(Spanned::new(
                    piece,
                    self.cursor.span(start, self.cursor.pos()),
                ))
            }
            None => Err(self
                .cursor
                .unexpected(Code::IcpSyntax, "a piece type")
                .with_help("piece types are K Q R B N P (white) and k q r b n p (black)")),
        }
    }

    /// `N,N`.
    fn pair(&mut self) -> Parsed<[Spanned<Operand>; 2]> {
        let first = self.operand()?;
        if !self.eat(',') {
            return Err(self
                .cursor
                .unexpected(Code::IcpSyntax, "`,` between the two numbers"));
        }
        let second = self.operand()?;
        Ok([first, second])
    }

    /// A signed integer or `*`.
    fn operand(&mut self) -> Parsed<Spanned<Operand>> {
        self.skip_blanks();
        let start = self.cursor.pos();
        if self.cursor.peek() == Some('*') {
            self.cursor.bump();
            return Ok(Spanned::new(
                Operand::Input,
                self.cursor.span(start, self.cursor.pos()),
            ));
        }
        if let Some('+' | '-') = self.cursor.peek() {
            self.cursor.bump();
        }
        let (_, digits) = self.cursor.take_while(|c| c.is_ascii_digit());
        if digits.is_empty() {
            self.cursor.set_pos(start);
            return Err(self.cursor.unexpected(Code::IcpSyntax, "a number or `*`"));
        }
        let span = self.cursor.span(start, self.cursor.pos());
        let value = parse_number(&self.cursor.text()[start..self.cursor.pos()], span.clone())?;
        Ok(Spanned::new(Operand::Literal(value), span))
    }

    /// `?TARGET` and `!TARGET`, in either order: (on success, on failure).
    fn jumps(&mut self) -> Parsed<(Jump, Jump)> {
        let mut on_success: Jump = None;
        let mut on_failure: Jump = None;
        loop {
            self.skip_blanks();
            let start = self.cursor.pos();
            let slot = match self.cursor.peek() {
                None => return Ok((on_success, on_failure)),
                Some('?') => &mut on_success,
                Some('!') => &mut on_failure,
                Some(_) => {
                    return Err(self
                        .cursor
                        .unexpected(Code::IcpSyntax, "`?LABEL`, `!LABEL` or the end of the line")
                        .with_help("after a command come at most one `?LABEL` (on success) and one `!LABEL` (on failure)"))
                }
            };
            let sign = self.cursor.text()[start..].chars().next().unwrap_or('?');
            self.cursor.bump();
            self.skip_blanks();
            let target_start = self.cursor.pos();
            let target = if self.cursor.peek() == Some('*') {
                self.cursor.bump();
                Target::Input
            } else {
                let (_, digits) = self.cursor.take_while(|c| c.is_ascii_digit());
                if digits.is_empty() {
                    return Err(self
                        .cursor
                        .unexpected(Code::IcpSyntax, "a line label or `*` after the jump"));
                }
                let span = self.cursor.span(target_start, self.cursor.pos());
                let label = digits.parse::<i64>().map_err(|_| {
                    Diagnostic::error(Code::IcpNumberTooLarge, "jump target is too large", span)
                        .with_label("no label can be this large")
                })?;
                Target::Label(label)
            };
            let span = self.cursor.span(start, self.cursor.pos());
            if let Some(previous) = slot {
                return Err(Diagnostic::error(
                    Code::IcpSecondJump,
                    format!("a second `{sign}` jump on one line"),
                    span,
                )
                .with_label("second jump")
                .with_secondary(previous.span.clone(), "first jump")
                .with_help(format!("a line takes at most one `{sign}` jump")));
            }
            *slot = Some(Spanned::new(target, span));
        }
    }
}

fn parse_number(text: &str, span: Span) -> Parsed<i64> {
    if !text
        .trim_start_matches(['+', '-'])
        .bytes()
        .all(|b| b.is_ascii_digit())
    {
        return Err(Diagnostic::error(
            Code::IcpSyntax,
            format!("expected a number or `*`, found `{}`", excerpt(text)),
            span,
        )
        .with_label("not a number")
        .with_help("a move from a square takes four numbers: `row,col,row,col`"));
    }
    text.parse::<i64>().map_err(|_| {
        Diagnostic::error(
            Code::IcpNumberTooLarge,
            format!("number `{}` does not fit in an i64", excerpt(text)),
            span,
        )
        .with_label("out of range")
        .with_help("numbers must lie between -9223372036854775808 and 9223372036854775807")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_one(text: &str) -> Result<Line, String> {
        let source = Source::new("t.icp", text);
        match parse(&source) {
            Ok(mut program) => Ok(program.lines.remove(0)),
            Err(errors) => Err(errors.iter().next().unwrap().message.clone()),
        }
    }

    fn literal(value: i64, span: Span) -> Spanned<Operand> {
        Spanned::new(Operand::Literal(value), span)
    }

    #[test]
    fn a_comment_is_a_line_whose_first_blank_free_character_is_a_hash() {
        assert_eq!(comment_start("# a comment"), Some(0));
        assert_eq!(comment_start(" \t# indented"), Some(2));
        assert_eq!(comment_start("1. \"# printed"), None);
        // Only spaces and tabs are blanks: a no-break space is text.
        assert_eq!(comment_start("\u{a0}# text"), None);
    }

    #[test]
    fn every_command_form() {
        let line = parse_one("1. 3,1,5,0").unwrap();
        assert_eq!(
            line.command,
            Command::MoveFrom {
                from: [literal(3, 3..4), literal(1, 5..6)],
                to: [literal(5, 7..8), literal(0, 9..10)],
            }
        );
        assert!(matches!(
            parse_one("2. nothing=K6,0").unwrap().command,
            Command::Place { .. }
        ));
        let line = parse_one("3. nothing;1,1!1").unwrap();
        assert!(matches!(line.command, Command::MoveNamedBy { .. }));
        assert_eq!(line.on_failure.map(|t| t.value), Some(Target::Label(1)));
        assert!(matches!(
            parse_one("4. 12,3,4").unwrap().command,
            Command::MoveNamedTo { .. }
        ));
        assert_eq!(parse_one("5. ^?5").unwrap().command, Command::Nop);
        assert!(matches!(
            parse_one("6. %Beer").unwrap().command,
            Command::Count { .. }
        ));
        let line = parse_one("7. \"hi ?3 !2  \t").unwrap();
        assert_eq!(line.on_success, None);
        match line.command {
            Command::Print { text } => assert_eq!(text.value, "hi ?3 !2"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn blanks_between_tokens_and_input_operands() {
        let line = parse_one("  1 . x = R 0 , * ! * ? 2").unwrap();
        match line.command {
            Command::Place {
                name,
                piece,
                square,
            } => {
                assert_eq!(name.value, "x");
                assert_eq!(piece.value, Piece::from_letter('R').unwrap());
                assert_eq!(square[1].value, Operand::Input);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(line.on_failure.map(|t| t.value), Some(Target::Input));
        assert_eq!(line.on_success.map(|t| t.value), Some(Target::Label(2)));
        let line = parse_one("9. *,-2,+3,*").unwrap();
        assert!(matches!(line.command, Command::MoveFrom { .. }));
    }

    #[test]
    fn exact_error_messages() {
        assert_eq!(
            parse_one("x. ^").unwrap_err(),
            "expected a line label (a number followed by `.`), found `x`"
        );
        assert_eq!(
            parse_one("1 ^").unwrap_err(),
            "expected `.` after the label, found `^`"
        );
        assert_eq!(
            parse_one("1.").unwrap_err(),
            "expected a command, found the end of the line"
        );
        assert_eq!(
            parse_one("1. a=X1,2").unwrap_err(),
            "expected a piece type, found `X`"
        );
        assert_eq!(
            parse_one("1. -1=K1,2").unwrap_err(),
            "placing a piece needs a piece name here"
        );
        assert_eq!(
            parse_one("1. a,1,2,3").unwrap_err(),
            "expected a number or `*`, found `a`"
        );
        assert_eq!(
            parse_one("1. *,1,2").unwrap_err(),
            "a move to a square needs a piece name here"
        );
        assert_eq!(
            parse_one("1. ^?1?2").unwrap_err(),
            "a second `?` jump on one line"
        );
        assert_eq!(
            parse_one("1. ^ x").unwrap_err(),
            "expected `?LABEL`, `!LABEL` or the end of the line, found `x`"
        );
        assert_eq!(
            parse_one("1. ^?-1").unwrap_err(),
            "expected a line label or `*` after the jump, found `-`"
        );
        assert_eq!(
            parse_one("1. a=K99999999999999999999,0").unwrap_err(),
            "number `99999999999999999999` does not fit in an i64"
        );
        assert_eq!(
            parse_one("1. a b").unwrap_err(),
            "expected `=`, `;` or `,`, found `b`"
        );
        assert_eq!(
            parse_one("1. a;1").unwrap_err(),
            "expected `,` between the two numbers, found the end of the line"
        );
    }

    #[test]
    fn only_spaces_tabs_and_cr_are_trimmed_from_text() {
        let line = parse_one("1. \"keep\u{a0}\u{c} \t\r").unwrap();
        match line.command {
            Command::Print { text } => assert_eq!(text.value, "keep\u{a0}\u{c}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn every_bad_line_is_reported() {
        let source = Source::new("t.icp", "1. ^\nfoo\n# ok\n\n3. a=K1\n4. ^");
        let errors = parse(&source).unwrap_err();
        assert_eq!(errors.len(), 2);
    }
}
