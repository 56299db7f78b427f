//! Chessoteric checks, before any move is played: the FEN tag is a legal
//! position, every move is written in standard algebraic notation, and
//! the moves alternate between the sides. Playing the game (is each move
//! legal?) and reading its boards is lowering's work
//! ([`super::lower`]). A BTM listing has nothing left to check after its
//! syntax.

use super::chess::{Color, Position};
use super::fen;
use super::san::San;

use super::syntax::{Game, PgnMove};
use crate::diag::{excerpt, Diagnostic, Diagnostics};

/// What the checks learn about a game: where it starts and its moves read
/// as SAN.
#[derive(Clone, Debug, Default)]
pub struct Opening {
    /// The starting position (the FEN tag's, else the standard one).
    pub position: Position,
    /// Each move of the main line, in order (complete when there is no
    /// error).
    pub moves: Vec<San>,
}

/// Checks a game without playing it: every error found, and the opening
/// lowering plays from.
pub fn check(game: &Game) -> (Opening, Diagnostics) {
    let mut diagnostics = Diagnostics::default();
    let position = match &game.fen {
        None => Position::default(),
        Some(fen) => match fen::parse(&fen.value) {
            Ok(position) => position,
            Err(reason) => {
                diagnostics.push(
                    Diagnostic::error(
                        format!("the FEN tag is not a legal position: {reason}"),
                        fen.span.clone(),
                    )
                    .with_label("this position")
                    .with_help(
                        "a FEN looks like `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1`",
                    ),
                );
                Position::default()
            }
        },
    };
    let mut white_to_move = position.turn() == Color::White;
    let mut due = position.fullmoves();
    // After one move out of turn, every later one would be reported too.
    let mut turns_in_order = true;
    let mut moves = Vec::with_capacity(game.moves.len());
    for pgn_move in &game.moves {
        if turns_in_order {
            if let Some(error) = out_of_turn(white_to_move, due, pgn_move) {
                diagnostics.push(error);
                turns_in_order = false;
            }
        }
        if !white_to_move {
            due = due.saturating_add(1);
        }
        white_to_move = !white_to_move;
        let san = &pgn_move.san;
        match san.value.parse::<San>() {
            Ok(parsed) => moves.push(parsed),
            Err(_) => diagnostics.push(
                Diagnostic::error(
                    format!(
                        "`{}` is not a move in standard algebraic notation",
                        excerpt(&san.value)
                    ),
                    san.span.clone(),
                )
                .with_label("not SAN")
                .with_help("moves look like `e4`, `Nf3`, `exd5`, `O-O`, `e8=Q`, `Nbd2`"),
            ),
        }
    }
    (Opening { position, moves }, diagnostics)
}

/// The error for a move written as one side's while the other is to move
/// (`1. e4 2. Nf3`: Black's first move is missing), else `None`. `due` is
/// the number of the move that is due.
fn out_of_turn(white_to_move: bool, due: u32, pgn_move: &PgnMove) -> Option<Diagnostic> {
    if pgn_move.white == white_to_move {
        return None;
    }
    let (written, missing) = if pgn_move.white {
        ("White", "Black")
    } else {
        ("Black", "White")
    };
    let due_written = if white_to_move {
        format!("{due}.")
    } else {
        format!("{due}...")
    };
    Some(
        Diagnostic::error(
            format!(
                "`{}` is written as {written}'s move {}, but it is {missing}'s turn: {missing}'s move {due} is missing",
                pgn_move.san.value, pgn_move.number
            ),
            pgn_move.san.span.clone(),
        )
        .with_label(format!("{missing} has not moved yet"))
        .with_help(format!(
            "add {missing}'s move before this one (as `{due_written} MOVE`), or renumber this move if it is {missing}'s"
        )),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Source;

    fn messages(pgn: &str) -> Vec<String> {
        let game = super::super::syntax::parse_pgn(&Source::new("t.pgn", pgn)).unwrap();
        check(&game).1.into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn every_move_that_is_not_san_is_reported() {
        assert_eq!(
            messages("1. e4 e5 2. Xx4 Nc6 3. Bb9"),
            vec![
                "`Xx4` is not a move in standard algebraic notation",
                "`Bb9` is not a move in standard algebraic notation",
            ]
        );
    }

    #[test]
    fn the_first_move_out_of_turn_is_reported_once() {
        assert_eq!(
            messages("1. e4 2. d4 3. c4"),
            vec!["`d4` is written as White's move 2, but it is Black's turn: Black's move 1 is missing"]
        );
        assert!(messages("1. e4 e5 2. Nf3").is_empty());
    }

    #[test]
    fn the_fen_sets_who_moves_first() {
        let black_to_move =
            "[FEN \"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1\"]\n1... e5 2. Nf3";
        assert!(messages(black_to_move).is_empty());
        assert_eq!(
            messages("[FEN \"not a position\"]\n1. e4")[0],
            "the FEN tag is not a legal position: invalid board part in fen"
        );
    }
}
