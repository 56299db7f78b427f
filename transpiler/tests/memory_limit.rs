//! The memory budget end to end: a program that grows without end (a
//! Turing machine walking right, InfChessPro placing a piece per input
//! pair, Finvara pushing an input number per move or searching a move's
//! paths without end) stops with a runtime
//! error at the line that grew it — under `--max-memory`, in the
//! interpreter and in the built executable alike, and under an address-space
//! limit of 256 MB with the default budget, where the system refuses memory
//! before the budget does.

use std::process::{Command, Output};

#[path = "support/child.rs"]
mod child;
#[path = "support/growth.rs"]
mod growth;
#[path = "support/runtime_cache.rs"]
#[allow(dead_code)]
mod runtime_cache;
#[path = "support/scratch.rs"]
mod scratch;
use child::run_with_input;
use growth::{PLACE_ICP, PUSH_FV, SEARCH_FV, WALK_BTM};
use scratch::scratch;

/// The growth programs: file name, text, the line the error names, and
/// the input that keeps them growing (as much as they could want).
fn growth_programs() -> Vec<(&'static str, &'static str, u32, Vec<u8>)> {
    let pairs: String = (1..=2_000_000).map(|i| format!("{i} {i}\n")).collect();
    vec![
        ("walk.btm", WALK_BTM, 1, Vec::new()),
        ("place.icp", PLACE_ICP, 1, pairs.into_bytes()),
        ("push.fv", PUSH_FV, 10, "7\n".repeat(4_000_000).into_bytes()),
        ("search.fv", SEARCH_FV, 19, b"1\n".to_vec()),
    ]
}

/// Runs `command` with `input` on stdin ([`run_with_input`]).
fn run(mut command: Command, input: &[u8]) -> Output {
    run_with_input(&mut command, input)
}

/// Asserts that `output` is the memory error of `file` at `line`: exit 1,
/// the message, and the location.
fn assert_memory_error(output: &Output, file: &str, line: u32, how: &str) {
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{file} ({how}): {stderr}");
    assert!(
        stderr.contains("needs more memory than its limit of")
            || stderr.contains("the system has no more memory for the program"),
        "{file} ({how}): {stderr}"
    );
    assert!(
        stderr.contains(&format!("--> {file}:{line}:")),
        "{file} ({how}) should name line {line}: {stderr}"
    );
    assert!(stderr.contains("--max-memory"), "{file} ({how}): {stderr}");
}

#[test]
fn growth_past_max_memory_is_an_error_at_the_line_interpreted_and_compiled() {
    let dir = scratch("max_memory");
    runtime_cache::seed(&dir.join("cache"), "0");
    for (file, text, line, input) in growth_programs() {
        std::fs::write(dir.join(file), text).unwrap();
        let mut interpret = Command::new(env!("CARGO_BIN_EXE_chess2rs"));
        interpret
            .current_dir(&dir)
            .args(["interpret", file, "--max-memory", "4M"]);
        let interpreted = run(interpret, &input);
        assert_memory_error(&interpreted, file, line, "interpret");
        assert!(String::from_utf8_lossy(&interpreted.stderr).contains("limit of 4 MiB"));

        let mut build = Command::new(env!("CARGO_BIN_EXE_chess2rs"));
        build
            .current_dir(&dir)
            .env("CHESS2RS_CACHE_DIR", dir.join("cache"))
            .env("CHESS2RS_OPT_LEVEL", "0")
            .args(["run", "--tier=compiled", "-q", file, "--max-memory", "4M"]);
        let compiled = run(build, &input);
        assert_memory_error(&compiled, file, line, "run");
        assert_eq!(
            String::from_utf8_lossy(&compiled.stderr),
            String::from_utf8_lossy(&interpreted.stderr),
            "{file}: the same error compiled and interpreted"
        );
    }
}

