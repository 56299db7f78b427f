//! Finvara at run time: a rectangular board with holes, the two stacks, and
//! moves validated against each piece type's *notation automaton*.
//!
//! The compiler turns a piece type's movement notation into a small
//! automaton over leaps ([`Automaton`]): states joined by ordered edges that
//! leap, test the rank, set the `c`/`m` conditions, capture (`x`) or
//! promote. A move `FROM -> TO` is valid if some path through the automaton
//! from FROM ends on TO and obeys the occupancy rules; [`Game::try_move`]
//! finds the first such path in notation order by a depth-first search over
//! (automaton state, square, what the path must remember, what it has done so
//! far), visiting each such node once — so the cost is polynomial in board
//! and notation size, never the number of paths. Generated code may instead
//! pass the few geometric paths it found at compile time
//! ([`Game::try_paths`]); both end in the same trial of the check rule and
//! the same effects.
//!
//! The check rule and the losing test look only at the pieces of the
//! attacking side (kept in lists, never found by scanning the board), skip
//! the pieces that cannot reach that far, and search only for the rest. The
//! losing test is skipped when nothing moved since it last ran.

use std::io::{BufRead, Write};

use super::error::{ErrorKind, RuntimeError};
use super::hash::{FastMap, FastSet};
use super::io::Io;

/// A square: `row * columns + column`, row 0 at the bottom, column 0 at the
/// left.
pub type Square = u32;

/// A board cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cell {
    /// Nothing.
    Empty,
    /// A hole: a piece landing here falls in.
    Hole,
    /// A piece: its type (index into the program's piece types) and colour.
    Piece {
        /// The piece type.
        kind: u16,
        /// White or black.
        white: bool,
    },
}

/// A piece type's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PieceValue {
    /// A royal piece: no value; subject to check.
    Royal,
    /// A number.
    Number(i64),
    /// The column number of its square.
    X,
    /// The row number of its square.
    Y,
}

impl PieceValue {
    /// The value on `square` of a board `cols` wide (`None` for royals).
    pub fn on(self, square: Square, cols: u32) -> Option<i64> {
        let cols = cols.max(1);
        match self {
            PieceValue::Royal => None,
            PieceValue::Number(n) => Some(n),
            PieceValue::X => Some(i64::from(square % cols) + 1),
            PieceValue::Y => Some(i64::from(square / cols) + 1),
        }
    }
}

/// "No limit" for [`State::reach`].
pub const UNBOUNDED: u32 = u32::MAX;

/// One state of a notation automaton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct State {
    /// Index of its first edge in [`Automaton::edges`]; its edges are tried
    /// in order.
    pub first_edge: u32,
    /// How many edges it has.
    pub edges: u32,
    /// The end of the notation: a path that gets here is complete.
    pub accept: bool,
    /// Inside a crooked repetition (`` A` ``): a landing on a hole must be
    /// the repetition's last.
    pub crooked: bool,
    /// The farthest (in king steps) a path can still go from here;
    /// [`UNBOUNDED`] when a repetition lies ahead.
    pub reach: u32,
}

impl State {
    /// A state whose edges are `edges[first_edge..first_edge + edges]`,
    /// reaching at most `reach` king steps further.
    pub const fn new(first_edge: u32, edges: u32, reach: u32) -> State {
        State {
            first_edge,
            edges,
            accept: false,
            crooked: false,
            reach,
        }
    }

    /// This state as the end of the notation.
    pub const fn accepting(self) -> State {
        State {
            accept: true,
            ..self
        }
    }

    /// This state inside a crooked repetition.
    pub const fn in_crooked(self) -> State {
        State {
            crooked: true,
            ..self
        }
    }
}

/// One edge of a notation automaton.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edge {
    /// Leap by (`forward`, `right`) in the owner's view, then go to `to`.
    Leap {
        /// Rows toward the opponent.
        forward: i32,
        /// Columns to the owner's right.
        right: i32,
        /// The next state.
        to: u32,
    },
    /// `r(..)` (`negated`: `r!(..)`): go on only if the owner's rank of the
    /// current square is (is not) within `low..=high` (empty: rank 0).
    Rank {
        /// Lowest owner's rank (1 = the owner's first row).
        low: i64,
        /// Highest owner's rank.
        high: i64,
        /// `r!`.
        negated: bool,
        /// The next state.
        to: u32,
    },
    /// Entering `c(..)`: the move must end by capturing.
    MustCapture {
        /// The next state.
        to: u32,
    },
    /// Entering `m(..)`: the move must not capture at all.
    NoCapture {
        /// The next state.
        to: u32,
    },
    /// `x`: capture the enemy piece on the current square and go on.
    CaptureHere {
        /// The next state.
        to: u32,
    },
    /// `p`: promote to one of [`Automaton::targets`]`[first..first + count]`
    /// (`count` 0: to any other piece type).
    Promote {
        /// Index of the first allowed target.
        first: u32,
        /// Number of allowed targets.
        count: u32,
        /// The next state.
        to: u32,
    },
    /// Go to `to` (alternatives, repetitions, grouping).
    Pass {
        /// The next state.
        to: u32,
    },
    /// `"s"`: move like piece type `piece` (its automaton from its start),
    /// then go on at `to`.
    Call {
        /// The piece type whose moves are borrowed.
        piece: u16,
        /// Where to go on once they end.
        to: u32,
    },
}

impl Edge {
    /// [`Edge::Leap`] by (`forward`, `right`) to `to`.
    pub const fn leap(forward: i32, right: i32, to: u32) -> Edge {
        Edge::Leap { forward, right, to }
    }

    /// [`Edge::Pass`] to `to`.
    pub const fn pass(to: u32) -> Edge {
        Edge::Pass { to }
    }

    /// [`Edge::Call`] of `piece`'s moves, then `to`.
    pub const fn call(piece: u16, to: u32) -> Edge {
        Edge::Call { piece, to }
    }

    /// The state the edge leads to.
    pub fn to(&self) -> u32 {
        match *self {
            Edge::Leap { to, .. }
            | Edge::Rank { to, .. }
            | Edge::MustCapture { to }
            | Edge::NoCapture { to }
            | Edge::CaptureHere { to }
            | Edge::Promote { to, .. }
            | Edge::Pass { to }
            | Edge::Call { to, .. } => to,
        }
    }
}

/// A piece type's moves: state 0 is the start.
#[derive(Clone, Copy, Debug)]
pub struct Automaton<'a> {
    /// The states.
    pub states: &'a [State],
    /// Every state's edges, consecutive per state.
    pub edges: &'a [Edge],
    /// Promotion targets of the `p` edges.
    pub targets: &'a [u16],
    /// Whether a search must remember the nodes it visited: the notation
    /// repeats, or has so many paths that trying each would cost more.
    pub memo: bool,
    /// When every path that can capture is a single leap with no condition
    /// that depends on the board (a leaper such as the knight): those
    /// leaps, so that an attack test is a comparison instead of a search.
    pub leaps: Option<&'a [(i32, i32)]>,
}

impl Automaton<'_> {
    fn edges_of(&self, state: u32) -> &[Edge] {
        let state = &self.states[state as usize];
        let first = state.first_edge as usize;
        &self.edges[first..first + state.edges as usize]
    }

    /// Whether the `p` edge at `edge` allows a piece of `kind` to become
    /// `target`.
    pub fn allows(&self, edge: u32, kind: u16, target: u16) -> bool {
        match self.edges.get(edge as usize) {
            Some(&Edge::Promote { first, count, .. }) => {
                if count == 0 {
                    target != kind
                } else {
                    self.targets[first as usize..(first + count) as usize].contains(&target)
                }
            }
            _ => false,
        }
    }

    /// The farthest (in king steps) any path reaches from the start.
    pub fn reach(&self) -> u32 {
        self.states.first().map_or(0, |s| s.reach)
    }

    /// The automaton as compact text ([`OwnedAutomaton::decode`] reads it
    /// back): what generated code holds when the automata are too large to
    /// write out as Rust expressions.
    pub fn encode(&self) -> String {
        let mut words: Vec<String> = vec![String::from(if self.memo { "m" } else { "-" })];
        match self.leaps {
            Some(leaps) => {
                words.push(format!("L{}", leaps.len()));
                for &(forward, right) in leaps {
                    words.push(forward.to_string());
                    words.push(right.to_string());
                }
            }
            None => words.push(String::from("N")),
        }
        words.push(format!("T{}", self.targets.len()));
        words.extend(self.targets.iter().map(|t| t.to_string()));
        words.push(format!("S{}", self.states.len()));
        for state in self.states {
            let flags = u32::from(state.accept) | u32::from(state.crooked) << 1;
            words.push(format!(
                "{},{},{},{}",
                state.first_edge, state.edges, state.reach, flags
            ));
        }
        words.push(format!("E{}", self.edges.len()));
        for edge in self.edges {
            words.push(match *edge {
                Edge::Leap { forward, right, to } => format!("l{forward},{right},{to}"),
                Edge::Rank {
                    low,
                    high,
                    negated,
                    to,
                } => format!("r{low},{high},{},{to}", u8::from(negated)),
                Edge::MustCapture { to } => format!("c{to}"),
                Edge::NoCapture { to } => format!("n{to}"),
                Edge::CaptureHere { to } => format!("x{to}"),
                Edge::Promote { first, count, to } => format!("p{first},{count},{to}"),
                Edge::Pass { to } => format!("s{to}"),
                Edge::Call { piece, to } => format!("g{piece},{to}"),
            });
        }
        words.join(" ")
    }
}

