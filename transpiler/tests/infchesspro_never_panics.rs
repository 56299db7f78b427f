//! Random bytes and random mutations of the golden InfChessPro programs go
//! through the whole pipeline: never a panic, always diagnostics or a result.

use std::path::Path;

use chess2rs::{check, compile, emit, interpret, CompileOptions, Language, Source};
use chess2rs_runtime::Options;
use proptest::prelude::*;

fn golden_programs() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden/infchesspro");
    let mut programs: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "icp"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .collect();
    programs.sort();
    programs
}

/// Runs the pipeline on `text`; panics propagate as test failures.
fn exercise(text: &str, input: &[u8]) {
    let source = Source::new("fuzz.icp", text);
    match check(&source, Language::InfChessPro) {
        Err(errors) => {
            assert!(errors.has_errors());
            assert!(!errors.render(&source).is_empty());
        }
        Ok(checked) => {
            let _ = checked.warnings.render(&source);
            let mut output = Vec::new();
            let _ = interpret(
                &checked.program,
                input,
                &mut output,
                &Options::with_max_steps(2_000),
            );
            let compiled =
                compile(&source, Language::InfChessPro, &CompileOptions::default()).unwrap();
            let file = emit::program_file(&source, Language::InfChessPro, &compiled.tokens, false);
            assert!(file.contains("fn main()"));
        }
    }
}

/// Characters that matter to the grammar, plus some that do not.
fn program_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select(vec![
            '0', '1', '2', '9', '.', ',', ';', '=', '?', '!', '*', '^', '"', '%', '#', '-', '+', ' ',
            '\t', '\n', '\r', 'K', 'q', 'R', 'b', 'N', 'p', 'x', '_',
        ]),
        1 => any::<char>(),
    ]
}

#[derive(Clone, Debug)]
enum Edit {
    Insert(usize, char),
    Delete(usize),
    Replace(usize, char),
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let len = chars.len().max(1);
        match *edit {
            Edit::Insert(at, c) => chars.insert(at % (chars.len() + 1), c),
            Edit::Delete(at) if !chars.is_empty() => {
                chars.remove(at % len);
            }
            Edit::Replace(at, c) if !chars.is_empty() => chars[at % len] = c,
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), program_char()).prop_map(|(a, c)| Edit::Insert(a, c)),
        any::<usize>().prop_map(Edit::Delete),
        (any::<usize>(), program_char()).prop_map(|(a, c)| Edit::Replace(a, c)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn random_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..300), input in ".{0,40}") {
        exercise(&String::from_utf8_lossy(&bytes), input.as_bytes());
    }

    #[test]
    fn random_grammar_soup_never_panics(text in prop::collection::vec(program_char(), 0..200), input in "[-0-9 \n*x]{0,40}") {
        exercise(&text.into_iter().collect::<String>(), input.as_bytes());
    }

    #[test]
    fn mutated_golden_programs_never_panic(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..6),
        input in "[-0-9 \n]{0,40}",
    ) {
        let programs = golden_programs();
        let original = which.get(&programs);
        exercise(&apply(original, &edits), input.as_bytes());
    }
}
