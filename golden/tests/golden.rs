//! Runs every golden case three ways — the interpreter, the code
//! `chess2rs::compile` generates, and the function `chess_program!` embeds —
//! and requires the expected, identical results.

use std::path::Path;

use chess2rs_golden::discover::{discover, CaseFiles, Expected};
use chess2rs_golden::{Case, Entry, CASES};
use chess2rs_runtime::Options;

/// What one run produced.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    stdout: String,
    stderr: String,
    code: i32,
}

/// The outcome of a run whose runtime error (if any) `render` shows.
fn finish(
    stdout: Vec<u8>,
    mut stderr: String,
    result: Result<(), chess2rs_runtime::RuntimeError>,
    render: impl Fn(&chess2rs_runtime::RuntimeError) -> String,
) -> Outcome {
    let code = match result {
        Ok(()) => 0,
        Err(err) => {
            stderr.push_str(&render(&err));
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
                    ..Options::default()
                },
            );
            // The CLI's way: the source at hand, the one renderer.
            finish(stdout, checked.warnings.render(&source), result, |err| {
                chess2rs::runtime_errors::render_runtime_error(err, &source, language)
            })
        }
    }
}

fn case(case: &CaseFiles) -> Option<&'static Case> {
    CASES.iter().find(|c| c.name == case.name)
}

/// Runs `entry` on the case's input; `None` means the program did not
/// compile, and `diagnostics` is what was reported instead.
fn run_entry(entry: Option<Entry>, diagnostics: &str, expected: &Expected) -> Outcome {
    match entry {
        None => Outcome {
            stdout: String::new(),
            stderr: diagnostics.to_string(),
            code: 2,
        },
        Some(entry) => {
            let mut stdout = Vec::new();
            let options = Options {
                max_steps: expected.max_steps,
                ..Options::default()
            };
            let result = entry(&mut &expected.input[..], &mut stdout, &options);
            // An executable's way: the source map the generated code keeps.
            finish(stdout, diagnostics.to_string(), result, |err| err.render())
        }
    }
}

fn compiled(files: &CaseFiles, expected: &Expected) -> Outcome {
    match case(files) {
        Some(case) => run_entry(case.entry, case.diagnostics, expected),
        None => not_built(),
    }
}

/// Through `chess_program!`: the embedded function, or — for programs with
/// errors — the message of the `compile_error!` the macro expands to.
/// (Warnings reach rustc's output as deprecation notes at build time, not
/// the function's run, so none are expected here.)
fn via_macro(files: &CaseFiles, expected: &Expected) -> Outcome {
    let Some(case) = case(files) else {
        return not_built();
    };
    if case.via_macro.is_some() {
        return run_entry(case.via_macro, "", expected);
    }
    let input: proc_macro2::TokenStream =
        format!("fn case = file {:?}", files.name).parse().unwrap();
    let expansion = chess2rs::embed::expand(input, Path::new(env!("CARGO_MANIFEST_DIR")));
    let message = syn::parse2::<syn::File>(expansion)
        .ok()
        .and_then(|file| {
            file.items.into_iter().find_map(|item| match item {
                syn::Item::Macro(m) if m.mac.path.segments.last()?.ident == "compile_error" => m
                    .mac
                    .parse_body::<syn::LitStr>()
                    .ok()
                    .map(|lit| lit.value()),
                _ => None,
            })
        })
        .unwrap_or_else(|| "the macro expanded to no compile_error!".into());
    Outcome {
        stdout: String::new(),
        stderr: message,
        code: 2,
    }
}

fn not_built() -> Outcome {
    Outcome {
        stdout: String::new(),
        stderr: "not compiled by build.rs (rebuild the golden crate)".into(),
        code: -1,
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
    let via_macro = via_macro(case, &expected);
    let mut problems = Vec::new();
    for (how, outcome) in [
        ("interpreter", &interpreted),
        ("compiled code", &compiled),
        ("macro", &via_macro),
    ] {
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
            // Warnings cannot come out of a proc macro.
            let warning = wanted.starts_with("warning") || !wanted.contains("error");
            if how == "macro" && outcome.code != 2 && warning {
                continue;
            }
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
    // The macro reports what the others report: the same errors (inside its
    // compile_error!), or the same run minus the warnings.
    let macro_agrees = if via_macro.code == 2 {
        via_macro.stderr.contains(&interpreted.stderr)
    } else {
        interpreted.stderr.ends_with(&via_macro.stderr)
    };
    if !macro_agrees || via_macro.stdout != interpreted.stdout || via_macro.code != interpreted.code
    {
        problems.push(format!(
            "the macro disagrees with the interpreter:\n{}",
            diff(&format!("{interpreted:#?}"), &format!("{via_macro:#?}"))
        ));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn every_golden_case_passes_through_interpreter_compiled_code_and_macro() {
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
    eprintln!("{} golden cases passed all three ways", cases.len());
}

#[test]
fn every_case_on_disk_was_compiled() {
    let cases = discover(Path::new(env!("CARGO_MANIFEST_DIR")));
    let compiled: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    let on_disk: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(on_disk, compiled);
}
