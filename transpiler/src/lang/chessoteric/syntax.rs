//! Chessoteric and BTM text → syntax trees with spans.
//!
//! PGN: tag pairs (only `FEN` matters), movetext with move numbers,
//! comments (`{…}`, `; …`), variations (`(…)`, skipped), NAGs (`$1`–`$4`
//! are annotations), an optional result. BTM: one instruction per line.

use crate::cursor::Cursor;
use crate::diag::{excerpt, Code, Diagnostic, Diagnostics};
use crate::lang::line_facts::{parse_line_at, parse_lines};
use crate::source::{Source, Span, Spanned};

/// What starts a comment in a BTM listing: the rest of the line is one.
pub const BTM_COMMENT: char = '#';

/// What an annotation does with its bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Annotation {
    /// `!` / `$1`: start a new rule part.
    StartPart,
    /// `?` / `$2`: start a new tape symbol.
    StartSymbol,
    /// `!!` / `$3`: continue the current rule part.
    ContinuePart,
    /// `??` / `$4`: continue the current tape symbol.
    ContinueSymbol,
}

impl Annotation {
    /// The suffix as written in PGN and BTM.
    pub fn suffix(self) -> &'static str {
        match self {
            Annotation::StartPart => "!",
            Annotation::StartSymbol => "?",
            Annotation::ContinuePart => "!!",
            Annotation::ContinueSymbol => "??",
        }
    }

    fn from_suffix(suffix: &str) -> Option<Annotation> {
        Some(match suffix {
            "!" => Annotation::StartPart,
            "?" => Annotation::StartSymbol,
            "!!" => Annotation::ContinuePart,
            "??" => Annotation::ContinueSymbol,
            _ => return None,
        })
    }
}

/// A parsed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The `FEN` tag's value, if any.
    pub fen: Option<Spanned<String>>,
    /// The main line's moves.
    pub moves: Vec<PgnMove>,
}

/// One move of the main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    /// The move number shown in messages (1 for `1. e4` and `1... e5`).
    pub number: u32,
    /// Whether White makes it.
    pub white: bool,
    /// The SAN as written, with `+`/`#` but without the annotation.
    pub san: Spanned<String>,
    /// Its annotation, if any.
    pub annotation: Option<Spanned<Annotation>>,
}

/// One line of a BTM file: marker, bits, suffix.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BtmLine {
    /// The instruction's bits (after the marker).
    pub bits: Spanned<String>,
    /// What it does.
    pub annotation: Spanned<Annotation>,
}

/// Parses PGN; all syntax errors are collected.
pub fn parse_pgn(source: &Source) -> Result<Game, Diagnostics> {
    let mut parser = PgnParser::new(source.text(), 0, &PgnState::default());
    parser.game(|_, _| false);
    if parser.lexer.errors.is_empty() {
        Ok(Game {
            fen: parser.piece.fens.pop(),
            moves: parser.piece.moves,
        })
    } else {
        Err(parser.lexer.errors)
    }
}

/// Where the PGN reader stands at the start of a line outside any
/// comment, variation or tag pair: all that what follows is read with
/// (besides the text), so that reading can start there again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnState {
    /// The number of the next move.
    pub number: u32,
    /// Whether the next move is White's.
    pub white: bool,
    /// Whether the game's result has been read.
    pub after_result: bool,
    /// The annotation of the last move read (`None` before any move),
    /// which an annotation that follows may be given to.
    pub last: Option<Option<Spanned<Annotation>>>,
}

impl Default for PgnState {
    /// The state at the start of the text.
    fn default() -> PgnState {
        PgnState {
            number: 1,
            white: true,
            after_result: false,
            last: None,
        }
    }
}

/// What reading a PGN text from a line start found, up to where it
/// stopped: the moves, the FEN tags' values and the syntax errors, in
/// order.
#[derive(Clone, Debug, Default)]
pub struct PgnPiece {
    /// The moves read.
    pub moves: Vec<PgnMove>,
    /// The value of each `FEN` tag read (the last one is the game's).
    pub fens: Vec<Spanned<String>>,
    /// The syntax errors, in the order found.
    pub errors: Vec<Diagnostic>,
    /// The annotation of the move before the start once read (`None` if
    /// there is no move before it): an annotation read before any move
    /// annotates that one.
    pub previous: Option<Option<Spanned<Annotation>>>,
    /// Where reading stopped: a line start, or the end of the text.
    pub end: usize,
}

