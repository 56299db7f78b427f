//! Property (issue 23, "never abort"): for random programs of every
//! language, no run of the `chess2rs` command under an address-space limit
//! of 512 MB (`ulimit -v 524288`) ends in a signal or with exit 101 (a
//! panic) or 134 (an abort, e.g. "memory allocation failed"): `interpret`
//! (with a step limit, so that every run ends), the bare command (which
//! prints the generated Rust: the compiler must not abort either) and
//! `check` all end with 0, 1 or 2. Chessoteric games are made from random
//! BTM listings by `chess2rs synth`, itself under the limit, or taken from
//! the golden games.
//!
//! And for each language whose programs grow (a Turing machine's tape,
//! InfChessPro's pieces, Finvara's stacks; Chess Code's 64 cells do not),
//! a program that grows without end under a step limit it never reaches
//! stops with the runtime error "the system has no more memory for the
//! program", exit 1: the system refuses memory before the default budget
//! (2 GiB) is spent. These runs have 128 MB: any limit under the budget
//! shows it, and a debug build fills 512 MB four times as slowly.
//!
//! The test lives with the `chess2rs` binary, whose path Cargo gives only
//! to this package's tests; the random-program generators are the golden
//! tests' (the `chess2rs-corpus` crate, a dev-dependency).
//! `ADDRESS_SPACE_CASES=500` runs more random cases than the default 48,
//! drawn afresh (the default run draws the same 48 every time).
#![cfg(unix)]

use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Command, Output};

use proptest::prelude::*;

use chess2rs_corpus::{btm, chc, fv, icp, Random};

#[path = "support/child.rs"]
mod child;
#[path = "support/growth.rs"]
mod growth;
#[path = "support/scratch.rs"]
mod scratch;
use child::run_with_input;
use growth::{PLACE_ICP, PUSH_FV, SEARCH_FV, WALK_BTM};
use scratch::scratch;

/// The address-space limit of every run, in KiB (`ulimit -v`): 512 MB.
const LIMIT_KIB: u64 = 524_288;

/// The limit of the runs that grow until the system refuses memory: 128 MB,
/// well under the default budget, and filled four times as fast as 512 MB
/// (half a minute for Finvara's stack in a debug build).
const GROWTH_LIMIT_KIB: u64 = 131_072;

/// The message of a growth the system refused.
const NO_MORE_MEMORY: &str = "the system has no more memory for the program";

/// Runs `chess2rs ARGS` in `dir` under an address-space limit of
/// `limit_kib` KiB, with
/// `input` on stdin (written from a thread; a child that stops reading
/// closes the pipe, which is not an error here). With `feed`, a shell
/// command whose output is piped into it instead (`yes 7`: input without
/// end, which no buffer here could hold).
fn limited(dir: &Path, limit_kib: u64, args: &[&str], input: &[u8], feed: Option<&str>) -> Output {
    let script = format!(
        "{}(ulimit -v {limit_kib} && exec \"$0\" \"$@\")",
        feed.map_or(String::new(), |feed| format!("{feed} | "))
    );
    run_with_input(
        Command::new("sh")
            .current_dir(dir)
            .arg("-c")
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_chess2rs"))
            .args(args),
        input,
    )
}

/// `Err` with what went wrong unless `output` ended with exit 0, 1 or 2
/// (not a signal, a panic's 101 or an abort's 134).
fn ended_cleanly(output: &Output, what: &str) -> Result<(), String> {
    let stderr = String::from_utf8_lossy(&output.stderr);
    match (output.status.code(), output.status.signal()) {
        (Some(0..=2), _) => Ok(()),
        (Some(code), _) => Err(format!("{what}: exit {code}\nstderr:\n{stderr}")),
        (None, signal) => Err(format!(
            "{what}: killed by signal {signal:?}\nstderr:\n{stderr}"
        )),
    }
}

/// One random case: a program of some language, its input and a step
/// limit.
#[derive(Debug)]
struct Case {
    /// The file extension: icp, chc, pgn, btm or fv.
    extension: &'static str,
    /// The program text (for `pgn`: the BTM listing `synth` makes the game
    /// of, or a golden game's name as `golden:NAME`).
    source: String,
    /// Standard input.
    input: Vec<u8>,
    /// The `--max-steps` of `interpret`.
    max_steps: u64,
}

/// Input tokens the random programs read: small numbers (moves, cells,
/// symbols), letters, a non-number, numbers near the `i64` edge.
const TOKENS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "-1",
    "-2",
    "7",
    "65",
    "x",
    "9223372036854775807",
    "-9223372036854775808",
];

/// The golden Chessoteric games.
fn golden_games() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden/chessoteric");
    let mut games: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".pgn"))
        .collect();
    games.sort();
    games
}

