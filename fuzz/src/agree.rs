//! The differential fuzz target's body, shared with its replay test
//! (`golden/tests/fuzz_agree_replay.rs`, which includes this file): on
//! every compiled golden case and random program of `chess2rs-golden`, the
//! interpreter and the generated code give the same output and the same
//! error (or none) for any input and step limit.
//!
//! A fuzz input is `INDEX_LO INDEX_HI LIMIT_LO LIMIT_HI STDIN…`: the
//! program (the index modulo their number), the step limit (0–65,535) and
//! the bytes of standard input.

use std::sync::OnceLock;

use chess2rs_corpus::discover::discover;
use chess2rs_golden::{Entry, CASES, RANDOM};
use chess2rs_runtime::{Options, RuntimeError};

/// A program both ways: checked for the interpreter, and compiled.
struct Program {
    /// Where it comes from (a golden case's path, or `random N`).
    name: String,
    checked: chess2rs::Program,
    entry: Entry,
}

/// Every compiled golden case (in `CASES` order), then every random
/// program; checked once per process.
fn programs() -> &'static [Program] {
    static PROGRAMS: OnceLock<Vec<Program>> = OnceLock::new();
    PROGRAMS.get_or_init(|| {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden");
        let files = discover(&root);
        let golden = CASES.iter().filter_map(|case| {
            let entry = case.entry?;
            let file = files.iter().find(|file| file.name == case.name)?;
            let text = std::fs::read_to_string(&file.path).ok()?;
            Some((case.name.to_string(), text, entry))
        });
        let random = RANDOM.iter().enumerate().map(|(i, case)| {
            let name = format!("random {i}.{}", case.extension);
            (name, case.source.to_string(), case.entry)
        });
        golden
            .chain(random)
            .filter_map(|(name, text, entry)| {
                let language = chess2rs::Language::from_path(std::path::Path::new(&name))?;
                let source = chess2rs::Source::new(name.clone(), text);
                let checked = chess2rs::check(&source, language).ok()?.program;
                Some(Program {
                    name,
                    checked,
                    entry,
                })
            })
            .collect()
    })
}

/// What a run shows: its output and its error, with line and column.
fn outcome(result: Result<(), RuntimeError>, output: Vec<u8>) -> (Vec<u8>, Option<String>) {
    (output, result.err().map(|err| err.to_string()))
}

/// Runs the program `data` chooses both ways on the input and limit it
/// gives, and returns its name (`None` for an input too short to choose);
/// panics (a crash for the fuzzer) if the two disagree.
pub fn agree(data: &[u8]) -> Option<&'static str> {
    let programs = programs();
    let ([lo, hi, limit_lo, limit_hi], input) = match data.split_first_chunk::<4>() {
        Some((head, rest)) => (*head, rest),
        None => return None,
    };
    if programs.is_empty() {
        return None;
    }
    let program = &programs[usize::from(u16::from_le_bytes([lo, hi])) % programs.len()];
    let options = Options::with_max_steps(u64::from(u16::from_le_bytes([limit_lo, limit_hi])));
    let mut interpreted = Vec::new();
    let result = chess2rs::interpret(&program.checked, input, &mut interpreted, &options);
    let interpreted = outcome(result, interpreted);
    let mut compiled = Vec::new();
    let result = (program.entry)(&mut &input[..], &mut compiled, &options);
    let compiled = outcome(result, compiled);
    assert!(
        interpreted == compiled,
        "{}: the interpreter gives {:?} but the generated code {:?} (limit {}, input {:?})",
        program.name,
        (String::from_utf8_lossy(&interpreted.0), &interpreted.1),
        (String::from_utf8_lossy(&compiled.0), &compiled.1),
        options.max_steps.unwrap_or(0),
        String::from_utf8_lossy(input)
    );
    Some(&program.name)
}