/// An automaton in its own storage, decoded from [`Automaton::encode`]'s
/// text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnedAutomaton {
    states: Vec<State>,
    edges: Vec<Edge>,
    targets: Vec<u16>,
    memo: bool,
    leaps: Option<Vec<(i32, i32)>>,
}

impl OwnedAutomaton {
    /// The automaton to search.
    pub fn view(&self) -> Automaton<'_> {
        Automaton {
            states: &self.states,
            edges: &self.edges,
            targets: &self.targets,
            memo: self.memo,
            leaps: self.leaps.as_deref(),
        }
    }

    /// Reads [`Automaton::encode`]'s text; `None` if it is not such text or
    /// refers outside itself.
    pub fn decode(text: &str) -> Option<OwnedAutomaton> {
        let mut words = text.split(' ');
        let mut next = || words.next();
        fn numbers<T: std::str::FromStr>(word: &str) -> Option<Vec<T>> {
            word.split(',').map(|n| n.parse().ok()).collect()
        }
        fn count(word: Option<&str>, tag: char) -> Option<usize> {
            word?.strip_prefix(tag)?.parse().ok()
        }
        let memo = match next()? {
            "m" => true,
            "-" => false,
            _ => return None,
        };
        let leaps = match next()? {
            "N" => None,
            word => {
                let n: usize = word.strip_prefix('L')?.parse().ok()?;
                let mut leaps = Vec::with_capacity(n.min(64));
                for _ in 0..n {
                    leaps.push((next()?.parse().ok()?, next()?.parse().ok()?));
                }
                Some(leaps)
            }
        };
        let n = count(next(), 'T')?;
        let mut targets = Vec::with_capacity(n.min(1024));
        for _ in 0..n {
            targets.push(next()?.parse().ok()?);
        }
        let n = count(next(), 'S')?;
        let mut states = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            let fields: Vec<u32> = numbers(next()?)?;
            let &[first_edge, edges, reach, flags] = fields.as_slice() else {
                return None;
            };
            states.push(State {
                first_edge,
                edges,
                accept: flags & 1 != 0,
                crooked: flags & 2 != 0,
                reach,
            });
        }
        let n = count(next(), 'E')?;
        let mut edges = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            let word = next()?;
            let tag = word.chars().next()?;
            let rest = &word[tag.len_utf8()..];
            edges.push(match tag {
                'l' => {
                    let f: Vec<i64> = numbers(rest)?;
                    let &[forward, right, to] = f.as_slice() else {
                        return None;
                    };
                    let in_i32 = |n: i64| i64::from(n as i32) == n;
                    if !in_i32(forward) || !in_i32(right) || to < 0 || to > i64::from(u32::MAX) {
                        return None;
                    }
                    Edge::Leap {
                        forward: forward as i32,
                        right: right as i32,
                        to: to as u32,
                    }
                }
                'r' => {
                    let f: Vec<i64> = numbers(rest)?;
                    let &[low, high, negated, to] = f.as_slice() else {
                        return None;
                    };
                    if to < 0 || to > i64::from(u32::MAX) {
                        return None;
                    }
                    Edge::Rank {
                        low,
                        high,
                        negated: negated != 0,
                        to: to as u32,
                    }
                }
                'p' | 'g' => {
                    let f: Vec<u32> = numbers(rest)?;
                    match (tag, f.as_slice()) {
                        ('p', &[first, count, to]) => Edge::Promote { first, count, to },
                        ('g', &[piece, to]) if piece <= u32::from(u16::MAX) => Edge::Call {
                            piece: piece as u16,
                            to,
                        },
                        _ => return None,
                    }
                }
                _ => {
                    let to: u32 = rest.parse().ok()?;
                    match tag {
                        'c' => Edge::MustCapture { to },
                        'n' => Edge::NoCapture { to },
                        'x' => Edge::CaptureHere { to },
                        's' => Edge::Pass { to },
                        _ => return None,
                    }
                }
            });
        }
        if next().is_some() {
            return None;
        }
        // Every reference stays inside: edges of states, edge targets,
        // promotion targets.
        let fits = states.iter().all(|s| {
            (s.first_edge as usize)
                .checked_add(s.edges as usize)
                .is_some_and(|end| end <= edges.len())
        }) && edges.iter().all(|e| {
            (e.to() as usize) < states.len()
                && match *e {
                    Edge::Promote { first, count, .. } => {
                        (first as usize) + (count as usize) <= targets.len()
                    }
                    _ => true,
                }
        }) && !states.is_empty();
        if !fits {
            return None;
        }
        Some(OwnedAutomaton {
            states,
            edges,
            targets,
            memo,
            leaps,
        })
    }
}

/// The automata to search, one per decoded piece type.
pub fn views(decoded: &[OwnedAutomaton]) -> Vec<Automaton<'_>> {
    decoded.iter().map(OwnedAutomaton::view).collect()
}

/// Decodes every piece type's automaton ([`OwnedAutomaton::decode`]); an
/// error names the first that does not decode (generated code is damaged).
pub fn decode_all(texts: &[&str]) -> Result<Vec<OwnedAutomaton>, RuntimeError> {
    let calls_fit = |automaton: &OwnedAutomaton| {
        automaton.edges.iter().all(|edge| match *edge {
            Edge::Call { piece, .. } => usize::from(piece) < texts.len(),
            _ => true,
        })
    };
    texts
        .iter()
        .enumerate()
        .map(|(kind, text)| {
            OwnedAutomaton::decode(text)
                .filter(|a| calls_fit(a))
                .ok_or_else(|| {
                    RuntimeError::new(ErrorKind::Other {
                        message: format!(
                            "the moves of piece type {kind} in the generated code are damaged"
                        ),
                    })
                })
        })
        .collect()
}

/// Everything about the pieces a game needs: their moves and values, and
/// the board's size.
#[derive(Clone, Copy, Debug)]
pub struct Rules<'a> {
    /// Every piece type's automaton, by type index.
    pub automata: &'a [Automaton<'a>],
    /// Every piece type's value, by type index.
    pub values: &'a [PieceValue],
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
}

impl Rules<'_> {
    /// The value a piece of `kind` has on `square` (`None` for royals).
    fn value_at(&self, kind: u16, square: Square) -> Option<i64> {
        self.values[usize::from(kind)].on(square, self.cols)
    }

    /// The (row, column) of `square`.
    pub fn point(&self, square: Square) -> Point {
        Point {
            row: square / self.cols,
            col: square % self.cols,
        }
    }

    /// The square at `point`.
    pub fn square(&self, point: Point) -> Square {
        point.row * self.cols + point.col
    }

    /// The point `(forward, right)` away from `point` in `white`'s view, if
    /// it is on the board.
    pub fn leap_from(&self, point: Point, white: bool, forward: i32, right: i32) -> Option<Point> {
        let (d_row, d_col) = if white {
            (i64::from(forward), i64::from(right))
        } else {
            (-i64::from(forward), -i64::from(right))
        };
        let row = i64::from(point.row) + d_row;
        let col = i64::from(point.col) + d_col;
        if row < 0 || col < 0 || row >= i64::from(self.rows) || col >= i64::from(self.cols) {
            return None;
        }
        Some(Point {
            row: row as u32,
            col: col as u32,
        })
    }

    /// The square `(forward, right)` away from `square` in `white`'s view,
    /// if it is on the board.
    pub fn leap(&self, square: Square, white: bool, forward: i32, right: i32) -> Option<Square> {
        self.leap_from(self.point(square), white, forward, right)
            .map(|p| self.square(p))
    }

    /// The owner's rank of row `row`: 1 is the owner's nearest row.
    pub fn rank_of_row(&self, row: u32, white: bool) -> i64 {
        if white {
            i64::from(row) + 1
        } else {
            i64::from(self.rows) - i64::from(row)
        }
    }

    /// The owner's rank of `square`.
    pub fn rank(&self, square: Square, white: bool) -> i64 {
        self.rank_of_row(square / self.cols, white)
    }

    /// The distance in king steps between two squares.
    pub fn distance(&self, a: Square, b: Square) -> u32 {
        self.point(a).distance(self.point(b))
    }
}

/// A square as (row, column), row 0 at the bottom: what searches work in,
/// so that a leap is an addition rather than a division.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Point {
    /// The row.
    pub row: u32,
    /// The column.
    pub col: u32,
}

impl Point {
    /// The distance in king steps to `other`.
    pub fn distance(self, other: Point) -> u32 {
        self.row
            .abs_diff(other.row)
            .max(self.col.abs_diff(other.col))
    }
}

/// One landing square of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The square.
    pub square: Square,
    /// `x` after landing: capture the enemy here and go on.
    pub capture: bool,
    /// Inside a crooked repetition before its end: may not be a hole.
    pub no_hole: bool,
}

impl Step {
    /// Landing on `square`.
    pub const fn land(square: Square) -> Step {
        Step {
            square,
            capture: false,
            no_hole: false,
        }
    }

    /// This landing, then `x`.
    pub const fn then_capture(self) -> Step {
        Step {
            capture: true,
            ..self
        }
    }

    /// This landing inside a crooked repetition, not its last.
    pub const fn not_a_hole(self) -> Step {
        Step {
            no_hole: true,
            ..self
        }
    }
}

