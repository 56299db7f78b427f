//! Finvara notation → path tables. For every piece type, colour and
//! square, the compiler lists the geometric paths the notation allows, in
//! notation order; at run time only occupancy is checked against them.
//!
//! Leap variants of `(a,b)` are tried in this fixed order (in the owner's
//! forward/right coordinates, duplicates removed): (a,b), (a,−b), (−a,b),
//! (−a,−b), (b,a), (b,−a), (−b,a), (−b,−a).

use std::collections::HashMap;

use chess2rs_runtime::fv::{Cell, Path, PieceValue, Step};

use super::ir::{Action, Line, Program};
use super::syntax::{self, Atom, Item, MoveAction, Repeat, Seq, Value};
use crate::diag::Diagnostic;

/// Most paths one piece type may have from one square.
pub const PATH_LIMIT: usize = 4096;

/// Most paths in all tables together.
pub const TABLE_LIMIT: usize = 100_000;

/// A path being built.
#[derive(Clone, Debug)]
struct Partial {
    row: i64,
    col: i64,
    steps: Vec<Step>,
    must_capture: bool,
    no_capture: bool,
    promote: Option<Vec<u16>>,
    /// The choices made (alternative and vector indices), for `*`.
    choices: Vec<u32>,
}

struct Geometry<'a> {
    rows: i64,
    cols: i64,
    white: bool,
    from: (i64, i64),
    notations: &'a HashMap<String, &'a Seq>,
    kinds: &'a HashMap<String, u16>,
}

type Walk = Result<Vec<Partial>, String>;

