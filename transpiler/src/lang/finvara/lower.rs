//! Finvara syntax tree → IR: every piece type's notation becomes an
//! automaton ([`super::automaton`]), symbols and squares become indices,
//! and each move line gets the geometric paths from its FROM to its TO when
//! they are few enough to list (else its move is searched at run time).
//! Every lowering error is reported, not only the first.

use std::collections::HashMap;

use chess2rs_runtime::__private::fv::{Cell, PieceValue};

use super::automaton::{self, Context, MoveQuery};
use super::check::collect_references;
use super::classes::{attack_lines, pack, AttackLine, ClassContext};
use super::ir::{Action, Line, Piece, Program};
use super::syntax::{self, MoveAction, Seq, Value};
use crate::diag::Diagnostics;
use crate::source::Source;

/// Lowers a checked program (symbols defined, references acyclic, squares
/// on the board, turns in order).
pub fn lower(program: &syntax::Program, source: &Source) -> Result<Program, Diagnostics> {
    let (rows, cols) = size(program);
    let kinds = kinds(program);
    let automata = automata(program, &kinds, rows, cols)?;
    let board = board(program, &kinds);
    let lines = move_lines(program, &kinds, &automata, rows, cols);
    let pieces = pieces(program, automata, source);
    Ok(Program {
        rows,
        cols,
        board,
        pieces,
        lines,
        source_name: source.name().to_string(),
    })
}

/// The board's rows and columns.
fn size(program: &syntax::Program) -> (u32, u32) {
    let rows = program.rows.len() as u32;
    (rows, program.rows.first().map_or(0, Vec::len) as u32)
}

/// What lowering reports of a checked program's pieces, whatever its move
/// lines (the automata of their notations, which lowering builds first).
pub(super) fn pieces_errors(program: &syntax::Program) -> Option<Diagnostics> {
    let (rows, cols) = size(program);
    automata(program, &kinds(program), rows, cols).err()
}

/// Each piece type's index, by symbol (definition order).
pub(super) fn kinds(program: &syntax::Program) -> HashMap<String, u16> {
    program
        .pieces
        .iter()
        .enumerate()
        .map(|(i, p)| (p.symbol.value.clone(), i as u16))
        .collect()
}

/// Each piece type's automaton, in definition order, with how it attacks;
/// referenced pieces are built first, so that `"s"` copies a finished
/// automaton.
pub(super) fn automata(
    program: &syntax::Program,
    kinds: &HashMap<String, u16>,
    rows: u32,
    cols: u32,
) -> Result<Vec<automaton::Automaton>, Diagnostics> {
    let notations: HashMap<String, &Seq> = program
        .pieces
        .iter()
        .map(|p| (p.symbol.value.clone(), &p.notation.value))
        .collect();
    let symbols: Vec<String> = program
        .pieces
        .iter()
        .map(|p| p.symbol.value.clone())
        .collect();
    let mut errors = Diagnostics::default();
    let mut built: HashMap<String, automaton::Automaton> = HashMap::new();
    let mut edges_so_far = 0;
    // How each piece type attacks, when along lines (see `classes`).
    let mut classes: HashMap<String, Option<Vec<AttackLine>>> = HashMap::new();
    for index in build_order(program) {
        let piece = &program.pieces[index];
        let context = Context {
            notations: &notations,
            built: &built,
            kinds,
            symbols: &symbols,
            rows,
            cols,
            edges_so_far,
        };
        let automaton = automaton::build(&piece.notation.value, &context, &piece.notation.span)
            .unwrap_or_else(|error| {
                errors.push(error);
                automaton::Automaton::default()
            });
        if errors.has_errors() {
            // Past the limit, every later piece would be refused too.
            return Err(errors);
        }
        edges_so_far += automaton.edges.len();
        let class_context = ClassContext {
            classes: &classes,
            rows,
            cols,
        };
        let class = attack_lines(&piece.notation.value, &class_context);
        let (attacks, bends) = match &class {
            Some(lines) => {
                let (rays, bends) = pack(lines);
                (Some(rays), bends)
            }
            None => (None, Vec::new()),
        };
        classes.insert(piece.symbol.value.clone(), class);
        let mut automaton = automaton;
        automaton.moves.attacks = attacks;
        automaton.moves.bends = bends;
        built.insert(piece.symbol.value.clone(), automaton);
    }
    Ok(program
        .pieces
        .iter()
        .map(|piece| built.remove(&piece.symbol.value).unwrap_or_default())
        .collect())
}