/// A geometric path the compiler found from a move line's FROM to its TO;
/// whether it can be taken depends on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path<'a> {
    /// The landing squares (none: a promotion on the spot).
    pub steps: &'a [Step],
    /// `c(..)`: must end by capturing.
    pub must_capture: bool,
    /// `m(..)`: must not capture at all.
    pub no_capture: bool,
}

impl<'a> Path<'a> {
    /// A path landing on `steps`, without `c`/`m` conditions.
    pub const fn new(steps: &'a [Step]) -> Path<'a> {
        Path {
            steps,
            must_capture: false,
            no_capture: false,
        }
    }

    /// This path under `c(..)`.
    pub const fn must_capture(self) -> Path<'a> {
        Path {
            must_capture: true,
            ..self
        }
    }

    /// This path under `m(..)`.
    pub const fn no_capture(self) -> Path<'a> {
        Path {
            no_capture: true,
            ..self
        }
    }
}

/// The board: cells, the royal pieces of each colour in lists, and enough
/// about attacks that no test ever scans the whole board.
///
/// Attacks come two ways. A *mapped* piece — a leaper ([`Automaton::leaps`])
/// while the leaps of all mapped piece types stay within [`MAPPED_OFFSETS`]
/// distinct offsets — attacks by its landing squares alone: when one
/// arrives, the board tests its leaps against the enemy royal pieces, and
/// a royal piece is tested by looking back along each mapped offset for a
/// piece that leaps that way. Mapped pieces are in no list, so moving them
/// costs a few comparisons. Every other piece is *scanned*: it stays in a
/// per-colour list that the attack test walks (with a search where needed).
#[derive(Clone, Debug)]
pub struct Board {
    cells: Vec<Cell>,
    rows: u32,
    cols: u32,
    /// Each colour's scanned pieces (white first).
    scanned: [Vec<Placed>; 2],
    /// Each colour's royal pieces.
    royals: [Vec<Placed>; 2],
    /// Per cell: its index in `scanned` (and in `royals` for royal pieces).
    slots: Vec<(u32, u32)>,
    /// Per colour: none of its royal pieces is attacked, as far as the
    /// changes since that was last found can tell (see [`Board::set`]).
    safe: [bool; 2],
    /// Per colour: how many of its scanned pieces are not leapers, whose
    /// attacks any change may open or block.
    wanderers: [usize; 2],
    /// Per piece type: what the board needs to know about it.
    kinds: Vec<KindFacts>,
    /// Per attacking colour: the distinct offsets from a mapped piece to
    /// the squares it attacks (the union over mapped piece types).
    mapped_offsets: [Vec<Offset>; 2],
    /// Per cell: its (row, column), so that no move divides.
    points: Vec<Point>,
}

/// The most distinct leap offsets the mapped piece types may have together
/// ([`Board`]): a royal piece's attack test looks back along each.
pub const MAPPED_OFFSETS: usize = 256;

/// A (row, column) offset in two's complement, so that one unsigned
/// comparison tests both edges of the board.
type Offset = (u32, u32);

/// What the board needs to know about a piece type.
#[derive(Clone, Debug)]
struct KindFacts {
    royal: bool,
    leaper: bool,
    mapped: bool,
    /// For mapped pieces: the leaps as offsets, for white and for black.
    offsets: [Vec<Offset>; 2],
}

/// A piece in a piece list: where it stands (both ways) and its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Placed {
    square: Square,
    at: Point,
    kind: u16,
}

const NO_SLOT: u32 = u32::MAX;

fn side(white: bool) -> usize {
    usize::from(!white)
}

/// `at` moved by `offset`, if that is on a `rows` × `cols` board.
fn offset_point(at: Point, offset: Offset, rows: u32, cols: u32) -> Option<Point> {
    let row = at.row.wrapping_add(offset.0);
    let col = at.col.wrapping_add(offset.1);
    if row < rows && col < cols {
        Some(Point { row, col })
    } else {
        None
    }
}

/// The offset from `from` to `to`.
fn offset_between(from: Point, to: Point) -> Offset {
    (to.row.wrapping_sub(from.row), to.col.wrapping_sub(from.col))
}

impl Board {
    fn new(rules: &Rules, cells: &[Cell]) -> Board {
        let mut union: FastSet<Offset> = FastSet::default();
        let kinds = rules
            .automata
            .iter()
            .zip(rules.values)
            .map(|(automaton, &value)| {
                let oriented = |sign: i32| -> Vec<Offset> {
                    let mut offsets: Vec<Offset> = automaton
                        .leaps
                        .unwrap_or(&[])
                        .iter()
                        .map(|&(f, r)| (f.wrapping_mul(sign) as u32, r.wrapping_mul(sign) as u32))
                        .collect();
                    offsets.sort_unstable();
                    offsets.dedup();
                    offsets
                };
                let white = oriented(1);
                let fresh = white.iter().filter(|o| !union.contains(*o)).count();
                let mapped = automaton.leaps.is_some() && union.len() + fresh <= MAPPED_OFFSETS;
                if mapped {
                    union.extend(white.iter().copied());
                }
                KindFacts {
                    royal: value == PieceValue::Royal,
                    leaper: automaton.leaps.is_some(),
                    mapped,
                    offsets: if mapped {
                        [white, oriented(-1)]
                    } else {
                        [Vec::new(), Vec::new()]
                    },
                }
            })
            .collect();
        let mut white_offsets: Vec<Offset> = union.into_iter().collect();
        white_offsets.sort_unstable();
        let black_offsets = white_offsets
            .iter()
            .map(|&(row, col)| (row.wrapping_neg(), col.wrapping_neg()))
            .collect();
        let mut board = Board {
            cells: vec![Cell::Empty; cells.len()],
            rows: rules.rows,
            cols: rules.cols,
            scanned: [Vec::new(), Vec::new()],
            royals: [Vec::new(), Vec::new()],
            slots: vec![(NO_SLOT, NO_SLOT); cells.len()],
            safe: [false; 2],
            wanderers: [0; 2],
            kinds,
            mapped_offsets: [white_offsets, black_offsets],
            points: (0..cells.len() as Square).map(|s| rules.point(s)).collect(),
        };
        for (square, &cell) in cells.iter().enumerate() {
            board.set(square as Square, cell);
        }
        board
    }

    fn get(&self, square: Square) -> Cell {
        self.cells[square as usize]
    }

    /// Puts `cell` on `square`, keeping the lists up to date, and forgets
    /// that a side is safe when the change can matter: one of its royal
    /// pieces came or went, a scanned enemy piece arrived, a mapped one
    /// arrived a leap away from one of its royal pieces, or the enemy has
    /// scanned pieces that are not leapers (whose paths the change may
    /// open). A leaper attacks by its landing square alone, so other changes
    /// cannot put a royal piece in its reach.
    #[inline]
    fn set(&mut self, square: Square, cell: Cell) {
        let index = square as usize;
        if let Cell::Piece { kind, white } = self.cells[index] {
            let facts = &self.kinds[usize::from(kind)];
            // A mapped piece that is not royal is in no list.
            if !facts.mapped || facts.royal {
                self.lift(index, kind, white);
            }
        }
        self.cells[index] = cell;
        if let Cell::Piece { kind, white } = cell {
            self.drop_on(index, kind, white);
        }
        if self.wanderers[0] > 0 {
            self.safe[1] = false;
        }
        if self.wanderers[1] > 0 {
            self.safe[0] = false;
        }
    }

    /// Takes the piece on cell `index` out of the lists.
    #[inline(never)]
    fn lift(&mut self, index: usize, kind: u16, white: bool) {
        let colour = side(white);
        let facts = &self.kinds[usize::from(kind)];
        let (royal, mapped, leaper) = (facts.royal, facts.mapped, facts.leaper);
        let (scanned_slot, royal_slot) = self.slots[index];
        if !mapped {
            if !leaper {
                self.wanderers[colour] -= 1;
            }
            remove_at(
                &mut self.scanned[colour],
                &mut self.slots,
                scanned_slot,
                true,
            );
        }
        if royal {
            self.safe[colour] = false;
            remove_at(&mut self.royals[colour], &mut self.slots, royal_slot, false);
        }
        self.slots[index] = (NO_SLOT, NO_SLOT);
    }

    /// Enters the piece now on cell `index` in the lists (or tests its
    /// leaps against the enemy royal pieces).
    fn drop_on(&mut self, index: usize, kind: u16, white: bool) {
        let colour = side(white);
        let facts = &self.kinds[usize::from(kind)];
        let at = self.points[index];
        let enemy = side(!white);
        if facts.mapped
            && self.safe[enemy]
            && self.royals[enemy]
                .iter()
                .any(|royal| facts.offsets[colour].contains(&offset_between(at, royal.at)))
        {
            self.safe[enemy] = false;
        }
        let (royal, mapped, leaper) = (facts.royal, facts.mapped, facts.leaper);
        let placed = Placed {
            square: index as Square,
            at,
            kind,
        };
        if !mapped {
            if !leaper {
                self.wanderers[colour] += 1;
            }
            self.safe[side(!white)] = false;
            let list = &mut self.scanned[colour];
            self.slots[index].0 = list.len() as u32;
            list.push(placed);
        }
        if royal {
            self.safe[colour] = false;
            let list = &mut self.royals[colour];
            self.slots[index].1 = list.len() as u32;
            list.push(placed);
        }
    }

