//! Finvara IR → Rust. Piece types and the squares the program names become
//! constants (`P_q`, `A3`); each piece type's automaton becomes a constant
//! with its notation as the doc comment; each move line becomes a `match`
//! arm that tries the few paths from its FROM to its TO the compiler listed
//! (in notation order), or, when writing them all out would bloat the
//! file, searches the automaton at run time as the interpreter does — every
//! valid move is made either way. A move with no path at all compiles to
//! the skip rule alone.
//!
//! A program of more than [`TABLE_ABOVE_LINES`] lines is written as data
//! instead: its distinct moves in `static MOVES`, each line as `SOURCE_LINE
//! MOVE` in the text `LINES` (one string literal, one token however long),
//! which the runtime reads when the program starts and plays with one
//! small loop (`rt::fv::table::run_table`) through the same runtime calls.
//! rustc then builds 100,000 lines in seconds instead of minutes (one arm
//! per line cost about 4 ms of rustc time and 50 KB of its memory each),
//! the code generator's cost stays nearly flat (a Rust value per line cost
//! it 2.4 GB for a million lines), and the loop still plays the listed
//! paths the compiler found, which the interpreter searches for.

use crate::split::{Arm, Items, Shared, StateMachine};
use std::collections::BTreeSet;

use chess2rs_runtime::__private::fv::table as rt_table;
use chess2rs_runtime::__private::fv::{
    Cell, Edge, PieceValue, RankRange, Ray, State, Step, UNBOUNDED,
};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use super::automaton::{Automaton, StaticPath};
use super::ir::{row_letters, Action, Line, Program};
use crate::emit::{int_literal, source_comment};

/// Above this many automaton edges in all, automata are written as compact
/// text (`chess2rs_runtime::__private::fv::Automaton::encode`) instead of Rust
/// expressions.
pub const ENCODE_ABOVE_EDGES: usize = 2_000;

/// Above this many move lines, the lines are a table (`static LINES`)
/// that one small loop plays, instead of one `match` arm each: rustc's
/// cost then stays nearly flat in the program's size.
pub const TABLE_ABOVE_LINES: usize = 1_000;

/// The body of the entry function's closure (`io`, `steps`, `rt` in scope).
pub fn generate(program: &Program, items: &mut dyn Items) -> TokenStream {
    let names = Names { program };
    // Small automata are written out as Rust; large ones as compact text
    // that the runtime decodes once, which keeps generated files (and the
    // compiler's memory) in proportion to the notations. Piece types that
    // move alike share one constant.
    let encoded = program
        .pieces
        .iter()
        .map(|p| p.automaton.edges.len())
        .sum::<usize>()
        > ENCODE_ABOVE_EDGES;
    let kinds = kind_constants(&names, !encoded);
    let squares = squares_constants(&names);
    let shared = SharedAutomata::of(program);
    let automata = automaton_constants(&names, &shared, encoded);
    let path_lists = path_list_constants(&names);
    let game = game_setup(&names, &shared, encoded);
    let colours = colour_constants(&names);
    let constants = quote! {
        #(#colours)*
        #(#kinds)*
        #(#squares)*
        #(#automata)*
        #(#path_lists)*
    };
    let (statics, run) = if program.lines.len() > TABLE_ABOVE_LINES {
        table_parts(&names, items)
    } else {
        machine_parts(&names, items)
    };
    quote! {
        #constants
        #statics
        #game
        #run
    }
}

/// The piece types' index constants (`P_q`), those the code uses (with
/// `in_automata`, also those the automata written as Rust name).
fn kind_constants(names: &Names, in_automata: bool) -> Vec<TokenStream> {
    let program = names.program;
    let mut used = names.used_kinds();
    if in_automata {
        for piece in &program.pieces {
            let automaton = &piece.automaton;
            used.extend(automaton.targets.iter().copied());
            used.extend(automaton.edges.iter().filter_map(|edge| match *edge {
                Edge::Call { piece, .. } => Some(piece),
                _ => None,
            }));
        }
    }
    used.into_iter()
        .map(|index| {
            let piece = &program.pieces[usize::from(index)];
            let name = names.piece(index);
            let index = Literal::u16_unsuffixed(index);
            let doc = format!(" `{}`: {}", piece.symbol, describe_value(piece.value));
            quote! {
                #[doc = #doc]
                const #name: u16 = #index;
            }
        })
        .collect()
}

