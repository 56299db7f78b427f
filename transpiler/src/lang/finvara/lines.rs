//! A Finvara document's lines as the checks read them, kept for the
//! language server: each line's facts ([`LineFacts`]: a move line's
//! turn, symbol and squares, where each is written), the pieces and the
//! board parsed (read again only when an edit reaches them), and how many
//! white lines each turn has. An edit of a move line re-reads that line;
//! a re-check is then a pass over the facts (turn order, defined pieces,
//! squares on the board, jumps to turns that exist) after the checks of
//! the pieces and the board.

use std::borrow::Cow;
use std::cell::OnceCell;

use super::check::{Checker, MoveFact, MoveLines, Turns};
use super::syntax::{self, Line, MoveLine, Program, Reader};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::lang::line_facts::{InSource, LineFact, LineFacts};
use crate::source::{LinesEdited, Source};

/// What a Finvara line is to the checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fact(Kind);

/// The kinds of line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Blank, a comment, or a line of `+` that is not a border.
    Blank,
    /// A line of the pieces or the board (read with the others:
    /// [`Header`]).
    Header,
    /// A move line that does not read, or a line that is none of pieces,
    /// board or moves, with where in it its error is.
    Error { at: u32 },
    /// A move line, its offsets from the line's start.
    Move(MoveFact),
}

impl Fact {
    /// The move line's facts, if this is one.
    fn move_fact(&self) -> Option<MoveFact> {
        match self.0 {
            Kind::Move(fact) => Some(fact),
            _ => None,
        }
    }

    /// The turn of a white move line.
    fn white_turn(&self) -> Option<u32> {
        self.move_fact()?.white_turn()
    }
}

impl LineFact for Fact {
    type Parsed = Line;
    const SYNTAX: Code = Code::FvSyntax;

    fn parse(source: &Source, index: usize) -> Option<Result<Line, Diagnostic>> {
        let number = u32::try_from(index + 1).ok()?;
        let (start, raw) = source.line(number)?;
        // A piece's notation items are counted from 0: the header is read
        // again as a whole, counting them all (`Header::read`).
        match syntax::read_line(start, raw, number, &mut 0) {
            Line::Blank => None,
            Line::Move(Err(error)) | Line::Other(error) => Some(Err(error)),
            line => Some(Ok(line)),
        }
    }

    fn of(line: &Line, start: usize) -> Fact {
        Fact(match line {
            Line::Move(Ok(line)) => Kind::Move(MoveFact::of(line, start)),
            line if line.is_header() => Kind::Header,
            _ => Kind::Blank,
        })
    }

    fn blank() -> Fact {
        Fact(Kind::Blank)
    }

    fn error(at: u32) -> Fact {
        Fact(Kind::Error { at })
    }

    fn error_at(&self) -> Option<u32> {
        match self.0 {
            Kind::Error { at } => Some(at),
            _ => None,
        }
    }

    /// What the checks report when no move line (or line of nothing)
    /// has a syntax error: the header read from the facts and the white
    /// turns counted afresh ([`Lines`] keeps both).
    fn check(lines: InSource<'_, Fact>) -> Diagnostics {
        let turns = Turns::of(lines.facts.iter().filter_map(Fact::white_turn));
        Header::read(lines.source, lines.facts).diagnostics(lines, &turns)
    }
}

/// The pieces and the board of a document, parsed from their lines.
#[derive(Debug)]
struct Header {
    /// The pieces and the board (no move lines).
    program: Program,
    /// Their syntax errors (rows of the wrong width included), in order.
    errors: Vec<Diagnostic>,
    /// The last of their lines (0-based), if there are any.
    last: Option<usize>,
    /// How many lines were read.
    read: usize,
    /// What lowering the pieces reports (the automata of their
    /// notations), made when first asked for.
    lowered: OnceCell<Vec<Diagnostic>>,
}