/// The case made from `seed`: a language (each a fifth of the time), a
/// program from its generator, random input and a step limit under
/// `max_steps` (Finvara's running programs bring their own input and
/// limit, capped the same).
fn case(seed: u64, max_steps: u64) -> Case {
    let mut random = Random::new(seed);
    let mut input = String::new();
    for _ in 0..random.below(40) {
        input.push_str(random.pick::<&str>(TOKENS));
        input.push(*random.pick(&[' ', '\n']));
    }
    let mut input = input.into_bytes();
    if random.below(8) == 0 {
        // Bytes of any value (Chess Code and Turing machines read bytes).
        input.extend((0..random.below(64)).map(|_| random.below(256) as u8));
    }
    let max_steps = random.below(max_steps + 1);
    let (extension, source) = match random.below(5) {
        0 => ("icp", icp::infchesspro(&mut random)),
        1 if random.below(3) == 0 => ("chc", chc::chess_code_polynomial_loops(&mut random)),
        1 => ("chc", chc::chess_code(&mut random)),
        2 => ("btm", btm::btm(&mut random)),
        3 if random.below(3) == 0 => {
            let games = golden_games();
            ("pgn", format!("golden:{}", random.pick(&games)))
        }
        3 => ("pgn", btm::btm(&mut random)),
        _ if random.below(2) == 0 => {
            let run = fv::finvara_running(&mut random);
            return Case {
                extension: "fv",
                source: run.source,
                input: run.input.into_bytes(),
                max_steps: run.max_steps.min(max_steps),
            };
        }
        _ => ("fv", fv::finvara(&mut random)),
    };
    Case {
        extension,
        source,
        input,
        max_steps,
    }
}

/// Runs `case` in `dir` — for a game made from a listing, `synth` first —
/// then `interpret`, the bare command and `check`, each under the limit:
/// `Err` at the first that ended badly.
fn run_case(case: &Case, dir: &Path) -> Result<(), String> {
    let file = format!("random.{}", case.extension);
    if let Some(name) = case.source.strip_prefix("golden:") {
        let game = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../golden/chessoteric")
            .join(name);
        std::fs::copy(game, dir.join(&file)).unwrap();
    } else if case.extension == "pgn" {
        std::fs::write(dir.join("random.btm"), &case.source).unwrap();
        let synth = limited(
            dir,
            LIMIT_KIB,
            &["synth", "-q", "--design", "corner", "random.btm"],
            b"",
            None,
        );
        ended_cleanly(&synth, "synth")?;
        if synth.status.code() != Some(0) {
            // A listing with errors makes no game: nothing more to run.
            return Ok(());
        }
        std::fs::write(dir.join(&file), &synth.stdout).unwrap();
    } else {
        std::fs::write(dir.join(&file), &case.source).unwrap();
    }
    let steps = case.max_steps.to_string();
    let interpret = ["interpret", &file, "--max-steps", &steps];
    ended_cleanly(
        &limited(dir, LIMIT_KIB, &interpret, &case.input, None),
        "interpret",
    )?;
    ended_cleanly(
        &limited(dir, LIMIT_KIB, &[&file], b"", None),
        "chess2rs FILE",
    )?;
    ended_cleanly(
        &limited(dir, LIMIT_KIB, &["check", &file], b"", None),
        "check",
    )
}

proptest! {
    // `ADDRESS_SPACE_CASES=500` for a long run.
    #![proptest_config(ProptestConfig {
        cases: std::env::var("ADDRESS_SPACE_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(48),
        // A seed's program does not get simpler as the seed does; the
        // failure message shows the program.
        max_shrink_iters: 0,
        // The default run draws the same 48 programs every time (CI must
        // not fail on a program no change brought); `ADDRESS_SPACE_CASES`
        // draws new ones.
        rng_seed: if std::env::var_os("ADDRESS_SPACE_CASES").is_some() {
            proptest::test_runner::RngSeed::Random
        } else {
            proptest::test_runner::RngSeed::Fixed(0x2026_1126)
        },
        ..ProptestConfig::default()
    })]

    /// Random programs of every language under 512 MB: no signal, no 101
    /// or 134, whether interpreted, compiled to Rust or checked.
    #[test]
    fn random_programs_never_abort_under_512_mb(seed in any::<u64>()) {
        let dir = scratch(format!("address_space_{seed:016x}"));
        let case = case(seed, 100_000);
        let result = run_case(&case, &dir);
        let _ = std::fs::remove_dir_all(&dir);
        if let Err(failure) = result {
            return Err(TestCaseError::fail(format!(
                "{failure}\n.{} program (seed {seed:#x}, --max-steps {}):\n{}\ninput: {:?}",
                case.extension,
                case.max_steps,
                case.source,
                String::from_utf8_lossy(&case.input)
            )));
        }
    }
}

