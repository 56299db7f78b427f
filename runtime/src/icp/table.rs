//! Large InfChessPro programs as data: the code generator writes a
//! program of more than a thousand lines as three texts — its distinct
//! commands ([`write_command`]), its lines ([`write_line`]) and, if it
//! jumps to labels read from input, its labels ([`write_label`]) — that
//! [`run_table`] reads when the program starts and walks, instead of
//! Rust code or Rust values per line: a string literal is one token
//! however long, so the code generator's cost and rustc's stay small at
//! any program size (a table of Rust values, one a line, cost the code
//! generator 8 GB for a million lines naming 250,000 pieces).
//!
//! The walk makes the same board calls as the code of a small program, in
//! the same order of step ticks, input reads, errors and jumps; a walk
//! loop (`NAME;dr,dc` whose success repeats it) has a [`Pace`] of its own
//! per distinct walk command.

use std::io::{BufRead, Write};

use super::super::error::RuntimeError;
use super::super::io::Io;
use super::super::limits::StepCounter;
use super::{jump_target, outlined, Board, NameId, Pace, Piece, Square};

/// A jump target read from input (`?*`, `!*`) in the lines' text and in
/// [`Line`]s.
pub const INPUT: u32 = u32::MAX;

/// An operand of a command: a number, or one read from input (`*`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand {
    /// A number written in the program.
    Literal(i64),
    /// A number read from input when the command runs.
    Input,
}

/// What a line does: a command of the program, names as their indices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command<'a> {
    /// `^`.
    Nop,
    /// `"TEXT`.
    Print(&'a str),
    /// `%NAME`.
    Count(NameId),
    /// `NAME=Tr,c`.
    Place(NameId, Piece, [Operand; 2]),
    /// `r,c,r,c`.
    MoveFrom([Operand; 4]),
    /// `NAME,r,c`, with the piece the name always is, if known.
    MoveNamedTo(NameId, Option<Piece>, [Operand; 2]),
    /// `NAME;dr,dc`, with the piece the name always is, if known.
    MoveNamedBy(NameId, Option<Piece>, [Operand; 2]),
    /// `NAME;dr,dc` (literal offsets) whose success repeats it, with the
    /// index of its [`Pace`] (walk commands are numbered in the order of
    /// the commands' text; [`write_command`] does not write it).
    Walk(NameId, Option<Piece>, (i64, i64), u32),
}

/// A line: its source line, its command's index in the commands, the line
/// index it goes on at after success and after failure (the line count
/// halts; [`INPUT`] reads a label).
pub type Line = (u32, u32, u32, u32);

/// A program's tables, as generated code holds them.
#[derive(Clone, Copy, Debug)]
pub struct Table<'a> {
    /// How many piece names the program has.
    pub names: usize,
    /// The distinct commands in order, each as [`write_command`] wrote it.
    pub commands: &'a str,
    /// The lines in order, one a line ([`write_line`]).
    pub lines: &'a str,
    /// Every label and its line index, sorted by label, one a line
    /// ([`write_label`]); empty if the program reads no jump target.
    pub labels: &'a str,
}

/// Appends `command` to `out`, as [`parse_commands`] reads it, one a
/// line: `nop`, `print LENGTH TEXT` (LENGTH the text's bytes, so that
/// any text reads back), `count NAME`, `place NAME PIECE ROW COL`, `from
/// ROW COL ROW COL`, `to NAME KNOWN ROW COL`, `by NAME KNOWN ROW COL`,
/// `walk NAME KNOWN ROW COL` — a name as its index, a piece as its letter
/// (`R` white, `r` black), the piece a name always is as its letter or `-`,
/// an operand as a decimal number or `*` (read from input).
pub fn write_command(out: &mut String, command: &Command) {
    use std::fmt::Write as _;
    let known = |known: Option<Piece>| known.map_or('-', Piece::letter);
    let operands = |out: &mut String, operands: &[Operand]| {
        for operand in operands {
            match operand {
                Operand::Literal(value) => {
                    let _ = write!(out, " {value}");
                }
                Operand::Input => out.push_str(" *"),
            }
        }
    };
    match *command {
        Command::Nop => out.push_str("nop"),
        Command::Print(text) => {
            let _ = write!(out, "print {} {text}", text.len());
        }
        Command::Count(name) => {
            let _ = write!(out, "count {name}");
        }
        Command::Place(name, piece, square) => {
            let _ = write!(out, "place {name} {}", piece.letter());
            operands(out, &square);
        }
        Command::MoveFrom(squares) => {
            out.push_str("from");
            operands(out, &squares);
        }
        Command::MoveNamedTo(name, piece, to) => {
            let _ = write!(out, "to {name} {}", known(piece));
            operands(out, &to);
        }
        Command::MoveNamedBy(name, piece, by) => {
            let _ = write!(out, "by {name} {}", known(piece));
            operands(out, &by);
        }
        Command::Walk(name, piece, (d_row, d_col), _) => {
            let _ = write!(out, "walk {name} {} {d_row} {d_col}", known(piece));
        }
    }
    out.push('\n');
}

