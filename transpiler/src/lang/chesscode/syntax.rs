//! Chess Code text → syntax tree with spans. One command per line; `|`
//! starts a comment. Every bad line is reported, with the closest valid
//! command form as a hint.

use crate::cursor::Cursor;
use crate::diag::{excerpt, Code, Diagnostic, Diagnostics};
use crate::lang::line_facts::{parse_line_at, parse_lines};
use crate::source::{Source, Span, Spanned};

/// What starts a comment: the rest of the line is one.
pub const COMMENT: char = '|';

/// A parsed program: its command lines in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// The commands, one per non-empty line.
    pub lines: Vec<Line>,
}

/// One command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The 1-based line number in the file.
    pub source_line: u32,
    /// The command text (comment and surrounding blanks removed).
    pub text: String,
    /// Its span.
    pub span: Span,
    /// The command.
    pub command: Command,
}

/// One of the 64 cells `a1` … `h8`: index `(rank - 1) * 8 + file`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(pub u8);

impl Cell {
    /// The cell's name, e.g. `c2`.
    pub fn name(self) -> String {
        let file = (b'a' + self.0 % 8) as char;
        let rank = (b'1' + self.0 / 8) as char;
        format!("{file}{rank}")
    }
}

/// One of the five variables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Var {
    /// `R`, rook.
    Rook,
    /// `N`, knight.
    Knight,
    /// `B`, bishop.
    Bishop,
    /// `Q`, queen.
    Queen,
    /// `K`, king.
    King,
}

impl Var {
    /// Every variable, in order (`Var::ALL[v as usize]` is `v`).
    pub const ALL: [Var; 5] = [Var::Rook, Var::Knight, Var::Bishop, Var::Queen, Var::King];

    /// The variable written as `letter`.
    pub fn from_letter(letter: char) -> Option<Var> {
        Some(match letter {
            'R' => Var::Rook,
            'N' => Var::Knight,
            'B' => Var::Bishop,
            'Q' => Var::Queen,
            'K' => Var::King,
            _ => return None,
        })
    }

    /// Its letter.
    pub fn letter(self) -> char {
        match self {
            Var::Rook => 'R',
            Var::Knight => 'N',
            Var::Bishop => 'B',
            Var::Queen => 'Q',
            Var::King => 'K',
        }
    }

    /// Its piece's name: `rook`, `knight`, `bishop`, `queen`, `king`.
    pub fn piece(self) -> &'static str {
        match self {
            Var::Rook => "rook",
            Var::Knight => "knight",
            Var::Bishop => "bishop",
            Var::Queen => "queen",
            Var::King => "king",
        }
    }
}

/// A loop condition: `C=V`, `C=V+`, `CxD=V`, `CxD=V+`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    /// The cell compared.
    pub cell: Spanned<Cell>,
    /// `CxD=...`: the second cell compared with `cell`.
    pub also: Option<Spanned<Cell>>,
    /// The variable compared with `cell`.
    pub var: Spanned<Var>,
    /// `+`: loop back on inequality instead of equality.
    pub negated: bool,
}

/// A command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// `C`: output C.
    Output(Spanned<Cell>),
    /// `CxD`: C = D.
    Copy {
        /// C.
        to: Spanned<Cell>,
        /// D.
        from: Spanned<Cell>,
    },
    /// `C+`: C = C + 1.
    Increment(Spanned<Cell>),
    /// `CxD+`: C = C + D.
    AddCell {
        /// C.
        to: Spanned<Cell>,
        /// D.
        from: Spanned<Cell>,
    },
    /// `C#`: C = next input number.
    Input(Spanned<Cell>),
    /// `O-O`: output mode ASCII.
    AsciiMode,
    /// `O-O-O`: output mode raw.
    RawMode,
    /// `VC`: V = C.
    VarFromCell(Spanned<Var>, Spanned<Cell>),
    /// `VxC`: C = V.
    CellFromVar(Spanned<Var>, Spanned<Cell>),
    /// `VC+`: V = V + C.
    VarAddCell(Spanned<Var>, Spanned<Cell>),
    /// `VxC+`: C = C + V.
    CellAddVar(Spanned<Var>, Spanned<Cell>),
    /// `VC#`: V = C = next input number.
    VarInput(Spanned<Var>, Spanned<Cell>),
    /// `1/2 1/2`: loop label.
    Label,
    /// A loop condition.
    Condition(Condition),
}

