//! The corpora compiled and interpreted: every program of
//! `chess2rs_golden::CORPUS` (all of them with the `corpus` feature, every
//! tenth without) run on its input under its step limit, timed both ways
//! with `std::time::Instant` (the best of several runs), then a Markdown
//! summary per language: the spread of interpreted ÷ compiled, ns per
//! step, the programs slower compiled and the worst ones.
//!
//! ```text
//! cargo bench -p chess2rs-golden --features corpus --bench corpus
//! CORPUS=chc cargo bench -p chess2rs-golden --features corpus --bench corpus
//! ```
//!
//! Environment:
//! - `CORPUS=chc,btm`: only those corpora (`chc`, `btm`, `icp`, `fv`);
//!   building with `CHESS2RS_CORPUS=chc` as well compiles only that
//!   corpus whole (a quicker build);
//! - `CORPUS_ONLY=17,42`: only those programs (to profile one; `cargo run
//!   -p chess2rs-golden --example corpus -- dump chc 17` writes it to a
//!   file);
//! - `CORPUS_EACH=1`: also a table row per program;
//! - `CORPUS_RUNS=N`: N timed runs each way (default 3; fewer for
//!   programs that take seconds, more for short ones, up to 0.2 s a way);
//! - `CORPUS_WORST=N`: how many of the worst programs to list (default 10).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chess2rs_corpus::{Corpus, CORPORA};
use chess2rs_golden::{CorpusCase, Entry, CORPUS};
use chess2rs_runtime::{Options, RuntimeError};

/// Interpreted runs over this long count as long enough to matter.
const LONG: Duration = Duration::from_millis(1);

/// One program's measurements.
struct Timing {
    index: usize,
    shape: String,
    steps: u64,
    compiled: Duration,
    interpreted: Duration,
    /// How the run ended (the error's first line, or "halted").
    end: String,
}

impl Timing {
    /// Interpreted time ÷ compiled time.
    fn ratio(&self) -> f64 {
        self.interpreted.as_secs_f64() / self.compiled.as_secs_f64().max(1e-12)
    }

    fn ns_per_step(&self, time: Duration) -> f64 {
        time.as_nanos() as f64 / self.steps.max(1) as f64
    }
}

/// The best time of `f` over `runs` runs (fewer once 3 s were spent, at
/// least one), more until 0.2 s were spent (at most 50).
fn best_of(runs: usize, mut f: impl FnMut()) -> Duration {
    let (mut best, mut spent, mut done) = (Duration::MAX, Duration::ZERO, 0);
    while done == 0
        || (done < runs && spent < Duration::from_secs(3))
        || (spent < Duration::from_millis(200) && done < 50)
    {
        let start = Instant::now();
        f();
        let time = start.elapsed();
        best = best.min(time);
        spent += time;
        done += 1;
    }
    best
}

fn measure(corpus: &Corpus, index: usize, entry: Entry, runs: usize) -> Timing {
    let program = (corpus.program)(index);
    let source = chess2rs::Source::new(
        format!("{}.{}", corpus.name(index), corpus.extension),
        program.source.clone(),
    );
    let language = chess2rs::Language::from_extension(corpus.extension).expect("known");
    let checked = chess2rs::check(&source, language)
        .expect("compiled at build time")
        .program;
    let options = Options::with_max_steps(program.max_steps);
    let input = program.input.as_bytes();
    let steps = AtomicU64::new(0);
    let mut expected = Vec::new();
    let result = chess2rs::interpret_counted(&checked, input, &mut expected, &options, &steps);
    let end = match &result {
        Ok(()) => "halted".to_string(),
        Err(e) => e.to_string().lines().next().unwrap_or_default().to_string(),
    };
    let outcome = |result: Result<(), RuntimeError>, output: Vec<u8>| {
        (output, result.err().map(|e| e.to_string()))
    };
    let expected = outcome(result, expected);
    let mut output = Vec::new();
    let compiled = outcome(entry(&mut &input[..], &mut output, &options), output);
    assert!(
        compiled == expected,
        "{} disagrees compiled and interpreted (tests/corpus.rs says how)",
        corpus.name(index)
    );
    let mut output = Vec::with_capacity(expected.0.len());
    let compiled = best_of(runs, || {
        output.clear();
        let _ = std::hint::black_box(entry(&mut &input[..], &mut output, &options));
    });
    let interpreted = best_of(runs, || {
        output.clear();
        let _ = std::hint::black_box(chess2rs::interpret(&checked, input, &mut output, &options));
    });
    Timing {
        index,
        shape: program.shape,
        steps: steps.load(Ordering::Relaxed),
        compiled,
        interpreted,
        end,
    }
}