/// Built executables (fully optimised) and the interpreter under an
/// address space of 256 MB (`ulimit -v`) with the default budget (2 GiB):
/// the system refuses memory first, and that is the same clean error, not
/// an abort. Input comes from `seq` and `yes`, as much as the programs want.
/// (The interpreter runs only InfChessPro here: this test binary is a debug
/// build, which takes tens of seconds to fill even 256 MB a tape cell or a stack entry at
/// a time.) One test per program, so that they run side by side.
#[cfg(unix)]
fn growth_under_an_address_space_limit_is_an_error_not_an_abort(
    file: &str,
    text: &str,
    line: u32,
    feed: &str,
) {
    let dir = scratch(format!("address_space_limit_{}", file.replace('.', "_")));
    let chess2rs = env!("CARGO_BIN_EXE_chess2rs");
    std::fs::write(dir.join(file), text).unwrap();
    // The optimised runtime library, built once for the four tests.
    runtime_cache::seed(&dir.join("cache"), "3");
    let exe = dir.join(file.replace('.', "_"));
    let built = Command::new(chess2rs)
        .current_dir(&dir)
        .env("CHESS2RS_CACHE_DIR", dir.join("cache"))
        .args(["build", "-q", file, "-o"])
        .arg(&exe)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let mut limited = Command::new("sh");
    limited.current_dir(&dir).args([
        "-c",
        "$1 | (ulimit -v 262144 && exec \"$0\")",
        exe.to_str().unwrap(),
        feed,
    ]);
    assert_memory_error(&run(limited, b""), file, line, "built, ulimit -v 262144");
    if file.ends_with(".icp") {
        let mut interpreted = Command::new("sh");
        interpreted.current_dir(&dir).args([
            "-c",
            "$2 | (ulimit -v 262144 && exec \"$0\" interpret \"$1\")",
            chess2rs,
            file,
            feed,
        ]);
        assert_memory_error(
            &run(interpreted, b""),
            file,
            line,
            "interpreted, ulimit -v 262144",
        );
    }
}

#[cfg(unix)]
#[test]
fn a_growing_tape_under_an_address_space_limit_is_an_error_not_an_abort() {
    growth_under_an_address_space_limit_is_an_error_not_an_abort("walk.btm", WALK_BTM, 1, "true");
}

#[cfg(unix)]
#[test]
fn growing_pieces_under_an_address_space_limit_are_an_error_not_an_abort() {
    growth_under_an_address_space_limit_is_an_error_not_an_abort(
        "place.icp",
        PLACE_ICP,
        1,
        "seq 1 1000000000",
    );
}

#[cfg(unix)]
#[test]
fn a_growing_stack_under_an_address_space_limit_is_an_error_not_an_abort() {
    growth_under_an_address_space_limit_is_an_error_not_an_abort("push.fv", PUSH_FV, 10, "yes 7");
}

#[cfg(unix)]
#[test]
fn a_growing_search_under_an_address_space_limit_is_an_error_not_an_abort() {
    growth_under_an_address_space_limit_is_an_error_not_an_abort(
        "search.fv",
        SEARCH_FV,
        19,
        "true",
    );
}

/// A notation of 40 MB (6.8 million leaps on one line) is refused while it
/// is parsed, once the program passes the limit of notation items, with
/// memory bounded by that limit rather than by the input: under 1.5 GB of
/// address space (the whole tree of such a notation took 3.7 GB and was
/// aborted by the allocator).
#[cfg(unix)]
#[test]
fn a_huge_notation_is_refused_while_parsing_within_bounded_memory() {
    let dir = scratch("huge_notation");
    let leaps = vec!["(1,0)"; 6_800_000].join(",");
    let text = format!("(K): {{{leaps}}}\n+--+\n|KW|\n+--+\nTurn 1 W: K a1 -> a1\n");
    std::fs::write(dir.join("huge.fv"), text).unwrap();
    let mut limited = Command::new("sh");
    limited.current_dir(&dir).args([
        "-c",
        "ulimit -v 1500000 && exec \"$0\" check huge.fv",
        env!("CARGO_BIN_EXE_chess2rs"),
    ]);
    let output = run(limited, b"");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("the pieces' notations have more than 2,097,152 leaps"),
        "{stderr}"
    );
    assert!(
        stderr.len() < 2_000,
        "the report quotes a short part of the line"
    );
}
