//! Judging a path on the board (attacks, the check rule, holes, promotion) and making the move.

use super::*;

/// Whether `square` is attacked by a piece of colour `by_white` on `board`
/// (spec: that piece has a legal path, check rule ignored, ending with a
/// capture there and landing on no hole).
pub(super) fn attacked(
    model: &Model,
    board: &[MCell],
    square: usize,
    by_white: bool,
    steps: &mut usize,
    limit: usize,
) -> Result<bool, Budget> {
    for (from, cell) in board.iter().enumerate() {
        let MCell::Piece { kind, white } = *cell else {
            continue;
        };
        if white != by_white {
            continue;
        }
        let mut search = Search::new(
            model,
            board,
            steps,
            limit,
            (white, kind, from),
            Goal::Attack { to: square },
        );
        if search.run()? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The check rule: none of `white`'s royal pieces attacked.
pub(super) fn royals_safe(
    model: &Model,
    board: &[MCell],
    white: bool,
    steps: &mut usize,
    limit: usize,
) -> Result<bool, Budget> {
    for (square, cell) in board.iter().enumerate() {
        if let MCell::Piece { kind, white: w } = *cell {
            if w == white
                && model.royal(kind)
                && attacked(model, board, square, !white, steps, limit)?
            {
                return Ok(false);
            }
        }
    }
    Ok(true)
}

/// How a landing on an enemy that the path already took with `x` reads.
///
/// The brief said "validated against the board as it is before the move"
/// (the enemy is still there: landing again needs `x` again or the end,
/// and ends by capturing). Commit e89c32b changed the engine on purpose:
/// "an enemy a path already took with x is gone for the rest of the path";
/// the spec's "every landing square before the last holds no piece …
/// except a square where the path then does x" allows both. The model
/// follows the engine's documented choice; `false` gives the brief's
/// reading (see `enemy_taken_with_x_is_gone_for_the_rest_of_the_path`).
pub(super) const GONE_AFTER_X: bool = true;

/// Spec "Legal paths", the board conditions, on the board before the move
/// (but see [`GONE_AFTER_X`]).
pub(super) fn path_allowed(
    board: &[MCell],
    white: bool,
    from: usize,
    path: &MPath,
    attack: bool,
) -> bool {
    let n = path.lands.len();
    // A path with no leap only promotes (then TO = FROM).
    if n == 0 {
        // … and it captures nothing, so `c(..)` fails.
        return !attack && path.promote.is_some() && !path.must_capture;
    }
    let mut captures = false;
    // What each landing holds as the path sees it (see [`GONE_AFTER_X`]).
    let mut seen = board.to_vec();
    let mut ends_capturing = false;
    for (i, land) in path.lands.iter().enumerate() {
        let last = i + 1 == n;
        if land.square == from {
            return false;
        }
        ends_capturing = matches!(seen[land.square], MCell::Piece { .. });
        if GONE_AFTER_X && land.x {
            seen[land.square] = MCell::Empty;
        }
        match board[land.square] {
            MCell::Piece { white: w, .. } if w == white => return false,
            MCell::Piece { .. } if !ends_capturing => {
                // Taken by an earlier `x`: an empty square now.
                if land.x {
                    return false;
                }
            }
            MCell::Piece { .. } => {
                // Before the last, an enemy only where `x` follows.
                if !(land.x || last) {
                    return false;
                }
                captures = true;
            }
            MCell::Empty => {
                if land.x {
                    return false;
                }
            }
            MCell::Hole => {
                if land.x || land.no_hole || attack {
                    return false;
                }
            }
        }
    }
    if path.must_capture && !ends_capturing {
        return false;
    }
    if path.no_capture && captures {
        return false;
    }
    if attack && !ends_capturing {
        return false;
    }
    true
}

/// Spec: "if the path promotes, the move line names an allowed target; if
/// the move line names a target, the path promotes"; `p` alone allows any
/// other type.
pub(super) fn promotion_matches(
    model: &Model,
    kind: usize,
    path: &MPath,
    promote: Option<usize>,
) -> bool {
    match (path.promote, promote) {
        (None, None) => true,
        (Some(targets), Some(t)) => {
            if targets.is_empty() {
                t != kind
            } else {
                targets.iter().any(|s| model.kinds[&s.value] == t)
            }
        }
        _ => false,
    }
}

/// Makes the move along `path` on a copy of `board` (spec "A valid move"):
/// the mover leaves FROM; at the first hole it falls and nothing after
/// happens; `x` captures; an enemy on the last landing is captured; the
/// mover (promoted) lands.
pub(super) fn make_move(
    board: &[MCell],
    white: bool,
    kind: usize,
    from: usize,
    path: &MPath,
    promote: Option<usize>,
) -> (Vec<MCell>, Vec<Effect>) {
    let mut cells = board.to_vec();
    let mut effects = Vec::new();
    cells[from] = MCell::Empty;
    for land in &path.lands {
        match cells[land.square] {
            MCell::Hole => {
                effects.push(Effect::Fell {
                    square: land.square,
                });
                return (cells, effects);
            }
            MCell::Piece {
                kind: victim,
                white: w,
            } if w != white && land.x => {
                effects.push(Effect::Captured {
                    kind: victim,
                    white: w,
                    square: land.square,
                });
                cells[land.square] = MCell::Empty;
            }
            _ => {}
        }
    }
    let end = path.lands.last().map_or(from, |l| l.square);
    if let MCell::Piece {
        kind: victim,
        white: w,
    } = cells[end]
    {
        assert_ne!(w, white);
        effects.push(Effect::Captured {
            kind: victim,
            white: w,
            square: end,
        });
    }
    cells[end] = MCell::Piece {
        kind: promote.unwrap_or(kind),
        white,
    };
    (cells, effects)
}
