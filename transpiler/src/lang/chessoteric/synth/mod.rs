//! Machine → game (`chess2rs synth`): a legal chess game from the standard
//! starting position whose annotated moves build a given machine.
//!
//! An annotated position gives bits only when its occupied squares, read
//! a1…h8 as white = 1 and black = 0, are white pieces, then black pieces,
//! then a white *marker*, then the bits (`lower::decode`). A ply is
//! annotated when the bits of the position it reaches are the next bits
//! to write (a value's first bits with `!`/`?`, the rest with `!!`/`??`,
//! leading zeros of a value being free), else it is a plain move towards
//! a position that is. Two kinds of design find the plies:
//!
//! - **The whole board** (`beam`, the default's usual winner): a beam
//!   search over the positions of the game itself, any legal move of any
//!   piece allowed, from the standard position or from the corner
//!   design's marker. The search sets up a marker and writing pieces of
//!   both sides on its own, and changes them while it writes.
//! - **Writing areas** (corner, king's walk): a fixed opening sets up a
//!   marker and a few pieces of each side that can step into the squares
//!   after it and back out, while all other pieces keep the
//!   white-then-black order. The positions reachable in the area by the
//!   moves of its pieces (no captures, no pawn moves) form a small graph,
//!   explored once with the chess rules; an A* search over pairs
//!   (position, progress through the values to write), its lower bound
//!   counting the plies between readings (`bound`), finds the fewest
//!   plies that write a window of values, window by window.
//!
//! The result is played back through the normal Chessoteric front end and
//! its machine compared with the one asked for before anything is printed.
//!
//! The code: `design` (the openings and their areas' squares), `area`
//! (exploring a writing area), `targets` (the values as bits and the
//! progress through them), `bound` (the A* search's lower bound),
//! `search` (the A* search), `beam` (the whole board's search) and `game`
//! (writing and checking the PGN).

mod area;
mod beam;
mod bound;
mod design;
mod game;
mod search;
mod targets;
#[cfg(test)]
mod tests;

use super::chess::Move;
use super::ir::Machine;
use game::{verify, write_game};
use targets::{targets, Written};

pub use design::{Design, KINGS_WALK_OPENING, OPENING};

/// What `synth` adds to the movetext.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SynthOptions {
    /// The seven standard tag pairs before the movetext, and after each
    /// annotated move a comment naming the value it writes.
    pub annotate: bool,
    /// Which writing design to use.
    pub design: Design,
}

/// A synthesized game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Synthesis {
    /// The game as PGN text, ending with a newline.
    pub pgn: String,
    /// Plies in the game (the opening's included).
    pub plies: usize,
    /// Annotated plies.
    pub annotated: usize,
    /// Significant bits written (all values' binary digits).
    pub bits: usize,
}

impl Synthesis {
    /// Full moves in the game (a ply of White and one of Black each).
    pub fn moves(&self) -> usize {
        self.plies.div_ceil(2)
    }
}

/// One ply after the opening, and what it writes if annotated.
#[derive(Clone, Debug)]
struct Ply {
    m: Move,
    writes: Option<Written>,
}

/// Why a machine was not synthesized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SynthError {
    /// The search found no way to write the values. A bug in chess2rs.
    NoPlan,
    /// The whole board's search got stuck: no state of its beam could
    /// write the next value (under [`Design::Best`], the corner design's
    /// game is kept).
    Stuck,
    /// The game did not play back to the machine asked for. A bug in
    /// chess2rs; the text says what differed.
    Verification(String),
}

impl std::fmt::Display for SynthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SynthError::NoPlan => write!(
                f,
                "the writing area cannot write these values (a chess2rs bug)"
            ),
            SynthError::Stuck => write!(
                f,
                "the whole-board search found no game for these values (`--design corner` always finds one)"
            ),
            SynthError::Verification(what) => write!(
                f,
                "the synthesized game does not build the machine: {what} (a chess2rs bug)"
            ),
        }
    }
}

impl std::error::Error for SynthError {}

/// Writes a game whose annotated moves build `machine`, checked by playing
/// it back. `report` receives progress messages for a long synthesis.
pub fn synthesize(
    machine: &Machine,
    options: SynthOptions,
    report: &mut dyn FnMut(&str),
) -> Result<Synthesis, SynthError> {
    let targets = targets(machine);
    let synthesis = match options.design {
        Design::Best => {
            let corner = write_game(Design::Corner, &targets, options, report)?;
            match write_game(Design::WholeBoard, &targets, options, report) {
                Ok(whole) if whole.plies < corner.plies => whole,
                Ok(_) | Err(SynthError::Stuck) => corner,
                Err(other) => return Err(other),
            }
        }
        design => write_game(design, &targets, options, report)?,
    };
    verify(&synthesis.pgn, machine)?;
    Ok(synthesis)
}