/// Min, median and max of `values` (sorted here).
fn spread(mut values: Vec<f64>) -> (f64, f64, f64) {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    };
    (values[0], median, values[n - 1])
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The Markdown report on one corpus's timings.
fn report(corpus: &Corpus, timings: &[Timing], worst: usize) {
    let steps: Vec<f64> = timings.iter().map(|t| t.steps as f64).collect();
    let total: u64 = timings.iter().map(|t| t.steps).sum();
    let (steps_min, steps_median, steps_max) = spread(steps);
    let (ratio_min, ratio_median, ratio_max) = spread(timings.iter().map(Timing::ratio).collect());
    let per_step = |compiled: bool| {
        spread(
            timings
                .iter()
                .map(|t| t.ns_per_step(if compiled { t.compiled } else { t.interpreted }))
                .collect(),
        )
    };
    let (c_min, c_median, c_max) = per_step(true);
    let (i_min, i_median, i_max) = per_step(false);
    let (ti_min, ti_median, ti_max) = spread(timings.iter().map(|t| ms(t.interpreted)).collect());
    let slower: Vec<&Timing> = timings.iter().filter(|t| t.ratio() < 1.0).collect();
    let long = timings.iter().filter(|t| t.interpreted > LONG).count();
    let halted = timings.iter().filter(|t| t.end == "halted").count();
    println!();
    println!("### {} corpus (`{}`)", corpus.title, corpus.extension);
    println!();
    println!("| | |");
    println!("|---|---|");
    println!("| programs | {} ({halted} halted) |", timings.len());
    println!(
        "| executed steps: total / min / median / max | {total} / {steps_min:.0} / {steps_median:.0} / {steps_max:.0} |"
    );
    println!("| interpreted ms: min / median / max | {ti_min:.3} / {ti_median:.2} / {ti_max:.1} |");
    println!(
        "| **interpreted ÷ compiled: min / median / max** | **{ratio_min:.2} / {ratio_median:.2} / {ratio_max:.0}** |"
    );
    println!(
        "| ns per step, compiled: min / median / max | {c_min:.3} / {c_median:.2} / {c_max:.1} |"
    );
    println!(
        "| ns per step, interpreted: min / median / max | {i_min:.2} / {i_median:.2} / {i_max:.1} |"
    );
    println!(
        "| programs with an interpreted run over {} ms | {long} |",
        LONG.as_millis()
    );
    println!(
        "| **slower compiled (ratio < 1)** | **{}** {} |",
        slower.len(),
        slower
            .iter()
            .map(|t| t.index.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    let buckets = [
        (0.0, 1.0),
        (1.0, 2.0),
        (2.0, 4.0),
        (4.0, 10.0),
        (10.0, 100.0),
        (100.0, f64::INFINITY),
    ];
    println!();
    println!("| interpreted ÷ compiled | programs |");
    println!("|---|---|");
    for (low, high) in buckets {
        let count = timings
            .iter()
            .filter(|t| (low..high).contains(&t.ratio()))
            .count();
        let label = if high.is_infinite() {
            format!("≥ {low}")
        } else {
            format!("{low} – {high}")
        };
        println!("| {label} | {count} |");
    }
    // The worst among programs that run long enough to time well.
    let mut order: Vec<&Timing> = timings.iter().filter(|t| t.interpreted > LONG).collect();
    order.sort_by(|a, b| a.ratio().total_cmp(&b.ratio()));
    let rows = |list: &[&Timing]| {
        println!("| program | steps | compiled ms | interpreted ms | ratio | ns/step compiled | end | shape |");
        println!("|---|---|---|---|---|---|---|---|");
        for t in list {
            println!(
                "| {} | {} | {:.3} | {:.3} | {:.2} | {:.2} | {} | {} |",
                t.index,
                t.steps,
                ms(t.compiled),
                ms(t.interpreted),
                t.ratio(),
                t.ns_per_step(t.compiled),
                t.end,
                t.shape
            );
        }
    };
    println!();
    println!(
        "The {} lowest ratios of programs with an interpreted run over {} ms:",
        worst.min(order.len()),
        LONG.as_millis()
    );
    println!();
    rows(&order[..worst.min(order.len())]);
    if std::env::var_os("CORPUS_EACH").is_some() {
        println!();
        let mut all: Vec<&Timing> = timings.iter().collect();
        all.sort_by_key(|t| t.index);
        rows(&all);
    }
}

fn main() {
    // `cargo bench` passes `--bench`; a name filter is not supported.
    let list = |name: &str| std::env::var(name).ok();
    let corpora: Option<Vec<String>> =
        list("CORPUS").map(|l| l.split(',').map(|e| e.trim().to_string()).collect());
    let only: Option<Vec<usize>> = list("CORPUS_ONLY").map(|l| {
        l.split(',')
            .map(|n| n.trim().parse().expect("CORPUS_ONLY lists indices"))
            .collect()
    });
    let number = |name: &str, default: usize| {
        list(name).map_or(default, |n| {
            n.parse().unwrap_or_else(|_| panic!("{name} is a number"))
        })
    };
    let (runs, worst) = (number("CORPUS_RUNS", 3), number("CORPUS_WORST", 10));
    for corpus in &CORPORA {
        if corpora
            .as_ref()
            .is_some_and(|c| !c.iter().any(|e| e == corpus.extension))
        {
            continue;
        }
        let cases: Vec<(&CorpusCase, Entry)> = CORPUS
            .iter()
            .filter(|c| c.extension == corpus.extension)
            .filter(|c| only.as_ref().is_none_or(|o| o.contains(&c.index)))
            .filter_map(|c| c.entry.map(|entry| (c, entry)))
            .collect();
        if cases.is_empty() {
            continue;
        }
        eprintln!(
            "timing {} {} programs, compiled and interpreted…",
            cases.len(),
            corpus.title
        );
        let start = Instant::now();
        let timings: Vec<Timing> = cases
            .iter()
            .map(|&(case, entry)| {
                let timing = measure(corpus, case.index, entry, runs);
                // Progress, since a whole corpus takes minutes.
                eprintln!(
                    "{} {:>3}: {:>9} steps, {:>9.3} ms compiled, {:>9.3} ms interpreted ({:.2}×)",
                    corpus.extension,
                    timing.index,
                    timing.steps,
                    ms(timing.compiled),
                    ms(timing.interpreted),
                    timing.ratio()
                );
                timing
            })
            .collect();
        eprintln!("done in {:.0} s", start.elapsed().as_secs_f64());
        report(corpus, &timings, worst);
    }
}
