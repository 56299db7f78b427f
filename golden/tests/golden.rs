//! Runs every golden case three ways — the interpreter, the code
//! `chess2rs::compile` generates, and the function `chess_program!` embeds —
//! and requires the expected, identical results.

use std::path::Path;

use chess2rs::switch::{interpret_until, Interpreted};
use chess2rs_corpus::discover::{discover, CaseFiles, Expected};
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
                chess2rs::runtime_errors::render_runtime_error(
                    err,
                    &source,
                    &checked.program.error_sites(),
                )
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

/// `check` on every case: what it found of each, after asserting that
/// none failed (the failures, all of them, are the assertion's message).
fn on_every_case<T>(
    cases: &[CaseFiles],
    check: impl Fn(&CaseFiles) -> Result<T, String>,
) -> Vec<T> {
    let mut failures = Vec::new();
    let mut found = Vec::new();
    for case in cases {
        match check(case) {
            Ok(value) => found.push(value),
            Err(problem) => failures.push(format!("=== {} ===\n{problem}", case.name)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} golden cases failed:\n\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n\n")
    );
    found
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
    on_every_case(&cases, verify);
    eprintln!("{} golden cases passed all three ways", cases.len());
}

/// What a run printed and how it ended: its error's message, line and
/// column.
type Run = (Vec<u8>, Option<(String, Option<u32>, Option<u32>)>);

fn ended(result: Result<(), chess2rs_runtime::RuntimeError>, output: Vec<u8>) -> Run {
    (
        output,
        result.err().map(|e| (e.to_string(), e.line, e.column)),
    )
}

/// The step after which [`switches_like_the_interpreter`] stops looking
/// for the end: a few Chess Code programs run millions of steps (their
/// loops compiled in closed form), which a debug build interprets step by
/// step for seconds.
const LONG: u64 = 100_000;

/// The steps after which [`switches_like_the_interpreter`] stops the
/// interpreter of a program of `steps` steps (`None`: more than [`LONG`]):
/// every one of the first 200, 20 spread over the rest (up to `LONG`),
/// and the last two and the one past the last (no switch).
fn switch_points(steps: Option<u64>) -> Vec<u64> {
    let end = steps.unwrap_or(LONG);
    let mut points: Vec<u64> = (1..=end.min(200)).collect();
    points.extend((1..20).map(|i| end * i / 20));
    if let Some(steps) = steps {
        points.extend(steps.saturating_sub(1).max(1)..=steps + 1);
    }
    points.retain(|&k| k >= 1);
    points.sort_unstable();
    points.dedup();
    points
}

/// `run`'s switch from the interpreter to the compiled program (the
/// processes are `transpiler/tests/tiers.rs`'s, on representatives), for
/// one case at every step of [`switch_points`]: the interpreter stopped
/// after step k (`chess2rs::switch`) has written a prefix of what the
/// interpreter alone prints, consumed a prefix of the input (none unless
/// it read), and counted what it wrote; the compiled program run from the
/// start on the whole input, its first `written` bytes skipped, completes
/// the output and ends with the interpreter's error. A `k` past the last
/// step does not stop it, and it ends as the interpreter alone does.
fn switches_like_the_interpreter(files: &CaseFiles) -> Result<usize, String> {
    let expected = files.expected()?;
    let Some(entry) = case(files).and_then(|case| case.entry) else {
        return Ok(0);
    };
    let text = std::fs::read_to_string(&files.path).map_err(|e| e.to_string())?;
    let source = chess2rs::Source::new(files.name.clone(), text);
    let language = chess2rs::Language::from_path(&files.path).ok_or("no language")?;
    let program = chess2rs::check(&source, language)
        .map_err(|_| "compiled by build.rs, but not checked now".to_string())?
        .program;
    let options = Options {
        max_steps: expected.max_steps,
        ..Options::default()
    };
    let input = &expected.input[..];
    let mut output = Vec::new();
    let alone = ended(
        chess2rs::interpret(&program, input, &mut output, &options),
        output,
    );
    let mut output = Vec::new();
    let compiled = ended(entry(&mut &input[..], &mut output, &options), output);
    let mut counted = 0u64;
    let steps = match interpret_until(&program, &mut &input[..], &mut Vec::new(), &options, || {
        counted += 1;
        counted > LONG
    }) {
        Interpreted::Finished(_) => Some(counted),
        Interpreted::Switched { .. } => None,
    };
    let points = switch_points(steps);
    for &k in &points {
        let mut shown = Vec::new();
        let mut step = 0u64;
        let stopped = interpret_until(&program, &mut &input[..], &mut shown, &options, || {
            step += 1;
            step == k
        });
        let problem = match stopped {
            Interpreted::Finished(result) if steps.is_some_and(|steps| k > steps) => {
                let finished = ended(result, shown);
                (finished != alone).then(|| format!("not switched: {finished:?}"))
            }
            Interpreted::Finished(_) => Some(format!("finished before step {k}")),
            Interpreted::Switched { .. } if steps.is_some_and(|steps| k > steps) => {
                Some("switched".to_string())
            }
            Interpreted::Switched {
                consumed,
                touched,
                written,
            } => {
                let mut seen = shown.clone();
                seen.extend_from_slice(compiled.0.get(shown.len()..).unwrap_or_default());
                if !input.starts_with(&consumed) || !(touched || consumed.is_empty()) {
                    Some(format!("consumed {consumed:?} (read: {touched})"))
                } else if written != shown.len() as u64 || !alone.0.starts_with(&shown) {
                    Some(format!(
                        "wrote {shown:?}, counted {written} bytes, of {:?}",
                        String::from_utf8_lossy(&alone.0)
                    ))
                } else if !compiled.0.starts_with(&shown)
                    || seen != alone.0
                    || compiled.1 != alone.1
                {
                    Some(format!("then compiled: {compiled:?}, alone: {alone:?}"))
                } else {
                    None
                }
            }
        };
        if let Some(problem) = problem {
            let of = steps.map_or(format!("more than {LONG}"), |steps| steps.to_string());
            return Err(format!("switched after step {k} of {of}: {problem}"));
        }
    }
    Ok(points.len())
}

#[test]
fn every_golden_case_switches_from_interpreter_to_compiled_code_at_any_step() {
    let cases = discover(Path::new(env!("CARGO_MANIFEST_DIR")));
    let switches: usize = on_every_case(&cases, switches_like_the_interpreter)
        .iter()
        .sum();
    eprintln!("{switches} switches of {} golden cases", cases.len());
}

#[test]
fn every_case_on_disk_was_compiled() {
    let cases = discover(Path::new(env!("CARGO_MANIFEST_DIR")));
    let compiled: Vec<&str> = CASES.iter().map(|c| c.name).collect();
    let on_disk: Vec<&str> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(on_disk, compiled);
}
