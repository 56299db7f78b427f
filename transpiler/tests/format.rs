//! `chess2rs fmt` never changes what a program does. Every golden
//! program, example and corpus program that parses, random programs of
//! every language and the same programs with their layout scrambled are
//! formatted, and the result must parse, be formatted already (`fmt`
//! twice = once), and do the same thing: the same compile errors, or the
//! same output and the same runtime error at the same command (the n-th
//! command a run-time error can name, whichever line it moved to).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use chess2rs::lang::chessoteric::synth::{synthesize, SynthOptions};
use chess2rs::{FormatOptions, Language, Source};
use chess2rs_corpus::discover::discover;
use chess2rs_corpus::{Random, CORPORA};
use chess2rs_runtime::Options;
use proptest::prelude::*;

#[path = "support/child.rs"]
mod child;
#[path = "support/scratch.rs"]
mod scratch;

/// The most steps a program runs for here (both ways the same).
const STEPS: u64 = 20_000;

/// What running a program did: its compile errors, or its output and the
/// kind of its runtime error with the ordinal of the command it names.
#[derive(Debug, PartialEq, Eq)]
enum Behaviour {
    CompileErrors(Vec<String>),
    Ran {
        output: Vec<u8>,
        error: Option<(String, Option<usize>)>,
    },
}

fn behaviour(text: &str, language: Language, input: &[u8], max_steps: u64) -> Behaviour {
    let source = Source::new("p", text);
    let checked = match chess2rs::check(&source, language) {
        Ok(checked) => checked,
        Err(errors) => {
            return Behaviour::CompileErrors(errors.iter().map(|e| e.message.clone()).collect())
        }
    };
    let mut output = Vec::new();
    let options = Options::with_max_steps(max_steps);
    let result = chess2rs::interpret(&checked.program, input, &mut output, &options);
    let commands = checked.program.error_sites();
    let error = result.err().map(|error| {
        let site = chess2rs::runtime_errors::ErrorSite::of(&error);
        let ordinal = site
            .and_then(|site| (commands.as_slice().iter()).position(|command| command.site == site));
        (format!("{:?}", error.kind), ordinal)
    });
    Behaviour::Ran { output, error }
}

/// Formats `text`; `None` if it does not parse (nothing to compare), else
/// checks the formatted text against it and returns it.
fn formatted_same(
    text: &str,
    language: Language,
    input: &[u8],
    max_steps: u64,
) -> Result<Option<String>, String> {
    let options = FormatOptions::default();
    let Ok(formatted) = chess2rs::format(&Source::new("p", text), language, &options) else {
        return Ok(None);
    };
    let repaired = !formatted.repairs.is_empty();
    let formatted = formatted.text;
    let again = chess2rs::format(&Source::new("p", formatted.clone()), language, &options)
        .map_err(|e| {
            format!(
                "the formatted text does not parse: {:?}\n{formatted}",
                e.iter().next()
            )
        })?;
    if again.text != formatted {
        return Err(format!(
            "not a fixed point:\n{formatted}\n---\n{}",
            again.text
        ));
    }
    if !again.repairs.is_empty() {
        return Err(format!("the formatted text needed repairs:\n{formatted}"));
    }
    let before = behaviour(text, language, input, max_steps);
    let after = behaviour(&formatted, language, input, max_steps);
    // A board repaired (rows completed) may compile where it did not.
    let repaired_errors = repaired && matches!(before, Behaviour::CompileErrors(_));
    if before != after && !repaired_errors {
        return Err(format!(
            "behaves differently:\n{before:?}\n{after:?}\n--- before\n{text}\n--- after\n{formatted}"
        ));
    }
    Ok(Some(formatted))
}

fn golden_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../golden")
}

