//! The `chess2rs` binary end to end: verbs, exit codes, `--help`, the build
//! cache, and `--standalone` output built by plain `rustc`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

#[path = "support/cache_entries.rs"]
#[allow(dead_code)]
mod cache_entries;
use cache_entries::build_directories;
#[path = "support/child.rs"]
mod child;
#[path = "support/runtime_cache.rs"]
#[allow(dead_code)]
mod runtime_cache;
use child::{feed_and_wait, run_with_input, spawn_piped};
#[path = "support/scratch.rs"]
mod scratch;
#[path = "support/text.rs"]
mod text;
use scratch::scratch;
use text::{assert_contains, text};

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn example(name: &str) -> PathBuf {
    workspace().join("examples").join(name)
}

/// [`scratch`] as a build cache that holds the runtime library built
/// with `CHESS2RS_OPT_LEVEL` at `opt_level` (these tests are not about
/// building it; `cache.rs` has those).
fn scratch_cache(test: &str, opt_level: &str) -> PathBuf {
    let cache = scratch(test);
    runtime_cache::seed(&cache, opt_level);
    cache
}

fn chess2rs(args: &[&str], stdin: &[u8], cache: &Path) -> Output {
    chess2rs_in(Path::new("."), &[], args, stdin, cache)
}

/// [`chess2rs`] with `CHESS2RS_OPT_LEVEL=0`: builds about three times
/// cheaper, for the tests of what `run` does around rustc (the cache, its
/// arguments, exit codes). The default, optimised build is tested by
/// `build_writes_an_executable`, `built_executables_explain_themselves_and_are_small`
/// and memory_limit.rs.
fn chess2rs_unoptimised(args: &[&str], stdin: &[u8], cache: &Path) -> Output {
    chess2rs_in(Path::new("."), &[UNOPTIMISED], args, stdin, cache)
}

/// The setting for unoptimised builds.
const UNOPTIMISED: (&str, &str) = ("CHESS2RS_OPT_LEVEL", "0");

/// `args` with `run` in its compiled tier: these tests are about what
/// `run` does around rustc and the executable (`tiers.rs` tests the tiers).
fn compiled_tier<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut args = args.to_vec();
    if args.first() == Some(&"run") {
        args.insert(1, "--tier=compiled");
    }
    args
}

/// [`chess2rs`] run in directory `dir` with the environment variables `env`.
fn chess2rs_in(
    dir: &Path,
    env: &[(&str, &str)],
    args: &[&str],
    stdin: &[u8],
    cache: &Path,
) -> Output {
    run_with_input(
        Command::new(env!("CARGO_BIN_EXE_chess2rs"))
            .envs(env.iter().copied())
            .current_dir(dir)
            .args(compiled_tier(args))
            .env("CHESS2RS_CACHE_DIR", cache),
        stdin,
    )
}

fn seed(name: &str) -> (String, Vec<u8>, String) {
    let path = example(name);
    let input = std::fs::read(format!("{}.in", path.display())).unwrap_or_default();
    let output = std::fs::read_to_string(format!("{}.out", path.display())).unwrap();
    (path.display().to_string(), input, output)
}

const SEEDS: [&str; 3] = ["beer.icp", "first.icp", "register.icp"];

#[test]
fn interpret_gives_the_expected_output_of_every_seed() {
    let cache = scratch("interpret");
    for name in SEEDS {
        let (path, input, expected) = seed(name);
        let out = chess2rs(&["interpret", &path], &input, &cache);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), expected, "{name}");
    }
}

#[test]
fn run_builds_once_then_reuses_the_cached_executable() {
    let cache = scratch_cache("run", "0");
    for name in SEEDS {
        let (path, input, expected) = seed(name);
        let first = chess2rs_unoptimised(&["run", &path], &input, &cache);
        assert_eq!(
            first.status.code(),
            Some(0),
            "{name}: {}",
            text(&first.stderr)
        );
        assert_eq!(text(&first.stdout), expected, "{name}");
        assert!(
            text(&first.stderr).contains("Compiling"),
            "{name}: progress shown"
        );
        let again = chess2rs_unoptimised(&["run", &path], &input, &cache);
        assert_eq!(text(&again.stdout), expected, "{name}");
        assert!(
            !text(&again.stderr).contains("Compiling"),
            "{name}: cached, {}",
            text(&again.stderr)
        );
    }
}

#[test]
fn run_passes_the_step_limit_and_the_exit_code_through() {
    let cache = scratch_cache("run_steps", "0");
    let dir = scratch("run_steps_src");
    let program = dir.join("loop.icp");
    std::fs::write(&program, "1. \"again\n2. ^?1\n").unwrap();
    let program = program.display().to_string();
    for verb in ["run", "interpret"] {
        let out = chess2rs_unoptimised(&[verb, &program, "--max-steps", "3"], b"", &cache);
        assert_eq!(out.status.code(), Some(1), "{verb}");
        assert_eq!(text(&out.stdout), "again\nagain\n", "{verb}");
        // The same rendering from the executable and the interpreter: the
        // message, the file and line, the line's text with a caret.
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("error[E0601]: step limit of 3 reached\n"),
            "{verb}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("  --> {program}:2:4\n")),
            "{verb}: {stderr}"
        );
        assert!(
            stderr.contains("2 | 2. ^?1\n  |    ^^^"),
            "{verb}: {stderr}"
        );
    }
}

