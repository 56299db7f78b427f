//! A game as the checks and lowering read it, kept for a PGN document
//! open in the language server ([`PgnLines`]), so that an edit costs what
//! it changes, not the game:
//!
//! - Reading: the reader's state is kept at line starts outside any
//!   comment, variation or tag pair, a few kilobytes apart. An edit is
//!   read again from the kept state before it until a line start after it
//!   where the reader is in the state it was in there before the edit;
//!   from there on, what was read is still right (moved by the bytes the
//!   edit added or took away).
//! - Checking: the moves are kept as the checks read them (where they
//!   are, their number and side, their SAN parsed), with counts of the
//!   moves that are not SAN and of where a move number breaks the turns,
//!   so that a game without errors is checked without a pass over its
//!   moves.
//! - Playing: the position before every 128th ply is kept, and what each
//!   annotated move's board gives (its instruction's bits, or none).
//!   After an edit the game is played again from the kept position
//!   before it until a ply after it whose position (pieces, side to move,
//!   castling rights, en passant) equals the kept one there; the rest of
//!   the game is then played as before. A game stopped by an illegal move
//!   keeps the positions after it, for when the move is put right. An
//!   edit that changes the rest of the game (a different move, leading
//!   elsewhere) plays it to the end.
//!
//! The diagnostics are made from these facts by the functions a whole
//! check uses ([`check`], [`lower`]), so that they are the ones
//! [`crate::check`] reports, in its order.

use std::cell::RefCell;
use std::ops::Range;

use super::check::{self, Bits, Places};
use super::chess::{Color, Position};
use super::lower;
use super::san::San;
use super::syntax::{self, Annotation, PgnMove, PgnState};
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::source::{LinesEdited, Source, Span, Spanned};

/// How many bytes apart (at least) the reader's kept states are (fewer
/// in tests, so that small games keep several).
const READ_SPACING: usize = if cfg!(test) { 16 } else { 4096 };

/// How many plies apart the kept positions are (fewer in tests).
const PLAY_SPACING: usize = if cfg!(test) { 4 } else { 128 };

/// One move of the main line as the checks read it.
#[derive(Clone, Copy, Debug)]
struct MoveFact {
    /// Where its SAN starts.
    start: usize,
    /// How long its SAN is, in bytes.
    length: u32,
    /// Its number, as written or counted.
    number: u32,
    /// Whether it is written as White's.
    white: bool,
    /// Its annotation: what it is, where it starts (counted from the
    /// move's start) and how long it is.
    annotation: Option<(Annotation, u32, u32)>,
    /// Its SAN, read (`None` if it is not SAN).
    san: Option<San>,
}

impl MoveFact {
    /// The facts of a move read.
    fn of(read: &PgnMove) -> MoveFact {
        let start = read.san.span.start;
        let length = read.san.span.end.saturating_sub(start);
        MoveFact {
            start,
            length: u32::try_from(length).unwrap_or(u32::MAX),
            number: read.number,
            white: read.white,
            annotation: None,
            san: read.san.value.parse().ok(),
        }
        .annotated(read.annotation.as_ref())
    }

    /// The move with `annotation` (where it is in the text) instead of its
    /// own.
    fn annotated(self, annotation: Option<&Spanned<Annotation>>) -> MoveFact {
        let offset = |at: usize| u32::try_from(at.saturating_sub(self.start)).unwrap_or(u32::MAX);
        MoveFact {
            annotation: annotation.map(|annotation| {
                let span = &annotation.span;
                (annotation.value, offset(span.start), offset(span.end))
            }),
            ..self
        }
    }

    /// Its SAN's span.
    fn san_span(&self) -> Span {
        self.start..self.start + self.length as usize
    }

    /// Its annotation, with where it is.
    fn annotation(&self) -> Option<Spanned<Annotation>> {
        let (annotation, start, end) = self.annotation?;
        let span = self.start + start as usize..self.start + end as usize;
        Some(Spanned::new(annotation, span))
    }

    /// Its SAN as written in `source`, with its span.
    fn written(&self, source: &Source) -> Spanned<String> {
        let span = self.san_span();
        let text = source.text().get(span.clone()).unwrap_or_default();
        Spanned::new(text.to_string(), span)
    }
}

