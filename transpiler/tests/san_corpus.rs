//! Our SAN and FEN code against another chess library's: every game of
//! `tests/data/random_games.txt` (random legal games written by
//! python-chess, see `scripts/random_games.py`) is replayed from the
//! starting position. Each move must read as exactly one legal move, be
//! written back exactly as recorded (disambiguation, `x`, `=Q`, `O-O`,
//! `+`/`#`), and the final position must have the recorded FEN.

use chess2rs::lang::chessoteric::chess::Position;
use chess2rs::lang::chessoteric::fen;
use chess2rs::lang::chessoteric::san::{write_and_play, San};

const CORPUS: &str = include_str!("data/random_games.txt");

/// The first difference between a game as recorded and as we play it.
fn replay(game: &str) -> Result<usize, String> {
    let (moves, expected_fen) = game
        .split_once(" | ")
        .ok_or_else(|| "no ` | ` before the FEN".to_string())?;
    let mut position = Position::default();
    let mut plies = 0;
    for (ply, written) in moves.split_whitespace().enumerate() {
        let san: San = written
            .parse()
            .map_err(|_| format!("ply {}: `{written}` does not read as SAN", ply + 1))?;
        let m = san
            .to_move(&position)
            .map_err(|e| format!("ply {}: `{written}` is {e:?}", ply + 1))?;
        let rewritten = write_and_play(&mut position, &m);
        if rewritten != written {
            return Err(format!(
                "ply {}: `{written}` is written back as `{rewritten}`",
                ply + 1
            ));
        }
        plies += 1;
    }
    let fen = fen::write(&position);
    if fen != expected_fen.trim() {
        return Err(format!("final FEN {fen}, recorded {expected_fen}"));
    }
    // The recorded FEN reads back to the same position.
    let read = fen::parse(expected_fen.trim()).map_err(|e| format!("{expected_fen}: {e}"))?;
    if fen::write(&read) != fen {
        return Err(format!(
            "{expected_fen} reads back as {}",
            fen::write(&read)
        ));
    }
    Ok(plies)
}

#[test]
fn every_corpus_game_replays_and_is_written_back_as_recorded() {
    let games: Vec<&str> = CORPUS
        .lines()
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .collect();
    assert!(games.len() >= 1000, "only {} games", games.len());
    let mut failures = Vec::new();
    let mut plies = 0;
    for (number, game) in games.iter().enumerate() {
        match replay(game) {
            Ok(n) => plies += n,
            Err(why) => failures.push(format!("game {}: {why}", number + 1)),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} games differ; the first:\n{}",
        failures.len(),
        games.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    assert!(plies > 100_000, "{plies} plies");
}