/// `--standalone` output of one program per language, built by plain
/// `rustc -O p.rs` (the 2015 edition, no dependencies), runs correctly.
#[test]
fn standalone_output_builds_with_plain_rustc_without_warnings() {
    let dir = scratch("standalone");
    for name in [
        "register.icp",
        "add.chc",
        // Polynomial loops: closures for the pure passes.
        "triangles.chc",
        "chessoteric-hello.pgn",
        "hello.btm",
        "truth.fv",
    ] {
        let (path, input, expected) = seed(name);
        let out = chess2rs(&["--standalone", &path], b"", &dir);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        let stem = name.replace(['.', '-'], "_");
        let source = dir.join(format!("{stem}.rs"));
        std::fs::write(&source, &out.stdout).unwrap();
        let exe = dir.join(stem);
        // Unoptimised (with overflow checks): whether it builds and warns
        // does not depend on the level, and -O took most of this test's
        // minute and a half.
        let rustc = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
            .arg(&source)
            .arg("-o")
            .arg(&exe)
            .output()
            .unwrap();
        assert!(rustc.status.success(), "{name}: {}", text(&rustc.stderr));
        assert_eq!(
            text(&rustc.stderr),
            "",
            "{name}: rustc warnings on standalone output"
        );
        let child = Command::new(&exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let run = feed_and_wait(child, &input);
        assert_eq!(text(&run.stdout), expected, "{name}");
    }
}

#[test]
fn build_writes_an_executable() {
    let dir = scratch_cache("build", "3");
    let exe = dir.join("beer");
    let (path, _, expected) = seed("beer.icp");
    let out = chess2rs(
        &["build", &path, "-o", &exe.display().to_string()],
        b"",
        &dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let run = Command::new(&exe).output().unwrap();
    assert_eq!(text(&run.stdout), expected);
}

#[test]
fn program_from_stdin_needs_and_takes_lang() {
    let cache = scratch("stdin");
    let out = chess2rs(&["interpret", "-"], b"1. \"hi\n", &cache);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&text(&out.stderr), "give --lang");
    let out = chess2rs(&["check", "-", "--lang", "icp"], b"1. \"hi\n", &cache);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = chess2rs(&["-", "--lang", "InfChessPro"], b"1. \"hi\n", &cache);
    assert!(text(&out.stdout).contains("fn main()"));
}

#[test]
fn exit_codes_for_compile_errors_runtime_errors_and_bad_usage() {
    let cache = scratch("codes");
    let dir = scratch("codes_src");
    let bad = dir.join("bad.icp");
    std::fs::write(&bad, "1. ^?9\n").unwrap();
    let bad = bad.display().to_string();
    for args in [
        vec!["check", &bad],
        vec!["interpret", &bad],
        vec!["run", &bad],
        vec![&bad],
    ] {
        let out = chess2rs(&args, b"", &cache);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert_contains(&stderr, "error[E0105]: no line is labelled 9");
        assert_contains(&stderr, "bad.icp:1:5");
    }
    let (path, _, _) = seed("register.icp");
    let out = chess2rs(&["interpret", &path], b"1 2", &cache);
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_contains(
        &stderr,
        "error[E0602]: expected a number in the input, found its end",
    );
    assert_contains(&stderr, "register.icp:4:");
    assert_eq!(
        chess2rs(&["frobnicate"], b"", &cache).status.code(),
        Some(2)
    );
    assert_eq!(chess2rs(&["run"], b"", &cache).status.code(), Some(2));
    assert_eq!(
        chess2rs(&["check", "no/such/file.icp"], b"", &cache)
            .status
            .code(),
        Some(2)
    );
    let unknown = chess2rs(&["check", "prog.txt"], b"", &cache);
    assert_eq!(unknown.status.code(), Some(2));
    let finvara = chess2rs(&["check", "-", "--lang", "fv"], b"(k):\n", &cache);
    assert_eq!(finvara.status.code(), Some(2));
    assert!(text(&finvara.stderr).contains("error[E0510]: the program has no board"));
}

#[test]
fn every_verb_explains_itself_with_an_example() {
    let cache = scratch("help");
    for verb in [
        vec!["--help"],
        vec!["run", "--help"],
        vec!["build", "--help"],
        vec!["interpret", "--help"],
        vec!["check", "--help"],
        vec!["explain", "--help"],
        vec!["completions", "--help"],
        vec!["man", "--help"],
    ] {
        let out = chess2rs(&verb, b"", &cache);
        assert_eq!(out.status.code(), Some(0), "{verb:?}");
        let help = text(&out.stdout);
        assert!(help.contains("Example"), "{verb:?}: {help}");
    }
}

#[test]
fn check_reports_warnings_but_succeeds() {
    let cache = scratch("warnings");
    let out = chess2rs(&["check", "-", "--lang", "icp"], b"1. %ghost\n", &cache);
    assert_eq!(out.status.code(), Some(0));
    let stderr = text(&out.stderr);
    assert_contains(
        &stderr,
        "warning[W0151]: no piece called `ghost` is ever placed",
    );
    assert_contains(&stderr, "1 warning");
}

/// The golden cases, with their file conventions (shared with the golden
/// harness) and representatives.
#[path = "support/golden_cases.rs"]
mod golden_cases;

use golden_cases::{golden_cases, representatives, CaseFiles, Expected};

// What users type, for every golden case, checked against its expectation
// files, in three tests (one `chess2rs run` per case, a rustc build each,
// took minutes): `interpret` on every case; `run` itself on the cases with
// compile errors and on a representative few that compile; and the program
// files `run` builds for all compiling cases, built together by one rustc.
// The golden crate (golden/tests/golden.rs) checks the same cases through
// the library: the interpreter, the generated functions linked with the
// runtime crate, and `chess_program!`.

/// `each` on every item, in two workers (CI has two cores): all results,
/// in order.
fn on_two_workers<T: Sync, R: Send>(items: &[T], each: impl Fn(&T) -> Vec<R> + Sync) -> Vec<R> {
    let (first, second) = items.split_at(items.len() / 2);
    std::thread::scope(|scope| {
        let workers: Vec<_> = [first, second]
            .into_iter()
            .map(|items| scope.spawn(|| items.iter().flat_map(&each).collect::<Vec<_>>()))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap())
            .collect()
    })
}