/// Every command form, with the shape used to find the closest one to a
/// bad line (`C` a cell, `V` a variable) and what it does.
const FORMS: &[(&str, &str, &str)] = &[
    ("C", "C", "output C"),
    ("CxC", "CxD", "C = D"),
    ("C+", "C+", "C = C + 1"),
    ("CxC+", "CxD+", "C = C + D"),
    ("C#", "C#", "C = next input number"),
    ("O-O", "O-O", "output mode ASCII"),
    ("O-O-O", "O-O-O", "output mode raw"),
    ("VC", "VC", "V = C"),
    ("VxC", "VxC", "C = V"),
    ("VC+", "VC+", "V = V + C"),
    ("VxC+", "VxC+", "C = C + V"),
    ("VC#", "VC#", "V = C = next input number"),
    ("1/2 1/2", "1/2 1/2", "loop label"),
    ("C=V", "C=V", "loop back if C == V"),
    ("C=V+", "C=V+", "loop back if C != V"),
    ("CxC=V", "CxD=V", "loop back if C == V and C == D"),
    ("CxC=V+", "CxD=V+", "loop back if C != V and C != D"),
];

/// Parses a whole program; all syntax errors are collected.
pub fn parse(source: &Source) -> Result<Program, Diagnostics> {
    let lines = parse_lines(source, command_line)?;
    Ok(Program { lines })
}

/// Parses line `index` (0-based) of `source` alone, as [`parse`] parses
/// it (see [`parse_line_at`]).
pub fn parse_line(source: &Source, index: usize) -> Option<Result<Line, Diagnostic>> {
    parse_line_at(source, index, command_line)
}

/// The command of `raw`, a line (without its line end) starting at byte
/// `start` whose number is `number`; `None` for a blank line or a comment.
fn command_line(start: usize, raw: &str, number: u32) -> Option<Result<Line, Diagnostic>> {
    // `|` starts a comment.
    let (text, span) = crate::lang::line_facts::code(start, raw, COMMENT)?;
    Some(parse_command(text, span.start).map(|command| Line {
        source_line: number,
        text: text.to_string(),
        span,
        command,
    }))
}

/// Parses one command (`text` has no comment and no surrounding blanks).
fn parse_command(text: &str, offset: usize) -> Result<Command, Diagnostic> {
    recognise(text, offset).map_err(|error| error.unwrap_or_else(|| unrecognised(text, offset)))
}

/// [`parse_command`] without explaining a line of no known form
/// (`Err(None)`).
fn recognise(text: &str, offset: usize) -> Result<Command, Option<Diagnostic>> {
    match text {
        "O-O" => return Ok(Command::AsciiMode),
        "O-O-O" => return Ok(Command::RawMode),
        _ => {}
    }
    if let Some(rest) = text.strip_prefix("1/2") {
        let second = rest.trim_start_matches(' ');
        if second.len() < rest.len() && second == "1/2" {
            return Ok(Command::Label);
        }
    }
    let mut parser = CommandParser {
        cursor: Cursor::new(text, offset),
    };
    match parser.command() {
        Ok(Some(command)) if parser.cursor.is_at_end() => Ok(command),
        Err(Some(diagnostic)) => Err(Some(diagnostic)),
        _ => Err(None),
    }
}

