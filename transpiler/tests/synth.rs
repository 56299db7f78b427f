//! Property: random Turing machines (up to 6 rules and 12 tape symbols,
//! values up to 255) synthesize quickly into games that play back to the
//! same machine.

use std::time::Duration;

use chess2rs::lang::chessoteric::ir::Machine;
use chess2rs::lang::chessoteric::synth::{synthesize, SynthOptions};
use chess2rs::{Language, Program, Source};
use proptest::prelude::*;

#[path = "support/cpu_time.rs"]
mod cpu_time;
use cpu_time::CpuTimer;

/// The machine of a BTM listing (or of a game).
fn machine(text: &str, language: Language) -> Machine {
    let source = Source::new("machine", text);
    match chess2rs::check(&source, language)
        .expect("compiles")
        .program
    {
        Program::Chessoteric(machine) => machine,
        _ => unreachable!("a Chessoteric program"),
    }
}

/// A BTM listing of these rules and this tape.
fn listing(rules: &[[u8; 5]], tape: &[u8]) -> String {
    let mut text = String::new();
    for part in rules.iter().flatten() {
        text.push_str(&format!("1{part:b}!\n"));
    }
    for symbol in tape {
        text.push_str(&format!("1{symbol:b}?\n"));
    }
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn random_machines_synthesize_and_play_back(
        rules in prop::collection::vec(any::<[u8; 5]>(), 0..=6),
        tape in prop::collection::vec(any::<u8>(), 0..=12),
    ) {
        let wanted = machine(&listing(&rules, &tape), Language::Btm);
        // CPU time, not wall-clock time: a busy machine must not fail this.
        let timer = CpuTimer::start();
        let game = synthesize(&wanted, SynthOptions::default(), &mut |_| {}).unwrap();
        let took = timer.elapsed();
        prop_assert!(took < Duration::from_secs(10), "{took:?}");
        let played = machine(&game.pgn, Language::Chessoteric);
        prop_assert_eq!(played.rule_effects(), wanted.rule_effects(), "{}", game.pgn);
        prop_assert_eq!(played.tape, wanted.tape);
    }
}