fn assert_no_failures(failures: &[String]) {
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// How `out` (of `how` on `case`) differs from the expectations.
fn compare(how: &str, case: &CaseFiles, expected: &Expected, out: &Output) -> Vec<String> {
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    let mut failures = Vec::new();
    if stdout != expected.stdout {
        failures.push(format!(
            "{how} {}: stdout\n{stdout}\nexpected\n{}",
            case.name, expected.stdout
        ));
    }
    if out.status.code() != Some(expected.code) {
        failures.push(format!(
            "{how} {}: exit {:?}, expected {}\n{stderr}",
            case.name,
            out.status.code(),
            expected.code
        ));
    }
    for wanted in &expected.stderr_contains {
        if !stderr.contains(wanted.as_str()) {
            failures.push(format!(
                "{how} {}: stderr lacks `{wanted}`:\n{stderr}",
                case.name
            ));
        }
    }
    failures
}

/// `chess2rs VERB CASE [--max-steps N]` (with `extra` arguments) on the
/// case's input, from the golden directory with the case's own name, so
/// that file names in messages read as in the expectation files.
/// Unoptimised builds: a third of the time, and the golden crate checks the
/// optimised code of every case.
fn golden_cli(
    verb: &str,
    extra: &[&str],
    case: &CaseFiles,
    expected: &Expected,
    cache: &Path,
) -> Output {
    let mut args = vec![verb, case.name.as_str()];
    args.extend(extra);
    let steps = expected.max_steps.map(|n| n.to_string());
    if let Some(steps) = &steps {
        args.extend(["--max-steps", steps]);
    }
    let fast = [("CHESS2RS_OPT_LEVEL", "0")];
    chess2rs_in(
        &workspace().join("golden"),
        &fast,
        &args,
        &expected.input,
        cache,
    )
}

/// `chess2rs interpret` on every golden case.
#[test]
fn every_golden_case_through_interpret() {
    let cache = scratch("golden_interpret");
    let failures = on_two_workers(&golden_cases(), |(case, expected)| {
        let out = golden_cli("interpret", &[], case, expected, &cache);
        compare("interpret", case, expected, &out)
    });
    assert_no_failures(&failures);
}

/// `chess2rs run` itself — generation, rustc, the cache, the run with the
/// case's input, step limit, exit code and stderr — on every golden case
/// with compile errors (which stop before rustc) and on the
/// [`representatives`] of those that compile: every language, input, a
/// runtime error, a step limit and warnings. The program file `run` builds
/// for every other compiling case is built and run by
/// `every_golden_program_file_builds_and_runs`.
#[test]
fn golden_error_cases_and_representatives_through_run() {
    let cache = scratch_cache("golden_run", "0");
    let cases = golden_cases();
    let mut through_run: Vec<_> = cases.iter().filter(|(_, e)| e.code == 2).collect();
    let errors = through_run.len();
    let representatives = representatives(&cases);
    let names: Vec<&str> = representatives
        .iter()
        .map(|(c, _)| c.name.as_str())
        .collect();
    eprintln!(
        "run: {errors} cases with compile errors, and {}",
        names.join(", ")
    );
    through_run.extend(representatives);
    let failures = on_two_workers(&through_run, |(case, expected)| {
        let out = golden_cli("run", &["--quiet"], case, expected, &cache);
        compare("run", case, expected, &out)
    });
    assert_no_failures(&failures);
}

/// The line that starts the runtime inlined into a standalone program file.
const INLINED_RUNTIME: &str = "/// The chess2rs runtime, inlined by `--standalone`.\n";

/// The environment variable that picks the case the combined executable
/// runs.
const CASE_VARIABLE: &str = "CHESS2RS_GOLDEN_CASE";

/// A program file as `--standalone` writes it, minus the runtime it
/// inlines, from the one `chess2rs FILE` writes: the runtime named
/// `crate::chess2rs_runtime`, the module the standalone file appends, not
/// the crate `chess2rs_runtime`. (Only the doc comment at the top differs
/// too: which build it is for.)
fn as_standalone(program_file: &str) -> String {
    program_file.replace("::chess2rs_runtime::", "crate::chess2rs_runtime::")
}

/// The lines of a program file but for its doc comment (`//!`).
fn code_lines(file: &str) -> Vec<&str> {
    file.lines().filter(|l| !l.starts_with("//!")).collect()
}

/// For every golden case that compiles, the program file `chess2rs run`
/// builds (its text from the binary), built with `run`'s rustc flags and
/// run with `run`'s arguments, the case's input and the warnings `run`
/// prints: the expected stdout, exit code and stderr; and again with
/// `--discard-output` at half its output (as after `run` switched from its
/// interpreter, `tiers.rs`): the rest of it, and the same stderr and code. All of them as
/// modules of one crate that holds one copy of the inlined runtime, built
/// by one rustc invocation (seconds, where a build per case took
/// minutes). `chess2rs run` itself is checked on representatives by
/// `golden_error_cases_and_representatives_through_run`.
#[test]
fn every_golden_program_file_builds_and_runs() {
    use std::fmt::Write as _;
    let dir = scratch("golden_program_files");
    let golden = workspace().join("golden");
    let cases = golden_cases();
    let mut failures = Vec::new();
    // The standalone program file `run` builds is what `chess2rs FILE`
    // writes with the runtime's path changed and the runtime appended.
    // `--standalone` costs a debug build of chess2rs half a second (it
    // prints the whole runtime), so it runs on the representatives only,
    // to confirm that and to give the runtime.
    let mut runtime: Option<String> = None;
    for (case, _) in representatives(&cases) {
        let plain = chess2rs_in(&golden, &[], &[&case.name], b"", &dir);
        let out = chess2rs_in(&golden, &[], &["--standalone", &case.name], b"", &dir);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}: {}",
            case.name,
            text(&out.stderr)
        );
        let file = text(&out.stdout);
        let at = file
            .find(INLINED_RUNTIME)
            .unwrap_or_else(|| panic!("--standalone {}: no inlined runtime", case.name));
        let (program, inlined) = file.split_at(at);
        assert_eq!(
            code_lines(program),
            code_lines(&as_standalone(&text(&plain.stdout))),
            "--standalone {} is not `chess2rs FILE` with the runtime inlined",
            case.name
        );
        assert_eq!(text(&out.stderr), text(&plain.stderr), "{}", case.name);
        match &runtime {
            None => runtime = Some(inlined.to_string()),
            Some(first) => assert!(
                first == inlined,
                "--standalone {}: the inlined runtime differs from another case's",
                case.name
            ),
        }
    }
    // Every case's program file and what `run` prints before it builds:
    // the warnings (or, for a case that does not compile, the errors).
    let generated = on_two_workers(&cases, |(case, _)| {
        vec![chess2rs_in(&golden, &[], &[&case.name], b"", &dir)]
    });
    let mut modules = String::new();
    let mut dispatch = String::new();
    let mut built = Vec::new();
    for ((case, expected), out) in cases.iter().zip(generated) {
        let compiles = expected.code != 2;
        if out.status.code() != Some(if compiles { 0 } else { 2 }) {
            failures.push(format!(
                "chess2rs {}: exit {:?}, expected exit {}\n{}",
                case.name,
                out.status.code(),
                expected.code,
                text(&out.stderr)
            ));
        }
        if !compiles || out.status.code() != Some(0) {
            continue;
        }
        let program = as_standalone(&text(&out.stdout));
        // The file, as a module of the crate, names the crate's one copy of
        // the runtime; its `main` is called by the crate's.
        let main = "\nfn main() {";
        if program.matches(main).count() != 1 {
            failures.push(format!("chess2rs {}: not one `fn main`", case.name));
            continue;
        }
        let program = program.replacen(main, "\npub(crate) fn main() {", 1);
        let module = case.ident();
        writeln!(modules, "mod {module} {{\n{program}}}\n").unwrap();
        writeln!(dispatch, "        Ok({module:?}) => {module}::main(),").unwrap();
        built.push((case, expected, module, text(&out.stderr)));
    }
    assert_no_failures(&failures);
    let crate_root = dir.join("programs.rs");
    std::fs::write(
        &crate_root,
        format!(
            "/// Runs the golden case ${CASE_VARIABLE} names.\n\
             fn main() {{\n    \
                 match ::std::env::var({CASE_VARIABLE:?}).as_deref() {{\n\
                 {dispatch}        \
                 _ => ::std::process::exit(99),\n    \
                 }}\n\
             }}\n\n\
             {modules}{}",
            runtime.expect("some golden cases compile")
        ),
    )
    .unwrap();
    // `run`'s flags (with CHESS2RS_OPT_LEVEL=0), but for stripping.
    let exe = dir.join("programs");
    let rustc = Command::new(std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into()))
        .args([
            "--edition",
            "2021",
            "-C",
            "codegen-units=1",
            "-C",
            "panic=abort",
            "-C",
            "opt-level=0",
        ])
        .arg(&crate_root)
        .arg("-o")
        .arg(&exe)
        .output()
        .unwrap();
    assert!(rustc.status.success(), "{}", text(&rustc.stderr));
    let failures = on_two_workers(&built, |(case, expected, module, warnings)| {
        // `run`'s arguments, and with `--discard-output` as when `run`
        // switches from its interpreter after half the output.
        let run = |discard: Option<usize>| {
            let mut command = Command::new(&exe);
            if let Some(steps) = expected.max_steps {
                command.arg("--max-steps").arg(steps.to_string());
            }
            if let Some(bytes) = discard {
                command.arg("--discard-output").arg(bytes.to_string());
            }
            let child = spawn_piped(
                command
                    .args(["--max-memory", "2147483648"])
                    .env(CASE_VARIABLE, module)
                    .current_dir(&golden),
            );
            feed_and_wait(child, &expected.input)
        };
        let mut out = run(None);
        // What `run` shows: the warnings, then the program's stderr.
        out.stderr = [warnings.as_bytes(), &out.stderr].concat();
        let mut failures = compare("the program file of", case, expected, &out);
        let half = expected.stdout.len() / 2;
        let mut switched = run(Some(half));
        switched.stderr = [warnings.as_bytes(), &switched.stderr].concat();
        if switched.stdout != expected.stdout.as_bytes()[half..]
            || switched.stderr != out.stderr
            || switched.status.code() != out.status.code()
        {
            failures.push(format!(
                "the program file of {} with --discard-output {half}: {:?} {:?} {:?}",
                case.name,
                switched.status.code(),
                text(&switched.stdout),
                text(&switched.stderr)
            ));
        }
        failures
    });
    assert_no_failures(&failures);
    eprintln!(
        "{} golden program files built in one rustc run, all as expected",
        built.len()
    );
}