/// What playing a move gave.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Played {
    /// Not played since it was read.
    Not,
    /// Played; it has no annotation.
    Plain,
    /// Played; its board gives an instruction with these bits.
    Instruction(Bits),
    /// Played; its board gives no instruction (an error).
    NoInstruction,
}

/// A game as the checks and lowering read it, kept for a document that
/// is being edited (see the module's documentation).
#[derive(Debug)]
pub struct PgnLines {
    /// How long the text is.
    length: usize,
    /// The main line's moves, in order.
    moves: Vec<MoveFact>,
    /// Each `FEN` tag's value, in order (the last one is the game's).
    fens: Vec<Spanned<String>>,
    /// The syntax errors, in the order the reader finds them.
    errors: Vec<Diagnostic>,
    /// The reader's state at some line starts, by offset: the first at 0.
    states: Vec<(usize, PgnState)>,
    /// How many moves are not SAN.
    not_san: usize,
    /// How many moves are written as the same side's as the move before.
    breaks: usize,
    /// How many lines have been read since [`PgnLines::new`].
    lines: usize,
    /// The game as played, kept up to date when asked for.
    replay: RefCell<Replay>,
}

/// The game as played so far.
#[derive(Debug, Default)]
struct Replay {
    /// The position it was played from (`None` before it was played).
    opening: Option<Position>,
    /// The position before some plies, by ply: the first at 0, at most
    /// [`PLAY_SPACING`] apart up to `reached`; past it, those of the game
    /// as played before a move was made illegal (see `tail`).
    positions: Vec<(usize, Position)>,
    /// What playing each move gave.
    played: Vec<Played>,
    /// How many moves were played: all of them, or the moves before the
    /// first that could not be (`stopped`).
    reached: usize,
    /// Whether move `reached` is illegal or ambiguous.
    stopped: bool,
    /// When positions past `reached` are kept (from before a move was
    /// made illegal): where the game played from them ended, as
    /// `reached` and `stopped` say.
    tail: Option<(usize, bool)>,
    /// The moves edited since they were played, if any: what was played
    /// before them is right, and what was played after them if the
    /// position before a kept one is as kept.
    dirty: Option<Range<usize>>,
    /// How many plies have been played since the game was first read.
    plies: usize,
}

impl PgnLines {
    /// The game of `source`.
    pub fn new(source: &Source) -> PgnLines {
        let mut lines = PgnLines {
            length: 0,
            moves: Vec::new(),
            fens: Vec::new(),
            errors: Vec::new(),
            states: vec![(0, PgnState::default())],
            not_san: 0,
            breaks: 0,
            lines: 0,
            replay: RefCell::new(Replay::default()),
        };
        lines.read(source, 0, 0, source.text().len());
        lines.lines = 0;
        lines
    }

    /// How many lines have been read since [`PgnLines::new`]: what the
    /// edits cost to read.
    pub fn parsed(&self) -> usize {
        self.lines
    }

    /// How many plies have been played since [`PgnLines::new`]: what the
    /// checks after edits cost to play.
    pub fn plies_played(&self) -> usize {
        self.replay.borrow().plies
    }

    /// Takes in an edit of the source (now `source`) that replaced the
    /// lines `edited` names. (Not inside [`crate::diag::building_shown_only`]:
    /// every syntax error read is kept.)
    pub fn edited(&mut self, source: &Source, edited: LinesEdited) {
        let length = source.text().len();
        let start = source.line_start(edited.first).unwrap_or(length);
        let end = (source.line_start(edited.first + edited.inserted)).unwrap_or(length);
        // Where the lines replaced ended in the text before.
        match (end + self.length).checked_sub(length) {
            Some(old_end) if old_end >= start && start <= end => {
                self.read(source, start, old_end, end)
            }
            _ => *self = PgnLines::new(source),
        }
    }

