//! Finvara text → syntax tree with spans: piece definitions (with the
//! movement notation as an AST), the board drawing, the move lines.

use crate::cursor::Cursor;
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::{Source, Span, Spanned};

use super::automaton::MAX_EDGES;

mod board;

pub use board::{border_width, cells};
use board::{parse_row, report_ragged_rows, BoardWidth, BoardWidths};

/// A parsed program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// Piece definitions in order.
    pub pieces: Vec<PieceDef>,
    /// Board rows, top row first.
    pub rows: Vec<Vec<Spanned<Cell>>>,
    /// Where the board is drawn (for errors about the board as a whole).
    pub board_span: Span,
    /// Move lines in order.
    pub moves: Vec<MoveLine>,
}

/// `(SYMBOL VALUE): NOTATION`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// The symbol.
    pub symbol: Spanned<String>,
    /// Its value; `None` for a royal piece.
    pub value: Option<Value>,
    /// How it moves.
    pub notation: Spanned<Seq>,
}

/// A piece's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A number.
    Number(i64),
    /// The column number of the square.
    X,
    /// The row number of the square.
    Y,
}

/// A board cell as drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// `##`.
    Hole,
    /// A piece: symbol and colour (`true` for white).
    Piece(String, bool),
}

/// A sequence of items done one after another.
pub type Seq = Vec<Item>;

/// An atom with repetitions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    /// What is done.
    pub atom: Atom,
    /// `*` (same way) and `` ` `` (any way) suffixes, in order.
    pub repeats: Vec<Repeat>,
    /// Where it is written.
    pub span: Span,
}

/// A repetition suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Repeat {
    /// `*`: one or more times, the same way each time.
    Same,
    /// `` ` ``: one or more times, any way each time.
    Any,
}

/// The notation's atoms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Atom {
    /// `(a,b|DIRS)`.
    Leap {
        /// First component.
        a: i64,
        /// Second component.
        b: i64,
        /// Direction filter: forward, backward, right, left.
        dirs: Option<[bool; 4]>,
    },
    /// `{A,B,...}`.
    Any(Vec<Seq>),
    /// `[A]`.
    Group(Seq),
    /// `c(A)`.
    Capture(Seq),
    /// `m(A)`.
    NoCapture(Seq),
    /// `r(A,ranks)` (`negated` for `r!`).
    Rank {
        /// The moves.
        seq: Seq,
        /// The ranks, lowest and highest as written.
        ranks: (i64, i64),
        /// `r!`.
        negated: bool,
    },
    /// `"s"`.
    Like(Spanned<String>),
    /// `x`.
    CaptureHere,
    /// `p` or `p->[..]` / `->[..]`: the allowed targets (empty: any).
    Promote(Vec<Spanned<String>>),
}

/// A move line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveLine {
    /// 1-based source line.
    pub source_line: u32,
    /// The line's text.
    pub text: String,
    /// Where the line's text is (blanks and comment left out): what its
    /// run-time errors point at.
    pub span: Span,
    /// `Turn N`.
    pub turn: Spanned<u32>,
    /// `W` (true) or `B`.
    pub white: bool,
    /// The piece symbol.
    pub symbol: Spanned<String>,
    /// What it does.
    pub action: MoveAction,
}

/// A square as written: row letters and column number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SquareRef {
    /// Row number from the bottom, 1-based.
    pub row: u64,
    /// Column number from the left, 1-based.
    pub col: u64,
    /// Where.
    pub span: Span,
}

/// The two kinds of move line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveAction {
    /// `FROM -> TO [= PROMOTED]`.
    Move {
        /// From.
        from: SquareRef,
        /// To.
        to: SquareRef,
        /// `= SYMBOL`.
        promote: Option<Spanned<String>>,
    },
    /// `SQUARE checks turn M`.
    Checks {
        /// The square.
        square: SquareRef,
        /// M.
        turn: Spanned<u32>,
    },
}

