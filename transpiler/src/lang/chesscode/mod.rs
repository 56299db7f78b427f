//! Chess Code: Brainfuck-like cells in move notation
//! (`docs/languages.md`).
//!
//! syntax (text → tree) → check (diagnostics, loop matching) → lower (tree
//! → IR of nested loops) → codegen (IR → Rust tokens) or interp (IR → run).

pub mod check;
pub mod closed_form;
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
    let (diagnostics, matches) = check::check(&tree);
    if diagnostics.has_errors() {
        return Err(diagnostics);
    }
    Ok((lower::lower(&tree, &matches, source.name()), diagnostics))
}
