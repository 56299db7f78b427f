//! The planner of running Finvara programs: a model of the program being
//! written (board, homes, stacks, routes under way), and the lines it
//! writes — routes of pieces to holes, `checks` lines that refill homes,
//! shuttles, passes and invalid moves on purpose.

use super::model::{
    apply_effect, fv_stack_action, side, FvCell, FvEpisode, FvHome, FvMove, FvType,
};
use crate::Random;

/// The generator's model of a program being written.
pub(super) struct FvPlanner<'a> {
    pub(super) random: &'a mut Random,
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) types: Vec<FvType>,
    pub(super) cells: Vec<FvCell>,
    pub(super) homes: Vec<FvHome>,
    pub(super) home_at: Vec<Option<usize>>,
    pub(super) reserved: Vec<bool>,
    /// Stack depths, White's first.
    pub(super) depth: [i64; 2],
    /// Elements that planned falls will pop.
    pub(super) pending: [i64; 2],
    pub(super) episodes: Vec<FvEpisode>,
    /// Move line texts (after `Turn N C: `) in order.
    pub(super) lines: Vec<String>,
    /// What the plan expects of each line (see [`FinvaraRun::expected`]).
    pub(super) expected: String,
    /// Royal squares by side (kings stay put).
    pub(super) royals: [usize; 2],
    /// Reads from the input planned (falls with action 3).
    pub(super) reads: u64,
    /// Pieces left off their homes by a route given up.
    pub(super) strays: Vec<usize>,
    /// Each side's shuttle, if it has one.
    pub(super) shuttles: [Option<FvShuttle>; 2],
}

/// A piece that steps between two squares kept for it: what a side does
/// when it has nothing else to do.
#[derive(Clone, Copy, Debug)]
pub(super) struct FvShuttle {
    pub(super) kind: usize,
    pub(super) home_square: usize,
    pub(super) away: usize,
    /// On `home_square` (else on `away`).
    pub(super) home: bool,
}

impl<'a> FvPlanner<'a> {
    /// A planner for a board of `rows` × `cols` empty squares and piece
    /// types `types`, with nothing written yet.
    pub(super) fn new(
        random: &'a mut Random,
        rows: usize,
        cols: usize,
        types: Vec<FvType>,
    ) -> Self {
        FvPlanner {
            random,
            rows,
            cols,
            types,
            cells: vec![FvCell::Empty; rows * cols],
            homes: Vec::new(),
            home_at: vec![None; rows * cols],
            reserved: vec![false; rows * cols],
            depth: [0, 0],
            pending: [0, 0],
            episodes: Vec::new(),
            lines: Vec::new(),
            expected: String::new(),
            royals: [0, 0],
            reads: 0,
            strays: Vec::new(),
            shuttles: [None, None],
        }
    }
}

