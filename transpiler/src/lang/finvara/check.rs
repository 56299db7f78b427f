//! Finvara checks: unique symbols, defined references without cycles,
//! a rectangular board of defined pieces, strict turn order, squares on the
//! board, jumps to existing turns (errors); a side without a royal piece
//! (warning).
//!
//! The move lines are checked from what the checks read of each
//! ([`MoveFact`]), made from a parsed program or kept line by line for
//! the language server (`super::lines`), so that both report the same
//! diagnostics; each is built from its line only if it is kept.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use super::syntax::{Atom, Cell, MoveAction, MoveLine, Program, Seq, SquareRef};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::source::{Span, Spanned};

/// All diagnostics for `program`.
pub fn check(program: &Program) -> Diagnostics {
    let mut checker = Checker::new(program);
    let moves = &program.moves;
    let facts = || {
        (moves.iter().enumerate())
            .map(|(index, line)| (index, line.span.start, MoveFact::of(line, line.span.start)))
    };
    let turns = Turns::of((moves.iter()).filter_map(|line| line.white.then_some(line.turn.value)));
    checker.moves(facts(), &turns, &Parsed(moves));
    checker.finish()
}

/// The checks of one program, in the order they run, and what they share.
pub(super) struct Checker<'a> {
    program: &'a Program,
    /// Each defined symbol and where it is first defined.
    defined: HashMap<&'a str, Span>,
    /// The defined symbols of at most 8 bytes, as [`SymbolKey`]s, sorted.
    defined_keys: Vec<SymbolKey>,
    diagnostics: Diagnostics,
}

impl<'a> Checker<'a> {
    /// The checks of `program`, those of its pieces and board done: the
    /// move lines are checked next, from the program or from the facts an
    /// editor keeps of them ([`Checker::moves`]).
    pub(super) fn new(program: &'a Program) -> Self {
        let mut checker = Checker {
            program,
            defined: HashMap::new(),
            defined_keys: Vec::new(),
            diagnostics: Diagnostics::default(),
        };
        checker.symbols();
        checker.references();
        checker.board();
        let keys = checker.defined.keys().map(|symbol| SymbolKey::of(symbol));
        checker.defined_keys = keys.filter(SymbolKey::is_short).collect();
        checker.defined_keys.sort_unstable();
        checker
    }

    /// Everything found, in source order.
    pub(super) fn finish(self) -> Diagnostics {
        let mut diagnostics = self.diagnostics;
        diagnostics.sort();
        diagnostics
    }