/// The board's cells, bottom row first.
fn board(program: &syntax::Program, kinds: &HashMap<String, u16>) -> Vec<Cell> {
    let cols = program.rows.first().map_or(0, Vec::len);
    let mut board = Vec::with_capacity(program.rows.len() * cols);
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
    board
}

/// The move lines, each move with its paths listed.
fn move_lines(
    program: &syntax::Program,
    kinds: &HashMap<String, u16>,
    automata: &[automaton::Automaton],
    rows: u32,
    cols: u32,
) -> Vec<Line> {
    let square = |s: &syntax::SquareRef| ((s.row - 1) * u64::from(cols) + (s.col - 1)) as u32;
    let first_line_of_turn: HashMap<u32, u32> = program
        .moves
        .iter()
        .enumerate()
        .filter(|(_, m)| m.white)
        .map(|(i, m)| (m.turn.value, i as u32))
        .collect();
    let mut lines = Vec::with_capacity(program.moves.len());
    // Each distinct move's paths, listed once.
    let mut listed = HashMap::new();
    for line in &program.moves {
        let kind = kinds[&line.symbol.value];
        let action = match &line.action {
            MoveAction::Move { from, to, promote } => {
                let query = MoveQuery {
                    rows,
                    cols,
                    white: line.white,
                    kind,
                    from: square(from),
                    to: square(to),
                    promote: promote.as_ref().map(|p| kinds[&p.value]),
                };
                Action::Move {
                    from: query.from,
                    to: query.to,
                    promote: query.promote,
                    paths: listed
                        .entry((query.white, query.kind, query.from, query.to, query.promote))
                        .or_insert_with(|| {
                            automaton::list_paths(automata, query).map(std::sync::Arc::new)
                        })
                        .clone(),
                }
            }
            MoveAction::Checks { square: at, turn } => Action::Checks {
                square: square(at),
                target: first_line_of_turn[&turn.value],
            },
        };
        lines.push(Line {
            source_line: line.source_line,
            span: line.span.clone(),
            text: line.text.clone(),
            white: line.white,
            kind,
            action,
        });
    }
    lines
}

/// The piece types with their values, notations as written and automata.
fn pieces(
    program: &syntax::Program,
    automata: Vec<automaton::Automaton>,
    source: &Source,
) -> Vec<Piece> {
    let mut pieces = Vec::new();
    for (piece, automaton) in program.pieces.iter().zip(automata) {
        let written = source
            .text()
            .get(piece.notation.span.clone())
            .unwrap_or_default();
        pieces.push(Piece {
            symbol: piece.symbol.value.clone(),
            value: match piece.value {
                None => PieceValue::Royal,
                Some(Value::Number(n)) => PieceValue::Number(n),
                Some(Value::X) => PieceValue::X,
                Some(Value::Y) => PieceValue::Y,
            },
            notation: written.split_whitespace().collect(),
            automaton,
        });
    }
    pieces
}

/// The pieces in an order where every piece comes after those it moves
/// like (`"s"`); references are acyclic (checked). Iterative, so chains of
/// any length are fine.
fn build_order(program: &syntax::Program) -> Vec<usize> {
    let index: HashMap<&str, usize> = program
        .pieces
        .iter()
        .enumerate()
        .map(|(i, p)| (p.symbol.value.as_str(), i))
        .collect();
    let references: Vec<Vec<usize>> = program
        .pieces
        .iter()
        .map(|piece| {
            let mut found = Vec::new();
            collect_references(&piece.notation.value, &mut found, &mut |_| {});
            found
                .iter()
                .filter_map(|symbol| index.get(symbol.value.as_str()).copied())
                .collect()
        })
        .collect();
    let mut order = Vec::with_capacity(program.pieces.len());
    let mut placed = vec![false; program.pieces.len()];
    let mut on_stack = vec![false; program.pieces.len()];
    for root in 0..program.pieces.len() {
        if placed[root] {
            continue;
        }
        // (piece, next reference to visit)
        let mut stack = vec![(root, 0usize)];
        on_stack[root] = true;
        while let Some(&mut (piece, ref mut next)) = stack.last_mut() {
            if let Some(&dependency) = references[piece].get(*next) {
                *next += 1;
                if !placed[dependency] && !on_stack[dependency] {
                    on_stack[dependency] = true;
                    stack.push((dependency, 0));
                }
                continue;
            }
            placed[piece] = true;
            on_stack[piece] = false;
            order.push(piece);
            stack.pop();
        }
    }
    order
}