#[test]
fn every_golden_program_and_example_formats_to_the_same_program() {
    let mut programs: Vec<(PathBuf, Vec<u8>, u64)> = Vec::new();
    for case in discover(&golden_root()) {
        let expected = case.expected().expect("expectation files");
        programs.push((
            case.path.clone(),
            expected.input,
            expected.max_steps.unwrap_or(STEPS),
        ));
    }
    let examples = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    for entry in std::fs::read_dir(&examples).expect("examples/") {
        let path = entry.expect("an entry").path();
        if Language::from_path(&path).is_some() {
            let input = std::fs::read(path.with_extension(format!(
                "{}.in",
                path.extension().and_then(|e| e.to_str()).unwrap_or_default()
            )))
            .unwrap_or_default();
            programs.push((path, input, STEPS));
        }
    }
    let mut formatted = 0;
    for (path, input, max_steps) in &programs {
        let language = Language::from_path(path).expect("a program's extension");
        let text = std::fs::read_to_string(path).expect("a program");
        match formatted_same(&text, language, input, (*max_steps).min(STEPS)) {
            Ok(Some(_)) => formatted += 1,
            Ok(None) => {}
            Err(why) => panic!("{}: {why}", path.display()),
        }
    }
    assert!(
        formatted >= 150,
        "only {formatted} of {} programs parse",
        programs.len()
    );
}

#[test]
fn every_eighth_corpus_program_formats_to_the_same_program() {
    for corpus in &CORPORA {
        let language = Language::from_extension(corpus.extension).expect("a corpus language");
        for index in (0..corpus.len).step_by(8) {
            let program = (corpus.program)(index);
            let steps = program.max_steps.min(5_000);
            let result = formatted_same(&program.source, language, program.input.as_bytes(), steps);
            match result {
                Ok(Some(_)) => {}
                Ok(None) => panic!("{} does not parse", corpus.name(index)),
                Err(why) => panic!("{}: {why}", corpus.name(index)),
            }
        }
    }
}

#[test]
fn synthesized_games_format_to_the_same_game() {
    for index in 0..6 {
        let listing = chess2rs_corpus::btm::btm(&mut Random::new(index));
        let source = Source::new("r.btm", listing);
        let Ok(checked) = chess2rs::check(&source, Language::Btm) else {
            continue;
        };
        let chess2rs::Program::Chessoteric(machine) = &checked.program else {
            unreachable!("a BTM listing lowers to a machine");
        };
        for annotate in [false, true] {
            let game = synthesize(
                machine,
                SynthOptions {
                    annotate,
                    ..SynthOptions::default()
                },
                &mut |_| {},
            )
            .expect("a game");
            let result = formatted_same(&game.pgn, Language::Chessoteric, b"1\n2\n3\n", STEPS);
            if let Err(why) = result {
                panic!("machine {index}: {why}");
            }
        }
    }
}

/// A random program of `language` (a game synthesized for a random
/// machine for Chessoteric).
fn random_program(language: Language, seed: u64) -> String {
    let random = &mut Random::new(seed);
    match language {
        Language::InfChessPro => chess2rs_corpus::icp::infchesspro(random),
        Language::ChessCode => chess2rs_corpus::chc::chess_code(random),
        Language::Btm => chess2rs_corpus::btm::btm(random),
        Language::Finvara => chess2rs_corpus::fv::finvara(random),
        Language::Chessoteric => {
            let listing = chess2rs_corpus::btm::btm(random);
            let checked = chess2rs::check(&Source::new("r.btm", listing), Language::Btm);
            match checked.map(|checked| checked.program) {
                Ok(chess2rs::Program::Chessoteric(machine)) => synthesize(
                    &machine,
                    SynthOptions {
                        annotate: true,
                        ..SynthOptions::default()
                    },
                    &mut |_| {},
                )
                .map(|game| game.pgn)
                .unwrap_or_default(),
                _ => String::new(),
            }
        }
    }
}

/// `text` with blanks, tabs, blank lines and comment lines inserted at
/// the places `edits` pick (`(position, what)`, position as a fraction
/// of the text's length).
fn scrambled(text: &str, language: Language, edits: &[(f64, u8)]) -> String {
    let comment = match language {
        Language::ChessCode => "| a comment",
        Language::Chessoteric => "{a comment}",
        _ => "# a comment",
    };
    let mut text = text.to_string();
    for &(at, what) in edits {
        let mut at = ((text.len() as f64) * at) as usize;
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let inserted = match what % 5 {
            0 => " ",
            1 => "\t",
            2 => "\n\n",
            3 => "   ",
            _ => "",
        };
        if what % 5 == 4 {
            // A comment on a line of its own, after the line `at` is in.
            let end = text[at..].find('\n').map_or(text.len(), |end| at + end);
            text.insert_str(end, &format!("\n{comment}"));
        } else {
            text.insert_str(at, inserted);
        }
    }
    text
}