/// The squares' index constants (`A3`), those the code uses.
fn squares_constants(names: &Names) -> Vec<TokenStream> {
    names
        .used_squares()
        .into_iter()
        .map(|square| {
            let name = names.square(square);
            let index = Literal::u32_unsuffixed(square);
            quote! { const #name: u32 = #index; }
        })
        .collect()
}

/// One constant per distinct automaton (`MOVES_q`): Rust expressions, or
/// compact text if `encoded`.
fn automaton_constants(names: &Names, shared: &SharedAutomata, encoded: bool) -> Vec<TokenStream> {
    let program = names.program;
    shared
        .firsts
        .iter()
        .map(|&first| {
            let piece = &program.pieces[first];
            let name = shared.name(program, first);
            let alike: Vec<String> = shared
                .users(first)
                .map(|index| format!("`{}`", program.pieces[index].symbol))
                .collect();
            let who = match alike.as_slice() {
                [one] => one.clone(),
                [init @ .., last] => format!("{} and {last}", init.join(", ")),
                [] => String::new(),
            };
            let verb = if alike.len() == 1 { "moves" } else { "move" };
            let doc = if piece.notation.is_empty() {
                format!(" How {who} {verb}: not at all.")
            } else {
                format!(" How {who} {verb}: `{}`.", piece.notation)
            };
            if encoded {
                let text = piece.automaton.view().encode();
                quote! {
                    #[doc = #doc]
                    const #name: &str = #text;
                }
            } else {
                let automaton = automaton_tokens(names, &piece.automaton);
                quote! {
                    #[doc = #doc]
                    const #name: rt::fv::Automaton<'static> = #automaton;
                }
            }
        })
        .collect()
}

/// The paths of each distinct move that lists them
/// (`PATHS_p_W_A2_B2`), in notation order.
fn path_list_constants(names: &Names) -> Vec<TokenStream> {
    let program = names.program;
    let mut listed = BTreeSet::new();
    program
        .lines
        .iter()
        .filter_map(|line| match &line.action {
            Action::Move {
                from,
                to,
                promote,
                paths: Some(paths),
            } if !paths.is_empty()
                && listed.insert((line.kind, line.white, *from, *to, *promote)) =>
            {
                let name = names.paths(line.kind, line.white, *from, *to, *promote);
                let symbol = &program.pieces[usize::from(line.kind)].symbol;
                let doc = format!(
                    " The paths of {} `{symbol}` from {} to {}{}, in notation order.",
                    if line.white { "White's" } else { "Black's" },
                    program.square_name(*from),
                    program.square_name(*to),
                    promote.map_or(String::new(), |p| format!(
                        " promoting to `{}`",
                        program.pieces[usize::from(p)].symbol
                    )),
                );
                let paths = paths.iter().map(|p| path_tokens(names, p));
                Some(quote! {
                    #[doc = #doc]
                    const #name: &[rt::fv::Path<'static>] = &[#(#paths),*];
                })
            }
            _ => None,
        })
        .collect()
}

/// The rules and the starting position (the automata, decoded if
/// `encoded`), as statements that bind `automata`, `rules` and `game`.
fn game_setup(names: &Names, shared: &SharedAutomata, encoded: bool) -> TokenStream {
    let program = names.program;
    let automaton_names = (0..program.pieces.len()).map(|index| shared.name_of(program, index));
    let automata_value = if encoded {
        quote! {
            let decoded = rt::fv::decode_all(&[#(#automaton_names),*])?;
            let automata = rt::fv::views(&decoded);
        }
    } else {
        quote! { let automata = [#(#automaton_names),*]; }
    };
    let values = program.pieces.iter().map(|piece| value_tokens(piece.value));
    let (rows, cols) = (
        Literal::u32_unsuffixed(program.rows),
        Literal::u32_unsuffixed(program.cols),
    );
    let holes = hole_runs(program).into_iter().map(|(first, mask)| {
        let first = names.square(first);
        // Binary, so the holes of the run show as its 1s (the first square
        // is the lowest bit); such a literal always parses.
        let mask: TokenStream = format!("0b{mask:b}").parse().unwrap_or_default();
        quote! { (#first, #mask) }
    });
    let holes_comment = source_comment(
        "the holes: (first square of a run, bit i set = the square i after it is a hole)",
    );
    let mut placed = Vec::new();
    for (square, cell) in program.board.iter().enumerate() {
        if let Cell::Piece { kind, white } = *cell {
            let name = names.square(square as u32);
            let (kind, colour) = (names.piece(kind), colour(white));
            placed.push(quote! { (#name, #kind, #colour) });
        }
    }
    quote! {
        #automata_value
        let rules = &rt::fv::Rules {
            automata: &automata,
            values: &[#(#values),*],
            rows: #rows,
            cols: #cols,
        };
        #holes_comment
        let mut game = rt::fv::Game::with_position(rules, &[#(#holes),*], &[#(#placed),*]);
    }
}

/// The program as a table of its lines that one small loop plays (more
/// than [`TABLE_ABOVE_LINES`] lines), its statics and the loop: each
/// distinct move (or `checks` placement) is written once, and each line is
/// two numbers in a text.
fn table_parts(names: &Names, items: &mut dyn Items) -> (TokenStream, TokenStream) {
    let program = names.program;
    let mut moves: Vec<TokenStream> = Vec::new();
    let mut seen: std::collections::HashMap<String, u32> = Default::default();
    let mut lines = String::new();
    for line in &program.lines {
        let entry = table_entry(names, line);
        let next = moves.len() as u32;
        let index = *seen.entry(entry.to_string()).or_insert(next);
        if index == next {
            moves.push(entry);
        }
        rt_table::write_line(&mut lines, line.source_line, index);
    }
    let move_count = Literal::usize_unsuffixed(moves.len());
    let lines = items.text(&lines);
    let statics = quote! {
        /// The program's distinct moves and `checks` placements (their
        /// `line`, and a move's `next`, are each line's own; a `checks`
        /// line's `to` is `rt::fv::table::CHECKS`).
        static MOVES: [rt::fv::MoveLine<'static>; #move_count] = [#(#moves),*];
        /// Each line in order: its source line, its entry in [`MOVES`]
        /// (`rt::fv::table::write_line`).
        static LINES: &str = #lines;
    };
    let run = quote! {
        rt::fv::table::run_table(&mut game, rules, &MOVES, LINES, io, steps)
    };
    (statics, run)
}

/// The program as a state machine, one arm per line: the lines'
/// descriptors, and the machine.
fn machine_parts(names: &Names, items: &mut dyn Items) -> (TokenStream, TokenStream) {
    let program = names.program;
    let descriptors = program
        .lines
        .iter()
        .enumerate()
        .filter_map(|(index, line)| descriptor(names, index as u32, line))
        .collect::<Vec<_>>();
    let mut dispatch = StateMachine::new(format_ident!("pc"), quote! { u32 }, program.lines.len());
    dispatch
        .shared
        .push(Shared::changed("game", quote! { rt::fv::Game }));
    dispatch
        .shared
        .push(Shared::read("rules", quote! { &rt::fv::Rules<'_> }));
    dispatch.after_arm = Box::new(|halt| {
        quote! {
            if game.someone_lost(rules)? {
                #halt;
            }
        }
    });
    let arms = program.lines.iter().enumerate().map(|(index, line)| Arm {
        key: index as i64,
        weight: 1,
        tokens: arm(names, index as u32, line),
    });
    let run = dispatch.generate(TokenStream::new(), arms, items);
    let statics = quote! { #(#descriptors)* };
    let run = quote! {
        let mut pc: u32 = 0;
        #run
    };
    (statics, run)
}

/// Piece types whose automata are equal share one constant, named after
/// the first of them.
struct SharedAutomata {
    /// Per piece type: the first type with an equal automaton.
    first_of: Vec<usize>,
    /// The types that are first of their kind, in order.
    firsts: Vec<usize>,
}

impl SharedAutomata {
    fn of(program: &Program) -> SharedAutomata {
        let mut first_of = Vec::with_capacity(program.pieces.len());
        let mut firsts: Vec<usize> = Vec::new();
        // Keyed by the compact text, which is equal exactly when the
        // automata are.
        let mut seen: std::collections::HashMap<String, usize> = Default::default();
        for (index, piece) in program.pieces.iter().enumerate() {
            let first = *seen.entry(piece.automaton.view().encode()).or_insert(index);
            if first == index {
                firsts.push(index);
            }
            first_of.push(first);
        }
        SharedAutomata { first_of, firsts }
    }

    /// The piece types sharing `first`'s constant.
    fn users(&self, first: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.first_of.len()).filter(move |&index| self.first_of[index] == first)
    }

    /// The constant of first type `first`.
    fn name(&self, program: &Program, first: usize) -> Ident {
        format_ident!("MOVES_{}", program.pieces[first].symbol)
    }

    /// The constant piece type `index` uses.
    fn name_of(&self, program: &Program, index: usize) -> Ident {
        self.name(program, self.first_of[index])
    }
}

/// The holes as runs of up to 64 squares within a row: (first square,
/// mask of the squares after it that are holes), runs without holes left
/// out.
fn hole_runs(program: &Program) -> Vec<(u32, u64)> {
    let cols = program.cols as usize;
    let mut runs = Vec::new();
    if cols == 0 {
        return runs;
    }
    for (row, cells) in program.board.chunks(cols).enumerate() {
        for (chunk, run) in cells.chunks(64).enumerate() {
            let mask = run
                .iter()
                .enumerate()
                .filter(|(_, cell)| **cell == Cell::Hole)
                .fold(0u64, |mask, (bit, _)| mask | 1 << bit);
            if mask != 0 {
                runs.push(((row * cols + chunk * 64) as u32, mask));
            }
        }
    }
    runs
}

/// Names of piece types and squares in generated code.
struct Names<'a> {
    program: &'a Program,
}

impl Names<'_> {
    fn piece(&self, kind: u16) -> Ident {
        format_ident!("P_{}", self.program.pieces[usize::from(kind)].symbol)
    }

    fn square(&self, square: u32) -> Ident {
        let cols = self.program.cols.max(1);
        let row = row_letters(u64::from(square / cols) + 1).to_ascii_uppercase();
        Ident::new(&format!("{row}{}", square % cols + 1), Span::call_site())
    }

    /// The constant describing move line `line`.
    fn line(&self, line: &Line) -> Ident {
        format_ident!("LINE_{}", line.source_line)
    }

    /// The constant holding the listed paths of a move.
    fn paths(&self, kind: u16, white: bool, from: u32, to: u32, promote: Option<u16>) -> Ident {
        let symbol = &self.program.pieces[usize::from(kind)].symbol;
        let mut name = format!(
            "PATHS_{symbol}_{}_{}_{}",
            if white { "W" } else { "B" },
            self.square(from),
            self.square(to)
        );
        if let Some(target) = promote {
            name.push_str(&format!(
                "_{}",
                self.program.pieces[usize::from(target)].symbol
            ));
        }
        Ident::new(&name, Span::call_site())
    }

    /// Whether a piece or a move line of colour `white` occurs.
    fn uses_colour(&self, white: bool) -> bool {
        self.program.lines.iter().any(|line| line.white == white)
            || self
                .program
                .board
                .iter()
                .any(|cell| matches!(*cell, Cell::Piece { white: w, .. } if w == white))
    }

    /// Every piece type the program names: on the board and in move lines.
    fn used_kinds(&self) -> BTreeSet<u16> {
        let mut used = BTreeSet::new();
        for cell in &self.program.board {
            if let Cell::Piece { kind, .. } = *cell {
                used.insert(kind);
            }
        }
        for line in &self.program.lines {
            used.insert(line.kind);
            if let Action::Move { promote, .. } = &line.action {
                used.extend(*promote);
            }
        }
        used
    }

    /// Every square the program names: the board's pieces, the first
    /// square of each run of holes, and the squares of move lines and of
    /// their paths.
    fn used_squares(&self) -> BTreeSet<u32> {
        let mut used = BTreeSet::new();
        for (square, cell) in self.program.board.iter().enumerate() {
            if matches!(cell, Cell::Piece { .. }) {
                used.insert(square as u32);
            }
        }
        used.extend(hole_runs(self.program).into_iter().map(|(first, _)| first));
        for line in &self.program.lines {
            match &line.action {
                Action::Move {
                    from, to, paths, ..
                } => {
                    used.insert(*from);
                    used.insert(*to);
                    for path in paths.iter().flat_map(|paths| paths.iter()) {
                        used.extend(path.steps.iter().map(|s| s.square));
                    }
                }
                Action::Checks { square, .. } => {
                    used.insert(*square);
                }
            }
        }
        used
    }
}

fn colour(white: bool) -> TokenStream {
    if white {
        quote! { WHITE }
    } else {
        quote! { BLACK }
    }
}

fn describe_value(value: PieceValue) -> String {
    match value {
        PieceValue::Royal => "royal".into(),
        PieceValue::Number(n) => format!("value {n}"),
        PieceValue::X => "value x (its column)".into(),
        PieceValue::Y => "value y (its row)".into(),
    }
}

fn value_tokens(value: PieceValue) -> TokenStream {
    match value {
        PieceValue::Royal => quote! { rt::fv::PieceValue::Royal },
        PieceValue::Number(n) => {
            let n = int_literal(n);
            quote! { rt::fv::PieceValue::Number(#n) }
        }
        PieceValue::X => quote! { rt::fv::PieceValue::X },
        PieceValue::Y => quote! { rt::fv::PieceValue::Y },
    }
}

/// A piece type's automaton as a constant, every field named: states,
/// edges, rays and bends as struct literals, piece types by their constants.
fn automaton_tokens(names: &Names, automaton: &Automaton) -> TokenStream {
    let states = automaton.states.iter().map(state_tokens);
    let edges = automaton.edges.iter().map(|edge| edge_tokens(names, edge));
    let targets = automaton.targets.iter().map(|&kind| names.piece(kind));
    let memo = automaton.memo;
    let attacks = match &automaton.attacks {
        Some(rays) => {
            let rays = rays.iter().map(ray_tokens);
            quote! { Some(&[#(#rays),*]) }
        }
        None => quote! { None },
    };
    let bends = automaton.bends.iter().map(|bend| {
        let (forward, right, capture) = (
            Literal::i32_unsuffixed(bend.forward),
            Literal::i32_unsuffixed(bend.right),
            bend.capture,
        );
        quote! { rt::fv::Bend { forward: #forward, right: #right, capture: #capture } }
    });
    quote! {
        rt::fv::Automaton {
            states: &[#(#states),*],
            edges: &[#(#edges),*],
            targets: &[#(#targets),*],
            memo: #memo,
            attacks: #attacks,
            bends: &[#(#bends),*],
        }
    }
}

/// A count or bound that may be [`UNBOUNDED`], as the constant's name then.
fn bound_tokens(bound: u32) -> TokenStream {
    if bound == UNBOUNDED {
        quote! { rt::fv::UNBOUNDED }
    } else {
        let bound = Literal::u32_unsuffixed(bound);
        quote! { #bound }
    }
}

fn ray_tokens(ray: &Ray) -> TokenStream {
    let (forward, right) = (
        Literal::i32_unsuffixed(ray.forward),
        Literal::i32_unsuffixed(ray.right),
    );
    let max = bound_tokens(ray.max);
    let ranks = match ray.ranks {
        None => quote! { None },
        Some(RankRange { low, high, negated }) => {
            let (low, high) = (int_literal(low), int_literal(high));
            quote! { Some(rt::fv::RankRange { low: #low, high: #high, negated: #negated }) }
        }
    };
    let (first_bend, bends, crooked) = (
        Literal::u32_unsuffixed(ray.first_bend),
        Literal::u32_unsuffixed(ray.bends),
        Literal::u32_unsuffixed(ray.crooked),
    );
    quote! {
        rt::fv::Ray {
            forward: #forward,
            right: #right,
            max: #max,
            ranks: #ranks,
            first_bend: #first_bend,
            bends: #bends,
            crooked: #crooked,
        }
    }
}

fn state_tokens(state: &State) -> TokenStream {
    let State {
        first_edge,
        edges,
        accept,
        crooked,
        reach,
    } = *state;
    let (first_edge, edges) = (
        Literal::u32_unsuffixed(first_edge),
        Literal::u32_unsuffixed(edges),
    );
    let reach = bound_tokens(reach);
    quote! {
        rt::fv::State {
            first_edge: #first_edge,
            edges: #edges,
            accept: #accept,
            crooked: #crooked,
            reach: #reach,
        }
    }
}

fn edge_tokens(names: &Names, edge: &Edge) -> TokenStream {
    let to = Literal::u32_unsuffixed(edge.to());
    match *edge {
        Edge::Leap { forward, right, .. } => {
            let (forward, right) = (
                Literal::i32_unsuffixed(forward),
                Literal::i32_unsuffixed(right),
            );
            quote! { rt::fv::Edge::Leap { forward: #forward, right: #right, to: #to } }
        }
        Edge::Rank {
            low, high, negated, ..
        } => {
            let (low, high) = (int_literal(low), int_literal(high));
            quote! { rt::fv::Edge::Rank { low: #low, high: #high, negated: #negated, to: #to } }
        }
        Edge::MustCapture { .. } => quote! { rt::fv::Edge::MustCapture { to: #to } },
        Edge::NoCapture { .. } => quote! { rt::fv::Edge::NoCapture { to: #to } },
        Edge::CaptureHere { .. } => quote! { rt::fv::Edge::CaptureHere { to: #to } },
        Edge::Promote { first, count, .. } => {
            let (first, count) = (
                Literal::u32_unsuffixed(first),
                Literal::u32_unsuffixed(count),
            );
            quote! { rt::fv::Edge::Promote { first: #first, count: #count, to: #to } }
        }
        Edge::Pass { .. } => quote! { rt::fv::Edge::Pass { to: #to } },
        Edge::Enter { .. } => quote! { rt::fv::Edge::Enter { to: #to } },
        Edge::Exit { .. } => quote! { rt::fv::Edge::Exit { to: #to } },
        Edge::Loop { .. } => quote! { rt::fv::Edge::Loop { to: #to } },
        Edge::Begin { .. } => quote! { rt::fv::Edge::Begin { to: #to } },
        Edge::Stop { .. } => quote! { rt::fv::Edge::Stop { to: #to } },
        Edge::Again { .. } => quote! { rt::fv::Edge::Again { to: #to } },
        Edge::Call { piece, .. } => {
            let piece = names.piece(piece);
            quote! { rt::fv::Edge::Call { piece: #piece, to: #to } }
        }
    }
}

fn path_tokens(names: &Names, path: &StaticPath) -> TokenStream {
    let steps = path.steps.iter().map(|step| {
        let Step {
            square,
            capture,
            no_hole,
        } = *step;
        let name = names.square(square);
        let mut tokens = quote! { rt::fv::Step::land(#name) };
        if capture {
            tokens = quote! { #tokens.then_capture() };
        }
        if no_hole {
            tokens = quote! { #tokens.not_a_hole() };
        }
        tokens
    });
    let mut tokens = quote! { rt::fv::Path::new(&[#(#steps),*]) };
    if path.must_capture {
        tokens = quote! { #tokens.must_capture() };
    }
    if path.no_capture {
        tokens = quote! { #tokens.no_capture() };
    }
    if !path.crooked.is_empty() {
        let offsets = path.crooked.iter().map(|&(row, col)| {
            let (row, col) = (Literal::i32_unsuffixed(row), Literal::i32_unsuffixed(col));
            quote! { (#row, #col) }
        });
        tokens = quote! { #tokens.crooked_to_end(&[#(#offsets),*]) };
    }
    tokens
}

/// For a move line whose first listed path is one leap into a hole, with
/// no `x` or `c` (holes never change, so nothing on the board can stop it
/// but the check rule): the piece's value on that hole (`None` inside for
/// a royal piece). `None` for every other line.
fn fall_value(program: &Program, line: &Line) -> Option<Option<i64>> {
    let Action::Move {
        paths: Some(paths), ..
    } = &line.action
    else {
        return None;
    };
    let path = paths.first()?;
    let [step] = path.steps[..] else {
        return None;
    };
    let hole = program.board.get(step.square as usize) == Some(&Cell::Hole);
    if !hole || step.no_hole || step.capture || path.must_capture || !path.crooked.is_empty() {
        return None;
    }
    let value = program.pieces[usize::from(line.kind)].value;
    Some(value.on(step.square, program.cols))
}

/// The entry of a line in [`MOVES`] of a large program: its `MoveLine` as
/// [`descriptor`] writes it, a `checks` line's placement with
/// `to: rt::fv::table::CHECKS` and its target as `next`; the source line (and a move's
/// `next`) left 0, as the table of lines gives them.
fn table_entry(names: &Names, line: &Line) -> TokenStream {
    let Action::Checks { square, target } = &line.action else {
        return move_line(names, line, 0, 0);
    };
    let (kind, white) = (names.piece(line.kind), colour(line.white));
    let (square, target) = (names.square(*square), Literal::u32_unsuffixed(*target));
    quote! {
        rt::fv::MoveLine {
            line: 0,
            white: #white,
            kind: #kind,
            from: #square,
            to: rt::fv::table::CHECKS,
            promote: None,
            paths: rt::fv::Paths::Impossible,
            next: #target,
        }
    }
}

/// The `LINE_N` constant describing move line `index` (`None` for
/// `checks` lines, which are written out in their arm).
fn descriptor(names: &Names, index: u32, line: &Line) -> Option<TokenStream> {
    if !matches!(line.action, Action::Move { .. }) {
        return None;
    }
    let name = names.line(line);
    let doc = format!(" line {}: {}", line.source_line, line.text.trim());
    let value = move_line(names, line, line.source_line, index + 1);
    Some(quote! {
        #[doc = #doc]
        const #name: rt::fv::MoveLine<'static> = #value;
    })
}

/// The `rt::fv::MoveLine` value of a move line, at source line `at`,
/// going on at line index `next`.
fn move_line(names: &Names, line: &Line, at: u32, next: u32) -> TokenStream {
    let Action::Move {
        from,
        to,
        promote,
        paths,
    } = &line.action
    else {
        unreachable!("move_line of a checks line");
    };
    let (at, next) = (Literal::u32_unsuffixed(at), Literal::u32_unsuffixed(next));
    let (kind, white) = (names.piece(line.kind), colour(line.white));
    let (from_name, to_name) = (names.square(*from), names.square(*to));
    let promote_tokens = match *promote {
        Some(p) => {
            let p = names.piece(p);
            quote! { Some(#p) }
        }
        None => quote! { None },
    };
    let how = match paths {
        Some(paths) if paths.is_empty() => quote! { rt::fv::Paths::Impossible },
        Some(_) => {
            let list = names.paths(line.kind, line.white, *from, *to, *promote);
            match fall_value(names.program, line) {
                Some(value) => {
                    let value = match value {
                        Some(value) => {
                            let value = int_literal(value);
                            quote! { Some(#value) }
                        }
                        None => quote! { None },
                    };
                    quote! { rt::fv::Paths::FallFirst { value: #value, paths: #list } }
                }
                None => quote! { rt::fv::Paths::Listed(#list) },
            }
        }
        None => quote! { rt::fv::Paths::Searched },
    };
    quote! {
        rt::fv::MoveLine {
            line: #at,
            white: #white,
            kind: #kind,
            from: #from_name,
            to: #to_name,
            promote: #promote_tokens,
            paths: #how,
            next: #next,
        }
    }
}

/// The `match` arm of line `index`: count the step, then the move (its
/// `LINE_N` constant) or the `checks` placement.
fn arm(names: &Names, index: u32, line: &Line) -> TokenStream {
    let at = Literal::u32_unsuffixed(line.source_line);
    let this = Literal::u32_unsuffixed(index);
    let comment = source_comment(&format!("line {}: {}", line.source_line, line.text.trim()));
    let body = match &line.action {
        Action::Move { .. } => {
            let name = names.line(line);
            quote! { pc = game.play(rules, io, &#name)?; }
        }
        Action::Checks { square, target } => {
            let (kind, white) = (names.piece(line.kind), colour(line.white));
            let (square, target) = (names.square(*square), Literal::u32_unsuffixed(*target));
            quote! {
                game.place(#kind, #white, #square, #at);
                pc = #target;
            }
        }
    };
    quote! {
        #this => {
            #comment
            steps.tick(#at)?;
            #body
        }
    }
}

/// `WHITE` and `BLACK`, those of the two colours the program names.
fn colour_constants(names: &Names) -> Vec<TokenStream> {
    [
        (true, quote! { const WHITE: bool = true; }),
        (false, quote! { const BLACK: bool = false; }),
    ]
    .into_iter()
    .filter(|(white, _)| names.uses_colour(*white))
    .map(|(_, tokens)| tokens)
    .collect()
}
