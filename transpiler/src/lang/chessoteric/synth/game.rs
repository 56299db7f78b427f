//! Writing the game: the opening, then the planned plies, as PGN movetext
//! with annotations (and comments naming the values), checked by playing
//! it back through the front end.

use std::fmt::Write as _;

use super::super::chess::{Color, Move, Position};
use super::super::ir::Machine;
use super::super::san::{write_and_play, San};
use super::super::syntax::Annotation;
use super::area::writing_area;
use super::design::Design;
use super::search::{plan, Budget};
use super::targets::Target;
use super::{SynthError, SynthOptions, Synthesis};
use crate::lang::FrontEnd as _;
use crate::source::Source;

/// The game of `design` (not [`Design::Best`]) that writes `targets`,
/// its searches expanding at most `budget` states.
pub(super) fn write_game(
    design: Design,
    targets: &[Target],
    options: SynthOptions,
    budget: Option<u64>,
    report: &mut dyn FnMut(&str),
) -> Result<Synthesis, SynthError> {
    let bits = targets.iter().map(|t| t.digits.len as usize).sum();
    let mut position = Position::default();
    let mut movetext = Movetext::new(options.annotate);
    let mut annotated = 0;
    // A machine with nothing to write still gets a move pair, unannotated:
    // readers of PGN expect at least one move before the result.
    let opening = design.opening();
    let opening = if targets.is_empty() {
        &opening[..2]
    } else {
        opening
    };
    for san in opening {
        let m = san
            .parse::<San>()
            .ok()
            .and_then(|san| san.to_move(&position).ok())
            .ok_or(SynthError::NoPlan)?;
        movetext.ply(&mut position, &m, None);
    }
    if !targets.is_empty() {
        let area = writing_area(design, &position)?;
        report(&format!(
            "writing area: {} positions, {} readings ({design:?}); planning {} values ({bits} bits)",
            area.nodes.len(),
            area.readings.len(),
            targets.len()
        ));
        let mut budget = Budget::new(budget);
        let plies = plan(area, targets, &mut budget, report)?;
        report(&format!(
            "{design:?}: {} plies, {} search states expanded",
            plies.len() + opening.len(),
            budget.spent
        ));
        for ply in plies {
            let comment = ply.writes.map(|(annotation, target, _)| {
                annotated += 1;
                let target = &targets[target];
                let digits = match target.digits.len {
                    0 => "0".to_string(),
                    _ => target.digits.to_string(),
                };
                let bits = area.nodes[ply.to as usize].bits.map(|b| b.to_string());
                let bits = bits.unwrap_or_default();
                (
                    annotation,
                    format!("{}: writes {bits} of {digits}", target.what),
                )
            });
            let writes = comment.as_ref().map(|(a, text)| (*a, text.as_str()));
            movetext.ply(&mut position, &ply.m, writes);
        }
    }
    Ok(Synthesis {
        plies: movetext.plies,
        pgn: movetext.finish(),
        annotated,
        bits,
    })
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