/// Where a line's comment starts (a byte offset in `line`), if it has one:
/// `#` to the end of the line, except in a board row (a line whose first
/// non-blank is `|`), where `##` is a hole and a comment can only follow
/// the row's last `|`. The parser and the editor's outline both read
/// comments here.
pub fn comment_start(line: &str) -> Option<usize> {
    let code_from = if line.trim_start().starts_with('|') {
        line.rfind('|').map_or(0, |bar| bar + 1)
    } else {
        0
    };
    line[code_from..].find('#').map(|hash| code_from + hash)
}

/// What one source line is, read alone (every line of a program is one of
/// these whatever the lines around it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// Blank, a comment, or a line of `+` that is not a border.
    Blank,
    /// A `+--+` border line, with how many cells it shows.
    Border(usize),
    /// A board row (its cells, or why they are not), and where it is.
    Row(Parsed<Vec<Spanned<Cell>>>, Span),
    /// A piece definition.
    Piece(Parsed<PieceDef>),
    /// A move line.
    Move(Parsed<MoveLine>),
    /// A line that is none of those.
    Other(Diagnostic),
}

impl Line {
    /// Whether the line is part of the pieces and the board (what the
    /// checks of every move line read), not a move line or a blank one.
    pub fn is_header(&self) -> bool {
        matches!(self, Line::Border(_) | Line::Row(..) | Line::Piece(_))
    }
}

/// Reads `raw`, the text of line `source_line` (1-based, without its
/// line end) starting at byte `start`; `items` counts the notation items
/// of the program's pieces so far (see [`MAX_ITEMS`]), a piece line's
/// added even when it fails.
pub fn read_line(start: usize, raw: &str, source_line: u32, items: &mut usize) -> Line {
    let trimmed_start = raw.trim_start();
    let offset = start + (raw.len() - trimmed_start.len());
    if trimmed_start.starts_with('|') {
        let span = offset..offset + trimmed_start.trim_end().len();
        return Line::Row(parse_row(trimmed_start, offset), span);
    }
    let code =
        trimmed_start[..comment_start(trimmed_start).unwrap_or(trimmed_start.len())].trim_end();
    if let Some(width) = border_width(code) {
        return Line::Border(width);
    }
    if code.is_empty() || code.starts_with('+') {
        Line::Blank
    } else if code.starts_with('(') {
        Line::Piece(parse_piece(code, offset, items))
    } else if code.starts_with("Turn") {
        Line::Move(parse_move(code, offset, source_line))
    } else {
        Line::Other(Diagnostic::error(Code::FvLineNotUnderstood, "this line is not a piece definition, a board row or a move", offset..offset + code.len())
            .with_label("not understood")
            .with_help("pieces: `(SYMBOL VALUE): NOTATION`; board rows: `|kB|##|  |`; moves: `Turn 1 W: SYMBOL a1 -> b1`"))
    }
}

/// A program read line by line: what [`parse`] makes of a whole source,
/// and what an editor makes of the lines of pieces and board it keeps.
#[derive(Debug)]
pub struct Reader {
    program: Program,
    errors: Vec<Diagnostic>,
    /// The widths the rows and `+--+` lines are drawn with.
    widths: BoardWidths,
    /// Notation items read so far (see [`MAX_ITEMS`]).
    items: usize,
}

impl Default for Reader {
    fn default() -> Self {
        Reader {
            program: Program {
                pieces: Vec::new(),
                rows: Vec::new(),
                board_span: 0..0,
                moves: Vec::new(),
            },
            errors: Vec::new(),
            widths: BoardWidths::default(),
            items: 0,
        }
    }
}

impl Reader {
    /// A reader that has read every line of `source`.
    pub fn of(source: &Source) -> Reader {
        let mut reader = Reader::default();
        for (start, raw) in source.lines() {
            reader.line(start, raw, source.line_number(start));
        }
        reader
    }

