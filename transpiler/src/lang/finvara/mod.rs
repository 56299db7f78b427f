//! Finvara: fairy chess driving two stacks (`docs/languages.md`).
//!
//! syntax (text → tree, the notation as an AST) → check (diagnostics) →
//! lower (each notation → an automaton over leaps; each move line → its
//! few geometric paths, or a search at run time) → codegen (the automata as
//! constants, a `match` arm per move line trying its paths in order) or
//! interp (a search per move, with an optional trace).

pub mod automaton;
pub mod check;
pub mod classes;
pub mod codegen;
pub mod complete;
pub mod format;
pub mod interp;
pub mod ir;
pub mod lines;
pub mod lower;
pub mod outline;
pub mod rename;
pub mod syntax;

use crate::diag::Diagnostics;
use crate::runtime_errors::CommandSite;
use crate::source::Source;

/// Finvara's stages.
pub struct Stages;

impl super::FrontEnd for Stages {
    type Tree = syntax::Program;
    type Facts = ();
    type Program = ir::Program;

    const RENAMABLE: &'static str =
        "piece symbols can be renamed (with their board cells, moves and promotions)";

    fn parse(source: &Source) -> Result<syntax::Program, Diagnostics> {
        syntax::parse(source)
    }

    fn check(tree: &syntax::Program) -> ((), Diagnostics) {
        ((), check::check(tree))
    }

    fn lower(
        tree: &syntax::Program,
        (): (),
        source: &Source,
        diagnostics: &mut Diagnostics,
    ) -> Option<ir::Program> {
        lower::lower(tree, source)
            .map_err(|errors| diagnostics.append(errors))
            .ok()
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
        _: &Source,
        offset: usize,
    ) -> Option<crate::rename::Renaming> {
        rename::renaming(tree, offset)
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
        interp::run_traced(self, io, steps, &mut |line, valid, game| {
            observe(&interp::Traced {
                program: self,
                line,
                valid,
                game,
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
