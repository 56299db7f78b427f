//! The programs chess2rs's golden tests run, other than the golden cases'
//! files: random programs of every language, and corpora of random
//! programs that run long. `golden/build.rs` makes them (rustc has to see
//! the code generated for them, so they are made at build time) and
//! compiles them into the golden crate; its tests run each through the
//! interpreter and the compiled code and compare the two. The build script
//! and the tests find the golden cases on disk with [`discover`].
//!
//! One module per language, each with a random-program generator (for the
//! "interpreter and generated code agree" property test, `tests/agree.rs`)
//! and a corpus generator (programs made from an index, so any one can be
//! remade alone, with the input and step limit to run each under):
//! [`icp`] (InfChessPro), [`chc`] (Chess Code), [`btm`] (Turing machines)
//! and [`fv`] (Finvara). They all draw from [`Random`], seeded by
//! [`corpus_random`] for the corpora.
//!
//! Everything about a corpus that the golden crate's build script, tests
//! (`tests/corpus.rs`: the same output, error and step count compiled and
//! interpreted) and benchmarks (`benches/corpus.rs`: both ways timed)
//! need is in its [`Corpus`] entry of [`CORPORA`]: adding a language's
//! corpus is adding an entry. `build.rs` compiles the programs of every
//! corpus (all of them with the golden crate's `corpus` feature, else
//! every [`Corpus::share`]-th, which `cargo test --workspace` builds).

#![warn(missing_docs)]

pub mod btm;
pub mod chc;
pub mod discover;
pub mod fv;
pub mod icp;
mod random;

pub use random::{corpus_random, Random};

/// One generated program of a corpus, with what to run it on.
#[derive(Clone, Debug)]
pub struct CorpusProgram {
    /// The program text.
    pub source: String,
    /// Its standard input.
    pub input: String,
    /// The step limit to run it under (most programs end well before it;
    /// a few are meant to reach it).
    pub max_steps: u64,
    /// A few words on what the program does (its loop nest, machine or
    /// board), for reports that list programs.
    pub shape: String,
}

/// A corpus: how to make its programs, and how many there are.
#[derive(Clone, Copy, Debug)]
pub struct Corpus {
    /// The extension of its programs' files (`chc`, `btm`, `icp`, `fv`):
    /// also the corpus's name in environment variables and in the names
    /// of compiled functions (`chc_corpus_17`).
    pub extension: &'static str,
    /// The language, for reports.
    pub title: &'static str,
    /// How many programs it has.
    pub len: usize,
    /// Without the golden crate's `corpus` feature, `build.rs` compiles
    /// every `share`-th program (indices 0, share, 2 share, …).
    pub share: usize,
    /// The most steps an unoptimised (debug) build runs a program for in
    /// `tests/corpus.rs`, so that `cargo test --workspace` stays quick.
    pub debug_steps: u64,
    /// The least median step count the corpus's programs must reach (in a
    /// debug build: at most `debug_steps`), so that they keep measuring
    /// something.
    pub median_steps: u64,
    /// Program `index` (`0..len`), always the same.
    pub program: fn(usize) -> CorpusProgram,
}

impl Corpus {
    /// Whether program `index` is compiled into a build with (`all`) or
    /// without the `corpus` feature.
    pub fn in_build(&self, index: usize, all: bool) -> bool {
        all || index.is_multiple_of(self.share)
    }

    /// The name of program `index` (`chc_corpus_17`): of its compiled
    /// function, and of its file when written out.
    pub fn name(&self, index: usize) -> String {
        format!("{}_corpus_{index}", self.extension)
    }

    /// The corpus whose programs have this extension.
    pub fn by_extension(extension: &str) -> Option<&'static Corpus> {
        CORPORA.iter().find(|c| c.extension == extension)
    }
}

/// Every corpus, in the order reports list them.
pub static CORPORA: [Corpus; 4] = [
    Corpus {
        extension: "chc",
        title: "Chess Code",
        len: 200,
        share: 10,
        debug_steps: 400_000,
        median_steps: 200_000,
        program: chc::chess_code_corpus,
    },
    Corpus {
        extension: "btm",
        title: "Turing machine (BTM)",
        len: 200,
        share: 10,
        debug_steps: 150_000,
        median_steps: 50_000,
        program: btm::btm_corpus,
    },
    Corpus {
        extension: "icp",
        title: "InfChessPro",
        len: 200,
        share: 10,
        debug_steps: 30_000,
        median_steps: 50_000,
        program: icp::infchesspro_corpus,
    },
    Corpus {
        extension: "fv",
        title: "Finvara",
        len: fv::FV_CORPUS_LEN,
        share: fv::FV_CORPUS_SHARE,
        // The engine's move search is many times slower unoptimised.
        debug_steps: 2_500,
        median_steps: 1_000,
        program: finvara_corpus_program,
    },
];

/// The step limit of a corpus program that runs about `steps` steps: most
/// get `factor` times that and `margin` more, so that they end before it;
/// one in twenty is meant to meet its limit, a tenth to nine tenths of the
/// way (and says so in its `shape`).
pub(crate) fn step_limit(
    random: &mut Random,
    steps: f64,
    (factor, margin): (f64, u64),
    shape: &mut String,
) -> u64 {
    if random.below(20) == 0 {
        shape.push_str("; step limit");
        (steps * (0.1 + random.below(80) as f64 / 100.0)) as u64
    } else {
        (steps * factor) as u64 + margin
    }
}

/// Finvara corpus program `index` ([`fv::finvara_corpus`]) as a
/// [`CorpusProgram`]: the same program, input and limit.
fn finvara_corpus_program(index: usize) -> CorpusProgram {
    let run = fv::finvara_corpus(index);
    let board = run
        .source
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().find(|w| w.contains('x')))
        .unwrap_or("?");
    CorpusProgram {
        shape: format!("{board} board"),
        source: run.source,
        input: run.input,
        max_steps: run.max_steps,
    }
}