    /// Reads the next line of the program: `raw`, line `source_line`
    /// (1-based), starting at byte `start`.
    pub fn line(&mut self, start: usize, raw: &str, source_line: u32) {
        let error = match read_line(start, raw, source_line, &mut self.items) {
            Line::Blank => None,
            Line::Border(width) => {
                self.widths.borders.push(width);
                None
            }
            Line::Row(Ok(row), span) => {
                if self.program.rows.is_empty() {
                    self.program.board_span = span.clone();
                } else {
                    self.program.board_span.end = span.end;
                }
                self.widths.rows.push((row.len(), span));
                self.program.rows.push(row);
                None
            }
            Line::Piece(Ok(piece)) => {
                self.program.pieces.push(piece);
                None
            }
            Line::Move(Ok(line)) => {
                self.program.moves.push(line);
                None
            }
            Line::Row(Err(error), _)
            | Line::Piece(Err(error))
            | Line::Move(Err(error))
            | Line::Other(error) => Some(error),
        };
        self.errors.extend(error);
    }

    /// The program read, and every error found in the order of the lines
    /// they are about (rows whose width is not the board's included).
    pub fn finish(mut self) -> (Program, Vec<Diagnostic>) {
        report_ragged_rows(&self.widths, &mut self.errors);
        self.errors.sort_by_key(|error| error.span.start);
        (self.program, self.errors)
    }

    /// [`Reader::finish`], with rows shorter than the board's width
    /// completed with empty cells: the program and a warning for each row
    /// completed, or every error (a row longer than the board's width is
    /// one: which of its cells is too many is not known).
    pub fn finish_completing_rows(mut self) -> Result<(Program, Diagnostics), Diagnostics> {
        let board = self.widths.board();
        let fits = |board: &BoardWidth| self.widths.rows.iter().all(|(w, _)| *w <= board.width);
        if !self.errors.is_empty() || !board.as_ref().is_none_or(fits) {
            let (_, errors) = self.finish();
            return Err(errors.into_iter().collect());
        }
        let Some(board) = board else {
            return Ok((self.program, Diagnostics::default()));
        };
        let mut completed = Diagnostics::default();
        for (row, (width, span)) in self.program.rows.iter_mut().zip(&self.widths.rows) {
            if *width < board.width {
                let end = span.end.saturating_sub(1);
                row.resize(board.width, Spanned::new(Cell::Empty, end..span.end));
                completed.push(
                    Diagnostic::warning(
                        Code::FvRowCompleted,
                        format!(
                            "this row had {}, completed with {}",
                            cells(*width),
                            cells(board.width - width).replace("cell", "empty cell")
                        ),
                        span.clone(),
                    )
                    .with_label("completed")
                    .with_help(format!("the board's rows have {}", cells(board.width))),
                );
            }
        }
        Ok((self.program, completed))
    }
}

/// Parses a program; all bad lines are reported.
pub fn parse(source: &Source) -> Result<Program, Diagnostics> {
    let (program, errors) = Reader::of(source).finish();
    if errors.is_empty() {
        Ok(program)
    } else {
        Err(errors.into_iter().collect())
    }
}

/// [`parse`], with a board whose rows are short completed with empty
/// cells (`chess2rs fmt` redraws such a board): see
/// [`Reader::finish_completing_rows`].
pub fn parse_completing_rows(source: &Source) -> Result<(Program, Diagnostics), Diagnostics> {
    Reader::of(source).finish_completing_rows()
}

/// How deep `{`, `[`, `c(`, `m(` and `r(` may nest in one notation — far
/// beyond any real piece, and shallow enough that the recursive parser and
/// compiler never exhaust the stack.
pub const MAX_NESTING: u32 = 100;

/// Most items (leaps, `x`, `p`, conditions, groups, references) all
/// notations of a program may have: each gives its piece's automaton at
/// least one edge, so a program with more could never pass the automata's
/// limit ([`MAX_EDGES`]). Counted while parsing, so that a notation of
/// hundreds of megabytes is refused after its first few, with memory in
/// proportion to those (not to the whole input).
pub const MAX_ITEMS: usize = MAX_EDGES;

/// Reads one line: a piece definition or a move line.
struct LineParser<'a> {
    cursor: Cursor<'a>,
    /// Notation sequences open around the cursor.
    depth: u32,
    /// Notation items read so far in the program, this line's included.
    items: usize,
}

/// What reading a line makes of it, or why it does not read.
pub type Parsed<T> = Result<T, Diagnostic>;

impl<'a> LineParser<'a> {
    fn new(text: &'a str, offset: usize) -> Self {
        LineParser {
            cursor: Cursor::new(text, offset),
            depth: 0,
            items: 0,
        }
    }

