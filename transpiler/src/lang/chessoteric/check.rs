//! Chessoteric checks, before any move is played: the FEN tag is a legal
//! position, every move is written in standard algebraic notation, and
//! the moves alternate between the sides. Playing the game (is each move
//! legal?) and reading its boards is lowering's work
//! ([`super::lower`]).
//!
//! What both front ends check once there are instructions is here too:
//! [`read_values`] joins them into rule parts and tape symbols and reports
//! continuations nothing started, values too large, parts after the last
//! rule and rules replaced, reading each instruction's bits as [`Bits`]
//! (no string joined, nothing allocated per instruction). Lowering reads
//! the values from it; [`BtmLines`] keeps a BTM listing's lines as it
//! reads them for a document open in the language server, re-reading
//! only the lines an edit changed.

use std::collections::HashMap;

use super::chess::{Color, Position};
use super::fen;
use super::lower::{GroupKind, Joiner};
use super::san::San;

use super::syntax::{self, Annotation, BtmLine, Game};
use crate::diag::{excerpt, Code, Diagnostic, Diagnostics, Severity};
use crate::lang::line_facts::{InSource, LineFact, LineFacts};
use crate::source::{Source, Span, Spanned};

/// What the checks learn about a game: where it starts and its moves read
/// as SAN.
#[derive(Clone, Debug, Default)]
pub struct Opening {
    /// The starting position (the FEN tag's, else the standard one).
    pub position: Position,
    /// Each move of the main line, in order (complete when there is no
    /// error).
    pub moves: Vec<San>,
}

/// Checks a game without playing it: every error found, and the opening
/// lowering plays from.
pub fn check(game: &Game) -> (Opening, Diagnostics) {
    let mut diagnostics = Diagnostics::default();
    let position = opening(game.fen.as_ref(), &mut diagnostics);
    let mut white_to_move = position.turn() == Color::White;
    let mut due = position.fullmoves();
    // After one move out of turn, every later one would be reported too.
    let mut turns_in_order = true;
    let mut moves = Vec::with_capacity(game.moves.len());
    for pgn_move in &game.moves {
        if turns_in_order {
            let (white, number) = (pgn_move.white, pgn_move.number);
            if let Some(error) = out_of_turn(white_to_move, due, white, number, &pgn_move.san) {
                diagnostics.push(error);
                turns_in_order = false;
            }
        }
        if !white_to_move {
            due = due.saturating_add(1);
        }
        white_to_move = !white_to_move;
        match pgn_move.san.value.parse::<San>() {
            Ok(parsed) => moves.push(parsed),
            Err(_) => diagnostics.push(not_san(&pgn_move.san)),
        }
    }
    (Opening { position, moves }, diagnostics)
}

/// The position a game whose `FEN` tag's value is `fen` (if it has one)
/// starts from: the tag's, else the standard one (also when the tag's is
/// not a legal position, an error that goes to `diagnostics`).
pub fn opening(fen: Option<&Spanned<String>>, diagnostics: &mut Diagnostics) -> Position {
    let Some(fen) = fen else {
        return Position::default();
    };
    match fen::parse(&fen.value) {
        Ok(position) => position,
        Err(reason) => {
            diagnostics.push(
                Diagnostic::error(
                    Code::PgnBadFen,
                    format!("the FEN tag is not a legal position: {reason}"),
                    fen.span.clone(),
                )
                .with_label("this position")
                .with_help(
                    "a FEN looks like `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`",
                ),
            );
            Position::default()
        }
    }
}

/// The error for a move that is not SAN, written `san`.
pub fn not_san(san: &Spanned<String>) -> Diagnostic {
    Diagnostic::error(
        Code::PgnNotAMove,
        format!(
            "`{}` is not a move in standard algebraic notation",
            excerpt(&san.value)
        ),
        san.span.clone(),
    )
    .with_label("not SAN")
    .with_help("moves look like `e4`, `Nf3`, `exd5`, `O-O`, `e8=Q`, `Nbd2`")
}