impl Geometry<'_> {
    fn square(&self, row: i64, col: i64) -> u16 {
        (row * self.cols + col) as u16
    }

    /// The owner's rank of `row`: 1 nearest the owner.
    fn rank(&self, row: i64) -> i64 {
        if self.white {
            row + 1
        } else {
            self.rows - row
        }
    }

    fn rank_matches(&self, row: i64, (a, b): (i64, i64)) -> bool {
        let resolve = |r: i64| if r < 0 { self.rows + r + 1 } else { r };
        let (a, b) = (resolve(a), resolve(b));
        let (low, high) = if a <= b { (a, b) } else { (b, a) };
        let rank = self.rank(row);
        a != 0 && b != 0 && (low..=high).contains(&rank)
    }

    fn seq(&self, seq: &[Item], start: Partial) -> Walk {
        let mut states = vec![start];
        for item in seq {
            let mut next = Vec::new();
            for state in states {
                next.extend(self.item(item, state)?);
                if next.len() > PATH_LIMIT {
                    return Err(format!("more than {PATH_LIMIT} paths"));
                }
            }
            states = next;
        }
        Ok(states)
    }

    fn item(&self, item: &Item, start: Partial) -> Walk {
        self.repeated(&item.atom, &item.repeats, start)
    }

    fn repeated(&self, atom: &Atom, repeats: &[Repeat], start: Partial) -> Walk {
        let Some((&last, earlier)) = repeats.split_last() else {
            return self.atom(atom, start);
        };
        let once = |state: Partial| self.repeated(atom, earlier, state);
        let limit = (self.rows * self.cols) as usize + 1;
        let mut out = Vec::new();
        match last {
            Repeat::Same => {
                let base_len = start.choices.len();
                for way in once(start)? {
                    let pattern = way.choices[base_len..].to_vec();
                    let mut current = way;
                    for _ in 0..limit {
                        out.push(current.clone());
                        let before = current.choices.len();
                        let next = once(current)?
                            .into_iter()
                            .find(|n| n.choices[before..] == pattern[..]);
                        match next {
                            Some(next) => current = next,
                            None => break,
                        }
                    }
                }
            }
            Repeat::Any => {
                let steps_before = start.steps.len();
                let mut level = once(start)?;
                for _ in 0..limit {
                    if level.is_empty() {
                        break;
                    }
                    out.extend(level.iter().cloned());
                    let mut next = Vec::new();
                    for state in level {
                        // A crooked path that lands twice on one square
                        // reaches nothing a shorter one does not: skip it.
                        let visited: Vec<u16> = state.steps[steps_before..]
                            .iter()
                            .map(|s| s.square)
                            .collect();
                        next.extend(once(state)?.into_iter().filter(|n| {
                            n.steps
                                .last()
                                .is_some_and(|last| !visited.contains(&last.square))
                        }));
                        if next.len() + out.len() > PATH_LIMIT {
                            return Err(format!("more than {PATH_LIMIT} paths"));
                        }
                    }
                    level = next;
                }
                for state in &mut out {
                    let len = state.steps.len();
                    for step in &mut state.steps[steps_before..len.saturating_sub(1)] {
                        step.no_hole = true;
                    }
                }
            }
        }
        if out.len() > PATH_LIMIT {
            return Err(format!("more than {PATH_LIMIT} paths"));
        }
        Ok(out)
    }

    fn atom(&self, atom: &Atom, start: Partial) -> Walk {
        match atom {
            Atom::Leap { a, b, dirs } => {
                let mut vectors: Vec<(i64, i64)> = Vec::new();
                for v in [
                    (*a, *b),
                    (*a, -b),
                    (-a, *b),
                    (-a, -b),
                    (*b, *a),
                    (*b, -a),
                    (-b, *a),
                    (-b, -a),
                ] {
                    let keep = match dirs {
                        None => true,
                        Some([up, down, right, left]) => {
                            (*up && v.0 > 0)
                                || (*down && v.0 < 0)
                                || (*right && v.1 > 0)
                                || (*left && v.1 < 0)
                        }
                    };
                    if keep && !vectors.contains(&v) {
                        vectors.push(v);
                    }
                }
                let mut out = Vec::new();
                for (i, (forward, right)) in vectors.into_iter().enumerate() {
                    let (dr, dc) = if self.white {
                        (forward, right)
                    } else {
                        (-forward, -right)
                    };
                    let (row, col) = (start.row + dr, start.col + dc);
                    if row < 0
                        || col < 0
                        || row >= self.rows
                        || col >= self.cols
                        || (row, col) == self.from
                    {
                        continue;
                    }
                    let mut next = start.clone();
                    next.row = row;
                    next.col = col;
                    next.steps.push(Step {
                        square: self.square(row, col),
                        capture: false,
                        no_hole: false,
                    });
                    next.choices.push(i as u32);
                    out.push(next);
                }
                Ok(out)
            }
            Atom::Any(alternatives) => {
                let mut out = Vec::new();
                for (i, alternative) in alternatives.iter().enumerate() {
                    let mut branch = start.clone();
                    branch.choices.push(i as u32);
                    out.extend(self.seq(alternative, branch)?);
                }
                Ok(out)
            }
            Atom::Group(seq) => self.seq(seq, start),
            Atom::Capture(seq) => Ok(self
                .seq(seq, start)?
                .into_iter()
                .map(|mut s| {
                    s.must_capture = true;
                    s
                })
                .collect()),
            Atom::NoCapture(seq) => Ok(self
                .seq(seq, start)?
                .into_iter()
                .map(|mut s| {
                    s.no_capture = true;
                    s
                })
                .collect()),
            Atom::Rank {
                seq,
                ranks,
                negated,
            } => {
                if self.rank_matches(start.row, *ranks) != *negated {
                    self.seq(seq, start)
                } else {
                    Ok(Vec::new())
                }
            }
            Atom::Like(symbol) => match self.notations.get(&symbol.value) {
                Some(seq) => self.seq(seq, start),
                None => Ok(Vec::new()),
            },
            Atom::CaptureHere => {
                let mut next = start;
                match next.steps.last_mut() {
                    Some(step) => {
                        step.capture = true;
                        Ok(vec![next])
                    }
                    // Capturing on the starting square: the piece itself.
                    None => Ok(Vec::new()),
                }
            }
            Atom::Promote(targets) => {
                let mut next = start;
                let targets: Vec<u16> = targets
                    .iter()
                    .filter_map(|t| self.kinds.get(&t.value).copied())
                    .collect();
                next.promote = Some(targets);
                Ok(vec![next])
            }
        }
    }
}