/// The error for a line that is no command, naming the closest form (or,
/// for a line that looks like another language's comment, how comments are
/// written here).
fn unrecognised(text: &str, offset: usize) -> Diagnostic {
    if let Some(marker) = ["#", "//", ";", "--"]
        .into_iter()
        .find(|marker| text.starts_with(marker))
    {
        let comment = text[marker.len()..].trim_start();
        return Diagnostic::error(
            Code::ChcOtherComment,
            format!("`{marker}` does not start a comment in Chess Code"),
            offset..offset + marker.len(),
        )
        .with_label("not a comment")
        .with_help(format!(
            "comments start with `|` and run to the end of the line: `| {comment}`"
        ))
        .with_suggestion(offset..offset + marker.len(), "|");
    }
    // Cells written in capitals (`A1+`): say so if the lowercase line works.
    let chars: Vec<char> = text.chars().collect();
    let lowered: String = chars
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let cell = ('A'..='H').contains(&c)
                && chars.get(i + 1).is_some_and(|d| ('1'..='8').contains(d));
            if cell {
                c.to_ascii_lowercase()
            } else {
                c
            }
        })
        .collect();
    if lowered != text && recognise(&lowered, offset).is_ok() {
        return not_a_command(
            text,
            offset,
            format!("did you mean `{lowered}`? (cells are written in lowercase, a1…h8)"),
        )
        .with_suggestion(offset..offset + text.len(), lowered);
    }
    if let Some(swapped) = operands_swapped(text) {
        return not_a_command(
            text,
            offset,
            format!(
                "did you mean `{swapped}`? (a variable comes before the `x`: `VxC` sets cell C to V)"
            ),
        )
        .with_suggestion(offset..offset + text.len(), swapped);
    }
    let shape = shape_of(text);
    let (_, form, meaning) = FORMS
        .iter()
        .min_by_key(|(form_shape, _, _)| {
            // Equally close: prefer a form of the same length (a typo
            // rather than a missing part).
            let length_gap = shape.chars().count().abs_diff(form_shape.len());
            (strsim::levenshtein(&shape, form_shape), length_gap)
        })
        .copied()
        .unwrap_or(FORMS[0]);
    not_a_command(
        text,
        offset,
        format!(
            "the closest command form is `{form}` ({meaning}); C and D are cells a1…h8, V is one of R N B Q K"
        ),
    )
}

/// The error for `text` (at `offset`), which is no command, with `help`.
fn not_a_command(text: &str, offset: usize, help: String) -> Diagnostic {
    Diagnostic::error(
        Code::ChcNotACommand,
        format!("`{}` is not a Chess Code command", excerpt(text)),
        offset..offset + text.len(),
    )
    .with_label("not a command")
    .with_help(help)
}

/// `text` with the operands around its `x` swapped (`a3xK+` → `Kxa3+`),
/// if that makes a command.
fn operands_swapped(text: &str) -> Option<String> {
    let (left, rest) = text.split_once('x')?;
    let operand = match rest.chars().next()? {
        c if Var::from_letter(c).is_some() => c.len_utf8(),
        c if c.is_ascii_lowercase() => {
            1 + rest[1..]
                .find(|d: char| !d.is_ascii_digit())
                .unwrap_or(rest.len() - 1)
        }
        _ => return None,
    };
    let (right, suffix) = rest.split_at(operand);
    let swapped = format!("{right}x{left}{suffix}");
    recognise(&swapped, 0).is_ok().then_some(swapped)
}

/// `text` with cells written as `C` and variables as `V`.
fn shape_of(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut shape = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_lowercase() && c != 'x' && chars.get(i + 1).is_some_and(char::is_ascii_digit)
        {
            shape.push('C');
            i += 1;
            while chars.get(i).is_some_and(char::is_ascii_digit) {
                i += 1;
            }
            continue;
        }
        shape.push(if Var::from_letter(c).is_some() {
            'V'
        } else {
            c
        });
        i += 1;
    }
    shape
}

/// A position in one command. Parse functions return `Ok(None)` when the
/// text does not have the expected form (the caller then reports the line
/// as unrecognised) and `Err(Some(..))` for a specific error such as a bad
/// cell name.
struct CommandParser<'a> {
    cursor: Cursor<'a>,
}

type Step<T> = Result<Option<T>, Option<Diagnostic>>;