/// The error for move `san`, written as White's (`white`) or Black's move
/// `number`, while the other side is to move (`1. e4 2. Nf3`: Black's
/// first move is missing), else `None`. `due` is the number of the move
/// that is due.
pub fn out_of_turn(
    white_to_move: bool,
    due: u32,
    white: bool,
    number: u32,
    san: &Spanned<String>,
) -> Option<Diagnostic> {
    if white == white_to_move {
        return None;
    }
    let (written, missing) = if white {
        ("White", "Black")
    } else {
        ("Black", "White")
    };
    let due_written = if white_to_move {
        format!("{due}.")
    } else {
        format!("{due}...")
    };
    Some(
        Diagnostic::error(
            Code::PgnOutOfTurn, format!(
                "`{}` is written as {written}'s move {number}, but it is {missing}'s turn: {missing}'s move {due} is missing",
                san.value
            ),
            san.span.clone(),
        )
        .with_label(format!("{missing} has not moved yet"))
        .with_help(format!(
            "add {missing}'s move before this one (as `{due_written} MOVE`), or renumber this move if it is {missing}'s"
        )),
    )
}

/// An instruction's bits (or a group's, joined) as the checks read them:
/// how many there are, how many from the first 1 on, and the last 64 as
/// a number (the value itself while it fits in an `i64`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bits {
    /// The last 64 bits, as a number.
    low: u64,
    /// How many bits.
    length: u64,
    /// How many bits from the first 1 on (0 when all are 0).
    significant: u64,
}

impl Bits {
    /// The bits of `bits`, a string of `0`s and `1`s, most significant
    /// first.
    pub fn of(bits: &str) -> Bits {
        let bytes = bits.as_bytes();
        let zeros = bytes.iter().take_while(|&&bit| bit == b'0').count();
        let last = &bytes[bytes.len().saturating_sub(64)..];
        Bits {
            low: last
                .iter()
                .fold(0, |low, &bit| (low << 1) | u64::from(bit == b'1')),
            length: bytes.len() as u64,
            significant: (bytes.len() - zeros) as u64,
        }
    }

    /// Appends `more` after these bits.
    fn append(&mut self, more: Bits) {
        self.low = match more.length {
            length @ 0..64 => (self.low << length) | more.low,
            _ => more.low,
        };
        self.significant = match self.significant {
            0 => more.significant,
            significant => significant.saturating_add(more.length),
        };
        self.length = self.length.saturating_add(more.length);
    }

    /// The bits as a binary number, if it fits in an `i64` (at most 63
    /// significant bits).
    fn value(self) -> Option<i64> {
        (self.significant <= 63).then_some(self.low as i64)
    }
}

/// Where the instructions [`read_values`] reads are, by the place each
/// was given.
pub trait Places {
    /// Where the instruction at `place` starts.
    fn start(&self, place: usize) -> usize;

    /// The instruction's span (asked only for a diagnostic shown).
    fn span(&self, place: usize) -> Span;
}

