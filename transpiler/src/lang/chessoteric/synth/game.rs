//! Writing the game: the opening, then the planned plies, as PGN movetext
//! with annotations (and comments naming the values), checked by playing
//! it back through the front end.

use std::fmt::Write as _;

use super::super::chess::{Color, Move, Position};
use super::super::ir::Machine;
use super::super::san::{write_and_play, San};
use super::super::syntax::Annotation;
use super::area::writing_area;
use super::beam::{self, width_for};
use super::design::{Design, WHOLE_BOARD_STARTS};
use super::search::{plan, Expanded};
use super::targets::{Progress, Target};
use super::{Ply, SynthError, SynthOptions, Synthesis};
use crate::lang::FrontEnd as _;
use crate::source::Source;

/// The game of `design` (not [`Design::Best`]) that writes `targets`.
pub(super) fn write_game(
    design: Design,
    targets: &[Target],
    options: SynthOptions,
    report: &mut dyn FnMut(&str),
) -> Result<Synthesis, SynthError> {
    // A machine with nothing to write still gets a move pair, unannotated:
    // readers of PGN expect at least one move before the result.
    let (opening, plies) = match design {
        _ if targets.is_empty() => (&design.opening()[..2], Vec::new()),
        Design::WholeBoard => on_the_whole_board(targets, report)?,
        _ => in_the_area(design, targets, report)?,
    };
    game_of(opening, &plies, targets, options.annotate)
}

/// The game of `opening` and then `plies`, which write `targets`
/// (annotated: with tags, and a comment after each annotated move).
pub(super) fn game_of(
    opening: &[&str],
    plies: &[Ply],
    targets: &[Target],
    annotate: bool,
) -> Result<Synthesis, SynthError> {
    let mut position = Position::default();
    let mut movetext = Movetext::new(annotate);
    for &m in &played(opening)? {
        movetext.ply(&mut position, &m, None);
    }
    let mut annotated = 0;
    for ply in plies {
        let comment = ply.writes.map(|written| {
            annotated += 1;
            let target = &targets[written.target];
            let digits = match target.digits.len {
                0 => "0".to_string(),
                _ => target.digits.to_string(),
            };
            (
                written.annotation,
                format!("{}: writes {} of {digits}", target.what, written.bits),
            )
        });
        let writes = comment.as_ref().map(|(a, text)| (*a, text.as_str()));
        movetext.ply(&mut position, &ply.m, writes);
    }
    Ok(Synthesis {
        plies: movetext.plies,
        pgn: movetext.finish(),
        annotated,
        bits: targets.iter().map(|t| t.digits.len as usize).sum(),
    })
}

/// The moves of `opening` (SAN from the standard position).
fn played(opening: &[&str]) -> Result<Vec<Move>, SynthError> {
    let mut position = Position::default();
    let mut moves = Vec::with_capacity(opening.len());
    for san in opening {
        let m = san
            .parse::<San>()
            .ok()
            .and_then(|san| san.to_move(&position).ok())
            .ok_or(SynthError::NoPlan)?;
        position.play(&m);
        moves.push(m);
    }
    Ok(moves)
}

/// The position after `opening` (SAN from the standard position).
pub(super) fn position_after(opening: &[&str]) -> Result<Position, SynthError> {
    let mut position = Position::default();
    for m in played(opening)? {
        position.play(&m);
    }
    Ok(position)
}

/// An area design's opening, and the plies that write `targets` in its
/// writing area.
fn in_the_area(
    design: Design,
    targets: &[Target],
    report: &mut dyn FnMut(&str),
) -> Result<(&'static [&'static str], Vec<Ply>), SynthError> {
    let opening = design.opening();
    let area = writing_area(design, &position_after(opening)?)?;
    let bits: u32 = targets.iter().map(|t| t.digits.len).sum();
    report(&format!(
        "writing area: {} positions, {} readings ({design:?}); planning {} values ({bits} bits)",
        area.nodes.len(),
        area.readings.len(),
        targets.len()
    ));
    let mut expanded = Expanded::default();
    let plies = plan(area, targets, &mut expanded, report)?;
    report(&format!(
        "{design:?}: {} plies, {} search states expanded",
        plies.len() + opening.len(),
        expanded.0
    ));
    Ok((opening, plies))
}

