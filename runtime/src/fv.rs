//! Finvara at run time: a flat board of fixed size, the two stacks, and
//! move validation against path tables that the compiler built from each
//! piece type's notation (the notation itself never reaches run time).

use std::io::{BufRead, Write};

use super::error::{ErrorKind, RuntimeError};
use super::io::Io;

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

/// One landing square of a path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The square (row * columns + column, row 0 at the bottom).
    pub square: u16,
    /// `x` after landing: capture the enemy here and go on.
    pub capture: bool,
    /// Part of a crooked rider before its end: may not be a hole.
    pub no_hole: bool,
}

/// One geometric path of a piece type from a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path {
    /// Index of its first step in [`Tables::steps`].
    pub first_step: u32,
    /// Number of steps (0: promotion only).
    pub steps: u16,
    /// Where it ends.
    pub end: u16,
    /// `c(..)`: must end by capturing.
    pub must_capture: bool,
    /// `m(..)`: must not capture at all.
    pub no_capture: bool,
    /// Whether it promotes.
    pub promotes: bool,
    /// Index of its allowed targets in [`Tables::targets`].
    pub first_target: u32,
    /// Number of allowed targets (0: any other piece type).
    pub targets: u16,
}

/// The paths of every piece type, colour and square, built by the compiler.
#[derive(Clone, Copy, Debug)]
pub struct Tables<'a> {
    /// All steps.
    pub steps: &'a [Step],
    /// All paths.
    pub paths: &'a [Path],
    /// All promotion targets.
    pub targets: &'a [u16],
    /// For `(kind * 2 + black) * cells + square`: the range of its paths.
    pub index: &'a [(u32, u32)],
    /// Every piece type's value.
    pub values: &'a [PieceValue],
    /// Board columns.
    pub cols: u16,
    /// Board rows.
    pub rows: u16,
}

impl Tables<'_> {
    fn paths_of(&self, kind: u16, white: bool, square: u16) -> &[Path] {
        let cells = usize::from(self.cols) * usize::from(self.rows);
        let slot = (usize::from(kind) * 2 + usize::from(!white)) * cells + usize::from(square);
        let (first, count) = self.index[slot];
        &self.paths[first as usize..(first + count) as usize]
    }

    fn steps_of(&self, path: &Path) -> &[Step] {
        &self.steps[path.first_step as usize..path.first_step as usize + usize::from(path.steps)]
    }
}

/// The board and the stacks.
#[derive(Clone, Debug)]
pub struct Game {
    cells: Vec<Cell>,
    stacks: [Vec<i64>; 2],
}

fn stack_index(white: bool) -> usize {
    usize::from(!white)
}

impl Game {
    /// A game starting from `cells` (row 0 first).
    pub fn new(cells: &[Cell]) -> Self {
        Game {
            cells: cells.to_vec(),
            stacks: [Vec::new(), Vec::new()],
        }
    }

    /// The cells, row 0 (the bottom row) first.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// A colour's stack, bottom first.
    pub fn stack(&self, white: bool) -> &[i64] {
        &self.stacks[stack_index(white)]
    }

    /// After an invalid move: whether the next move line is skipped (each
    /// stack empty or with 0 on top).
    pub fn skip_next(&self) -> bool {
        self.stacks
            .iter()
            .all(|s| s.last().is_none_or(|&top| top == 0))
    }

    /// `SYMBOL SQUARE checks turn M`: places a piece if the square is empty.
    pub fn place(&mut self, kind: u16, white: bool, square: u16) {
        if self.cells[usize::from(square)] == Cell::Empty {
            self.cells[usize::from(square)] = Cell::Piece { kind, white };
        }
    }

