//! An open document: its text, language and version, the program as the
//! compiler reads it, and positions converted between byte offsets and
//! LSP's line/character pairs (UTF-16 code units, or UTF-8 bytes when the
//! client prefers them).
//!
//! The text is kept as the compiler reads it, with its line index, and
//! edited in place ([`Document::edit`]): an edit moves only the line
//! starts after it, and the document also keeps what its language's
//! checks read (each line's facts; a game's reading, moves and positions),
//! re-reading only what the edit changed.

use std::cell::OnceCell;

use lsp_types::{Position, Range, TextEdit};

use crate::diag::Diagnostics;
use crate::lang::{chesscode, chessoteric, finvara, infchesspro};
use crate::outline::Outline;
use crate::source::LinesEdited;
use crate::{Language, Source, Span};

/// How LSP counts characters within a line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-16 code units (LSP's default).
    Utf16,
    /// Bytes.
    Utf8,
}

impl Encoding {
    /// How many units `c` is.
    fn units(self, c: char) -> usize {
        match self {
            Encoding::Utf16 => c.len_utf16(),
            Encoding::Utf8 => c.len_utf8(),
        }
    }
}

/// A document's lines as its language's checks read them, kept between
/// edits (for the languages whose checks read line by line).
enum Kept {
    InfChessPro(Box<infchesspro::check::Lines>),
    ChessCode(chesscode::check::Lines),
    Btm(chessoteric::check::BtmLines),
    Finvara(Box<finvara::lines::Lines>),
    Pgn(Box<chessoteric::pgn_lines::PgnLines>),
}

impl Kept {
    /// The lines of `source`, if its language keeps them.
    fn of(language: Language, source: &Source) -> Option<Kept> {
        Some(match language {
            Language::InfChessPro => {
                Kept::InfChessPro(Box::new(infchesspro::check::Lines::new(source)))
            }
            Language::ChessCode => Kept::ChessCode(chesscode::check::Lines::new(source)),
            Language::Btm => Kept::Btm(chessoteric::check::BtmLines::new(source)),
            Language::Finvara => Kept::Finvara(Box::new(finvara::lines::Lines::new(source))),
            Language::Chessoteric => {
                Kept::Pgn(Box::new(chessoteric::pgn_lines::PgnLines::new(source)))
            }
        })
    }

    /// Takes in an edit of the source (now `source`).
    fn edited(&mut self, source: &Source, edited: LinesEdited) {
        match self {
            Kept::InfChessPro(lines) => lines.edited(source, edited),
            Kept::ChessCode(lines) => lines.edited(source, edited),
            Kept::Btm(lines) => lines.edited(source, edited),
            Kept::Finvara(lines) => lines.edited(source, edited),
            Kept::Pgn(game) => game.edited(source, edited),
        }
    }

    /// What checking `source`, whose lines these are, reports.
    fn diagnostics(&self, source: &Source) -> Diagnostics {
        match self {
            Kept::InfChessPro(lines) => lines.diagnostics(source),
            Kept::ChessCode(lines) => lines.diagnostics(source),
            Kept::Btm(lines) => lines.diagnostics(source),
            Kept::Finvara(lines) => lines.diagnostics(source),
            Kept::Pgn(game) => game.diagnostics(source),
        }
    }

    /// How many lines have been parsed since they were first read.
    #[cfg(test)]
    fn parsed(&self) -> usize {
        match self {
            Kept::InfChessPro(lines) => lines.parsed(),
            Kept::ChessCode(lines) => lines.parsed(),
            Kept::Btm(lines) => lines.parsed(),
            Kept::Finvara(lines) => lines.parsed(),
            Kept::Pgn(game) => game.parsed(),
        }
    }
}

/// A byte-order mark, which the client's text may start with and the
/// compiler's leaves out.
const BOM: char = '\u{feff}';

/// An open document.
pub struct Document {
    /// Its language.
    pub language: Language,
    /// The client's version number.
    pub version: i32,
    /// The text as the compiler reads it (named as diagnostics name the
    /// document: the path of a `file:` URI), with its line index.
    source: Source,
    /// Whether the client's text starts with a byte-order mark, which
    /// `source` leaves out.
    bom: bool,
    /// What the checks read, kept between edits.
    lines: Option<Kept>,
    /// The outline of this version, made when first asked for.
    outline: OnceCell<Outline>,
}

