//! `--message-format json` all the way: every line chess2rs writes to
//! stderr — diagnostics, runtime errors of every language and tier,
//! progress, usage errors — is one JSON object, and so is the runtime
//! error of a built executable told `--message-format json`; `short`
//! runtime errors are one line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

#[path = "support/child.rs"]
mod child;

/// A program of each language that fails at run time on its input (and
/// arguments), and where: file, input, arguments, line, column.
const FAILING: [(&str, &str, &[&str], u64, u64); 5] = [
    // Reads z, the input ends after x and y.
    ("register.icp", "1 2", &[], 4, 4),
    ("add.chc", "", &[], 2, 1),
    // The third step is the rule of the annotated move at column 47.
    ("chessoteric-hello.pgn", "", &["--max-steps", "3"], 1, 47),
    ("hello.btm", "", &["--max-steps", "3"], 1, 1),
    ("truth.fv", "", &[], 15, 1),
];

/// This test's directory (with a copy of each example it runs, so that
/// errors name the file as given), created once.
fn dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("json-stderr");
    std::fs::create_dir_all(&dir).unwrap();
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    for name in [
        "register.icp",
        "add.chc",
        "chessoteric-hello.pgn",
        "hello.btm",
        "truth.fv",
    ] {
        let target = dir.join(name);
        if !target.exists() {
            std::fs::copy(examples.join(name), &target).unwrap();
        }
    }
    dir
}

/// `chess2rs ARGS` in [`dir`] with `input` on stdin, unoptimised builds
/// cached in the directory `cache` of its own.
fn chess2rs(args: &[&str], input: &str, cache: &str) -> Output {
    let dir = dir();
    let mut command = Command::new(env!("CARGO_BIN_EXE_chess2rs"));
    command
        .args(args)
        .current_dir(&dir)
        .env("CHESS2RS_CACHE_DIR", dir.join(cache))
        .env("CHESS2RS_OPT_LEVEL", "0");
    child::run_with_input(&mut command, input.as_bytes())
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// The objects on stderr, asserting that every line is one.
fn json_lines(output: &Output, what: &str) -> Vec<Value> {
    let text = stderr(output);
    text.lines()
        .map(|line| {
            serde_json::from_str::<Value>(line)
                .ok()
                .filter(Value::is_object)
                .unwrap_or_else(|| {
                    panic!(
                        "{what}: a line of stderr is not a JSON object: {line:?}\nstderr:\n{text}"
                    )
                })
        })
        .collect()
}

/// The one error diagnostic among `objects`.
fn the_error<'a>(objects: &'a [Value], what: &str) -> &'a Value {
    let errors: Vec<&Value> = objects
        .iter()
        .filter(|o| o["$message_type"] == "diagnostic" && o["level"] == "error")
        .collect();
    assert_eq!(errors.len(), 1, "{what}: {objects:?}");
    errors[0]
}

