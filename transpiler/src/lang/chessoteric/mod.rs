//! Chessoteric (`.pgn`) and BTM (`.btm`): a chess game whose annotated
//! positions encode a Turing machine (`docs/languages.md`).
//!
//! syntax (PGN or BTM text → tree) → check (play the game with shakmaty,
//! read instructions, assemble parts and symbols) → lower (→ the machine)
//! → codegen (per-state code with scans over the tape) or interp. The two
//! front ends share everything after the instructions.

pub mod check;
pub mod codegen;
pub mod explain;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod syntax;

use crate::diag::Diagnostics;
use crate::source::Source;

/// The instructions of a game (`btm` false) or of a BTM listing.
pub fn instructions(source: &Source, btm: bool) -> Result<Vec<check::Instruction>, Diagnostics> {
    if btm {
        Ok(check::from_btm(&syntax::parse_btm(source)?))
    } else {
        check::play(&syntax::parse_pgn(source)?)
    }
}

/// Parses, checks and lowers a game or BTM listing: the machine and its
/// warnings, or every error found.
pub fn front_end(source: &Source, btm: bool) -> Result<(ir::Machine, Diagnostics), Diagnostics> {
    let instructions = instructions(source, btm)?;
    let (assembled, warnings) = check::assemble(&instructions)?;
    Ok((lower::lower(&assembled, source), warnings))
}
