//! The Finvara corpus (`chess2rs_corpus::fv::finvara_corpus`)
//! outside the tests: write a program to files, or sample how programs run.
//!
//! ```text
//! cargo run -p chess2rs-golden --example fv_corpus -- dump INDEX [DIR]
//! cargo run --release -p chess2rs-golden --example fv_corpus -- stats [FROM [TO]]
//! cargo run --release -p chess2rs-golden --example fv_corpus -- time FILE [STEPS]
//! ```
//!
//! `dump` writes `DIR/fv_corpus_INDEX.fv` and its input `….fv.in` (DIR
//! defaults to the current directory) and prints the command that runs it
//! as the corpus test does. `stats` interprets programs FROM..TO (default
//! all) and prints, for each, the board size, the move lines executed and
//! the milliseconds that took (interpreted, with a step counter), the
//! share of the moves among the first 2,000 executed lines that were
//! valid, the share of those lines that did what the generator planned
//! (`FinvaraRun::expected`), and how the run ended.

use chess2rs_corpus::fv::{finvara_corpus, FV_CORPUS_LEN};
use chess2rs_runtime::Options;

#[path = "support/example.rs"]
mod example;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: usize| example::number(&args, i, default);
    match args.first().map(String::as_str) {
        Some("dump") if args.len() >= 2 => {
            let index = number(1, 0);
            let dir = args.get(2).map_or(".", String::as_str);
            let program = finvara_corpus(index);
            let path = format!("{dir}/fv_corpus_{index}.fv");
            std::fs::write(&path, &program.source).expect("the directory is writable");
            std::fs::write(format!("{path}.in"), &program.input)
                .expect("the directory is writable");
            println!(
                "wrote {path} and {path}.in; run it as the corpus test does:\n  \
                 chess2rs run {path} --max-steps {} < {path}.in",
                program.max_steps
            );
        }
        Some("time") if args.len() >= 2 => {
            let path = &args[1];
            let text = std::fs::read_to_string(path).expect("the program is readable");
            let input = std::fs::read_to_string(format!("{path}.in")).unwrap_or_default();
            let steps = number(2, 10_000);
            let source = chess2rs::Source::new(path.clone(), text);
            let checked = chess2rs::check(&source, chess2rs::Language::Finvara)
                .unwrap_or_else(|e| panic!("{}", e.render(&source)));
            let start = std::time::Instant::now();
            let result = chess2rs::interpret(
                &checked.program,
                input.as_bytes(),
                std::io::sink(),
                &Options::with_max_steps(steps as u64),
            );
            println!("{:.1} ms: {result:?}", start.elapsed().as_secs_f64() * 1e3);
        }
        Some("stats") => {
            let (from, to) = (number(1, 0), number(2, FV_CORPUS_LEN));
            println!("index  board   lines       ms  valid%  plan%  end");
            for index in from..to {
                stats(index);
            }
        }
        _ => {
            eprintln!(
                "usage: fv_corpus dump INDEX [DIR] | fv_corpus stats [FROM [TO]] | \
                 fv_corpus time FILE [STEPS]"
            );
            std::process::exit(2);
        }
    }
}

/// Prints one line about corpus program `index` run in the interpreter.
fn stats(index: usize) {
    let program = finvara_corpus(index);
    let source = chess2rs::Source::new(format!("fv_corpus_{index}.fv"), program.source.clone());
    let Some(checked) = example::checked(index, &source, chess2rs::Language::Finvara) else {
        return;
    };
    let run = example::run(&checked, &program.input, program.max_steps);
    let mut trace = Vec::new();
    let _ = chess2rs::interpret_traced(
        &checked,
        program.input.as_bytes(),
        std::io::sink(),
        &Options::with_max_steps(2_000),
        2_000,
        &mut trace,
    );
    let trace = String::from_utf8_lossy(&trace);
    let valid = trace.matches("  [valid]\n").count();
    let moves = valid + trace.matches("  [invalid]\n").count();
    // How often a line did what the generator planned.
    let first = program
        .source
        .lines()
        .position(|l| l.starts_with("Turn 1 W:"))
        .unwrap_or(0)
        + 1;
    let (mut lines, mut as_planned) = (0, 0);
    for step in trace.lines().filter(|l| l.starts_with("line ")) {
        let number: usize = step[5..step.find(':').unwrap_or(5)].parse().unwrap_or(0);
        let planned = program.expected.as_bytes().get(number - first).copied();
        let verdict = &step[step.rfind('[').unwrap_or(0)..];
        lines += 1;
        as_planned += usize::from(matches!(
            (planned, verdict),
            (Some(b'v'), "[valid]") | (Some(b'i'), "[invalid]") | (Some(b'c'), "[checks]")
        ));
    }
    let size = program
        .source
        .lines()
        .next()
        .and_then(|l| l.split_whitespace().find(|w| w.contains('x')))
        .unwrap_or("?")
        .to_string();
    println!(
        "{index:>5}  {size:>6} {:>7} {:>8.1}  {:>5.1}  {:>5.1}  {}",
        run.steps,
        run.time.as_secs_f64() * 1e3,
        100.0 * valid as f64 / moves.max(1) as f64,
        100.0 * as_planned as f64 / lines.max(1) as f64,
        run.end,
    );
}
