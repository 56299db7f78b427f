//! The golden cases (`golden/`) for the tests of the `chess2rs` command:
//! every case with its expectations, and representatives of those that
//! compile, for the tests that build executables with `run`.

use std::path::Path;

use chess2rs_corpus::discover;
pub use chess2rs_corpus::discover::{CaseFiles, Expected};

/// Every golden case with its expectations (a malformed expectation file
/// fails the test).
pub fn golden_cases() -> Vec<(CaseFiles, Expected)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden");
    let cases = discover::discover(&root);
    assert!(!cases.is_empty());
    cases
        .into_iter()
        .map(|case| {
            let expected = case
                .expected()
                .unwrap_or_else(|problem| panic!("{problem}"));
            (case, expected)
        })
        .collect()
}

/// What a golden case has that `run` must be seen to handle.
pub fn features(case: &CaseFiles, expected: &Expected) -> Vec<String> {
    let extension = case.path.extension().unwrap().to_string_lossy();
    let mut features = vec![format!("a .{extension} program")];
    if !expected.input.is_empty() {
        features.push("input".into());
    }
    if expected.code == 1 {
        features.push("a runtime error".into());
    }
    if expected.max_steps.is_some() {
        features.push("a step limit".into());
    }
    if expected.code == 0 && !expected.stderr_contains.is_empty() {
        features.push("warnings".into());
    }
    features
}

/// The compiling cases that go through `chess2rs run` itself (where a
/// build per case would take minutes): one at a time the case with the
/// most [`features`] not yet had, until every feature of the compiling
/// cases is had (about six builds).
pub fn representatives(cases: &[(CaseFiles, Expected)]) -> Vec<&(CaseFiles, Expected)> {
    let compiling: Vec<_> = cases.iter().filter(|(_, e)| e.code != 2).collect();
    let mut had: Vec<String> = Vec::new();
    let mut chosen = Vec::new();
    loop {
        let new = |(case, expected): &&(CaseFiles, Expected)| {
            features(case, expected)
                .into_iter()
                .filter(|f| !had.contains(f))
                .count()
        };
        let Some(best) = compiling
            .iter()
            .copied()
            .max_by_key(|c| (new(c), std::cmp::Reverse(&c.0.name)))
        else {
            break;
        };
        if new(&best) == 0 {
            break;
        }
        had.extend(features(&best.0, &best.1));
        chosen.push(best);
    }
    for wanted in [
        "a .icp program",
        "a .chc program",
        "a .pgn program",
        "a .btm program",
        "a .fv program",
        "input",
        "a runtime error",
        "a step limit",
        "warnings",
    ] {
        assert!(
            had.iter().any(|f| f == wanted),
            "no compiling golden case has {wanted}"
        );
    }
    chosen
}
