//! Chess Code: Brainfuck-like cells in move notation
//! (`docs/languages.md`).
//!
//! syntax (text → tree) → check (diagnostics, loop matching) → lower (tree
//! → IR of nested loops) → codegen (IR → Rust tokens; a large program's
//! tables: table) or interp (IR → run).

pub mod check;
pub mod closed_form;
pub mod codegen;
pub mod format;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod outline;
pub mod syntax;
pub mod table;

use crate::diag::Diagnostics;
use crate::runtime_errors::CommandSite;
use crate::source::Source;

/// The IR of `text` (`t.chc`), which must parse, for unit tests.
#[cfg(test)]
fn lowered(text: &str) -> ir::Program {
    let source = Source::new("t.chc", text);
    let tree = syntax::parse(&source).expect("parses");
    let (matches, _) = check::check(&tree);
    lower::lower(&tree, &matches, "t.chc")
}

/// Chess Code's stages.
pub struct Stages;

impl super::FrontEnd for Stages {
    type Tree = syntax::Program;
    /// Which label each loop condition goes back to.
    type Facts = check::LoopMatches;
    type Program = ir::Program;

    const RENAMABLE: &'static str = "Chess Code has no names to rename: a loop label is always `1/2 1/2`, and the cells (a1 to h8) and variables (R, N, B, Q, K) are fixed";

    fn parse(source: &Source) -> Result<syntax::Program, Diagnostics> {
        syntax::parse(source)
    }

    fn check(tree: &syntax::Program) -> (check::LoopMatches, Diagnostics) {
        check::check(tree)
    }

    /// Lowering cannot fail once the checks pass.
    fn lower(
        tree: &syntax::Program,
        matches: check::LoopMatches,
        source: &Source,
        _: &mut Diagnostics,
    ) -> Option<ir::Program> {
        Some(lower::lower(tree, &matches, source.name()))
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
        interp::run_traced(self, io, steps, &mut |line, text, cells, vars| {
            observe(&interp::Traced {
                line,
                text,
                cells,
                vars,
            })
        })
    }

    fn error_sites(&self) -> Vec<CommandSite> {
        ir::command_sites(&self.body)
    }
}