impl Document {
    /// A document with this text.
    pub fn new(name: String, language: Language, version: i32, text: String) -> Document {
        let mut document = Document {
            language,
            version,
            source: Source::new(name, String::new()),
            bom: false,
            lines: None,
            outline: OnceCell::new(),
        };
        document.replace(version, text);
        document
    }

    /// Replaces the whole text (a new version).
    pub fn replace(&mut self, version: i32, text: String) {
        self.version = version;
        self.bom = text.starts_with(BOM);
        self.source = Source::new(self.source.name().to_string(), text);
        self.lines = Kept::of(self.language, &self.source);
        self.outline = OnceCell::new();
    }

    /// Replaces the text of `range` with `text` (a new version): positions
    /// past the text are its end, a range that ends before it starts is
    /// empty.
    pub fn edit(&mut self, version: i32, range: Range, text: &str, encoding: Encoding) {
        let start = self.client_offset(range.start, encoding);
        let end = self.client_offset(range.end, encoding).max(start);
        let mark = self.mark_length();
        let revealed = || (self.source.text().get(end..)).is_some_and(|rest| rest.starts_with(BOM));
        if start < mark || (start == 0 && (text.starts_with(BOM) || text.is_empty() && revealed()))
        {
            // The edit makes or unmakes a byte-order mark: read again.
            let mut whole = self.client_text();
            whole.replace_range(start..end, text);
            self.replace(version, whole);
            return;
        }
        self.version = version;
        let edited = self.source.edit(start - mark..end - mark, text);
        if let Some(lines) = &mut self.lines {
            lines.edited(&self.source, edited);
        }
        self.outline = OnceCell::new();
    }

    /// The bytes the client's text has before the compiler's.
    fn mark_length(&self) -> usize {
        if self.bom {
            BOM.len_utf8()
        } else {
            0
        }
    }

    /// The client's text.
    fn client_text(&self) -> String {
        let mut text = String::with_capacity(self.mark_length() + self.source.text().len());
        if self.bom {
            text.push(BOM);
        }
        text.push_str(self.source.text());
        text
    }

    /// The program as the compiler reads it.
    #[cfg(test)]
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// What checking the document reports: its errors, else its warnings.
    pub fn diagnostics(&self) -> Diagnostics {
        match &self.lines {
            Some(lines) => lines.diagnostics(&self.source),
            None => match crate::check(&self.source, self.language) {
                Ok(checked) => checked.warnings,
                Err(errors) => errors,
            },
        }
    }

    /// How many lines of the document have been parsed since it was
    /// opened or last replaced whole (`None` for a language that keeps
    /// nothing).
    #[cfg(test)]
    pub fn lines_parsed(&self) -> Option<usize> {
        self.lines.as_ref().map(Kept::parsed)
    }

    /// The outline of the current text.
    pub fn outline(&self) -> &Outline {
        self.outline
            .get_or_init(|| crate::outline(&self.source, self.language))
    }

    /// The edits that bring the document to its canonical layout (what
    /// `chess2rs fmt` writes): one for each run of lines the formatter
    /// changed, so that what it leaves alone (and the client's cursor
    /// there) stays put; or the errors that keep it from being formatted.
    pub fn formatting(&self, encoding: Encoding) -> Result<Vec<TextEdit>, Diagnostics> {
        let options = crate::format::FormatOptions::default();
        let formatted = crate::format(&self.source, self.language, &options)?;
        let diff = similar::TextDiff::from_lines(self.source.text(), formatted.text.as_str());
        let (old_lines, new_lines) = (diff.old_slices(), diff.new_slices());
        // Where each old line starts, and the end of the text.
        let starts: Vec<usize> = std::iter::once(0)
            .chain(old_lines.iter().scan(0, |at, line| {
                *at += line.len();
                Some(*at)
            }))
            .collect();
        let edits = (diff.ops().iter())
            .filter(|op| op.tag() != similar::DiffTag::Equal)
            .map(|op| {
                let (old, new) = (op.old_range(), op.new_range());
                let span = starts[old.start]..starts[old.end];
                TextEdit::new(self.range(&span, encoding), new_lines[new].concat())
            })
            .collect();
        Ok(edits)
    }

    /// What may be written at `offset` (the text need not parse).
    pub fn completions(&self, offset: usize) -> Vec<crate::complete::Completion> {
        crate::completions(&self.source, self.language, offset)
    }