    /// Whether a mapped piece of colour `by_white` leaps to `target`: looks
    /// back along every mapped offset.
    fn mapped_attack(&self, target: Point, by_white: bool) -> bool {
        let colour = side(by_white);
        self.mapped_offsets[colour].iter().any(|&(row, col)| {
            let back = (row.wrapping_neg(), col.wrapping_neg());
            let Some(from) = offset_point(target, back, self.rows, self.cols) else {
                return false;
            };
            match self.cells[(from.row * self.cols + from.col) as usize] {
                Cell::Piece { kind, white } if white == by_white => {
                    let facts = &self.kinds[usize::from(kind)];
                    facts.mapped && facts.offsets[colour].binary_search(&(row, col)).is_ok()
                }
                _ => false,
            }
        })
    }
}

/// Removes entry `slot` of `list` by swapping the last entry into its place.
fn remove_at(list: &mut Vec<Placed>, slots: &mut [(u32, u32)], slot: u32, piece_list: bool) {
    let slot = slot as usize;
    if slot >= list.len() {
        return;
    }
    list.swap_remove(slot);
    if let Some(moved) = list.get(slot) {
        let entry = &mut slots[moved.square as usize];
        if piece_list {
            entry.0 = slot as u32;
        } else {
            entry.1 = slot as u32;
        }
    }
}

/// What a search node remembers about the path so far, packed in a word:
/// what the current square holds, whether a crooked repetition landed on a
/// hole, the `c`/`m` conditions, whether it captured, leapt or fell, and the
/// last `p` edge taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Memory(u32);

/// What the current square holds, as seen by the path.
const HERE_MASK: u32 = 0b111;
const HERE_START: u32 = 0;
const HERE_EMPTY: u32 = 1;
const HERE_HOLE: u32 = 2;
const HERE_ENEMY: u32 = 3;
const HERE_CAPTURED: u32 = 4;
const PENDING_HOLE: u32 = 1 << 3;
const MUST_CAPTURE: u32 = 1 << 4;
const NO_CAPTURE: u32 = 1 << 5;
const CAPTURED: u32 = 1 << 6;
const LEAPT: u32 = 1 << 7;
const FELL: u32 = 1 << 8;
const PROMOTE_SHIFT: u32 = 9;

/// The most edges an automaton may have (the last `p` edge is remembered in
/// the bits above [`PROMOTE_SHIFT`]).
pub const MAX_EDGES: usize = (1 << (32 - PROMOTE_SHIFT)) - 2;

impl Memory {
    fn here(self) -> u32 {
        self.0 & HERE_MASK
    }

    fn with_here(self, here: u32) -> Memory {
        Memory((self.0 & !HERE_MASK) | here)
    }

    fn has(self, flag: u32) -> bool {
        self.0 & flag != 0
    }

    fn promote_edge(self) -> Option<u32> {
        (self.0 >> PROMOTE_SHIFT).checked_sub(1)
    }

    fn ends_capturing(self) -> bool {
        matches!(self.here(), HERE_ENEMY | HERE_CAPTURED)
    }
}

/// What a search is for.
#[derive(Clone, Copy, Debug)]
struct Goal {
    to: Point,
    /// The move line's promotion target (moves only).
    promote: Option<u16>,
    /// An attack: the path must end capturing on `to` and land on no hole;
    /// promotion does not matter.
    attack: bool,
}

/// A node on the search's stack.
#[derive(Clone, Copy, Debug)]
struct Frame {
    /// The piece type whose automaton `state` belongs to (`"s"` enters
    /// another type's automaton).
    kind: u16,
    state: u32,
    /// The `"s"` calls open around `state` (an index into
    /// [`Search::calls`]; 0: none).
    call: u32,
    at: Point,
    memory: Memory,
    /// The piece type whose `p` edge [`Memory`] remembers.
    promote_kind: u16,
    /// What the path has done so far (an index into [`Search::effects`]).
    effects: u32,
    /// The next edge of `state` to try.
    next_edge: u32,
    /// The path's length when this node was reached, and the `capture` flag
    /// its last step had then (`x` sets it; backtracking restores it).
    path_len: u32,
    last_capture: bool,
}

/// An open `"s"` call: where the path goes on once s's moves end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Call {
    /// The call around this one.
    parent: u32,
    /// The caller's piece type and the state to go on at.
    kind: u16,
    state: u32,
    /// The call stands inside a crooked repetition of the caller (or of a
    /// call around it).
    crooked: bool,
    /// How far the path can still go after the call ends.
    reach_after: u32,
}

/// Reusable buffers of the depth-first path search.
#[derive(Clone, Debug, Default)]
struct Search {
    frames: Vec<Frame>,
    path: Vec<Step>,
    visited: FastSet<(u64, u64, u64)>,
    /// Effects so far as a trie: (parent, event) → child; 0 is "nothing".
    effects: FastMap<(u32, u32), u32>,
    /// Open calls (0 stands for none), each once.
    calls: Vec<Call>,
    call_ids: FastMap<(u32, u16, u32), u32>,
    kind: u16,
    white: bool,
    /// Board columns.
    cols: u32,
    /// This search remembers visited nodes ([`Automaton::memo`]).
    memo: bool,
}

/// A search's node set is dropped instead of cleared when it grew past this
/// many entries, so that one big search does not slow down later small ones.
const KEEP_CAPACITY: usize = 1 << 12;

/// `a + b` for reaches ([`UNBOUNDED`] stays unbounded).
fn add_reach(a: u32, b: u32) -> u32 {
    if a == UNBOUNDED || b == UNBOUNDED {
        UNBOUNDED
    } else {
        a.saturating_add(b).min(UNBOUNDED - 1)
    }
}

impl Search {
    fn start(&mut self, automaton: &Automaton, kind: u16, white: bool, from: Point, cols: u32) {
        self.cols = cols;
        self.memo = automaton.memo;
        self.frames.clear();
        self.path.clear();
        self.calls.clear();
        self.call_ids.clear();
        self.calls.push(Call {
            parent: 0,
            kind,
            state: 0,
            crooked: false,
            reach_after: 0,
        });
        self.kind = kind;
        self.white = white;
        if self.memo {
            if self.visited.capacity() > KEEP_CAPACITY {
                self.visited = FastSet::default();
            } else {
                self.visited.clear();
            }
            if self.effects.capacity() > KEEP_CAPACITY {
                self.effects = FastMap::default();
            } else {
                self.effects.clear();
            }
        }
        let root = Frame {
            kind,
            state: 0,
            call: 0,
            at: from,
            memory: Memory(HERE_START),
            promote_kind: kind,
            effects: 0,
            next_edge: 0,
            path_len: 0,
            last_capture: false,
        };
        self.push(root);
    }

    /// Pushes the node `frame` unless it was visited.
    fn push(&mut self, mut frame: Frame) {
        if self.memo {
            let square = frame.at.row * self.cols + frame.at.col;
            let key = (
                u64::from(frame.state) | u64::from(square) << 32,
                u64::from(frame.memory.0) | u64::from(frame.effects) << 32,
                u64::from(frame.kind)
                    | u64::from(frame.promote_kind) << 16
                    | u64::from(frame.call) << 32,
            );
            if !self.visited.insert(key) {
                return;
            }
        }
        frame.next_edge = 0;
        frame.path_len = self.path.len() as u32;
        frame.last_capture = self.path.last().is_some_and(|s| s.capture);
        self.frames.push(frame);
    }

    /// The open call for `"s"` in `caller` going on at `state`, inside
    /// `parent`.
    fn open_call(
        &mut self,
        parent: u32,
        caller: u16,
        state: u32,
        crooked: bool,
        reach_after: u32,
    ) -> u32 {
        let key = (parent, caller, state);
        if let Some(&id) = self.call_ids.get(&key) {
            return id;
        }
        let id = self.calls.len() as u32;
        self.calls.push(Call {
            parent,
            kind: caller,
            state,
            crooked,
            reach_after,
        });
        self.call_ids.insert(key, id);
        id
    }

    /// Whether `state` of `kind` inside `call` is in a crooked repetition,
    /// and how far a path can still go from it.
    fn place(&self, rules: &Rules, kind: u16, state: u32, call: u32) -> (bool, u32) {
        let info = rules.automata[usize::from(kind)].states[state as usize];
        let call = &self.calls[call as usize];
        (
            info.crooked || call.crooked,
            add_reach(info.reach, call.reach_after),
        )
    }

    /// The effects `effects` followed by `event` (a capture or a fall).
    fn add_effect(&mut self, effects: u32, event: u32) -> u32 {
        if !self.memo {
            // Without memo, effects serve no key.
            return 0;
        }
        let next = self.effects.len() as u32 + 1;
        *self.effects.entry((effects, event)).or_insert(next)
    }

