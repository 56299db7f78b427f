//! Machine → game (`chess2rs synth`): a legal chess game from the standard
//! starting position whose annotated moves build a given machine.
//!
//! An annotated position gives bits only when its occupied squares, read
//! a1…h8 as white = 1 and black = 0, are white pieces, then black pieces,
//! then a white *marker*, then the bits (`lower::decode`). The game has two
//! parts:
//!
//! 1. A fixed opening ([`OPENING`]) sets up a *writing area* in the corner
//!    by h8: behind Black's pawns, the marker and a few pieces of each side
//!    that can step into the squares after the marker (adding a bit: 1 for
//!    a white piece, 0 for a black one) and back out, while all other
//!    pieces keep the white-then-black order. Pieces elsewhere that can
//!    move without changing the bits give each side a waiting move.
//! 2. The writing. The positions reachable in the area by the moves of its
//!    pieces (no captures, no pawn moves) form a small graph, explored once
//!    with the chess rules; each position reads as some bits or as nothing. A
//!    breadth-first search over pairs (position, progress through the
//!    values to write) finds the fewest plies that write them all: a ply
//!    is annotated when the bits of the position it reaches are the next
//!    bits to write (a value's first bits with `!`/`?`, the rest with
//!    `!!`/`??`, leading zeros of a value being free), else it is a plain
//!    move towards a position that is.
//!
//! The result is played back through the normal Chessoteric front end and
//! its machine compared with the one asked for before anything is printed.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use cozy_chess::BitBoard as Bitboard;

use super::chess::{Board, Color, Move, Position, Role, Square};
use super::san::{write_and_play, San};

use super::ir::Machine;
use super::lower::{board_bits, decode};
use super::syntax::Annotation;
use crate::lang::FrontEnd as _;
use crate::source::Source;

/// The opening of the corner design ([`Design::Corner`]), in SAN: from
/// the standard position to its writing area. White's dark-squared bishop
/// takes e7 and f8 and stands on f8 as the marker; White's king's knight
/// takes h8 by f3, h4 and g6 and becomes the first writing piece (a 1 on
/// h8, gone from g6); Black's queen's knight waits. The board then reads
/// white pieces (ranks 1–3), Black's pawns and a8–e8, the marker, then
/// g8's knight (0) and h8's knight (1).
pub const OPENING: &[&str] = &[
    "b3", "Nc6", "Ba3", "Nb8", "Bxe7", "Nc6", "Bxf8", "Nb8", "Nf3", "Nc6", "Nh4", "Nb8", "Ng6",
    "Nc6", "Nxh8", "Nb8",
];

/// The opening of the king's-walk design ([`Design::KingsWalk`]), in SAN.
/// White's light-squared bishop takes f7 and Black's king takes it back, so
/// that the king stands on f7, before rank 8 in the a1…h8 reading. White's
/// dark-squared bishop takes e7 and then the queen on d8, where it is the
/// marker; both White knights come to f6 and g6, ahead of every black
/// piece in the reading, from where they jump into rank 8. Black's queen's
/// knight waits. After the marker come e8 (empty), f8 (bishop), g8
/// (knight) and h8 (rook): four squares that White's knights and Black's
/// king, bishop, knight and rook step into and out of.
pub const KINGS_WALK_OPENING: &[&str] = &[
    "e3", "Nc6", "Bc4", "Nb8", "Bxf7+", "Kxf7", "b3", "Nc6", "Ba3", "Nb8", "Bxe7", "Nc6", "Bxd8",
    "Nb8", "Nc3", "Nc6", "Nd5", "Nb8", "Nf6", "Nc6", "Nf3", "Nb8", "Nh4", "Nc6", "Ng6", "Nb8",
];

/// Where the game writes its values: an opening, and the squares whose
/// pieces move while writing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Design {
    /// Both designs, keeping the shorter game (the corner design's if the
    /// king's walk runs out of its search budget). What `chess2rs synth`
    /// uses.
    Best,
    /// The first design: [`OPENING`] (16 plies), then two squares after a
    /// marker on f8 (662 positions). Fast (milliseconds, also in a debug
    /// build, hence the default); about one ply per bit.
    #[default]
    Corner,
    /// [`KINGS_WALK_OPENING`] (26 plies), then four squares after a marker
    /// on d8 (55,534 positions). About 0.8 plies per bit.
    KingsWalk,
}

