//! Finvara at run time: a rectangular board with holes, the two stacks, and
//! moves validated against each piece type's *notation automaton*.
//!
//! The compiler turns a piece type's movement notation into a small
//! automaton over leaps ([`Automaton`]): states joined by ordered edges that
//! leap, test the rank, set the `c`/`m` conditions, capture (`x`) or
//! promote. A move `FROM -> TO` is valid if some path through the automaton
//! from FROM ends on TO and obeys the occupancy rules; [`Game::try_move`]
//! finds the first such path in the spec's order (notation order, fewer
//! repetitions before more) by a search over (automaton state, square, what
//! the path must remember, what it has done so far), visiting each such node
//! once — so the cost is polynomial in board and notation size, never the
//! number of paths. Generated code may instead
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
use super::io::Io;
use super::memory::{self, Refused};

mod automaton;
mod board;
mod reach;
mod repeat;
mod rules;
mod search;
pub mod table;
mod visited;

pub use self::automaton::*;
use self::board::{side, Allowed, Board};
pub use self::rules::*;
pub use self::search::MAX_EDGES;
use self::search::{Goal, Search};

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

/// A move line as generated code describes it: who moves what from where
/// to where, and how the compiler found the move can go.
#[derive(Clone, Copy, Debug)]
pub struct MoveLine<'a> {
    /// The source line (for errors).
    pub line: u32,
    /// The mover: white (true) or black.
    pub white: bool,
    /// The piece type.
    pub kind: u16,
    /// FROM.
    pub from: Square,
    /// TO.
    pub to: Square,
    /// The promotion target (`= SYMBOL`).
    pub promote: Option<u16>,
    /// How the move can go.
    pub paths: Paths<'a>,
    /// The index of the line after it.
    pub next: u32,
}

/// How a move line's move can go, as the compiler found at compile time.
#[derive(Clone, Copy, Debug)]
pub enum Paths<'a> {
    /// No path of the piece joins FROM and TO: the move is never valid.
    Impossible,
    /// These geometric paths, in notation order ([`Game::try_paths`]).
    Listed(&'a [Path<'a>]),
    /// As [`Paths::Listed`], where the first path is one leap into a hole
    /// with no condition (holes never change, so only the check rule can
    /// stop it) and `value` is the piece's value there (`None`: royal).
    FallFirst {
        /// The mover's value on the hole.
        value: Option<i64>,
        /// All the paths, the falling one first.
        paths: &'a [Path<'a>],
    },
    /// Too many to list: searched at run time ([`Game::try_move`]).
    Searched,
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
    /// The source line of the last move or placement: where the losing
    /// test after it reports an error.
    line: u32,
}

impl Game {
    /// A game starting from `cells` (row 0 first).
    pub fn new(rules: &Rules, cells: &[Cell]) -> Self {
        Game {
            board: Board::new(rules, cells),
            stacks: [Vec::new(), Vec::new()],
            settled: false,
            moves: Some(Box::new(Search::new(rules))),
            attacks: Search::new(rules),
            undo: Vec::new(),
            effects: Vec::new(),
            line: 0,
        }
    }

