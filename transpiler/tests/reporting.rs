//! How the command reports: `--message-format human|short|json` on each
//! language, `-D warnings`, and `--color` with `NO_COLOR` and
//! `CLICOLOR_FORCE`.

use std::process::{Command, Output};

#[path = "support/child.rs"]
mod child;

/// `chess2rs ARGS` with `program` on stdin, without CLICOLOR_FORCE unless
/// `env` sets it.
fn chess2rs(args: &[&str], program: &str, env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chess2rs"));
    command
        .args(args)
        .env_remove("CLICOLOR_FORCE")
        .envs(env.iter().copied());
    // NO_COLOR is set here: `--color` and CLICOLOR_FORCE decide over it.
    child::run_with_input(&mut command, program.as_bytes())
}

/// `chess2rs check -` on `program` in `lang`, with messages in `format`.
fn check_stdin(lang: &str, program: &str, format: &str) -> Output {
    chess2rs(
        &["check", "-", "--lang", lang, "--message-format", format],
        program,
        &[],
    )
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// A program with one error per language, and where the error is.
const ERRORS: [(&str, &str, u64, u64); 5] = [
    ("icp", "1. \"hi\n2. > 5\n", 2, 4),
    ("chc", "a1+\n#oops\n", 2, 1),
    ("pgn", "1. e4 e5 2. Nf3 Nc6 3. Qh9 a6\n", 1, 24),
    ("btm", "100!\n12x!\n", 2, 2),
    ("fv", FINVARA_OFF_THE_BOARD, 18, 19),
];

/// The truth machine with one square off its 3×4 board, line 18.
const FINVARA_OFF_THE_BOARD: &str = "(k):
(n 0): (0,0)
(q 0): (1,0)
(i 3): (1,0)
(p 4): (1,0)

+--+--+--+--+
|kB|##|qB|nB|
+--+--+--+--+
|##|##|  |  |
+--+--+--+--+
|iW|pW|  |kW|
+--+--+--+--+

Turn 1 W: i a1 -> b1
Turn 1 B: k c1 -> c2
Turn 2 W: p a2 -> b2
Turn 2 B: q c3 -> z3
Turn 3 W: p a2 -> b2
";

/// The JSON objects on stderr, one a line.
fn json_lines(output: &Output) -> Vec<serde_json::Value> {
    stderr(output)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}")))
        .collect()
}

#[test]
fn json_diagnostics_name_the_line_and_column_of_each_languages_error() {
    for (lang, program, line, column) in ERRORS {
        let output = check_stdin(lang, program, "json");
        assert_eq!(output.status.code(), Some(2), "{lang}: {}", stderr(&output));
        let objects = json_lines(&output);
        let first = &objects[0];
        assert_eq!(first["$message_type"], "diagnostic", "{lang}");
        assert_eq!(first["level"], "error", "{lang}");
        assert!(first["message"].as_str().is_some_and(|m| !m.is_empty()));
        // The code, with its explanation, as rustc gives them.
        let code = first["code"]["code"].as_str().unwrap_or_default();
        let explained = chess2rs::diag::Code::parse(code)
            .unwrap_or_else(|| panic!("{lang}: not a code: {}", first["code"]));
        assert_eq!(
            first["code"]["explanation"],
            explained.explanation(),
            "{lang}"
        );
        let span = &first["spans"][0];
        assert_eq!(span["file_name"], "<stdin>", "{lang}");
        assert_eq!(span["is_primary"], true, "{lang}");
        assert_eq!(span["line_start"], line, "{lang}: {span}");
        assert_eq!(span["column_start"], column, "{lang}: {span}");
        assert_eq!(span["line_end"], line, "{lang}: {span}");
        assert!(
            span["column_end"].as_u64() > span["column_start"].as_u64(),
            "{lang}: {span}"
        );
        // The human text travels along, as rustc's `rendered`.
        let rendered = first["rendered"].as_str().unwrap();
        assert!(
            rendered.contains(&format!("--> <stdin>:{line}:{column}")),
            "{lang}: {rendered}"
        );
        assert!(first["children"].is_array(), "{lang}");
        // Nothing but JSON on stderr (no summary line).
        assert!(objects.iter().all(|o| o["$message_type"] == "diagnostic"));
    }
}