impl CommandParser<'_> {
    fn command(&mut self) -> Step<Command> {
        if let Some(var) = self.var() {
            let takes = self.cursor.eat('x');
            let Some(cell) = self.cell()? else {
                return Ok(None);
            };
            let command = match (takes, self.cursor.peek()) {
                (false, None) => Command::VarFromCell(var, cell),
                (true, None) => Command::CellFromVar(var, cell),
                (false, Some('+')) => Command::VarAddCell(var, cell),
                (true, Some('+')) => Command::CellAddVar(var, cell),
                (false, Some('#')) => Command::VarInput(var, cell),
                _ => return Ok(None),
            };
            self.cursor.bump();
            return Ok(Some(command));
        }
        let Some(cell) = self.cell()? else {
            return Ok(None);
        };
        let other = if self.cursor.eat('x') {
            match self.cell()? {
                Some(other) => Some(other),
                None => return Ok(None),
            }
        } else {
            None
        };
        if self.cursor.eat('=') {
            let Some(var) = self.var() else {
                return Ok(None);
            };
            let negated = self.cursor.eat('+');
            return Ok(Some(Command::Condition(Condition {
                cell,
                also: other,
                var,
                negated,
            })));
        }
        let command = match (other, self.cursor.peek()) {
            (None, None) => Command::Output(cell),
            (Some(from), None) => Command::Copy { to: cell, from },
            (None, Some('+')) => Command::Increment(cell),
            (Some(from), Some('+')) => Command::AddCell { to: cell, from },
            (None, Some('#')) => Command::Input(cell),
            _ => return Ok(None),
        };
        self.cursor.bump();
        Ok(Some(command))
    }

    fn var(&mut self) -> Option<Spanned<Var>> {
        let start = self.cursor.pos();
        let var = self.cursor.peek().and_then(Var::from_letter)?;
        self.cursor.bump();
        Some(Spanned::new(var, self.cursor.span_from(start)))
    }

    /// A cell; a lowercase letter followed by digits that is not one is a
    /// specific error.
    fn cell(&mut self) -> Step<Spanned<Cell>> {
        let start = self.cursor.pos();
        let Some(file) = self.cursor.peek().filter(char::is_ascii_lowercase) else {
            return Ok(None);
        };
        self.cursor.bump();
        let (_, digits) = self.cursor.take_while(|c| c.is_ascii_digit());
        if digits.is_empty() {
            self.cursor.set_pos(start);
            return Ok(None);
        }
        let span = self.cursor.span_from(start);
        let rank = digits
            .parse::<u8>()
            .ok()
            .filter(|r| (1..=8).contains(r) && digits.len() == 1);
        match (('a'..='h').contains(&file), rank) {
            (true, Some(rank)) => {
                let index = (rank - 1) * 8 + (file as u8 - b'a');
                Ok(Some(Spanned::new(Cell(index), span)))
            }
            _ => Err(Some(
                Diagnostic::error(
                    Code::ChcNoSuchCell,
                    format!("there is no cell `{file}{digits}`"),
                    span,
                )
                .with_label("not a cell")
                .with_help("cells are a letter a–h and a digit 1–8, from a1 to h8"),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(text: &str) -> Result<Command, String> {
        let source = Source::new("t.chc", text);
        match parse(&source) {
            Ok(mut program) => Ok(program.lines.remove(0).command),
            Err(errors) => Err(format!(
                "{} / {}",
                errors.iter().next().unwrap().message,
                errors
                    .iter()
                    .next()
                    .unwrap()
                    .help
                    .clone()
                    .unwrap_or_default()
            )),
        }
    }

    fn cell(name: &str) -> u8 {
        let b = name.as_bytes();
        (b[1] - b'1') * 8 + (b[0] - b'a')
    }

    #[test]
    fn every_command_form() {
        assert!(matches!(command("f5"), Ok(Command::Output(c)) if c.value.0 == cell("f5")));
        assert!(
            matches!(command("f2xg7"), Ok(Command::Copy { to, from }) if to.value.0 == cell("f2") && from.value.0 == cell("g7"))
        );
        assert!(matches!(command("c6+"), Ok(Command::Increment(_))));
        assert!(matches!(command("c2xh3+"), Ok(Command::AddCell { .. })));
        assert!(matches!(command("b6#"), Ok(Command::Input(_))));
        assert_eq!(command("O-O"), Ok(Command::AsciiMode));
        assert_eq!(command("O-O-O"), Ok(Command::RawMode));
        assert!(matches!(command("Rc6"), Ok(Command::VarFromCell(v, _)) if v.value == Var::Rook));
        assert!(
            matches!(command("Bxc6"), Ok(Command::CellFromVar(v, _)) if v.value == Var::Bishop)
        );
        assert!(matches!(command("Ng4+"), Ok(Command::VarAddCell(v, _)) if v.value == Var::Knight));
        assert!(matches!(command("Qxf4+"), Ok(Command::CellAddVar(v, _)) if v.value == Var::Queen));
        assert!(matches!(command("Kg1#"), Ok(Command::VarInput(v, _)) if v.value == Var::King));
        assert_eq!(command("1/2   1/2"), Ok(Command::Label));
        assert!(
            matches!(command("f1=K"), Ok(Command::Condition(c)) if !c.negated && c.also.is_none())
        );
        assert!(matches!(command("g6=R+"), Ok(Command::Condition(c)) if c.negated));
        assert!(
            matches!(command("h3xc2=Q"), Ok(Command::Condition(c)) if c.also.is_some() && !c.negated)
        );
        assert!(
            matches!(command("d2xa5=B+"), Ok(Command::Condition(c)) if c.also.is_some() && c.negated)
        );
        assert!(matches!(
            command("  a1+   | trailing comment"),
            Ok(Command::Increment(_))
        ));
    }

    #[test]
    fn other_languages_comments_are_explained() {
        assert_eq!(
            command("# read two numbers"),
            Err("`#` does not start a comment in Chess Code / comments start with `|` and run to the end of the line: `| read two numbers`".into())
        );
        assert!(command("// sum").unwrap_err().contains("`| sum`"));
    }

    #[test]
    fn capital_cells_are_pointed_out() {
        assert!(command("A1+")
            .unwrap_err()
            .contains("did you mean `a1+`? (cells are written in lowercase, a1…h8)"));
        assert!(command("Ba2").is_ok(), "a variable and a cell");
    }

    #[test]
    fn a_variable_after_the_x_is_put_first() {
        for (written, meant) in [("a3xK", "Kxa3"), ("h8xR+", "Rxh8+"), ("b2xQ", "Qxb2")] {
            let error = command(written).unwrap_err();
            assert!(
                error.contains(&format!("did you mean `{meant}`?")),
                "{error}"
            );
            assert!(command(meant).is_ok());
        }
        // Only when the swapped line is a command.
        assert!(!command("a3xZ").unwrap_err().contains("did you mean"));
        assert!(!command("a3x").unwrap_err().contains("did you mean"));
    }

    #[test]
    fn errors_name_the_closest_form() {
        assert_eq!(
            command("a1-"),
            Err("`a1-` is not a Chess Code command / the closest command form is `C+` (C = C + 1); C and D are cells a1…h8, V is one of R N B Q K".into())
        );
        assert_eq!(
            command("a1xb2=V"),
            Err("`a1xb2=V` is not a Chess Code command / the closest command form is `CxD=V` (loop back if C == V and C == D); C and D are cells a1…h8, V is one of R N B Q K".into())
        );
        assert!(command("1/21/2")
            .unwrap_err()
            .contains("`1/2 1/2` (loop label)"));
        assert!(command("Kxa1#")
            .unwrap_err()
            .contains("closest command form is `VxC+`"));
        assert!(command("O-O-O-O")
            .unwrap_err()
            .contains("closest command form is `O-O-O`"));
        assert_eq!(
            command("i9"),
            Err(
                "there is no cell `i9` / cells are a letter a–h and a digit 1–8, from a1 to h8"
                    .into()
            )
        );
        assert!(command("a9+")
            .unwrap_err()
            .starts_with("there is no cell `a9`"));
        assert!(command("a10")
            .unwrap_err()
            .starts_with("there is no cell `a10`"));
    }

    #[test]
    fn every_bad_line_is_reported() {
        let source = Source::new("t.chc", "a1\nzz\n| fine\n\nb9\nc3+\n");
        assert_eq!(parse(&source).unwrap_err().len(), 2);
    }
}