    fn skip_blanks(&mut self) {
        self.cursor.take_while(char::is_whitespace);
    }

    fn peek(&self) -> Option<char> {
        self.cursor.peek()
    }

    fn at(&mut self, wanted: &str) -> bool {
        self.skip_blanks();
        self.match_end(wanted).is_some()
    }

    /// Where `wanted` ends if the text at the cursor spells it, blanks
    /// allowed between its characters (whitespace inside a notation is
    /// ignored: `c (` is `c(`).
    fn match_end(&self, wanted: &str) -> Option<usize> {
        let text = self.cursor.text();
        let mut pos = self.cursor.pos();
        for (i, expected) in wanted.chars().enumerate() {
            if i > 0 {
                let rest = &text[pos..];
                pos += rest.len() - rest.trim_start().len();
            }
            if !text[pos..].starts_with(expected) {
                return None;
            }
            pos += expected.len_utf8();
        }
        Some(pos)
    }

    fn eat(&mut self, wanted: &str) -> bool {
        self.skip_blanks();
        match self.match_end(wanted) {
            Some(end) => {
                self.cursor.set_pos(end);
                true
            }
            None => false,
        }
    }

    fn span_from(&self, start: usize) -> Span {
        self.cursor.span_from(start)
    }

    fn error(&self, expected: &str) -> Diagnostic {
        self.cursor.unexpected(Code::FvSyntax, expected)
    }

    fn expect(&mut self, wanted: &str) -> Parsed<()> {
        if self.eat(wanted) {
            Ok(())
        } else {
            Err(self.error(&format!("`{wanted}`")))
        }
    }

    fn symbol(&mut self) -> Parsed<Spanned<String>> {
        self.skip_blanks();
        let (start, symbol) = self
            .cursor
            .take_while(|c| c.is_ascii_alphanumeric() || c == '_');
        if symbol.is_empty() {
            return Err(self.error("a piece symbol"));
        }
        Ok(Spanned::new(symbol.to_string(), self.span_from(start)))
    }

    fn integer(&mut self) -> Parsed<Spanned<i64>> {
        self.skip_blanks();
        let start = self.cursor.pos();
        let negative = match self.peek() {
            Some(sign @ ('-' | '+')) => {
                self.cursor.bump();
                self.skip_blanks();
                sign == '-'
            }
            _ => false,
        };
        let (_, digits) = self.cursor.take_while(|c| c.is_ascii_digit());
        let text = format!("{}{digits}", if negative { "-" } else { "" });
        match text.parse::<i64>() {
            Ok(value) => Ok(Spanned::new(value, self.span_from(start))),
            Err(_) if text.trim_start_matches(['-', '+']).is_empty() => {
                self.cursor.set_pos(start);
                Err(self.error("a number"))
            }
            Err(_) => Err(Diagnostic::error(
                Code::FvNumberTooLarge,
                format!(
                    "`{}` does not fit in an i64",
                    &self.cursor.text()[start..self.cursor.pos()]
                ),
                self.span_from(start),
            )
            .with_label("out of range")),
        }
    }

    /// `seq` up to (not including) one of `stops` or the end.
    fn seq(&mut self, stops: &[char]) -> Parsed<Seq> {
        if self.depth >= MAX_NESTING {
            let here = self.cursor.pos();
            return Err(Diagnostic::error(
                Code::Limit,
                format!("the notation nests more than {MAX_NESTING} levels deep"),
                self.cursor
                    .span(here, here + self.peek().map_or(0, char::len_utf8)),
            )
            .with_label("too deep")
            .with_help("group less: `[[A]]` means the same as `A`"));
        }
        self.depth += 1;
        let items = self.seq_items(stops);
        self.depth -= 1;
        items
    }

    /// `seq` up to `close` (one character), which must follow.
    fn closed_seq(&mut self, close: &str) -> Parsed<Seq> {
        let stops: Vec<char> = close.chars().collect();
        let seq = self.seq(&stops)?;
        self.expect(close)?;
        Ok(seq)
    }

