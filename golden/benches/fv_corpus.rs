//! The Finvara corpus compiled and interpreted: every program of
//! `chess2rs_golden::FV_CORPUS` (all 300 with the `corpus` feature, every
//! tenth without) run on its input under its step limit, timed both ways
//! with `std::time::Instant` (the best of several runs), then a Markdown
//! summary of the distribution.
//!
//! ```text
//! cargo bench -p chess2rs-golden --features corpus --bench fv_corpus
//! ```
//!
//! Environment:
//! - `FV_CORPUS_ONLY=17,42`: only those programs (to profile one; `cargo
//!   run -p chess2rs-golden --example fv_corpus -- dump 17` writes it to a
//!   file);
//! - `FV_CORPUS_EACH=1`: also a table row per program;
//! - `FV_CORPUS_RUNS=N`: N timed runs each way (default 3; fewer for
//!   programs that take seconds, more for short ones, up to 0.2 s a way).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chess2rs_golden::random_programs::finvara_corpus;
use chess2rs_golden::{Entry, FV_CORPUS};
use chess2rs_runtime::{Options, RuntimeError};

/// Interpreted runs over this long count as long enough to matter.
const LONG: Duration = Duration::from_millis(5);

/// One program's measurements.
struct Timing {
    index: usize,
    board: String,
    lines: u64,
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

    fn ns_per_line(&self, time: Duration) -> f64 {
        time.as_nanos() as f64 / self.lines.max(1) as f64
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

fn measure(index: usize, entry: Entry, runs: usize) -> Timing {
    let program = finvara_corpus(index);
    let source = chess2rs::Source::new(format!("fv_corpus_{index}.fv"), program.source.clone());
    let checked = chess2rs::check(&source, chess2rs::Language::Finvara)
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
        "corpus program {index} disagrees compiled and interpreted (tests/fv_corpus.rs says how)"
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
    let board = program
        .source
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().find(|w| w.contains('x')))
        .unwrap_or("?")
        .to_string();
    Timing {
        index,
        board,
        lines: steps.load(Ordering::Relaxed),
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

fn main() {
    // `cargo bench` passes `--bench`; a name filter is not supported.
    let only: Option<Vec<usize>> = std::env::var("FV_CORPUS_ONLY").ok().map(|list| {
        list.split(',')
            .map(|n| n.trim().parse().expect("FV_CORPUS_ONLY lists indices"))
            .collect()
    });
    let runs = std::env::var("FV_CORPUS_RUNS")
        .ok()
        .map_or(3, |n| n.parse().expect("FV_CORPUS_RUNS is a number"));
    let cases: Vec<_> = FV_CORPUS
        .iter()
        .filter(|c| only.as_ref().is_none_or(|o| o.contains(&c.index)))
        .filter_map(|c| c.entry.map(|entry| (c.index, entry)))
        .collect();
    if cases.is_empty() {
        eprintln!("no corpus program to run (FV_CORPUS_ONLY names ones not in this build?)");
        return;
    }
    eprintln!(
        "timing {} corpus programs, compiled and interpreted…",
        cases.len()
    );
    let start = Instant::now();
    let timings: Vec<Timing> = cases
        .iter()
        .map(|&(index, entry)| {
            let timing = measure(index, entry, runs);
            // Progress, since the whole corpus takes minutes.
            eprintln!(
                "program {:>3}: {:>7} lines, {:>9.3} ms compiled, {:>9.3} ms interpreted ({:.2}×)",
                timing.index,
                timing.lines,
                timing.compiled.as_secs_f64() * 1e3,
                timing.interpreted.as_secs_f64() * 1e3,
                timing.ratio()
            );
            timing
        })
        .collect();
    eprintln!("done in {:.0} s", start.elapsed().as_secs_f64());
    let lines: Vec<f64> = timings.iter().map(|t| t.lines as f64).collect();
    let total: u64 = timings.iter().map(|t| t.lines).sum();
    let (lines_min, lines_median, lines_max) = spread(lines);
    let (ratio_min, ratio_median, ratio_max) = spread(timings.iter().map(Timing::ratio).collect());
    let per_line = |compiled: bool| {
        spread(
            timings
                .iter()
                .map(|t| t.ns_per_line(if compiled { t.compiled } else { t.interpreted }))
                .collect(),
        )
    };
    let (c_min, c_median, c_max) = per_line(true);
    let (i_min, i_median, i_max) = per_line(false);
    let long: Vec<&Timing> = timings.iter().filter(|t| t.interpreted > LONG).collect();
    let slower: Vec<&Timing> = long
        .iter()
        .copied()
        .filter(|t| t.compiled > t.interpreted)
        .collect();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!("| Finvara corpus | |");
    println!("|---|---|");
    println!("| programs | {} |", timings.len());
    println!(
        "| executed move lines: total / min / median / max | {total} / {lines_min:.0} / {lines_median:.0} / {lines_max:.0} |"
    );
    println!(
        "| speed ratio, interpreted time ÷ compiled time: min / median / max | {ratio_min:.2} / {ratio_median:.2} / {ratio_max:.2} |"
    );
    println!(
        "| ns per executed line, compiled: min / median / max | {c_min:.0} / {c_median:.0} / {c_max:.0} |"
    );
    println!(
        "| ns per executed line, interpreted: min / median / max | {i_min:.0} / {i_median:.0} / {i_max:.0} |"
    );
    println!(
        "| programs with an interpreted run over {} ms | {} |",
        LONG.as_millis(),
        long.len()
    );
    let listed = if slower.is_empty() {
        "none".to_string()
    } else {
        slower
            .iter()
            .map(|t| {
                format!(
                    "{} ({:.2} ms compiled, {:.2} ms interpreted)",
                    t.index,
                    ms(t.compiled),
                    ms(t.interpreted)
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    println!(
        "| of those, slower compiled | {} : {listed} |",
        slower.len()
    );
    // How the ratios spread.
    let buckets = [
        (0.0, 1.0),
        (1.0, 1.5),
        (1.5, 2.0),
        (2.0, 4.0),
        (4.0, 8.0),
        (8.0, f64::INFINITY),
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
    if std::env::var_os("FV_CORPUS_EACH").is_some() {
        println!();
        println!("| program | board | lines | compiled ms | interpreted ms | ratio | end |");
        println!("|---|---|---|---|---|---|---|");
        for t in &timings {
            println!(
                "| {} | {} | {} | {:.3} | {:.3} | {:.2} | {} |",
                t.index,
                t.board,
                t.lines,
                ms(t.compiled),
                ms(t.interpreted),
                t.ratio(),
                t.end
            );
        }
    }
}
