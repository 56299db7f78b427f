//! Unit tests of the synthesis, and an ignored test for designing writing
//! areas.

use cozy_chess::BitBoard as Bitboard;

use super::super::chess::{Color, Position, Square};
use super::super::ir::Machine;
use super::super::lower::board_bits;
use super::super::san::San;
use super::super::syntax::Annotation;
use super::area::{board_value, explore, Area, MAX_AREA_POSITIONS};
use super::search::{plan, Budget};
use super::targets::{targets, Bits, Progress, Target};
use super::{synthesize, Design, SynthOptions, Synthesis, KINGS_WALK_OPENING, OPENING};
use crate::lang::chessoteric::BtmStages;
use crate::lang::FrontEnd as _;
use crate::source::Source;

fn machine(btm: &str) -> Machine {
    let source = Source::new("test.btm", btm);
    BtmStages::front_end(&source).expect("a valid listing").0
}

fn synthesized(btm: &str) -> Synthesis {
    synthesize(&machine(btm), SynthOptions::default(), &mut |_| {}).expect("synthesizes")
}

fn output_of(pgn: &str) -> String {
    let source = Source::new("game.pgn", pgn);
    let checked = crate::check(&source, crate::Language::Chessoteric).expect("compiles");
    let mut output = Vec::new();
    let options = chess2rs_runtime::Options::default();
    crate::interpret(&checked.program, &b""[..], &mut output, &options).expect("runs");
    String::from_utf8(output).expect("UTF-8")
}

/// The position after `opening` (legal SAN) from the standard one.
fn after(opening: &[&str]) -> Position {
    let mut position = Position::default();
    for san in opening {
        let m = san.parse::<San>().unwrap().to_move(&position).unwrap();
        position.play(&m);
    }
    position
}

#[test]
fn the_opening_is_legal_and_sets_up_the_writing_area() {
    let position = after(OPENING);
    let bits = board_value(&position.board());
    assert_eq!(bits, Bits::parse("01"), "g8 black, h8 white");
    let nodes = explore(position, Design::Corner.area_squares()).unwrap();
    assert!(
        nodes.len() < MAX_AREA_POSITIONS / 2,
        "{} positions",
        nodes.len()
    );
    for wanted in ["0", "1", "01", "10"] {
        assert!(
            nodes.iter().any(|n| n.bits == Bits::parse(wanted)),
            "no position writes {wanted}"
        );
    }
}

#[test]
fn the_kings_walk_opening_is_legal_and_leaves_three_black_pieces_after_the_marker() {
    let position = after(KINGS_WALK_OPENING);
    assert_eq!(position.turn(), Color::White);
    let board = position.board();
    let bits = board_bits(&board);
    // White's pieces (the knights on f6, g6 included), Black's pawns,
    // king and a8-c8, the marker on d8, then f8, g8, h8.
    assert_eq!(bits, format!("{}{}1000", "1".repeat(14), "0".repeat(10)));
    assert_eq!(board_value(&board), Bits::parse("000"));
}

#[test]
fn progress_takes_leading_zeros_free_and_the_rest_exactly() {
    let targets = [
        Target {
            part: true,
            digits: Bits::parse("101").unwrap(),
            what: String::new(),
        },
        Target {
            part: false,
            digits: Bits::parse("").unwrap(),
            what: String::new(),
        },
    ];
    let progress = Progress::new(&targets);
    let bits = |text: &str| Bits::parse(text).unwrap();
    // Slots: 0 not started, 1-3 started with 0-2 digits, 4 the zero, 5 end.
    assert_eq!(progress.end, 5);
    use Annotation::{ContinuePart, StartPart, StartSymbol};
    let cases = [
        (0, "001", Some((2, StartPart)), ""),
        (0, "00", Some((1, StartPart)), ""),
        (1, "010", Some((3, ContinuePart)), ""),
        (2, "01", Some((4, ContinuePart)), ""),
        (2, "1", None, "the digit after 1 is 0"),
        (3, "1", Some((4, ContinuePart)), ""),
        (0, "11", None, ""),
        (4, "000", Some((5, StartSymbol)), ""),
        (4, "01", None, "0 has no 1s"),
        (5, "0", None, "nothing after the end"),
    ];
    for (slot, digits, expected, why) in cases {
        assert_eq!(progress.advance(slot, bits(digits)), expected, "{why}");
    }
}

#[test]
fn hello_world_takes_fewer_moves_than_the_hand_made_game() {
    let hello = std::fs::read_to_string("../golden/chessoteric/hello.btm").unwrap();
    let game = synthesized(&hello);
    assert!(game.moves() < 75, "{} moves:\n{}", game.moves(), game.pgn);
    eprintln!(
        "{} moves, {} plies, {} annotated:\n{}",
        game.moves(),
        game.plies,
        game.annotated,
        game.pgn
    );
    assert_eq!(output_of(&game.pgn), "Hello, world!\n");
}

#[test]
fn the_same_machine_gives_the_same_game() {
    let btm = "10!\n11!\n110!\n10!\n10!\n11001000?\n";
    assert_eq!(synthesized(btm), synthesized(btm));
}

#[test]
fn an_empty_machine_is_a_move_pair_that_writes_nothing() {
    let game = synthesized("# nothing\n");
    assert_eq!(game.pgn, "1. b3 Nc6 1/2-1/2\n");
    assert_eq!((game.plies, game.annotated), (2, 0));
}

