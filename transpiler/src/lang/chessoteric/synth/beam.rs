//! The whole-board search ([`super::Design::WholeBoard`]): a beam search
//! over positions of the whole game, any legal move of any piece allowed
//! that every reader of the game plays alike ([`plain_moves`]): captures,
//! pawn moves and promotions, but no castling, en passant or check.
//!
//! The search goes one ply at a time. Every state kept (a position, and
//! the slot of the values written so far, [`Progress`]) is expanded by
//! every legal move; the position reached gives a plain state at the same
//! slot and, when its reading is what comes next, an annotated state
//! further on. The next layer keeps at most `width` states:
//! - the furthest slots first;
//! - at most one state per position (the one furthest on);
//! - at most [`SLOT_SHARE`] of the layer at one slot, so that it also holds
//!   states a little behind the front, which may be ready to write more
//!   at once;
//! - ties broken by a hash of the position: deterministic, and spread
//!   over different positions.
//!
//! No position is explored in advance, so the search reaches positions no
//! fixed writing area contains (the pieces of both sides around the
//! marker, which the search places itself). It is not exact: it cannot
//! say how far its game is from the shortest. Its cost is linear in the
//! plies: `width` states a ply, each with its legal moves.

use std::collections::HashSet;

use cozy_chess::{Board as Cozy, Move as CozyMove, Piece, Square};

use super::super::chess::{is_dead, Position};
use super::targets::{reading, Progress, Written};
use super::Ply;

/// The largest share of a layer that one slot may take, in tenths.
const SLOT_SHARE: usize = 3;

/// How many plies the search may go without writing anything before it
/// gives up (a layer stuck where it cannot write the next value).
const STALL: usize = 200;

/// How often (in plies) the search forgets the states no state of its
/// last layer descends from: the beam's branches die out within a few
/// dozen plies, so its memory stays in proportion to its width, not to
/// the game's length.
const PRUNE_EVERY: usize = 128;

/// How a state of a layer was reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Step {
    /// Its state's index in the layer before.
    pub(super) parent: u32,
    pub(super) m: CozyMove,
    pub(super) annotated: bool,
}

/// A state that a layer may keep.
#[derive(Clone, Copy)]
struct Candidate {
    slot: u32,
    /// The position's hash (cozy-chess's Zobrist hash).
    hash: u64,
    step: Step,
}

/// The beam's width for a machine of `bits` bits: 10,000 states a ply
/// up to 300 bits, then fewer, so that the search's time stays about the
/// same (a few seconds) up to 10,000 bits and grows linearly after.
pub(super) fn width_for(bits: usize) -> usize {
    (3_000_000 / bits.max(1)).clamp(300, 10_000)
}

/// Plies from `start` that write `progress`'s values, found by a beam of
/// `width` states; `None` if the beam gets stuck.
pub(super) fn search(start: &Position, progress: &Progress, width: usize) -> Option<Vec<Ply>> {
    let mut boards = vec![start.raw().clone()];
    let mut slots = vec![0u32];
    let mut layers: Vec<Vec<Step>> = Vec::new();
    let (mut furthest, mut since) = (0, 0);
    while since < STALL {
        let candidates = expand(&boards, &slots, progress);
        if candidates.is_empty() {
            return None;
        }
        let kept = select(&candidates, width);
        let steps: Vec<Step> = kept.iter().map(|c| c.step).collect();
        boards = steps
            .iter()
            .map(|step| {
                let mut board = boards[step.parent as usize].clone();
                board.play_unchecked(step.m);
                board
            })
            .collect();
        slots = kept.iter().map(|c| c.slot).collect();
        layers.push(steps);
        if layers.len().is_multiple_of(PRUNE_EVERY) {
            prune(&mut layers);
        }
        if slots[0] == progress.end {
            return Some(plies(start, progress, &layers));
        }
        if slots[0] > furthest {
            (furthest, since) = (slots[0], 0);
        } else {
            since += 1;
        }
    }
    None
}

/// Every state one ply after `boards` (at `slots`): plain, and annotated
/// when the reading is what comes next. Only [`plain_moves`] are played,
/// and none that gives check (so none that mates), or captures down to
/// material that cannot mate.
fn expand(boards: &[Cozy], slots: &[u32], progress: &Progress) -> Vec<Candidate> {
    let mut candidates = Vec::new();
    for (index, (board, &slot)) in boards.iter().zip(slots).enumerate() {
        for m in plain_moves(board) {
            let capture = board.occupied().has(m.to);
            let mut after = board.clone();
            after.play_unchecked(m);
            if !after.checkers().is_empty() || (capture && is_dead(&after)) {
                continue;
            }
            let hash = after.hash();
            let step = Step {
                parent: index as u32,
                m,
                annotated: false,
            };
            candidates.push(Candidate { slot, hash, step });
            let advanced = reading(&after).and_then(|bits| progress.advance(slot, bits));
            if let Some((next, _)) = advanced {
                let step = Step {
                    annotated: true,
                    ..step
                };
                candidates.push(Candidate {
                    slot: next,
                    hash,
                    step,
                });
            }
        }
    }
    candidates
}