    /// Reads again what an edit changed: the bytes `start..old_end` of
    /// the text before are `start..end` of `source`'s.
    fn read(&mut self, source: &Source, start: usize, old_end: usize, end: usize) {
        let moved = Moved {
            start,
            old_end,
            end,
        };
        let kept = self.states.partition_point(|(at, _)| *at <= start);
        let (from, state) = self.states[kept.saturating_sub(1)].clone();
        // The kept states after the edit (and after `from`), where reading
        // may stop.
        let mut after = (self.states.partition_point(|(at, _)| *at < old_end)).max(kept);
        let (mut states, mut resumed, mut last) = (Vec::new(), None, from);
        let piece = syntax::parse_pgn_piece(source, from, &state, |at, now| {
            if at >= end {
                let old_at = at - end + old_end;
                while self.states.get(after).is_some_and(|(at, _)| *at < old_at) {
                    after += 1;
                }
                if let Some((at, then)) = self.states.get(after) {
                    if *at == old_at && moved.state(then).as_ref() == Some(now) {
                        resumed = Some(after);
                        return true;
                    }
                }
            }
            if at - last >= READ_SPACING {
                states.push((at, now.clone()));
                last = at;
            }
            false
        });
        let read = source.text().get(from..piece.end).unwrap_or_default();
        self.lines += read.matches('\n').count() + 1;
        // What was read before from `from` to `until` is replaced.
        let until = match resumed {
            Some(index) => self.states[index].0,
            None => self.length,
        };
        let mut later = resumed.map_or(Vec::new(), |index| self.states.split_off(index));
        self.states.truncate(kept.max(1));
        self.states.append(&mut states);
        self.states.extend(later.drain(..).map(|(at, state)| {
            let state = moved.state(&state).unwrap_or(state);
            (moved.offset(at), state)
        }));
        self.length = source.text().len();

        let replaced = starting_in(&self.moves, from..until, |m| m.start);
        let (first, last) = (replaced.start, replaced.end);
        // What is read after `until` may have annotated the move before it;
        // reading from there on is as before, so it still does.
        let carried = (last.checked_sub(1).filter(|_| resumed.is_some()))
            .and_then(|before| self.moves[before].annotation())
            .filter(|annotation| annotation.span.start >= until)
            .map(|annotation| Spanned::new(annotation.value, moved.span(&annotation.span)));
        let facts: Vec<MoveFact> = piece.moves.iter().map(MoveFact::of).collect();
        let read = facts.len();
        self.count(first..last + 1, false);
        replace(&mut self.moves, replaced, facts, |fact| {
            fact.start = moved.offset(fact.start)
        });
        // The move before may have been annotated (or no longer is).
        let mut touched = first;
        let before = first.checked_sub(1);
        if let (Some(before), Some(annotation)) = (before, piece.previous) {
            let fact = self.moves[before].annotated(annotation.as_ref());
            if self.moves[before].annotation != fact.annotation {
                self.moves[before] = fact;
                touched = before;
            }
        }
        let last_read = (first + read).checked_sub(1);
        if let (Some(carried), Some(index)) = (carried, last_read) {
            self.moves[index] = self.moves[index].annotated(Some(&carried));
            touched = touched.min(index);
        }
        self.count(first..first + read + 1, true);
        self.replay.get_mut().spliced(touched, first..last, read);

        let replaced = starting_in(&self.errors, from..until, |e| e.span.start);
        replace(&mut self.errors, replaced, piece.errors, |error| {
            error.span = moved.span(&error.span);
            for (span, _) in &mut error.secondary {
                *span = moved.span(span);
            }
        });
        let replaced = starting_in(&self.fens, from..until, |f| f.span.start);
        replace(&mut self.fens, replaced, piece.fens, |fen| {
            fen.span = moved.span(&fen.span)
        });
    }

    /// Adds (`add`) or takes away what the moves at `indices` count: not
    /// SAN, and written as the same side's as the move before.
    fn count(&mut self, indices: Range<usize>, add: bool) {
        let end = indices.end.min(self.moves.len());
        let (mut not_san, mut breaks) = (0, 0);
        for index in indices.start..end {
            let fact = &self.moves[index];
            not_san += usize::from(fact.san.is_none());
            let before = index
                .checked_sub(1)
                .and_then(|before| self.moves.get(before));
            breaks += usize::from(before.is_some_and(|before| before.white == fact.white));
        }
        if add {
            self.not_san += not_san;
            self.breaks += breaks;
        } else {
            self.not_san = self.not_san.saturating_sub(not_san);
            self.breaks = self.breaks.saturating_sub(breaks);
        }
    }