#[test]
fn annotating_adds_tags_and_a_comment_per_value() {
    let options = SynthOptions {
        annotate: true,
        ..SynthOptions::default()
    };
    let game = synthesize(&machine("11?\n1101?\n"), options, &mut |_| {}).unwrap();
    assert!(
        game.pgn.starts_with("[Event \"chess2rs synth\"]\n"),
        "{}",
        game.pgn
    );
    assert!(
        game.pgn.contains("{tape cell 0 = 1: writes "),
        "{}",
        game.pgn
    );
    assert!(game.pgn.contains(" of 101}"), "{}", game.pgn);
    assert!(game.pgn.trim_end().ends_with("1/2-1/2"));
}

/// Tries a writing position and area given by `SYNTH_FEN` (or
/// `SYNTH_OPENING`, moves in SAN from the standard position) and
/// `SYNTH_AREA` (squares separated by spaces; several areas separated
/// by `|`) on hello world and the BTM listings named in
/// `SYNTH_LISTINGS` (paths separated by spaces); for designing areas.
#[test]
#[ignore]
fn try_a_writing_area() {
    for area in std::env::var("SYNTH_AREA").unwrap().split('|') {
        try_area(area);
    }
}

fn try_area(area: &str) {
    let start = match std::env::var("SYNTH_OPENING") {
        Ok(opening) => after(&opening.split_whitespace().collect::<Vec<_>>()),
        Err(_) => super::super::fen::parse(&std::env::var("SYNTH_FEN").unwrap()).unwrap(),
    };
    let squares = area
        .split_whitespace()
        .map(|s| s.parse::<Square>().unwrap())
        .collect::<Bitboard>();
    eprintln!("area {area}");
    let t = std::time::Instant::now();
    let area = Area::new(start, squares).unwrap();
    let nodes = &area.nodes;
    let with_bits = nodes.iter().filter(|n| n.bits.is_some()).count();
    eprintln!(
        "{} positions, {with_bits} with bits, {:?}",
        nodes.len(),
        t.elapsed()
    );
    let mut seen = std::collections::BTreeMap::new();
    for n in nodes {
        if let Some(b) = n.bits {
            *seen.entry((b.len, b.to_string())).or_insert(0) += 1;
        }
    }
    eprintln!("readings: {} distinct", seen.len());
    let hello = std::fs::read_to_string("../golden/chessoteric/hello.btm").unwrap();
    let listings = std::env::var("SYNTH_LISTINGS").unwrap_or_default();
    let listings = listings
        .split_whitespace()
        .map(|path| std::fs::read_to_string(path).unwrap());
    let mut ratios = Vec::new();
    let t0 = std::time::Instant::now();
    for (n, listing) in std::iter::once(hello).chain(listings).enumerate() {
        let targets = targets(&machine(&listing));
        let bits: u32 = targets.iter().map(|t| t.digits.len).sum();
        let t = std::time::Instant::now();
        if n == 1 {
            eprintln!("hello total {:?}", t0.elapsed());
        }
        let mut budget = Budget::new(None);
        match plan(&area, &targets, &mut budget, &mut |_| {}) {
            Ok(plies) => {
                if n == 0 {
                    eprintln!(
                        "hello: {} plies for {bits} bits, {} annotated, {} states expanded, {:?}",
                        plies.len(),
                        plies.iter().filter(|p| p.writes.is_some()).count(),
                        budget.spent,
                        t.elapsed()
                    );
                } else {
                    ratios.push(plies.len() as f64 / bits as f64);
                }
            }
            Err(e) => eprintln!("{n}: {e}"),
        }
    }
    ratios.sort_by(|a, b| a.total_cmp(b));
    if !ratios.is_empty() {
        eprintln!(
            "random: median {:.3} writing plies per bit, {:?}",
            ratios[ratios.len() / 2],
            t0.elapsed()
        );
    }
}

/// The fewest plies from the area's first position that write `targets`,
/// by a breadth-first search over (position, slot) with no bound.
fn fewest_plies(area: &Area, targets: &[Target]) -> Option<usize> {
    let progress = Progress::new(targets);
    let mut seen = std::collections::HashSet::new();
    let mut layer = vec![(0u32, 0u32)];
    seen.insert((0, 0));
    for plies in 0.. {
        if layer.is_empty() {
            return None;
        }
        if layer.iter().any(|&(_, slot)| slot == progress.end) {
            return Some(plies);
        }
        let mut next = Vec::new();
        for (node, slot) in layer {
            for &(_, to) in &area.nodes[node as usize].moves {
                let written = area.nodes[to as usize]
                    .bits
                    .and_then(|bits| progress.advance(slot, bits));
                for state in written
                    .map(|(s, _)| (to, s))
                    .into_iter()
                    .chain([(to, slot)])
                {
                    if seen.insert(state) {
                        next.push(state);
                    }
                }
            }
        }
        layer = next;
    }
    None
}

#[test]
fn the_search_finds_plans_as_short_as_a_search_without_its_bound() {
    let area = Area::new(after(OPENING), Design::Corner.area_squares()).unwrap();
    for btm in [
        "1101?\n",
        "10!\n11!\n110!\n10!\n10!\n11001000?\n",
        "111111?\n10?\n1101101?\n",
    ] {
        let targets = targets(&machine(btm));
        let mut budget = Budget::new(None);
        let plies = plan(&area, &targets, &mut budget, &mut |_| {}).unwrap();
        assert_eq!(Some(plies.len()), fewest_plies(&area, &targets), "{btm}");
    }
}
