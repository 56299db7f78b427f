//! chess2rs compiles programs in four chess-themed esoteric languages —
//! InfChessPro, Chess Code, Chessoteric (and its BTM form) and Finvara —
//! to Rust.
//!
//! One pipeline serves every way in: [`compile`] parses, checks, lowers and
//! generates the tokens of an entry function; the CLI pretty-prints them
//! into a program file ([`emit::program_file`]), the `chess_program!` macro
//! returns them as they are. [`interpret`] runs the same lowered program
//! without rustc.
//!
//! ```
//! use chess2rs::{compile, CompileOptions, Language, Source};
//!
//! let source = Source::new("hello.icp", "1. \"Hello, world!\n");
//! let compiled = compile(&source, Language::InfChessPro, &CompileOptions::default()).unwrap();
//! assert!(compiled.tokens.to_string().contains("Hello, world!"));
//!
//! let checked = chess2rs::check(&source, Language::InfChessPro).unwrap();
//! let mut output = Vec::new();
//! chess2rs::interpret(&checked.program, &b""[..], &mut output, &Default::default()).unwrap();
//! assert_eq!(output, b"Hello, world!\n");
//! ```
#![warn(missing_docs)]

pub mod complete;
pub mod cursor;
pub mod diag;
pub mod embed;
pub mod emit;
pub mod format;
pub mod lang;
pub mod language;
pub mod outline;
pub mod picture;
pub mod rename;
pub mod runtime_errors;
pub mod source;
pub mod split;
pub mod switch;

/// Thread CPU time for tests that guard against slowness (shared with the
/// integration tests).
#[cfg(test)]
#[path = "../tests/support/cpu_time.rs"]
mod cpu_time;

#[cfg(test)]
mod large_programs;

#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cli")]
pub mod lsp;
#[cfg(feature = "cli")]
pub mod view;

use std::io::{BufRead, Write};

use chess2rs_runtime::{Options, RuntimeError};
use proc_macro2::TokenStream;

pub use crate::diag::{Diagnostic, Diagnostics, Severity};
pub use crate::emit::CompileOptions;
pub use crate::format::{FormatOptions, Formatted};
pub use crate::lang::{BackEnd, FrontEnd};
pub use crate::language::Language;
pub use crate::rename::Renaming;
pub use crate::source::{Source, Span};

/// A checked, lowered program of any language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Program {
    /// An InfChessPro program.
    InfChessPro(lang::infchesspro::ir::Program),
    /// A Chess Code program.
    ChessCode(lang::chesscode::ir::Program),
    /// A Chessoteric game or BTM listing: its Turing machine.
    Chessoteric(lang::chessoteric::ir::Machine),
    /// A Finvara program.
    Finvara(lang::finvara::ir::Program),
}

/// A program that passed every check, with its warnings.
#[derive(Clone, Debug)]
pub struct Checked {
    /// The lowered program.
    pub program: Program,
    /// Warnings (never errors).
    pub warnings: Diagnostics,
}

/// Generated code: the entry function's tokens, with the warnings found.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The entry function (see [`emit::entry_function`]).
    pub tokens: TokenStream,
    /// Warnings (never errors).
    pub warnings: Diagnostics,
}

/// Runs `$body` with `$lowered` bound to the lowered program inside
/// `$program`, whatever its language: every lowered program is a
/// [`lang::BackEnd`].
macro_rules! with_lowered {
    ($program:expr, |$lowered:ident| $body:expr) => {
        match $program {
            Program::InfChessPro($lowered) => $body,
            Program::ChessCode($lowered) => $body,
            Program::Chessoteric($lowered) => $body,
            Program::Finvara($lowered) => $body,
        }
    };
}

/// Runs `$body` with `$stages` naming the [`lang::FrontEnd`] that reads
/// `$language`'s text, and `$wrap` the [`Program`] variant its programs
/// become: the one place that lists which module reads which language.
macro_rules! with_language_stages {
    ($language:expr, |$stages:ident| $body:expr) => {
        with_language_stages!($language, |$stages, _wrap| $body)
    };
    ($language:expr, |$stages:ident, $wrap:ident| $body:expr) => {
        match $language {
            Language::InfChessPro => {
                type $stages = lang::infchesspro::Stages;
                let $wrap = Program::InfChessPro;
                $body
            }
            Language::ChessCode => {
                type $stages = lang::chesscode::Stages;
                let $wrap = Program::ChessCode;
                $body
            }
            Language::Chessoteric => {
                type $stages = lang::chessoteric::Stages;
                let $wrap = Program::Chessoteric;
                $body
            }
            Language::Btm => {
                type $stages = lang::chessoteric::BtmStages;
                let $wrap = Program::Chessoteric;
                $body
            }
            Language::Finvara => {
                type $stages = lang::finvara::Stages;
                let $wrap = Program::Finvara;
                $body
            }
        }
    };
}