/// The legal moves of `board` that every reader of the game plays the
/// same way. The language author's interpreter has its own chess rules:
/// it does not update its board after castling, has quirks around en
/// passant, and looks for the piece a SAN move names among the pieces
/// that could reach the square if no pin held them (a SAN move names
/// its piece among the legal ones). So no castling, no en passant
/// capture, and no piece move to a square that a pinned piece of the
/// same kind could otherwise reach.
pub(super) fn plain_moves(board: &Cozy) -> Vec<CozyMove> {
    let us = board.side_to_move();
    let mut moves: Vec<(Piece, CozyMove)> = Vec::with_capacity(48);
    board.generate_moves(|piece_moves| {
        for m in piece_moves {
            moves.push((piece_moves.piece, m));
        }
        false
    });
    let occupied = board.occupied();
    let reaching = |piece: Piece, to: Square| {
        let from = match piece {
            Piece::Knight => cozy_chess::get_knight_moves(to),
            Piece::Bishop => cozy_chess::get_bishop_moves(to, occupied),
            Piece::Rook => cozy_chess::get_rook_moves(to, occupied),
            Piece::Queen => {
                cozy_chess::get_bishop_moves(to, occupied)
                    | cozy_chess::get_rook_moves(to, occupied)
            }
            Piece::Pawn | Piece::King => return 1,
        };
        (from & board.colored_pieces(us, piece)).len() as usize
    };
    let mut legal = [[0u8; 64]; Piece::NUM];
    for &(piece, m) in &moves {
        legal[piece as usize][m.to as usize] += 1;
    }
    moves
        .iter()
        .filter(|&&(piece, m)| {
            let castles = piece == Piece::King && board.colors(us).has(m.to);
            let en_passant =
                piece == Piece::Pawn && m.from.file() != m.to.file() && !occupied.has(m.to);
            let named_alike = piece == Piece::Pawn
                || usize::from(legal[piece as usize][m.to as usize]) == reaching(piece, m.to);
            !castles && !en_passant && named_alike
        })
        .map(|&(_, m)| m)
        .collect()
}

/// The states the next layer keeps (see the module's description), the
/// furthest first.
fn select(candidates: &[Candidate], width: usize) -> Vec<Candidate> {
    // Sorted by one key: the slot (furthest first), a hash of the
    // position, the candidate's index.
    let spread = |hash: u64| (hash ^ (hash >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let mut order: Vec<u128> = candidates
        .iter()
        .enumerate()
        .map(|(index, c)| {
            (u128::from(u32::MAX - c.slot) << 96)
                | (u128::from(spread(c.hash)) << 32)
                | index as u128
        })
        .collect();
    order.sort_unstable();
    let share = (width * SLOT_SHARE / 10).max(1);
    let mut positions = HashSet::new();
    let mut kept = Vec::new();
    let (mut slot, mut at_slot) = (u32::MAX, 0);
    for key in order {
        let candidate = &candidates[key as u32 as usize];
        if kept.len() == width {
            break;
        }
        if candidate.slot != slot {
            (slot, at_slot) = (candidate.slot, 0);
        }
        if at_slot == share || !positions.insert(candidate.hash) {
            continue;
        }
        at_slot += 1;
        kept.push(*candidate);
    }
    kept
}

/// Keeps, in each layer, only the states that a state of the last layer
/// descends from (renumbering the links to them).
pub(super) fn prune(layers: &mut [Vec<Step>]) {
    let Some((last, earlier)) = layers.split_last_mut() else {
        return;
    };
    let mut children: &mut Vec<Step> = last;
    for layer in earlier.iter_mut().rev() {
        let mut renumbered = vec![u32::MAX; layer.len()];
        for child in children.iter() {
            renumbered[child.parent as usize] = 0;
        }
        let mut kept = Vec::new();
        for (index, step) in layer.iter().enumerate() {
            if renumbered[index] == 0 {
                renumbered[index] = kept.len() as u32;
                kept.push(*step);
            }
        }
        for child in children.iter_mut() {
            child.parent = renumbered[child.parent as usize];
        }
        *layer = kept;
        children = layer;
    }
}

/// The plies to the first state of the last layer, played from `start`
/// again to describe them.
fn plies(start: &Position, progress: &Progress, layers: &[Vec<Step>]) -> Vec<Ply> {
    let mut steps = Vec::with_capacity(layers.len());
    let mut at = 0u32;
    for layer in layers.iter().rev() {
        let step = layer[at as usize];
        steps.push(step);
        at = step.parent;
    }
    steps.reverse();
    let mut position = start.clone();
    let mut slot = 0;
    steps
        .into_iter()
        .map(|step| {
            let m = position.move_of(step.m);
            position.play(&m);
            let writes = if step.annotated {
                reading(position.raw()).and_then(|bits| {
                    let written = Written::at(progress, slot, bits)?;
                    slot = written.next_slot;
                    Some(written)
                })
            } else {
                None
            };
            Ply { m, writes }
        })
        .collect()
}