impl Header {
    /// The header of `source`, whose lines' facts are `facts`.
    fn read(source: &Source, facts: &[Fact]) -> Header {
        let mut reader = Reader::default();
        let (mut last, mut read) = (None, 0);
        for (index, _) in (facts.iter().enumerate()).filter(|(_, f)| f.0 == Kind::Header) {
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            if let Some((start, raw)) = source.line(number) {
                reader.line(start, raw, number);
                (last, read) = (Some(index), read + 1);
            }
        }
        let (program, errors) = reader.finish();
        Header {
            program,
            errors,
            last,
            read,
            lowered: OnceCell::new(),
        }
    }

    /// What checking the document reports, if no move line has a syntax
    /// error: the header's syntax errors, else the checks' diagnostics,
    /// then lowering's errors if the checks found none.
    fn diagnostics(&self, lines: InSource<'_, Fact>, turns: &Turns) -> Diagnostics {
        if !self.errors.is_empty() {
            return self.errors.iter().cloned().collect();
        }
        let mut checker = Checker::new(&self.program);
        let source = lines.source;
        let facts = (lines.facts.iter().enumerate()).filter_map(|(index, fact)| {
            let start = source.line_start(index).unwrap_or(0);
            Some((index, start, fact.move_fact()?))
        });
        checker.moves(facts, turns, &Kept(source));
        let mut diagnostics = checker.finish();
        if diagnostics.has_errors() {
            return diagnostics;
        }
        let lowered = self.lowered.get_or_init(|| {
            super::lower::pieces_errors(&self.program)
                .map_or_else(Vec::new, |errors| errors.into_iter().collect())
        });
        lowered
            .iter()
            .for_each(|error| diagnostics.push(error.clone()));
        diagnostics
    }
}

/// The move lines of a source, by line index (0-based).
struct Kept<'a>(&'a Source);

impl MoveLines for Kept<'_> {
    fn symbol_at(&self, _: usize, at: usize) -> &str {
        let rest = self.0.text().get(at..).unwrap_or_default();
        let end = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        &rest[..end]
    }

    fn line(&self, line: usize) -> Option<Cow<'_, MoveLine>> {
        match Fact::parse(self.0, line) {
            Some(Ok(Line::Move(Ok(parsed)))) => Some(Cow::Owned(parsed)),
            _ => None,
        }
    }
}

/// A Finvara document's lines as the checks read them, kept for a
/// document that is being edited: [`Lines::edited`] re-reads only the
/// lines an edit changed (and the pieces and board if it reached them),
/// and [`Lines::diagnostics`] checks what is kept.
#[derive(Debug)]
pub struct Lines {
    lines: LineFacts<Fact>,
    header: Header,
    /// The white lines of each turn.
    turns: Turns,
    /// How many lines of pieces and board were read again.
    header_read: usize,
}

impl Lines {
    /// The lines of `source`.
    pub fn new(source: &Source) -> Lines {
        let lines: LineFacts<Fact> = LineFacts::new(source);
        let facts = lines.facts();
        Lines {
            turns: Turns::of(facts.iter().filter_map(Fact::white_turn)),
            header: Header::read(source, facts),
            lines,
            header_read: 0,
        }
    }

    /// How many source lines have been parsed since [`Lines::new`]: what
    /// the edits cost.
    pub fn parsed(&self) -> usize {
        self.lines.parsed() + self.header_read
    }

    /// Takes in an edit of the source (now `source`) that replaced the
    /// lines `edited` names.
    pub fn edited(&mut self, source: &Source, edited: LinesEdited) {
        let moves = |facts: &[Fact]| facts.iter().filter_map(Fact::move_fact).collect::<Vec<_>>();
        let end = (edited.first + edited.removed).min(self.lines.facts().len());
        let first = edited.first.min(end);
        moves(&self.lines.facts()[first..end])
            .iter()
            .for_each(|fact| self.turns.remove(fact));
        self.lines.edited(source, edited);
        let new = (self.lines.facts())
            .get(first..first + edited.inserted)
            .unwrap_or_default();
        moves(new).iter().for_each(|fact| self.turns.add(fact));
        let reached = self.header.last.is_some_and(|last| first <= last);
        if reached || new.iter().any(|fact| fact.0 == Kind::Header) {
            self.header = Header::read(source, self.lines.facts());
            self.header_read += self.header.read;
        }
    }

