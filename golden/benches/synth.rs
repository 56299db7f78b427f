//! `chess2rs synth`: time to write a game for hello world and for a fixed
//! set of random machines (6 rules and 12 tape symbols, values up to 255:
//! the largest the property test draws), and the moves per bit written,
//! printed before the timings: the corner design and `synth`'s default
//! (the whole board's search and the corner design, the shorter game)
//! side by side. `SYNTH_MACHINES=N` sets the size of the random set (20);
//! `scripts/synth_check.py` measures the same machines through the
//! command line.

use std::time::Instant;

use chess2rs::lang::chessoteric::ir::Machine;
use chess2rs::lang::chessoteric::synth::{synthesize, Design, SynthOptions, Synthesis};
use chess2rs::{Language, Program, Source};
use criterion::{criterion_group, criterion_main, Criterion};

fn machine(text: &str) -> Machine {
    let source = Source::new("machine.btm", text);
    match chess2rs::check(&source, Language::Btm).unwrap().program {
        Program::Chessoteric(machine) => machine,
        _ => unreachable!(),
    }
}

/// `count` machines of 6 rules (30 parts) and 12 tape symbols, each value
/// drawn from 0..=255 by a fixed linear congruential generator.
fn random_machines(count: usize) -> Vec<Machine> {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) % 256
    };
    (0..count)
        .map(|_| {
            let mut listing = String::new();
            for _ in 0..30 {
                listing.push_str(&format!("1{:b}!\n", next()));
            }
            for _ in 0..12 {
                listing.push_str(&format!("1{:b}?\n", next()));
            }
            machine(&listing)
        })
        .collect()
}

fn synth(machine: &Machine, design: Design) -> Synthesis {
    let options = SynthOptions {
        design,
        ..SynthOptions::default()
    };
    synthesize(machine, options, &mut |_| {}).unwrap()
}

/// Moves, bits and moves per bit of these syntheses, on stderr.
fn summary(name: &str, games: &[Synthesis], seconds: f64, note: &str) {
    let moves: usize = games.iter().map(Synthesis::moves).sum();
    let mut ratios: Vec<f64> = games
        .iter()
        .map(|g| g.moves() as f64 / g.bits.max(1) as f64)
        .collect();
    ratios.sort_by(f64::total_cmp);
    let median = ratios.get(ratios.len() / 2).copied().unwrap_or(0.0);
    let bits: usize = games.iter().map(|g| g.bits).sum();
    let annotated: usize = games.iter().map(|g| g.annotated).sum();
    eprintln!(
        "{name}: {} games, {moves} moves, {annotated} annotated plies, {bits} bits: \
         {:.3} moves per bit (median {median:.3}); {seconds:.3} s{note}",
        games.len(),
        moves as f64 / bits as f64
    );
}

fn benches(c: &mut Criterion) {
    let hello = machine(include_str!("../chessoteric/hello.btm"));
    let count = std::env::var("SYNTH_MACHINES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let random = random_machines(count);
    for (name, design) in [("corner", Design::Corner), ("best", Design::Best)] {
        let started = Instant::now();
        let games = [synth(&hello, design)];
        summary(
            &format!("{name}: hello world"),
            &games,
            started.elapsed().as_secs_f64(),
            " (the process's first synthesis: it explores the writing areas)",
        );
        let started = Instant::now();
        let games: Vec<Synthesis> = random.iter().map(|m| synth(m, design)).collect();
        summary(
            &format!("{name}: random set"),
            &games,
            started.elapsed().as_secs_f64(),
            "",
        );
    }

    let mut group = c.benchmark_group("synth");
    group.bench_function("hello_world", |b| b.iter(|| synth(&hello, Design::Corner)));
    group.sample_size(10);
    group.bench_function("random_set_20_machines", |b| {
        b.iter(|| {
            random
                .iter()
                .take(20)
                .map(|m| synth(m, Design::Corner).plies)
                .sum::<usize>()
        })
    });
    group.bench_function("hello_world_best", |b| {
        b.iter(|| synth(&hello, Design::Best))
    });
    group.finish();
}

criterion_group!(synth_benches, benches);
criterion_main!(synth_benches);