    /// The next complete path in notation order that the board allows, or
    /// `None` when there is none left.
    fn next(&mut self, rules: &Rules, board: &Board, goal: Goal) -> Option<&[Step]> {
        loop {
            let top = self.frames.len().checked_sub(1)?;
            let frame = self.frames[top];
            // Backtrack the path to this node.
            self.path.truncate(frame.path_len as usize);
            if let Some(last) = self.path.last_mut() {
                last.capture = frame.last_capture;
            }
            let automaton = &rules.automata[usize::from(frame.kind)];
            let state = automaton.states[frame.state as usize];
            if frame.next_edge == 0 && state.accept {
                self.frames[top].next_edge = state.edges.max(1);
                if frame.call != 0 {
                    // The end of a `"s"`: go on in the caller.
                    let call = self.calls[frame.call as usize];
                    let mut next = frame;
                    next.kind = call.kind;
                    next.state = call.state;
                    next.call = call.parent;
                    if !self.place(rules, next.kind, next.state, next.call).0 {
                        next.memory = Memory(next.memory.0 & !PENDING_HOLE);
                    }
                    self.push(next);
                    continue;
                }
                if self.accepts(rules, frame, goal) {
                    return Some(&self.path);
                }
                continue;
            }
            let Some(&edge) = automaton
                .edges_of(frame.state)
                .get(frame.next_edge as usize)
            else {
                self.frames.pop();
                continue;
            };
            self.frames[top].next_edge += 1;
            self.follow(rules, board, frame, edge, goal);
        }
    }

    /// Whether the path of `frame` (at the end of the searched piece's
    /// notation) is a complete legal path for `goal`, the check rule aside.
    fn accepts(&self, rules: &Rules, frame: Frame, goal: Goal) -> bool {
        let memory = frame.memory;
        if frame.at != goal.to || memory.has(PENDING_HOLE) {
            return false;
        }
        if memory.has(MUST_CAPTURE) && !memory.ends_capturing() {
            return false;
        }
        if memory.has(NO_CAPTURE) && (memory.has(CAPTURED) || memory.here() == HERE_ENEMY) {
            return false;
        }
        if goal.attack {
            return memory.ends_capturing();
        }
        let promote = memory.promote_edge();
        if !memory.has(LEAPT) && promote.is_none() {
            return false;
        }
        match (promote, goal.promote) {
            (None, None) => true,
            (Some(edge), Some(target)) => {
                rules.automata[usize::from(frame.promote_kind)].allows(edge, self.kind, target)
            }
            _ => false,
        }
    }

    /// Takes `edge` from `frame`'s node if the board allows it.
    fn follow(&mut self, rules: &Rules, board: &Board, frame: Frame, edge: Edge, goal: Goal) {
        let mut next = frame;
        next.state = edge.to();
        let (crooked, reach) = self.place(rules, frame.kind, edge.to(), frame.call);
        let (mut crooked, mut reach) = (crooked, reach);
        let mut memory = frame.memory;
        match edge {
            Edge::Leap { forward, right, .. } => {
                if memory.has(PENDING_HOLE) || memory.here() == HERE_ENEMY {
                    return;
                }
                let Some(landing) = rules.leap_from(frame.at, self.white, forward, right) else {
                    return;
                };
                if landing.distance(goal.to) > reach {
                    return;
                }
                let square = rules.square(landing);
                let here = match board.get(square) {
                    Cell::Piece { white, .. } if white == self.white => return,
                    // An enemy this path already took with `x` is gone.
                    Cell::Piece { .. } if captured_before(&self.path, square) => HERE_EMPTY,
                    Cell::Piece { .. } => HERE_ENEMY,
                    Cell::Empty => HERE_EMPTY,
                    Cell::Hole if goal.attack => return,
                    Cell::Hole => {
                        if crooked {
                            memory = Memory(memory.0 | PENDING_HOLE);
                        }
                        if !memory.has(FELL) {
                            next.effects = self.add_effect(next.effects, square * 2 + 1);
                            memory = Memory(memory.0 | FELL);
                        }
                        HERE_HOLE
                    }
                };
                memory = Memory(memory.with_here(here).0 | LEAPT);
                next.at = landing;
                self.path.push(Step {
                    square,
                    capture: false,
                    no_hole: false,
                });
            }
            Edge::Rank {
                low, high, negated, ..
            } => {
                let rank = rules.rank_of_row(frame.at.row, self.white);
                if (low <= rank && rank <= high) == negated {
                    return;
                }
            }
            Edge::MustCapture { .. } => memory = Memory(memory.0 | MUST_CAPTURE),
            Edge::NoCapture { .. } => memory = Memory(memory.0 | NO_CAPTURE),
            Edge::CaptureHere { .. } => match memory.here() {
                HERE_ENEMY => {
                    if !memory.has(FELL) && !goal.attack {
                        next.effects = self.add_effect(next.effects, rules.square(frame.at) * 2);
                    }
                    memory = Memory(memory.with_here(HERE_CAPTURED).0 | CAPTURED);
                    if let Some(last) = self.path.last_mut() {
                        last.capture = true;
                    }
                }
                HERE_CAPTURED => {}
                _ => return,
            },
            Edge::Promote { .. } => {
                if !goal.attack {
                    // `frame` was copied before its edge cursor moved on.
                    let automaton = &rules.automata[usize::from(frame.kind)];
                    let first = automaton.states[frame.state as usize].first_edge;
                    let edge_index = first + frame.next_edge;
                    memory = Memory(
                        (memory.0 & ((1 << PROMOTE_SHIFT) - 1)) | (edge_index + 1) << PROMOTE_SHIFT,
                    );
                    next.promote_kind = frame.kind;
                }
            }
            Edge::Pass { .. } => {}
            Edge::Call { piece, to } => {
                let call = self.open_call(frame.call, frame.kind, to, crooked, reach);
                next.kind = piece;
                next.state = 0;
                next.call = call;
                let (callee_crooked, callee_reach) = self.place(rules, piece, 0, call);
                crooked = callee_crooked;
                reach = callee_reach;
            }
        }
        if !crooked {
            memory = Memory(memory.0 & !PENDING_HOLE);
        }
        if next.at.distance(goal.to) > reach {
            return;
        }
        next.memory = memory;
        self.push(next);
    }
}

/// Whether `path` captured with `x` on `square`.
fn captured_before(path: &[Step], square: Square) -> bool {
    path.iter()
        .any(|step| step.capture && step.square == square)
}

/// One board change of a trial move, to undo it.
type Undo = (Square, Cell);

/// The error of a stack action that needs more values than the stack has.
#[cold]
#[inline(never)]
fn short_stack(white: bool, action: i64, need: usize, has: usize, line: u32) -> RuntimeError {
    let colour = if white { "white" } else { "black" };
    RuntimeError::at(
        ErrorKind::Other {
            message: format!(
                "stack action {action} needs {need} value{} on the {colour} stack, which has {has}",
                if need == 1 { "" } else { "s" },
            ),
        },
        line,
    )
}

/// The error of a stack sum (action 0) or difference (action 1) that
/// leaves the i64 range.
#[cold]
#[inline(never)]
fn sum_overflow(action: i64, a: i64, b: i64, line: u32) -> RuntimeError {
    let op = if action == 0 { "+" } else { "-" };
    RuntimeError::at(
        ErrorKind::Overflow {
            what: format!("{a} {op} {b}"),
        },
        line,
    )
}

/// What a move did besides moving pieces, to apply to the stacks once the
/// check rule allowed it.
#[derive(Clone, Copy, Debug)]
enum Effect {
    /// A piece of `kind` and colour `white` was captured on `square`.
    Captured {
        kind: u16,
        white: bool,
        square: Square,
    },
    /// The mover fell into the hole on `square`.
    Fell { square: Square },
}

/// The board and the stacks.
#[derive(Clone, Debug)]
pub struct Game {
    board: Board,
    stacks: [Vec<i64>; 2],
    /// Nothing changed on the board since the losing test last found that
    /// nobody lost.
    settled: bool,
    /// The move search's buffers, taken out while a search runs (so the
    /// trial can change the board) and put back after.
    moves: Option<Box<Search>>,
    attacks: Search,
    undo: Vec<Undo>,
    effects: Vec<Effect>,
}

impl Game {
    /// A game starting from `cells` (row 0 first).
    pub fn new(rules: &Rules, cells: &[Cell]) -> Self {
        Game {
            board: Board::new(rules, cells),
            stacks: [Vec::new(), Vec::new()],
            settled: false,
            moves: Some(Box::default()),
            attacks: Search::default(),
            undo: Vec::new(),
            effects: Vec::new(),
        }
    }

    /// A game on an empty board of `rules.rows` × `rules.cols` with holes
    /// on `holes` and `pieces` placed (generated code's initial position).
    pub fn with_position(rules: &Rules, holes: &[Square], pieces: &[(Square, u16, bool)]) -> Self {
        let mut cells = vec![Cell::Empty; rules.rows as usize * rules.cols as usize];
        for &hole in holes {
            cells[hole as usize] = Cell::Hole;
        }
        for &(square, kind, white) in pieces {
            cells[square as usize] = Cell::Piece { kind, white };
        }
        Game::new(rules, &cells)
    }

    /// The cells, row 0 (the bottom row) first.
    pub fn cells(&self) -> &[Cell] {
        &self.board.cells
    }

    /// A colour's stack, bottom first.
    pub fn stack(&self, white: bool) -> &[i64] {
        &self.stacks[side(white)]
    }

    /// After an invalid move: whether the next move line is skipped (each
    /// stack empty or with 0 on top).
    pub fn skip_next(&self) -> bool {
        self.stacks
            .iter()
            .all(|s| s.last().is_none_or(|&top| top == 0))
    }