/// Appends a line to `out`, as [`parse_lines`] reads it: `AT COMMAND
/// SUCCESS FAILURE`, a target read from input ([`INPUT`]) as `*`.
pub fn write_line(out: &mut String, (at, command, success, failure): Line) {
    use std::fmt::Write as _;
    let target = |target: u32| match target {
        INPUT => "*".to_string(),
        target => target.to_string(),
    };
    let _ = writeln!(
        out,
        "{at} {command} {} {}",
        target(success),
        target(failure)
    );
}

/// Appends a label and its line index to `out`: `LABEL INDEX`.
pub fn write_label(out: &mut String, label: i64, index: u32) {
    use std::fmt::Write as _;
    let _ = writeln!(out, "{label} {index}");
}

/// The commands [`write_command`] wrote, walks given their paces in
/// order; and how many walks there are.
pub fn parse_commands(text: &str) -> Result<(Vec<Command<'_>>, u32), String> {
    let mut commands = Vec::new();
    let mut walks = 0;
    let mut rest = text;
    while !rest.is_empty() {
        let malformed = || {
            let line = rest.split('\n').next().unwrap_or_default();
            format!(
                "the table of commands is malformed at command {}: `{line}`",
                commands.len() + 1
            )
        };
        let (command, after) = parse_command(rest, walks).ok_or_else(malformed)?;
        if let Command::Walk(..) = command {
            walks += 1;
        }
        commands.push(command);
        rest = after;
    }
    Ok((commands, walks))
}

/// The command at the start of `text` (whose walk, if it is one, has pace
/// `walks`), and the text after it.
fn parse_command(text: &str, walks: u32) -> Option<(Command<'_>, &str)> {
    if let Some(print) = text.strip_prefix("print ") {
        let (length, rest) = print.split_once(' ')?;
        let length: usize = length.parse().ok()?;
        let printed = rest.get(..length)?;
        let after = rest.get(length..)?.strip_prefix('\n')?;
        return Some((Command::Print(printed), after));
    }
    let (line, after) = text.split_once('\n')?;
    let mut words = line.split(' ');
    let kind = words.next()?;
    let command = match kind {
        "nop" => Command::Nop,
        "count" => Command::Count(number(&mut words)?),
        "place" => {
            let name = number(&mut words)?;
            let piece = piece(&mut words)?;
            Command::Place(name, piece, operands(&mut words)?)
        }
        "from" => Command::MoveFrom(operands(&mut words)?),
        "to" => {
            let name = number(&mut words)?;
            let known = known(&mut words)?;
            Command::MoveNamedTo(name, known, operands(&mut words)?)
        }
        "by" => {
            let name = number(&mut words)?;
            let known = known(&mut words)?;
            Command::MoveNamedBy(name, known, operands(&mut words)?)
        }
        "walk" => {
            let name = number(&mut words)?;
            let known = known(&mut words)?;
            let (d_row, d_col) = (number(&mut words)?, number(&mut words)?);
            Command::Walk(name, known, (d_row, d_col), walks)
        }
        _ => return None,
    };
    if words.next().is_some() {
        return None;
    }
    Some((command, after))
}

/// The next word as a number.
fn number<'a, T: std::str::FromStr>(words: &mut impl Iterator<Item = &'a str>) -> Option<T> {
    words.next()?.parse().ok()
}

/// The next word as a piece's letter.
fn piece<'a>(words: &mut impl Iterator<Item = &'a str>) -> Option<Piece> {
    letter_piece(words.next()?)
}

/// A piece written as its letter.
fn letter_piece(word: &str) -> Option<Piece> {
    let mut letters = word.chars();
    let piece = Piece::from_letter(letters.next()?)?;
    letters.next().is_none().then_some(piece)
}

/// The next word as the piece a name always is: a letter, or `-`.
fn known<'a>(words: &mut impl Iterator<Item = &'a str>) -> Option<Option<Piece>> {
    match words.next()? {
        "-" => Some(None),
        letter => letter_piece(letter).map(Some),
    }
}