#[test]
fn explain_btm_of_the_hello_game_is_a_program_that_prints_hello() {
    let dir = scratch_cache("explain", "0");
    let game = example("chessoteric-hello.pgn").display().to_string();
    let listing = chess2rs(&["explain", &game, "--btm"], b"", &dir);
    assert_eq!(listing.status.code(), Some(0), "{}", text(&listing.stderr));
    let btm = dir.join("hello.btm");
    std::fs::write(&btm, &listing.stdout).unwrap();
    let run = chess2rs_unoptimised(&["run", &btm.display().to_string(), "--quiet"], b"", &dir);
    assert_eq!(
        text(&run.stdout),
        "Hello, world!\n",
        "{}",
        text(&run.stderr)
    );
    let explained = chess2rs(&["explain", &game], b"", &dir);
    let text_out = text(&explained.stdout);
    assert_contains(&text_out, "5. Qg8!\n8  ♜ ♞ ♝ · ♚ ♝ ♕ ♜");
    assert_contains(
        &text_out,
        "Rules (state, read -> next, write, move):\n  0, 1 -> 2, 0, right",
    );
    let svgs = dir.join("svg");
    let pictures = chess2rs(
        &["explain", &game, "--svg", &svgs.display().to_string()],
        b"",
        &dir,
    );
    assert_eq!(pictures.status.code(), Some(0));
    assert_eq!(std::fs::read_dir(&svgs).unwrap().count(), 20);
    // Each file written is named on stdout, one a line, in move order.
    let listed = text(&pictures.stdout);
    let listed: Vec<&str> = listed.lines().collect();
    assert_eq!(listed.len(), 20, "{listed:?}");
    assert!(
        listed.iter().all(|path| Path::new(path).is_file()),
        "{listed:?}"
    );
    assert!(listed[0].ends_with("001-move-5-white.svg"), "{listed:?}");
    assert!(text(&pictures.stderr).starts_with("wrote 20 SVG files to "));
    // A game named like one of its pictures is not overwritten by it.
    let odd = dir.join("odd");
    std::fs::create_dir_all(&odd).unwrap();
    let named_like_a_picture = odd.join("001-move-5-white.svg");
    std::fs::copy(&game, &named_like_a_picture).unwrap();
    let refused = chess2rs(
        &[
            "explain",
            "--lang",
            "pgn",
            &named_like_a_picture.display().to_string(),
            "--svg",
            &odd.display().to_string(),
        ],
        b"",
        &dir,
    );
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(text(&refused.stderr).contains("it is the game itself"));
    assert_eq!(
        std::fs::read(&named_like_a_picture).unwrap(),
        std::fs::read(&game).unwrap()
    );
    let not_a_game = chess2rs(
        &["explain", &example("beer.icp").display().to_string()],
        b"",
        &dir,
    );
    assert_eq!(not_a_game.status.code(), Some(2));
}

#[test]
fn an_output_path_that_is_the_program_is_refused_and_the_program_left_untouched() {
    let cache = scratch("overwrite");
    let dir = scratch("overwrite_src");
    let program = dir.join("add.chc");
    std::fs::copy(example("add.chc"), &program).unwrap();
    let before = std::fs::read(&program).unwrap();
    let link = dir.join("link.chc");
    std::fs::hard_link(&program, &link).unwrap();
    let program_path = program.display().to_string();
    let spelled_otherwise = dir.join(".").join("add.chc").display().to_string();
    let link_path = link.display().to_string();
    for args in [
        vec![program_path.as_str(), "-o", program_path.as_str()],
        vec![program_path.as_str(), "-o", spelled_otherwise.as_str()],
        vec!["build", program_path.as_str(), "-o", program_path.as_str()],
        vec!["build", program_path.as_str(), "-o", link_path.as_str()],
    ] {
        let out = chess2rs(&args, b"", &cache);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains("refusing to write"), "{args:?}: {stderr}");
        assert_eq!(std::fs::read(&program).unwrap(), before, "{args:?}");
    }
    // No temporary file is left behind, and a good -o still works.
    let rust = dir.join("add.rs");
    let out = chess2rs(
        &[&program_path, "-o", &rust.display().to_string()],
        b"",
        &cache,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::read_to_string(&rust)
        .unwrap()
        .contains("fn main()"));
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