    /// What checking `source`, whose game this is, reports: what
    /// [`crate::check`] reports.
    pub fn diagnostics(&self, source: &Source) -> Diagnostics {
        let mut diagnostics = Diagnostics::default();
        if !self.errors.is_empty() {
            for error in &self.errors {
                diagnostics.push_with(error.severity, error.span.start, || error.clone());
            }
            return diagnostics;
        }
        let opening = check::opening(self.fens.last(), &mut diagnostics);
        self.check(&opening, source, &mut diagnostics);
        if diagnostics.has_errors() {
            return diagnostics;
        }
        let mut replay = self.replay.borrow_mut();
        replay.play(&self.moves, opening);
        replay.diagnose(&self.moves, source, &mut diagnostics);
        diagnostics
    }

    /// The checks before playing ([`check::check`]): the first move out
    /// of turn, and every move that is not SAN.
    fn check(&self, opening: &Position, source: &Source, diagnostics: &mut Diagnostics) {
        let white_first = opening.turn() == Color::White;
        let out_of_turn = match self.moves.first() {
            Some(first) if first.white != white_first => Some(0),
            _ if self.breaks == 0 => None,
            _ => (1..self.moves.len()).find(|&i| self.moves[i].white == self.moves[i - 1].white),
        };
        if out_of_turn.is_none() && self.not_san == 0 {
            return;
        }
        for (index, fact) in self.moves.iter().enumerate() {
            if out_of_turn == Some(index) {
                // Black's moves before this one, counted from the opening.
                let black = (index + usize::from(!white_first)) / 2;
                let due =
                    (opening.fullmoves()).saturating_add(u32::try_from(black).unwrap_or(u32::MAX));
                let white_to_move = white_first == index.is_multiple_of(2);
                let written = fact.written(source);
                let error =
                    check::out_of_turn(white_to_move, due, fact.white, fact.number, &written);
                if let Some(error) = error {
                    diagnostics.push(error);
                }
                if self.not_san == 0 {
                    return;
                }
            }
            if fact.san.is_none() {
                diagnostics.push_with(Severity::Error, fact.start, || {
                    check::not_san(&fact.written(source))
                });
            }
        }
    }
}

impl Replay {
    /// Takes in that the moves `replaced` were replaced by `read` moves
    /// (and the annotation of move `touched`, if it comes before them,
    /// changed).
    fn spliced(&mut self, touched: usize, replaced: Range<usize>, read: usize) {
        let (first, last, end) = (replaced.start, replaced.end, replaced.start + read);
        let moved = |ply: usize| ply - last + end;
        self.played
            .splice(first..last, std::iter::repeat_n(Played::Not, read));
        self.positions.retain_mut(|(ply, _)| match *ply {
            ply if ply <= first => true,
            ply if ply <= last => false,
            _ => {
                *ply = moved(*ply);
                true
            }
        });
        let ended = |(reached, stopped): (usize, bool)| match reached {
            reached if reached >= last => (moved(reached), stopped),
            reached if reached > first => (first, false),
            reached => (reached, stopped),
        };
        (self.reached, self.stopped) = ended((self.reached, self.stopped));
        self.tail = self.tail.map(ended);
        self.dirty = Some(match self.dirty.take() {
            None => touched..end,
            Some(dirty) if dirty.end >= last => dirty.start.min(touched)..moved(dirty.end),
            Some(dirty) => dirty.start.min(touched)..end,
        });
    }

