//! The Finvara corpus (`random_programs::finvara_corpus`): programs that
//! run thousands to hundreds of thousands of move lines. Every program
//! `build.rs` compiled — all 300 with the `corpus` feature, every tenth
//! without — gives the same output and the same error compiled and
//! interpreted, on its input under its step limit, and again on a part of
//! its input under a lower limit.
//!
//! A debug build (`cargo test --workspace`, the CI) runs each program for
//! at most [`DEBUG_STEPS`] lines, which keeps the test to about a minute;
//! a release build runs them to their own step limits, which reach
//! 200,000 lines. The whole corpus, to its limits (about 10 s once
//! built):
//!
//! ```text
//! cargo test --release -p chess2rs-golden --features corpus --test fv_corpus
//! ```

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use chess2rs_golden::random_programs::{
    finvara_corpus, FinvaraRun, FV_CORPUS_LEN, FV_CORPUS_SHARE,
};
use chess2rs_golden::{Entry, FvCorpusCase, FV_CORPUS};
use chess2rs_runtime::{Options, RuntimeError};

/// The step limit of a debug build (the engine's move search is many
/// times slower unoptimised).
const DEBUG_STEPS: u64 = 2_500;

/// The step limit to run a program with `max_steps` under in this build.
fn limit(max_steps: u64) -> u64 {
    if cfg!(debug_assertions) {
        max_steps.min(DEBUG_STEPS)
    } else {
        max_steps
    }
}

/// Output and error message of one run.
type Outcome = (Vec<u8>, Option<String>);

fn outcome(result: Result<(), RuntimeError>, output: Vec<u8>) -> Outcome {
    (output, result.err().map(|e| e.to_string()))
}

#[test]
fn every_corpus_program_compiles() {
    let expected = if cfg!(feature = "corpus") {
        FV_CORPUS_LEN
    } else {
        FV_CORPUS_LEN.div_ceil(FV_CORPUS_SHARE)
    };
    assert_eq!(FV_CORPUS.len(), expected, "programs in this build");
    for case in FV_CORPUS {
        assert!(
            case.entry.is_some(),
            "corpus program {} does not compile:\n{}",
            case.index,
            case.errors
        );
    }
}

/// What one corpus program did: executed lines, or how the two ways
/// disagreed.
struct Report {
    index: usize,
    lines: u64,
    disagreements: Vec<String>,
}

/// Runs `program` interpreted (counting its steps) and `entry` on `input`
/// under `limit`; describes a disagreement.
fn compare(
    program: &chess2rs::Program,
    entry: Entry,
    input: &str,
    limit: u64,
) -> (u64, Option<String>) {
    let options = Options::with_max_steps(limit);
    let steps = AtomicU64::new(0);
    let mut interpreted = Vec::new();
    let interpreted = outcome(
        chess2rs::interpret_counted(
            program,
            input.as_bytes(),
            &mut interpreted,
            &options,
            &steps,
        ),
        interpreted,
    );
    let mut compiled = Vec::new();
    let compiled = outcome(
        entry(&mut input.as_bytes(), &mut compiled, &options),
        compiled,
    );
    let lines = steps.load(Ordering::Relaxed);
    if interpreted == compiled {
        return (lines, None);
    }
    let text = |o: &Outcome| String::from_utf8_lossy(&o.0).into_owned();
    let (a, b) = (text(&interpreted), text(&compiled));
    let first = a
        .lines()
        .zip(b.lines())
        .position(|(x, y)| x != y)
        .unwrap_or(a.lines().count().min(b.lines().count()));
    (
        lines,
        Some(format!(
            "step limit {limit}, {} input bytes: output lines {} interpreted vs {} compiled, \
             first difference at output line {}: {:?} vs {:?}; error interpreted {:?}, compiled {:?}",
            input.len(),
            a.lines().count(),
            b.lines().count(),
            first + 1,
            a.lines().nth(first),
            b.lines().nth(first),
            interpreted.1,
            compiled.1
        )),
    )
}

/// The corpus program of `case`, checked, run both ways twice.
fn run(case: &FvCorpusCase) -> Report {
    let FinvaraRun {
        source,
        input,
        max_steps,
        ..
    } = finvara_corpus(case.index);
    let entry = case.entry.expect("every corpus program compiles");
    let source = chess2rs::Source::new(format!("fv_corpus_{}.fv", case.index), source);
    let program = chess2rs::check(&source, chess2rs::Language::Finvara)
        .expect("compiled at build time")
        .program;
    let mut disagreements = Vec::new();
    let (lines, disagreement) = compare(&program, entry, &input, limit(max_steps));
    disagreements.extend(disagreement);
    // A part of the input (cut inside a number, sometimes) under a lower
    // limit: other errors, other places to stop.
    let cut = input.len() * (case.index % 7 + 1) / 9;
    let part = &input[..cut];
    let lower = limit(max_steps) / 3 + case.index as u64;
    let (_, disagreement) = compare(&program, entry, part, lower);
    disagreements.extend(disagreement);
    Report {
        index: case.index,
        lines,
        disagreements,
    }
}

#[test]
fn compiled_and_interpreted_agree_on_the_corpus() {
    let next = AtomicUsize::new(0);
    let reports = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(case) = FV_CORPUS.get(i) else { break };
                if case.entry.is_some() {
                    let report = run(case);
                    reports.lock().unwrap().push(report);
                }
            });
        }
    });
    let mut reports = reports.into_inner().unwrap();
    reports.sort_by_key(|r| r.index);
    let failures: Vec<String> = reports
        .iter()
        .filter(|r| !r.disagreements.is_empty())
        .map(|r| {
            format!(
                "corpus program {} (`cargo run -p chess2rs-golden --example fv_corpus -- dump {}` \
                 writes it): {}",
                r.index,
                r.index,
                r.disagreements.join("; ")
            )
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} corpus programs disagree:\n{}",
        failures.len(),
        reports.len(),
        failures.join("\n")
    );
    // The corpus is only worth its build time if its programs run long.
    let mut lines: Vec<u64> = reports.iter().map(|r| r.lines).collect();
    lines.sort_unstable();
    let median = lines.get(lines.len() / 2).copied().unwrap_or(0);
    assert!(
        median >= 1_000,
        "the median corpus program ran only {median} lines: {lines:?}"
    );
}