#[test]
fn built_executables_explain_themselves_and_are_small() {
    let cache = scratch_cache("exe_help", "3");
    let dir = scratch("exe_help_out");
    let exe = dir.join("adder");
    let out = chess2rs(
        &[
            "build",
            &example("add.chc").display().to_string(),
            "-o",
            &exe.display().to_string(),
            "--quiet",
        ],
        b"",
        &cache,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let size = std::fs::metadata(&exe).unwrap().len();
    assert!(size < 1_000_000, "{size} bytes");
    let run = |arg: &str| Command::new(&exe).arg(arg).output().unwrap();
    let help = run("--help");
    assert_eq!(help.status.code(), Some(0));
    let help = text(&help.stdout);
    assert_contains(
        &help,
        "Usage: adder [--max-steps N] [--max-memory SIZE] < INPUT",
    );
    assert_contains(&help, "the Chess Code program");
    let version = run("--version");
    assert_eq!(version.status.code(), Some(0));
    assert!(text(&version.stdout).contains("compiled by chess2rs"));
    let bad = run("--frobnicate");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("usage: adder"));
    let bad_size = run("--max-memory=lots");
    assert_eq!(bad_size.status.code(), Some(2));
    assert!(text(&bad_size.stderr).contains("`--max-memory` needs a size"));
    // An argument that is not UTF-8 is a bad argument, not a panic.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let odd = std::ffi::OsStr::from_bytes(b"--max-steps=\xff");
        let out = Command::new(&exe).arg(odd).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains("usage: adder"));
    }
    // `--help` into a pipe nobody reads (`| head -0`) ends quietly.
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(&exe)
        .arg("--help")
        .stdout(writer)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn mistakes_on_the_command_line_get_plain_answers() {
    let cache = scratch("verbs");
    let program = example("add.chc").display().to_string();
    let out = chess2rs(&["runn", &program], b"", &cache);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("`runn` is not a verb or a program file; did you mean `chess2rs run`?"),
        "{stderr}"
    );
    let out = chess2rs(&["frobnicate", &program], b"", &cache);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("verbs: run, build, interpret, check, explain"));
    // No arguments at all: the help, which lists the verbs.
    let out = chess2rs(&[], b"", &cache);
    assert_eq!(out.status.code(), Some(2));
    let help = text(&out.stderr) + &text(&out.stdout);
    for verb in ["run", "build", "interpret", "check", "explain"] {
        assert!(help.contains(&format!("  {verb}")), "{verb}: {help}");
    }
    // `run` neither offers nor accepts --trace; `interpret` does.
    let run_help = text(&chess2rs(&["run", "--help"], b"", &cache).stdout);
    assert!(!run_help.contains("--trace"), "{run_help}");
    let interpret_help = text(&chess2rs(&["interpret", "--help"], b"", &cache).stdout);
    assert_contains(&interpret_help, "--trace");
    assert_eq!(
        chess2rs(&["run", "--trace", &program], b"", &cache)
            .status
            .code(),
        Some(2)
    );
    let bad_level = [("CHESS2RS_OPT_LEVEL", "9")];
    let out = chess2rs_in(
        Path::new("."),
        &bad_level,
        &["run", &program],
        b"1 2",
        &cache,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("CHESS2RS_OPT_LEVEL is `9`"));
}

/// `docs/cli.md` is the command's own help; regenerate it with
/// `CHESS2RS_WRITE_CLI_DOCS=1 cargo test -p chess2rs --test cli cli_reference`.
#[test]
fn cli_reference_in_docs_matches_the_command() {
    let path = workspace().join("docs").join("cli.md");
    let wanted = chess2rs::cli::reference();
    if std::env::var_os("CHESS2RS_WRITE_CLI_DOCS").is_some() {
        std::fs::write(&path, &wanted).unwrap();
    }
    let found = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        found == wanted,
        "docs/cli.md is out of date with the command line; regenerate it with \
         `CHESS2RS_WRITE_CLI_DOCS=1 cargo test -p chess2rs --test cli cli_reference`"
    );
}

