//! What the corpus examples (`corpus`, `fv_corpus`) share: their index
//! arguments, and what they print of a program run in the interpreter.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use chess2rs_runtime::Options;

/// Argument `index` of `args` as a number (an index into a corpus), or
/// `default` if there is none.
pub fn number(args: &[String], index: usize, default: usize) -> usize {
    args.get(index).map_or(default, |a| {
        a.parse().unwrap_or_else(|_| panic!("not an index: {a}"))
    })
}

/// How a run in the interpreter went.
pub struct Run {
    /// The steps it executed.
    pub steps: u64,
    /// How long it took.
    pub time: Duration,
    /// How it ended: `halted`, or the first line of its error.
    pub end: String,
}

/// `source` checked as `language`, or `None` after printing (as program
/// `index`) why it does not compile.
pub fn checked(
    index: usize,
    source: &chess2rs::Source,
    language: chess2rs::Language,
) -> Option<chess2rs::Program> {
    match chess2rs::check(source, language) {
        Ok(checked) => Some(checked.program),
        Err(errors) => {
            println!("{index:>5}  does not compile:\n{}", errors.render(source));
            None
        }
    }
}

/// Runs `program` in the interpreter on `input`, at most `max_steps`
/// steps, with its output discarded.
pub fn run(program: &chess2rs::Program, input: &str, max_steps: u64) -> Run {
    let options = Options::with_max_steps(max_steps);
    let done = AtomicU64::new(0);
    let start = Instant::now();
    let result =
        chess2rs::interpret_counted(program, input.as_bytes(), std::io::sink(), &options, &done);
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
    Run {
        steps: done.load(Ordering::Relaxed),
        time,
        end,
    }
}