    /// What checking `source`, whose lines these are, reports (what
    /// [`crate::check`] does): every syntax error (each move line's made
    /// only if it is kept), else the checks' diagnostics, else lowering's.
    pub fn diagnostics(&self, source: &Source) -> Diagnostics {
        let facts = self.lines.facts();
        if !self.lines.has_errors() {
            return self
                .header
                .diagnostics(InSource { source, facts }, &self.turns);
        }
        // The header's errors and the lines', in the order of their lines.
        let mut diagnostics = Diagnostics::default();
        let mut header = self.header.errors.iter().peekable();
        for (line, at) in self.lines.errors(source) {
            while let Some(error) = header.next_if(|error| error.span.start < at) {
                diagnostics.push(error.clone());
            }
            diagnostics.push_with(Severity::Error, at, || {
                LineFacts::<Fact>::error_of(source, line, at)
            });
        }
        header.for_each(|error| diagnostics.push(error.clone()));
        diagnostics
    }
}

#[cfg(test)]
mod tests {
    use super::Lines;
    use crate::diag::{building_shown_only, Diagnostics};
    use crate::source::Source;
    use crate::Language;
    use proptest::strategy::Strategy;

    /// The pieces and board the tests' documents start with (12 lines).
    const HEADER: &str = "(k):\n(p 4): (1,0)\n(q 1): {(1,0)*,(1,1)*}\n\n+--+--+--+\n|kB|  |qB|\n+--+--+--+\n|  |  |  |\n+--+--+--+\n|pW|qW|kW|\n+--+--+--+\n\n";

    /// What a check from scratch of `text` reports, as the server shows
    /// it or whole.
    fn from_scratch(text: &str) -> Diagnostics {
        let source = Source::new("t", text);
        match crate::check(&source, Language::Finvara) {
            Ok(checked) => checked.warnings,
            Err(errors) => errors,
        }
    }

    /// `lines` of `source` report what a check from scratch of its text
    /// does: every diagnostic, and what the server shows of them.
    fn as_from_scratch(lines: &Lines, source: &Source) -> Result<(), String> {
        let text = source.text();
        let whole = |d: Diagnostics| (d.len(), d.into_iter().collect::<Vec<_>>());
        let (kept, fresh) = (whole(lines.diagnostics(source)), whole(from_scratch(text)));
        if kept != fresh {
            return Err(format!("{text:?}:\n{kept:#?}\n{fresh:#?}"));
        }
        let kept = building_shown_only(|| lines.diagnostics(source));
        let fresh = building_shown_only(|| from_scratch(text));
        let shown = |d: &Diagnostics| (d.shown().cloned().collect::<Vec<_>>(), d.not_shown());
        if kept != fresh || shown(&kept) != shown(&fresh) {
            return Err(format!("{text:?} shown:\n{kept:#?}\n{fresh:#?}"));
        }
        Ok(())
    }