    fn seq_items(&mut self, stops: &[char]) -> Parsed<Seq> {
        let mut items = Vec::new();
        loop {
            self.skip_blanks();
            match self.peek() {
                None => return Ok(items),
                Some(c) if stops.contains(&c) => return Ok(items),
                Some(_) => items.push(self.item()?),
            }
        }
    }

    fn item(&mut self) -> Parsed<Item> {
        let start = self.cursor.pos();
        self.items += 1;
        if self.items > MAX_ITEMS {
            return Err(Diagnostic::error(
                Code::Limit,
                "the pieces' notations have more than 2,097,152 leaps, conditions and groups",
                self.cursor
                    .span(start, start + self.peek().map_or(0, char::len_utf8)),
            )
            .with_label("the total passes the limit here")
            .with_help(
                "each becomes at least one move or condition of its piece, and a program's \
                 pieces have at most 2,097,152; shorten the notations (an alternative written \
                 twice adds nothing)",
            ));
        }
        let atom = self.atom()?;
        let mut repeats = Vec::new();
        loop {
            if self.eat("*") {
                repeats.push(Repeat::Same);
            } else if self.eat("`") {
                repeats.push(Repeat::Any);
            } else {
                break;
            }
        }
        Ok(Item {
            atom,
            repeats,
            span: self.span_from(start),
        })
    }

    fn atom(&mut self) -> Parsed<Atom> {
        self.skip_blanks();
        if self.eat("(") {
            let a = self.integer()?.value;
            self.expect(",")?;
            let b = self.integer()?.value;
            let dirs = if self.eat("|") {
                let mut dirs = [false; 4];
                let mut any = false;
                loop {
                    self.skip_blanks();
                    let index = match self.peek() {
                        Some('^') => 0,
                        Some('v') => 1,
                        Some('>') => 2,
                        Some('<') => 3,
                        _ => break,
                    };
                    dirs[index] = true;
                    any = true;
                    self.cursor.bump();
                }
                if !any {
                    return Err(self.error("a direction letter (^ v < >)").with_help("`(1,0|^)` is one step forward; `|` takes ^ (forward), v (backward), > (right), < (left)"));
                }
                Some(dirs)
            } else {
                None
            };
            self.expect(")")?;
            return Ok(Atom::Leap { a, b, dirs });
        }
        if self.eat("{") {
            let mut alternatives = vec![self.seq(&[',', '}'])?];
            while self.eat(",") {
                alternatives.push(self.seq(&[',', '}'])?);
            }
            self.expect("}")?;
            return Ok(Atom::Any(alternatives));
        }
        if self.eat("[") {
            return Ok(Atom::Group(self.closed_seq("]")?));
        }
        if self.eat("c(") {
            return Ok(Atom::Capture(self.closed_seq(")")?));
        }
        if self.eat("m(") {
            return Ok(Atom::NoCapture(self.closed_seq(")")?));
        }
        if self.at("r(") || self.at("r!(") {
            let negated = self.eat("r!(") || {
                self.eat("r(");
                false
            };
            let seq = self.seq(&[','])?;
            self.expect(",")?;
            let ranks = if self.eat("[") {
                let low = self.integer()?.value;
                self.expect(",")?;
                let high = self.integer()?.value;
                self.expect("]")?;
                (low, high)
            } else {
                let rank = self.integer()?.value;
                (rank, rank)
            };
            self.expect(")")?;
            return Ok(Atom::Rank {
                seq,
                ranks,
                negated,
            });
        }
        if self.eat("\"") {
            let symbol = self.symbol()?;
            self.expect("\"")?;
            return Ok(Atom::Like(symbol));
        }
        if self.at("p") || self.at("->") {
            self.eat("p");
            let mut targets = Vec::new();
            if self.eat("->") {
                self.expect("[")?;
                targets.push(self.symbol()?);
                while self.eat(",") {
                    targets.push(self.symbol()?);
                }
                self.expect("]")?;
            }
            return Ok(Atom::Promote(targets));
        }
        if self.eat("x") {
            return Ok(Atom::CaptureHere);
        }
        Err(self
            .error("a move: (a,b), {..}, [..], c(..), m(..), r(..), \"s\", x or p")
            .with_help("see \"How pieces move: the notation\" in docs/finvara.md"))
    }
}

