//! The corpora (`chess2rs_corpus::CORPORA`: Chess Code, Turing
//! machines, InfChessPro, Finvara): every program `build.rs` compiled —
//! all of them with the `corpus` feature, every tenth without — gives
//! byte-identical output, the same error (text, line and column) and the
//! same step count compiled and interpreted, on its input under its step
//! limit; again under a limit one step short of the steps it ran (which
//! must stop both at that step), and on a part of its input under a lower
//! limit (other errors, other places to stop, often inside loops that
//! compiled code runs in one go).
//!
//! A debug build (`cargo test --workspace`, the CI) runs each program for
//! at most its corpus's `debug_steps`, which keeps the test to about a
//! minute; a release build runs them to their own limits. The whole
//! corpora, to their limits:
//!
//! ```text
//! cargo test --release -p chess2rs-golden --features corpus --test corpus
//! ```
//!
//! `CORPUS=chc,btm` (at run time) checks only those corpora.

use std::io::BufRead;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;

use chess2rs_corpus::{Corpus, CORPORA};
use chess2rs_golden::{CorpusCase, CORPUS};
use chess2rs_runtime::{Options, RuntimeError};

/// The step limit to run a program with `max_steps` under in this build.
fn limit(corpus: &Corpus, max_steps: u64) -> u64 {
    if cfg!(debug_assertions) {
        max_steps.min(corpus.debug_steps)
    } else {
        max_steps
    }
}

/// Output, and error message with its line and column, of one run.
type Outcome = (Vec<u8>, Option<(String, Option<u32>, Option<u32>)>);

fn outcome(result: Result<(), RuntimeError>, output: Vec<u8>) -> Outcome {
    (
        output,
        result.err().map(|e| (e.to_string(), e.line, e.column)),
    )
}

/// The corpora this run checks (`CORPUS=chc,btm`, else all).
fn selected(corpus: &Corpus) -> bool {
    std::env::var("CORPUS").map_or(true, |list| {
        list.split(',').any(|e| e.trim() == corpus.extension)
    })
}

#[test]
fn every_corpus_program_compiles() {
    for corpus in &CORPORA {
        let cases: Vec<&CorpusCase> = CORPUS
            .iter()
            .filter(|c| c.extension == corpus.extension)
            .collect();
        let share = (0..corpus.len)
            .filter(|&i| corpus.in_build(i, false))
            .count();
        assert!(
            cases.len() == corpus.len
                || (!cfg!(feature = "corpus") && cases.len() == share)
                || (cfg!(feature = "corpus") && cases.len() == share),
            "{} {} programs in this build",
            cases.len(),
            corpus.title
        );
        for case in cases {
            assert!(
                case.entry.is_some(),
                "{} does not compile:\n{}",
                corpus.name(case.index),
                case.errors
            );
        }
    }
}

/// What one corpus program did: executed steps, or how the two ways
/// disagreed.
struct Report {
    extension: &'static str,
    index: usize,
    steps: u64,
    disagreements: Vec<String>,
}

/// A way to run a program besides the interpreter: its compiled code, or
/// (Chess Code) its tables.
type Runner<'a> = &'a dyn Fn(&mut dyn BufRead, &mut Vec<u8>, &Options) -> Result<(), RuntimeError>;

/// Runs `program` interpreted (counting its steps) and `entry` on `input`
/// under `limit`: the steps, and a description of any disagreement.
fn compare(
    program: &chess2rs::Program,
    entry: Runner,
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
    let steps = steps.load(Ordering::Relaxed);
    if interpreted == compiled {
        return (steps, None);
    }
    let text = |o: &Outcome| String::from_utf8_lossy(&o.0).into_owned();
    let (a, b) = (text(&interpreted), text(&compiled));
    let first = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let around = |s: &str| {
        s.get(first.saturating_sub(20)..(first + 20).min(s.len()))
            .unwrap_or("")
            .to_string()
    };
    (
        steps,
        Some(format!(
            "step limit {limit}, {} input bytes: {} output bytes interpreted vs {} compiled, \
             first difference at byte {first}: {:?} vs {:?}; error interpreted {:?}, compiled {:?}",
            input.len(),
            a.len(),
            b.len(),
            around(&a),
            around(&b),
            interpreted.1,
            compiled.1
        )),
    )
}

/// The corpus program of `case`, checked, run both ways three times.
fn run(case: &CorpusCase) -> Report {
    let entry = case.entry.expect("every corpus program compiles");
    run_with(case.corpus(), case.index, &|program| {
        compare_three_ways(program, &entry, case.index)
    })
}

/// Corpus program `index`, checked, and what `check` finds running it.
fn run_with(
    corpus: &Corpus,
    index: usize,
    check: &dyn Fn(&CorpusRun) -> (u64, Vec<String>),
) -> Report {
    let program = (corpus.program)(index);
    let source = chess2rs::Source::new(
        format!("{}.{}", corpus.name(index), corpus.extension),
        program.source,
    );
    let language = chess2rs::Language::from_extension(corpus.extension).expect("known");
    let checked = chess2rs::check(&source, language)
        .expect("compiled at build time")
        .program;
    let (steps, disagreements) = check(&CorpusRun {
        checked,
        input: program.input,
        limit: limit(corpus, program.max_steps),
    });
    Report {
        extension: corpus.extension,
        index,
        steps,
        disagreements,
    }
}

