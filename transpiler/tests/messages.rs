//! Every message chess2rs gives, rendered exactly as a user sees it: one
//! program per message in `tests/messages/` and one insta snapshot each
//! (`tests/snapshots/messages__<case>.snap`), so any change to a message's
//! words, span, label or hint is reviewed (`cargo insta review`).
//!
//! A case snapshots its program's errors and warnings; a `run_` case's
//! program also runs in the interpreter — input from `<case>.in`, the step
//! limit from `<case>.steps` (else 10,000) — and adds its output and
//! run-time error. A case that produces no message fails: each case exists
//! to show one.

use std::fs;
use std::path::{Path, PathBuf};

use chess2rs::runtime_errors::render_runtime_error;
use chess2rs::{check, interpret, Language, Source};
use chess2rs_runtime::Options;

/// The case programs, sorted by name (their data files left out).
fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/messages");
    let mut cases: Vec<PathBuf> = fs::read_dir(&dir)
        .expect("tests/messages exists")
        .map(|entry| entry.expect("a readable entry").path())
        .filter(|path| Language::from_path(path).is_some())
        .collect();
    cases.sort();
    cases
}

/// What a user sees for the case at `path`.
fn rendered(path: &Path) -> String {
    let language = Language::from_path(path).expect("a program");
    let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
    let source = Source::new(name, fs::read_to_string(path).expect("readable"));
    let checked = match check(&source, language) {
        Ok(checked) => checked,
        Err(errors) => return errors.render(&source),
    };
    let warnings = checked.warnings.render(&source);
    if !name.starts_with("run_") {
        assert!(!warnings.is_empty(), "{name} gives no message");
        return warnings;
    }
    let with = |extension: &str| fs::read_to_string(format!("{}.{extension}", path.display()));
    let input = with("in").unwrap_or_default();
    let steps = with("steps").map_or(10_000, |s| s.trim().parse().expect("a step count"));
    let mut output = Vec::new();
    match interpret(
        &checked.program,
        input.as_bytes(),
        &mut output,
        &Options::with_max_steps(steps),
    ) {
        Ok(()) => panic!("{name} gives no message"),
        Err(error) => format!(
            "{warnings}output: {:?}\n{}",
            String::from_utf8_lossy(&output),
            render_runtime_error(&error, &source, &checked.program.error_sites())
        ),
    }
}

#[test]
fn every_message_is_rendered_as_recorded() {
    let cases = cases();
    assert!(cases.len() > 80, "only {} cases", cases.len());
    for path in cases {
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("a name");
        insta::assert_snapshot!(stem, rendered(&path));
    }
}

/// Messages whose programs would be unwieldy as files are made here: a
/// notation of 400,000 alternatives, each four leaps (megabytes of text),
/// passes the automata's edge limit.
#[test]
fn messages_of_programs_made_here() {
    let mut text = String::from("(k):\n(p 1): {(1,1)");
    for _ in 1..400_000 {
        text.push_str(",(1,1)");
    }
    text.push_str("}\n+--+--+--+\n|kB|  |  |\n+--+--+--+\n|  |  |  |\n+--+--+--+\n");
    text.push_str("|pW|  |kW|\n+--+--+--+\nTurn 1 W: p a1 -> b2\n");
    let source = Source::new("alternatives.fv", text);
    let errors = match check(&source, Language::Finvara) {
        Ok(_) => panic!("the program compiles"),
        Err(errors) => errors.render(&source),
    };
    insta::assert_snapshot!("fv_notations_expand_too_far", errors);
}

#[test]
fn each_language_has_cases_for_compile_and_run_time() {
    let names: Vec<String> = cases()
        .iter()
        .filter_map(|p| p.file_name()?.to_str().map(str::to_string))
        .collect();
    for extension in ["icp", "chc", "pgn", "btm", "fv"] {
        let of = |prefix: &str| {
            names
                .iter()
                .filter(|n| n.starts_with(prefix) && n.ends_with(&format!(".{extension}")))
                .count()
        };
        assert!(of(extension) >= 5, "{extension}: compile-time cases");
        assert!(
            of(&format!("run_{extension}")) >= 2,
            "{extension}: run-time cases"
        );
    }
}

/// Every error and warning a user sees carries its code
/// (`error[E0105]: …`, `warning[W0150]: …`): every message snapshot, the
/// runtime errors of the `run_` cases included.
#[test]
fn every_message_has_a_code() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut seen = 0;
    for entry in fs::read_dir(&dir).expect("tests/snapshots exists") {
        let path = entry.expect("a readable entry").path();
        let text = fs::read_to_string(&path).expect("a readable snapshot");
        for line in text.lines() {
            let Some((level, rest)) = ["error", "warning"]
                .iter()
                .find_map(|level| Some((*level, line.strip_prefix(level)?)))
            else {
                continue;
            };
            seen += 1;
            let code = rest
                .strip_prefix('[')
                .and_then(|rest| rest.split_once("]: "))
                .and_then(|(code, _)| chess2rs::diag::Code::parse(code));
            assert!(
                code.is_some(),
                "{}: a {level} without a code: {line}",
                path.display()
            );
        }
    }
    assert!(seen > 100, "only {seen} messages");
}
