//! Properties of the check rule's attack tests, after every move and
//! placement of random games on random boards with leapers, riders,
//! compounds, bent lines, rank conditions, searched pieces and royal
//! riders:
//! - the board's incremental record of attacked royal pieces (kept between
//!   moves and counted again only after a change that can matter) always
//!   equals a count made from scratch;
//! - attack tests along the lines of move classes give what a search of
//!   every piece's automaton gives (the same game played with every piece
//!   searched stays the same game, with the same counts).
//!
//! Moves take the first path in the spec's order (fewer rounds of a
//! repetition first) in both games; some notations make that order matter
//! (a rider that may step or jump, over holes).

use chess2rs::lang::finvara;
use chess2rs::lang::FrontEnd as _;
use chess2rs::Source;
use chess2rs_runtime::__private::{fv, Io};
use proptest::prelude::*;

/// Piece notations the games use: every way of attacking the board knows.
const NOTATIONS: &[&str] = &[
    "(1,0)*",
    "(1,1)*",
    "{(1,0)*,(1,1)*}",
    "{(1,0)*,(1,2)}",
    "(1,2)",
    "(2,0)*",
    "r((1,0)*,[1,3])",
    "r!((1,1)*,2)",
    "c((1,1)*)",
    "m((1,0)*)",
    "(1,0|^)p",
    "[(1,0)(1,0)]*",
    "(1,1)`",
    "(1,0)x(1,0)",
    "{(1,0),(1,1)}",
    "(1,0|^)(1,1)",
    "[(1,1)(1,0)]*",
    "r((1,0),[1,2])(0,1)",
    "{(1,0)(0,2),(2,2)}",
    "[(1,0|^)(1,0|>)]*",
    "{(1,0)`,(1,1)`}",
    "r((1,0|^)`,[1,2])",
    "(1,0|^)x(1,1)",
    "{(2,2|<>),(1,0)`}",
    "{r!((1,0)x(1,0),[2,3]),[(1,1)(1,1)]*}",
    "r!(r((1,0)*,[1,3]),2)",
    "r(r!((1,1)`,1),[1,4])",
    "{[p](1,0),[p`]}",
    "{p,(1,1)}*",
    // Paths in the spec's order, fewer rounds first: a jump of two before
    // two steps, over holes or not; a piece that cannot move.
    "{(0,1),(0,2)}*",
    "{(1,0),(2,0)}`",
    "",
];

/// A random game: board size, piece types (indices into [`NOTATIONS`],
/// royal or not), cells, and moves (from, to) by cell index.
#[derive(Clone, Debug)]
struct Game {
    rows: usize,
    cols: usize,
    pieces: Vec<(usize, bool)>,
    cells: Vec<u8>,
    moves: Vec<(usize, usize, bool)>,
}

fn game() -> impl Strategy<Value = Game> {
    (
        3usize..9,
        3usize..9,
        prop::collection::vec((0..NOTATIONS.len(), any::<bool>()), 2..6),
    )
        .prop_flat_map(|(rows, cols, pieces)| {
            let squares = rows * cols;
            (
                Just(rows),
                Just(cols),
                Just(pieces),
                prop::collection::vec(any::<u8>(), squares),
                prop::collection::vec((0..squares, 0..squares, any::<bool>()), 1..40),
            )
        })
        .prop_map(|(rows, cols, pieces, cells, moves)| Game {
            rows,
            cols,
            pieces,
            cells,
            moves,
        })
}

/// The game as a Finvara program (its one move line only makes it valid).
fn program_text(game: &Game) -> String {
    let mut text = String::new();
    for (index, &(notation, royal)) in game.pieces.iter().enumerate() {
        let value = if royal { String::new() } else { " 1".into() };
        text.push_str(&format!("(p{index}{value}): {}\n", NOTATIONS[notation]));
    }
    let border = format!("+{}\n", "---+".repeat(game.cols));
    text.push_str(&border);
    for row in (0..game.rows).rev() {
        text.push('|');
        for col in 0..game.cols {
            let byte = game.cells[row * game.cols + col];
            let cell = match byte % 10 {
                0..=5 => "   ".to_string(),
                6 => "## ".to_string(),
                _ => {
                    let kind = usize::from(byte / 10) % game.pieces.len();
                    let colour = if byte.is_multiple_of(2) { 'W' } else { 'B' };
                    format!("p{kind}{colour}")
                }
            };
            text.push_str(&cell);
            text.push('|');
        }
        text.push('\n');
        text.push_str(&border);
    }
    text.push_str("\nTurn 1 W: p0 a1 -> a1\n");
    text
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn kept_counts_are_fresh_and_lines_agree_with_searches(game in game()) {
        let text = program_text(&game);
        let source = Source::new("attacks.fv", text.clone());
        let Ok((program, _)) = finvara::Stages::front_end(&source) else {
            return Err(TestCaseError::fail(format!("does not compile:\n{text}")));
        };
        let data = program.rules_data();
        let rules = data.rules();
        // The same rules with every piece's attacks searched.
        let all_searched: Vec<fv::Automaton> = rules
            .automata
            .iter()
            .map(|automaton| fv::Automaton { attacks: None, bends: &[], ..*automaton })
            .collect();
        let searched_rules = fv::Rules { automata: &all_searched, ..rules };
        let mut state = fv::Game::new(&rules, &program.board);
        let mut searched = fv::Game::new(&searched_rules, &program.board);
        let input = "1 2 3 4 5 6 7 8 9";
        let (mut out, mut searched_out) = (Vec::new(), Vec::new());
        let mut io = Io::new(input.as_bytes(), &mut out);
        let mut searched_io = Io::new(input.as_bytes(), &mut searched_out);
        prop_assert!(state.attack_counts_are_fresh(&rules).unwrap(), "initial board:\n{text}");
        for (step, &(from, to, place)) in game.moves.iter().enumerate() {
            let cell = state.cells()[from];
            match cell {
                fv::Cell::Piece { kind, white } if !place => {
                    let (from, to) = (from as u32, to as u32);
                    let mv = fv::Move { white, kind, from, to, promote: None };
                    let moved = state.try_move(&rules, &mut io, mv, 1);
                    let searched_moved = searched.try_move(&searched_rules, &mut searched_io, mv, 1);
                    prop_assert_eq!(
                        moved.is_ok(), searched_moved.is_ok(),
                        "move {} ({} -> {}) with lines and searched:\n{}", step, from, to, text
                    );
                    // Errors (a stack action with too few values) end the game.
                    if moved.is_err() {
                        break;
                    }
                }
                _ => {
                    let kind = (step % program.pieces.len()) as u16;
                    state.place(kind, step % 2 == 0, to as u32, 1);
                    searched.place(kind, step % 2 == 0, to as u32, 1);
                }
            }
            prop_assert!(
                state.attack_counts_are_fresh(&rules).unwrap(),
                "after move {step} ({from} -> {to}, place {place}):\n{text}"
            );
            prop_assert_eq!(
                state.attacked_royal_counts(&rules).unwrap(),
                searched.attacked_royal_counts(&searched_rules).unwrap(),
                "attacked royal pieces after move {} ({} -> {}), lines vs searched:\n{}",
                step, from, to, text
            );
            prop_assert_eq!(state.cells(), searched.cells(), "board after move {}:\n{}", step, text);
            // The losing test brings both counts up to date, as a program
            // does after every line.
            state.someone_lost(&rules).unwrap();
            searched.someone_lost(&searched_rules).unwrap();
        }
    }
}
