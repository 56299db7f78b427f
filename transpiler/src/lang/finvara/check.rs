//! Finvara checks: unique symbols, defined references without cycles,
//! a rectangular board of defined pieces, strict turn order, squares on the
//! board, jumps to existing turns (errors); a side without a royal piece
//! (warning).

use std::collections::{HashMap, HashSet};

use super::syntax::{Atom, Cell, MoveAction, Program, Seq, SquareRef};
use crate::diag::{Diagnostic, Diagnostics, Severity};
use crate::source::{Span, Spanned};

/// All diagnostics for `program`.
pub fn check(program: &Program) -> Diagnostics {
    let mut checker = Checker {
        program,
        defined: HashMap::new(),
        diagnostics: Diagnostics::default(),
    };
    checker.symbols();
    checker.references();
    checker.board();
    checker.moves();
    let mut diagnostics = checker.diagnostics;
    diagnostics.sort();
    diagnostics
}

/// The checks of one program, in the order they run, and what they share.
struct Checker<'a> {
    program: &'a Program,
    /// Each defined symbol and where it is first defined.
    defined: HashMap<&'a str, Span>,
    diagnostics: Diagnostics,
}

impl<'a> Checker<'a> {
    /// Every symbol defined once.
    fn symbols(&mut self) {
        for piece in &self.program.pieces {
            if let Some(first) = self.defined.get(piece.symbol.value.as_str()) {
                self.diagnostics.push(
                    Diagnostic::error(
                        format!("piece `{}` is defined twice", piece.symbol.value),
                        piece.symbol.span.clone(),
                    )
                    .with_label("defined again here")
                    .with_secondary(first.clone(), "first defined here"),
                );
            } else {
                self.defined
                    .insert(&piece.symbol.value, piece.symbol.span.clone());
            }
        }
    }

    /// `symbol`, which `what` ("moves like", "places", …), as an undefined
    /// piece, with a close defined one if there is one; built only if kept.
    fn undefined(&mut self, symbol: &Spanned<String>, what: &str) {
        if self.defined.contains_key(symbol.value.as_str()) {
            return;
        }
        let pieces = &self.program.pieces;
        self.diagnostics
            .push_with(Severity::Error, symbol.span.start, || {
                let symbols = pieces.iter().map(|p| p.symbol.value.as_str());
                let start = symbol.span.start;
                let error = Diagnostic::error(
                    format!("no piece `{}` is defined", symbol.value),
                    symbol.span.clone(),
                )
                .with_label(format!("{what} an undefined piece"));
                match crate::diag::did_you_mean(&symbol.value, symbols) {
                    Some(close) => error
                        .with_help(format!(
                            "did you mean `{close}`? (or define it: `(SYMBOL VALUE): NOTATION`)"
                        ))
                        // A board cell's span holds its colour too.
                        .with_suggestion(start..start + symbol.value.len(), close),
                    None => error.with_help("define it first: `(SYMBOL VALUE): NOTATION`"),
                }
            });
    }

    /// References and promotion targets in notations name defined pieces,
    /// and no piece moves like itself through references.
    fn references(&mut self) {
        let program = self.program;
        let mut references: HashMap<&str, Vec<&Spanned<String>>> = HashMap::new();
        for piece in &program.pieces {
            let mut found = Vec::new();
            let mut targets = Vec::new();
            collect_references(&piece.notation.value, &mut found, &mut |target| {
                targets.push(target)
            });
            // In the order they are written, as one walk would report them.
            let mut named: Vec<(&Spanned<String>, &str)> = targets
                .into_iter()
                .map(|target| (target, "promotes to"))
                .chain(found.iter().map(|reference| (*reference, "moves like")))
                .collect();
            named.sort_by_key(|(symbol, _)| symbol.span.start);
            for (symbol, what) in named {
                self.undefined(symbol, what);
            }
            references.insert(&piece.symbol.value, found);
        }
        let graph = ReferenceGraph::new(&program.pieces, &references);
        for (index, piece) in program.pieces.iter().enumerate() {
            if let Some(cycle) = graph.cycle_from(index) {
                self.diagnostics.push(
                    Diagnostic::error(
                        format!(
                            "`{}` moves like itself through {}",
                            piece.symbol.value,
                            cycle.join(" → ")
                        ),
                        piece.notation.span.clone(),
                    )
                    .with_label("a cycle of \"s\" references")
                    .with_help("a piece cannot move like a piece that (eventually) moves like it"),
                );
            }
        }
    }