impl Design {
    fn opening(self) -> &'static [&'static str] {
        match self {
            Design::KingsWalk => KINGS_WALK_OPENING,
            _ => OPENING,
        }
    }

    /// The squares of the writing area: pieces on them (other than pawns)
    /// may move between them while writing.
    ///
    /// Corner: White's knight around g6 and h8 (and the squares it
    /// passes), Black's king's knight between g8, e7, f6 and h6, Black's
    /// queen from d8 (she steps into the knights' squares), and White's
    /// queen on c1/d1 (White's waiting move). Larger areas write hello
    /// world in no fewer plies but have many more positions.
    ///
    /// King's walk: rank 8 after the marker, Black's king's squares f7 and
    /// e7 (and e6), the knights' squares f6, g6 and h6, and White's rook on
    /// a1/b1 (a waiting move). Dropping h6 and e6 gives 7,594 positions but
    /// 116 writing plies for hello world instead of 75.
    fn area_squares(self) -> Bitboard {
        use Square::*;
        let squares: &[Square] = match self {
            Design::KingsWalk => &[E8, F8, G8, H8, E7, F7, E6, F6, G6, H6, A1, B1],
            _ => &[E7, G8, H8, G6, H6, F6, F5, D8, C1, D1],
        };
        squares.iter().copied().collect()
    }
}

/// The most positions the writing area may have (a bound on the search's
/// memory; the area has far fewer).
const MAX_AREA_POSITIONS: usize = 100_000;

/// What `synth` adds to the movetext.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SynthOptions {
    /// The seven standard tag pairs before the movetext, and after each
    /// annotated move a comment naming the value it writes.
    pub annotate: bool,
    /// Which writing design to use.
    pub design: Design,
}

/// A synthesized game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Synthesis {
    /// The game as PGN text, ending with a newline.
    pub pgn: String,
    /// Plies in the game (the opening's included).
    pub plies: usize,
    /// Annotated plies.
    pub annotated: usize,
    /// Significant bits written (all values' binary digits).
    pub bits: usize,
}

impl Synthesis {
    /// Full moves in the game (a ply of White and one of Black each).
    pub fn moves(&self) -> usize {
        self.plies.div_ceil(2)
    }
}

/// Why a machine was not synthesized.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SynthError {
    /// The search found no way to write the values. A bug in chess2rs.
    NoPlan,
    /// The search used up its budget (only under [`Design::Best`], which
    /// then keeps the other design's game).
    OverBudget,
    /// The game did not play back to the machine asked for. A bug in
    /// chess2rs; the text says what differed.
    Verification(String),
}

impl std::fmt::Display for SynthError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SynthError::NoPlan => write!(
                f,
                "the writing area cannot write these values (a chess2rs bug)"
            ),
            SynthError::OverBudget => write!(f, "the search ran out of its budget"),
            SynthError::Verification(what) => write!(
                f,
                "the synthesized game does not build the machine: {what} (a chess2rs bug)"
            ),
        }
    }
}

impl std::error::Error for SynthError {}

/// Bits in a few integers: the low `len` bits of `value`, most
/// significant first. Boards have at most 32 pieces, values at most 63
/// significant bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Bits {
    len: u32,
    value: u64,
}

impl Bits {
    /// `text`'s bits (`'0'`/`'1'`, at most 64 of them).
    fn parse(text: &str) -> Option<Bits> {
        let len = u32::try_from(text.len()).ok().filter(|&l| l <= 64)?;
        let value = if len == 0 {
            0
        } else {
            u64::from_str_radix(text, 2).ok()?
        };
        Some(Bits { len, value })
    }

    /// The bits without their leading zeros.
    fn significant(self) -> Bits {
        Bits {
            len: 64 - self.value.leading_zeros(),
            value: self.value,
        }
    }