#[test]
fn json_spans_carry_the_source_text_labels_and_help() {
    let output = chess2rs(
        &["check", "-", "--lang", "icp", "--message-format=json"],
        "1. \"hi\n2. > 5\n",
        &[],
    );
    let object = &json_lines(&output)[0];
    let span = &object["spans"][0];
    assert_eq!(span["label"], "expected a piece name");
    assert_eq!(span["byte_start"], 10);
    assert_eq!(span["byte_end"], 11);
    assert_eq!(span["text"][0]["text"], "2. > 5");
    assert_eq!(span["text"][0]["highlight_start"], 4);
    assert_eq!(span["text"][0]["highlight_end"], 5);
    let help = &object["children"][0];
    assert_eq!(help["level"], "help");
    assert!(help["message"].as_str().unwrap().contains("letters"));
}

#[test]
fn errors_outside_any_program_are_json_too() {
    let output = chess2rs(
        &["check", "no/such/file.icp", "--message-format", "json"],
        "",
        &[],
    );
    assert_eq!(output.status.code(), Some(2));
    let objects = json_lines(&output);
    assert_eq!(objects.len(), 1);
    assert_eq!(objects[0]["level"], "error");
    assert!(objects[0]["message"]
        .as_str()
        .unwrap()
        .contains("no/such/file.icp"));
    assert_eq!(objects[0]["spans"], serde_json::json!([]));
}

#[test]
fn short_messages_are_one_line_each() {
    for (lang, program, line, column) in ERRORS {
        let output = check_stdin(lang, program, "short");
        assert_eq!(output.status.code(), Some(2));
        let text = stderr(&output);
        let first = text.lines().next().unwrap();
        assert!(
            first.starts_with(&format!("<stdin>:{line}:{column}: error[E0")),
            "{lang}: {text}"
        );
        assert!(
            first[first.find('[').unwrap_or(0)..].starts_with("[E0") && first.contains("]: "),
            "{lang}: {text}"
        );
        assert!(text.lines().all(|l| l.starts_with("<stdin>:")), "{text}");
    }
}

/// A Chess Code program whose only finding is a warning.
const WARNS: &str = "a1+\n1/2 1/2\na1+\na1\n";

#[test]
fn deny_warnings_makes_a_warning_an_error_with_exit_2() {
    let allowed = chess2rs(&["check", "-", "--lang", "chc"], WARNS, &[]);
    assert_eq!(allowed.status.code(), Some(0), "{}", stderr(&allowed));
    assert!(stderr(&allowed).contains("warning[W0250]: "));
    for args in [
        &["check", "-", "--lang", "chc", "-D", "warnings"][..],
        &["-D", "warnings", "check", "-", "--lang", "chc"],
        &["--deny", "warnings", "check", "-", "--lang", "chc"],
        &["check", "-Dwarnings", "-", "--lang", "chc"],
        // Every verb that compiles refuses the program alike.
        &["interpret", "-", "--lang", "chc", "-D", "warnings"],
        &["-", "--lang", "chc", "-D", "warnings"],
    ] {
        let denied = chess2rs(args, WARNS, &[]);
        let text = stderr(&denied);
        assert_eq!(denied.status.code(), Some(2), "{args:?}: {text}");
        // An error, with the warning's code.
        assert!(text.starts_with("error[W0250]: "), "{args:?}: {text}");
        assert!(!text.contains("warning["), "{args:?}: {text}");
        assert!(
            text.contains("note: 1 warning is reported as an error because of `-D warnings`"),
            "{text}"
        );
        assert!(denied.stdout.is_empty(), "{args:?}");
    }
    let json = chess2rs(
        &[
            "check",
            "-",
            "--lang",
            "chc",
            "-D",
            "warnings",
            "--message-format",
            "json",
        ],
        WARNS,
        &[],
    );
    let objects = json_lines(&json);
    assert_eq!(objects[0]["level"], "error");
    assert_eq!(objects.last().unwrap()["level"], "note");
    // Only warnings are denied, by name.
    let wrong = chess2rs(
        &["check", "-", "--lang", "chc", "-D", "everything"],
        WARNS,
        &[],
    );
    assert_eq!(wrong.status.code(), Some(2));
    assert!(stderr(&wrong).contains("warnings"), "{}", stderr(&wrong));
}