    /// A one-line edit of a move line of a 10,012-line document re-reads
    /// that line, an edit of the board its 10 lines of pieces and board
    /// too; what they report (thousands of lines out of order after a
    /// line is added) is what a check from scratch does.
    #[test]
    fn a_one_line_edit_re_reads_one_line() {
        let moves: String = (1..=5_000)
            .map(|turn| format!("Turn {turn} W: p a1 -> b1\nTurn {turn} B: q c3 -> b3\n"))
            .collect();
        let mut source = Source::new("t", format!("{HEADER}{moves}"));
        let mut lines = Lines::new(&source);
        assert_eq!(lines.parsed(), 10_013);
        as_from_scratch(&lines, &source).unwrap();
        let at = |source: &Source, line: usize, column: usize| {
            source.line_start(line).unwrap_or_default() + column
        };
        let mut parsed = 10_013;
        // A keystroke at a move line's end (b1 → b11: off the board),
        // taken back; a line added and taken away; a board cell and a
        // piece's value typed.
        let middle = 12 + 5_000;
        let end = at(&source, middle + 1, 0) - 1;
        for (range, typed, cost) in [
            (end..end, "1", 1),
            (end..end + 1, "", 1),
            (end..end, "\nTurn 9 W: k a1 -> a2", 2),
            (end..end + "\nTurn 9 W: k a1 -> a2".len(), "", 1),
            (at(&source, 7, 4)..at(&source, 7, 4), "pW", 1 + 10),
            (at(&source, 1, 4)..at(&source, 1, 4), "0", 1 + 10),
        ] {
            let edited = source.edit(range, typed);
            lines.edited(&source, edited);
            parsed += cost;
            assert_eq!(lines.parsed(), parsed, "{typed:?}");
            as_from_scratch(&lines, &source).unwrap();
        }
    }