    /// Every symbol defined once.
    fn symbols(&mut self) {
        for piece in &self.program.pieces {
            if let Some(first) = self.defined.get(piece.symbol.value.as_str()) {
                self.diagnostics.push(
                    Diagnostic::error(
                        Code::FvDefinedTwice,
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
                undefined_piece(symbol, what, pieces)
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
                        Code::FvMovesLikeItself,
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
                Diagnostic::error(Code::FvNoBoard, "the program has no board", 0..0)
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
                    Diagnostic::warning(Code::FvNoRoyal, format!("{name} has no royal piece on the board"), program.board_span.clone())
                        .with_label("no royal piece of this side")
                        .with_help("a side without royal pieces has lost: the program halts after its first move line"),
                );
            }
        }
    }

    /// Whether the symbol `key` at byte `at` of move line `line` is
    /// defined.
    fn is_defined(&self, key: SymbolKey, at: usize, line: usize, lines: &dyn MoveLines) -> bool {
        if key.is_short() {
            self.defined_keys.binary_search(&key).is_ok()
        } else {
            self.defined.contains_key(lines.symbol_at(line, at))
        }
    }

    /// Adds the error at byte `at` of move line `line` that `build` makes
    /// of the line parsed, built only if kept.
    fn push_about(
        &mut self,
        at: usize,
        line: usize,
        lines: &dyn MoveLines,
        build: impl FnOnce(&MoveLine) -> Option<Diagnostic>,
    ) {
        self.diagnostics.push_with(Severity::Error, at, || {
            lines
                .line(line)
                .as_deref()
                .and_then(build)
                // Not so while the facts are the lines'.
                .unwrap_or_else(|| {
                    Diagnostic::error(Code::FvSyntax, "this move line does not read", at..at)
                })
        });
    }

    /// Move lines in turn order, of defined pieces, on the board, jumping
    /// to turns that exist: each line's facts with the line (a handle for
    /// `lines`) and where their offsets count from; `turns` is what the
    /// white lines are.
    pub(super) fn moves(
        &mut self,
        facts: impl Iterator<Item = (usize, usize, MoveFact)>,
        turns: &Turns,
        lines: &dyn MoveLines,
    ) {
        let program = self.program;
        let rows = program.rows.len() as u64;
        let cols = program.rows.first().map_or(0, Vec::len) as u64;
        let off_board = |square: SquareFact| {
            let (row, col) = (u64::from(square.row), u64::from(square.col));
            row > rows || col == 0 || col > cols
        };
        let off_board_error = |square: &SquareRef| {
            Diagnostic::error(Code::FvOffTheBoard, "this square is off the board", square.span.clone())
                .with_label(format!("the board has {rows} rows (a–{}) and {cols} columns", super::ir::row_letters(rows.max(1))))
                .with_help("squares are row letters from the bottom, then the column number from the left: `a1` is bottom left")
        };
        let undefined =
            |symbol: &Spanned<String>, what: &str| undefined_piece(symbol, what, &program.pieces);
        for (index, (line, base, fact)) in facts.enumerate() {
            let expected_turn = index as u32 / 2 + 1;
            let expected_white = index % 2 == 0;
            if fact.turn != expected_turn || fact.white != expected_white {
                self.push_about(base + fact.turn_at as usize, line, lines, |parsed| {
                    let colour = if expected_white { "W" } else { "B" };
                    let message = format!("expected `Turn {expected_turn} {colour}` here");
                    Some(
                        Diagnostic::error(
                            Code::FvTurnOutOfOrder,
                            message,
                            parsed.turn.span.clone(),
                        )
                        .with_label("out of order")
                        .with_help("move lines run Turn 1 W, Turn 1 B, Turn 2 W, … without gaps"),
                    )
                });
            }
            let at = base + fact.symbol_at as usize;
            if !self.is_defined(fact.symbol, at, line, lines) {
                self.push_about(at, line, lines, |parsed| {
                    Some(undefined(&parsed.symbol, "moves"))
                });
            }
            let square = |parsed: &MoveLine, which: usize| match &parsed.action {
                MoveAction::Move { from, to, .. } => {
                    [from, to].get(which).map(|s| off_board_error(s))
                }
                MoveAction::Checks { square, .. } => Some(off_board_error(square)),
            };
            match fact.action {
                ActionFact::Move { from, to, promote } => {
                    for (which, on) in [from, to].into_iter().enumerate() {
                        if off_board(on) {
                            self.push_about(base + on.at as usize, line, lines, |parsed| {
                                square(parsed, which)
                            });
                        }
                    }
                    let Some((key, at)) = promote else {
                        continue;
                    };
                    let at = base + at as usize;
                    if !self.is_defined(key, at, line, lines) {
                        self.push_about(at, line, lines, |parsed| match &parsed.action {
                            MoveAction::Move {
                                promote: Some(target),
                                ..
                            } => Some(undefined(target, "promotes to")),
                            _ => None,
                        });
                    }
                }
                ActionFact::Checks {
                    square: on,
                    turn,
                    turn_at,
                } => {
                    if off_board(on) {
                        self.push_about(base + on.at as usize, line, lines, |parsed| {
                            square(parsed, 0)
                        });
                    }
                    if !turns.has_white(turn) {
                        let at = base + turn_at as usize;
                        self.push_about(at, line, lines, |parsed| match &parsed.action {
                            MoveAction::Checks { turn, .. } => Some(
                                Diagnostic::error(
                                    Code::FvNoSuchTurn,
                                    format!("there is no turn {}", turn.value),
                                    turn.span.clone(),
                                )
                                .with_label("jump to a missing turn")
                                .with_help(format!("the program has turns 1 to {}", turns.len())),
                            ),
                            MoveAction::Move { .. } => None,
                        });
                    }
                }
            }
        }
    }
}

/// The error of `symbol`, which `what` ("moves like", "places", …), an
/// undefined piece: with a close one of `pieces` if there is one.
fn undefined_piece(
    symbol: &Spanned<String>,
    what: &str,
    pieces: &[super::syntax::PieceDef],
) -> Diagnostic {
    let symbols = pieces.iter().map(|p| p.symbol.value.as_str());
    let start = symbol.span.start;
    let error = Diagnostic::error(
        Code::FvUndefinedPiece,
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
}

/// A piece symbol as the checks of move lines compare it: its bytes as a
/// number if it has at most 8 (symbols have no zero byte, so no two
/// share one), else 0 (the symbol is read from its text).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct SymbolKey(u64);

impl SymbolKey {
    /// The key of `symbol`.
    pub fn of(symbol: &str) -> SymbolKey {
        let mut bytes = [0; 8];
        match bytes.get_mut(..symbol.len()) {
            Some(prefix) if !symbol.is_empty() => {
                prefix.copy_from_slice(symbol.as_bytes());
                SymbolKey(u64::from_le_bytes(bytes))
            }
            _ => SymbolKey(0),
        }
    }

    /// Whether the key is the symbol (at most 8 bytes).
    fn is_short(&self) -> bool {
        self.0 != 0
    }
}

/// A square as the checks read it: row and column (saturated to `u32`:
/// no board has so many rows), and where it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SquareFact {
    row: u32,
    col: u32,
    /// Where it starts, in bytes from the line's base.
    at: u32,
}

/// What the checks read of one move line: values, and where each is
/// written in bytes from a base (where its line or its code starts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveFact {
    turn: u32,
    turn_at: u32,
    white: bool,
    symbol: SymbolKey,
    symbol_at: u32,
    action: ActionFact,
}

