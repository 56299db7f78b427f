//! `synth` on every Chessoteric golden case that compiles (BTM listings and
//! games): the synthesized game must run exactly as its source does — the
//! same output, the same error, under the case's input and step limit —
//! and give the case's expected output.

use std::path::Path;

use chess2rs::lang::chessoteric::synth::{synthesize, SynthOptions};
use chess2rs::{Language, Program, Source};
use chess2rs_golden::discover::discover;
use chess2rs_runtime::Options;

/// Output and error of interpreting `program`; the error without the line
/// it names (the game's lines are not the source's).
fn run(program: &Program, input: &[u8], options: &Options) -> (String, Option<String>) {
    let mut output = Vec::new();
    let result = chess2rs::interpret(program, input, &mut output, options);
    (
        String::from_utf8_lossy(&output).into_owned(),
        result.err().map(|e| {
            let message = e.to_string();
            match message.split_once(": ") {
                Some((line, rest)) if line.starts_with("line ") => rest.to_string(),
                _ => message,
            }
        }),
    )
}

#[test]
fn every_chessoteric_case_synthesizes_to_a_game_that_runs_the_same() {
    let mut synthesized = 0;
    for case in discover(Path::new(env!("CARGO_MANIFEST_DIR"))) {
        let language = match case.path.extension().and_then(|e| e.to_str()) {
            Some("btm") => Language::Btm,
            Some("pgn") => Language::Chessoteric,
            _ => continue,
        };
        let text = std::fs::read_to_string(&case.path).unwrap();
        let source = Source::new(case.name.clone(), text);
        let Ok(checked) = chess2rs::check(&source, language) else {
            continue; // a compile-error case: nothing to synthesize
        };
        let Program::Chessoteric(machine) = &checked.program else {
            unreachable!("a Chessoteric program");
        };
        let game = synthesize(machine, SynthOptions::default(), &mut |_| {})
            .unwrap_or_else(|e| panic!("{}: {e}", case.name));
        let played = chess2rs::check(
            &Source::new("synthesized.pgn", game.pgn.clone()),
            Language::Chessoteric,
        )
        .unwrap_or_else(|_| panic!("{}: the game does not compile:\n{}", case.name, game.pgn));
        let expected = case.expected().unwrap();
        let options = expected
            .max_steps
            .map_or_else(Options::default, Options::with_max_steps);
        let original = run(&checked.program, &expected.input, &options);
        let from_game = run(&played.program, &expected.input, &options);
        assert_eq!(from_game, original, "{}:\n{}", case.name, game.pgn);
        assert_eq!(from_game.0, expected.stdout, "{}", case.name);
        synthesized += 1;
    }
    assert!(
        synthesized >= 20,
        "only {synthesized} Chessoteric cases synthesized"
    );
}