/// Joins `instructions` (each a place, an annotation and its bits) into
/// rule parts and tape symbols: a start begins one, a continuation joins
/// the last of its kind. Each value read goes to `value` with its kind and
/// the place of the instruction that started it, in order within each
/// kind. Every error goes to `diagnostics` (continuations before anything
/// of their kind started, in order, then values that do not fit in an
/// `i64`, parts before symbols); with none, the warnings (parts after the
/// last complete rule, then each rule that replaces an earlier one).
/// Whether there was no error.
pub fn read_values(
    instructions: impl IntoIterator<Item = (usize, Annotation, Bits)>,
    places: &impl Places,
    diagnostics: &mut Diagnostics,
    mut value: impl FnMut(GroupKind, i64, usize),
) -> bool {
    // The group of each kind being read (its bits and first place), the
    // values too large of each kind, and the rules so far.
    let mut open: [Option<(Bits, usize)>; 2] = [None, None];
    let mut too_large: [Vec<(usize, u64)>; 2] = [Vec::new(), Vec::new()];
    let mut rules = Rules::default();
    let mut read = |kind: GroupKind, (bits, place): (Bits, usize)| match bits.value() {
        Some(read) => {
            value(kind, read, place);
            if kind == GroupKind::Part {
                rules.part(read, place, places);
            }
        }
        None => too_large[kind as usize].push((place, bits.significant)),
    };
    let mut joiner = Joiner::default();
    for (place, annotation, bits) in instructions {
        let joined = joiner.join(annotation);
        let (kind, group) = (joined.kind, &mut open[joined.kind as usize]);
        if joined.number == 0 {
            // A continuation before anything of its kind started.
            let (first, suffix) = match kind {
                GroupKind::Part => ("!", "!!"),
                GroupKind::Symbol => ("?", "??"),
            };
            let what = kind.what();
            diagnostics.push_with(Severity::Error, places.start(place), || {
                Diagnostic::error(
                    Code::ContinuationWithoutStart,
                    format!("`{suffix}` continues a {what}, but none has started"),
                    places.span(place),
                )
                .with_label(format!("no `{first}` before this"))
                .with_help(format!("start a {what} with `{first}` first"))
            });
        } else if joined.begins {
            if let Some(done) = group.replace((bits, place)) {
                read(kind, done);
            }
        } else if let Some((joining, _)) = group {
            joining.append(bits);
        }
    }
    for (kind, last) in [GroupKind::Part, GroupKind::Symbol].into_iter().zip(open) {
        if let Some(last) = last {
            read(kind, last);
        }
    }
    for (kind, too_large) in [GroupKind::Part, GroupKind::Symbol]
        .into_iter()
        .zip(too_large)
    {
        for (place, significant) in too_large {
            diagnostics.push_with(Severity::Error, places.start(place), || {
                Diagnostic::error(
                    Code::ValueTooLarge,
                    format!("this {} does not fit in an i64", kind.what()),
                    places.span(place),
                )
                .with_label(format!("{significant} bits"))
                .with_help("values have at most 63 significant bits")
            });
        }
    }
    if diagnostics.has_errors() {
        return false;
    }
    rules.finish(places, diagnostics);
    true
}

/// The rules read so far: parts taken five at a time, the first rule for
/// each (state, read) and the warnings for rules that replace one.
#[derive(Default)]
struct Rules {
    /// How many parts of the rule being read there are, and its state
    /// (with its place) and read symbol.
    parts: usize,
    state: (i64, usize),
    read: i64,
    /// The place of the first rule for each (state, read).
    first: HashMap<(i64, i64), usize>,
    /// A warning for each rule that replaces an earlier one.
    replaced: Diagnostics,
}

impl Rules {
    /// Takes in the next part, `value` started at `place`.
    fn part(&mut self, value: i64, place: usize, places: &impl Places) {
        match self.parts {
            0 => self.state = (value, place),
            1 => self.read = value,
            _ => {}
        }
        self.parts += 1;
        if self.parts < 5 {
            return;
        }
        self.parts = 0;
        let ((state, place), read) = (self.state, self.read);
        let earlier = *self.first.entry((state, read)).or_insert(place);
        if earlier != place {
            self.replaced
                .push_with(Severity::Warning, places.start(place), || {
                    Diagnostic::warning(
                        Code::SecondRule,
                        format!("a second rule for state {state} reading {read}"),
                        places.span(place),
                    )
                    .with_label("this rule replaces the earlier one")
                    .with_secondary(places.span(earlier), "earlier rule")
                });
        }
    }

    /// Warns of parts after the last complete rule, then of the rules
    /// replaced.
    fn finish(self, places: &impl Places, diagnostics: &mut Diagnostics) {
        let leftover = self.parts;
        if leftover > 0 {
            let (_, first) = self.state;
            diagnostics.push_with(Severity::Warning, places.start(first), || {
                Diagnostic::warning(
                    Code::LeftoverParts,
                    format!(
                        "{leftover} rule part{} after the last complete rule",
                        if leftover == 1 { "" } else { "s" }
                    ),
                    places.span(first),
                )
                .with_label("ignored from here on")
                .with_help("a rule takes five parts: state, read, next state, write, direction")
            });
        }
        diagnostics.append(self.replaced);
    }
}

/// One line of a BTM listing as the checks read it ([`BtmLines`] keeps
/// one for each line of a document).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BtmFact(Fact);