    /// A line of a Finvara document, often a wrong one: pieces (defined
    /// twice, moving like pieces that are not, in cycles), rows and
    /// borders (of other widths, with cells that are not), move lines (out
    /// of order, of pieces not defined, off the board, jumping to missing
    /// turns), lines of nothing, comments, blanks.
    fn line() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let symbol = prop_oneof![
            4 => "[kpq]",
            1 => Just("knight_rider".to_string()),
            1 => Just("knight_ridex".to_string()),
            1 => "[a-z0-9_]{1,3}",
        ];
        let square = "[a-e][0-4]";
        let piece = (
            symbol.clone(),
            "( -?[0-9]| x| y)?",
            prop_oneof![
                Just("(1,0)".to_string()),
                Just("{(1,0)*,(1,1)*}".to_string()),
                Just("\"q\"".to_string()),
                Just("\"k\" p->[q]".to_string()),
                Just("(1,".to_string()),
                Just(String::new()),
            ],
        )
            .prop_map(|(symbol, value, notation)| format!("({symbol}{value}): {notation}"));
        let action = prop_oneof![
            3 => (square, square, proptest::option::of(symbol.clone()))
                .prop_map(|(from, to, promote)| match promote {
                    Some(target) => format!("{from} -> {to} = {target}"),
                    None => format!("{from} -> {to}"),
                }),
            1 => (square, 0..6u32).prop_map(|(on, turn)| format!("{on} checks turn {turn}")),
            1 => Just("a1 ->".to_string()),
        ];
        let moves =
            (1..5u32, "[WBX]", symbol, action).prop_map(|(turn, colour, symbol, action)| {
                format!("Turn {turn} {colour}: {symbol} {action}")
            });
        prop_oneof![
            3 => piece,
            2 => "\\|([kpq][WB]|##|  |[kpq]X)\\|([kpq][WB]|##|  )\\|(  \\|)?( #x)?",
            2 => "\\+(--\\+){2,3}",
            8 => moves,
            1 => Just(String::new()),
            1 => Just("# note".to_string()),
            1 => "[ (|+a-z1]{0,4}",
        ]
    }

    /// An edit of a document of `lines` lines: from line `line` and byte
    /// `column` (clamped to it) to `lines` lines later and byte `column`,
    /// the text put there.
    fn edit() -> impl proptest::strategy::Strategy<Value = (usize, usize, usize, usize, String)> {
        use proptest::prelude::*;
        let text = prop_oneof![
            2 => Just(String::new()),
            1 => Just("\n".to_string()),
            1 => Just("\r\n".to_string()),
            3 => proptest::sample::select(&["Turn 1 W: ", "|kW|", "+--+", "(z 1): ", "1", "#", "k", "->", " = q", "\n|##|##|##|\n"][..]).prop_map(str::to_string),
            3 => line().prop_map(|line| format!("{line}\n")),
            1 => "[ -~]{0,8}",
        ];
        (
            0usize..30,
            0usize..12,
            prop_oneof![12 => 0usize..3, 1 => Just(1_000)],
            0usize..12,
            text,
        )
    }

    /// Move lines in turn order on the tests' board, some jumping to
    /// turns (of which some are missing).
    fn ordered() -> impl proptest::strategy::Strategy<Value = Vec<String>> {
        use proptest::prelude::*;
        proptest::collection::vec((0..3u32, 1..8u32), 0..20).prop_map(|lines| {
            (lines.into_iter().enumerate())
                .map(|(index, (kind, target))| {
                    let turn = index / 2 + 1;
                    let colour = if index % 2 == 0 { "W" } else { "B" };
                    let action = match kind {
                        0 => "p a1 -> b1".to_string(),
                        1 => "q c3 -> b3".to_string(),
                        _ => format!("k a2 checks turn {target}"),
                    };
                    format!("Turn {turn} {colour}: {action}")
                })
                .collect()
        })
    }

    /// An edit of whole lines of a document of [`ordered`] lines: lines
    /// taken away, or one put before a line.
    fn line_edit() -> impl proptest::strategy::Strategy<Value = (usize, usize, usize, usize, String)>
    {
        use proptest::prelude::*;
        const LINES: &[&str] = &[
            "",
            "Turn 2 W: p a1 -> b1\n",
            "Turn 3 B: q c3 -> b3\n",
            "Turn 1 W: k b1 checks turn 3\n",
        ];
        (12usize..35, 0usize..3, proptest::sample::select(LINES))
            .prop_map(|(line, lines, text)| (line, 0, lines, 0, text.to_string()))
    }

    /// The byte of `source` at line `line`, byte `column` (clamped to the
    /// line, and to the text).
    fn offset(source: &Source, line: usize, column: usize) -> usize {
        let text = source.text();
        let Some(start) = source.line_start(line) else {
            return text.len();
        };
        let end = source
            .line_start(line + 1)
            .map_or(text.len(), |next| next - 1);
        let mut at = (start + column).min(end);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        at
    }

    proptest::proptest! {
        /// A Finvara document (sometimes the tests' pieces and board
        /// first) after any edits, or replaced whole, reports what a check
        /// from scratch of its text does.
        #[test]
        fn edited_lines_report_what_a_check_from_scratch_does(
            (header, lines, edits) in proptest::strategy::Strategy::prop_flat_map(0..3u32, |kind| match kind {
                // The tests' pieces and board, move lines in order,
                // whole lines taken away or put in.
                0 => (proptest::strategy::Just(true), ordered().boxed(), proptest::collection::vec(line_edit(), 1..10).boxed()),
                _ => (proptest::strategy::Just(kind == 1), proptest::collection::vec(line(), 0..25).boxed(), proptest::collection::vec(edit(), 1..10).boxed()),
            }),
            crlf in proptest::bool::ANY,
            replaced in proptest::option::of(proptest::collection::vec(line(), 0..10)),
        ) {
            let body = lines.join(if crlf { "\r\n" } else { "\n" });
            let text = if header { format!("{HEADER}{body}") } else { body };
            let mut source = Source::new("t", text);
            let mut kept = Lines::new(&source);
            as_from_scratch(&kept, &source).map_err(proptest::test_runner::TestCaseError::fail)?;
            for (line, column, lines, end_column, text) in edits {
                let start = offset(&source, line, column);
                let end = offset(&source, line + lines, end_column).max(start);
                let edited = source.edit(start..end, &text);
                kept.edited(&source, edited);
                as_from_scratch(&kept, &source).map_err(proptest::test_runner::TestCaseError::fail)?;
            }
            if let Some(lines) = replaced {
                source = Source::new("t", lines.join("\n"));
                kept = Lines::new(&source);
                as_from_scratch(&kept, &source).map_err(proptest::test_runner::TestCaseError::fail)?;
            }
        }
    }
}
