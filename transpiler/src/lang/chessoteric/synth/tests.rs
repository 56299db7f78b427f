//! Unit tests of the synthesis, and an ignored test for designing writing
//! areas.

use cozy_chess::BitBoard as Bitboard;

use super::super::chess::{Color, Position, Square};
use super::super::ir::Machine;
use super::super::lower::{board_bits, decode};
use super::super::syntax::Annotation;
use super::area::{explore, Area, MAX_AREA_POSITIONS};
use super::beam::{plain_moves, search as search_the_whole_board, Step};
use super::game::{game_of, position_after, verify};
use super::search::{plan, Expanded};
use super::targets::{reading, targets, Bits, Progress, Target};
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
    position_after(opening).expect("a legal opening")
}

#[test]
fn the_opening_is_legal_and_sets_up_the_writing_area() {
    let position = after(OPENING);
    let bits = reading(position.raw());
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
    assert_eq!(reading(position.raw()), Bits::parse("000"));
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
fn the_whole_board_search_writes_hello_world_densely_in_a_game_that_plays_back() {
    let hello = std::fs::read_to_string("../golden/chessoteric/hello.btm").unwrap();
    let wanted = machine(&hello);
    let targets = targets(&wanted);
    // A narrower beam than synth's, for a debug build's speed.
    let plies = search_the_whole_board(&Position::default(), &Progress::new(&targets), 1500)
        .expect("a game");
    let game = game_of(&[], &plies, &targets, false).unwrap();
    verify(&game.pgn, &wanted).unwrap();
    assert_eq!(output_of(&game.pgn), "Hello, world!\n");
    // The corner design: 123 plies; synth's beam: about 70.
    assert!(game.plies < 95, "{} plies:\n{}", game.plies, game.pgn);
    // Nothing the author's interpreter reads differently: no check, no
    // castling (en passant and pinned pieces: below).
    assert!(!game.pgn.contains(['+', '#', 'O']), "{}", game.pgn);
}

/// The steps from the first layer to state `index` of the last.
fn lineage(layers: &[Vec<Step>], mut index: u32) -> Vec<Step> {
    let mut steps = Vec::new();
    for layer in layers.iter().rev() {
        let step = layer[index as usize];
        steps.push(Step { parent: 0, ..step });
        index = step.parent;
    }
    steps
}

#[test]
fn pruning_the_beam_keeps_every_lineage_of_its_last_layer_and_nothing_else() {
    let step = |parent: u32, to: Square| Step {
        parent,
        m: cozy_chess::Move {
            from: Square::A1,
            to,
            promotion: None,
        },
        annotated: false,
    };
    use Square::*;
    let mut layers = vec![
        vec![step(0, B1), step(0, C1)],
        vec![step(1, D1), step(0, E1), step(1, F1)],
        vec![step(2, G1), step(0, H1), step(2, A2)],
    ];
    let before: Vec<_> = (0..3).map(|index| lineage(&layers, index)).collect();
    super::beam::prune(&mut layers);
    let after: Vec<_> = (0..3).map(|index| lineage(&layers, index)).collect();
    assert_eq!(before, after);
    // Only c1, then d1 and f1, descend to the last layer.
    assert_eq!(layers.iter().map(Vec::len).collect::<Vec<_>>(), [1, 2, 3]);
}

/// The moves the whole-board search plays in the position of `fen`, as
/// (from, to) pairs, and the number of legal moves there.
fn plain_moves_of(fen: &str) -> (Vec<(Square, Square)>, usize) {
    let position = super::super::fen::parse(fen).unwrap();
    let plain = plain_moves(position.raw());
    let pairs = plain.iter().map(|m| (m.from, m.to)).collect();
    (pairs, position.legal_moves().len())
}

#[test]
fn the_whole_board_search_leaves_out_moves_the_authors_reader_plays_differently() {
    use Square::*;
    // Castling, either way.
    let (plain, legal) = plain_moves_of("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    assert_eq!(plain.len(), legal - 2);
    assert!(plain.contains(&(E1, F1)) && !plain.contains(&(E1, H1)) && !plain.contains(&(E1, A1)));
    // En passant.
    let (plain, legal) = plain_moves_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    assert_eq!(plain.len(), legal - 1);
    assert!(plain.contains(&(E5, E6)) && !plain.contains(&(E5, D6)));
    // The knight on e2 is pinned; the reader would find it as well as
    // the one on b3 for `Nd4` and `Nc1`, and call them ambiguous.
    let (plain, legal) = plain_moves_of("4r1k1/8/8/8/8/1N6/4N3/4K3 w - - 0 1");
    assert_eq!(plain.len(), legal - 2);
    for to in [A1, D2, A5, C5] {
        assert!(plain.contains(&(B3, to)), "Nb3-{to}");
    }
    assert!(!plain.contains(&(B3, D4)) && !plain.contains(&(B3, C1)));
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
        let mut expanded = Expanded::default();
        match plan(&area, &targets, &mut expanded, &mut |_| {}) {
            Ok(plies) => {
                if n == 0 {
                    eprintln!(
                        "hello: {} plies for {bits} bits, {} annotated, {} states expanded, {:?}",
                        plies.len(),
                        plies.iter().filter(|p| p.writes.is_some()).count(),
                        expanded.0,
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
        let mut expanded = Expanded::default();
        let plies = plan(&area, &targets, &mut expanded, &mut |_| {}).unwrap();
        assert_eq!(Some(plies.len()), fewest_plies(&area, &targets), "{btm}");
    }
}

#[test]
fn the_reading_is_what_the_front_end_decodes() {
    // Positions of a random game: readings of every length, and none.
    let mut position = after(KINGS_WALK_OPENING);
    let mut lengths = std::collections::BTreeSet::new();
    for _ in 0..300 {
        let board_string = board_bits(&position.board());
        let decoded = decode(&board_string).and_then(|(_, bits)| Bits::parse(bits));
        assert_eq!(reading(position.raw()), decoded, "{board_string}");
        lengths.insert(decoded.map(|bits| bits.len));
        let moves = position.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[(position.raw().hash() % moves.len() as u64) as usize];
        position.play(&m);
    }
    assert!(lengths.len() > 3, "{lengths:?}");
}