/// Parses, checks and lowers `source` as `language`.
pub fn check(source: &Source, language: Language) -> Result<Checked, Diagnostics> {
    with_language_stages!(language, |S, wrap| {
        let (program, warnings) = S::front_end(source)?;
        Ok(Checked {
            program: wrap(program),
            warnings,
        })
    })
}

/// `source` (a `language` program) in its canonical layout, or the syntax
/// errors that keep it from being formatted: what does not parse has no
/// layout to keep (see [`format`](crate::format)). Formatting a formatted
/// text gives it back unchanged.
pub fn format(
    source: &Source,
    language: Language,
    options: &FormatOptions,
) -> Result<Formatted, Diagnostics> {
    if let Some(errors) = format::refused(language, options) {
        return Err(errors);
    }
    with_language_stages!(language, |S| S::format(source, options))
}

/// The name at `offset` of `source` (a `language` program) and every
/// place it is written, for renaming (see [`rename`](crate::rename)):
/// `None` if the program does not parse or no name is there.
pub fn renaming(source: &Source, language: Language, offset: usize) -> Option<Renaming> {
    with_language_stages!(language, |S| S::renaming(
        &S::parse(source).ok()?,
        source,
        offset
    ))
}

/// What a rename can rename in `language`, as the end of a sentence (why
/// a rename elsewhere is refused).
pub fn renamable(language: Language) -> &'static str {
    with_language_stages!(language, |S| S::RENAMABLE)
}

/// What may be written at `offset` of `source` (a `language` program
/// being typed, which need not parse); see [`complete`](crate::complete).
pub fn completions(
    source: &Source,
    language: Language,
    offset: usize,
) -> Vec<complete::Completion> {
    with_language_stages!(language, |S| S::completions(source, offset))
}

/// What an editor shows of `source` as `language` (see [`outline`](crate::outline)).
pub fn outline(source: &Source, language: Language) -> outline::Outline {
    with_language_stages!(language, |S| S::parse_and_outline(source))
}