/// The next `N` words as operands.
fn operands<'a, const N: usize>(words: &mut impl Iterator<Item = &'a str>) -> Option<[Operand; N]> {
    let mut operands = [Operand::Input; N];
    for operand in &mut operands {
        *operand = match words.next()? {
            "*" => Operand::Input,
            value => Operand::Literal(value.parse().ok()?),
        };
    }
    Some(operands)
}

/// The lines [`write_line`] wrote, each command index below `commands`
/// and each target at most the line count (or [`INPUT`]).
pub fn parse_lines(text: &str, commands: usize) -> Result<Vec<Line>, String> {
    let count = text.lines().count();
    let mut lines = Vec::with_capacity(count);
    for (index, line) in text.lines().enumerate() {
        let target = |word: &str| match word {
            "*" => Some(INPUT),
            word => word
                .parse()
                .ok()
                .filter(|&target: &u32| target as usize <= count),
        };
        let mut words = line.split(' ');
        let mut parsed = || -> Option<Line> {
            let at = number(&mut words)?;
            let command = number(&mut words).filter(|&c: &u32| (c as usize) < commands)?;
            let success = target(words.next()?)?;
            let failure = target(words.next()?)?;
            words
                .next()
                .is_none()
                .then_some((at, command, success, failure))
        };
        match parsed() {
            Some(parsed) => lines.push(parsed),
            None => {
                return Err(format!(
                    "the table of lines is malformed at line {}: `{line}`",
                    index + 1
                ))
            }
        }
    }
    Ok(lines)
}

/// The labels [`write_label`] wrote.
pub fn parse_labels(text: &str) -> Result<Vec<(i64, u32)>, String> {
    text.lines()
        .map(|line| {
            let mut words = line.split(' ');
            let label = number(&mut words);
            let index = number(&mut words);
            match (label, index, words.next()) {
                (Some(label), Some(index), None) => Ok((label, index)),
                _ => Err(format!("the table of labels is malformed: `{line}`")),
            }
        })
        .collect()
}

/// An operand's value, read from input (at source line `at`) if it is
/// `*`.
#[inline(always)]
fn operand<R: BufRead, W: Write>(
    operand: Operand,
    io: &mut Io<R, W>,
    at: u32,
) -> Result<i64, RuntimeError> {
    match operand {
        Operand::Literal(value) => Ok(value),
        Operand::Input => io.read_i64(at),
    }
}

/// Runs the program of `table` from its first line: reads the texts,
/// then walks the lines (see the module documentation). Malformed texts
/// (which chess2rs never writes) are an error naming the table.
pub fn run_table<R: BufRead, W: Write>(
    table: &Table,
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
) -> Result<(), RuntimeError> {
    let internal = RuntimeError::internal;
    let (commands, walks) = parse_commands(table.commands).map_err(internal)?;
    let lines = parse_lines(table.lines, commands.len()).map_err(internal)?;
    let labels = parse_labels(table.labels).map_err(internal)?;
    let mut board = Board::new(table.names);
    let mut paces = vec![Pace::new(); walks as usize];
    run_lines(
        0, &mut board, &mut paces, &commands, &lines, &labels, io, steps,
    )
}

