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
pub mod outline;
pub mod syntax;

use crate::diag::Diagnostics;
use crate::runtime_errors::ErrorSite;
use crate::source::Source;

/// InfChessPro's stages.
pub struct Stages;

impl super::Stages for Stages {
    type Tree = syntax::Program;
    type Facts = ();
    type Program = ir::Program;

    fn parse(source: &Source) -> Result<syntax::Program, Diagnostics> {
        syntax::parse(source)
    }

    fn check(tree: &syntax::Program) -> ((), Diagnostics) {
        ((), check::check(tree))
    }

    /// Lowering cannot fail once the checks pass.
    fn lower(
        tree: &syntax::Program,
        (): (),
        source: &Source,
        _: &mut Diagnostics,
    ) -> Option<ir::Program> {
        Some(lower::lower(tree, source))
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

    fn interpret_observed<R: std::io::BufRead, W: std::io::Write, O>(
        program: &ir::Program,
        io: &mut chess2rs_runtime::__private::Io<R, W>,
        steps: &mut chess2rs_runtime::__private::StepCounter,
        observe: &mut O,
    ) -> Result<(), chess2rs_runtime::RuntimeError>
    where
        O: FnMut(&dyn crate::picture::Step) + ?Sized,
    {
        interp::run_traced(program, io, steps, &mut |line, ok, board| {
            observe(&interp::Traced {
                program,
                line,
                succeeded: ok,
                board,
            })
        })
    }

    fn outline(source: &Source) -> crate::outline::Outline {
        outline::outline(source)
    }

    fn error_sites(program: &ir::Program) -> Vec<ErrorSite> {
        ErrorSite::lines(program.lines.iter().map(|l| l.source_line))
    }
}