fn languages() -> impl Strategy<Value = Language> {
    prop_oneof![
        Just(Language::InfChessPro),
        Just(Language::ChessCode),
        Just(Language::Btm),
        Just(Language::Finvara),
        Just(Language::Chessoteric),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Random programs, as generated and with their layout scrambled:
    /// whatever parses formats to a program that does the same.
    #[test]
    fn random_programs_format_to_the_same_program(
        language in languages(),
        seed in any::<u64>(),
        edits in proptest::collection::vec((0.0..1.0f64, any::<u8>()), 0..12),
    ) {
        let text = random_program(language, seed);
        let input = b"3 1 4 1 5 9 2 6\n5\n3\n";
        formatted_same(&text, language, input, 2_000).map_err(TestCaseError::fail)?;
        let messy = scrambled(&text, language, &edits);
        formatted_same(&messy, language, input, 2_000).map_err(TestCaseError::fail)?;
    }
}

/// Renumbering golden InfChessPro programs (those it does not refuse:
/// no target read from input, no label twice, no jump to no line), by
/// steps of 1 and of 10: the same behaviour, every label a multiple of
/// the step in file order, and every jump to one of them.
#[test]
fn renumbered_golden_programs_do_the_same() {
    let mut renumbered = 0;
    for case in discover(&golden_root()) {
        if Language::from_path(&case.path) != Some(Language::InfChessPro) {
            continue;
        }
        let text = std::fs::read_to_string(&case.path).expect("a program");
        let input = case.expected().expect("expectation files").input;
        for step in [1, 10] {
            let options = FormatOptions {
                renumber: Some(step),
            };
            let Ok(formatted) = chess2rs::format(
                &Source::new("p", text.as_str()),
                Language::InfChessPro,
                &options,
            ) else {
                continue;
            };
            assert_renumbered(&formatted.text, step, &case.name);
            let before = behaviour(&text, Language::InfChessPro, &input, STEPS);
            let after = behaviour(&formatted.text, Language::InfChessPro, &input, STEPS);
            assert_eq!(before, after, "{} renumbered by {step}", case.name);
            renumbered += 1;
        }
    }
    assert!(renumbered >= 40, "only {renumbered} renumberings");
}

/// Checks that the labels of `text` are `step`, `2 step`, … and that every
/// jump names one of them.
fn assert_renumbered(text: &str, step: u32, name: &str) {
    let source = Source::new("p", text);
    let program = chess2rs::lang::infchesspro::syntax::parse(&source).expect("parses");
    let labels: Vec<i64> = program.lines.iter().map(|line| line.label.value).collect();
    let expected: Vec<i64> = (1..=labels.len() as i64)
        .map(|n| n * i64::from(step))
        .collect();
    assert_eq!(labels, expected, "{name}");
    for line in &program.lines {
        for jump in [&line.on_success, &line.on_failure].into_iter().flatten() {
            let chess2rs::lang::infchesspro::syntax::Target::Label(label) = jump.value else {
                panic!("{name}: a target read from input was renumbered");
            };
            assert!(labels.contains(&label), "{name}: a jump to {label}");
        }
    }
}

#[test]
fn renumbering_rewrites_jumps_to_the_first_and_last_lines_and_across_gaps() {
    let text = "5. a=K0,0?900!5\n# a gap\n\n70. a;1,0?5!900\n900. %a?70\n";
    let options = FormatOptions { renumber: Some(1) };
    let formatted = chess2rs::format(&Source::new("p", text), Language::InfChessPro, &options)
        .expect("renumbers");
    assert_eq!(
        formatted.text,
        "1. a=K0,0?3!1\n# a gap\n\n2. a;1,0?1!3\n3. %a?2\n"
    );
    assert_renumbered(&formatted.text, 1, "gaps");
    assert_eq!(
        behaviour(text, Language::InfChessPro, b"", 50),
        behaviour(&formatted.text, Language::InfChessPro, b"", 50)
    );
}

/// A Finvara board drawn badly — a short row, a piece name wider than
/// the cells, `+--+` lines that fit no row — is redrawn, says what it
/// repaired, and then checks clean.
#[test]
fn a_ragged_board_is_redrawn_and_then_checks_clean() {
    let text = "\
(k):
(rook 5): (1,0)*
(p 4): (1,0|^)

+--+--+---+
|kB|  |rookB|
+-+--+
|##|
|  |pW|  |   # a short row before this comment
+--+--+--+--+
|kW|  |
+--+--+--+

Turn 1 W: p b3 -> c3
";
    let source = Source::new("board.fv", text);
    assert!(
        chess2rs::check(&source, Language::Finvara).is_err(),
        "the board is ragged"
    );
    let formatted = chess2rs::format(&source, Language::Finvara, &FormatOptions::default())
        .expect("a redraw repairs it");
    let repairs: String = formatted
        .repairs
        .iter()
        .map(|repair| {
            format!(
                "{}: {}\n",
                source.line_number(repair.span.start),
                repair.message
            )
        })
        .collect();
    insta::assert_snapshot!("ragged_board", format!("{}\n{repairs}", formatted.text));
    let checked = chess2rs::check(&Source::new("board.fv", formatted.text), Language::Finvara);
    assert!(checked.is_ok_and(|checked| checked.warnings.is_empty()));
}

fn chess2rs(dir: &Path, args: &[&str], stdin: &[u8]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_chess2rs"));
    command.current_dir(dir).args(args);
    child::run_with_input(&mut command, stdin)
}

/// `fmt` rewrites files in place; then `--check` passes; a file spaced
/// badly fails `--check` with a diff and is left alone; a file that does
/// not parse is refused (exit 2) and left alone; `-` formats stdin.
#[test]
fn fmt_rewrites_in_place_and_check_shows_a_diff() {
    let dir = scratch::scratch("fmt-cli");
    let mut names = Vec::new();
    for case in discover(&golden_root()) {
        let Some(language) = Language::from_path(&case.path) else {
            continue;
        };
        let text = std::fs::read_to_string(&case.path).expect("a program");
        if chess2rs::format(
            &Source::new("p", text.as_str()),
            language,
            &FormatOptions::default(),
        )
        .is_err()
        {
            continue;
        }
        let name = case.name.replace('/', "_");
        std::fs::write(dir.join(&name), text).expect("a copy");
        names.push(name);
    }
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let rewrite = chess2rs(&dir, &[&["fmt"], names.as_slice()].concat(), b"");
    assert_eq!(
        rewrite.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&rewrite.stderr)
    );
    let check = chess2rs(&dir, &[&["fmt", "--check"], names.as_slice()].concat(), b"");
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    assert!(check.stdout.is_empty());

    std::fs::write(dir.join("spaced.icp"), "1.  a = K0,0\n2. %a\n").expect("a file");
    let check = chess2rs(&dir, &["fmt", "--check", "spaced.icp", names[0]], b"");
    assert_eq!(check.status.code(), Some(1));
    let diff = String::from_utf8_lossy(&check.stdout);
    assert!(diff.starts_with("Diff in spaced.icp:\n"), "{diff}");
    assert!(diff.contains("-1.  a = K0,0\n+1. a=K0,0\n"), "{diff}");
    let kept = std::fs::read_to_string(dir.join("spaced.icp")).expect("the file");
    assert_eq!(kept, "1.  a = K0,0\n2. %a\n");

    std::fs::write(dir.join("bad.chc"), "a1+\nnot a command\n").expect("a file");
    let refused = chess2rs(&dir, &["fmt", "bad.chc", "spaced.icp"], b"");
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("is not a Chess Code command"));
    let kept = std::fs::read_to_string(dir.join("bad.chc")).expect("the file");
    assert_eq!(kept, "a1+\nnot a command\n");
    // The other file was formatted all the same.
    let spaced = std::fs::read_to_string(dir.join("spaced.icp")).expect("the file");
    assert_eq!(spaced, "1. a=K0,0\n2. %a\n");

    let piped = chess2rs(
        &dir,
        &["fmt", "--lang", "chc", "-"],
        b"1/2  1/2\na1+\na1=R\n",
    );
    assert_eq!(piped.status.code(), Some(0));
    assert_eq!(
        String::from_utf8_lossy(&piped.stdout),
        "1/2 1/2\n  a1+\na1=R\n"
    );

    let renumbered = chess2rs(
        &dir,
        &["fmt", "--renumber=5", "--lang", "icp", "-"],
        b"3. ^?3\n",
    );
    assert_eq!(String::from_utf8_lossy(&renumbered.stdout), "5. ^?5\n");
    let wrong_language = chess2rs(&dir, &["fmt", "--renumber", "bad.chc"], b"");
    assert_eq!(wrong_language.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&wrong_language.stderr).contains("no line numbers to renumber"));
}