/// Compiles `source` to the tokens of an entry function
/// `fn NAME<R: BufRead, W: Write>(input: R, output: W, options: &Options)
/// -> Result<(), RuntimeError>`.
pub fn compile(
    source: &Source,
    language: Language,
    options: &CompileOptions,
) -> Result<Compiled, Diagnostics> {
    let checked = check(source, language)?;
    let mut items: Vec<TokenStream> = Vec::new();
    let body = generate_into(&checked.program, &mut items);
    let body = quote::quote! { #(#items)* #body };
    let sites = checked.program.error_sites();
    let tokens = emit::entry_function(source, language, body, &sites, options, &mut Vec::new());
    Ok(Compiled {
        tokens,
        warnings: checked.warnings,
    })
}

/// Compiles `source` to a whole program file ([`emit::program_file`]):
/// the code [`compile`] makes with [`CompileOptions::for_program_file`],
/// pretty-printed one split-off function at a time so that a large
/// program's tokens are never all held at once. Returns the text and the
/// warnings.
pub fn compile_file(
    source: &Source,
    language: Language,
    standalone: bool,
) -> Result<(emit::ProgramText, Diagnostics), Diagnostics> {
    let checked = check(source, language)?;
    Ok((
        program_file_of(&checked.program, source, language, standalone),
        checked.warnings,
    ))
}

/// [`compile_file`] of a program already checked: `program` is what
/// [`check`] made of `source`'s text (the file names `source` as the
/// program file, whatever name it was checked under).
pub fn program_file_of(
    program: &Program,
    source: &Source,
    language: Language,
    standalone: bool,
) -> emit::ProgramText {
    let mut items = emit::PrettyItems::for_source(source.name(), source.text());
    let body = generate_into(program, &mut items);
    let marker = emit::PrettyItems::marker();
    let body = quote::quote! { #marker #body };
    let sites = program.error_sites();
    let options = CompileOptions::for_program_file(standalone);
    let entry = emit::entry_function(source, language, body, &sites, &options, &mut items);
    let text = emit::program_file(source, language, &entry, standalone);
    items.splice_into(text)
}

/// The body of the entry function for `program`, the items it makes
/// (split-off functions, tables) included.
pub fn generate(program: &Program) -> TokenStream {
    let mut items: Vec<TokenStream> = Vec::new();
    let body = generate_into(program, &mut items);
    quote::quote! { #(#items)* #body }
}

/// The body of the entry function for `program`; the items it makes go to
/// `items`, to be put before it.
pub fn generate_into(program: &Program, items: &mut dyn split::Items) -> TokenStream {
    with_lowered!(program, |lowered| lowered.generate(items))
}

/// Runs `program` in the interpreter, on the same runtime generated code
/// uses.
pub fn interpret<R: BufRead, W: Write>(
    program: &Program,
    input: R,
    output: W,
    options: &Options,
) -> Result<(), RuntimeError> {
    let source = chess2rs_runtime::SourceMap::EMPTY;
    chess2rs_runtime::__private::run_program(input, output, options, &source, |io, steps| {
        with_lowered!(program, |lowered| lowered.interpret(io, steps))
    })
}

/// [`interpret`], writing to `trace` what each step did — the line and the
/// pieces (InfChessPro), the line and the cells and variables that are not
/// 0 (Chess Code), the rule taken and the tape around the head
/// (Chessoteric, BTM), the line, the board and both stacks (Finvara) — for
/// the first `limit` steps, then one line saying the trace stopped.
pub fn interpret_traced<R: BufRead, W: Write>(
    program: &Program,
    input: R,
    output: W,
    options: &Options,
    limit: u64,
    trace: &mut dyn Write,
) -> Result<(), RuntimeError> {
    let mut tracer = Tracer {
        left: limit,
        limit,
        out: trace,
    };
    interpret_observed(program, input, output, options, false, &mut |step| {
        tracer.step(|| step.text())
    })
}

/// [`interpret`], adding one to `done` after each step (for a progress
/// line shown by another thread).
pub fn interpret_counted<R: BufRead, W: Write>(
    program: &Program,
    input: R,
    output: W,
    options: &Options,
    done: &std::sync::atomic::AtomicU64,
) -> Result<(), RuntimeError> {
    interpret_observed(program, input, output, options, false, &mut |_| {
        done.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    })
}

/// [`interpret`], calling `observe` after each step (see
/// [`picture::Step`]). Output is buffered as in [`interpret`] unless
/// `unbuffered`, when every write reaches `output` before the step is
/// observed.
pub fn interpret_observed<R: BufRead, W: Write, O>(
    program: &Program,
    input: R,
    output: W,
    options: &Options,
    unbuffered: bool,
    observe: &mut O,
) -> Result<(), RuntimeError>
where
    O: FnMut(&dyn picture::Step) + ?Sized,
{
    let source = chess2rs_runtime::SourceMap::EMPTY;
    let io = if unbuffered {
        chess2rs_runtime::__private::Io::with_buffer(input, output, 0)
    } else {
        chess2rs_runtime::__private::Io::new(input, output)
    };
    chess2rs_runtime::__private::run_program_in(io, options, &source, |io, steps| {
        with_lowered!(program, |lowered| lowered
            .interpret_observed(io, steps, observe))
    })
}

/// Writes the trace of the first `limit` steps.
struct Tracer<'a> {
    left: u64,
    limit: u64,
    out: &'a mut dyn Write,
}

impl Tracer<'_> {
    /// Writes the text of one step (made only while the trace lasts); a
    /// trace that cannot be written is dropped, not an error of the program.
    fn step(&mut self, text: impl FnOnce() -> String) {
        if self.left > 0 {
            self.left -= 1;
            let _ = self.out.write_all(text().as_bytes());
            if self.left == 0 {
                let _ = writeln!(
                    self.out,
                    "… trace stopped after {} steps (--trace-limit N shows more)",
                    self.limit
                );
            }
        }
    }
}

impl Program {
    /// The commands a runtime error can name, with where each is: what
    /// generated code keeps of its source to show where an error happened,
    /// and where `interpret` puts the caret.
    pub fn error_sites(&self) -> runtime_errors::Commands {
        runtime_errors::Commands::new(with_lowered!(self, |lowered| lowered.error_sites()))
    }
}

/// A debug dump of the lowered program (`--emit ir`).
pub fn ir_dump(program: &Program) -> String {
    with_lowered!(program, |lowered| format!("{lowered:#?}"))
}
