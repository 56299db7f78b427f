//! `synth` on every Chessoteric golden case that compiles (BTM listings and
//! games): the synthesized game must run exactly as its source does — the
//! same output, the same error, under the case's input and step limit —
//! and give the case's expected output.

use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use chess2rs::lang::chessoteric::synth::{synthesize, SynthOptions};
use chess2rs::{Language, Program, Source};
use chess2rs_corpus::discover::{discover, CaseFiles};
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

/// Synthesizes the game of `case` and runs it: `Ok(false)` for a case
/// that is not Chessoteric or does not compile, `Err` where the game
/// differs.
fn synthesizes_to_a_game_that_runs_the_same(case: &CaseFiles) -> Result<bool, String> {
    let language = match case.path.extension().and_then(|e| e.to_str()) {
        Some("btm") => Language::Btm,
        Some("pgn") => Language::Chessoteric,
        _ => return Ok(false),
    };
    let text = std::fs::read_to_string(&case.path).unwrap();
    let source = Source::new(case.name.clone(), text);
    let Ok(checked) = chess2rs::check(&source, language) else {
        return Ok(false); // a compile-error case: nothing to synthesize
    };
    let Program::Chessoteric(machine) = &checked.program else {
        unreachable!("a Chessoteric program");
    };
    let game = synthesize(machine, SynthOptions::default(), &mut |_| {})
        .map_err(|e| format!("{}: {e}", case.name))?;
    let played = chess2rs::check(
        &Source::new("synthesized.pgn", game.pgn.clone()),
        Language::Chessoteric,
    )
    .map_err(|_| format!("{}: the game does not compile:\n{}", case.name, game.pgn))?;
    let expected = case.expected()?;
    let options = expected
        .max_steps
        .map_or_else(Options::default, Options::with_max_steps);
    let original = run(&checked.program, &expected.input, &options);
    let from_game = run(&played.program, &expected.input, &options);
    if from_game != original {
        return Err(format!(
            "{}: the game gives {from_game:?}, the source {original:?}:\n{}",
            case.name, game.pgn
        ));
    }
    if from_game.0 != expected.stdout {
        return Err(format!(
            "{}: {:?}, expected {:?}",
            case.name, from_game.0, expected.stdout
        ));
    }
    Ok(true)
}

/// Every Chessoteric case, in two workers (CI has two cores), the largest
/// program first: synthesizing the 1,019-rule `long_table.btm` takes a
/// debug build about as long as all the others together.
#[test]
fn every_chessoteric_case_synthesizes_to_a_game_that_runs_the_same() {
    let mut cases = discover(Path::new(env!("CARGO_MANIFEST_DIR")));
    cases.sort_by_key(|case| {
        std::cmp::Reverse(std::fs::metadata(&case.path).map_or(0, |meta| meta.len()))
    });
    let next = AtomicUsize::new(0);
    let synthesized = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some(case) = cases.get(next.fetch_add(1, Ordering::Relaxed)) {
                    match synthesizes_to_a_game_that_runs_the_same(case) {
                        Ok(true) => {
                            synthesized.fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(false) => {}
                        Err(failure) => failures.lock().unwrap().push(failure),
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    let synthesized = synthesized.into_inner();
    assert!(
        synthesized >= 20,
        "only {synthesized} Chessoteric cases synthesized"
    );
}

/// The machine of `path` (a BTM listing or a game).
fn machine_of(path: &Path, language: Language) -> chess2rs::lang::chessoteric::ir::Machine {
    let text = std::fs::read_to_string(path).unwrap();
    let source = Source::new(path.display().to_string(), text);
    match chess2rs::check(&source, language).map(|checked| checked.program) {
        Ok(Program::Chessoteric(machine)) => machine,
        _ => panic!("{} does not compile", path.display()),
    }
}

/// The stored synthesized games (`golden/synth/`, written by `synth`'s
/// default design, where the whole-board search won every time) build
/// their listings' machines in fewer plies than the corner design.
#[test]
fn the_stored_synthesized_games_build_their_listings_in_fewer_plies() {
    use chess2rs::lang::chessoteric::synth::Design;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut games: Vec<_> = std::fs::read_dir(root.join("synth"))
        .unwrap()
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|e| e == "pgn"))
        .collect();
    games.sort();
    assert!(games.len() >= 5, "{games:?}");
    for game in games {
        let stem = game.file_stem().unwrap().to_string_lossy().into_owned();
        let listing = root.join("chessoteric").join(format!("{stem}.btm"));
        let wanted = machine_of(&listing, Language::Btm);
        let played = machine_of(&game, Language::Chessoteric);
        assert_eq!(played.rule_effects(), wanted.rule_effects(), "{stem}");
        assert_eq!(played.tape, wanted.tape, "{stem}");
        let options = SynthOptions {
            design: Design::Corner,
            ..SynthOptions::default()
        };
        let corner = synthesize(&wanted, options, &mut |_| {}).unwrap();
        let text = std::fs::read_to_string(&game).unwrap();
        // SAN moves: the words that are neither move numbers nor the result.
        let plies = text
            .split_whitespace()
            .filter(|word| !word.ends_with('.') && !word.contains('-'))
            .count();
        assert!(
            plies < corner.plies,
            "{stem}: {plies} plies, the corner design {}",
            corner.plies
        );
    }
}