    /// The `len` bits starting `from` bits after the first.
    fn slice(self, from: u32, len: u32) -> u64 {
        let shifted = self.value >> (self.len - from - len);
        if len == 64 {
            shifted
        } else {
            shifted & ((1u64 << len) - 1)
        }
    }
}

impl std::fmt::Display for Bits {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.len {
            0 => Ok(()),
            len => write!(f, "{:0width$b}", self.value, width = len as usize),
        }
    }
}

/// One value to write: a rule part or a tape symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Target {
    /// A rule part (`!`/`!!`) rather than a tape symbol (`?`/`??`).
    part: bool,
    /// Its binary digits without leading zeros (none for 0).
    digits: Bits,
    /// What it is, for comments: `rule 2, next state = 5`.
    what: String,
}

impl Target {
    fn annotation(&self, starts: bool) -> Annotation {
        match (self.part, starts) {
            (true, true) => Annotation::StartPart,
            (true, false) => Annotation::ContinuePart,
            (false, true) => Annotation::StartSymbol,
            (false, false) => Annotation::ContinueSymbol,
        }
    }
}

/// The values that build `machine`: each rule's five parts (direction 0
/// for right, 1 for left), then the tape symbols.
fn targets(machine: &Machine) -> Vec<Target> {
    // Machine values come from bit strings: never negative.
    let digits = |value: i64| {
        Bits {
            len: 64,
            value: value.unsigned_abs(),
        }
        .significant()
    };
    let mut targets = Vec::new();
    for (number, rule) in machine.rules.iter().enumerate() {
        let parts = [
            ("state", rule.rule.state),
            ("read", rule.rule.read),
            ("next state", rule.rule.next),
            ("write", rule.rule.write),
            ("direction", i64::from(rule.rule.left)),
        ];
        for (name, value) in parts {
            targets.push(Target {
                part: true,
                digits: digits(value),
                what: format!("rule {}, {name} = {value}", number + 1),
            });
        }
    }
    for (cell, &value) in machine.tape.iter().enumerate() {
        targets.push(Target {
            part: false,
            digits: digits(value),
            what: format!("tape cell {cell} = {value}"),
        });
    }
    targets
}

/// Progress through some targets, as small numbers ("slots"): for each
/// target, "not started" and then "started, its first k digits written"
/// for each k short of all of them; the slot after the last target's is
/// the end.
struct Progress<'a> {
    targets: &'a [Target],
    /// The slot of each target's "not started".
    first_slot: Vec<u32>,
    /// The target of each slot.
    target_of: Vec<u32>,
    /// The end slot.
    end: u32,
}

