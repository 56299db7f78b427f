//! InfChessPro: an infinite chess board with goto lines
//! (`docs/languages.md`).
//!
//! syntax (text → tree) → check (diagnostics) → lower (tree → IR) →
//! codegen (IR → Rust tokens) or interp (IR → run).

pub mod check;
pub mod codegen;
pub mod complete;
pub mod format;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod outline;
pub mod rename;
pub mod syntax;

use crate::diag::Diagnostics;
use crate::runtime_errors::CommandSite;
use crate::source::Source;

/// InfChessPro's stages.
pub struct Stages;

impl super::FrontEnd for Stages {
    type Tree = syntax::Program;
    type Facts = ();
    type Program = ir::Program;

    const RENAMABLE: &'static str =
        "line labels (with the jumps to them) and piece names can be renamed";

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

    fn outline(tree: Option<&syntax::Program>, source: &Source) -> crate::outline::Outline {
        outline::outline(tree, source)
    }

    fn format(
        source: &Source,
        options: &crate::format::FormatOptions,
    ) -> Result<crate::format::Formatted, Diagnostics> {
        format::format(source, options)
    }

    fn renaming(
        tree: &syntax::Program,
        source: &Source,
        offset: usize,
    ) -> Option<crate::rename::Renaming> {
        rename::renaming(tree, source, offset)
    }

    fn completions(source: &Source, offset: usize) -> Vec<crate::complete::Completion> {
        complete::completions(source, offset)
    }
}

impl super::BackEnd for ir::Program {
    fn generate(&self, items: &mut dyn crate::split::Items) -> proc_macro2::TokenStream {
        codegen::generate(self, items)
    }

    fn interpret_observed<R: std::io::BufRead, W: std::io::Write, O>(
        &self,
        io: &mut chess2rs_runtime::__private::Io<R, W>,
        steps: &mut chess2rs_runtime::__private::StepCounter,
        observe: &mut O,
    ) -> Result<(), chess2rs_runtime::RuntimeError>
    where
        O: FnMut(&dyn crate::picture::Step) + ?Sized,
    {
        interp::run_traced(self, io, steps, &mut |line, ok, board| {
            observe(&interp::Traced {
                program: self,
                line,
                succeeded: ok,
                board,
            })
        })
    }

    fn error_sites(&self) -> Vec<CommandSite> {
        self.lines
            .iter()
            .map(|line| CommandSite::line(line.source_line, line.span.clone()))
            .collect()
    }
}
