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

use super::error::RuntimeError;
use super::memory::Refused;

mod automaton;
mod board;
#[cfg(feature = "test-hooks")]
mod hooks;
mod moves;
mod reach;
mod repeat;
mod rules;
mod search;
mod stacks;
mod stamps;
pub mod table;
#[cfg(test)]
mod testing;
mod visited;

pub use self::automaton::*;
use self::board::{side, Board};
use self::moves::Effect;
pub use self::moves::{Move, MoveLine, Paths};
pub use self::rules::*;
use self::search::Search;
pub use self::search::MAX_EDGES;

type Undo = (Square, Cell);

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
        self.board.cells()
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
            let royals = self.board.royal_count(white);
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
}