/// What a move line does, as the checks read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ActionFact {
    /// `FROM -> TO [= PROMOTED]`, the promotion's symbol and where it is.
    Move {
        from: SquareFact,
        to: SquareFact,
        promote: Option<(SymbolKey, u32)>,
    },
    /// `SQUARE checks turn M`, with where M is.
    Checks {
        square: SquareFact,
        turn: u32,
        turn_at: u32,
    },
}

impl MoveFact {
    /// The facts of `line`, its offsets from byte `base` (at or before
    /// the line's code).
    pub fn of(line: &MoveLine, base: usize) -> MoveFact {
        let at = |span: &Span| u32::try_from(span.start.saturating_sub(base)).unwrap_or(u32::MAX);
        let saturated = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
        let square = |square: &SquareRef| SquareFact {
            row: saturated(square.row),
            col: saturated(square.col),
            at: at(&square.span),
        };
        MoveFact {
            turn: line.turn.value,
            turn_at: at(&line.turn.span),
            white: line.white,
            symbol: SymbolKey::of(&line.symbol.value),
            symbol_at: at(&line.symbol.span),
            action: match &line.action {
                MoveAction::Move { from, to, promote } => ActionFact::Move {
                    from: square(from),
                    to: square(to),
                    promote: promote
                        .as_ref()
                        .map(|p| (SymbolKey::of(&p.value), at(&p.span))),
                },
                MoveAction::Checks { square: on, turn } => ActionFact::Checks {
                    square: square(on),
                    turn: turn.value,
                    turn_at: at(&turn.span),
                },
            },
        }
    }

    /// The turn of a white line.
    pub(super) fn white_turn(&self) -> Option<u32> {
        self.white.then_some(self.turn)
    }
}

/// The turns that have a white move line, each with how many it has.
#[derive(Clone, Debug, Default)]
pub struct Turns(HashMap<u32, u32>);

impl Turns {
    /// The turns of white move lines `white_turns`.
    pub fn of(white_turns: impl Iterator<Item = u32>) -> Turns {
        let mut turns = Turns::default();
        white_turns.for_each(|turn| turns.count(turn));
        turns
    }

    /// Counts a white line of turn `turn` in.
    fn count(&mut self, turn: u32) {
        *self.0.entry(turn).or_default() += 1;
    }

    /// Counts a move line in.
    pub fn add(&mut self, fact: &MoveFact) {
        if let Some(turn) = fact.white_turn() {
            self.count(turn);
        }
    }

    /// Counts a move line out (one counted in).
    pub fn remove(&mut self, fact: &MoveFact) {
        let Some(turn) = fact.white_turn() else {
            return;
        };
        if let Some(count) = self.0.get_mut(&turn) {
            *count -= 1;
            if *count == 0 {
                self.0.remove(&turn);
            }
        }
    }

    /// Whether turn `turn` has a white line.
    fn has_white(&self, turn: u32) -> bool {
        self.0.contains_key(&turn)
    }

    /// How many turns have a white line.
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// Where the move checks find what the facts leave out: the text of a
/// long symbol, and a line parsed to build its diagnostics.
pub trait MoveLines {
    /// The symbol at byte `at` of move line `line` (a handle given with
    /// its facts).
    fn symbol_at(&self, line: usize, at: usize) -> &str;

    /// Move line `line`, parsed (`None` if it does not parse).
    fn line(&self, line: usize) -> Option<Cow<'_, MoveLine>>;
}

/// The move lines of a parsed program, by index.
struct Parsed<'a>(&'a [MoveLine]);

impl MoveLines for Parsed<'_> {
    fn symbol_at(&self, line: usize, at: usize) -> &str {
        let Some(parsed) = self.0.get(line) else {
            return "";
        };
        match &parsed.action {
            MoveAction::Move {
                promote: Some(target),
                ..
            } if target.span.start == at => &target.value,
            _ => &parsed.symbol.value,
        }
    }

    fn line(&self, line: usize) -> Option<Cow<'_, MoveLine>> {
        self.0.get(line).map(Cow::Borrowed)
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