    /// `SYMBOL SQUARE checks turn M`: places a piece if the square is empty.
    pub fn place(&mut self, kind: u16, white: bool, square: Square) {
        if self.board.get(square) == Cell::Empty {
            self.board.set(square, Cell::Piece { kind, white });
            self.settled = false;
        }
    }

    /// `SYMBOL FROM -> TO [= PROMOTED]` by `white` (true) or black: searches
    /// the piece type's automaton for the first legal path and, if there is
    /// one, makes the move with every effect (falling into a hole and the
    /// stack action, captures, promotion). Returns whether the move was
    /// valid.
    #[allow(clippy::too_many_arguments)]
    pub fn try_move<R: BufRead, W: Write>(
        &mut self,
        rules: &Rules,
        io: &mut Io<R, W>,
        white: bool,
        kind: u16,
        from: Square,
        to: Square,
        promote: Option<u16>,
        line: u32,
    ) -> Result<bool, RuntimeError> {
        if self.board.get(from) != (Cell::Piece { kind, white }) {
            return Ok(false);
        }
        let goal = Goal {
            to: rules.point(to),
            promote,
            attack: false,
        };
        let mut moves = self.moves.take().unwrap_or_default();
        let automaton = &rules.automata[usize::from(kind)];
        moves.start(automaton, kind, white, rules.point(from), rules.cols);
        let mut valid = false;
        while let Some(path) = moves.next(rules, &self.board, goal) {
            if self.trial(rules, white, kind, from, path, promote) {
                valid = true;
                break;
            }
        }
        self.moves = Some(moves);
        if valid {
            self.commit(rules, io, white, kind, line)?;
        }
        Ok(valid)
    }

    /// The line to run after a move line whose move was `valid`: `next`,
    /// or the one after it when an invalid move triggers the skip rule.
    pub fn next_line(&self, valid: bool, next: u32) -> u32 {
        if valid || !self.skip_next() {
            next
        } else {
            next + 1
        }
    }

    /// A whole move line with the compiler's paths ([`Game::try_paths`]):
    /// returns the line to run next ([`Game::next_line`]).
    #[allow(clippy::too_many_arguments)]
    pub fn move_line<R: BufRead, W: Write>(
        &mut self,
        rules: &Rules,
        io: &mut Io<R, W>,
        line: u32,
        white: bool,
        kind: u16,
        from: Square,
        promote: Option<u16>,
        paths: &[Path],
        next: u32,
    ) -> Result<u32, RuntimeError> {
        let valid = self.try_paths(rules, io, white, kind, from, promote, paths, line)?;
        Ok(self.next_line(valid, next))
    }

    /// A whole move line searched at run time ([`Game::try_move`]):
    /// returns the line to run next ([`Game::next_line`]).
    #[allow(clippy::too_many_arguments)]
    pub fn searched_move_line<R: BufRead, W: Write>(
        &mut self,
        rules: &Rules,
        io: &mut Io<R, W>,
        line: u32,
        white: bool,
        kind: u16,
        from: Square,
        to: Square,
        promote: Option<u16>,
        next: u32,
    ) -> Result<u32, RuntimeError> {
        let valid = self.try_move(rules, io, white, kind, from, to, promote, line)?;
        Ok(self.next_line(valid, next))
    }

