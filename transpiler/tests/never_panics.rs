//! Random bytes and random mutations of the golden programs of every
//! language go through the whole pipeline: never a panic, always
//! diagnostics or a result.

use std::path::Path;

use chess2rs::{check, compile, emit, interpret, CompileOptions, Language, Source};
use chess2rs_runtime::Options;
use proptest::prelude::*;

/// Every golden program with its language.
fn golden_programs() -> Vec<(Language, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden");
    let mut programs = Vec::new();
    for dir in std::fs::read_dir(root).unwrap().flatten() {
        for file in std::fs::read_dir(dir.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if let Some(language) = Language::from_path(&file.path()) {
                programs.push((language, std::fs::read_to_string(file.path()).unwrap()));
            }
        }
    }
    programs.sort_by(|a, b| a.1.cmp(&b.1));
    programs
}

/// The languages chess2rs compiles today.
fn languages() -> Vec<Language> {
    let mut languages: Vec<Language> = golden_programs().into_iter().map(|(l, _)| l).collect();
    languages.dedup();
    languages.sort_by_key(|l| l.extension());
    languages.dedup();
    languages
}

/// Runs the pipeline on `text`; panics propagate as test failures.
fn exercise(language: Language, text: &str, input: &[u8]) {
    let source = Source::new(format!("fuzz.{}", language.extension()), text);
    match check(&source, language) {
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
            let compiled = compile(&source, language, &CompileOptions::default()).unwrap();
            let file = emit::program_file(&source, language, &compiled.tokens, false);
            assert!(file.contains("fn main()"));
        }
    }
}

/// Characters that matter to the grammar, plus some that do not.
fn program_char() -> impl Strategy<Value = char> {
    prop_oneof![
        4 => prop::sample::select(vec![
            '0', '1', '2', '8', '9', '.', ',', ';', '=', '?', '!', '*', '^', '"', '%', '#', '-', '+', ' ',
            '\t', '\n', '\r', 'K', 'q', 'R', 'b', 'N', 'p', 'x', '_', 'a', 'c', 'h', 'O', '/', '|', 'B', 'Q',
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
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_bytes_never_panic(
        which in any::<prop::sample::Index>(),
        bytes in prop::collection::vec(any::<u8>(), 0..300),
        input in ".{0,40}",
    ) {
        let language = *which.get(&languages());
        exercise(language, &String::from_utf8_lossy(&bytes), input.as_bytes());
    }

    #[test]
    fn random_grammar_soup_never_panics(
        which in any::<prop::sample::Index>(),
        text in prop::collection::vec(program_char(), 0..200),
        input in "[-0-9 \n*x]{0,40}",
    ) {
        let language = *which.get(&languages());
        exercise(language, &text.into_iter().collect::<String>(), input.as_bytes());
    }

    #[test]
    fn mutated_golden_programs_never_panic(
        which in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..6),
        input in "[-0-9 \n]{0,40}",
    ) {
        let programs = golden_programs();
        let (language, original) = which.get(&programs);
        exercise(*language, &apply(original, &edits), input.as_bytes());
    }
}

/// Pieces of Finvara notation, to build random (mostly wrong) notations.
fn notation_token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "(1,0)", "(1,1)", "(2,1)", "(0,0)", "(9,9)", "(1,0|^)", "(1,1|v<)", "(", ")", ",", "{",
        "}", "[", "]", "*", "`", "`", "c(", "m(", "r(", "r!(", ",2)", ",-1)", ",[1,2])", "x", "p",
        "p->[a]", "->[b]", "\"a\"", "\"b\"", "\"k\"", "|", "^", "1", "-", " ",
    ])
}

/// A Finvara program around random notations for three piece types.
fn finvara_program(notations: &[String]) -> String {
    format!(
        "(k):\n(a 4): {}\n(b x): {}\n(c 3): {}\n\
         +--+--+--+--+--+\n|kB|bB|  |##|cB|\n+--+--+--+--+--+\n|  |##|  |  |  |\n\
         +--+--+--+--+--+\n|aW|  |cW|##|kW|\n+--+--+--+--+--+\n\
         Turn 1 W: a a1 -> c5\nTurn 1 B: b c2 -> a2\nTurn 2 W: c a3 -> c3\nTurn 2 B: c c5 -> a1\n\
         Turn 3 W: a c5 -> c5 = b\nTurn 3 B: b a2 checks turn 1\n",
        notations[0], notations[1], notations[2]
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_finvara_notations_never_panic(
        notations in prop::collection::vec(prop::collection::vec(notation_token(), 0..14), 3),
        input in "[-0-9 \n]{0,20}",
    ) {
        let notations: Vec<String> = notations.into_iter().map(|tokens| tokens.concat()).collect();
        exercise(Language::Finvara, &finvara_program(&notations), input.as_bytes());
    }
}

#[test]
fn deeply_nested_notations_are_a_diagnostic_not_a_crash() {
    for (open, close) in [
        ("[", "]"),
        ("{", "}"),
        ("c(", ")"),
        ("m(", ")"),
        ("r(", ",1)"),
    ] {
        let notation = format!("{}(1,0){}", open.repeat(7_000), close.repeat(7_000));
        let text = finvara_program(&[notation, "(1,0)".into(), "(1,0)".into()]);
        let source = Source::new("deep.fv", text);
        let errors = check(&source, Language::Finvara).expect_err("too deep");
        assert!(
            errors
                .render(&source)
                .contains("nests more than 100 levels deep"),
            "{}",
            errors.render(&source)
        );
    }
}

#[test]
fn long_reference_chains_and_crooked_riders_compile() {
    let mut text = String::from("(k):\n(p0 1): (1,0)`\n");
    for i in 1..3_000 {
        text.push_str(&format!("(p{i} 1): \"p{}\"\n", i - 1));
    }
    text.push_str("+--+--+--+\n|kB|  |  |\n+--+--+--+\n|p2999W|  |kW|\n+--+--+--+\n");
    text.push_str("Turn 1 W: p2999 a1 -> b2\n");
    let source = Source::new("chain.fv", text);
    let checked = check(&source, Language::Finvara).expect("compiles");
    let mut output = Vec::new();
    interpret(&checked.program, &b""[..], &mut output, &Options::default()).expect("runs");
}

/// A Turing machine whose states form one long chain (each state's one
/// rule leads to the next): its code once nested a level per state, and
/// 200 states overflowed a 2 MB stack in a debug build. Regions now stop
/// nesting at `MAX_NESTING` levels; compiled here on a 2 MB thread.
#[test]
fn long_chains_of_states_compile_within_a_small_stack() {
    let number = |n: u64| format!("1{}!", if n == 0 { "0".into() } else { format!("{n:b}") });
    let mut text = String::new();
    let states: Vec<u64> = std::iter::once(0).chain(3..403).collect();
    for pair in states.windows(2) {
        for value in [pair[0], 0, pair[1], 1, 0] {
            text.push_str(&number(value));
            text.push('\n');
        }
    }
    text.push_str("10?\n");
    let compiled = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            exercise(Language::Btm, &text, b"");
        })
        .unwrap()
        .join();
    assert!(compiled.is_ok());
}