    /// A board of defined pieces, with a royal piece on each side.
    fn board(&mut self) {
        let program = self.program;
        if program.rows.is_empty() {
            self.diagnostics.push(
                Diagnostic::error("the program has no board", 0..0)
                    .with_help("draw the board between piece definitions and moves: `+--+` borders and `|kW|##|  |` rows"),
            );
            return;
        }
        let mut royal_sides = [false, false];
        for row in &program.rows {
            for cell in row {
                let Cell::Piece(symbol, white) = &cell.value else {
                    continue;
                };
                match program.pieces.iter().find(|p| &p.symbol.value == symbol) {
                    None => {
                        self.undefined(&Spanned::new(symbol.clone(), cell.span.clone()), "places")
                    }
                    Some(piece) if piece.value.is_none() => royal_sides[usize::from(!white)] = true,
                    Some(_) => {}
                }
            }
        }
        for (white, name) in [(true, "White"), (false, "Black")] {
            if !royal_sides[usize::from(!white)] {
                self.diagnostics.push(
                    Diagnostic::warning(format!("{name} has no royal piece on the board"), program.board_span.clone())
                        .with_label("no royal piece of this side")
                        .with_help("a side without royal pieces has lost: the program halts after its first move line"),
                );
            }
        }
    }

    /// `square` on the board.
    fn on_board(&mut self, square: &SquareRef) {
        let rows = self.program.rows.len() as u64;
        let cols = self.program.rows.first().map_or(0, Vec::len) as u64;
        if square.row > rows || square.col == 0 || square.col > cols {
            self.diagnostics.push(
                Diagnostic::error("this square is off the board", square.span.clone())
                    .with_label(format!("the board has {rows} rows (a–{}) and {cols} columns", super::ir::row_letters(rows.max(1))))
                    .with_help("squares are row letters from the bottom, then the column number from the left: `a1` is bottom left"),
            );
        }
    }

    /// Move lines in turn order, of defined pieces, on the board, jumping
    /// to turns that exist.
    fn moves(&mut self) {
        let program = self.program;
        let white_turns: HashSet<u32> = program
            .moves
            .iter()
            .filter(|m| m.white)
            .map(|m| m.turn.value)
            .collect();
        for (index, line) in program.moves.iter().enumerate() {
            let expected_turn = index as u32 / 2 + 1;
            let expected_white = index % 2 == 0;
            if line.turn.value != expected_turn || line.white != expected_white {
                self.diagnostics.push(
                    Diagnostic::error(
                        format!(
                            "expected `Turn {expected_turn} {}` here",
                            if expected_white { "W" } else { "B" }
                        ),
                        line.turn.span.clone(),
                    )
                    .with_label("out of order")
                    .with_help("move lines run Turn 1 W, Turn 1 B, Turn 2 W, … without gaps"),
                );
            }
            self.undefined(&line.symbol, "moves");
            match &line.action {
                MoveAction::Move { from, to, promote } => {
                    self.on_board(from);
                    self.on_board(to);
                    if let Some(target) = promote {
                        self.undefined(target, "promotes to");
                    }
                }
                MoveAction::Checks { square, turn } => {
                    self.on_board(square);
                    if !white_turns.contains(&turn.value) {
                        self.diagnostics.push(
                            Diagnostic::error(
                                format!("there is no turn {}", turn.value),
                                turn.span.clone(),
                            )
                            .with_label("jump to a missing turn")
                            .with_help(format!("the program has turns 1 to {}", white_turns.len())),
                        );
                    }
                }
            }
        }
    }
}

/// The `"s"` references of a notation; promotion targets go to `target`.
pub(super) fn collect_references<'a>(
    seq: &'a Seq,
    found: &mut Vec<&'a Spanned<String>>,
    target: &mut dyn FnMut(&'a Spanned<String>),
) {
    for item in seq {
        match &item.atom {
            Atom::Like(symbol) => found.push(symbol),
            Atom::Promote(targets) => targets.iter().for_each(&mut *target),
            Atom::Any(alternatives) => alternatives
                .iter()
                .for_each(|a| collect_references(a, found, target)),
            Atom::Group(s) | Atom::Capture(s) | Atom::NoCapture(s) | Atom::Rank { seq: s, .. } => {
                collect_references(s, found, target)
            }
            Atom::Leap { .. } | Atom::CaptureHere => {}
        }
    }
}

/// The `"s"` references between piece types as a graph, with its
/// strongly connected components, so that finding which pieces move like
/// themselves costs time linear in the references (Tarjan's algorithm,
/// iterative: chains of any length never deepen the stack).
struct ReferenceGraph<'a> {
    symbols: Vec<&'a str>,
    /// The pieces each piece references, in notation order.
    edges: Vec<Vec<usize>>,
    /// Each piece's strongly connected component.
    component: Vec<usize>,
    /// How many pieces each component has.
    sizes: Vec<usize>,
}