#[test]
fn human_messages_show_their_code() {
    for (lang, program, _, _) in ERRORS {
        let output = check_stdin(lang, program, "human");
        let text = stderr(&output);
        let first = text.lines().next().unwrap_or_default();
        let code = first
            .strip_prefix("error[")
            .and_then(|rest| rest.split_once("]: "))
            .map(|(code, _)| code)
            .unwrap_or_else(|| panic!("{lang}: {text}"));
        assert!(
            chess2rs::diag::Code::parse(code).is_some(),
            "{lang}: {text}"
        );
    }
    let warned = chess2rs(&["check", "-", "--lang", "chc"], WARNS, &[]);
    assert!(stderr(&warned).starts_with("warning[W0250]: no loop condition loops back"));
}

#[test]
fn explain_prints_a_codes_explanation_and_refuses_what_is_not_one() {
    let wanted = chess2rs::diag::Code::IcpNoSuchLabel.explanation();
    for written in ["E0105", "e0105", "0105"] {
        let output = chess2rs(&["--explain", written], "", &[]);
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(String::from_utf8_lossy(&output.stdout), wanted);
    }
    let unknown = chess2rs(&["--explain", "E0015"], "", &[]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(unknown.stdout.is_empty());
    assert_eq!(
        stderr(&unknown),
        "error: `E0015` is not a chess2rs diagnostic code; did you mean `E0105`?\n"
    );
    let unknown = chess2rs(&["--explain", "nonsense"], "", &[]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stderr(&unknown).contains("docs/diagnostics.md lists every code"));
    // It stands alone.
    let mixed = chess2rs(&["--explain", "E0105", "x.icp"], "", &[]);
    assert_eq!(mixed.status.code(), Some(2));
    // The `explain` verb shows games, and points at `--explain` for a code.
    let verb = chess2rs(&["explain", "E0105"], "", &[]);
    assert_eq!(verb.status.code(), Some(2));
    assert!(
        stderr(&verb).contains("`chess2rs --explain E0105` explains it"),
        "{}",
        stderr(&verb)
    );
    let help = chess2rs(&["--help"], "", &[]);
    assert!(String::from_utf8_lossy(&help.stdout).contains("--explain <CODE>"));
}

fn coloured(output: &Output) -> bool {
    stderr(output).contains("\u{1b}[")
}

#[test]
fn color_always_never_and_the_environment() {
    let check = ["check", "-", "--lang", "icp"];
    let with = |extra: &[&str], env: &[(&str, &str)]| {
        let args: Vec<&str> = check.iter().chain(extra).copied().collect();
        let output = chess2rs(&args, "1. > 5\n", env);
        assert_eq!(output.status.code(), Some(2));
        coloured(&output)
    };
    // stderr is a pipe here: `auto` does not colour it…
    assert!(!with(&[], &[]));
    assert!(!with(&["--color", "auto"], &[]));
    // …unless CLICOLOR_FORCE says so (over NO_COLOR; `0` does not force).
    assert!(with(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(with(&[], &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")]));
    assert!(!with(&[], &[("CLICOLOR_FORCE", "0")]));
    // `always` and `never` decide over both variables.
    assert!(with(&["--color", "always"], &[("NO_COLOR", "1")]));
    assert!(with(&["--color=always"], &[]));
    assert!(!with(&["--color", "never"], &[("CLICOLOR_FORCE", "1")]));
    // Before the verb too.
    let output = chess2rs(
        &["--color", "always", "check", "-", "--lang", "icp"],
        "1. > 5\n",
        &[],
    );
    assert!(coloured(&output), "{}", stderr(&output));
    // The text is the same, colour aside.
    let plain = chess2rs(
        &["check", "-", "--lang", "icp", "--color", "never"],
        "1. > 5\n",
        &[],
    );
    let strip = |text: String| -> String {
        let mut out = String::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c == '\u{1b}' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                out.push(c);
            }
        }
        out
    };
    assert_eq!(strip(stderr(&output)), stderr(&plain));
}

#[test]
fn explain_colours_its_bits_only_when_asked() {
    let game = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/chessoteric-hello.pgn"),
    )
    .unwrap();
    let explain = |colour: &str| {
        let output = chess2rs(
            &["explain", "-", "--lang", "pgn", "--color", colour],
            &game,
            &[],
        );
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        String::from_utf8_lossy(&output.stdout).contains("\u{1b}[")
    };
    assert!(explain("always"));
    assert!(!explain("never"));
    assert!(!explain("auto"));
}
