//! The writing area: every position its pieces' moves reach from the end
//! of a design's opening, explored once with the chess rules.

use std::collections::HashMap;
use std::sync::OnceLock;

use cozy_chess::BitBoard as Bitboard;

use super::super::chess::{Board, Color, Move, Position, Role};
use super::bound::Readings;
use super::design::Design;
use super::targets::{reading, Bits};
use super::SynthError;

/// The most positions the writing area may have (a bound on the search's
/// memory; the designs' areas have far fewer, areas being tried may
/// have more).
pub(super) const MAX_AREA_POSITIONS: usize = 1_000_000;

/// A position of the writing area and the moves out of it.
pub(super) struct Node {
    pub(super) position: Position,
    /// The bits an annotation here would write, if any.
    pub(super) bits: Option<Bits>,
    /// Legal area moves and the positions they lead to.
    pub(super) moves: Vec<(Move, u32)>,
}

/// Whether `m` is a move of the writing area: a non-pawn piece moving
/// between area squares without capturing.
fn is_area_move(m: &Move, squares: Bitboard) -> bool {
    m.castle.is_none()
        && !m.capture
        && m.promotion.is_none()
        && m.role != Role::Pawn
        && squares.has(m.from)
        && squares.has(m.to)
}

/// Every position the area's moves reach from `start`, breadth first.
pub(super) fn explore(start: Position, squares: Bitboard) -> Result<Vec<Node>, SynthError> {
    let key = |p: &Position| (p.board(), p.turn());
    let mut index: HashMap<(Board, Color), u32> = HashMap::new();
    index.insert(key(&start), 0);
    let mut nodes = vec![Node {
        bits: reading(start.raw()),
        position: start,
        moves: Vec::new(),
    }];
    let mut next = 0;
    while next < nodes.len() {
        let position = nodes[next].position.clone();
        let mut moves = Vec::new();
        for m in position.legal_moves() {
            if !is_area_move(&m, squares) {
                continue;
            }
            let mut after = position.clone();
            after.play(&m);
            if after.is_check() {
                continue;
            }
            let id = match index.get(&key(&after)) {
                Some(&id) => id,
                None => {
                    if nodes.len() >= MAX_AREA_POSITIONS {
                        return Err(SynthError::NoPlan);
                    }
                    let id = nodes.len() as u32;
                    index.insert(key(&after), id);
                    nodes.push(Node {
                        bits: reading(after.raw()),
                        position: after,
                        moves: Vec::new(),
                    });
                    id
                }
            };
            moves.push((m, id));
        }
        nodes[next].moves = moves;
        next += 1;
    }
    Ok(nodes)
}

/// A writing area: its positions, and the distances from each to each
/// reading (for the search's bound).
pub(super) struct Area {
    /// The positions, the first where the opening ends.
    pub(super) nodes: Vec<Node>,
    /// Their readings and the distances to them.
    pub(super) readings: Readings,
}

impl Area {
    /// The area the moves of pieces on `squares` reach from `start`.
    pub(super) fn new(start: Position, squares: Bitboard) -> Result<Area, SynthError> {
        let nodes = explore(start, squares)?;
        let readings = Readings::new(&nodes);
        Ok(Area { nodes, readings })
    }
}

/// The writing area of `design` (not [`Design::Best`]), explored once per
/// process (its opening always ends at `start`).
pub(super) fn writing_area(design: Design, start: &Position) -> Result<&'static Area, SynthError> {
    static CORNER: OnceLock<Result<Area, SynthError>> = OnceLock::new();
    static KINGS_WALK: OnceLock<Result<Area, SynthError>> = OnceLock::new();
    let area = match design {
        Design::KingsWalk => &KINGS_WALK,
        _ => &CORNER,
    };
    area.get_or_init(|| Area::new(start.clone(), design.area_squares()))
        .as_ref()
        .map_err(Clone::clone)
}