impl<'a> ReferenceGraph<'a> {
    fn new(
        pieces: &'a [super::syntax::PieceDef],
        references: &HashMap<&str, Vec<&Spanned<String>>>,
    ) -> Self {
        let symbols: Vec<&str> = pieces.iter().map(|p| p.symbol.value.as_str()).collect();
        let mut index_of: HashMap<&str, usize> = HashMap::new();
        for (index, symbol) in symbols.iter().enumerate() {
            index_of.entry(symbol).or_insert(index);
        }
        let edges: Vec<Vec<usize>> = symbols
            .iter()
            .map(|symbol| {
                references
                    .get(symbol)
                    .into_iter()
                    .flatten()
                    .filter_map(|r| index_of.get(r.value.as_str()).copied())
                    .collect()
            })
            .collect();
        let n = symbols.len();
        const UNSEEN: usize = usize::MAX;
        let (mut order, mut low) = (vec![UNSEEN; n], vec![0; n]);
        let (mut on_stack, mut stack) = (vec![false; n], Vec::new());
        let (mut component, mut sizes) = (vec![0; n], Vec::new());
        let mut counter = 0;
        for root in 0..n {
            if order[root] != UNSEEN {
                continue;
            }
            let mut calls = vec![(root, 0)];
            (order[root], low[root]) = (counter, counter);
            counter += 1;
            stack.push(root);
            on_stack[root] = true;
            while let Some(&(node, next)) = calls.last() {
                if let Some(&to) = edges[node].get(next) {
                    if let Some(call) = calls.last_mut() {
                        call.1 += 1;
                    }
                    if order[to] == UNSEEN {
                        (order[to], low[to]) = (counter, counter);
                        counter += 1;
                        stack.push(to);
                        on_stack[to] = true;
                        calls.push((to, 0));
                    } else if on_stack[to] {
                        low[node] = low[node].min(order[to]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(caller, _)) = calls.last() {
                    low[caller] = low[caller].min(low[node]);
                }
                if low[node] == order[node] {
                    let mut size = 0;
                    while let Some(member) = stack.pop() {
                        on_stack[member] = false;
                        component[member] = sizes.len();
                        size += 1;
                        if member == node {
                            break;
                        }
                    }
                    sizes.push(size);
                }
            }
        }
        ReferenceGraph {
            symbols,
            edges,
            component,
            sizes,
        }
    }

    /// The first chain of references (in notation order) from piece
    /// `start` back to itself, if it moves like itself; long chains are
    /// shortened in the middle.
    fn cycle_from(&self, start: usize) -> Option<Vec<String>> {
        let component = self.component[start];
        if self.sizes[component] == 1 && !self.edges[start].contains(&start) {
            return None;
        }
        // A depth-first search inside the component (nothing outside it
        // leads back), as the chain is written.
        let mut frames = vec![(start, 0)];
        let mut seen = HashSet::new();
        while let Some(&(node, next)) = frames.last() {
            let Some(&to) = self.edges[node].get(next) else {
                frames.pop();
                continue;
            };
            if let Some(frame) = frames.last_mut() {
                frame.1 += 1;
            }
            if to == start {
                let mut chain: Vec<String> = frames
                    .iter()
                    .map(|&(n, _)| self.symbols[n].to_string())
                    .collect();
                chain.push(self.symbols[start].to_string());
                if chain.len() > 12 {
                    let hidden = chain.len() - 10;
                    chain.splice(5..chain.len() - 5, [format!("… ({hidden} more)")]);
                }
                return Some(chain);
            }
            if self.component[to] == component && seen.insert(to) {
                frames.push((to, 0));
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::cpu_time;
    use crate::source::Source;

    /// Piece types `p0` … `p{n-1}`, each moving like the previous one
    /// (`p0` like the last, if `ring`).
    fn chain(n: usize, ring: bool) -> String {
        let mut text = String::from("(k):\n");
        for i in 0..n {
            let previous = if i > 0 {
                format!("p{}", i - 1)
            } else {
                String::new()
            };
            let notation = match (i, ring) {
                (0, false) => "(1,0)".to_string(),
                (0, true) => format!("\"p{}\"", n - 1),
                _ => format!("\"{previous}\""),
            };
            text.push_str(&format!("(p{i} 0): {notation}\n"));
        }
        text.push_str("\n+--+--+\n|kB|  |\n+--+--+\n|kW|  |\n+--+--+\n\nTurn 1 W: k a1 -> a2\n");
        text
    }

    fn errors(text: &str) -> Vec<String> {
        let source = Source::new("t.fv", text);
        match <super::super::Stages as crate::lang::FrontEnd>::front_end(&source) {
            Ok(_) => Vec::new(),
            Err(errors) => errors.into_iter().map(|d| d.message).collect(),
        }
    }

    #[test]
    fn long_reference_chains_are_checked_in_linear_time() {
        // Quadratic, this took minutes; linear, a blink.
        // CPU time, not wall-clock time: a busy machine must not fail this.
        let timer = cpu_time::CpuTimer::start();
        assert!(errors(&chain(20_000, false)).is_empty());
        assert!(timer.elapsed().as_secs() < 20, "{:?}", timer.elapsed());
    }

    #[test]
    fn every_piece_of_a_cycle_is_named_and_long_cycles_are_shortened() {
        let found = errors(&chain(3, true));
        assert_eq!(found.len(), 3, "{found:?}");
        assert_eq!(found[0], "`p0` moves like itself through p0 → p2 → p1 → p0");
        let found = errors(&chain(50, true));
        assert_eq!(found.len(), 50);
        assert_eq!(
            found[0],
            "`p0` moves like itself through p0 → p49 → p48 → p47 → p46 → … (41 more) → p4 → p3 → p2 → p1 → p0"
        );
    }
}
