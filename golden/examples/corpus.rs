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

use chess2rs_corpus::Corpus;

#[path = "support/example.rs"]
mod example;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: usize| example::number(&args, i, default);
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
    let Some(checked) = example::checked(index, &source, language) else {
        return;
    };
    let run = example::run(&checked, &program.input, program.max_steps);
    println!(
        "{index:>5} {:>10} {:>9.2}  {}  |  {}",
        run.steps,
        run.time.as_secs_f64() * 1e3,
        run.end,
        program.shape
    );
}
