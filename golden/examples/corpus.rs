//! The corpora (`chess2rs_corpus::CORPORA`) outside the tests:
//! write a program to files, or see how programs run interpreted.
//!
//! ```text
//! cargo run -p chess2rs-golden --example corpus -- dump EXT INDEX [DIR]
//! cargo run --release -p chess2rs-golden --example corpus -- stats EXT [FROM [TO]]
//! ```
//!
//! `EXT` names the corpus (`chc`, `btm`, `icp`, `fv`). `dump` writes
//! `DIR/EXT_corpus_INDEX.EXT` and its input `….EXT.in` (DIR defaults to
//! the current directory) and prints the command that runs it as the
//! corpus test does. `stats` interprets programs FROM..TO (default all)
//! and prints, for each, the steps executed, the milliseconds that took,
//! how the run ended and the program's shape.

use std::sync::atomic::{AtomicU64, Ordering};

use chess2rs_corpus::Corpus;
use chess2rs_runtime::Options;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: usize| {
        args.get(i).map_or(default, |a| {
            a.parse().unwrap_or_else(|_| panic!("not an index: {a}"))
        })
    };
    let corpus = args
        .get(1)
        .map(|e| Corpus::by_extension(e).unwrap_or_else(|| panic!("no corpus of .{e} programs")));
    match (args.first().map(String::as_str), corpus) {
        (Some("dump"), Some(corpus)) if args.len() >= 3 => {
            let index = number(2, 0);
            let dir = args.get(3).map_or(".", String::as_str);
            let program = (corpus.program)(index);
            let path = format!("{dir}/{}.{}", corpus.name(index), corpus.extension);
            std::fs::write(&path, &program.source).expect("the directory is writable");
            std::fs::write(format!("{path}.in"), &program.input)
                .expect("the directory is writable");
            println!(
                "wrote {path} and {path}.in ({}); run it as the corpus test does:\n  \
                 chess2rs run {path} --max-steps {} < {path}.in",
                program.shape, program.max_steps
            );
        }
        (Some("stats"), Some(corpus)) => {
            let (from, to) = (number(2, 0), number(3, corpus.len));
            println!("index      steps        ms  end  |  shape");
            for index in from..to {
                stats(corpus, index);
            }
        }
        _ => {
            eprintln!("usage: corpus dump EXT INDEX [DIR] | corpus stats EXT [FROM [TO]]");
            std::process::exit(2);
        }
    }
}

/// Prints one line about program `index` of `corpus` run in the
/// interpreter.
fn stats(corpus: &Corpus, index: usize) {
    let program = (corpus.program)(index);
    let source = chess2rs::Source::new(
        format!("{}.{}", corpus.name(index), corpus.extension),
        program.source.clone(),
    );
    let language = chess2rs::Language::from_extension(corpus.extension).expect("known");
    let checked = match chess2rs::check(&source, language) {
        Ok(checked) => checked,
        Err(errors) => {
            println!("{index:>5}  does not compile:\n{}", errors.render(&source));
            return;
        }
    };
    let options = Options::with_max_steps(program.max_steps);
    let done = AtomicU64::new(0);
    let start = std::time::Instant::now();
    let result = chess2rs::interpret_counted(
        &checked.program,
        program.input.as_bytes(),
        std::io::sink(),
        &options,
        &done,
    );
    let time = start.elapsed();
    let end = match result {
        Ok(()) => "halted".to_string(),
        Err(error) => error
            .to_string()
            .lines()
            .next()
            .unwrap_or_default()
            .to_string(),
    };
    println!(
        "{index:>5} {:>10} {:>9.2}  {end}  |  {}",
        done.load(Ordering::Relaxed),
        time.as_secs_f64() * 1e3,
        program.shape
    );
}
