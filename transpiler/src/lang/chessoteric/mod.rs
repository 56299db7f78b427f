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

use crate::diag::{Diagnostic, Diagnostics};
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
    let (assembled, mut warnings) = check::assemble(&instructions)?;
    if instructions.is_empty() {
        warnings.push(empty_program(source, btm));
    }
    Ok((lower::lower(&assembled, source), warnings))
}

/// Chessoteric's stages for games (`.pgn`).
pub struct Stages;

/// Chessoteric's stages for BTM listings (`.btm`): only the front end
/// differs.
pub struct BtmStages;

impl super::Stages for Stages {
    type Program = ir::Machine;

    fn front_end(source: &Source) -> Result<(ir::Machine, Diagnostics), Diagnostics> {
        front_end(source, false)
    }

    fn generate(
        machine: &ir::Machine,
        items: &mut dyn crate::split::Items,
    ) -> proc_macro2::TokenStream {
        codegen::generate(machine, items)
    }

    fn interpret<R: std::io::BufRead, W: std::io::Write>(
        machine: &ir::Machine,
        io: &mut chess2rs_runtime::__private::Io<R, W>,
        steps: &mut chess2rs_runtime::__private::StepCounter,
    ) -> Result<(), chess2rs_runtime::RuntimeError> {
        interp::run(machine, io, steps)
    }

    /// A Turing machine's errors (the step limit, input) belong to no line.
    fn error_lines(_: &ir::Machine) -> Vec<u32> {
        Vec::new()
    }
}

impl super::Stages for BtmStages {
    type Program = ir::Machine;

    fn front_end(source: &Source) -> Result<(ir::Machine, Diagnostics), Diagnostics> {
        front_end(source, true)
    }

    fn generate(
        machine: &ir::Machine,
        items: &mut dyn crate::split::Items,
    ) -> proc_macro2::TokenStream {
        <Stages as super::Stages>::generate(machine, items)
    }

    fn interpret<R: std::io::BufRead, W: std::io::Write>(
        machine: &ir::Machine,
        io: &mut chess2rs_runtime::__private::Io<R, W>,
        steps: &mut chess2rs_runtime::__private::StepCounter,
    ) -> Result<(), chess2rs_runtime::RuntimeError> {
        <Stages as super::Stages>::interpret(machine, io, steps)
    }

    fn error_lines(machine: &ir::Machine) -> Vec<u32> {
        <Stages as super::Stages>::error_lines(machine)
    }
}

/// The warning for a game with no annotated move (or an empty listing): a
/// machine with no rules and a blank tape, which halts at once and prints
/// nothing.
fn empty_program(source: &Source, btm: bool) -> Diagnostic {
    let end = source.text().len();
    let start = source.text().trim_end().len().min(end);
    let (what, help) = if btm {
        (
            "this listing has no instruction",
            "each line is `1`, the instruction's bits, and `!`, `?`, `!!` or `??`",
        )
    } else {
        (
            "no move of this game is annotated",
            "annotations build the program: `!` starts a rule part, `?` a tape symbol, `!!`/`??` continue them (e.g. `5. Qg8!`)",
        )
    };
    Diagnostic::warning(
        format!("{what}: the program is empty (it halts at once and prints nothing)"),
        start.saturating_sub(1).min(start)..start,
    )
    .with_label("the program ends here")
    .with_help(help)
}