    /// Plays what was edited since the game was last played (all of it if
    /// it now starts from another position than `opening`), until a kept
    /// position after the edits is reached again.
    fn play(&mut self, moves: &[MoveFact], opening: Position) {
        if self.opening.as_ref() != Some(&opening) {
            self.positions = vec![(0, opening.clone())];
            self.opening = Some(opening);
            (self.reached, self.stopped, self.tail) = (0, false, None);
            self.dirty = Some(0..moves.len());
        }
        let Some(dirty) = self.dirty.take() else {
            return;
        };
        if self.stopped && dirty.start > self.reached {
            // Edited after the move that stops the game: it still does.
            self.dirty = Some(dirty);
            return;
        }
        let from = (self.positions)
            .partition_point(|(ply, _)| *ply <= dirty.start)
            .saturating_sub(1);
        let mut later = self.positions.split_off(from + 1);
        let Some((mut ply, mut position)) = self.positions.last().cloned() else {
            return;
        };
        let edited = later.partition_point(|(ply, _)| *ply < dirty.end);
        let mut later = later.split_off(edited).into_iter().peekable();
        // How the game ended before, and the game played from the kept
        // positions past its end.
        let (ended, tail) = ((self.reached, self.stopped), self.tail.take());
        loop {
            while later.next_if(|(kept, _)| *kept < ply).is_some() {}
            if let Some((kept, then)) = later.peek() {
                if *kept == ply && then.same_for_later_moves(&position) {
                    // From here on the game is played as before.
                    (self.reached, self.stopped) = match tail {
                        Some(tail) if ply > ended.0 => tail,
                        _ => {
                            self.tail = tail;
                            ended
                        }
                    };
                    self.positions.extend(later);
                    return;
                }
            }
            let Some(fact) = moves.get(ply) else {
                (self.reached, self.stopped) = (ply, false);
                return;
            };
            let Some(chess_move) = fact.san.and_then(|san| san.to_move(&position).ok()) else {
                // The positions kept past this move stay, with how the
                // game played from them ended, for when it is legal again.
                (self.reached, self.stopped) = (ply, true);
                self.tail = if ply >= ended.0 { tail } else { Some(ended) };
                let last = if ply >= ended.0 { usize::MAX } else { ended.0 };
                (self.positions).extend(later.filter(|(kept, _)| *kept > ply && *kept <= last));
                return;
            };
            position.play(&chess_move);
            self.plies += 1;
            self.played[ply] = match fact.annotation {
                None => Played::Plain,
                Some(_) => match lower::decode(&lower::board_bits(&position.board())) {
                    Some((_, after)) => Played::Instruction(Bits::of(after)),
                    None => Played::NoInstruction,
                },
            };
            ply += 1;
            let last = self.positions.last().map_or(0, |(kept, _)| *kept);
            if ply - last >= PLAY_SPACING {
                self.positions.push((ply, position.clone()));
            }
        }
    }

    /// The position before move `ply` (at most [`Replay::reached`]).
    fn position_before(&self, moves: &[MoveFact], ply: usize) -> Position {
        let from = (self.positions)
            .partition_point(|(kept, _)| *kept <= ply)
            .saturating_sub(1);
        let Some((mut at, mut position)) = self.positions.get(from).cloned() else {
            return Position::default();
        };
        while at < ply {
            let fact = moves.get(at);
            let Some(chess_move) = fact.and_then(|f| f.san?.to_move(&position).ok()) else {
                break;
            };
            position.play(&chess_move);
            at += 1;
        }
        position
    }

    /// What lowering reports of the game as played ([`lower::play`], then
    /// [`lower::lower`]'s checks of the instructions).
    fn diagnose(&self, moves: &[MoveFact], source: &Source, diagnostics: &mut Diagnostics) {
        let played = self.played.get(..self.reached).unwrap_or_default();
        let annotated = |ply: usize| {
            let fact = moves.get(ply)?;
            Some((fact, fact.annotation()?))
        };
        for (ply, _) in (played.iter().enumerate()).filter(|(_, p)| **p == Played::NoInstruction) {
            let Some((fact, annotation)) = annotated(ply) else {
                continue;
            };
            diagnostics.push_with(Severity::Error, fact.start, || {
                let bits = lower::board_bits(&self.position_before(moves, ply + 1).board());
                let (number, white, end) = (fact.number, fact.white, annotation.span.end);
                lower::no_instruction(number, white, &fact.written(source), end, &bits)
            });
        }
        if self.stopped {
            if let Some(fact) = moves.get(self.reached) {
                let position = self.position_before(moves, self.reached);
                if let Some(san) = fact.san {
                    if let Err(error) = san.to_move(&position) {
                        let written = fact.written(source);
                        let side = if fact.white { "White" } else { "Black" };
                        diagnostics.push(lower::illegal_move(
                            &position,
                            &san,
                            error,
                            &written,
                            fact.number,
                            side,
                        ));
                    }
                }
            }
        }
        if diagnostics.has_errors() {
            return;
        }
        let mut instructions = (played.iter().enumerate())
            .filter_map(|(ply, played)| match played {
                Played::Instruction(bits) => Some((ply, moves.get(ply)?.annotation?.0, *bits)),
                _ => None,
            })
            .peekable();
        if instructions.peek().is_none() {
            diagnostics.push(lower::empty_program(source, false));
        }
        check::read_values(instructions, &Annotated(moves), diagnostics, |_, _, _| {});
    }
}