/// The plies that write `targets` on the whole board: a beam search from
/// each of [`WHOLE_BOARD_STARTS`], on a thread each; the shortest game
/// (the first of equally short ones, so the game is the same every time).
fn on_the_whole_board(
    targets: &[Target],
    report: &mut dyn FnMut(&str),
) -> Result<(&'static [&'static str], Vec<Ply>), SynthError> {
    let bits: usize = targets.iter().map(|t| t.digits.len as usize).sum();
    let width = width_for(bits);
    report(&format!(
        "whole board: a beam of {width} positions a ply from {} starts; planning {} values ({bits} bits)",
        WHOLE_BOARD_STARTS.len(),
        targets.len()
    ));
    let progress = Progress::new(targets);
    let starts = WHOLE_BOARD_STARTS.map(position_after);
    let games: Vec<Option<Vec<Ply>>> = std::thread::scope(|scope| {
        let searches: Vec<_> = starts
            .iter()
            .map(|start| {
                let progress = &progress;
                scope.spawn(move || beam::search(start.as_ref().ok()?, progress, width))
            })
            .collect();
        searches
            .into_iter()
            .map(|search| search.join().ok().flatten())
            .collect()
    });
    let best = WHOLE_BOARD_STARTS
        .into_iter()
        .zip(games)
        .filter_map(|(opening, game)| Some((opening, game?)))
        .min_by_key(|(opening, plies)| opening.len() + plies.len())
        .ok_or(SynthError::Stuck)?;
    report(&format!(
        "WholeBoard: {} plies",
        best.0.len() + best.1.len()
    ));
    Ok(best)
}

/// The result token every synthesized game ends with.
const RESULT: &str = "1/2-1/2";

/// PGN movetext being written: move numbers, SAN with annotations,
/// comments, lines of at most 79 characters.
struct Movetext {
    annotate: bool,
    lines: Vec<String>,
    line: String,
    plies: usize,
    /// A comment came last, so Black's next move needs `N...`.
    after_comment: bool,
}

impl Movetext {
    fn new(annotate: bool) -> Movetext {
        Movetext {
            annotate,
            lines: Vec::new(),
            line: String::new(),
            plies: 0,
            after_comment: false,
        }
    }

    fn token(&mut self, token: &str) {
        if !self.line.is_empty() && self.line.len() + 1 + token.len() > 79 {
            self.lines.push(std::mem::take(&mut self.line));
        }
        if !self.line.is_empty() {
            self.line.push(' ');
        }
        self.line.push_str(token);
    }

    /// Plays `m` from `position` and writes it, annotated if `writes`.
    fn ply(&mut self, position: &mut Position, m: &Move, writes: Option<(Annotation, &str)>) {
        let number = position.fullmoves();
        let white = position.turn() == Color::White;
        let san = write_and_play(position, m);
        let mut token = String::new();
        if white {
            let _ = write!(token, "{number}. ");
        } else if self.after_comment || self.plies == 0 {
            let _ = write!(token, "{number}... ");
        }
        let _ = write!(token, "{san}");
        if let Some((annotation, _)) = writes {
            token.push_str(annotation.suffix());
        }
        self.token(&token);
        self.plies += 1;
        self.after_comment = false;
        if let (true, Some((_, what))) = (self.annotate, writes) {
            self.token(&format!("{{{what}}}"));
            self.after_comment = true;
        }
    }

    fn finish(mut self) -> String {
        self.token(RESULT);
        self.lines.push(self.line);
        let mut pgn = String::new();
        if self.annotate {
            for (name, value) in [
                ("Event", "chess2rs synth"),
                ("Site", "?"),
                ("Date", "????.??.??"),
                ("Round", "?"),
                ("White", "?"),
                ("Black", "?"),
                ("Result", RESULT),
            ] {
                let _ = writeln!(pgn, "[{name} \"{value}\"]");
            }
            pgn.push('\n');
        }
        for line in self.lines {
            pgn.push_str(&line);
            pgn.push('\n');
        }
        pgn
    }
}

/// Plays `pgn` through the Chessoteric front end and compares its machine
/// with `machine` (rules in any order, the same tape).
pub(super) fn verify(pgn: &str, machine: &Machine) -> Result<(), SynthError> {
    let source = Source::new("synthesized.pgn", pgn);
    let (played, _) = super::super::Stages::front_end(&source).map_err(|diagnostics| {
        let first = diagnostics.errors().next();
        SynthError::Verification(format!(
            "the front end refused it: {}",
            first.map_or("no message", |d| d.message.as_str())
        ))
    })?;
    if played.rule_effects() != machine.rule_effects() {
        return Err(SynthError::Verification("the rules differ".into()));
    }
    if played.tape != machine.tape {
        return Err(SynthError::Verification("the tapes differ".into()));
    }
    Ok(())
}
