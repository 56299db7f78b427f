//! Golden-output tests for chess2rs.
//!
//! Every program under `golden/<language>/` is compiled by `build.rs` into
//! [`compiled`], embedded with `chess_program!` into [`via_macro`], and
//! listed in [`CASES`]; `tests/golden.rs` runs each through the
//! interpreter, the compiled function and the macro's function (for
//! programs with errors: the macro's `compile_error!`) and compares all
//! three with the expectation files:
//!
//! | file | meaning |
//! |---|---|
//! | `NAME.EXT` | the program |
//! | `NAME.EXT.in` | standard input (default empty) |
//! | `NAME.EXT.out` | exact expected standard output (default empty) |
//! | `NAME.EXT.code` | expected exit code: 0 halt, 1 runtime error, 2 compile error (default 0) |
//! | `NAME.EXT.steps` | step limit (default none) |
//! | `NAME.EXT.err` | text standard error must contain, one requirement per line |

use std::io::BufRead;

use chess2rs_corpus::Corpus;
use chess2rs_runtime::{Options, RuntimeError};

/// A compiled entry function, instantiated for the harness.
pub type Entry = fn(&mut dyn BufRead, &mut Vec<u8>, &Options) -> Result<(), RuntimeError>;

/// One golden case as compiled by `build.rs`.
pub struct Case {
    /// Path under `golden/`, e.g. `infchesspro/beer.icp`.
    pub name: &'static str,
    /// Rendered warnings (compiled) or errors (not compiled).
    pub diagnostics: &'static str,
    /// The compiled program, or `None` if it has compile errors.
    pub entry: Option<Entry>,
    /// The same program embedded with `chess_program!`.
    pub via_macro: Option<Entry>,
}

/// A random program compiled by `build.rs`.
pub struct RandomCase {
    /// Its source text.
    pub source: &'static str,
    /// Its language's extension.
    pub extension: &'static str,
    /// The compiled program.
    pub entry: Entry,
}

/// A corpus program compiled by `build.rs`: all of them with the `corpus`
/// feature, else every [`Corpus::share`]-th (the environment
/// variable `CHESS2RS_CORPUS=chc,btm` at build time keeps the others'
/// share only). Its text, input and step limit are the corpus's
/// `program(index)`.
pub struct CorpusCase {
    /// Its corpus's extension ([`Corpus::extension`]).
    pub extension: &'static str,
    /// Its index in the corpus.
    pub index: usize,
    /// The compile errors, rendered, if it did not compile (a generator bug).
    pub errors: &'static str,
    /// The compiled program.
    pub entry: Option<Entry>,
}

impl CorpusCase {
    /// Its corpus.
    pub fn corpus(&self) -> &'static Corpus {
        Corpus::by_extension(self.extension).expect("build.rs lists known corpora")
    }
}

include!(concat!(env!("OUT_DIR"), "/cases.rs"));