#[test]
fn completions_and_the_manual_page_come_from_the_command() {
    let cache = scratch("completions");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = chess2rs(&["completions", shell], b"", &cache);
        assert_eq!(out.status.code(), Some(0), "{shell}");
        assert!(text(&out.stdout).contains("interpret"), "{shell}");
    }
    let man = chess2rs(&["man"], b"", &cache);
    assert_eq!(man.status.code(), Some(0));
    assert_contains(&text(&man.stdout), ".TH chess2rs");
    // The verbs the command's page lists as chess2rs-VERB(1) have pages.
    let run_page = text(&chess2rs(&["man", "run"], b"", &cache).stdout);
    assert_contains(&run_page, ".TH chess2rs-run 1");
    let dir = cache.join("man1");
    let out = chess2rs(&["man", "--dir", &dir.display().to_string()], b"", &cache);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let page = std::fs::read_to_string(dir.join("chess2rs.1")).unwrap();
    let listed: Vec<&str> = page
        .split("chess2rs\\-")
        .skip(1)
        .filter_map(|rest| rest.split_once("(1)").map(|(verb, _)| verb))
        .collect();
    assert!(listed.len() >= 8 && !listed.contains(&"help"), "{listed:?}");
    for verb in listed {
        let file = dir.join(format!("chess2rs-{verb}.1"));
        assert!(
            file.is_file(),
            "{} is listed but not written",
            file.display()
        );
    }
    let out = chess2rs(&["man", "frobnicate"], b"", &cache);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("pages exist for run, build"));
    assert_eq!(
        chess2rs(&["completions", "tcsh"], b"", &cache)
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn interpret_traces_every_language_and_stops_at_the_limit() {
    let cache = scratch("trace");
    for (file, input, first) in [
        (
            "register.icp",
            &b"2 1 5"[..],
            "line 2: 1. x=R0,*  [succeeded]\n  pieces: x=R0,2\n",
        ),
        ("add.chc", &b"3 4"[..], "line 2: a1#\n  a1=3\n"),
        (
            "hello.btm",
            &b""[..],
            "state 0 read 1 -> write 0, right, state 2",
        ),
        (
            "truth.fv",
            &b"0"[..],
            "line 15: Turn 1 W: i a1 -> b1  [valid]",
        ),
    ] {
        let path = example(file).display().to_string();
        let out = chess2rs(
            &["interpret", &path, "--trace", "--trace-limit", "3"],
            input,
            &cache,
        );
        let stderr = text(&out.stderr);
        assert!(stderr.starts_with(first), "{file}: {stderr}");
        assert!(
            stderr.contains("… trace stopped after 3 steps (--trace-limit N shows more)"),
            "{file}: {stderr}"
        );
        // The program's own output is untouched by tracing.
        let plain = chess2rs(&["interpret", &path], input, &cache);
        assert_eq!(out.stdout, plain.stdout, "{file}");
    }
    // --trace-limit without --trace is a mistake.
    let path = example("add.chc").display().to_string();
    let out = chess2rs(&["interpret", &path, "--trace-limit", "3"], b"1 2", &cache);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_run_cache_survives_concurrent_builds_and_an_empty_setting() {
    let cache = scratch_cache("concurrent", "0");
    let program = example("beer.icp").display().to_string();
    let runs: Vec<Output> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2)
            .map(|_| {
                scope.spawn(|| chess2rs_unoptimised(&["run", "--quiet", &program], b"", &cache))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    for out in &runs {
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    assert_eq!(runs[0].stdout, runs[1].stdout);
    // An empty CHESS2RS_CACHE_DIR is as if unset: the cache goes to
    // XDG_CACHE_HOME, never into the current directory.
    let cwd = scratch("empty_cache_cwd");
    let xdg = scratch("empty_cache_xdg");
    runtime_cache::seed(&xdg.join("chess2rs"), "0");
    let env = [
        ("CHESS2RS_CACHE_DIR", ""),
        ("XDG_CACHE_HOME", xdg.to_str().unwrap()),
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_chess2rs"))
        .envs(env)
        .env(UNOPTIMISED.0, UNOPTIMISED.1)
        .current_dir(&cwd)
        .args(["run", "--tier=compiled", "--quiet", &program])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    assert!(child.wait().unwrap().success());
    // The program was built there (the runtime it links was put there).
    only_entry(&xdg.join("chess2rs"));
    assert_eq!(std::fs::read_dir(&cwd).unwrap().count(), 0);
}

/// The one program's cache entry (directory) in `cache` (beside it are
/// the runtime library's and the remembered rustc identities).
fn only_entry(cache: &Path) -> PathBuf {
    let exe = format!("program{}", std::env::consts::EXE_SUFFIX);
    let entries: Vec<PathBuf> = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|path| path.join(&exe).is_file())
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    entries[0].clone()
}

#[test]
fn a_damaged_cache_entry_is_rebuilt_and_the_key_is_stable() {
    let cache = scratch_cache("damaged", "0");
    let program = example("first.icp").display().to_string();
    let (_, _, expected) = seed("first.icp");
    let first = chess2rs_unoptimised(&["run", &program], b"", &cache);
    assert_eq!(text(&first.stdout), expected, "{}", text(&first.stderr));
    let entry = only_entry(&cache);
    let exe = entry.join(format!("program{}", std::env::consts::EXE_SUFFIX));
    let pristine = std::fs::read(&exe).unwrap();
    // Truncated, or replaced by text that cannot be executed: each is
    // noticed (its sum does not match), rebuilt in the same entry (the
    // key is stable across processes), and the run succeeds.
    for damage in [&pristine[..pristine.len() / 2], b"not a program\n"] {
        std::fs::write(&exe, damage).unwrap();
        let again = chess2rs_unoptimised(&["run", &program], b"", &cache);
        assert_eq!(text(&again.stdout), expected, "{}", text(&again.stderr));
        assert!(text(&again.stderr).contains("Compiling"), "rebuilt");
        assert_eq!(only_entry(&cache), entry);
        assert_ne!(std::fs::read(&exe).unwrap(), damage);
    }
    // An entry without its sum is rebuilt too.
    std::fs::remove_file(entry.join("program.sha256")).unwrap();
    let again = chess2rs_unoptimised(&["run", &program], b"", &cache);
    assert!(text(&again.stderr).contains("Compiling"), "rebuilt");
    let cached = chess2rs_unoptimised(&["run", &program], b"", &cache);
    assert!(!text(&cached.stderr).contains("Compiling"), "reused");
}

#[cfg(unix)]
#[test]
fn when_rustc_fails_the_message_says_why() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("fake_rustc");
    let program = example("first.icp").display().to_string();
    // Fake rustcs: each answers -vV, then fails its own way.
    let cases = [
        ("killed", "kill -9 $$", "killed by signal 9"),
        (
            "oom",
            "echo 'memory allocation of 1048576 bytes failed' >&2; exit 101",
            "rustc ran out of memory",
        ),
        (
            "broken",
            "echo 'error[E0308]: mismatched types' >&2; exit 1",
            "a chess2rs bug",
        ),
    ];
    for (name, failure, expected) in cases {
        let rustc = dir.join(name);
        std::fs::write(
            &rustc,
            format!(
                "#!/bin/sh\nif [ \"$1\" = -vV ]; then echo \"fake {name}\"; exit 0; fi\n{failure}\n"
            ),
        )
        .unwrap();
        std::fs::set_permissions(&rustc, std::fs::Permissions::from_mode(0o755)).unwrap();
        let out = chess2rs_in(
            Path::new("."),
            &[("RUSTC", rustc.to_str().unwrap())],
            &["run", "--quiet", &program],
            b"",
            &dir.join(format!("cache_{name}")),
        );
        let stderr = text(&out.stderr);
        assert_ne!(out.status.code(), Some(0), "{name}");
        assert!(stderr.contains(expected), "{name}: {stderr}");
        if name != "broken" {
            assert!(!stderr.contains("chess2rs bug"), "{name}: {stderr}");
            assert!(stderr.contains("CHESS2RS_OPT_LEVEL"), "{name}: {stderr}");
        }
    }
}

#[test]
fn thousands_of_errors_on_one_long_line_give_a_short_report() {
    // 4,000 bad tokens on one line once gave 4,000 diagnostics, each
    // echoing the whole line: 73 MB of stderr.
    let cache = scratch("many_errors");
    let game = format!("1. e4 {}\n", vec![")"; 4000].join(" "));
    let out = chess2rs(&["check", "--lang", "pgn", "-"], game.as_bytes(), &cache);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr.len() < 20_000,
        "{} bytes of diagnostics",
        stderr.len()
    );
    assert_contains(&stderr, "note: 3950 more errors not shown");
    assert!(stderr.contains('…'), "long line cut around the caret");
}

#[test]
fn synth_writes_a_game_that_interpret_and_run_play() {
    let cache = scratch_cache("synth", "0");
    let game = cache.join("hello.pgn").display().to_string();
    let btm = example("hello.btm").display().to_string();
    // The corner design: milliseconds in a debug build (the default's
    // whole-board search takes half a minute there; below on a short
    // listing).
    let out = chess2rs(
        &["synth", &btm, "--design", "corner", "-o", &game],
        b"",
        &cache,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert_contains(&stderr, "synth: writing area: ");
    assert!(
        stderr.contains(" moves ("),
        "progress and a summary: {stderr}"
    );
    let pgn = std::fs::read_to_string(&game).unwrap();
    assert!(pgn.starts_with("1. b3 "), "plain movetext: {pgn}");
    assert!(pgn.ends_with(" 1/2-1/2\n"), "a result at the end: {pgn}");
    let last_number = pgn
        .split_whitespace()
        .filter_map(|token| token.strip_suffix('.')?.parse::<u32>().ok())
        .max()
        .unwrap();
    assert!(last_number < 75, "{last_number} moves");
    for verb in ["interpret", "run"] {
        let out = chess2rs_unoptimised(&[verb, &game], b"", &cache);
        assert_eq!(out.status.code(), Some(0), "{verb}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout), "Hello, world!\n", "{verb}");
    }
    // The default design (both searches) on a short listing.
    let short = cache.join("short.btm");
    std::fs::write(&short, "10!\n11!\n110!\n10!\n10!\n11001000?\n").unwrap();
    let short = short.display().to_string();
    let out = chess2rs(&["synth", &short], b"", &cache);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_contains(&text(&out.stderr), "synth: whole board: a beam of ");
    let check = cache.join("short.pgn");
    std::fs::write(&check, &out.stdout).unwrap();
    let out = chess2rs(&["explain", &check.display().to_string()], b"", &cache);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_contains(&text(&out.stdout), "72");
    // Re-encoding a game; --quiet leaves stderr empty.
    let pgn = example("chessoteric-hello.pgn").display().to_string();
    let out = chess2rs(
        &["synth", &pgn, "--quiet", "--annotate", "--design", "corner"],
        b"",
        &cache,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stderr), "");
    let annotated = text(&out.stdout);
    assert!(
        annotated.starts_with("[Event \"chess2rs synth\"]"),
        "{annotated}"
    );
    assert_contains(&annotated, "{tape cell 1 = 72: writes ");
}

#[test]
fn synth_refuses_other_languages_broken_listings_and_its_own_input() {
    let cache = scratch("synth_refuses");
    let icp = example("beer.icp").display().to_string();
    let out = chess2rs(&["synth", &icp], b"", &cache);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr)
            .contains("`synth` writes games for BTM listings (.btm) and Chessoteric games (.pgn)"),
        "{}",
        text(&out.stderr)
    );
    let bad = cache.join("bad.btm");
    std::fs::write(&bad, "10!\n0!\n").unwrap();
    let bad = bad.display().to_string();
    let out = chess2rs(&["synth", &bad], b"", &cache);
    assert_eq!(out.status.code(), Some(2));
    assert_contains(&text(&out.stderr), "bad.btm:2:1");
    let out = chess2rs(&["synth", &bad, "-o", &bad], b"", &cache);
    assert_ne!(out.status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(&bad).unwrap(), "10!\n0!\n");
}

/// Runs chess2rs with its stdout going to `stdout` (a file or device).
fn chess2rs_to(stdout: Stdio, args: &[&str], cache: &Path) -> Output {
    let child = Command::new(env!("CARGO_BIN_EXE_chess2rs"))
        .args(compiled_tier(args))
        .env("CHESS2RS_CACHE_DIR", cache)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.wait_with_output().unwrap()
}

/// The verbs that print a result on stdout, with their arguments.
fn printing_verbs() -> Vec<Vec<String>> {
    let add = example("add.chc").display().to_string();
    let hello = example("hello.btm").display().to_string();
    let game = example("chessoteric-hello.pgn").display().to_string();
    [
        vec![add.as_str()],
        vec!["--standalone", add.as_str()],
        vec!["--emit", "ir", add.as_str()],
        vec!["explain", game.as_str()],
        vec!["explain", "--btm", game.as_str()],
        vec!["synth", "-q", hello.as_str()],
        vec!["completions", "bash"],
        vec!["man"],
    ]
    .iter()
    .map(|args| args.iter().map(|a| a.to_string()).collect())
    .collect()
}

#[test]
fn a_full_disk_on_stdout_is_an_error_and_a_closed_pipe_is_not() {
    let cache = scratch("stdout_errors");
    for args in printing_verbs() {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        // A reader that goes away at once: the output just ends.
        let mut child = Command::new(env!("CARGO_BIN_EXE_chess2rs"))
            .args(&args)
            .env("CHESS2RS_CACHE_DIR", &cache)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!text(&out.stderr).contains("error"), "{args:?}");
        if !Path::new("/dev/full").exists() {
            eprintln!("skipped: no /dev/full on this system");
            continue;
        }
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = chess2rs_to(Stdio::from(full), &args, &cache);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("error: writing the output: No space left on device"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[cfg(unix)]
#[test]
fn output_paths_write_through_links_fifos_and_devices() {
    use std::os::unix::fs::FileTypeExt;
    let cache = scratch("output_paths");
    let dir = scratch("output_paths_dir");
    let add = example("add.chc").display().to_string();
    let emitted = text(&chess2rs(&[&add], b"", &cache).stdout);
    assert!(emitted.contains("fn main()"));
    // A link keeps pointing at its target, whose contents are replaced.
    let target = dir.join("target.rs");
    std::fs::write(&target, "old").unwrap();
    let link = dir.join("link.rs");
    std::os::unix::fs::symlink("target.rs", &link).unwrap();
    let out = chess2rs(&[&add, "-o", &link.display().to_string()], b"", &cache);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), emitted);
    // A FIFO is written, not replaced.
    let fifo = dir.join("fifo");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|status| status.success()) {
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        let out = chess2rs(&[&add, "-o", &fifo.display().to_string()], b"", &cache);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        assert_eq!(reader.join().unwrap(), emitted);
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    } else {
        eprintln!("skipped the FIFO: no mkfifo");
    }
    // A device is written, not replaced: a private copy of /dev/null
    // (making one needs root).
    let null = dir.join("null");
    let made = Command::new("mknod")
        .arg(&null)
        .args(["c", "1", "3"])
        .output();
    if made.is_ok_and(|out| out.status.success()) {
        // (`build` compiles only the program.)
        runtime_cache::seed(&cache, "3");
        for args in [vec![add.as_str(), "-o"], vec!["build", add.as_str(), "-o"]] {
            let mut args = args.clone();
            let path = null.display().to_string();
            args.push(&path);
            let out = chess2rs(&args, b"", &cache);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{args:?}: {}",
                text(&out.stderr)
            );
            let kind = std::fs::metadata(&null).unwrap().file_type();
            assert!(kind.is_char_device(), "{args:?} replaced the device");
        }
    } else {
        eprintln!("skipped the device node: mknod needs root");
    }
    // A device that fails a write is an error naming it.
    if Path::new("/dev/full").exists() {
        let out = chess2rs(&[&add, "-o", "/dev/full"], b"", &cache);
        assert_eq!(out.status.code(), Some(2));
        assert_contains(
            &text(&out.stderr),
            "cannot write `/dev/full`: No space left on device",
        );
    }
}

