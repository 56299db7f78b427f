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

/// InfChessPro's stages.
pub struct Stages;

impl super::Stages for Stages {
    type Program = ir::Program;

    fn front_end(source: &Source) -> Result<(ir::Program, Diagnostics), Diagnostics> {
        front_end(source)
    }

    fn generate(
        program: &ir::Program,
        items: &mut dyn crate::split::Items,
    ) -> proc_macro2::TokenStream {
        codegen::generate(program, items)
    }

    fn interpret<R: std::io::BufRead, W: std::io::Write>(
        program: &ir::Program,
        io: &mut chess2rs_runtime::__private::Io<R, W>,
        steps: &mut chess2rs_runtime::__private::StepCounter,
    ) -> Result<(), chess2rs_runtime::RuntimeError> {
        interp::run(program, io, steps)
    }

    fn error_lines(program: &ir::Program) -> Vec<u32> {
        program.lines.iter().map(|l| l.source_line).collect()
    }
}