    /// The name at `offset` and every place it is written, if the
    /// document parses and has a name there.
    pub fn renaming(&self, offset: usize) -> Option<crate::Renaming> {
        crate::renaming(&self.source, self.language, offset)
    }

    /// The 1-based line and column (in characters) of a byte offset in
    /// the compiler's text, as diagnostics name places.
    pub fn line_col(&self, offset: usize) -> (u32, u32) {
        self.source.line_col(offset)
    }

    /// The LSP position of a byte offset in the compiler's text.
    pub fn position(&self, offset: usize, encoding: Encoding) -> Position {
        let text = self.source.text();
        let mut offset = offset.min(text.len());
        // Not at a character boundary (never for compiler spans): the
        // boundary before it.
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.source.line_number(offset) as usize - 1;
        let start = self.source.line_start(line).unwrap_or(0);
        let mut character: usize = text[start..offset].chars().map(|c| encoding.units(c)).sum();
        if line == 0 && self.bom {
            character += encoding.units(BOM);
        }
        Position::new(line as u32, character as u32)
    }

    /// The LSP range of a span of the compiler's text.
    pub fn range(&self, span: &Span, encoding: Encoding) -> Range {
        Range::new(
            self.position(span.start, encoding),
            self.position(span.end, encoding),
        )
    }

    /// The byte offset in the compiler's text of an LSP position (clamped
    /// to the line's end and to the text; a position inside the byte-order
    /// mark is the start).
    pub fn offset(&self, position: Position, encoding: Encoding) -> usize {
        self.client_offset(position, encoding)
            .saturating_sub(self.mark_length())
    }