#[test]
fn a_mistyped_language_gets_a_did_you_mean() {
    let cache = scratch("lang_did_you_mean");
    for (typed, meant) in [("icpp", "icp"), ("finvra", "finvara")] {
        let out = chess2rs(&["check", "-", "--lang", typed], b"", &cache);
        assert_eq!(out.status.code(), Some(2), "{typed}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains(&format!("unknown language `{typed}`"))
                && stderr.contains(&format!("did you mean `{meant}`?")),
            "{typed}: {stderr}"
        );
    }
    let out = chess2rs(&["check", "-", "--lang", "cobol"], b"", &cache);
    assert!(
        !text(&out.stderr).contains("did you mean"),
        "nothing is close to cobol"
    );
}

#[test]
fn a_byte_order_mark_is_skipped_in_every_language() {
    let cache = scratch("bom");
    let dir = scratch("bom_src");
    for name in [
        "beer.icp",
        "add.chc",
        "chessoteric-hello.pgn",
        "hello.btm",
        "truth.fv",
    ] {
        let mut bytes = "\u{feff}".as_bytes().to_vec();
        bytes.extend(std::fs::read(example(name)).unwrap());
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let out = chess2rs(&["check", &path.display().to_string()], b"", &cache);
        assert_eq!(out.status.code(), Some(0), "{name}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("no errors"), "{name}");
    }
}

#[test]
fn synth_writes_a_move_pair_for_an_empty_machine_and_quiet_means_quiet() {
    let cache = scratch("synth_empty");
    let dir = scratch("synth_empty_src");
    // One rule part: an empty machine, with a warning about the part.
    let listing = dir.join("empty.btm");
    std::fs::write(&listing, "10!\n").unwrap();
    let listing = listing.display().to_string();
    let loud = chess2rs(&["synth", &listing], b"", &cache);
    assert_eq!(loud.status.code(), Some(0), "{}", text(&loud.stderr));
    assert_contains(&text(&loud.stderr), "warning");
    let quiet = chess2rs(&["synth", "-q", &listing], b"", &cache);
    assert_eq!(quiet.status.code(), Some(0));
    assert_eq!(text(&quiet.stderr), "");
    let game = text(&quiet.stdout);
    assert_eq!(game, "1. b3 Nc6 1/2-1/2\n");
    // The game is a program that does nothing.
    let pgn = dir.join("empty.pgn");
    std::fs::write(&pgn, &game).unwrap();
    let out = chess2rs(&["interpret", &pgn.display().to_string()], b"", &cache);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
}

#[test]
fn a_megabyte_long_bad_token_is_quoted_short() {
    let cache = scratch("long_token");
    let dir = scratch("long_token_src");
    let zs = "z".repeat(1 << 20);
    let nines = "9".repeat(1 << 20);
    for (name, program) in [
        ("token.chc", format!("a1\n{zs}\n")),
        ("token.pgn", format!("1. {zs} e5\n")),
        ("token.icp", format!("1. a=P*,{nines}?1!1\n")),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, program).unwrap();
        let out = chess2rs(&["check", &path.display().to_string()], b"", &cache);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("…` "),
            "{name}: {}",
            &stderr[..stderr.len().min(300)]
        );
        assert!(stderr.len() < 4096, "{name}: {} bytes", stderr.len());
    }
}