/// A corpus program checked, its input and its step limit in this build.
struct CorpusRun {
    checked: chess2rs::Program,
    input: String,
    limit: u64,
}

/// Runs a corpus program interpreted and by `entry` three times: on its
/// input under its limit, under a limit one step short of the steps it
/// ran, and on a part of its input under a lower limit.
fn compare_three_ways(run: &CorpusRun, entry: Runner, index: usize) -> (u64, Vec<String>) {
    let (checked, input, limit) = (&run.checked, &run.input, run.limit);
    let mut disagreements = Vec::new();
    let (steps, disagreement) = compare(checked, entry, input, limit);
    disagreements.extend(disagreement);
    // One step short: both must stop at the same step, with the same
    // output. (With the limit itself, above, the run needed no more.)
    if steps > 0 {
        let (_, disagreement) = compare(checked, entry, input, steps - 1);
        disagreements.extend(disagreement);
    }
    // A part of the input (cut inside a number, sometimes) under a lower
    // limit.
    let cut = input.len() * (index % 7 + 1) / 9;
    let part = &input[..cut];
    let lower = limit / 3 + index as u64;
    let (_, disagreement) = compare(checked, entry, part, lower);
    disagreements.extend(disagreement);
    (steps, disagreements)
}

/// Runs `work` on each of `items` on every core; the reports in order.
fn on_every_core<T: Sync>(items: &[T], work: impl Fn(&T) -> Report + Sync) -> Vec<Report> {
    let next = AtomicUsize::new(0);
    let reports = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let report = work(item);
                reports.lock().unwrap().push(report);
            });
        }
    });
    let mut reports = reports.into_inner().unwrap();
    reports.sort_by_key(|r| (r.extension, r.index));
    reports
}

/// Asserts that no report has disagreements (`how` the programs ran,
/// for the message), listing those that have.
fn assert_all_agree(reports: &[Report], how: &str) {
    let failures = failures(reports);
    assert!(
        failures.is_empty(),
        "{} of {} corpus programs disagree{how}:\n{}",
        failures.len(),
        reports.len(),
        failures.join("\n")
    );
}

/// The failures among `reports`, one line each.
fn failures(reports: &[Report]) -> Vec<String> {
    reports
        .iter()
        .filter(|r| !r.disagreements.is_empty())
        .map(|r| {
            format!(
                "{}_corpus_{} (`cargo run -p chess2rs-golden --example corpus -- dump {} {}` \
                 writes it): {}",
                r.extension,
                r.index,
                r.extension,
                r.index,
                r.disagreements.join("; ")
            )
        })
        .collect()
}

#[test]
fn compiled_and_interpreted_agree_on_the_corpora() {
    let cases: Vec<&CorpusCase> = CORPUS
        .iter()
        .filter(|c| c.entry.is_some() && selected(c.corpus()))
        .collect();
    let reports = on_every_core(&cases, |case| run(case));
    assert_all_agree(&reports, "");
    // A corpus is only worth its build time if its programs run long.
    for corpus in CORPORA.iter().filter(|c| selected(c)) {
        let mut steps: Vec<u64> = reports
            .iter()
            .filter(|r| r.extension == corpus.extension)
            .map(|r| r.steps)
            .collect();
        steps.sort_unstable();
        let median = steps.get(steps.len() / 2).copied().unwrap_or(0);
        let least = limit(corpus, corpus.median_steps);
        assert!(
            median >= least,
            "the median {} program ran only {median} steps (at least {least} expected): {steps:?}",
            corpus.title
        );
    }
}

/// Chess Code's tables (what generated code holds for a program of more
/// than 1,000 lines: `chess2rs::lang::chesscode::table`), run in this
/// process on the corpus's programs — every one in a release build,
/// every fourth in a debug build; no rustc is needed — agree with the
/// interpreter as compiled code does: output, error, line, column, steps.
#[test]
fn chess_code_tables_agree_with_the_interpreter_on_the_corpus() {
    use chess2rs::lang::chesscode::table::Tables;
    let corpus = Corpus::by_extension("chc").expect("a Chess Code corpus");
    if !selected(corpus) {
        return;
    }
    let every = if cfg!(debug_assertions) { 4 } else { 1 };
    let indices: Vec<usize> = (0..corpus.len).step_by(every).collect();
    let reports = on_every_core(&indices, |&index| {
        run_with(corpus, index, &|run| {
            let chess2rs::Program::ChessCode(program) = &run.checked else {
                unreachable!("a Chess Code corpus program");
            };
            let tables = Tables::of(program);
            let runner = |input: &mut dyn BufRead, output: &mut Vec<u8>, options: &Options| {
                let source = chess2rs_runtime::SourceMap::EMPTY;
                chess2rs_runtime::__private::run_program(
                    input,
                    output,
                    options,
                    &source,
                    |io, steps| tables.run(io, steps),
                )
            };
            compare_three_ways(run, &runner, index)
        })
    });
    assert_all_agree(&reports, " run from tables");
}