    /// A game on an empty board of `rules.rows` × `rules.cols` with holes
    /// where `holes` says and `pieces` placed (generated code's initial
    /// position). Each entry of `holes` is a run of up to 64 squares: bit
    /// `i` of its mask is the square `i` after its first.
    pub fn with_position(
        rules: &Rules,
        holes: &[(Square, u64)],
        pieces: &[(Square, u16, bool)],
    ) -> Self {
        let mut cells = vec![Cell::Empty; rules.rows as usize * rules.cols as usize];
        for &(first, mask) in holes {
            for bit in 0..64 {
                if mask >> bit & 1 != 0 {
                    if let Some(cell) = cells.get_mut(first as usize + bit) {
                        *cell = Cell::Hole;
                    }
                }
            }
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
    #[inline]
    pub fn skip_next(&self) -> bool {
        self.stacks
            .iter()
            .all(|s| s.last().is_none_or(|&top| top == 0))
    }

    /// `SYMBOL SQUARE checks turn M` (source line `line`): places a piece
    /// if the square is empty.
    #[inline]
    pub fn place(&mut self, kind: u16, white: bool, square: Square, line: u32) {
        self.line = line;
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
        self.line = line;
        if self.board.get(from) != (Cell::Piece { kind, white }) {
            return Ok(false);
        }
        let goal = Goal {
            to: rules.point(to),
            promote,
            attack: false,
        };
        let mut moves = self.moves.take().unwrap_or_default();
        let valid = self.search_move(rules, &mut moves, white, kind, from, goal);
        self.moves = Some(moves);
        let valid = valid.map_err(|kind| RuntimeError::at(kind.into(), line))?;
        if valid {
            self.commit(rules, io, white, kind, line)?;
        }
        Ok(valid)
    }

    /// Whether one of the paths that `moves` finds from `from` to the goal
    /// is a legal move; if so, the move is made (its stack effects wait
    /// for [`Game::commit`]).
    fn search_move(
        &mut self,
        rules: &Rules,
        moves: &mut Search,
        white: bool,
        kind: u16,
        from: Square,
        goal: Goal,
    ) -> Result<bool, Refused> {
        let automaton = &rules.automata[usize::from(kind)];
        moves.start(rules, automaton, kind, white, rules.point(from), rules.cols)?;
        while let Some(path) = moves.next(rules, &self.board, goal)? {
            if self.trial(rules, white, kind, from, path, goal.promote)? {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// The line to run after a move line whose move was `valid`: `next`,
    /// or the one after it when an invalid move triggers the skip rule.
    #[inline]
    pub fn next_line(&self, valid: bool, next: u32) -> u32 {
        if valid || !self.skip_next() {
            next
        } else {
            next + 1
        }
    }

    /// Runs the move line `line` as the compiler described it: makes the
    /// move if it is valid (along its listed paths, or found by a search)
    /// and returns the line to run next ([`Game::next_line`]). Always
    /// inlined: generated code passes a constant `line`, so only the
    /// branch for its kind of move remains at each call.
    #[inline(always)]
    pub fn play<R: BufRead, W: Write>(
        &mut self,
        rules: &Rules,
        io: &mut Io<R, W>,
        line: &MoveLine,
    ) -> Result<u32, RuntimeError> {
        let MoveLine {
            line: source_line,
            white,
            kind,
            from,
            to,
            promote,
            paths,
            next,
        } = *line;
        self.line = source_line;
        let valid = match paths {
            Paths::Impossible => false,
            Paths::Listed(paths) => {
                self.try_paths(rules, io, white, kind, from, promote, paths, source_line)?
            }
            Paths::FallFirst { value, paths } => self.fall_first(rules, io, line, value, paths)?,
            Paths::Searched => {
                self.try_move(rules, io, white, kind, from, to, promote, source_line)?
            }
        };
        Ok(self.next_line(valid, next))
    }

    /// [`Paths::FallFirst`]: the piece leaves FROM, the check rule is
    /// tested, and the stack action for `value` runs (`None`: a royal
    /// piece, which has none). If the check rule refuses the fall, the
    /// other `paths` are tried as [`Game::try_paths`] would. Returns
    /// whether the move was valid.
    #[inline]
    fn fall_first<R: BufRead, W: Write>(
        &mut self,
        rules: &Rules,
        io: &mut Io<R, W>,
        line: &MoveLine,
        value: Option<i64>,
        paths: &[Path],
    ) -> Result<bool, RuntimeError> {
        let piece = Cell::Piece {
            kind: line.kind,
            white: line.white,
        };
        if self.board.get(line.from) != piece {
            return Ok(false);
        }
        self.board.set(line.from, Cell::Empty);
        if self.royals_attacked(rules, line.white, line.line)? {
            self.board.set(line.from, piece);
            let rest = paths.get(1..).unwrap_or(&[]);
            return self.try_paths(
                rules,
                io,
                line.white,
                line.kind,
                line.from,
                line.promote,
                rest,
                line.line,
            );
        }
        self.settled = false;
        if let Some(value) = value {
            self.stack_action(io, line.white, value, line.line)?;
        }
        Ok(true)
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
        let in_line = |refused: Refused| RuntimeError::at(refused.into(), line);
        for path in paths {
            match self
                .board
                .allows(path, from, white, &mut self.attacks.flood)
            {
                Allowed::No => {}
                Allowed::Quietly(to) => {
                    if self
                        .quiet_move(rules, white, kind, from, to, promote)
                        .map_err(in_line)?
                    {
                        return Ok(true);
                    }
                }
                Allowed::Yes => {
                    if self
                        .trial(rules, white, kind, from, path.steps, promote)
                        .map_err(in_line)?
                    {
                        self.commit(rules, io, white, kind, line)?;
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// A move along a path that lands on empty squares only (no hole, no
    /// capture, so no effect on the stacks): the piece goes from `from` to
    /// `to` (promoted if `promote`) and stays there if the check rule
    /// allows, without the trial's undo log.
    #[inline]
    fn quiet_move(
        &mut self,
        rules: &Rules,
        white: bool,
        kind: u16,
        from: Square,
        to: Square,
        promote: Option<u16>,
    ) -> Result<bool, Refused> {
        let piece = Cell::Piece { kind, white };
        self.board.set(from, Cell::Empty);
        self.board.set(
            to,
            Cell::Piece {
                kind: promote.unwrap_or(kind),
                white,
            },
        );
        if self.attacked(rules, white)? {
            self.board.set(to, Cell::Empty);
            self.board.set(from, piece);
            return Ok(false);
        }
        self.settled = false;
        Ok(true)
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
    ) -> Result<bool, Refused> {
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
        if self.attacked(rules, white)? {
            while let Some((square, cell)) = self.undo.pop() {
                self.board.set(square, cell);
            }
            return Ok(false);
        }
        self.settled = false;
        Ok(true)
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
                        memory::push(&mut self.stacks[side(victim_white)], value)
                            .map_err(|kind| RuntimeError::at(kind.into(), line))?;
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
                memory::push(stack, value).map_err(|kind| RuntimeError::at(kind.into(), line))?;
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

    /// Whether any royal piece of `white` is attacked (the board keeps
    /// the count until a change that can matter); the memory budget's
    /// error if an attack search outgrows it.
    #[inline]
    fn attacked(&mut self, rules: &Rules, white: bool) -> Result<bool, Refused> {
        Ok(self
            .board
            .attacked_royals(rules, white, &mut self.attacks)?
            > 0)
    }

    /// [`Game::attacked`], its error at source line `line`.
    #[inline]
    fn royals_attacked(
        &mut self,
        rules: &Rules,
        white: bool,
        line: u32,
    ) -> Result<bool, RuntimeError> {
        self.attacked(rules, white)
            .map_err(|kind| RuntimeError::at(kind.into(), line))
    }

    /// Whether a player has lost: no royal piece, or all attacked. Free when
    /// nothing changed since the last time nobody had lost, and a lookup
    /// when nothing that matters changed. An attack search that outgrows
    /// the memory budget is an error at the last move or placement.
    #[inline]
    pub fn someone_lost(&mut self, rules: &Rules) -> Result<bool, RuntimeError> {
        if self.settled {
            return Ok(false);
        }
        self.losing_test(rules)
            .map_err(|kind| RuntimeError::at(kind.into(), self.line))
    }

    /// [`Game::someone_lost`] when something changed.
    #[inline]
    fn losing_test(&mut self, rules: &Rules) -> Result<bool, Refused> {
        let mut lost = false;
        for white in [true, false] {
            let royals = self.board.royals[side(white)].len();
            if royals == 0
                || self
                    .board
                    .attacked_royals(rules, white, &mut self.attacks)?
                    == royals
            {
                lost = true;
                break;
            }
        }
        self.settled = !lost;
        Ok(lost)
    }

    /// Whether the board's kept counts of attacked royal pieces equal
    /// counts made from scratch (for tests of the incremental state).
    #[doc(hidden)]
    pub fn attack_counts_are_fresh(&mut self, rules: &Rules) -> Result<bool, Refused> {
        for white in [true, false] {
            let kept = self
                .board
                .attacked_royals(rules, white, &mut self.attacks)?;
            let fresh = self
                .board
                .count_attacked_royals(rules, white, &mut self.attacks)?;
            if kept != fresh {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// How many royal pieces of White and of Black are attacked (for tests
    /// that compare ways of finding out).
    #[doc(hidden)]
    pub fn attacked_royal_counts(&mut self, rules: &Rules) -> Result<[usize; 2], Refused> {
        Ok([
            self.board.attacked_royals(rules, true, &mut self.attacks)?,
            self.board
                .attacked_royals(rules, false, &mut self.attacks)?,
        ])
    }
}

#[cfg(test)]
mod tests {
    use super::board::{Placed, NO_SLOT};
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
        attacks: None,
        bends: &[],
    };

    /// `(1,0)` known to be a leaper (mapped: its leaps are hit counts).
    const WAZIR_LEAPER: Automaton<'static> = Automaton {
        attacks: Some(&[
            Ray::leap(1, 0),
            Ray::leap(-1, 0),
            Ray::leap(0, 1),
            Ray::leap(0, -1),
        ]),
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

    /// A 3 x 3 board with `pieces` (square, kind, white) and `holes`.
    fn board(pieces: &[(usize, u16, bool)], holes: &[usize]) -> Vec<Cell> {
        let mut cells = vec![Cell::Empty; 9];
        for &(square, kind, white) in pieces {
            cells[square] = Cell::Piece { kind, white };
        }
        for &square in holes {
            cells[square] = Cell::Hole;
        }
        cells
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
        let cells = board(
            &[(0, 0, true), (3, 0, false), (8, 1, true), (6, 1, false)],
            &[],
        );
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
        assert!(game.someone_lost(&rules).unwrap());
    }

    #[test]
    fn falling_performs_the_stack_action_and_stops_the_path() {
        let wazir = WAZIR;
        let automata = [wazir, wazir];
        // 3 ≡ input, 4 ≡ print.
        let values = [PieceValue::Number(9), PieceValue::Royal];
        let rules = rules(&automata, &values);
        let cells = board(&[(0, 0, true), (8, 1, true), (6, 1, false)], &[1]);
        let mut game = Game::new(&rules, &cells);
        let mut io = io();
        assert!(game
            .try_move(&rules, &mut io, true, 0, 0, 1, None, 1)
            .unwrap());
        assert_eq!(game.stack(true), &[5]);
        assert_eq!(game.cells()[1], Cell::Hole);
        assert_eq!(game.cells()[0], Cell::Empty);
        assert!(!game.skip_next());
        assert!(!game.someone_lost(&rules).unwrap());
    }

    /// `{(0,1|>),(0,2|>)}*` for White, one loop per way (a step, a jump
    /// of two), or `{(0,1|>),(0,2|>)}`` (crooked: any of them each round).
    fn step_or_jump(crooked: bool) -> (Vec<State>, Vec<Edge>) {
        let state = |first_edge, edges| State::new(first_edge, edges, UNBOUNDED);
        if crooked {
            let states = vec![
                state(0, 1),
                state(1, 1),
                state(2, 2).in_crooked(),
                state(4, 2).in_crooked(),
                State::new(6, 1, 0),
                State::new(7, 0, 0).accepting(),
            ];
            let edges = vec![
                Edge::Enter { to: 1 },
                Edge::pass(2),
                Edge::leap(0, 1, 3),
                Edge::leap(0, 2, 3),
                Edge::Exit { to: 4 },
                Edge::Loop { to: 2 },
                Edge::pass(5),
            ];
            return (states, edges);
        }
        let states = vec![
            state(0, 1),
            state(1, 2),
            state(3, 1),
            state(4, 2),
            state(6, 1),
            state(7, 2),
            State::new(9, 1, 0),
            State::new(10, 0, 0).accepting(),
        ];
        let edges = vec![
            Edge::Enter { to: 1 },
            Edge::pass(2),
            Edge::pass(4),
            Edge::leap(0, 1, 3),
            Edge::Exit { to: 6 },
            Edge::Loop { to: 2 },
            Edge::leap(0, 2, 5),
            Edge::Exit { to: 6 },
            Edge::Loop { to: 4 },
            Edge::pass(7),
        ];
        (states, edges)
    }

    #[test]
    fn fewer_rounds_come_first_across_the_ways_of_a_repetition() {
        // From a1 to a3 with a hole on a2: one jump (one round) comes
        // before two steps (two rounds), so the piece jumps the hole. Had
        // it fallen into a2 (value 4: print), the empty stack would be a
        // runtime error.
        for crooked in [false, true] {
            let (states, edges) = step_or_jump(crooked);
            let mover = Automaton {
                states: &states,
                edges: &edges,
                targets: &[],
                memo: true,
                attacks: None,
                bends: &[],
            };
            let automata = [mover, WAZIR];
            let values = [PieceValue::Number(4), PieceValue::Royal];
            let rules = rules(&automata, &values);
            let cells = board(&[(0, 0, true), (8, 1, true), (6, 1, false)], &[1]);
            let mut game = Game::new(&rules, &cells);
            let mut io = io();
            assert!(game
                .try_move(&rules, &mut io, true, 0, 0, 2, None, 1)
                .unwrap());
            assert_eq!(
                game.cells()[2],
                Cell::Piece {
                    kind: 0,
                    white: true
                },
                "crooked: {crooked}"
            );
            assert_eq!(game.cells()[1], Cell::Hole);
        }
    }

    #[test]
    fn the_check_rule_refuses_a_move_into_attack_and_leaves_the_board() {
        let wazir = WAZIR;
        let automata = [wazir];
        let values = [PieceValue::Royal];
        let rules = rules(&automata, &values);
        let cells = board(&[(0, 0, true), (5, 0, false)], &[]);
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
            crooked: &[],
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
            &[(4, 1)],
            &[(0, 0, true), (1, 1, true), (8, 1, false), (6, 2, true)],
        );
        game.place(0, false, 2, 1);
        game.place(0, false, 4, 1);
        let squares = |list: &[Placed]| {
            let mut squares: Vec<Square> = list.iter().map(|p| p.square).collect();
            squares.sort();
            squares
        };
        let board = &game.board;
        assert_eq!(squares(&board.listed[0]), [0]);
        assert_eq!(squares(&board.listed[1]), [2]);
        assert_eq!(squares(&board.royals[0]), [1]);
        assert_eq!(squares(&board.royals[1]), [8]);
        assert_eq!(board.listed[1][0].at, Point { row: 0, col: 2 });
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
        assert!(game.board.listed[0].is_empty());
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
            attacks: Some(&[]),
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
        assert!(!game.attacked(&rules, true).unwrap());
        // A black mapped wazir on (1,0) attacks it (a leap looking back).
        game.place(2, false, 3, 1);
        assert!(game.attacked(&rules, true).unwrap());
        assert_eq!(
            game.board
                .attacked_royals(&rules, true, &mut game.attacks)
                .unwrap(),
            1
        );
        game.board.set(3, Cell::Empty);
        assert!(!game.attacked(&rules, true).unwrap());
        // A black scanned piece on (0,1) attacks it through the scan.
        game.place(0, false, 1, 1);
        assert!(game.attacked(&rules, true).unwrap());
        game.board.set(1, Cell::Empty);
        assert!(!game.attacked(&rules, true).unwrap());
        // A second white king on (2,1) is attacked by the wazir on (1,1):
        // one of two royal pieces attacked is not a loss; both are.
        game.place(1, true, 7, 1);
        assert_eq!(
            game.board
                .attacked_royals(&rules, true, &mut game.attacks)
                .unwrap(),
            1
        );
        assert!(!game.someone_lost(&rules).unwrap());
        game.place(2, false, 3, 1);
        assert_eq!(
            game.board
                .attacked_royals(&rules, true, &mut game.attacks)
                .unwrap(),
            2
        );
        assert!(game.someone_lost(&rules).unwrap());
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
        game.place(value, true, 1, 1);
        game.try_move(rules, io, true, value, 1, 4, None, 7)
    }

    #[test]
    fn every_stack_action_and_its_errors() {
        let (automata, values) = stack_game();
        let rules = rules(&automata, &values);
        let mut game = Game::with_position(&rules, &[(4, 1)], &[(0, 6, true), (8, 6, false)]);
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
        let mut game = Game::with_position(&rules, &[(4, 1)], &[(0, 6, true), (8, 6, false)]);
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
            Edge::Enter { to: 1 },
            Edge::Exit { to: 2 },
            Edge::Loop { to: 1 },
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
            attacks: Some(&[
                Ray::leap(1, 2),
                Ray::rider(-2, 1).on_ranks(-3, 2, true),
                Ray::leap(1, 1).bent(0, 1).of_crooked(2),
            ]),
            bends: &[Bend::taking(1, 0)],
        };
        let text = original.encode();
        let decoded = OwnedAutomaton::decode(&text).expect("decodes");
        assert_eq!(decoded.view().encode(), text);
        assert_eq!(decoded.states, states);
        assert_eq!(decoded.edges, edges);
        assert_eq!(decoded.bends, [Bend::taking(1, 0)]);
        assert!(OwnedAutomaton::decode("- A1 1,1,1,0,1,3 B1 1,0,1 T0 S1 0,0,0,1 E0").is_some());
        assert_eq!(
            decoded.attacks.as_deref(),
            Some(
                &[
                    Ray::leap(1, 2),
                    Ray::rider(-2, 1).on_ranks(-3, 2, true),
                    Ray::leap(1, 1).bent(0, 1).of_crooked(2)
                ][..]
            )
        );
        for bad in [
            "",
            "m",
            "x N T0 S0 E0",
            "- N T0 S1 0,1,0,1 E0",
            "- N T0 S1 0,0,0,1 E1 s5",
            // A bent line whose landings lie past the table's end.
            "- A1 1,1,1,0,2,0 B1 1,0,0 T0 S1 0,0,0,1 E0",
            &text[..text.len() - 1],
        ] {
            assert!(OwnedAutomaton::decode(bad).is_none(), "{bad:?}");
        }
        assert!(decode_all(&["- N T0 S1 0,0,0,1 E0", "bad"]).is_err());
    }
}
