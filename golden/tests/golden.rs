//! Runs every golden case through the interpreter and the compiled code and
//! requires both to produce the expected, identical results.

use std::path::Path;

use chess2rs_golden::discover::{discover, CaseFiles, Expected};
use chess2rs_golden::CASES;
use chess2rs_runtime::Options;

/// What one run produced.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    stdout: String,
    stderr: String,
    code: i32,
}

fn finish(
    stdout: Vec<u8>,
    mut stderr: String,
    result: Result<(), chess2rs_runtime::RuntimeError>,
) -> Outcome {
    let code = match result {
        Ok(()) => 0,
        Err(err) => {
            stderr.push_str(&format!("error: {err}\n"));
            err.exit_code()
        }
    };
    Outcome {
        stdout: String::from_utf8_lossy(&stdout).into_owned(),
        stderr,
        code,
    }
}

fn interpreted(case: &CaseFiles, expected: &Expected) -> Outcome {
    let text = std::fs::read_to_string(&case.path).unwrap_or_default();
    let source = chess2rs::Source::new(case.name.clone(), text);
    let Some(language) = chess2rs::Language::from_path(&case.path) else {
        return Outcome {
            stdout: String::new(),
            stderr: "unknown language".into(),
            code: 2,
        };
    };
    match chess2rs::check(&source, language) {
        Err(errors) => Outcome {
            stdout: String::new(),
            stderr: errors.render(&source),
            code: 2,
        },
        Ok(checked) => {
            let mut stdout = Vec::new();
            let result = chess2rs::interpret(
                &checked.program,
                &expected.input[..],
                &mut stdout,
                &Options {
                    max_steps: expected.max_steps,
                },
            );
            finish(stdout, checked.warnings.render(&source), result)
        }
    }
}

fn compiled(case: &CaseFiles, expected: &Expected) -> Outcome {
    let Some(compiled) = CASES.iter().find(|c| c.name == case.name) else {
        return Outcome {
            stdout: String::new(),
            stderr: "not compiled by build.rs (rebuild the golden crate)".into(),
            code: -1,
        };
    };
    match compiled.entry {
        None => Outcome {
            stdout: String::new(),
            stderr: compiled.diagnostics.to_string(),
            code: 2,
        },
        Some(entry) => {
            let mut stdout = Vec::new();
            let options = Options {
                max_steps: expected.max_steps,
            };
            let result = entry(&mut &expected.input[..], &mut stdout, &options);
            finish(stdout, compiled.diagnostics.to_string(), result)
        }
    }
}

/// Lines of `expected` and `actual` side by side where they differ.
fn diff(expected: &str, actual: &str) -> String {
    let mut out = String::new();
    for change in similar::TextDiff::from_lines(expected, actual).iter_all_changes() {
        let sign = match change.tag() {
            similar::ChangeTag::Delete => "-",
            similar::ChangeTag::Insert => "+",
            similar::ChangeTag::Equal => " ",
        };
        out.push_str(&format!("{sign}{change}"));
        if change.missing_newline() {
            out.push_str("\\ no newline\n");
        }
    }
    out
}

fn verify(case: &CaseFiles) -> Result<(), String> {
    let expected = case.expected()?;
    let interpreted = interpreted(case, &expected);
    let compiled = compiled(case, &expected);
    let mut problems = Vec::new();
    for (how, outcome) in [("interpreter", &interpreted), ("compiled code", &compiled)] {
        if outcome.stdout != expected.stdout {
            problems.push(format!(
                "{how}: stdout differs (- expected, + actual):\n{}",
                diff(&expected.stdout, &outcome.stdout)
            ));
        }
        if outcome.code != expected.code {
            problems.push(format!(
                "{how}: exit code {} but expected {}; stderr:\n{}",
                outcome.code, expected.code, outcome.stderr
            ));
        }
        for wanted in &expected.stderr_contains {
            if !outcome.stderr.contains(wanted.as_str()) {
                problems.push(format!(
                    "{how}: stderr lacks `{wanted}`; stderr:\n{}",
                    outcome.stderr
                ));
            }
        }
    }
    if interpreted != compiled {
        problems.push(format!(
            "interpreter and compiled code disagree:\n{}",
            diff(&format!("{interpreted:#?}"), &format!("{compiled:#?}"))
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn every_golden_case_passes_through_interpreter_and_compiled_code() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let cases = discover(root);
    assert!(
        !cases.is_empty(),
        "no golden cases found under {}",
        root.display()
    );
    let mut failures = Vec::new();
    for case in &cases {
        if let Err(problem) = verify(case) {
            failures.push(format!("=== {} ===\n{problem}", case.name));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
    eprintln!("{} golden cases passed both ways", cases.len());
}

#[test]
fn every_case_on_disk_was_compiled() {
    let cases = discover(Path::new(env!("CARGO_MANIFEST_DIR")));
    let compiled: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    let on_disk: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(on_disk, compiled);
}
