//! One module per language, each with the same shape: `syntax` (text →
//! tree with spans), `check` (diagnostics on the tree, before anything is
//! computed from it), `lower` (tree → `ir`, collecting every error),
//! `codegen` (IR → Rust tokens) and `interp` (runs the IR on the runtime),
//! tied together by the module's [`FrontEnd`] (text to program) and its
//! program's [`BackEnd`] (program to code or a run), through which `lib.rs`
//! drives every language the same way.

pub mod chesscode;
pub mod chessoteric;
pub mod finvara;
pub mod infchesspro;
pub mod line_facts;

use std::io::{BufRead, Write};

use chess2rs_runtime::__private::{Io, StepCounter};
use chess2rs_runtime::RuntimeError;
use proc_macro2::TokenStream;

use crate::complete::Completion;
use crate::diag::Diagnostics;
use crate::format::{FormatOptions, Formatted};
use crate::outline::Outline;
use crate::rename::Renaming;
use crate::runtime_errors::CommandSite;
use crate::source::Source;
use crate::split::Items;

/// The front end of one language: source text to a lowered program, and
/// what an editor shows of the text. Each language module has one
/// implementation (Chessoteric two: PGN games and BTM listings, which
/// lower to the same Turing machine).
pub trait FrontEnd {
    /// The syntax tree.
    type Tree;
    /// What the checks learn that lowering uses (`()` when nothing).
    type Facts;
    /// The lowered program the back end takes.
    type Program: BackEnd;

    /// Text → tree: the tree, or every syntax error.
    fn parse(source: &Source) -> Result<Self::Tree, Diagnostics>;

    /// Checks the tree: what lowering needs to know, and the errors and
    /// warnings found (lowering runs only when there is no error).
    fn check(tree: &Self::Tree) -> (Self::Facts, Diagnostics);

    /// Tree → program. Every error and warning found goes to
    /// `diagnostics`; `None` when an error was found.
    fn lower(
        tree: &Self::Tree,
        facts: Self::Facts,
        source: &Source,
        diagnostics: &mut Diagnostics,
    ) -> Option<Self::Program>;

    /// Parse, check and lower: the program and its warnings, or every
    /// error found.
    fn front_end(source: &Source) -> Result<(Self::Program, Diagnostics), Diagnostics> {
        Self::check_and_lower(&Self::parse(source)?, source)
    }

    /// Check and lower a parsed `tree` (of `source`): the program and its
    /// warnings, or every error found. For those who have parsed already
    /// (an outline's hovers that run the program's moves).
    fn check_and_lower(
        tree: &Self::Tree,
        source: &Source,
    ) -> Result<(Self::Program, Diagnostics), Diagnostics> {
        let (facts, mut diagnostics) = Self::check(tree);
        if diagnostics.has_errors() {
            return Err(diagnostics);
        }
        match Self::lower(tree, facts, source, &mut diagnostics) {
            Some(program) if !diagnostics.has_errors() => Ok((program, diagnostics)),
            _ => Err(diagnostics),
        }
    }

    /// What an editor shows of the program text: symbols, links from uses
    /// to definitions, tokens and descriptions, from its parsed `tree`
    /// (`None` if it does not parse: the tokens the text alone gives).
    fn outline(tree: Option<&Self::Tree>, source: &Source) -> Outline;

    /// The program in its language's canonical layout (`chess2rs fmt`),
    /// written from its parsed tree: the same program, or the syntax
    /// errors that keep it from being formatted.
    fn format(source: &Source, options: &FormatOptions) -> Result<Formatted, Diagnostics>;

    /// What a rename can rename in this language, as the end of a
    /// sentence: the reason an editor's rename elsewhere is refused.
    const RENAMABLE: &'static str;

    /// The name at `offset` of the parsed `tree` (of `source`) and every
    /// place it is written, for renaming; `None` where there is no name
    /// (the default: a language without names).
    fn renaming(tree: &Self::Tree, source: &Source, offset: usize) -> Option<Renaming> {
        let _ = (tree, source, offset);
        None
    }

    /// What may be written at `offset` of `source`, which is being typed
    /// and need not parse (none by default).
    fn completions(source: &Source, offset: usize) -> Vec<Completion> {
        let _ = (source, offset);
        Vec::new()
    }

    /// Parse, then [`FrontEnd::outline`].
    fn parse_and_outline(source: &Source) -> Outline {
        Self::outline(Self::parse(source).ok().as_ref(), source)
    }
}

/// The back end of one language, implemented by its lowered program:
/// generated code, a run in the interpreter, and the commands its
/// run-time errors can name.
pub trait BackEnd {
    /// The body of the entry function (see [`crate::emit::entry_function`]);
    /// the items it makes (split-off functions, tables) go to `items`.
    fn generate(&self, items: &mut dyn Items) -> TokenStream;

    /// Runs the program in the interpreter, on the runtime generated code
    /// uses: [`BackEnd::interpret_observed`] with an observer that does
    /// nothing, which the compiler removes from the loop.
    fn interpret<R: BufRead, W: Write>(
        &self,
        io: &mut Io<R, W>,
        steps: &mut StepCounter,
    ) -> Result<(), RuntimeError> {
        self.interpret_observed(io, steps, &mut |_: &dyn crate::picture::Step| {})
    }

    /// [`BackEnd::interpret`], calling `observe` after each step with the
    /// step (what `--trace` prints and `chess2rs view` draws: the line and
    /// the state it left), described only when asked. `observe` is generic
    /// (a `dyn` function too), so a cheap one is compiled into the loop.
    fn interpret_observed<R: BufRead, W: Write, O>(
        &self,
        io: &mut Io<R, W>,
        steps: &mut StepCounter,
        observe: &mut O,
    ) -> Result<(), RuntimeError>
    where
        O: FnMut(&dyn crate::picture::Step) + ?Sized;

    /// The commands a run-time error can name, with where each is in the
    /// source, in any order.
    fn error_sites(&self) -> Vec<CommandSite>;
}