impl<'a> Progress<'a> {
    fn new(targets: &'a [Target]) -> Progress<'a> {
        let mut first_slot = Vec::with_capacity(targets.len());
        let mut target_of = Vec::new();
        for (index, target) in targets.iter().enumerate() {
            first_slot.push(target_of.len() as u32);
            let slots = target.digits.len as usize + 1;
            target_of.extend(std::iter::repeat_n(index as u32, slots));
        }
        let end = target_of.len() as u32;
        Progress {
            targets,
            first_slot,
            target_of,
            end,
        }
    }

    /// The fewest plies that can finish the targets from `slot`, if no
    /// ply writes more than `most_bits` digits: each target left needs an
    /// annotated ply of its own, and each digit left a share of one.
    fn lower_bound(&self, slot: u32, most_bits: u32) -> u32 {
        let Some(&index) = self.target_of.get(slot as usize) else {
            return 0;
        };
        let index = index as usize;
        let written = (slot - self.first_slot[index]).saturating_sub(1);
        let digits: u32 = self.targets[index..].iter().map(|t| t.digits.len).sum();
        let targets = (self.targets.len() - index) as u32;
        targets.max((digits - written).div_ceil(most_bits.max(1)))
    }

    /// The slot after writing `bits` at `slot`, and the annotation that
    /// writes them; `None` if they are not what comes next.
    fn advance(&self, slot: u32, bits: Bits) -> Option<(u32, Annotation)> {
        let index = *self.target_of.get(slot as usize)? as usize;
        let target = &self.targets[index];
        let first = self.first_slot[index];
        // Slot `first` is "not started"; `first + 1 + k` is "k written".
        let (starts, written) = match slot - first {
            0 => (true, 0),
            started => (false, started - 1),
        };
        // Zeros before a value's first 1 change nothing.
        let bits = if written == 0 {
            bits.significant()
        } else {
            bits
        };
        if written + bits.len > target.digits.len
            || target.digits.slice(written, bits.len) != bits.value
        {
            return None;
        }
        let written = written + bits.len;
        let next = if written == target.digits.len {
            self.first_slot.get(index + 1).copied().unwrap_or(self.end)
        } else {
            first + 1 + written
        };
        Some((next, target.annotation(starts)))
    }
}

/// A position of the writing area and the moves out of it.
struct Node {
    position: Position,
    /// The bits an annotation here would write, if any.
    bits: Option<Bits>,
    /// Legal area moves and the positions they lead to.
    moves: Vec<(Move, u32)>,
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

/// The bits an annotation on `board` writes, if it writes any.
fn board_value(board: &Board) -> Option<Bits> {
    let bits = board_bits(board);
    decode(&bits).and_then(|(_, value)| Bits::parse(value))
}

/// Every position the area's moves reach from `start`, breadth first.
fn explore(start: Position, squares: Bitboard) -> Result<Vec<Node>, SynthError> {
    let key = |p: &Position| (p.board(), p.turn());
    let mut index: HashMap<(Board, Color), u32> = HashMap::new();
    index.insert(key(&start), 0);
    let mut nodes = vec![Node {
        bits: board_value(&start.board()),
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
                        bits: board_value(&after.board()),
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

/// The writing area's positions of `design` (not [`Design::Best`]),
/// explored once per process (its opening always ends at `start`).
fn writing_area(design: Design, start: &Position) -> Result<&'static [Node], SynthError> {
    static CORNER: OnceLock<Result<Vec<Node>, SynthError>> = OnceLock::new();
    static KINGS_WALK: OnceLock<Result<Vec<Node>, SynthError>> = OnceLock::new();
    let area = match design {
        Design::KingsWalk => &KINGS_WALK,
        _ => &CORNER,
    };
    area.get_or_init(|| explore(start.clone(), design.area_squares()))
        .as_deref()
        .map_err(Clone::clone)
}

/// How many search states a synthesis may still expand: the searches of
/// one machine share it, so that a design whose area is large gives up
/// (deterministically) on a machine it would take too long to write.
struct Budget {
    /// States left, if limited.
    left: Option<u64>,
    /// States expanded so far.
    spent: u64,
}

impl Budget {
    fn new(left: Option<u64>) -> Budget {
        Budget { left, spent: 0 }
    }

    /// Expands one state, or fails when none are left.
    fn spend(&mut self) -> Result<(), SynthError> {
        self.spent += 1;
        match &mut self.left {
            None => Ok(()),
            Some(0) => Err(SynthError::OverBudget),
            Some(left) => {
                *left -= 1;
                Ok(())
            }
        }
    }
}

/// The search states the king's-walk design may expand for one machine
/// under [`Design::Best`] before the corner design's game is kept.
const KINGS_WALK_BUDGET: u64 = 60_000_000;

/// One planned ply.
#[derive(Clone, Debug)]
struct Ply {
    m: Move,
    /// The area position it leads to.
    to: u32,
    /// If annotated: the annotation, the target it writes (an index into
    /// all targets) and whether it writes the target's last digits.
    writes: Option<(Annotation, usize, bool)>,
}

/// How many targets each search plans for, and how many of them it keeps
/// before planning again from where they end: a long machine costs time
/// in proportion to its length, with little lost against planning it
/// whole (hello world: 123 plies instead of 121).
const WINDOW: usize = 12;
const KEEP: usize = 6;

/// How often a long synthesis reports its progress, in values.
const REPORT_EVERY: usize = 300;

/// Few plies from the area's first position that write every target: searches
/// over windows of [`WINDOW`] targets, keeping the first [`KEEP`] each time.
/// A long machine's progress goes to `report` every [`REPORT_EVERY`]
/// values.
fn plan(
    nodes: &[Node],
    targets: &[Target],
    budget: &mut Budget,
    report: &mut dyn FnMut(&str),
) -> Result<Vec<Ply>, SynthError> {
    let mut plies = Vec::new();
    let (mut done, mut at) = (0, 0);
    while done < targets.len() {
        if done > 0 && done % REPORT_EVERY < KEEP {
            report(&format!("planned {done} of {} values", targets.len()));
        }
        let window = &targets[done..targets.len().min(done + WINDOW)];
        let last = done + window.len() == targets.len();
        let keep = if last { window.len() } else { KEEP };
        let found = search(nodes, at, &Progress::new(window), budget)?;
        let mut kept = 0;
        for mut ply in found {
            if let Some((_, target, completes)) = &mut ply.writes {
                kept += usize::from(*completes);
                *target += done;
            }
            at = ply.to;
            plies.push(ply);
            if kept == keep {
                break;
            }
        }
        done += keep;
    }
    Ok(plies)
}

/// The fewest plies from area position `start` that write `progress`'s
/// targets: an A* search over (position, slot), with
/// [`Progress::lower_bound`] as its estimate (consistent: each ply lowers
/// it by at most one), the states of each estimated length taken deepest
/// first.
fn search(
    nodes: &[Node],
    start: u32,
    progress: &Progress,
    budget: &mut Budget,
) -> Result<Vec<Ply>, SynthError> {
    const UNSEEN: u32 = u32::MAX;
    let slots = progress.end as usize + 1;
    let state = |node: u32, slot: u32| node as usize * slots + slot as usize;
    let most_bits = nodes
        .iter()
        .filter_map(|n| n.bits.map(|b| b.len))
        .max()
        .unwrap_or(1)
        .max(1);
    let lower: Vec<usize> = (0..=progress.end)
        .map(|slot| progress.lower_bound(slot, most_bits) as usize)
        .collect();
    // For each reached state: the state before it, the move (index in its
    // node's list) and whether that ply was annotated, its fewest plies
    // found so far, and whether it was expanded.
    let mut came_from: Vec<u32> = vec![UNSEEN; nodes.len() * slots];
    let mut via: Vec<(u16, bool)> = vec![(0, false); nodes.len() * slots];
    let mut depth: Vec<u16> = vec![u16::MAX; nodes.len() * slots];
    let mut expanded = vec![false; nodes.len() * slots];
    let first = state(start, 0);
    came_from[first] = first as u32;
    depth[first] = 0;
    // Open states by plies + lower bound: (state, plies).
    let mut open: Vec<Vec<(u32, u16)>> = vec![Vec::new(); lower[0] + 1];
    open[lower[0]].push((first as u32, 0));
    let mut found = None;
    let mut estimate = lower[0];
    'search: while estimate < open.len() {
        while let Some((here, plies)) = open[estimate].pop() {
            let here = here as usize;
            if expanded[here] || depth[here] != plies {
                continue;
            }
            expanded[here] = true;
            budget.spend()?;
            let (node, slot) = ((here / slots) as u32, (here % slots) as u32);
            if slot == progress.end {
                found = Some(here);
                break 'search;
            }
            let after = plies.saturating_add(1);
            for (number, &(_, to)) in nodes[node as usize].moves.iter().enumerate() {
                let written = nodes[to as usize]
                    .bits
                    .and_then(|bits| progress.advance(slot, bits));
                let steps = written
                    .map(|(next, _)| (next, true))
                    .into_iter()
                    .chain([(slot, false)]);
                for (next_slot, annotated) in steps {
                    let there = state(to, next_slot);
                    if expanded[there] || after >= depth[there] {
                        continue;
                    }
                    depth[there] = after;
                    came_from[there] = here as u32;
                    via[there] = (number as u16, annotated);
                    let estimated = after as usize + lower[next_slot as usize];
                    if open.len() <= estimated {
                        open.resize_with(estimated + 1, Vec::new);
                    }
                    open[estimated].push((there as u32, after));
                }
            }
        }
        estimate += 1;
    }
    let mut at = found.ok_or(SynthError::NoPlan)?;
    let mut plies = Vec::new();
    while at != first {
        let before = came_from[at] as usize;
        let (number, annotated) = via[at];
        let (node, slot) = (before / slots, (before % slots) as u32);
        let (m, to) = &nodes[node].moves[number as usize];
        let writes = match (annotated, nodes[*to as usize].bits) {
            (true, Some(bits)) => {
                let (next, annotation) = progress.advance(slot, bits).ok_or(SynthError::NoPlan)?;
                let target = progress.target_of[slot as usize];
                let completes = progress.target_of.get(next as usize) != Some(&target);
                Some((annotation, target as usize, completes))
            }
            _ => None,
        };
        plies.push(Ply {
            m: *m,
            to: *to,
            writes,
        });
        at = before;
    }
    plies.reverse();
    Ok(plies)
}

/// Writes a game whose annotated moves build `machine`, checked by playing
/// it back. `report` receives progress messages for a long synthesis.
pub fn synthesize(
    machine: &Machine,
    options: SynthOptions,
    report: &mut dyn FnMut(&str),
) -> Result<Synthesis, SynthError> {
    let targets = targets(machine);
    let synthesis = match options.design {
        Design::Best => {
            let corner = write_game(Design::Corner, &targets, options, None, report)?;
            let budget = Some(KINGS_WALK_BUDGET);
            match write_game(Design::KingsWalk, &targets, options, budget, report) {
                Ok(walk) if walk.plies < corner.plies => walk,
                Ok(_) | Err(SynthError::OverBudget) => corner,
                Err(other) => return Err(other),
            }
        }
        design => write_game(design, &targets, options, None, report)?,
    };
    verify(&synthesis.pgn, machine)?;
    Ok(synthesis)
}

/// The game of `design` (not [`Design::Best`]) that writes `targets`,
/// its searches expanding at most `budget` states.
fn write_game(
    design: Design,
    targets: &[Target],
    options: SynthOptions,
    budget: Option<u64>,
    report: &mut dyn FnMut(&str),
) -> Result<Synthesis, SynthError> {
    let bits = targets.iter().map(|t| t.digits.len as usize).sum();
    let mut position = Position::default();
    let mut movetext = Movetext::new(options.annotate);
    let mut annotated = 0;
    // A machine with nothing to write still gets a move pair, unannotated:
    // readers of PGN expect at least one move before the result.
    let opening = design.opening();
    let opening = if targets.is_empty() {
        &opening[..2]
    } else {
        opening
    };
    for san in opening {
        let m = san
            .parse::<San>()
            .ok()
            .and_then(|san| san.to_move(&position).ok())
            .ok_or(SynthError::NoPlan)?;
        movetext.ply(&mut position, &m, None);
    }
    if !targets.is_empty() {
        let nodes = writing_area(design, &position)?;
        report(&format!(
            "writing area: {} positions ({design:?}); planning {} values ({bits} bits)",
            nodes.len(),
            targets.len()
        ));
        let mut budget = Budget::new(budget);
        let plies = plan(nodes, targets, &mut budget, report)?;
        report(&format!(
            "{design:?}: {} plies, {} search states expanded",
            plies.len() + opening.len(),
            budget.spent
        ));
        for ply in plies {
            let comment = ply.writes.map(|(annotation, target, _)| {
                annotated += 1;
                let target = &targets[target];
                let digits = match target.digits.len {
                    0 => "0".to_string(),
                    _ => target.digits.to_string(),
                };
                let bits = nodes[ply.to as usize].bits.map(|b| b.to_string());
                let bits = bits.unwrap_or_default();
                (
                    annotation,
                    format!("{}: writes {bits} of {digits}", target.what),
                )
            });
            let writes = comment.as_ref().map(|(a, text)| (*a, text.as_str()));
            movetext.ply(&mut position, &ply.m, writes);
        }
    }
    Ok(Synthesis {
        plies: movetext.plies,
        pgn: movetext.finish(),
        annotated,
        bits,
    })
}

/// The result token every synthesized game ends with.
const RESULT: &str = "1/2-1/2";

/// PGN movetext being written: move numbers, SAN with annotations,
/// comments, lines of at most 79 characters.
struct Movetext {
    annotate: bool,
    lines: Vec<String>,
    line: String,
    plies: usize,
    /// A comment came last, so Black's next move needs `N...`.
    after_comment: bool,
}

impl Movetext {
    fn new(annotate: bool) -> Movetext {
        Movetext {
            annotate,
            lines: Vec::new(),
            line: String::new(),
            plies: 0,
            after_comment: false,
        }
    }

    fn token(&mut self, token: &str) {
        if !self.line.is_empty() && self.line.len() + 1 + token.len() > 79 {
            self.lines.push(std::mem::take(&mut self.line));
        }
        if !self.line.is_empty() {
            self.line.push(' ');
        }
        self.line.push_str(token);
    }

    /// Plays `m` from `position` and writes it, annotated if `writes`.
    fn ply(&mut self, position: &mut Position, m: &Move, writes: Option<(Annotation, &str)>) {
        let number = position.fullmoves();
        let white = position.turn() == Color::White;
        let san = write_and_play(position, m);
        let mut token = String::new();
        if white {
            let _ = write!(token, "{number}. ");
        } else if self.after_comment || self.plies == 0 {
            let _ = write!(token, "{number}... ");
        }
        let _ = write!(token, "{san}");
        if let Some((annotation, _)) = writes {
            token.push_str(annotation.suffix());
        }
        self.token(&token);
        self.plies += 1;
        self.after_comment = false;
        if let (true, Some((_, what))) = (self.annotate, writes) {
            self.token(&format!("{{{what}}}"));
            self.after_comment = true;
        }
    }

    fn finish(mut self) -> String {
        self.token(RESULT);
        self.lines.push(self.line);
        let mut pgn = String::new();
        if self.annotate {
            for (name, value) in [
                ("Event", "chess2rs synth"),
                ("Site", "?"),
                ("Date", "????.??.??"),
                ("Round", "?"),
                ("White", "?"),
                ("Black", "?"),
                ("Result", RESULT),
            ] {
                let _ = writeln!(pgn, "[{name} \"{value}\"]");
            }
            pgn.push('\n');
        }
        for line in self.lines {
            pgn.push_str(&line);
            pgn.push('\n');
        }
        pgn
    }
}

/// Plays `pgn` through the Chessoteric front end and compares its machine
/// with `machine` (rules in any order, the same tape).
fn verify(pgn: &str, machine: &Machine) -> Result<(), SynthError> {
    let source = Source::new("synthesized.pgn", pgn);
    let (played, _) = super::Stages::front_end(&source).map_err(|diagnostics| {
        let first = diagnostics.errors().next();
        SynthError::Verification(format!(
            "the front end refused it: {}",
            first.map_or("no message", |d| d.message.as_str())
        ))
    })?;
    if played.rule_effects() != machine.rule_effects() {
        return Err(SynthError::Verification("the rules differ".into()));
    }
    if played.tape != machine.tape {
        return Err(SynthError::Verification("the tapes differ".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::chessoteric::BtmStages;

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

    /// Tries a writing position and area given by `SYNTH_FEN` and
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
        let start = super::super::fen::parse(&std::env::var("SYNTH_FEN").unwrap()).unwrap();
        let squares = area
            .split_whitespace()
            .map(|s| s.parse::<Square>().unwrap())
            .collect::<Bitboard>();
        eprintln!("area {area}");
        let t = std::time::Instant::now();
        let nodes = explore(start, squares).unwrap();
        let with_bits = nodes.iter().filter(|n| n.bits.is_some()).count();
        eprintln!(
            "{} positions, {with_bits} with bits, {:?}",
            nodes.len(),
            t.elapsed()
        );
        let mut seen = std::collections::BTreeMap::new();
        for n in &nodes {
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
            match plan(&nodes, &targets, &mut Budget::new(None), &mut |_| {}) {
                Ok(plies) => {
                    if n == 0 {
                        eprintln!(
                            "hello: {} plies for {bits} bits, {} annotated, {:?}",
                            plies.len(),
                            plies.iter().filter(|p| p.writes.is_some()).count(),
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
}