/// Runs the lines from line index `pc` on: one loop over the tables
/// instead of one `match` arm per block of a small program's code.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn run_lines<R: BufRead, W: Write>(
    mut pc: u32,
    board: &mut Board,
    paces: &mut [Pace],
    commands: &[Command],
    lines: &[Line],
    labels: &[(i64, u32)],
    io: &mut Io<R, W>,
    steps: &mut StepCounter,
) -> Result<(), RuntimeError> {
    while let Some(&(at, command, success, failure)) = lines.get(pc as usize) {
        let Some(&command) = commands.get(command as usize) else {
            break;
        };
        let succeeded = match command {
            Command::Walk(name, known, (d_row, d_col), pace) => {
                // The loop of single steps, each preceded (at the board's
                // pace) by as many steps as the board proves at once.
                let Some(pace) = paces.get_mut(pace as usize) else {
                    break;
                };
                pace.enter();
                loop {
                    board.walk_paced(pace, name, (d_row, d_col), known, steps);
                    steps.tick(at)?;
                    if !outlined::move_named_by(board, name, d_row, d_col, known, at)? {
                        break;
                    }
                }
                false
            }
            Command::Nop => {
                steps.tick(at)?;
                true
            }
            Command::Print(text) => {
                steps.tick(at)?;
                io.write_line(text)?;
                true
            }
            Command::Count(name) => {
                steps.tick(at)?;
                io.write_i64_line(board.count(name) as i64)?;
                true
            }
            Command::Place(name, piece, [row, col]) => {
                steps.tick(at)?;
                let row = operand(row, io, at)?;
                let col = operand(col, io, at)?;
                board
                    .place(name, piece, Square::new(row, col))
                    .map_err(|e| e.in_line(at))?
            }
            Command::MoveFrom([r1, c1, r2, c2]) => {
                steps.tick(at)?;
                let r1 = operand(r1, io, at)?;
                let c1 = operand(c1, io, at)?;
                let r2 = operand(r2, io, at)?;
                let c2 = operand(c2, io, at)?;
                board.move_from(Square::new(r1, c1), Square::new(r2, c2))
            }
            Command::MoveNamedTo(name, known, [row, col]) => {
                steps.tick(at)?;
                let row = operand(row, io, at)?;
                let col = operand(col, io, at)?;
                outlined::move_named_to(board, name, Square::new(row, col), known)
            }
            Command::MoveNamedBy(name, known, [d_row, d_col]) => {
                steps.tick(at)?;
                let d_row = operand(d_row, io, at)?;
                let d_col = operand(d_col, io, at)?;
                outlined::move_named_by(board, name, d_row, d_col, known, at)?
            }
        };
        let next = if succeeded { success } else { failure };
        pc = if next == INPUT {
            jump_target(labels, io.read_i64(at)?, at)?
        } else {
            next
        };
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{BLACK_PAWN, WHITE_ROOK};
    use super::*;

    #[test]
    fn commands_lines_and_labels_round_trip_through_text() {
        let commands = [
            Command::Nop,
            Command::Print("a b \"c\" \\ ?3 "),
            Command::Print(""),
            Command::Count(7),
            Command::Place(1, BLACK_PAWN, [Operand::Literal(-3), Operand::Input]),
            Command::MoveFrom([
                Operand::Input,
                Operand::Literal(i64::MIN),
                Operand::Literal(i64::MAX),
                Operand::Literal(0),
            ]),
            Command::MoveNamedTo(2, None, [Operand::Literal(5), Operand::Literal(6)]),
            Command::MoveNamedBy(3, Some(WHITE_ROOK), [Operand::Input, Operand::Input]),
            Command::Walk(4, Some(BLACK_PAWN), (-1, 0), 0),
            Command::Walk(4, None, (0, 1), 1),
        ];
        let mut text = String::new();
        for command in &commands {
            write_command(&mut text, command);
        }
        assert!(text.contains("\nplace 1 p -3 *\n"), "{text}");
        assert!(text.contains("\nwalk 4 p -1 0\n"), "{text}");
        assert_eq!(parse_commands(&text), Ok((commands.to_vec(), 2)));
        let lines = [(10, 0, 1, 2), (11, 9, INPUT, 0), (u32::MAX, 3, 2, INPUT)];
        let mut text = String::new();
        for line in lines {
            write_line(&mut text, line);
        }
        assert_eq!(text, "10 0 1 2\n11 9 * 0\n4294967295 3 2 *\n");
        assert_eq!(parse_lines(&text, 10), Ok(lines.to_vec()));
        assert!(parse_lines(&text, 9).is_err(), "no command 9");
        assert!(parse_lines("1 0 4 0\n", 1).is_err(), "no line 4");
        let mut text = String::new();
        write_label(&mut text, -5, 3);
        write_label(&mut text, 10, 0);
        assert_eq!(parse_labels(&text), Ok(vec![(-5, 3), (10, 0)]));
        for bad in [
            "jump\n",
            "nop 1\n",
            "count\n",
            "place 1 X 0 0\n",
            "place 1 R 0\n",
            "from 1 2 3 x\n",
            "print 4 abc\n",
            "print 1 abc\n",
            "nop",
        ] {
            assert!(parse_commands(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_malformed_table_is_an_internal_error() {
        let table = Table {
            names: 0,
            commands: "nop\n",
            lines: "1 1 1 1\n",
            labels: "",
        };
        let mut out = Vec::new();
        let mut io = Io::new(&b""[..], &mut out);
        let mut steps = StepCounter::new(&Default::default());
        let error = run_table(&table, &mut io, &mut steps).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("internal error: the table of lines"),
            "{error}"
        );
    }
}
