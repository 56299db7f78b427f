//! Finvara: fairy chess driving two stacks (`../shared/spec/finvara.md`).
//!
//! syntax (text → tree, the notation as an AST) → check (diagnostics) →
//! lower (notation → path tables per piece type, colour and square) →
//! codegen (the tables as constants, a `match` arm per move line) or
//! interp (the same tables in memory, with an optional trace).

pub mod check;
pub mod codegen;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod syntax;

use crate::diag::Diagnostics;
use crate::source::Source;

/// Parses, checks and lowers a program: the IR and its warnings, or every
/// error found.
pub fn front_end(source: &Source) -> Result<(ir::Program, Diagnostics), Diagnostics> {
    let tree = syntax::parse(source)?;
    let diagnostics = check::check(&tree);
    if diagnostics.has_errors() {
        return Err(diagnostics);
    }
    let program = lower::lower(&tree, source.name()).map_err(Diagnostics::from)?;
    Ok((program, diagnostics))
}