    /// `SYMBOL FROM -> TO [= PROMOTED]` for `white` (true) or black:
    /// validates against the tables and, if valid, moves with every effect
    /// (falling into holes and the stack action, captures, promotion).
    /// Returns whether the move was valid.
    #[allow(clippy::too_many_arguments)]
    pub fn try_move<R: BufRead, W: Write>(
        &mut self,
        tables: &Tables,
        io: &mut Io<R, W>,
        white: bool,
        kind: u16,
        from: u16,
        to: u16,
        promote: Option<u16>,
        line: u32,
    ) -> Result<bool, RuntimeError> {
        if self.cells[usize::from(from)] != (Cell::Piece { kind, white }) {
            return Ok(false);
        }
        for path in tables.paths_of(kind, white, from) {
            if path.end != to || !self.path_fits(tables, path, white, from) {
                continue;
            }
            if !promotion_matches(tables, path, kind, promote) {
                continue;
            }
            // The check rule: try it on a copy of the board.
            let mut after = self.clone();
            after.apply(
                tables,
                path,
                white,
                kind,
                from,
                promote,
                None::<&mut Io<R, W>>,
                line,
            )?;
            if after.royals_attacked(tables, white) {
                continue;
            }
            self.apply(tables, path, white, kind, from, promote, Some(io), line)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// Whether the path can be taken on this board (occupancy rules, c/m).
    fn path_fits(&self, tables: &Tables, path: &Path, white: bool, from: u16) -> bool {
        let steps = tables.steps_of(path);
        let mut captures = false;
        for (i, step) in steps.iter().enumerate() {
            let last = i + 1 == steps.len();
            let cell = self.cells[usize::from(step.square)];
            if step.square == from {
                return false;
            }
            let enemy = matches!(cell, Cell::Piece { white: w, .. } if w != white);
            match cell {
                Cell::Hole if step.no_hole => return false,
                Cell::Hole => {}
                Cell::Empty => {
                    if step.capture {
                        return false;
                    }
                }
                Cell::Piece { .. } => {
                    if !enemy || !(step.capture || last) {
                        return false;
                    }
                    captures = true;
                }
            }
        }
        let ends_capturing = steps.last().is_some_and(|s| {
            matches!(self.cells[usize::from(s.square)], Cell::Piece { white: w, .. } if w != white)
        });
        if path.must_capture && !ends_capturing {
            return false;
        }
        !(path.no_capture && captures)
    }

    /// Makes a fitting move. Without `io` (the check-rule trial), stack
    /// actions are left out: they cannot change who is attacked.
    #[allow(clippy::too_many_arguments)]
    fn apply<R: BufRead, W: Write>(
        &mut self,
        tables: &Tables,
        path: &Path,
        white: bool,
        kind: u16,
        from: u16,
        promote: Option<u16>,
        mut io: Option<&mut Io<R, W>>,
        line: u32,
    ) -> Result<(), RuntimeError> {
        self.cells[usize::from(from)] = Cell::Empty;
        let steps = tables.steps_of(path);
        for step in steps {
            let square = step.square;
            match self.cells[usize::from(square)] {
                Cell::Hole => {
                    if let Some(io) = io.as_mut() {
                        let value = value_at(tables, kind, square);
                        if let Some(value) = value {
                            self.stack_action(*io, white, value, line)?;
                        }
                    }
                    return Ok(());
                }
                Cell::Piece {
                    kind: victim,
                    white: victim_white,
                } if victim_white != white => {
                    if let Some(value) = value_at(tables, victim, square) {
                        self.stacks[stack_index(victim_white)].push(value);
                    }
                    self.cells[usize::from(square)] = Cell::Empty;
                }
                _ => {}
            }
        }
        let end = path.end;
        let kind = promote.unwrap_or(kind);
        self.cells[usize::from(end)] = Cell::Piece { kind, white };
        Ok(())
    }

    fn stack_action<R: BufRead, W: Write>(
        &mut self,
        io: &mut Io<R, W>,
        white: bool,
        value: i64,
        line: u32,
    ) -> Result<(), RuntimeError> {
        let action = value.rem_euclid(6);
        let stack = &mut self.stacks[stack_index(white)];
        let need = match action {
            0..=2 => 2,
            4 | 5 => 1,
            _ => 0,
        };
        if stack.len() < need {
            let colour = if white { "white" } else { "black" };
            return Err(RuntimeError::at(
                ErrorKind::Other {
                    message: format!(
                        "stack action {action} needs {need} value{} on the {colour} stack, which has {}",
                        if need == 1 { "" } else { "s" },
                        stack.len()
                    ),
                },
                line,
            ));
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
                let result = result.ok_or_else(|| {
                    let op = if action == 0 { "+" } else { "-" };
                    RuntimeError::at(
                        ErrorKind::Overflow {
                            what: format!("{a} {op} {b}"),
                        },
                        line,
                    )
                })?;
                stack.push(result);
            }
            3 => {
                let value = io.read_i64(line)?;
                self.stacks[stack_index(white)].push(value);
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

    /// Whether `square` is attacked by a piece of the colour other than
    /// `white`: a path ending with a capture there, landing on no hole.
    fn attacked(&self, tables: &Tables, square: u16, white: bool) -> bool {
        self.cells.iter().enumerate().any(|(from, cell)| {
            let Cell::Piece { kind, white: w } = *cell else {
                return false;
            };
            if w == white {
                return false;
            }
            let from = from as u16;
            tables.paths_of(kind, w, from).iter().any(|path| {
                path.end == square
                    && tables
                        .steps_of(path)
                        .iter()
                        .all(|s| self.cells[usize::from(s.square)] != Cell::Hole)
                    && self.path_fits(tables, path, w, from)
            })
        })
    }

    fn royals(&self, tables: &Tables, white: bool) -> Vec<u16> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, cell)| match *cell {
                Cell::Piece { kind, white: w }
                    if w == white && tables.values[usize::from(kind)] == PieceValue::Royal =>
                {
                    Some(i as u16)
                }
                _ => None,
            })
            .collect()
    }

    fn royals_attacked(&self, tables: &Tables, white: bool) -> bool {
        self.royals(tables, white)
            .into_iter()
            .any(|square| self.attacked(tables, square, white))
    }

    /// Whether a player has lost: no royal piece, or all attacked.
    pub fn someone_lost(&self, tables: &Tables) -> bool {
        [true, false].iter().any(|&white| {
            let royals = self.royals(tables, white);
            royals.is_empty() || royals.iter().all(|&sq| self.attacked(tables, sq, white))
        })
    }
}

/// The value a piece of `kind` has on `square` (`None` for royals).
fn value_at(tables: &Tables, kind: u16, square: u16) -> Option<i64> {
    let cols = tables.cols.max(1);
    match tables.values[usize::from(kind)] {
        PieceValue::Royal => None,
        PieceValue::Number(n) => Some(n),
        PieceValue::X => Some(i64::from(square % cols) + 1),
        PieceValue::Y => Some(i64::from(square / cols) + 1),
    }
}

fn promotion_matches(tables: &Tables, path: &Path, kind: u16, promote: Option<u16>) -> bool {
    match (path.promotes, promote) {
        (false, None) => true,
        (true, Some(target)) => {
            let allowed = &tables.targets[path.first_target as usize
                ..path.first_target as usize + usize::from(path.targets)];
            if allowed.is_empty() {
                target != kind
            } else {
                allowed.contains(&target)
            }
        }
        _ => false,
    }
}