/// A piece definition; `items` counts the notation items of the program
/// so far (see [`MAX_ITEMS`]), this line's added even when it fails.
fn parse_piece(code: &str, offset: usize, items: &mut usize) -> Parsed<PieceDef> {
    let mut parser = LineParser::new(code, offset);
    parser.items = *items;
    let piece = parse_piece_with(&mut parser);
    *items = parser.items;
    piece
}

/// [`parse_piece`] with its parser.
fn parse_piece_with(parser: &mut LineParser) -> Parsed<PieceDef> {
    parser.expect("(")?;
    let symbol = parser.symbol()?;
    let value = if parser.eat(")") {
        None
    } else {
        let value = if parser.eat("x") {
            Value::X
        } else if parser.eat("y") {
            Value::Y
        } else {
            Value::Number(parser.integer()?.value)
        };
        parser.expect(")")?;
        Some(value)
    };
    parser.expect(":")?;
    let start = parser.cursor.pos();
    let notation = parser.seq(&[])?;
    if !parser.cursor.is_at_end() {
        return Err(parser.error("the end of the notation"));
    }
    let span = parser.span_from(start);
    Ok(PieceDef {
        symbol,
        value,
        notation: Spanned::new(notation, span),
    })
}

fn parse_square(parser: &mut LineParser) -> Parsed<SquareRef> {
    parser.skip_blanks();
    let (start, letters) = parser.cursor.take_while(|c| c.is_ascii_lowercase());
    let row = letters.bytes().fold(0u64, |row, letter| {
        row.saturating_mul(26)
            .saturating_add(u64::from(letter - b'a' + 1))
    });
    let (_, digits) = parser.cursor.take_while(|c| c.is_ascii_digit());
    if row == 0 || digits.is_empty() {
        parser.cursor.set_pos(start);
        return Err(parser.error("a square like `a1` (row letters, then column number)"));
    }
    let col = digits.parse::<u64>().unwrap_or(u64::MAX);
    Ok(SquareRef {
        row,
        col,
        span: parser.span_from(start),
    })
}

fn parse_move(code: &str, offset: usize, source_line: u32) -> Parsed<MoveLine> {
    let mut parser = LineParser::new(code, offset);
    parser.expect("Turn")?;
    let turn_value = parser.integer()?;
    if turn_value.value < 1 || turn_value.value > i64::from(u32::MAX) {
        return Err(Diagnostic::error(
            Code::FvTurnZero,
            "turn numbers start at 1",
            turn_value.span,
        )
        .with_label("not a turn number"));
    }
    let turn = Spanned::new(turn_value.value as u32, turn_value.span);
    let white = if parser.eat("W") {
        true
    } else if parser.eat("B") {
        false
    } else {
        return Err(parser.error("`W` or `B`"));
    };
    parser.expect(":")?;
    let symbol = parser.symbol()?;
    let first = parse_square(&mut parser)?;
    let action = if parser.eat("->") {
        let to = parse_square(&mut parser)?;
        let promote = if parser.eat("=") {
            Some(parser.symbol()?)
        } else {
            None
        };
        MoveAction::Move {
            from: first,
            to,
            promote,
        }
    } else if parser.eat("checks") {
        parser.expect("turn")?;
        let target = parser.integer()?;
        if target.value < 1 || target.value > i64::from(u32::MAX) {
            return Err(Diagnostic::error(
                Code::FvTurnZero,
                "turn numbers start at 1",
                target.span,
            )
            .with_label("not a turn number"));
        }
        MoveAction::Checks {
            square: first,
            turn: Spanned::new(target.value as u32, target.span),
        }
    } else {
        return Err(parser.error("`->` or `checks turn`"));
    };
    parser.skip_blanks();
    if !parser.cursor.is_at_end() {
        return Err(parser.error("the end of the move line"));
    }
    Ok(MoveLine {
        source_line,
        text: code.to_string(),
        span: offset..offset + code.len(),
        turn,
        white,
        symbol,
        action,
    })
}
#[cfg(test)]
mod tests;
