//! Moves: a move line as generated code describes it, the search for a
//! move's path or the compiler's listed paths, the trial of the check rule
//! on the board, and the effects the move then has on the stacks.

use std::io::{BufRead, Write};

use super::super::error::RuntimeError;
use super::super::io::Io;
use super::super::memory::{self, Refused};
use super::board::{side, Allowed};
use super::search::{Goal, Search};
use super::{Cell, Game, Path, Rules, Square, Step};

/// What a move did besides moving pieces, to apply to the stacks once the
/// check rule allowed it.
#[derive(Clone, Copy, Debug)]
pub(super) enum Effect {
    /// A piece of `kind` and colour `white` was captured on `square`.
    Captured {
        kind: u16,
        white: bool,
        square: Square,
    },
    /// The mover fell into the hole on `square`.
    Fell { square: Square },
}

/// A move a line asks for: who moves which piece type from where to
/// where, and what it promotes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
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
}

impl Move {
    /// The cell the mover stands on before the move.
    fn piece(self) -> Cell {
        Cell::Piece {
            kind: self.kind,
            white: self.white,
        }
    }
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

impl MoveLine<'_> {
    /// The move the line asks for.
    #[inline(always)]
    pub fn mv(&self) -> Move {
        Move {
            white: self.white,
            kind: self.kind,
            from: self.from,
            to: self.to,
            promote: self.promote,
        }
    }
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

impl Game {
    /// The move `mv` of source line `line` (`SYMBOL FROM -> TO [=
    /// PROMOTED]`): searches
    /// the piece type's automaton for the first legal path and, if there is
    /// one, makes the move with every effect (falling into a hole and the
    /// stack action, captures, promotion). Returns whether the move was
    /// valid.
    pub fn try_move<R: BufRead, W: Write>(
        &mut self,
        rules: &Rules,
        io: &mut Io<R, W>,
        mv: Move,
        line: u32,
    ) -> Result<bool, RuntimeError> {
        self.line = line;
        if self.board.get(mv.from) != mv.piece() {
            return Ok(false);
        }
        let goal = Goal {
            to: rules.point(mv.to),
            promote: mv.promote,
            attack: false,
        };
        let mut moves = self.moves.take().unwrap_or_default();
        let valid = self.search_move(rules, &mut moves, mv, goal);
        self.moves = Some(moves);
        let valid = valid.map_err(|kind| RuntimeError::at(kind.into(), line))?;
        if valid {
            self.commit(rules, io, mv.white, mv.kind, line)?;
        }
        Ok(valid)
    }

    /// Whether one of the paths that `moves` finds for `mv` to the goal is
    /// a legal move; if so, the move is made (its stack effects wait for
    /// [`Game::commit`]).
    fn search_move(
        &mut self,
        rules: &Rules,
        moves: &mut Search,
        mv: Move,
        goal: Goal,
    ) -> Result<bool, Refused> {
        let automaton = &rules.automata[usize::from(mv.kind)];
        let from = rules.point(mv.from);
        moves.start(rules, automaton, mv.kind, mv.white, from, rules.cols)?;
        while let Some(path) = moves.next(rules, &self.board, goal)? {
            if self.trial(rules, mv, path)? {
                return Ok(true);
            }
        }
        Ok(false)
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
        let source_line = line.line;
        self.line = source_line;
        let valid = match line.paths {
            Paths::Impossible => false,
            Paths::Listed(paths) => self.try_paths(rules, io, line.mv(), paths, source_line)?,
            Paths::FallFirst { value, paths } => self.fall_first(rules, io, line, value, paths)?,
            Paths::Searched => self.try_move(rules, io, line.mv(), source_line)?,
        };
        Ok(self.next_line(valid, line.next))
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
            return self.try_paths(rules, io, line.mv(), rest, line.line);
        }
        self.settled = false;
        if let Some(value) = value {
            self.stack_action(io, line.white, value, line.line)?;
        }
        Ok(true)
    }