/// What a BTM line is to the checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fact {
    /// Blank, or a comment.
    Blank,
    /// A line that does not parse, with where in it its error is.
    Error { at: u32 },
    /// An instruction, starting `indent` bytes into the line.
    Instruction {
        annotation: Annotation,
        indent: u32,
        bits: Bits,
    },
}

impl LineFact for BtmFact {
    type Parsed = BtmLine;
    const SYNTAX: Code = Code::BtmNotALine;

    fn parse(source: &Source, index: usize) -> Option<Result<BtmLine, Diagnostic>> {
        syntax::parse_btm_line(source, index)
    }

    fn of(line: &BtmLine, start: usize) -> BtmFact {
        let indent = line.bits.span.start.saturating_sub(start + 1);
        BtmFact(Fact::Instruction {
            annotation: line.annotation.value,
            indent: u32::try_from(indent).unwrap_or(u32::MAX),
            bits: Bits::of(&line.bits.value),
        })
    }

    fn blank() -> BtmFact {
        BtmFact(Fact::Blank)
    }

    fn error(at: u32) -> BtmFact {
        BtmFact(Fact::Error { at })
    }

    fn error_at(&self) -> Option<u32> {
        match self.0 {
            Fact::Error { at } => Some(at),
            _ => None,
        }
    }

    /// Lowering's errors, else its warnings (as [`crate::check`] reports).
    fn check(lines: InSource<'_, BtmFact>) -> Diagnostics {
        let mut instructions = (lines.facts.iter().enumerate())
            .filter_map(|(line, fact)| match fact.0 {
                Fact::Instruction {
                    annotation, bits, ..
                } => Some((line, annotation, bits)),
                _ => None,
            })
            .peekable();
        let mut diagnostics = Diagnostics::default();
        if instructions.peek().is_none() {
            diagnostics.push(super::lower::empty_program(lines.source, true));
        }
        read_values(instructions, &lines, &mut diagnostics, |_, _, _| {});
        diagnostics
    }
}

/// A BTM listing's lines as the checks read them, kept for a document
/// that is being edited: [`LineFacts::edited`] re-reads only the lines an
/// edit changed, and [`LineFacts::diagnostics`] reads the values from what
/// is kept.
pub type BtmLines = LineFacts<BtmFact>;

/// The instructions of [`BtmLines`] found in their source, by line.
impl Places for InSource<'_, BtmFact> {
    fn start(&self, line: usize) -> usize {
        let indent = match self.facts.get(line) {
            Some(BtmFact(Fact::Instruction { indent, .. })) => *indent as usize,
            _ => 0,
        };
        self.source.line_start(line).unwrap_or(0) + indent
    }

    fn span(&self, line: usize) -> Span {
        match syntax::parse_btm_line(self.source, line) {
            Some(Ok(parsed)) => parsed.bits.span.start - 1..parsed.annotation.span.end,
            // Not so while the lines are the source's.
            _ => {
                let start = self.start(line);
                start..start
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Source;

    fn messages(pgn: &str) -> Vec<String> {
        let game = super::super::syntax::parse_pgn(&Source::new("t.pgn", pgn)).unwrap();
        check(&game).1.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn every_move_that_is_not_san_is_reported() {
        assert_eq!(
            messages("1. e4 e5 2. Xx4 Nc6 3. Bb9"),
            vec![
                "`Xx4` is not a move in standard algebraic notation",
                "`Bb9` is not a move in standard algebraic notation",
            ]
        );
    }

    #[test]
    fn the_first_move_out_of_turn_is_reported_once() {
        assert_eq!(
            messages("1. e4 2. d4 3. c4"),
            vec!["`d4` is written as White's move 2, but it is Black's turn: Black's move 1 is missing"]
        );
        assert!(messages("1. e4 e5 2. Nf3").is_empty());
    }

    #[test]
    fn the_fen_sets_who_moves_first() {
        let black_to_move =
            "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n1... e5 2. Nf3";
        assert!(messages(black_to_move).is_empty());
        assert_eq!(
            messages("[FEN \"not a position\"]\n1. e4")[0],
            "the FEN tag is not a legal position: invalid board part in fen"
        );
    }
}