/// Asserts that `error` is a runtime error on `file` at `line`:`column`,
/// shaped as rustc's: its source line, a label, a help child and the
/// human text.
fn assert_runtime_error_at(error: &Value, file: &str, line: u64, column: u64, what: &str) {
    let span = &error["spans"][0];
    assert_eq!(span["file_name"], file, "{what}: {error}");
    assert_eq!(span["line_start"], line, "{what}: {error}");
    assert_eq!(span["line_end"], line, "{what}: {error}");
    assert_eq!(span["column_start"], column, "{what}: {error}");
    assert!(
        span["column_end"].as_u64() > Some(column),
        "{what}: {error}"
    );
    assert_eq!(span["is_primary"], true, "{what}: {error}");
    assert!(
        span["label"].as_str().is_some_and(|l| !l.is_empty()),
        "{what}: {error}"
    );
    let text = span["text"][0]["text"].as_str().unwrap_or_default();
    assert!(!text.is_empty(), "{what}: {error}");
    assert!(
        error["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{what}"
    );
    // A runtime error's code; its explanation is `--explain`'s (a built
    // executable carries none, and the interpreter prints what it prints).
    assert!(
        error["code"]["code"]
            .as_str()
            .is_some_and(|code| code.starts_with("E06")),
        "{what}: {error}"
    );
    assert!(error["code"]["explanation"].is_null(), "{what}: {error}");
    assert_eq!(error["children"][0]["level"], "help", "{what}: {error}");
    let rendered = error["rendered"].as_str().unwrap_or_default();
    assert!(
        rendered.contains(&format!("--> {file}:{line}:{column}\n")),
        "{what}: {rendered}"
    );
}

/// `interpret`, `run --tier interpret`, `run` of a program not compiled
/// yet (the interpreter's tier) and `view`, on each language's failing
/// program: stderr is JSON, the runtime error where it happened.
#[test]
fn interpreted_runtime_errors_of_every_language_are_json_with_their_place() {
    for (file, input, extra, line, column) in FAILING {
        let runs: [(&str, Vec<&str>); 4] = [
            ("interpret", vec!["interpret", file]),
            (
                "run --tier interpret",
                vec!["run", file, "--tier", "interpret"],
            ),
            ("run (default tier)", vec!["run", file]),
            ("view", vec!["view", file, "-o", "page.html"]),
        ];
        for (what, mut args) in runs {
            args.extend_from_slice(extra);
            args.extend_from_slice(&["--message-format", "json"]);
            let what = format!("{what} {file}");
            // A cache of its own: the default tier finds nothing compiled.
            let output = chess2rs(&args, input, "cache-interpreted");
            assert_eq!(output.status.code(), Some(1), "{what}: {}", stderr(&output));
            let objects = json_lines(&output, &what);
            assert_runtime_error_at(the_error(&objects, &what), file, line, column, &what);
            if what.starts_with("view") {
                let wrote = objects.last().unwrap();
                assert_eq!(wrote["reason"], "build-progress", "{what}");
                assert!(wrote["message"]
                    .as_str()
                    .unwrap()
                    .starts_with("wrote page.html"));
            }
        }
    }
}

/// The compiled tier of `run`, a cached `run -v`, `build`, and the built
/// executable itself: progress objects, then the same runtime error
/// object as the interpreter's.
#[test]
fn compiled_runs_and_built_executables_report_in_json() {
    let (file, input, line, column) = ("register.icp", "1 2", 4, 4);
    let interpreted = chess2rs(
        &["interpret", file, "--message-format", "json"],
        input,
        "cache-compiled",
    );
    let interpreted = json_lines(&interpreted, "interpret");

    let compiled = chess2rs(
        &[
            "--message-format",
            "json",
            "run",
            file,
            "--tier",
            "compiled",
        ],
        input,
        "cache-compiled",
    );
    assert_eq!(compiled.status.code(), Some(1), "{}", stderr(&compiled));
    let objects = json_lines(&compiled, "run --tier compiled");
    let error = the_error(&objects, "run --tier compiled");
    assert_runtime_error_at(error, file, line, column, "run --tier compiled");
    // Every tier says the same.
    assert_eq!(error, the_error(&interpreted, "interpret"));
    let artifact = objects
        .iter()
        .find(|o| o["reason"] == "compiler-artifact")
        .unwrap_or_else(|| panic!("no artifact: {objects:?}"));
    assert_eq!(artifact["target"]["name"], "register");
    assert_eq!(artifact["target"]["src_path"], file);
    assert!(artifact["filenames"][0].as_str().is_some());
    assert!(artifact["fresh"].is_boolean());
    let progress: Vec<&str> = objects
        .iter()
        .filter(|o| o["reason"] == "build-progress")
        .filter_map(|o| o["message"].as_str())
        .collect();
    assert!(
        progress
            .iter()
            .any(|m| m.starts_with("Compiling register.icp"))
            || artifact["fresh"] == true,
        "{objects:?}"
    );

    // Cached now: the default tier runs the executable at once.
    let cached = chess2rs(
        &["run", "-v", file, "--message-format", "json"],
        input,
        "cache-compiled",
    );
    assert_eq!(cached.status.code(), Some(1), "{}", stderr(&cached));
    let objects = json_lines(&cached, "run -v (cached)");
    assert_eq!(the_error(&objects, "run -v"), error);
    assert!(objects
        .iter()
        .any(|o| o["reason"] == "compiler-artifact" && o["fresh"] == true));
    assert!(objects.iter().any(|o| o["reason"] == "build-progress"
        && o["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("Fresh register.icp"))));

    let built = chess2rs(
        &["build", file, "-o", "register", "--message-format", "json"],
        "",
        "cache-compiled",
    );
    assert_eq!(built.status.code(), Some(0), "{}", stderr(&built));
    let objects = json_lines(&built, "build");
    assert_eq!(
        objects.last(),
        Some(&serde_json::json!({"reason": "build-finished", "success": true}))
    );
    assert!(objects
        .iter()
        .any(|o| o["reason"] == "build-progress" && o["message"] == "Wrote register"));

    // The executable, told the format.
    let exe = dir().join("register");
    for args in [
        &["--message-format", "json"][..],
        &["--message-format=json"],
    ] {
        let mut command = Command::new(&exe);
        command.args(args);
        let output = child::run_with_input(&mut command, input.as_bytes());
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        let objects = json_lines(&output, "./register --message-format json");
        assert_eq!(objects.len(), 1, "{objects:?}");
        assert_runtime_error_at(&objects[0], file, line, column, "./register");
        assert_eq!(&objects[0], error);
    }
    let mut command = Command::new(&exe);
    command.args(["--message-format", "short"]);
    let output = child::run_with_input(&mut command, input.as_bytes());
    assert_eq!(
        stderr(&output),
        "register.icp:4:4: error[E0602]: expected a number in the input, found its end\n"
    );
    // A bad command line too, and `--help` says so.
    let mut command = Command::new(&exe);
    command.args(["--message-format", "json", "--bogus"]);
    let output = child::run_with_input(&mut command, b"");
    assert_eq!(output.status.code(), Some(2));
    let objects = json_lines(&output, "./register --bogus");
    assert_eq!(objects[0]["level"], "error");
    let help = Command::new(&exe).arg("--help").output().unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--message-format FORMAT"), "{help}");
}

/// The other verbs, and usage errors before and after the verb: nothing
/// but JSON objects on stderr.
#[test]
fn every_verb_and_usage_error_writes_only_json() {
    let dir = dir();
    std::fs::write(dir.join("bad.icp"), "1. \"hi\n2. > 5\n").unwrap();
    std::fs::write(dir.join("unused.chc"), "a1+ | x\n").unwrap();
    // A board `fmt` repairs: its note is a warning object.
    std::fs::write(dir.join("ragged.fv"), "(k):\n|kW|kB|\n|  |\n").unwrap();
    let runs: [(&[&str], Option<i32>); 19] = [
        (&["check", "register.icp"], Some(0)),
        (&["check", "bad.icp"], Some(2)),
        (&["fmt", "--check", "register.icp"], Some(0)),
        (&["fmt", "--check", "bad.icp"], Some(2)),
        (&["fmt", "--check", "ragged.fv"], Some(1)),
        (&["register.icp", "-o", "register.rs"], Some(0)),
        (&["bad.icp"], Some(2)),
        (
            &["explain", "chessoteric-hello.pgn", "--svg", "boards"],
            Some(0),
        ),
        (&["explain", "register.icp"], Some(2)),
        (
            &[
                "synth",
                "hello.btm",
                "--design",
                "corner",
                "-o",
                "hello.pgn",
            ],
            Some(0),
        ),
        (&["cache", "list"], Some(0)),
        (&["cache", "clean", "--older-than", "soon"], Some(2)),
        (
            &["interpret", "truth.fv", "--trace", "--trace-limit", "3"],
            Some(0),
        ),
        (&["run", "--bogus", "register.icp"], Some(2)),
        (&["check"], Some(2)),
        (&["runn", "register.icp"], Some(2)),
        (&["interpret", "register.icp", "--max-steps", "-1"], Some(2)),
        (&["build", "missing.icp"], Some(2)),
        (&[], Some(2)),
    ];
    for (args, code) in runs {
        for before in [true, false] {
            let mut line: Vec<&str> = Vec::new();
            if before {
                line.extend_from_slice(&["--message-format", "json"]);
            }
            line.extend_from_slice(args);
            if !before {
                line.push("--message-format=json");
            }
            let what = line.join(" ");
            let output = chess2rs(&line, "0\n", "cache-verbs");
            assert_eq!(output.status.code(), code, "{what}: {}", stderr(&output));
            let objects = json_lines(&output, &what);
            if code == Some(2) {
                let error = the_error(&objects, &what);
                assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
                assert!(error["rendered"].is_string(), "{what}");
            }
        }
    }
    // What `synth` and `explain` say is progress.
    let synth = chess2rs(
        &[
            "synth",
            "hello.btm",
            "--design",
            "corner",
            "--message-format",
            "json",
        ],
        "",
        "cache-verbs",
    );
    let objects = json_lines(&synth, "synth");
    assert!(!objects.is_empty() && objects.iter().all(|o| o["reason"] == "build-progress"));
    let explain = chess2rs(
        &[
            "explain",
            "chessoteric-hello.pgn",
            "--svg",
            "boards",
            "--message-format",
            "json",
        ],
        "",
        "cache-verbs",
    );
    let objects = json_lines(&explain, "explain --svg");
    assert!(objects[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("wrote "));
    // A clap error's message is its first paragraph, on one line.
    let missing = chess2rs(&["check", "--message-format", "json"], "", "cache-verbs");
    let objects = json_lines(&missing, "check without a file");
    assert_eq!(
        objects[0]["message"],
        "the following required arguments were not provided: <FILE>"
    );
}

/// `short`: each runtime error is one line `FILE:LINE:COL: error: MESSAGE`.
#[test]
fn short_runtime_errors_are_one_line_each() {
    for (file, input, extra, line, column) in FAILING {
        let mut args = vec!["interpret", file, "--message-format", "short"];
        args.extend_from_slice(extra);
        let output = chess2rs(&args, input, "cache-short");
        assert_eq!(output.status.code(), Some(1), "{file}");
        let text = stderr(&output);
        assert_eq!(text.lines().count(), 1, "{file}: {text}");
        assert!(
            text.starts_with(&format!("{file}:{line}:{column}: error[E06")),
            "{file}: {text}"
        );
    }
}

/// A "did you mean" help carries its fix as rustc's JSON does: a span of
/// the help with `suggested_replacement`.
#[test]
fn a_suggestion_is_a_suggested_replacement() {
    std::fs::write(dir().join("capital.chc"), "A1+\n").unwrap();
    let output = chess2rs(
        &["check", "--message-format", "json", "capital.chc"],
        "",
        "cache-suggestion",
    );
    let objects = json_lines(&output, "check capital.chc");
    let error = the_error(&objects, "check capital.chc");
    let span = &error["children"][0]["spans"][0];
    assert_eq!(span["suggested_replacement"], "a1+", "{error}");
    assert_eq!(span["byte_start"], 0);
    assert_eq!(span["byte_end"], 3);
}