/// Reads the PGN text of `source` from byte `start`, a line start outside
/// any comment, variation or tag pair where the reader is in `state`
/// (the start of the text and [`PgnState::default`] for a whole game).
/// At the last such line start before each piece of movetext after
/// `start`, `stop` is asked (with the offset and the state there) whether
/// to stop there.
pub fn parse_pgn_piece(
    source: &Source,
    start: usize,
    state: &PgnState,
    stop: impl FnMut(usize, &PgnState) -> bool,
) -> PgnPiece {
    let mut parser = PgnParser::new(source.text(), start, state);
    let end = parser.game(stop);
    let mut piece = parser.piece;
    piece.end = end;
    // Errors found past where reading stopped are not this piece's.
    piece.errors = (parser.lexer.errors.into_iter())
        .filter(|error| error.span.start < end)
        .collect();
    piece.previous = parser.previous;
    piece
}

/// What a piece of PGN text is, as [`PgnLexer`] splits it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PgnToken {
    /// A tag pair, `[Name "value"]`.
    Tag,
    /// A comment, `{…}`.
    Comment,
    /// A variation, `(…)` (comments inside it included).
    Variation,
    /// A comment from `;` to the line's end.
    LineComment,
    /// An escaped line: `%` at a line's start, to its end.
    Escape,
    /// A NAG, `$N`.
    Nag,
    /// A move number, a move with its annotation, an annotation written
    /// apart, or a result: anything else up to a blank or one of
    /// `{}()[];$` (up to a blank alone after [`PgnLexer::after_result`]).
    Word,
}

/// Splits PGN text into [`PgnToken`]s (the blanks between them left out),
/// collecting the errors of groups never closed and of closing
/// characters that close nothing: what the parser and `chess2rs fmt` read.
pub struct PgnLexer<'a> {
    /// Over the whole text (spans are its offsets).
    cursor: Cursor<'a>,
    /// The errors found so far.
    pub errors: Diagnostics,
    /// Whether the game's result has been read: every later word is one
    /// (to the next blank) that should not be there.
    pub after_result: bool,
    /// The start of the last line the lexer came to outside any group.
    pub line_start: usize,
}

impl<'a> PgnLexer<'a> {
    /// A lexer at the start of `text`.
    pub fn new(text: &'a str) -> PgnLexer<'a> {
        PgnLexer {
            cursor: Cursor::new(text, 0),
            errors: Diagnostics::default(),
            after_result: false,
            line_start: 0,
        }
    }

    /// The text.
    pub fn text(&self) -> &'a str {
        self.cursor.text()
    }

    /// Skips to the closing `close` (nesting `open`), reporting an
    /// unterminated group.
    fn skip_group(&mut self, open: char, close: char, what: &str) {
        let start = self.cursor.pos();
        let mut depth = 0usize;
        while let Some(c) = self.cursor.bump() {
            if c == open {
                depth += 1;
            } else if c == close {
                depth -= 1;
                if depth == 0 {
                    return;
                }
            } else if c == '{' && open != '{' {
                // A comment inside a variation may hold parentheses.
                self.cursor.set_pos(self.cursor.pos() - 1);
                self.skip_group('{', '}', "comment");
            }
        }
        self.errors.push(
            Diagnostic::error(
                Code::PgnNeverClosed,
                format!("this {what} is never closed"),
                start..start + 1,
            )
            .with_label(format!("opened here, no `{close}` follows")),
        );
    }

    /// A tag pair, to its `]`; `false` (and the error) if it has none.
    fn tag(&mut self) -> bool {
        let start = self.cursor.pos();
        match self.cursor.rest().find(']') {
            Some(offset) => {
                self.cursor.set_pos(start + offset + 1);
                true
            }
            None => {
                self.errors.push(
                    Diagnostic::error(
                        Code::PgnNeverClosed,
                        "this tag pair is never closed",
                        start..start + 1,
                    )
                    .with_label("no `]` follows")
                    .with_help("tag pairs look like `[Event \"Casual game\"]`"),
                );
                self.cursor.set_pos(usize::MAX);
                false
            }
        }
    }
}