    /// Like [`Game::try_move`], with the geometric paths from FROM to TO
    /// that the compiler found, in notation order, instead of a search
    /// (where each path ends, not `mv.to`, is where the piece goes).
    pub fn try_paths<R: BufRead, W: Write>(
        &mut self,
        rules: &Rules,
        io: &mut Io<R, W>,
        mv: Move,
        paths: &[Path],
        line: u32,
    ) -> Result<bool, RuntimeError> {
        let Move {
            white, kind, from, ..
        } = mv;
        if self.board.get(from) != mv.piece() {
            return Ok(false);
        }
        let in_line = |refused: Refused| RuntimeError::at(refused.into(), line);
        for path in paths {
            match self
                .board
                .allows(path, from, white, &mut self.attacks.flood)
                .map_err(in_line)?
            {
                Allowed::No => {}
                Allowed::Quietly(to) => {
                    if self.quiet_move(rules, Move { to, ..mv }).map_err(in_line)? {
                        return Ok(true);
                    }
                }
                Allowed::Yes => {
                    if self.trial(rules, mv, path.steps).map_err(in_line)? {
                        self.commit(rules, io, white, kind, line)?;
                        return Ok(true);
                    }
                }
            }
        }
        Ok(false)
    }

    /// `mv` along a path that lands on empty squares only (no hole, no
    /// capture, so no effect on the stacks): the piece goes from FROM to
    /// TO (promoted if it promotes) and stays there if the check rule
    /// allows, without the trial's undo log.
    #[inline]
    fn quiet_move(&mut self, rules: &Rules, mv: Move) -> Result<bool, Refused> {
        let Move {
            white,
            kind,
            from,
            to,
            promote,
        } = mv;
        let piece = mv.piece();
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

    /// Makes `mv` along `path` on the board, remembering how to undo it
    /// and what it does to the stacks; keeps it if the mover's royal pieces
    /// are then safe (the check rule), else undoes it.
    fn trial(&mut self, rules: &Rules, mv: Move, path: &[Step]) -> Result<bool, Refused> {
        let Move {
            white,
            kind,
            from,
            promote,
            ..
        } = mv;
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
}

#[cfg(test)]
mod tests {
    use super::super::testing::{board, io, moving, rules, searched, step_or_jump, WAZIR};
    use super::super::PieceValue;
    use super::*;

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
            .try_move(&rules, &mut io, moving(true, 0, 0, 4), 1)
            .unwrap());
        assert!(game
            .try_move(&rules, &mut io, moving(true, 0, 0, 3), 1)
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

    /// White's kind 0 on a1 (square 0) moves to square `to` of a 3×3 board
    /// with a hole on a2 (square 1), White's king (kind 1) on c3 and
    /// Black's on c1, reading 5: the game after, and whether it moved.
    fn from_a1(rules: &Rules, to: u32) -> (Game, bool) {
        let cells = board(&[(0, 0, true), (8, 1, true), (6, 1, false)], &[1]);
        let mut game = Game::new(rules, &cells);
        let valid = game.try_move(rules, &mut io(), moving(true, 0, 0, to), 1);
        (game, valid.unwrap())
    }

    #[test]
    fn falling_performs_the_stack_action_and_stops_the_path() {
        let wazir = WAZIR;
        let automata = [wazir, wazir];
        // 3 ≡ input, 4 ≡ print.
        let values = [PieceValue::Number(9), PieceValue::Royal];
        let rules = rules(&automata, &values);
        let (mut game, valid) = from_a1(&rules, 1);
        assert!(valid);
        assert_eq!(game.stack(true), &[5]);
        assert_eq!(game.cells()[1], Cell::Hole);
        assert_eq!(game.cells()[0], Cell::Empty);
        assert!(!game.skip_next());
        assert!(!game.someone_lost(&rules).unwrap());
    }

    #[test]
    fn fewer_rounds_come_first_across_the_ways_of_a_repetition() {
        // From a1 to a3 with a hole on a2: one jump (one round) comes
        // before two steps (two rounds), so the piece jumps the hole. Had
        // it fallen into a2 (value 4: print), the empty stack would be a
        // runtime error.
        for crooked in [false, true] {
            let (states, edges) = step_or_jump(crooked);
            let mover = searched(&states, &edges);
            let automata = [mover, WAZIR];
            let values = [PieceValue::Number(4), PieceValue::Royal];
            let rules = rules(&automata, &values);
            let (game, valid) = from_a1(&rules, 2);
            assert!(valid);
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
            .try_move(&rules, &mut io, moving(true, 0, 0, 1), 1)
            .unwrap());
        assert!(!game
            .try_move(&rules, &mut io, moving(true, 0, 1, 2), 1)
            .unwrap());
        assert!(!game
            .try_paths(&rules, &mut io, moving(false, 0, 5, 2), &paths, 1)
            .unwrap());
        assert_ne!(game.cells(), &before[..]);
        assert!(game
            .try_move(&rules, &mut io, moving(true, 0, 1, 0), 1)
            .unwrap());
        assert_eq!(game.cells(), &before[..]);
    }
}