/// The annotated moves of a game, by their index: where the instructions
/// [`check::read_values`] reads come from.
struct Annotated<'a>(&'a [MoveFact]);

impl Places for Annotated<'_> {
    fn start(&self, ply: usize) -> usize {
        self.0.get(ply).map_or(0, |fact| fact.start)
    }

    fn span(&self, ply: usize) -> Span {
        let Some(fact) = self.0.get(ply) else {
            return 0..0;
        };
        let end = fact.annotation().map_or(fact.start, |a| a.span.end);
        fact.start..end
    }
}

/// Which of `kept` (in the order of where they start, `start`) start in
/// `bytes`.
fn starting_in<T>(kept: &[T], bytes: Range<usize>, start: impl Fn(&T) -> usize) -> Range<usize> {
    let first = kept.partition_point(|item| start(item) < bytes.start);
    first..first + kept[first..].partition_point(|item| start(item) < bytes.end)
}

/// Replaces `kept[replaced]` by `read`, and moves each item after them
/// (`moved`) as the edit moved the text.
fn replace<T>(kept: &mut Vec<T>, replaced: Range<usize>, read: Vec<T>, moved: impl FnMut(&mut T)) {
    let after = replaced.start + read.len();
    kept.splice(replaced, read);
    kept.get_mut(after..)
        .unwrap_or_default()
        .iter_mut()
        .for_each(moved);
}

/// How an edit moved the text: `start..old_end` of the text before is
/// `start..end` now.
#[derive(Clone, Copy, Debug)]
struct Moved {
    start: usize,
    old_end: usize,
    end: usize,
}

impl Moved {
    /// Where an offset of the text before is now (one after the edit
    /// moved, one before it kept); `None` inside what the edit replaced.
    fn at(&self, at: usize) -> Option<usize> {
        if at >= self.old_end {
            Some(at - self.old_end + self.end)
        } else {
            (at <= self.start).then_some(at)
        }
    }

    /// [`Moved::at`] for an offset known not to be inside the edit.
    fn offset(&self, at: usize) -> usize {
        self.at(at).unwrap_or(at)
    }

    /// [`Moved::offset`] for a span.
    fn span(&self, span: &Span) -> Span {
        self.offset(span.start)..self.offset(span.end)
    }