    /// The byte offset in the client's text of an LSP position (clamped
    /// to the line's end and to the text).
    fn client_offset(&self, position: Position, encoding: Encoding) -> usize {
        let text = self.source.text();
        let mark = self.mark_length();
        let line = position.line as usize;
        let Some(start) = self.source.line_start(line) else {
            return mark + text.len();
        };
        let end = self
            .source
            .line_start(line + 1)
            .map_or(text.len(), |next| next - 1);
        // The client's first line starts with the mark.
        let characters = (line == 0 && self.bom)
            .then_some(BOM)
            .into_iter()
            .chain(text[start..end].chars());
        let wanted = position.character as usize;
        let (mut counted, mut at) = (0, 0);
        for c in characters {
            if counted >= wanted {
                break;
            }
            counted += encoding.units(c);
            at += c.len_utf8();
        }
        let line_start = if line == 0 { 0 } else { mark + start };
        line_start + at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_or_bytes() {
        let text = "ab\n𝄞é x\n".to_string();
        let document = Document::new("t".into(), Language::InfChessPro, 1, text);
        let x = "ab\n𝄞é ".len();
        assert_eq!(document.position(x, Encoding::Utf16), Position::new(1, 4));
        assert_eq!(document.position(x, Encoding::Utf8), Position::new(1, 7));
        assert_eq!(document.offset(Position::new(1, 4), Encoding::Utf16), x);
        assert_eq!(document.offset(Position::new(1, 7), Encoding::Utf8), x);
        // Past the end of a line, of the text, inside a character.
        assert_eq!(document.offset(Position::new(0, 99), Encoding::Utf16), 2);
        assert_eq!(
            document.offset(Position::new(9, 0), Encoding::Utf16),
            document.client_text().len()
        );
        assert_eq!(document.offset(Position::new(1, 1), Encoding::Utf16), 3 + 4);
        assert_eq!(document.position(999, Encoding::Utf16), Position::new(2, 0));
    }

    #[test]
    fn a_byte_order_mark_is_counted_by_the_editor_not_the_compiler() {
        let document = Document::new(
            "t".into(),
            Language::InfChessPro,
            1,
            "\u{feff}1. ^\n".into(),
        );
        assert_eq!(document.source().text(), "1. ^\n");
        // Offset 0 of the compiler's text is after the mark.
        assert_eq!(document.position(0, Encoding::Utf16), Position::new(0, 1));
        assert_eq!(document.offset(Position::new(0, 1), Encoding::Utf16), 0);
        assert_eq!(document.offset(Position::new(0, 0), Encoding::Utf16), 0);
    }

    /// A one-line edit of a 10,000-line Chess Code program or BTM listing
    /// (valid, or with an error on every other line) re-reads that line,
    /// not the document (what a re-check costs besides passes over what
    /// each line's facts are), and reports what a check from scratch does,
    /// also the 50 shown and how many more.
    #[test]
    fn a_one_line_edit_re_reads_one_line() {
        let chc: String = (0..2_000)
            .map(|n| format!("a1+\n1/2 1/2\n  b{}+\nb{0}=R+\nb{0}\n", n % 8 + 1))
            .collect();
        let btm: String = (0..10_000)
            .map(|n| format!("1{:b}{}\n", n % 64, if n % 7 == 0 { "?" } else { "!" }))
            .collect();
        for (language, text, line, typed) in [
            (Language::ChessCode, chc, 5_002, "x"),
            (
                Language::ChessCode,
                "a1+\na1=R\n".repeat(5_000),
                5_001,
                "1/2 1/2\n",
            ),
            (Language::Btm, btm, 5_000, "1"),
            (Language::Btm, "101?\n10!!\n".repeat(5_000), 5_001, "1"),
        ] {
            let mut document = Document::new("t".into(), language, 1, text);
            assert_eq!(document.lines_parsed(), Some(10_001), "{language:?}");
            let mut parsed = 10_001;
            // Typed at the line's start, then taken away.
            let lines = typed.matches('\n').count() as u32;
            for (version, undo) in [(2, false), (3, true)] {
                let (end, inserted) = match (undo, lines) {
                    (false, _) => (Position::new(line, 0), typed),
                    (true, 0) => (Position::new(line, typed.len() as u32), ""),
                    (true, _) => (Position::new(line + lines, 0), ""),
                };
                let range = Range::new(Position::new(line, 0), end);
                document.edit(version, range, inserted, Encoding::Utf16);
                parsed += if undo { 1 } else { 1 + lines as usize };
                assert_eq!(document.lines_parsed(), Some(parsed), "{language:?}");
                let fresh = Source::new("t", document.client_text());
                let from_scratch = || match crate::check(&fresh, language) {
                    Ok(checked) => checked.warnings,
                    Err(errors) => errors,
                };
                assert_eq!(document.diagnostics(), from_scratch(), "{language:?}");
                let bounded = crate::diag::building_shown_only(|| document.diagnostics());
                let expected = crate::diag::building_shown_only(from_scratch);
                assert!(bounded.shown().eq(expected.shown()), "{language:?}");
                assert_eq!(bounded.not_shown(), expected.not_shown(), "{language:?}");
            }
        }
    }

    /// A line of an InfChessPro program, often a wrong one: labels, jumps
    /// and names from small sets (so that labels repeat, jumps miss and
    /// names go unplaced), texts that look like jumps, comments, blanks.
    fn icp_line() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let command = prop_oneof![
            4 => Just("^".to_string()),
            2 => "\"[a-z ?!0-9]{0,5}",
            2 => "%[abA]",
            2 => "[abA]=[KkPq][0-2],[0-2]",
            2 => "[abA],[0-2],[0-2]",
            2 => "[ab];[0-2],-1",
            1 => "[0-2],[0-2],[0-2],[0-2]",
            1 => "[a-z=;,0-9* ]{0,5}",
        ];
        prop_oneof![
            12 => (0..12i64, command, "(\\?([0-9]{1,2}|\\*))?( ?![0-9]{1,2})?")
                .prop_map(|(label, command, jumps)| format!("{label}. {command}{jumps}")),
            1 => Just(String::new()),
            1 => Just("# note".to_string()),
            1 => "[ \t]{0,2}[0-9]{0,2}\\.? ?\\^ ?",
        ]
    }

