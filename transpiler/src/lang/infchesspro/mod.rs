//! InfChessPro: an infinite chess board with goto lines
//! (`docs/languages.md`).
//!
//! syntax (text → tree) → check (diagnostics) → lower (tree → IR) →
//! codegen (IR → Rust tokens) or interp (IR → run).

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
    Ok((lower::lower(&tree, source.name()), diagnostics))
}