    /// A reader's state of the text before as a state of the text now;
    /// `None` if it names what the edit replaced.
    fn state(&self, state: &PgnState) -> Option<PgnState> {
        let last = match &state.last {
            Some(Some(annotation)) => {
                let span = &annotation.span;
                let span = self.at(span.start)?..self.at(span.end)?;
                Some(Some(Spanned::new(annotation.value, span)))
            }
            last => last.clone(),
        };
        Some(PgnState {
            last,
            ..state.clone()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Language;

    /// What a check from scratch of `source`'s text reports.
    fn from_scratch(source: &Source) -> Diagnostics {
        let fresh = Source::new(source.name(), source.text());
        match crate::check(&fresh, Language::Chessoteric) {
            Ok(checked) => checked.warnings,
            Err(errors) => errors,
        }
    }

    /// Whether `lines` report for `source` what a check from scratch
    /// does: every diagnostic (message, spans, order, severity), and the
    /// ones shown with how many more.
    fn as_from_scratch(lines: &PgnLines, source: &Source) -> Result<(), String> {
        let all = |d: Diagnostics| (d.len(), d.into_iter().collect::<Vec<_>>());
        let (kept, fresh) = (all(lines.diagnostics(source)), all(from_scratch(source)));
        if kept != fresh {
            return Err(format!("{kept:#?}\nfrom scratch: {fresh:#?}"));
        }
        let bounded = crate::diag::building_shown_only(|| lines.diagnostics(source));
        let expected = crate::diag::building_shown_only(|| from_scratch(source));
        let shown = |d: &Diagnostics| (d.shown().cloned().collect::<Vec<_>>(), d.not_shown());
        if shown(&bounded) != shown(&expected) {
            return Err(format!("shown: {:#?}", (shown(&bounded), shown(&expected))));
        }
        Ok(())
    }

    /// A game of knights going out and back, one move in ten annotated
    /// (`tests/support/lsp_documents.rs`'s), of `lines` lines.
    fn knights(lines: usize) -> String {
        (1..=lines)
            .map(|n| match n % 10 {
                1 => format!("{n}. Nf3! Nf6\n"),
                _ if n % 2 == 1 => format!("{n}. Nf3 Nf6\n"),
                _ => format!("{n}. Ng1 Ng8\n"),
            })
            .collect()
    }

    /// Edits the text of `source` at `range` (bytes) to `text`, and tells
    /// `lines`.
    fn edit(lines: &mut PgnLines, source: &mut Source, range: Range<usize>, text: &str) {
        let edited = source.edit(range, text);
        lines.edited(source, edited);
    }

    /// A one-line edit in the middle of a 10,000-line game (an annotation
    /// added, changed, taken away; a move mistyped and put right) reads a
    /// few lines and plays a few plies, not the game, and reports what a
    /// check from scratch does.
    #[test]
    fn a_one_line_edit_reads_a_few_lines_and_plays_a_few_plies() {
        let mut source = Source::new("t.pgn", knights(10_000));
        let mut lines = PgnLines::new(&source);
        assert_eq!(as_from_scratch(&lines, &source), Ok(()));
        assert_eq!(lines.plies_played(), 20_000);
        let middle = source.line_start(5_000).unwrap_or(0);
        let move_end = middle + "5001. Nf3".len();
        let edits: [(Range<usize>, &str); 5] = [
            (move_end..move_end, "!"),
            (move_end..move_end + 1, "?"),
            (move_end..move_end + 1, ""),
            (move_end..move_end, "3"),
            (move_end..move_end + 1, ""),
        ];
        // The longest reading: from the kept state before the line to the
        // one after it; the longest playing: from the kept position
        // before the move to the one after it.
        let (shortest, longest) = ("1. Nf3 Nf6\n".len(), "10000. Ng1 Ng8\n".len());
        let read_at_most = 2 * (READ_SPACING + longest) / shortest + 2;
        let played_at_most = 2 * PLAY_SPACING + 2;
        for (range, text) in edits {
            let (parsed, played) = (lines.parsed(), lines.plies_played());
            edit(&mut lines, &mut source, range.clone(), text);
            assert_eq!(as_from_scratch(&lines, &source), Ok(()), "{range:?} {text}");
            let parsed = lines.parsed() - parsed;
            let played = lines.plies_played() - played;
            assert!(parsed <= read_at_most, "{parsed} lines read for {text:?}");
            assert!(
                played <= played_at_most,
                "{played} plies played for {text:?}"
            );
        }
    }

    /// Moves added that take the game elsewhere (pawns moved, the knights
    /// still going out and back) play the rest of it again, and so does
    /// taking them away (the positions kept are the other game's). A move
    /// made illegal stops the game; made legal again, the game is played
    /// until it is as before (the positions past the stop are kept).
    #[test]
    fn moves_that_change_the_rest_of_the_game_play_it_again() {
        let mut source = Source::new("t.pgn", knights(1_000));
        let mut lines = PgnLines::new(&source);
        assert_eq!(as_from_scratch(&lines, &source), Ok(()));
        let line = source.line_start(500).unwrap_or(0);
        let pawns = "a3 a6\n";
        // A move of "501. Nf3! Nf6" changed: the knight on g1 cannot go
        // back by 502. Ng1.
        let knight = line + "501. ".len();
        let edits: [(Range<usize>, &str, Range<usize>); 4] = [
            (line..line, pawns, 1_002..1_003),
            (line..line + pawns.len(), "", 1_000..1_001),
            (knight..knight + 3, "Nc3", 0..2 * PLAY_SPACING + 3),
            (knight..knight + 3, "Nf3", 0..2 * PLAY_SPACING + 3),
        ];
        for (range, text, plies) in edits {
            let played = lines.plies_played();
            edit(&mut lines, &mut source, range, text);
            assert_eq!(as_from_scratch(&lines, &source), Ok(()), "{text}");
            let played = lines.plies_played() - played;
            assert!(
                plies.contains(&played),
                "{played} plies played for {text:?}"
            );
        }
    }

    /// A line of a game, often a wrong one: knights' moves that are legal
    /// from some positions (annotated, numbered, sometimes out of turn),
    /// comments and variations over several lines, tags, results, NAGs,
    /// annotations apart from their move, text that is not SAN.
    fn game_line() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::sample::select(
            &[
                "Nf3 Nf6",
                "Ng1 Ng8",
                "Nf3! Nf6",
                "Ng1 Ng8?",
                "Nf3 Nf6 Ng1 Ng8",
                "Nc3!! Nc6??",
                "Nb1 Nb8",
                "Nf3 $2 Nf6",
                "7. Nf3 Nf6",
                "7... Nf6",
                "Nf3",
                "!",
                "{ a comment }",
                "{ opened",
                "closed }",
                "(1. e4 e5)",
                "[Event \"x\"]",
                "[FEN \"8/8/8/8/8/8/8/KN5k w - - 0 1\"]",
                "Nc3! Kg2",
                "Nb1 Kh1?",
                "Xy3",
                "$6",
                "; rest",
                "1-0",
                "",
            ][..],
        )
        .prop_map(str::to_string)
    }

    use proptest::strategy::Strategy;

    /// An edit: where in the text it starts (a share of its length), how
    /// many bytes it replaces, and what it puts there.
    fn game_edit() -> impl proptest::strategy::Strategy<Value = (f64, usize, String)> {
        let text = proptest::prop_oneof![
            6 => proptest::sample::select(&[
                "", "\n", "Nf3", "Ng1", "!", "?", " Nf6\n", "{", "}", "1-0", " ", "6",
                "Ng1 Ng8\nNf3 Nf6\n", "[FEN \"8/8/8/8/8/8/8/KN5k w - - 0 1\"]\n", "e4",
            ][..]).prop_map(str::to_string),
            1 => "[ -~\n]{0,6}",
        ];
        (
            0.0..1.0f64,
            proptest::prop_oneof![4 => 0..3usize, 1 => 0..40usize, 1 => Just(usize::MAX)],
            text,
        )
    }

    use proptest::strategy::Just;

    proptest::proptest! {
        /// A game after any edits reports what a check from scratch does.
        #[test]
        fn edited_games_report_what_a_check_from_scratch_does(
            lines in proptest::collection::vec(game_line(), 0..40),
            edits in proptest::collection::vec(game_edit(), 1..12),
        ) {
            let mut source = Source::new("t.pgn", lines.join("\n"));
            let mut kept = PgnLines::new(&source);
            proptest::prop_assert_eq!(as_from_scratch(&kept, &source), Ok(()));
            for (at, length, text) in edits {
                let start = (at * source.text().len() as f64) as usize;
                edit(&mut kept, &mut source, start..start.saturating_add(length), &text);
                proptest::prop_assert_eq!(as_from_scratch(&kept, &source), Ok(()));
            }
        }

        /// So does a game kept legal by its edits: knights out and back,
        /// whole lines added and taken away, annotations added and changed
        /// (so that the game is played again, and found where it was).
        #[test]
        fn edited_legal_games_report_what_a_check_from_scratch_does(
            pairs in 10..80usize,
            edits in proptest::collection::vec((0..80usize, 0..3usize, proptest::sample::select(&[
                "", "Nf3 Nf6\nNg1 Ng8\n", "Nf3! Nf6??\nNg1 Ng8\n", "Nc3 Nc6\nNb1! Nb8\n",
            ][..])), 1..12),
        ) {
            let mut source = Source::new("t.pgn", knights(2 * pairs));
            let mut kept = PgnLines::new(&source);
            for (line, removed, text) in edits {
                let start = source.line_start(line).unwrap_or(source.text().len());
                let end = source.line_start(line + removed).unwrap_or(source.text().len());
                edit(&mut kept, &mut source, start..end, text);
                proptest::prop_assert_eq!(as_from_scratch(&kept, &source), Ok(()));
            }
        }
    }
}