impl Iterator for PgnLexer<'_> {
    type Item = (PgnToken, Span);

    fn next(&mut self) -> Option<(PgnToken, Span)> {
        loop {
            let c = self.cursor.peek()?;
            let start = self.cursor.pos();
            let token = match c {
                c if c.is_whitespace() => {
                    self.cursor.bump();
                    if c == '\n' {
                        self.line_start = self.cursor.pos();
                    }
                    continue;
                }
                '[' if self.tag() => PgnToken::Tag,
                '[' => return None,
                '{' => {
                    self.skip_group('{', '}', "comment");
                    PgnToken::Comment
                }
                '(' => {
                    self.skip_group('(', ')', "variation");
                    PgnToken::Variation
                }
                ';' => {
                    self.cursor.take_while(|c| c != '\n');
                    PgnToken::LineComment
                }
                '%' if self.cursor.text()[..start].ends_with('\n') || start == 0 => {
                    self.cursor.take_while(|c| c != '\n');
                    PgnToken::Escape
                }
                ')' | '}' | ']' => {
                    self.cursor.bump();
                    let what = match c {
                        ')' => "a variation",
                        '}' => "a comment",
                        _ => "a tag pair",
                    };
                    self.errors.push(
                        Diagnostic::error(
                            Code::PgnUnmatchedClose,
                            format!("`{c}` without {what} to close"),
                            start..start + 1,
                        )
                        .with_label("unmatched"),
                    );
                    continue;
                }
                '$' => {
                    self.cursor.bump();
                    self.cursor.take_while(|c| c.is_ascii_digit());
                    PgnToken::Nag
                }
                _ => {
                    let after_result = self.after_result;
                    let (_, word) = self.cursor.take_while(|c| {
                        !c.is_whitespace() && (after_result || !"{}()[];$".contains(c))
                    });
                    if word.is_empty() {
                        self.cursor.bump();
                        continue;
                    }
                    PgnToken::Word
                }
            };
            return Some((token, self.cursor.span_from(start)));
        }
    }
}

/// The results a game may end with.
pub const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

struct PgnParser<'a> {
    lexer: PgnLexer<'a>,
    /// What has been read.
    piece: PgnPiece,
    /// The number of the next move.
    number: u32,
    /// Whether the next move is White's.
    white: bool,
    /// The annotation of the move before the start (`None` if there is
    /// none), which an annotation before any move read is given to.
    previous: Option<Option<Spanned<Annotation>>>,
}