/// Lowers a checked program (symbols defined, references acyclic, squares
/// on the board, turns in order).
pub fn lower(program: &syntax::Program, source_name: &str) -> Result<Program, Diagnostic> {
    let rows = program.rows.len() as i64;
    let cols = program.rows.first().map_or(0, Vec::len) as i64;
    let kinds: HashMap<String, u16> = program
        .pieces
        .iter()
        .enumerate()
        .map(|(i, p)| (p.symbol.value.clone(), i as u16))
        .collect();
    let notations: HashMap<String, &Seq> = program
        .pieces
        .iter()
        .map(|p| (p.symbol.value.clone(), &p.notation.value))
        .collect();
    let mut board = Vec::new();
    for row in program.rows.iter().rev() {
        for cell in row {
            board.push(match &cell.value {
                syntax::Cell::Empty => Cell::Empty,
                syntax::Cell::Hole => Cell::Hole,
                syntax::Cell::Piece(symbol, white) => Cell::Piece {
                    kind: kinds[symbol],
                    white: *white,
                },
            });
        }
    }
    let mut out = Program {
        rows: rows as u16,
        cols: cols as u16,
        board,
        symbols: program
            .pieces
            .iter()
            .map(|p| p.symbol.value.clone())
            .collect(),
        values: program
            .pieces
            .iter()
            .map(|p| match p.value {
                None => PieceValue::Royal,
                Some(Value::Number(n)) => PieceValue::Number(n),
                Some(Value::X) => PieceValue::X,
                Some(Value::Y) => PieceValue::Y,
            })
            .collect(),
        steps: Vec::new(),
        paths: Vec::new(),
        targets: Vec::new(),
        index: Vec::new(),
        lines: Vec::new(),
        source_name: source_name.to_string(),
    };
    for piece in &program.pieces {
        for white in [true, false] {
            for row in 0..rows {
                for col in 0..cols {
                    let geometry = Geometry {
                        rows,
                        cols,
                        white,
                        from: (row, col),
                        notations: &notations,
                        kinds: &kinds,
                    };
                    let start = Partial {
                        row,
                        col,
                        steps: Vec::new(),
                        must_capture: false,
                        no_capture: false,
                        promote: None,
                        choices: Vec::new(),
                    };
                    let paths = geometry.seq(&piece.notation.value, start).map_err(|why| {
                        Diagnostic::error(
                            format!(
                                "the moves of `{}` are too many to list: {why} from one square",
                                piece.symbol.value
                            ),
                            piece.notation.span.clone(),
                        )
                        .with_label("this notation")
                        .with_help("limit the repetitions (`*`, `` ` ``) or use a smaller board")
                    })?;
                    if out.paths.len() + paths.len() > TABLE_LIMIT {
                        return Err(Diagnostic::error(
                            format!("the pieces' moves on this board are too many to list (more than {TABLE_LIMIT} paths)"),
                            piece.notation.span.clone(),
                        )
                        .with_label("listing stopped at this piece")
                        .with_help("limit the repetitions (`*`, `` ` ``) or use a smaller board"));
                    }
                    let first = out.paths.len() as u32;
                    for path in &paths {
                        let first_step = out.steps.len() as u32;
                        out.steps.extend(path.steps.iter().copied());
                        let first_target = out.targets.len() as u32;
                        out.targets.extend(path.promote.iter().flatten().copied());
                        out.paths.push(Path {
                            first_step,
                            steps: path.steps.len() as u16,
                            end: geometry.square(path.row, path.col),
                            must_capture: path.must_capture,
                            no_capture: path.no_capture,
                            promotes: path.promote.is_some(),
                            first_target,
                            targets: path.promote.as_ref().map_or(0, Vec::len) as u16,
                        });
                    }
                    out.index.push((first, paths.len() as u32));
                }
            }
        }
    }
    let square = |s: &syntax::SquareRef| ((s.row - 1) as i64 * cols + (s.col - 1) as i64) as u16;
    let first_line_of_turn: HashMap<u32, u32> = program
        .moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.white)
        .map(|(i, m)| (m.turn.value, i as u32))
        .collect();
    for line in &program.moves {
        let kind = kinds[&line.symbol.value];
        let action = match &line.action {
            MoveAction::Move { from, to, promote } => Action::Move {
                from: square(from),
                to: square(to),
                promote: promote.as_ref().map(|p| kinds[&p.value]),
            },
            MoveAction::Checks { square: at, turn } => Action::Checks {
                square: square(at),
                target: first_line_of_turn[&turn.value],
            },
        };
        out.lines.push(Line {
            source_line: line.source_line,
            text: line.text.clone(),
            white: line.white,
            kind,
            action,
        });
    }
    Ok(out)
}