#[cfg(unix)]
#[test]
fn toolchain_failures_are_named_and_stale_builds_swept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("toolchain");
    let program = example("first.icp").display().to_string();
    // No working rustc: not called a chess2rs bug.
    let no_default = dir.join("no_default");
    std::fs::write(
        &no_default,
        "#!/bin/sh\necho 'error: rustup could not choose a version of rustc to run' >&2\nexit 1\n",
    )
    .unwrap();
    // A full disk while rustc writes.
    let full = dir.join("full");
    std::fs::write(
        &full,
        "#!/bin/sh\nif [ \"$1\" = -vV ]; then echo fake; exit 0; fi\necho 'error: failed to write: No space left on device' >&2\nexit 1\n",
    )
    .unwrap();
    for rustc in [&no_default, &full] {
        std::fs::set_permissions(rustc, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let cases = [
        ("/bin/false", "rustc does not work"),
        ("/bin/true", "rustc does not work"),
        (no_default.to_str().unwrap(), "rustup could not choose"),
        (
            full.to_str().unwrap(),
            "the disk of the build cache is full",
        ),
    ];
    for (rustc, expected) in cases {
        let cache = dir.join("cache");
        let out = chess2rs_in(
            Path::new("."),
            &[("RUSTC", rustc)],
            &["run", "--quiet", &program],
            b"",
            &cache,
        );
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{rustc}: {stderr}");
        assert!(stderr.contains(expected), "{rustc}: {stderr}");
        assert!(!stderr.contains("chess2rs bug"), "{rustc}: {stderr}");
    }
    // A build directory left by a process that is gone (interrupted) is
    // removed by the next build in that entry; the failed builds above left
    // none.
    let cache = dir.join("cache");
    assert_eq!(build_directories(&cache), Vec::<PathBuf>::new());
    let cache = dir.join("cache_stale");
    runtime_cache::seed(&cache, "0");
    let out = chess2rs_unoptimised(&["run", "--quiet", &program], b"", &cache);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let entry = only_entry(&cache);
    let stale = entry.join("build.4000000000");
    std::fs::create_dir_all(&stale).unwrap();
    std::fs::write(stale.join("program.rs"), "left behind").unwrap();
    std::fs::remove_file(entry.join("program.sha256")).unwrap();
    let out = chess2rs_unoptimised(&["run", "--quiet", &program], b"", &cache);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(!stale.exists(), "the stale build directory is still there");
}