    /// A move line whose first listed path falls at once into a hole (the
    /// compiler knows the squares that are holes, so it knows which paths
    /// do, and the value the piece has there): the piece leaves FROM, the
    /// check rule is tested, and the stack action for `value` runs (`None`:
    /// a royal piece, which has none). If the check rule refuses the fall,
    /// the other `paths` are tried as [`Game::move_line`] would. Returns
    /// the line to run next ([`Game::next_line`]).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub fn fall_line<R: BufRead, W: Write>(
        &mut self,
        rules: &Rules,
        io: &mut Io<R, W>,
        line: u32,
        white: bool,
        kind: u16,
        from: Square,
        value: Option<i64>,
        promote: Option<u16>,
        paths: &[Path],
        next: u32,
    ) -> Result<u32, RuntimeError> {
        let piece = Cell::Piece { kind, white };
        if self.board.get(from) != piece {
            return Ok(self.next_line(false, next));
        }
        self.board.set(from, Cell::Empty);
        if self.royals_attacked(rules, white) {
            self.board.set(from, piece);
            let rest = paths.get(1..).unwrap_or(&[]);
            let valid = self.try_paths(rules, io, white, kind, from, promote, rest, line)?;
            return Ok(self.next_line(valid, next));
        }
        self.settled = false;
        if let Some(value) = value {
            self.stack_action(io, white, value, line)?;
        }
        Ok(self.next_line(true, next))
    }

    /// Like [`Game::try_move`], with the geometric paths from FROM to TO
    /// that the compiler found, in notation order, instead of a search.
    #[allow(clippy::too_many_arguments)]
    pub fn try_paths<R: BufRead, W: Write>(
        &mut self,
        rules: &Rules,
        io: &mut Io<R, W>,
        white: bool,
        kind: u16,
        from: Square,
        promote: Option<u16>,
        paths: &[Path],
        line: u32,
    ) -> Result<bool, RuntimeError> {
        if self.board.get(from) != (Cell::Piece { kind, white }) {
            return Ok(false);
        }
        for path in paths {
            if self.board.allows(path, white)
                && self.trial(rules, white, kind, from, path.steps, promote)
            {
                self.commit(rules, io, white, kind, line)?;
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Makes the move along `path` on the board, remembering how to undo it
    /// and what it does to the stacks; keeps it if the mover's royal pieces
    /// are then safe (the check rule), else undoes it.
    fn trial(
        &mut self,
        rules: &Rules,
        white: bool,
        kind: u16,
        from: Square,
        path: &[Step],
        promote: Option<u16>,
    ) -> bool {
        self.undo.clear();
        self.effects.clear();
        self.change(from, Cell::Empty);
        let mut fell = false;
        for step in path {
            match self.board.get(step.square) {
                Cell::Hole => {
                    self.effects.push(Effect::Fell {
                        square: step.square,
                    });
                    fell = true;
                    break;
                }
                Cell::Piece {
                    kind: victim,
                    white: victim_white,
                } if victim_white != white && step.capture => {
                    self.effects.push(Effect::Captured {
                        kind: victim,
                        white: victim_white,
                        square: step.square,
                    });
                    self.change(step.square, Cell::Empty);
                }
                _ => {}
            }
        }
        if !fell {
            let end = path.last().map_or(from, |s| s.square);
            if let Cell::Piece {
                kind: victim,
                white: victim_white,
            } = self.board.get(end)
            {
                self.effects.push(Effect::Captured {
                    kind: victim,
                    white: victim_white,
                    square: end,
                });
            }
            let kind = promote.unwrap_or(kind);
            self.change(end, Cell::Piece { kind, white });
        }
        if self.royals_attacked(rules, white) {
            while let Some((square, cell)) = self.undo.pop() {
                self.board.set(square, cell);
            }
            return false;
        }
        self.settled = false;
        true
    }

    fn change(&mut self, square: Square, cell: Cell) {
        self.undo.push((square, self.board.get(square)));
        self.board.set(square, cell);
    }

    /// Applies the stack effects of the move the last trial kept.
    fn commit<R: BufRead, W: Write>(
        &mut self,
        rules: &Rules,
        io: &mut Io<R, W>,
        white: bool,
        kind: u16,
        line: u32,
    ) -> Result<(), RuntimeError> {
        for index in 0..self.effects.len() {
            match self.effects[index] {
                Effect::Captured {
                    kind: victim,
                    white: victim_white,
                    square,
                } => {
                    if let Some(value) = rules.value_at(victim, square) {
                        self.stacks[side(victim_white)].push(value);
                    }
                }
                Effect::Fell { square } => {
                    if let Some(value) = rules.value_at(kind, square) {
                        self.stack_action(io, white, value, line)?;
                    }
                }
            }
        }
        Ok(())
    }

    #[inline]
    fn stack_action<R: BufRead, W: Write>(
        &mut self,
        io: &mut Io<R, W>,
        white: bool,
        value: i64,
        line: u32,
    ) -> Result<(), RuntimeError> {
        let action = value.rem_euclid(6);
        let stack = &mut self.stacks[side(white)];
        let need = match action {
            0..=2 => 2,
            4 | 5 => 1,
            _ => 0,
        };
        if stack.len() < need {
            return Err(short_stack(white, action, need, stack.len(), line));
        }
        match action {
            0..=2 => {
                let a = stack.pop().unwrap_or_default();
                let b = stack.pop().unwrap_or_default();
                let result = match action {
                    0 => a.checked_add(b),
                    1 => a.checked_sub(b),
                    _ => Some(i64::from(a == b)),
                };
                let result = result.ok_or_else(|| sum_overflow(action, a, b, line))?;
                stack.push(result);
            }
            3 => {
                let value = io.read_i64(line)?;
                stack.push(value);
            }
            4 => {
                let top = stack.last().copied().unwrap_or_default();
                io.write_i64_line(top)?;
            }
            _ => {
                stack.pop();
            }
        }
        Ok(())
    }

    /// Whether a scanned piece of colour `by_white` attacks `square`: it
    /// has a path ending with a capture there that lands on no hole.
    /// (Mapped pieces are found by [`Board::mapped_attack`].)
    #[inline(never)]
    fn scanned_attack(&mut self, rules: &Rules, square: Point, by_white: bool) -> bool {
        let goal = Goal {
            to: square,
            promote: None,
            attack: true,
        };
        for index in 0..self.board.scanned[side(by_white)].len() {
            let Placed { at, kind, .. } = self.board.scanned[side(by_white)][index];
            let automaton = &rules.automata[usize::from(kind)];
            if automaton.reach() < at.distance(goal.to) {
                continue;
            }
            if let Some(leaps) = automaton.leaps {
                let forward = i64::from(goal.to.row) - i64::from(at.row);
                let right = i64::from(goal.to.col) - i64::from(at.col);
                let (forward, right) = if by_white {
                    (forward, right)
                } else {
                    (-forward, -right)
                };
                if leaps
                    .iter()
                    .any(|&(f, r)| i64::from(f) == forward && i64::from(r) == right)
                {
                    return true;
                }
                continue;
            }
            self.attacks
                .start(automaton, kind, by_white, at, rules.cols);
            if self.attacks.next(rules, &self.board, goal).is_some() {
                return true;
            }
        }
        false
    }

    /// How many royal pieces of `white` are attacked (stopping at the
    /// first when `first_only`): a mapped enemy piece leaps to it, or a
    /// scanned one can capture there. That none is attacked is remembered
    /// until a change that can matter ([`Board::set`]).
    #[inline]
    fn attacked_royals(&mut self, rules: &Rules, white: bool, first_only: bool) -> usize {
        if self.board.safe[side(white)] {
            return 0;
        }
        self.count_attacked_royals(rules, white, first_only)
    }

    /// [`Game::attacked_royals`] when the side is not known to be safe.
    #[inline(never)]
    fn count_attacked_royals(&mut self, rules: &Rules, white: bool, first_only: bool) -> usize {
        let mut attacked = 0;
        for index in 0..self.board.royals[side(white)].len() {
            let royal = self.board.royals[side(white)][index];
            if self.board.mapped_attack(royal.at, !white)
                || (!self.board.scanned[side(!white)].is_empty()
                    && self.scanned_attack(rules, royal.at, !white))
            {
                attacked += 1;
                if first_only {
                    break;
                }
            }
        }
        if attacked == 0 {
            self.board.safe[side(white)] = true;
        }
        attacked
    }

    /// Whether any royal piece of `white` is attacked.
    fn royals_attacked(&mut self, rules: &Rules, white: bool) -> bool {
        self.attacked_royals(rules, white, true) > 0
    }

    /// Whether a player has lost: no royal piece, or all attacked. Free when
    /// nothing changed since the last time nobody had lost.
    pub fn someone_lost(&mut self, rules: &Rules) -> bool {
        let board = &self.board;
        let safe = |white: bool| board.safe[side(white)] && !board.royals[side(white)].is_empty();
        if self.settled || (safe(true) && safe(false)) {
            self.settled = true;
            return false;
        }
        let lost = [true, false].iter().any(|&white| {
            let royals = self.board.royals[side(white)].len();
            royals == 0 || self.attacked_royals(rules, white, false) == royals
        });
        self.settled = !lost;
        lost
    }
}

impl Board {
    /// Whether a compiler-found path can be taken on this board by a piece
    /// of `white`'s colour (occupancy, holes in crooked repetitions, `x`,
    /// `c` and `m`).
    fn allows(&self, path: &Path, white: bool) -> bool {
        let mut captures = false;
        let mut ends_capturing = false;
        let last = path.steps.len().saturating_sub(1);
        for (i, step) in path.steps.iter().enumerate() {
            let cell = match self.get(step.square) {
                Cell::Piece { .. } if captured_before(&path.steps[..i], step.square) => Cell::Empty,
                cell => cell,
            };
            let enemy = match cell {
                Cell::Hole => {
                    if step.no_hole || step.capture {
                        return false;
                    }
                    false
                }
                Cell::Empty => {
                    if step.capture {
                        return false;
                    }
                    false
                }
                Cell::Piece { white: w, .. } => {
                    if w == white || !(step.capture || i == last) {
                        return false;
                    }
                    true
                }
            };
            captures |= enemy;
            ends_capturing = enemy;
        }
        !(path.must_capture && !ends_capturing || path.no_capture && captures)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(1,0)`: four steps.
    const WAZIR_STATES: [State; 3] = [
        State {
            first_edge: 0,
            edges: 4,
            accept: false,
            crooked: false,
            reach: 1,
        },
        State {
            first_edge: 4,
            edges: 1,
            accept: false,
            crooked: false,
            reach: 0,
        },
        State {
            first_edge: 5,
            edges: 0,
            accept: true,
            crooked: false,
            reach: 0,
        },
    ];
    const WAZIR_EDGES: [Edge; 5] = [
        Edge::Leap {
            forward: 1,
            right: 0,
            to: 1,
        },
        Edge::Leap {
            forward: -1,
            right: 0,
            to: 1,
        },
        Edge::Leap {
            forward: 0,
            right: 1,
            to: 1,
        },
        Edge::Leap {
            forward: 0,
            right: -1,
            to: 1,
        },
        Edge::Pass { to: 2 },
    ];

    /// `(1,0)` as an automaton, searched (not a leaper).
    const WAZIR: Automaton<'static> = Automaton {
        states: &WAZIR_STATES,
        edges: &WAZIR_EDGES,
        targets: &[],
        memo: false,
        leaps: None,
    };

    /// `(1,0)` known to be a leaper (mapped: its leaps are hit counts).
    const WAZIR_LEAPER: Automaton<'static> = Automaton {
        leaps: Some(&[(1, 0), (-1, 0), (0, 1), (0, -1)]),
        ..WAZIR
    };

    fn rules<'a>(automata: &'a [Automaton<'a>], values: &'a [PieceValue]) -> Rules<'a> {
        Rules {
            automata,
            values,
            rows: 3,
            cols: 3,
        }
    }

    fn io() -> Io<&'static [u8], Vec<u8>> {
        Io::new(&b"5"[..], Vec::new())
    }

    #[test]
    fn a_move_captures_and_pushes_the_value_on_the_captured_side() {
        let wazir = WAZIR;
        let automata = [wazir, wazir];
        let values = [PieceValue::Number(7), PieceValue::Royal];
        let rules = rules(&automata, &values);
        let mut cells = vec![Cell::Empty; 9];
        cells[0] = Cell::Piece {
            kind: 0,
            white: true,
        };
        cells[3] = Cell::Piece {
            kind: 0,
            white: false,
        };
        cells[8] = Cell::Piece {
            kind: 1,
            white: true,
        };
        cells[6] = Cell::Piece {
            kind: 1,
            white: false,
        };
        let mut game = Game::new(&rules, &cells);
        let mut io = io();
        assert!(!game
            .try_move(&rules, &mut io, true, 0, 0, 4, None, 1)
            .unwrap());
        assert!(game
            .try_move(&rules, &mut io, true, 0, 0, 3, None, 1)
            .unwrap());
        assert_eq!(game.stack(false), &[7]);
        assert_eq!(game.cells()[0], Cell::Empty);
        assert_eq!(
            game.cells()[3],
            Cell::Piece {
                kind: 0,
                white: true
            }
        );
        // The white wazir on b1 now attacks the black king on c1.
        assert!(game.someone_lost(&rules));
    }

    #[test]
    fn falling_performs_the_stack_action_and_stops_the_path() {
        let wazir = WAZIR;
        let automata = [wazir, wazir];
        // 3 ≡ input, 4 ≡ print.
        let values = [PieceValue::Number(9), PieceValue::Royal];
        let rules = rules(&automata, &values);
        let mut cells = vec![Cell::Empty; 9];
        cells[0] = Cell::Piece {
            kind: 0,
            white: true,
        };
        cells[1] = Cell::Hole;
        cells[8] = Cell::Piece {
            kind: 1,
            white: true,
        };
        cells[6] = Cell::Piece {
            kind: 1,
            white: false,
        };
        let mut game = Game::new(&rules, &cells);
        let mut io = io();
        assert!(game
            .try_move(&rules, &mut io, true, 0, 0, 1, None, 1)
            .unwrap());
        assert_eq!(game.stack(true), &[5]);
        assert_eq!(game.cells()[1], Cell::Hole);
        assert_eq!(game.cells()[0], Cell::Empty);
        assert!(!game.skip_next());
        assert!(!game.someone_lost(&rules));
    }

    #[test]
    fn the_check_rule_refuses_a_move_into_attack_and_leaves_the_board() {
        let wazir = WAZIR;
        let automata = [wazir];
        let values = [PieceValue::Royal];
        let rules = rules(&automata, &values);
        let mut cells = vec![Cell::Empty; 9];
        cells[0] = Cell::Piece {
            kind: 0,
            white: true,
        };
        cells[5] = Cell::Piece {
            kind: 0,
            white: false,
        };
        let mut game = Game::new(&rules, &cells);
        let before = game.cells().to_vec();
        let mut io = io();
        // a3 is next to the white king on a2 once it moved there.
        let paths = [Path {
            steps: &[Step {
                square: 2,
                capture: false,
                no_hole: false,
            }],
            must_capture: false,
            no_capture: false,
        }];
        assert!(game
            .try_move(&rules, &mut io, true, 0, 0, 1, None, 1)
            .unwrap());
        assert!(!game
            .try_move(&rules, &mut io, true, 0, 1, 2, None, 1)
            .unwrap());
        assert!(!game
            .try_paths(&rules, &mut io, false, 0, 5, None, &paths, 1)
            .unwrap());
        assert_ne!(game.cells(), &before[..]);
        assert!(game
            .try_move(&rules, &mut io, true, 0, 1, 0, None, 1)
            .unwrap());
        assert_eq!(game.cells(), &before[..]);
    }

    #[test]
    fn piece_lists_follow_every_change() {
        // Kind 0 moves like a wazir but is not known to be a leaper (so it
        // is scanned); kind 1 is a royal wazir (mapped, and in the royal
        // lists); kind 2 a mapped wazir (in no list).
        let automata = [WAZIR, WAZIR_LEAPER, WAZIR_LEAPER];
        let values = [
            PieceValue::Number(1),
            PieceValue::Royal,
            PieceValue::Number(2),
        ];
        let rules = rules(&automata, &values);
        let mut game = Game::with_position(
            &rules,
            &[4],
            &[(0, 0, true), (1, 1, true), (8, 1, false), (6, 2, true)],
        );
        game.place(0, false, 2);
        game.place(0, false, 4);
        let squares = |list: &[Placed]| {
            let mut squares: Vec<Square> = list.iter().map(|p| p.square).collect();
            squares.sort();
            squares
        };
        let board = &game.board;
        assert_eq!(squares(&board.scanned[0]), [0]);
        assert_eq!(squares(&board.scanned[1]), [2]);
        assert_eq!(squares(&board.royals[0]), [1]);
        assert_eq!(squares(&board.royals[1]), [8]);
        assert_eq!(board.scanned[1][0].at, Point { row: 0, col: 2 });
        assert_eq!(board.wanderers, [1, 1]);
        assert_eq!(game.cells()[4], Cell::Hole);
        // The black king steps to (1,2); the white scanned piece leaves.
        game.board.set(8, Cell::Empty);
        game.board.set(
            5,
            Cell::Piece {
                kind: 1,
                white: false,
            },
        );
        assert_eq!(squares(&game.board.royals[1]), [5]);
        assert_eq!(game.board.slots[5], (NO_SLOT, 0));
        game.board.set(0, Cell::Empty);
        assert!(game.board.scanned[0].is_empty());
        assert_eq!(game.board.wanderers, [0, 1]);
        // Offsets: the four wazir leaps, black's the other way round.
        assert_eq!(game.board.mapped_offsets[0].len(), 4);
        assert_eq!(
            game.board.kinds[2].offsets[1],
            [(0, 1), (0, u32::MAX), (1, 0), (u32::MAX, 0)]
        );
    }

    #[test]
    fn royal_pieces_are_attacked_by_leaps_and_scans() {
        // Kind 1, the royal piece, attacks nothing (no capturing leap).
        let royal = Automaton {
            leaps: Some(&[]),
            ..WAZIR
        };
        let automata = [WAZIR, royal, WAZIR_LEAPER];
        let values = [
            PieceValue::Number(1),
            PieceValue::Royal,
            PieceValue::Number(2),
        ];
        let rules = rules(&automata, &values);
        // White king on (0,0), black king on (2,2); a black mapped wazir on
        // (1,1) does not touch the white king.
        let mut game =
            Game::with_position(&rules, &[], &[(0, 1, true), (8, 1, false), (4, 2, false)]);
        assert!(!game.royals_attacked(&rules, true));
        // A black mapped wazir on (1,0) attacks it (a leap looking back).
        game.place(2, false, 3);
        assert!(game.royals_attacked(&rules, true));
        assert_eq!(game.attacked_royals(&rules, true, false), 1);
        game.board.set(3, Cell::Empty);
        assert!(!game.royals_attacked(&rules, true));
        // A black scanned piece on (0,1) attacks it through the scan.
        game.place(0, false, 1);
        assert!(game.royals_attacked(&rules, true));
        game.board.set(1, Cell::Empty);
        assert!(!game.royals_attacked(&rules, true));
        // A second white king on (2,1) is attacked by the wazir on (1,1):
        // one of two royal pieces attacked is not a loss; both are.
        game.place(1, true, 7);
        assert_eq!(game.attacked_royals(&rules, true, false), 1);
        assert!(!game.someone_lost(&rules));
        game.place(2, false, 3);
        assert_eq!(game.attacked_royals(&rules, true, false), 2);
        assert!(game.someone_lost(&rules));
    }

    /// A 3×3 board with a hole on b2, kings on a1 (white) and c3 (black),
    /// and wazirs of values 0..=5 (kinds 0..=5; kind 6 is the king) that
    /// fall into the hole from a2.
    fn stack_game() -> (Vec<Automaton<'static>>, Vec<PieceValue>) {
        let wazir = WAZIR;
        let mut values: Vec<PieceValue> = (0..6).map(PieceValue::Number).collect();
        values.push(PieceValue::Royal);
        (vec![wazir; 7], values)
    }

    /// Drops a white wazir of value `value` into the hole; the result of
    /// the move.
    fn fall(
        game: &mut Game,
        rules: &Rules,
        io: &mut Io<&'static [u8], Vec<u8>>,
        value: u16,
    ) -> Result<bool, RuntimeError> {
        game.place(value, true, 1);
        game.try_move(rules, io, true, value, 1, 4, None, 7)
    }

    #[test]
    fn every_stack_action_and_its_errors() {
        let (automata, values) = stack_game();
        let rules = rules(&automata, &values);
        let mut game = Game::with_position(&rules, &[4], &[(0, 6, true), (8, 6, false)]);
        let mut io = Io::new(&b"5 7 9223372036854775807"[..], Vec::new());
        // 3: push input, twice.
        assert!(fall(&mut game, &rules, &mut io, 3).unwrap());
        assert!(fall(&mut game, &rules, &mut io, 3).unwrap());
        assert_eq!(game.stack(true), &[5, 7]);
        // 1: A - B with A the top.
        assert!(fall(&mut game, &rules, &mut io, 1).unwrap());
        assert_eq!(game.stack(true), &[2]);
        // 4: print the top, keep it.
        assert!(fall(&mut game, &rules, &mut io, 4).unwrap());
        assert_eq!(game.stack(true), &[2]);
        // 3 (reads the last number) then 2: equal? no.
        assert!(fall(&mut game, &rules, &mut io, 3).unwrap());
        assert!(fall(&mut game, &rules, &mut io, 2).unwrap());
        assert_eq!(game.stack(true), &[0]);
        // 5: pop; then 0 needs two values.
        assert!(fall(&mut game, &rules, &mut io, 5).unwrap());
        assert!(game.stack(true).is_empty());
        let error = fall(&mut game, &rules, &mut io, 0).unwrap_err();
        assert_eq!(error.line, Some(7));
        assert!(
            error
                .to_string()
                .contains("stack action 0 needs 2 values on the white stack, which has 0"),
            "{error}"
        );
        // All three numbers were read; the next read finds none.
        let error = fall(&mut game, &rules, &mut io, 3).unwrap_err();
        assert!(matches!(error.kind, ErrorKind::InputEnded), "{error}");
    }

    #[test]
    fn a_sum_that_leaves_i64_is_an_error() {
        let (automata, values) = stack_game();
        let rules = rules(&automata, &values);
        let mut game = Game::with_position(&rules, &[4], &[(0, 6, true), (8, 6, false)]);
        let mut io = Io::new(&b"9223372036854775807 1"[..], Vec::new());
        assert!(fall(&mut game, &rules, &mut io, 3).unwrap());
        assert!(fall(&mut game, &rules, &mut io, 3).unwrap());
        let error = fall(&mut game, &rules, &mut io, 0).unwrap_err();
        assert!(
            error.to_string().contains("1 + 9223372036854775807"),
            "{error}"
        );
    }

    #[test]
    fn an_automaton_survives_encoding_and_bad_text_is_refused() {
        let edges = [
            Edge::leap(1, -2, 1),
            Edge::Rank {
                low: -3,
                high: 4,
                negated: true,
                to: 1,
            },
            Edge::MustCapture { to: 1 },
            Edge::NoCapture { to: 1 },
            Edge::CaptureHere { to: 1 },
            Edge::Promote {
                first: 0,
                count: 2,
                to: 1,
            },
            Edge::call(3, 2),
            Edge::pass(2),
        ];
        let states = [
            State::new(0, 7, UNBOUNDED),
            State::new(7, 1, 2).in_crooked(),
            State::new(8, 0, 0).accepting(),
        ];
        let original = Automaton {
            states: &states,
            edges: &edges,
            targets: &[4, 5],
            memo: true,
            leaps: Some(&[(1, 2), (-2, 1)]),
        };
        let text = original.encode();
        let decoded = OwnedAutomaton::decode(&text).expect("decodes");
        assert_eq!(decoded.view().encode(), text);
        assert_eq!(decoded.states, states);
        assert_eq!(decoded.edges, edges);
        assert_eq!(decoded.leaps.as_deref(), Some(&[(1, 2), (-2, 1)][..]));
        for bad in [
            "",
            "m",
            "x N T0 S0 E0",
            "- N T0 S1 0,1,0,1 E0",
            "- N T0 S1 0,0,0,1 E1 s5",
            &text[..text.len() - 1],
        ] {
            assert!(OwnedAutomaton::decode(bad).is_none(), "{bad:?}");
        }
        assert!(decode_all(&["- N T0 S1 0,0,0,1 E0", "bad"]).is_err());
    }
}