/// Asserts that `output` is the system's refusal of memory: exit 1 and the
/// message.
fn assert_out_of_memory(output: &Output, what: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{what}: {stderr}");
    assert!(stderr.contains(NO_MORE_MEMORY), "{what}: {stderr}");
}

/// Interprets `file` (written with `text` into a fresh scratch directory
/// named after it; for a `.pgn`, `text` is a BTM listing and the game is
/// the one `synth` makes of it) under 128 MB with input from `feed` and a
/// step limit it never reaches: a clean out-of-memory error, exit 1.
/// Compiling it to Rust and checking it under 512 MB end with 0.
fn runs_out_of_memory_cleanly(file: &str, text: &str, feed: &str) {
    let dir = scratch(format!("address_space_{}", file.replace('.', "_")));
    if let Some(name) = file.strip_suffix(".pgn") {
        let listing = format!("{name}.btm");
        std::fs::write(dir.join(&listing), text).unwrap();
        let synth = limited(&dir, LIMIT_KIB, &["synth", "-q", &listing], b"", None);
        assert_eq!(synth.status.code(), Some(0), "synth {listing}");
        std::fs::write(dir.join(file), &synth.stdout).unwrap();
    } else {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let steps = u64::MAX.to_string();
    let interpret = ["interpret", file, "--max-steps", &steps];
    assert_out_of_memory(
        &limited(&dir, GROWTH_LIMIT_KIB, &interpret, b"", Some(feed)),
        file,
    );
    for args in [vec![file], vec!["check", file]] {
        let output = limited(&dir, LIMIT_KIB, &args, b"", None);
        assert_eq!(output.status.code(), Some(0), "{args:?}");
    }
}

// The growing programs below take a debug build from a second (InfChessPro)
// to ten seconds (Finvara, an 8-byte number every four lines) to fill
// 128 MB; as separate tests they run side by side.

/// A Turing machine's tape, a cell a step.
#[test]
fn a_growing_tape_runs_out_of_memory_cleanly() {
    runs_out_of_memory_cleanly("walk.btm", WALK_BTM, "true");
}

/// The same machine built by a Chessoteric game.
#[test]
fn a_growing_chessoteric_tape_runs_out_of_memory_cleanly() {
    runs_out_of_memory_cleanly("walk.pgn", WALK_BTM, "true");
}

/// InfChessPro's pieces, one per distinct pair of input numbers.
#[test]
fn growing_infchesspro_pieces_run_out_of_memory_cleanly() {
    runs_out_of_memory_cleanly("place.icp", PLACE_ICP, "seq 1 1000000000");
}

/// Finvara's stack, an input number every pass.
#[test]
fn a_growing_finvara_stack_runs_out_of_memory_cleanly() {
    runs_out_of_memory_cleanly("push.fv", PUSH_FV, "yes 7");
}

/// Chess Code has 64 cells and nothing that grows: a loop reading input
/// without end (`a1#`, while b1 stays equal to R, both 0) under 512 MB
/// ends at the step limit, exit 1.
#[test]
fn chess_code_reading_forever_ends_at_the_step_limit() {
    let dir = scratch("address_space_loop_chc");
    std::fs::write(dir.join("loop.chc"), "1/2 1/2\n  a1#\nb1=R\n").unwrap();
    let looped = limited(
        &dir,
        LIMIT_KIB,
        &["interpret", "loop.chc", "--max-steps", "300000"],
        b"",
        Some("yes 7"),
    );
    let stderr = String::from_utf8_lossy(&looped.stderr);
    assert_eq!(looped.status.code(), Some(1), "loop.chc: {stderr}");
    assert!(
        stderr.contains("step limit of 300000 reached"),
        "loop.chc: {stderr}"
    );
}

/// Found by `random_programs_never_abort_under_512_mb` (seed
/// 0x97f6f3f3c854e2db, 800 cases): a random Finvara program whose first
/// move line's search (a `"s"` call into a crooked rider repeated "the same
/// way each time") visits ever more nodes. Its working memory (visited
/// nodes, repetition contexts, effects) once grew infallibly and outside
/// the budget: "memory allocation of 176160784 bytes failed" (exit 134)
/// after minutes, as the visited set's chains made every insertion walk
/// thousands of nodes. Now it is charged and the run ends with the memory
/// error at the move line in seconds.
#[test]
fn finvara_move_search_outgrowing_memory_is_a_runtime_error() {
    let dir = scratch("address_space_fv_search");
    std::fs::write(dir.join("search.fv"), SEARCH_FV).unwrap();
    let args = ["interpret", "search.fv", "--max-steps", "95806"];
    let output = limited(
        &dir,
        LIMIT_KIB,
        &args,
        b"9223372036854775807\n2 3 x\n",
        None,
    );
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "stderr:\n{stderr}");
    assert!(
        stderr.contains("grows the program's memory here") && stderr.contains("search.fv:19:1"),
        "stderr:\n{stderr}"
    );
}