    /// A line of a Chess Code program, often a wrong one: few cells and
    /// variables (so that some are never written and loops never change),
    /// labels and conditions that often do not pair, comments, blanks;
    /// sometimes with blanks before it or a comment after it.
    fn chc_line() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let line = prop_oneof![
            3 => Just("1/2 1/2".to_string()),
            3 => "[ab][12](x[ab][12])?=[RN]\\+?",
            3 => "[ab][12](x[ab][12])?[+#]?",
            2 => "[RN]x?[ab][12][+#]?",
            1 => "O-O(-O)?",
            1 => Just(String::new()),
            1 => Just("  | note".to_string()),
            1 => "[ a-c0-9=x+#/|RA]{0,6}",
        ];
        ("[ \t]{0,2}", line, "( \\| x)?")
            .prop_map(|(blanks, line, comment)| format!("{blanks}{line}{comment}"))
    }

    /// A line of a BTM listing: an instruction of few bits (so that rules
    /// repeat and parts are left over), mostly a rule part; when `wrong`,
    /// often also a continuation of many bits, a value too large, a line
    /// that does not parse, a comment or a blank; sometimes with blanks
    /// before it or a comment after it.
    fn btm_line(wrong: bool) -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let suffix = prop_oneof![6 => Just("!"), 2 => Just("?"), 1 => Just("!!"), 1 => Just("??")];
        // One bit when right: two states and symbols, so that rules often
        // repeat one.
        let bits = if wrong { "1[01]{1,3}" } else { "1[01]" };
        let instruction = (bits, suffix).prop_map(|(bits, suffix)| format!("{bits}{suffix}"));
        let line = if wrong {
            prop_oneof![
                12 => instruction,
                2 => "1[01]{20,40}(!!|\\?\\?)",
                1 => "1[01]{62,66}[!?]",
                1 => Just(String::new()),
                1 => Just("# note".to_string()),
                1 => "[ \t]{0,2}[0-2]{0,3}[!?]{0,3}( #x)?",
            ]
            .boxed()
        } else {
            instruction.boxed()
        };
        let blanks = if wrong { "[ \t]{0,2}" } else { "" };
        (blanks, line, "( #x)?")
            .prop_map(|(blanks, line, comment)| format!("{blanks}{line}{comment}"))
    }

    /// An edit as a client sends it: a range (its end maybe before its
    /// start, or past a line's end) and the text to put there, often
    /// one of `snippets`.
    fn edit(
        snippets: &'static [&'static str],
    ) -> impl proptest::strategy::Strategy<Value = (u32, u32, u32, u32, String)> {
        use proptest::prelude::*;
        let text = prop_oneof![
            2 => Just(String::new()),
            1 => Just("\n".to_string()),
            1 => Just("\r\n".to_string()),
            3 => proptest::sample::select(snippets).prop_map(str::to_string),
            1 => "[0-9]",
            1 => Just("# ".to_string()),
            1 => Just("é𝄞\u{feff}".to_string()),
            1 => Just("\u{feff}".to_string()),
            1 => "[ -~]{0,8}",
        ];
        (0u32..25, 0u32..12, 0u32..3, 0u32..12, text)
    }

    /// An edit of a BTM listing: any edit when `wrong`, else one that
    /// keeps it a listing: whole lines added or taken away, a bit put
    /// before a line's marker.
    fn btm_edit(
        wrong: bool,
    ) -> impl proptest::strategy::Strategy<Value = (u32, u32, u32, u32, String)> {
        use proptest::prelude::*;
        if wrong {
            return edit(BTM_SNIPPETS).boxed();
        }
        (0u32..45, 0u32..3, proptest::sample::select(BTM_LINES))
            .prop_map(|(line, lines, text)| (line, 0, line + lines, 0, text.to_string()))
            .boxed()
    }

    /// Texts edits put into InfChessPro programs.
    const ICP_SNIPPETS: &[&str] = &["1. ", "?1!2", "a=K0,0", "\"hi?3", "%a"];
    /// Texts edits put into Chess Code programs.
    const CHC_SNIPPETS: &[&str] = &["1/2 1/2", "a1", "=R", "+", "x", "| ", "b2#"];
    /// Texts edits put into BTM listings.
    const BTM_SNIPPETS: &[&str] = &["1", "0", "!", "?", "10!", "11?", "!!", "??"];
    /// Texts edits that keep a BTM listing one put at a line's start.
    const BTM_LINES: &[&str] = &[
        "", "1", "\n", "10!\n", "11!\n", "10?\n", "101!!\n", "1 # x\n",
    ];

    /// The byte offset of an LSP position in `text` (characters counted
    /// in bytes or UTF-16 units), counted the plain way.
    fn plain_offset(text: &str, line: u32, character: u32, utf8: bool) -> usize {
        let mut start = 0;
        for _ in 0..line {
            match text[start..].find('\n') {
                Some(end) => start += end + 1,
                None => return text.len(),
            }
        }
        let end = text[start..]
            .find('\n')
            .map_or(text.len(), |end| start + end);
        let (mut counted, mut at) = (0, start);
        for c in text[start..end].chars() {
            if counted >= character as usize {
                break;
            }
            counted += if utf8 { c.len_utf8() } else { c.len_utf16() };
            at += c.len_utf8();
        }
        at
    }

    /// Edits `lines` (joined by `\n`, or `\r\n` with `crlf`) of a
    /// `language` document by `edits`: after each, the document's text is
    /// the text edited the plain way, and what it reports (kept line by
    /// line) is what checking that text from scratch reports: every
    /// diagnostic (message, spans, order), and what the server shows of
    /// them.
    fn edited_as_from_scratch(
        language: Language,
        lines: &[String],
        crlf: bool,
        utf8: bool,
        edits: Vec<(u32, u32, u32, u32, String)>,
    ) -> Result<(), proptest::test_runner::TestCaseError> {
        let encoding = if utf8 {
            Encoding::Utf8
        } else {
            Encoding::Utf16
        };
        let mut text = lines.join(if crlf { "\r\n" } else { "\n" });
        let mut document = Document::new("t".into(), language, 1, text.clone());
        for (version, (line, character, lines, end_character, inserted)) in
            edits.into_iter().enumerate()
        {
            let start = plain_offset(&text, line, character, utf8);
            let end = plain_offset(&text, line + lines, end_character, utf8).max(start);
            text.replace_range(start..end, &inserted);
            let range = Range::new(
                Position::new(line, character),
                Position::new(line + lines, end_character),
            );
            document.edit(version as i32 + 2, range, &inserted, encoding);
            proptest::prop_assert_eq!(document.client_text(), text.clone());
            let fresh = Source::new("t", text.clone());
            proptest::prop_assert_eq!(document.source().text(), fresh.text());
            let from_scratch = || match crate::check(&fresh, language) {
                Ok(checked) => checked.warnings,
                Err(errors) => errors,
            };
            let all = |diagnostics: Diagnostics| {
                (
                    diagnostics.len(),
                    diagnostics.into_iter().collect::<Vec<_>>(),
                )
            };
            proptest::prop_assert_eq!(all(document.diagnostics()), all(from_scratch()));
            let bounded = crate::diag::building_shown_only(|| document.diagnostics());
            let expected = crate::diag::building_shown_only(from_scratch);
            proptest::prop_assert_eq!(
                bounded.shown().collect::<Vec<_>>(),
                expected.shown().collect::<Vec<_>>()
            );
            proptest::prop_assert_eq!(bounded.not_shown(), expected.not_shown());
        }
        Ok(())
    }

    proptest::proptest! {
        /// An InfChessPro document after any edits reports what a check
        /// from scratch does ([`edited_as_from_scratch`]).
        #[test]
        fn edited_documents_report_what_a_check_from_scratch_does(
            lines in proptest::collection::vec(icp_line(), 0..20),
            crlf in proptest::bool::ANY,
            utf8 in proptest::bool::ANY,
            edits in proptest::collection::vec(edit(ICP_SNIPPETS), 1..10),
        ) {
            edited_as_from_scratch(Language::InfChessPro, &lines, crlf, utf8, edits)?;
        }

        /// So does a Chess Code document.
        #[test]
        fn edited_chess_code_reports_what_a_check_from_scratch_does(
            lines in proptest::collection::vec(chc_line(), 0..20),
            crlf in proptest::bool::ANY,
            utf8 in proptest::bool::ANY,
            edits in proptest::collection::vec(edit(CHC_SNIPPETS), 1..10),
        ) {
            edited_as_from_scratch(Language::ChessCode, &lines, crlf, utf8, edits)?;
        }

        /// And a BTM listing (half of them right and kept so by their
        /// edits, so that their rules are checked too: after a rule part
        /// and a tape symbol, which nothing continues before).
        #[test]
        fn edited_btm_reports_what_a_check_from_scratch_does(
            (lines, edits) in proptest::strategy::Strategy::prop_flat_map(proptest::bool::ANY, |wrong| (
                proptest::collection::vec(btm_line(wrong), if wrong { 0..40 } else { 10..60 }),
                proptest::collection::vec(btm_edit(wrong), 1..10),
            )),
            crlf in proptest::bool::ANY,
            utf8 in proptest::bool::ANY,
        ) {
            let lines: Vec<String> = ["10!", "10?"].into_iter().map(str::to_string).chain(lines).collect();
            edited_as_from_scratch(Language::Btm, &lines, crlf, utf8, edits)?;
        }
    }
}