impl FvPlanner<'_> {
    /// Whether a planned route may use `square` (not kept for another
    /// route, not a square `checks` lines fill).
    fn free_for_route(&self, square: usize) -> bool {
        !self.reserved[square] && self.home_at[square].is_none()
    }

    /// Whether `m` may be a step of a new route: it lands only on free
    /// squares (or holes), and takes only pieces of the other side's
    /// target homes.
    fn route_step_ok(&self, cells: &[FvCell], m: &FvMove) -> bool {
        let landings_ok = m.effect.landings.iter().all(|&s| {
            cells[s] == FvCell::Hole
                || self.free_for_route(s)
                || (m.effect.taken.contains(&s) && !self.reserved[s])
        });
        let takes_ok = m.effect.taken.iter().all(|&s| {
            self.home_at[s].is_some_and(|h| self.homes[h].target && self.homes[h].white != m.white)
        });
        // A move that stays on its square only promotes; not on a home.
        let stays_ok = m.effect.end != m.from || self.home_at[m.from].is_none();
        landings_ok && takes_ok && stays_ok
    }

    /// Plans a route for the piece on `from` ending in a fall whose stack
    /// action the stack can afford; `read` asks for an action 3 (a push),
    /// `take` for a route that takes a piece of the other side.
    fn plan_route(&mut self, from: usize, read: bool, take: bool) -> Option<FvEpisode> {
        let FvCell::Piece(kind, white) = self.cells[from] else {
            return None;
        };
        let budget = self.depth[side(white)] - self.pending[side(white)];
        for _ in 0..6 {
            let legs = *self.random.pick(&[1, 2, 2, 3, 3, 4]);
            let mut cells = self.cells.clone();
            let (mut at, mut kind) = (from, kind);
            let mut route: Vec<FvMove> = Vec::new();
            let mut need = 0;
            for leg in 0..legs + 1 {
                let moves: Vec<FvMove> = self
                    .moves(&cells, kind, white, at)
                    .into_iter()
                    .filter(|m| self.route_step_ok(&cells, m))
                    .filter(|m| {
                        m.effect
                            .landings
                            .iter()
                            .all(|s| !route.iter().any(|r| r.effect.landings.contains(s)))
                    })
                    .collect();
                let falls: Vec<&FvMove> = moves
                    .iter()
                    .filter(|m| {
                        let Some(hole) = m.effect.fell else {
                            return false;
                        };
                        // A piece that falls does not promote: its own value acts.
                        let Some(action) = self.action(kind, hole) else {
                            return false;
                        };
                        let (needs, _) = fv_stack_action(action);
                        (!read || action == 3) && (needs == 0 || budget - needs >= 1)
                    })
                    .filter(|_| !take || route.iter().any(|r| !r.effect.taken.is_empty()))
                    .collect();
                let walks: Vec<&FvMove> =
                    moves.iter().filter(|m| m.effect.fell.is_none()).collect();
                if (leg + 1 >= legs || walks.is_empty()) && !falls.is_empty() {
                    let fall = (*self.random.pick(&falls)).clone();
                    need = fv_stack_action(self.action(kind, fall.effect.fell.unwrap()).unwrap()).0;
                    route.push(fall);
                    break;
                }
                if leg == legs || walks.is_empty() {
                    break;
                }
                // Prefer taking when asked to.
                let taking: Vec<&FvMove> = walks
                    .iter()
                    .copied()
                    .filter(|m| !m.effect.taken.is_empty())
                    .collect();
                let walk = if take && !taking.is_empty() {
                    (*self.random.pick(&taking)).clone()
                } else {
                    (*self.random.pick(&walks)).clone()
                };
                apply_effect(&mut cells, &walk, &mut [0, 0], None);
                at = walk.effect.end;
                kind = walk.effect.kind;
                route.push(walk);
            }
            if route.last().is_some_and(|m| m.effect.fell.is_some()) {
                let mut reserved = Vec::new();
                for m in &route {
                    for &s in &m.effect.landings {
                        if self.cells[s] != FvCell::Hole && !reserved.contains(&s) {
                            reserved.push(s);
                        }
                    }
                }
                for &s in &reserved {
                    self.reserved[s] = true;
                }
                self.pending[side(white)] += need;
                return Some(FvEpisode {
                    white,
                    moves: route,
                    done: 0,
                    reserved,
                    need,
                });
            }
        }
        None
    }

    /// The text of a planned move.
    fn move_text(&self, m: &FvMove) -> String {
        let promote = m
            .promote
            .map_or(String::new(), |p| format!(" = {}", self.types[p].symbol));
        format!("{}{promote}", self.line(m.kind, m.from, m.to))
    }

    /// Turn number and colour of the next line.
    pub(super) fn next_turn(&self) -> (usize, bool) {
        (self.lines.len() / 2 + 1, self.lines.len().is_multiple_of(2))
    }

    /// A `checks` line of the colour whose line is next: places `kind` on
    /// `square` if empty and goes on with the next turn. A White line
    /// jumps over Black's line of its turn: that one is written too (a
    /// Black `checks` line, run only after a skip).
    fn checks(&mut self, kind: usize, square: usize) {
        let (turn, white) = self.next_turn();
        if self.cells[square] == FvCell::Empty {
            self.cells[square] = FvCell::Piece(kind, white);
        }
        let text = format!(
            "{} {} checks turn {}",
            self.types[kind].symbol,
            self.square(square),
            turn + 1
        );
        self.write(text, 'c');
        if white {
            let text = format!("k {} checks turn {}", self.square(self.royals[1]), turn + 1);
            self.write(text, 'd');
        }
    }

    /// A `checks` line that places nothing: on the mover's king. (On a
    /// White line it jumps over Black's.)
    pub(super) fn pass(&mut self) {
        let (_, white) = self.next_turn();
        self.checks(0, self.royals[side(white)]);
    }

    /// A line for a side with nothing to do: its shuttle steps over and
    /// back (valid moves that leave the board as it was two moves later);
    /// without a shuttle, Black passes and White makes an invalid move
    /// (a White `checks` line would take Black's line away).
    fn neutral(&mut self) {
        let (_, white) = self.next_turn();
        match self.shuttles[side(white)] {
            Some(_) => self.shuttle(white),
            None if white => self.safe_invalid(),
            None => self.pass(),
        }
    }

    /// Moves `white`'s shuttle to its other square.
    fn shuttle(&mut self, white: bool) {
        let Some(shuttle) = self.shuttles[side(white)].as_mut() else {
            return;
        };
        let (from, to) = if shuttle.home {
            (shuttle.home_square, shuttle.away)
        } else {
            (shuttle.away, shuttle.home_square)
        };
        shuttle.home = !shuttle.home;
        let kind = shuttle.kind;
        self.cells[from] = FvCell::Empty;
        self.cells[to] = FvCell::Piece(kind, white);
        let text = self.line(kind, from, to);
        self.write(text, 'v');
    }

    /// Whether `white`'s shuttle is away from its home square.
    fn shuttle_away(&self, white: bool) -> bool {
        self.shuttles[side(white)].is_some_and(|s| !s.home)
    }

    /// A move line that is invalid whatever the board (or, for the last
    /// kind, invalid on the planned board).
    pub(super) fn invalid(&mut self) {
        let (_, white) = self.next_turn();
        let movers: Vec<FvHome> = self
            .homes
            .iter()
            .filter(|h| h.white == white && !h.target)
            .copied()
            .collect();
        let kinds = self.types.len();
        let line = match self.random.below(7) {
            // From a hole.
            0 => {
                let holes: Vec<usize> = (0..self.cells.len())
                    .filter(|&s| self.cells[s] == FvCell::Hole)
                    .collect();
                let hole = *self.random.pick(&holes);
                let kind = self.random.between(1, kinds as i64 - 1) as usize;
                let to = self.any_square();
                self.line(kind, hole, to)
            }
            // The wrong symbol on the own king, or the other side's king.
            1 | 2 => {
                let (kind, at) = if self.random.below(2) == 0 {
                    (
                        self.random.between(1, kinds as i64 - 1) as usize,
                        self.royals[side(white)],
                    )
                } else {
                    (0, self.royals[side(!white)])
                };
                let to = self.any_square();
                self.line(kind, at, to)
            }
            // Onto the own king, or nowhere (TO = FROM, no promotion).
            3 | 4 if !movers.is_empty() => {
                let home = *self.random.pick(&movers);
                let to = if self.random.below(2) == 0 {
                    self.royals[side(white)]
                } else {
                    home.square
                };
                self.line(home.kind, home.square, to)
            }
            // A promotion the piece cannot make.
            5 if !movers.is_empty() => {
                let home = *self.random.pick(&movers);
                let promotes = self.types[home.kind]
                    .forms
                    .iter()
                    .any(|f| f.promotes(&self.types));
                let to = self.any_square();
                let target = self.random.between(1, kinds as i64 - 1) as usize;
                if promotes {
                    self.line(home.kind, home.square, home.square)
                } else {
                    let line = self.line(home.kind, home.square, to);
                    format!("{line} = {}", self.types[target].symbol)
                }
            }
            _ => self.unreachable_line(white, &movers),
        };
        self.write(line, 'i');
    }

    /// A move to a square off the piece's lines, or blocked, on the board
    /// as planned (only for pieces whose every move the model follows;
    /// without one, a king onto the other king).
    fn unreachable_line(&mut self, white: bool, movers: &[FvHome]) -> String {
        let plain: Vec<FvHome> = movers
            .iter()
            .filter(|h| {
                self.cells[h.square] == FvCell::Piece(h.kind, h.white)
                    && !self.types[h.kind]
                        .forms
                        .iter()
                        .any(|f| f.crooked(&self.types))
            })
            .copied()
            .collect();
        if !plain.is_empty() {
            let home = *self.random.pick(&plain);
            for _ in 0..10 {
                let to = self.any_square();
                if to != home.square
                    && self
                        .resolve(home.kind, white, home.square, to, None)
                        .is_none()
                {
                    return self.line(home.kind, home.square, to);
                }
            }
        }
        self.line(0, self.royals[side(!white)], self.royals[side(white)])
    }

    /// A square of the board, drawn at random.
    fn any_square(&mut self) -> usize {
        self.random.below((self.rows * self.cols) as u64) as usize
    }

    /// The text of a move line of `kind` from `from` to `to`, without a
    /// promotion.
    fn line(&self, kind: usize, from: usize, to: usize) -> String {
        format!(
            "{} {} -> {}",
            self.types[kind].symbol,
            self.square(from),
            self.square(to)
        )
    }

    /// An invalid move followed by a pass: whether or not the pass is
    /// skipped, the next line run is the same.
    fn safe_invalid(&mut self) {
        self.invalid();
        self.pass();
    }

    /// Writes a line and what the plan expects of it.
    pub(super) fn write(&mut self, text: String, expected: char) {
        self.lines.push(text);
        self.expected.push(expected);
    }

    /// Writes the next move of `episode` (on the current board) and
    /// applies it; drops the episode when it ends (a piece it leaves off
    /// its home becomes a stray). Returns false if the move cannot be
    /// written now (its fall needs stack elements that are not there yet).
    fn advance(&mut self, episode: usize) -> bool {
        let e = &self.episodes[episode];
        let planned = e.moves[e.done].clone();
        let effect = self.resolve(
            planned.kind,
            planned.white,
            planned.from,
            planned.to,
            planned.promote,
        );
        let white = planned.white;
        if let Some(hole) = effect.as_ref().and_then(|e| e.fell) {
            let (needs, _) = fv_stack_action(self.action(planned.kind, hole).unwrap_or(3));
            if needs > 0 && self.depth[side(white)] < needs + 1 {
                return false;
            }
        }
        self.write(
            self.move_text(&planned),
            if effect.is_some() { 'v' } else { 'i' },
        );
        let (ended, left_on) = match effect {
            Some(effect) => {
                let differs = effect != planned.effect;
                let actual = FvMove {
                    effect,
                    ..planned.clone()
                };
                let action = actual
                    .effect
                    .fell
                    .and_then(|hole| self.action(actual.kind, hole));
                if action == Some(3) {
                    self.reads += 1;
                }
                apply_effect(&mut self.cells, &actual, &mut self.depth, action);
                let e = &mut self.episodes[episode];
                e.done += 1;
                let ended = actual.effect.fell.is_some() || differs || e.done == e.moves.len();
                (
                    ended,
                    actual.effect.fell.is_none().then_some(actual.effect.end),
                )
            }
            // Invalid after all: the piece stays; give the route up.
            None => (true, Some(planned.from)),
        };
        if ended {
            let e = self.episodes.remove(episode);
            for s in e.reserved {
                self.reserved[s] = false;
            }
            self.pending[side(e.white)] -= e.need;
            if let Some(square) = left_on {
                if self.home_at[square].is_none() {
                    self.strays.push(square);
                }
            }
        }
        true
    }

    /// The homes of `white` that are empty and free (a `checks` line
    /// would fill them).
    fn empty_homes(&self, white: bool) -> Vec<usize> {
        (0..self.homes.len())
            .filter(|&h| {
                let home = self.homes[h];
                home.white == white
                    && self.cells[home.square] == FvCell::Empty
                    && !self.reserved[home.square]
            })
            .collect()
    }

    /// Starts a route for a piece of `white` on a mover home (`read`,
    /// `take`: see [`FvPlanner::plan_route`]) and writes its first move.
    fn start(&mut self, white: bool, read: bool, take: bool) -> bool {
        let mut ready: Vec<usize> = (0..self.homes.len())
            .filter(|&h| {
                let home = self.homes[h];
                home.white == white
                    && !home.target
                    && self.cells[home.square] == FvCell::Piece(home.kind, white)
                    && !self.reserved[home.square]
            })
            .collect();
        while !ready.is_empty() {
            let pick = self.random.below(ready.len() as u64) as usize;
            let home = self.homes[ready.swap_remove(pick)];
            if let Some(episode) = self.plan_route(home.square, read, take) {
                self.episodes.push(episode);
                return self.advance(self.episodes.len() - 1);
            }
        }
        false
    }

    /// Plans a route for a stray of `white` and writes its first move.
    fn rescue(&mut self, white: bool) -> bool {
        let strays: Vec<usize> = (0..self.strays.len())
            .filter(|&i| matches!(self.cells[self.strays[i]], FvCell::Piece(_, w) if w == white))
            .collect();
        for i in strays.into_iter().rev() {
            let square = self.strays.remove(i);
            if self.reserved[square] {
                continue;
            }
            if let Some(episode) = self.plan_route(square, false, false) {
                self.episodes.push(episode);
                return self.advance(self.episodes.len() - 1);
            }
            // Stuck for good: it stays where it is.
        }
        false
    }

    /// Writes lines: at least `min`, then (with `settle`) until every
    /// route has ended and every home is filled — the board is back where
    /// it was — and, with `balance`, until neither stack is shallower than
    /// there (or too many lines were tried).
    pub(super) fn segment(&mut self, min: usize, settle: bool, balance: Option<[i64; 2]>) {
        let start = self.lines.len();
        loop {
            let (_, white) = self.next_turn();
            let written = self.lines.len() - start;
            let finishing = written >= min;
            if finishing {
                let settled = self.episodes.is_empty()
                    && self.empty_homes(true).is_empty()
                    && self.empty_homes(false).is_empty()
                    && !self.shuttle_away(true)
                    && !self.shuttle_away(false);
                let short = |s: usize| balance.is_some_and(|d| self.depth[s] < d[s]);
                let over = written - min;
                if !settle || settled && (!short(0) && !short(1) || over > 60) || over > 200 {
                    return;
                }
            }
            let own: Vec<usize> = (0..self.episodes.len())
                .filter(|&e| self.episodes[e].white == white)
                .collect();
            // (weight, activity): 0 advance, 1 start, 2 refill, 3 invalid,
            // 4 stray, 5 push own stack, 6 push the other's, 7 shuttle.
            let mut choices: Vec<(u64, u8)> = Vec::new();
            if !own.is_empty() {
                choices.push((6, 0));
            }
            if !finishing && own.len() < 2 {
                choices.push((4, 1));
            }
            if !self.empty_homes(white).is_empty() {
                choices.push((if finishing { 8 } else { 3 }, 2));
            }
            if !finishing {
                choices.push((1, 3));
            }
            if self.shuttles[side(white)].is_some() {
                let back = finishing && self.shuttle_away(white);
                choices.push((if back { 12 } else { 1 }, 7));
            }
            if self
                .strays
                .iter()
                .any(|&s| matches!(self.cells[s], FvCell::Piece(_, w) if w == white))
            {
                choices.push((3, 4));
            }
            if let (true, Some(d)) = (finishing, balance) {
                if self.depth[side(white)] < d[side(white)] && own.len() < 2 {
                    choices.push((4, 5));
                }
                if self.depth[side(!white)] < d[side(!white)] && own.len() < 2 {
                    choices.push((4, 6));
                }
            }
            let mut done = false;
            while !done && !choices.is_empty() {
                let total: u64 = choices.iter().map(|c| c.0).sum();
                let mut roll = self.random.below(total);
                let mut index = 0;
                while roll >= choices[index].0 {
                    roll -= choices[index].0;
                    index += 1;
                }
                let (_, activity) = choices.swap_remove(index);
                done = match activity {
                    0 => own.iter().rev().any(|&e| self.advance(e)),
                    1 => self.start(white, false, false),
                    2 => {
                        let homes = self.empty_homes(white);
                        let home = self.homes[*self.random.pick(&homes)];
                        self.checks(home.kind, home.square);
                        true
                    }
                    // An invalid move; one whose pass may be skipped
                    // (changing the course) only while a stack has
                    // something that may not be 0 on top.
                    3 => {
                        if self.depth == [0, 0] || self.random.below(10) < 6 {
                            self.safe_invalid();
                        } else {
                            self.invalid();
                        }
                        true
                    }
                    4 => self.rescue(white),
                    5 => self.start(white, true, false),
                    7 => {
                        self.shuttle(white);
                        true
                    }
                    6 => self.start(white, false, true),
                    _ => unreachable!("activities are 0 to 7"),
                };
            }
            if !done {
                self.neutral();
            }
        }
    }
}