impl<'a> PgnParser<'a> {
    /// A parser of `text` from `start`, a line start outside any group
    /// where the reader is in `state`.
    fn new(text: &'a str, start: usize, state: &PgnState) -> PgnParser<'a> {
        let mut lexer = PgnLexer::new(text);
        lexer.cursor.set_pos(start);
        lexer.after_result = state.after_result;
        lexer.line_start = start;
        PgnParser {
            lexer,
            piece: PgnPiece::default(),
            number: state.number,
            white: state.white,
            previous: state.last.clone(),
        }
    }

    /// The reader's state before the token read last.
    fn state(&self) -> PgnState {
        PgnState {
            number: self.number,
            white: self.white,
            after_result: self.lexer.after_result,
            last: match self.piece.moves.last() {
                Some(last) => Some(last.annotation.clone()),
                None => self.previous.clone(),
            },
        }
    }

    /// Reads to the end of the text, or to a line start where `stop` says
    /// to stop: where it stopped.
    fn game(&mut self, mut stop: impl FnMut(usize, &PgnState) -> bool) -> usize {
        let mut line_start = self.lexer.line_start;
        while let Some((token, span)) = self.lexer.next() {
            if self.lexer.line_start != line_start {
                line_start = self.lexer.line_start;
                if stop(line_start, &self.state()) {
                    return line_start;
                }
            }
            let text = &self.lexer.text()[span.clone()];
            match token {
                PgnToken::Tag => self.tag(text, span.start),
                PgnToken::Nag => self.nag(span),
                PgnToken::Word if self.lexer.after_result => self.lexer.errors.push(
                    Diagnostic::error(
                        Code::PgnMovesAfterResult,
                        "moves after the game's result",
                        span,
                    )
                    .with_label("the game ended with the result before this")
                    .with_help("a PGN file holds one game; remove what follows the result"),
                ),
                PgnToken::Word if RESULTS.contains(&text) => self.lexer.after_result = true,
                PgnToken::Word => self.movetext_token(text, span),
                PgnToken::Comment
                | PgnToken::Variation
                | PgnToken::LineComment
                | PgnToken::Escape => {}
            }
        }
        self.lexer.text().len()
    }

    /// A tag pair, `text` at `start`: only `FEN` matters.
    fn tag(&mut self, text: &str, start: usize) {
        let end = start + text.len();
        let inner = &text[1..text.len() - 1];
        let name = inner.split_whitespace().next().unwrap_or_default();
        if name == "FEN" {
            let (Some(open), Some(close)) = (inner.find('"'), inner.rfind('"')) else {
                self.lexer.errors.push(
                    Diagnostic::error(
                        Code::PgnBadFen,
                        "the FEN tag has no quoted value",
                        start..end,
                    )
                    .with_label("expected `[FEN \"...\"]`"),
                );
                return;
            };
            if close > open {
                let value_start = start + 1 + open + 1;
                let value = inner[open + 1..close].to_string();
                (self.piece.fens).push(Spanned::new(value, value_start..start + 1 + close));
            }
        }
    }

    /// A NAG after a move: `$1`–`$4` annotate it, `$5`/`$6` are errors,
    /// others are ignored.
    fn nag(&mut self, span: Span) {
        let number = self.lexer.text()[span.start + 1..span.end]
            .parse::<u32>()
            .ok();
        let annotation = match number {
            Some(1) => Annotation::StartPart,
            Some(2) => Annotation::StartSymbol,
            Some(3) => Annotation::ContinuePart,
            Some(4) => Annotation::ContinueSymbol,
            Some(5 | 6) => {
                self.lexer.errors.push(not_an_instruction(
                    span,
                    if number == Some(5) {
                        "$5 (!?)"
                    } else {
                        "$6 (?!)"
                    },
                ));
                return;
            }
            _ => return,
        };
        self.annotate(Spanned::new(annotation, span));
    }

    fn annotate(&mut self, annotation: Spanned<Annotation>) {
        let last = match self.piece.moves.last_mut() {
            Some(last) => Some(&mut last.annotation),
            None => self.previous.as_mut(),
        };
        match last {
            Some(slot @ None) => *slot = Some(annotation),
            Some(Some(first)) => {
                let first = first.span.clone();
                self.lexer.errors.push(
                    Diagnostic::error(
                        Code::PgnTwoAnnotations,
                        "a move with two annotations",
                        annotation.span,
                    )
                    .with_label("second annotation")
                    .with_secondary(first, "first annotation")
                    .with_help("each move carries at most one of ! ? !! ?? (or $1–$4)"),
                );
            }
            None => self.lexer.errors.push(
                Diagnostic::error(
                    Code::PgnAnnotationBeforeMove,
                    "an annotation before any move",
                    annotation.span,
                )
                .with_label("annotates nothing"),
            ),
        }
    }

    /// A move number (`12.`, `12...`) or a move with its suffix.
    fn movetext_token(&mut self, token: &str, span: Span) {
        let digits = token.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 && token[digits..].bytes().all(|b| b == b'.') {
            if let Ok(number) = token[..digits].parse::<u32>() {
                self.number = number;
                // `12.` is White's move, `12...` Black's.
                self.white = token[digits..].len() < 3;
            }
            let rest = &token[digits..];
            if rest.is_empty() {
                self.lexer.errors.push(
                    Diagnostic::error(
                        Code::PgnNotAMove,
                        format!("`{}` is not a move", excerpt(token)),
                        span,
                    )
                    .with_label("a number without `.`")
                    .with_help("move numbers are written `12.` (White) or `12...` (Black)"),
                );
            }
            return;
        }
        // A move number glued to the move: `1.e4`.
        if digits > 0 && token[digits..].starts_with('.') {
            let dots = token[digits..].bytes().take_while(|&b| b == b'.').count();
            let split = digits + dots;
            self.movetext_token(&token[..split], span.start..span.start + split);
            self.movetext_token(&token[split..], span.start + split..span.end);
            return;
        }
        let body_len = token.trim_end_matches(['!', '?']).len();
        let (body, suffix) = token.split_at(body_len);
        if body.is_empty() {
            // An annotation written apart from its move (`e4 !`), like a
            // NAG: it annotates the move before it.
            match Annotation::from_suffix(suffix) {
                Some(annotation) => self.annotate(Spanned::new(annotation, span)),
                None => self.lexer.errors.push(not_an_instruction(span, suffix)),
            }
            return;
        }
        let san = Spanned::new(body.to_string(), span.start..span.start + body_len);
        self.piece.moves.push(PgnMove {
            number: self.number,
            white: self.white,
            san,
            annotation: None,
        });
        if !self.white {
            self.number += 1;
        }
        self.white = !self.white;
        if !suffix.is_empty() {
            let suffix_span = span.start + body_len..span.end;
            match Annotation::from_suffix(suffix) {
                Some(annotation) => self.annotate(Spanned::new(annotation, suffix_span)),
                None => self
                    .lexer
                    .errors
                    .push(not_an_instruction(suffix_span, suffix)),
            }
        }
    }
}

fn not_an_instruction(span: Span, written: &str) -> Diagnostic {
    Diagnostic::error(
        Code::NotAnInstruction,
        format!("`{written}` is not a Chessoteric instruction"),
        span,
    )
    .with_label("not ! ? !! or ??")
    .with_help("annotations are ! (new rule part), ? (new tape symbol), !! and ?? (continue them)")
}

/// Parses a BTM listing; all bad lines are reported.
pub fn parse_btm(source: &Source) -> Result<Vec<BtmLine>, Diagnostics> {
    parse_lines(source, btm_line)
}

/// Parses line `index` (0-based) of a BTM listing alone, as [`parse_btm`]
/// parses it: `None` if it is blank, a comment or past the end, else the
/// instruction or the line's error. For re-reading only the lines an edit
/// changed.
pub fn parse_btm_line(source: &Source, index: usize) -> Option<Result<BtmLine, Diagnostic>> {
    parse_line_at(source, index, btm_line)
}

/// The instruction of `raw`, a line (without its line end) starting at
/// byte `start`; `None` for a blank line or a comment.
fn btm_line(start: usize, raw: &str, _number: u32) -> Option<Result<BtmLine, Diagnostic>> {
    // `#` starts a comment, on a line of its own or after an instruction
    // (no instruction holds a `#`).
    let (text, span) = crate::lang::line_facts::code(start, raw, BTM_COMMENT)?;
    let offset = span.start;
    let body_len = text.trim_end_matches(['!', '?']).len();
    let (body, suffix) = text.split_at(body_len);
    let suffix_span = offset + body_len..span.end;
    let Some(annotation) = Annotation::from_suffix(suffix) else {
        return Some(Err(if suffix.is_empty() {
            Diagnostic::error(Code::BtmNotALine, "a BTM line ends in ! ? !! or ??", span)
                .with_label("no instruction suffix")
                .with_help(
                    "write the marker 1, the bits, then the suffix: `11001000?` is tape symbol 72",
                )
        } else {
            not_an_instruction(suffix_span, suffix)
        }));
    };
    if let Some(bad) = body.find(|c| c != '0' && c != '1') {
        let c = body[bad..].chars().next().unwrap_or('?');
        return Some(Err(Diagnostic::error(
            Code::BtmNotALine,
            format!("`{c}` is not a bit"),
            offset + bad..offset + bad + c.len_utf8(),
        )
        .with_label("BTM lines hold only 0 and 1 before the suffix")));
    }
    if !body.starts_with('1') {
        return Some(Err(Diagnostic::error(
            Code::BtmNotALine,
            "a BTM line must start with the marker 1",
            span,
        )
        .with_label("no marker")
        .with_help(
            "the marker 1 comes before the instruction's bits: `10!` is rule part 0",
        )));
    }
    if body.len() < 2 {
        return Some(Err(Diagnostic::error(
            Code::BtmNotALine,
            "the instruction has no bits after the marker",
            span,
        )
        .with_label("only the marker")
        .with_help(
            "write at least one bit after the marker: `10!` is rule part 0",
        )));
    }
    Some(Ok(BtmLine {
        bits: Spanned::new(body[1..].to_string(), offset + 1..offset + body_len),
        annotation: Spanned::new(annotation, suffix_span),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pgn(text: &str) -> Result<Game, Vec<String>> {
        parse_pgn(&Source::new("t.pgn", text))
            .map_err(|e| e.into_iter().map(|d| d.message).collect())
    }

    #[test]
    fn movetext_with_numbers_comments_variations_and_nags() {
        let game = pgn("[Event \"x\"]\n[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n1. e4 {a comment (with parens)} e5! 2.Nf3 $2 (2. d4?? d5) Nc6 ; rest\n3... a6?? 1-0\n").unwrap();
        assert_eq!(game.fen.unwrap().value, "8/8/8/8/8/8/8/K6k w - - 0 1");
        let sans: Vec<&str> = game.moves.iter().map(|m| m.san.value.as_str()).collect();
        assert_eq!(sans, vec!["e4", "e5", "Nf3", "Nc6", "a6"]);
        let notes: Vec<_> = game
            .moves
            .iter()
            .map(|m| m.annotation.as_ref().map(|a| a.value))
            .collect();
        assert_eq!(
            notes,
            vec![
                None,
                Some(Annotation::StartPart),
                Some(Annotation::StartSymbol),
                None,
                Some(Annotation::ContinueSymbol)
            ]
        );
        assert_eq!((game.moves[4].number, game.moves[4].white), (3, false));
    }

    #[test]
    fn an_annotation_apart_from_its_move_annotates_it_like_a_nag() {
        let game = pgn("1. e4 ! e5 ?? 2. Nf3").unwrap();
        assert_eq!(
            game.moves
                .iter()
                .map(|m| m.annotation.as_ref().map(|a| a.value))
                .collect::<Vec<_>>(),
            vec![
                Some(Annotation::StartPart),
                Some(Annotation::ContinueSymbol),
                None
            ]
        );
        assert_eq!(
            pgn("! 1. e4").unwrap_err(),
            vec!["an annotation before any move"]
        );
        assert_eq!(
            pgn("1. e4 !? e5").unwrap_err(),
            vec!["`!?` is not a Chessoteric instruction"]
        );
    }

    #[test]
    fn pgn_errors() {
        let cases: [(&str, &[&str]); 6] = [
            ("1. e4!?", &["`!?` is not a Chessoteric instruction"]),
            ("1. e4 $6", &["`$6 (?!)` is not a Chessoteric instruction"]),
            ("1. e4! $1", &["a move with two annotations"]),
            ("1. e4 { open", &["this comment is never closed"]),
            (
                "1. e4 } e5 ] Nf3 ) *",
                &[
                    "`}` without a comment to close",
                    "`]` without a tag pair to close",
                    "`)` without a variation to close",
                ],
            ),
            (
                "1. e4 *\n2. d4",
                &[
                    "moves after the game's result",
                    "moves after the game's result",
                ],
            ),
        ];
        for (game, errors) in cases {
            assert_eq!(pgn(game).unwrap_err(), errors, "{game}");
        }
    }

    #[test]
    fn btm_lines() {
        let lines = parse_btm(&Source::new(
            "t.btm",
            "# hello\n10!\n\n11001000?\n101!!\n10??\n",
        ))
        .unwrap();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[1].bits.value, "1001000");
        assert_eq!(lines[2].annotation.value, Annotation::ContinuePart);
        let commented = parse_btm(&Source::new(
            "t.btm",
            "110! # rule part 2
  10?#x
# 12
",
        ))
        .unwrap();
        assert_eq!(commented.len(), 2);
        assert_eq!(commented[0].bits.value, "10");
        assert_eq!(commented[0].annotation.span, 3..4);
        assert_eq!(commented[1].bits.span, 22..23);
        assert_eq!(commented[1].annotation.value, Annotation::StartSymbol);
        let errors = parse_btm(&Source::new("t.btm", "01!\n1!\n10\n12?\n10!?\n")).unwrap_err();
        let messages: Vec<_> = errors.iter().map(|d| d.message.as_str()).collect();
        assert_eq!(
            messages,
            vec![
                "a BTM line must start with the marker 1",
                "the instruction has no bits after the marker",
                "a BTM line ends in ! ? !! or ??",
                "`2` is not a bit",
                "`!?` is not a Chessoteric instruction"
            ]
        );
    }
}
