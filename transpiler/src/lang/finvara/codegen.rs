//! Finvara IR → Rust. Piece types and the squares the program names become
//! constants (`P_q`, `A3`); each piece type's automaton becomes a constant
//! with its notation as the doc comment; each move line becomes a `match`
//! arm that tries the few paths from its FROM to its TO the compiler listed
//! (in notation order), or, when writing them all out would bloat the
//! file, searches the automaton at run time as the interpreter does — every
//! valid move is made either way. A move with no path at all compiles to
//! the skip rule alone.

use crate::split::{Arm, Items, Shared, StateMachine};
use std::collections::BTreeSet;

use chess2rs_runtime::fv::{Cell, Edge, PieceValue, RankRange, Ray, State, Step, UNBOUNDED};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};

use super::automaton::{Automaton, StaticPath};
use super::ir::{row_letters, Action, Line, Program};
use crate::emit::int_literal;

/// Above this many automaton edges in all, automata are written as compact
/// text (`chess2rs_runtime::fv::Automaton::encode`) instead of Rust
/// expressions.
pub const ENCODE_ABOVE_EDGES: usize = 2_000;

/// The body of the entry function's closure (`io`, `steps`, `rt` in scope).
pub fn generate(program: &Program, items: &mut dyn Items) -> TokenStream {
    let names = Names { program };
    let kinds = names.used_kinds().into_iter().map(|index| {
        let piece = &program.pieces[usize::from(index)];
        let name = names.piece(index);
        let index = Literal::u16_unsuffixed(index);
        let doc = format!(" `{}`: {}", piece.symbol, describe_value(piece.value));
        quote! {
            #[doc = #doc]
            const #name: u16 = #index;
        }
    });
    let squares = names.used_squares().into_iter().map(|square| {
        let name = names.square(square);
        let index = Literal::u32_unsuffixed(square);
        quote! { const #name: u32 = #index; }
    });
    // Small automata are written out as Rust; large ones as compact text
    // that the runtime decodes once, which keeps generated files (and the
    // compiler's memory) in proportion to the notations.
    let encoded = program
        .pieces
        .iter()
        .map(|p| p.automaton.edges.len())
        .sum::<usize>()
        > ENCODE_ABOVE_EDGES;
    let automata = program.pieces.iter().map(|piece| {
        let name = format_ident!("MOVES_{}", piece.symbol);
        let doc = if piece.notation.is_empty() {
            format!(" How `{}` moves: it cannot move.", piece.symbol)
        } else {
            format!(" How `{}` moves: `{}`.", piece.symbol, piece.notation)
        };
        if encoded {
            let text = piece.automaton.view().encode();
            quote! {
                #[doc = #doc]
                const #name: &str = #text;
            }
        } else {
            let automaton = automaton_tokens(&piece.automaton);
            quote! {
                #[doc = #doc]
                const #name: rt::fv::Automaton<'static> = #automaton;
            }
        }
    });
    let automaton_names = program
        .pieces
        .iter()
        .map(|piece| format_ident!("MOVES_{}", piece.symbol));
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
    let mut holes = Vec::new();
    let mut placed = Vec::new();
    for (square, cell) in program.board.iter().enumerate() {
        let name = names.square(square as u32);
        match *cell {
            Cell::Empty => {}
            Cell::Hole => holes.push(quote! { #name }),
            Cell::Piece { kind, white } => {
                let (kind, colour) = (names.piece(kind), colour(white));
                placed.push(quote! { (#name, #kind, #colour) });
            }
        }
    }
    let mut listed = BTreeSet::new();
    let path_lists = program
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
                let paths = paths.iter().map(|p| path_tokens(&names, p));
                Some(quote! {
                    #[doc = #doc]
                    const #name: &[rt::fv::Path<'static>] = &[#(#paths),*];
                })
            }
            _ => None,
        })
        .collect::<Vec<_>>();
    // The macros the move lines use, each defined once. Each move line is
    // one call: its source text first (a string the macros ignore, there
    // for the reader), then its line number.
    let moves_macro = quote! {
        /// `moves!(text, line, colour, piece, FROM, promotion, paths, next)`:
        /// a move line whose paths the compiler listed — count the step, make
        /// the move along the first path the board allows, go on to `next`
        /// (or skip it after an invalid move).
        macro_rules! moves {
            ($text:literal, $line:literal, $white:ident, $kind:ident, $from:ident, $promote:expr, $paths:ident, $next:literal) => {{
                steps.tick($line)?;
                pc = game.move_line(rules, io, $line, $white, $kind, $from, $promote, $paths, $next)?;
            }};
        }
    };
    let falls_macro = quote! {
        /// `falls!(text, line, colour, piece, FROM, value, promotion, paths,
        /// next)`: a move line whose first path falls into a hole at once —
        /// count the step, lift the piece and run the stack action of its
        /// `value` there (known here: holes never move) unless the check
        /// rule refuses; then the other paths, as `moves!` would.
        macro_rules! falls {
            ($text:literal, $line:literal, $white:ident, $kind:ident, $from:ident, $value:expr, $promote:expr, $paths:ident, $next:literal) => {{
                steps.tick($line)?;
                pc = game.fall_line(rules, io, $line, $white, $kind, $from, $value, $promote, $paths, $next)?;
            }};
        }
    };
    let searches_macro = quote! {
        /// `searches!(text, line, colour, piece, FROM, TO, promotion, next)`:
        /// a move line whose paths are too many to write out (a crooked
        /// rider's long routes, say): the same search the interpreter makes.
        macro_rules! searches {
            ($text:literal, $line:literal, $white:ident, $kind:ident, $from:ident, $to:ident, $promote:expr, $next:literal) => {{
                steps.tick($line)?;
                pc = game.searched_move_line(rules, io, $line, $white, $kind, $from, $to, $promote, $next)?;
            }};
        }
    };
    let fails_macro = quote! {
        /// `fails!(text, line, next)`: a move line no path of its piece can
        /// make (its FROM and TO are not joined by the notation) — count the
        /// step and apply the skip rule.
        macro_rules! fails {
            ($text:literal, $line:literal, $next:literal) => {{
                steps.tick($line)?;
                pc = game.next_line(false, $next);
            }};
        }
    };
    let checks_macro = quote! {
        /// `checks!(text, line, colour, piece, SQUARE, target)`: place the
        /// piece if the square is empty, then go to line `target`.
        macro_rules! checks {
            ($text:literal, $line:literal, $white:ident, $kind:ident, $square:ident, $target:literal) => {{
                steps.tick($line)?;
                game.place($kind, $white, $square);
                pc = $target;
            }};
        }
    };
    let used = |wanted: fn(&Action) -> bool| program.lines.iter().any(|l| wanted(&l.action));
    let mut macros = TokenStream::new();
    let falling = |line: &Line| fall_value(program, line).is_some();
    if program.lines.iter().any(|l| {
        matches!(&l.action, Action::Move { paths: Some(p), .. } if !p.is_empty()) && !falling(l)
    }) {
        macros.extend(moves_macro);
    }
    if program.lines.iter().any(falling) {
        macros.extend(falls_macro);
    }
    if used(|a| matches!(a, Action::Move { paths: None, .. })) {
        macros.extend(searches_macro);
    }
    if used(|a| matches!(a, Action::Move { paths: Some(p), .. } if p.is_empty())) {
        macros.extend(fails_macro);
    }
    if used(|a| matches!(a, Action::Checks { .. })) {
        macros.extend(checks_macro);
    }
    let mut dispatch = StateMachine::new(format_ident!("pc"), quote! { u32 }, program.lines.len());
    dispatch.shared.push(Shared {
        name: format_ident!("game"),
        ty: quote! { rt::fv::Game },
        mutable: true,
    });
    dispatch.shared.push(Shared {
        name: format_ident!("rules"),
        ty: quote! { &rt::fv::Rules<'_> },
        mutable: false,
    });
    dispatch.after_arm = Box::new(|halt| {
        quote! {
            if game.someone_lost(rules) {
                #halt;
            }
        }
    });
    // Macros see the variables where they are defined: each split-off
    // function defines them again.
    let macros = if dispatch.is_split() {
        dispatch.prelude = macros;
        TokenStream::new()
    } else {
        macros
    };
    let arms = program.lines.iter().enumerate().map(|(index, line)| Arm {
        key: index as i64,
        weight: 1,
        tokens: arm(&names, index as u32, line),
    });
    let run = dispatch.generate(TokenStream::new(), arms, items);
    let colours = [
        (true, quote! { const WHITE: bool = true; }),
        (false, quote! { const BLACK: bool = false; }),
    ]
    .into_iter()
    .filter(|(white, _)| names.uses_colour(*white))
    .map(|(_, tokens)| tokens);
    quote! {
        #(#colours)*
        #(#kinds)*
        #(#squares)*
        #(#automata)*
        #(#path_lists)*
        #automata_value
        let rules = &rt::fv::Rules {
            automata: &automata,
            values: &[#(#values),*],
            rows: #rows,
            cols: #cols,
        };
        let mut game = rt::fv::Game::with_position(rules, &[#(#holes),*], &[#(#placed),*]);
        let mut pc: u32 = 0;
        #macros
        #run
    }
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

    /// Whether a piece or a move line that does something of colour
    /// `white` occurs.
    fn uses_colour(&self, white: bool) -> bool {
        self.program.lines.iter().any(|line| {
            line.white == white
                && !matches!(&line.action, Action::Move { paths: Some(paths), .. } if paths.is_empty())
        }) || self
                .program
                .board
                .iter()
                .any(|cell| matches!(*cell, Cell::Piece { white: w, .. } if w == white))
    }

    /// Every piece type the program names: on the board and in move lines
    /// that do something.
    fn used_kinds(&self) -> BTreeSet<u16> {
        let mut used = BTreeSet::new();
        for cell in &self.program.board {
            if let Cell::Piece { kind, .. } = *cell {
                used.insert(kind);
            }
        }
        for line in &self.program.lines {
            match &line.action {
                Action::Move {
                    paths: Some(paths), ..
                } if paths.is_empty() => {}
                Action::Move { promote, .. } => {
                    used.insert(line.kind);
                    used.extend(*promote);
                }
                Action::Checks { .. } => {
                    used.insert(line.kind);
                }
            }
        }
        used
    }

    /// Every square the program names: in move lines, paths, and the board's
    /// holes and pieces.
    fn used_squares(&self) -> BTreeSet<u32> {
        let mut used = BTreeSet::new();
        for (square, cell) in self.program.board.iter().enumerate() {
            if *cell != Cell::Empty {
                used.insert(square as u32);
            }
        }
        for line in &self.program.lines {
            match &line.action {
                // A line with no path names no square; one with listed
                // paths names its FROM and the paths' squares; a searched
                // one its FROM and TO.
                Action::Move {
                    from, to, paths, ..
                } => match paths {
                    Some(paths) if paths.is_empty() => {}
                    Some(paths) => {
                        used.insert(*from);
                        for path in paths {
                            used.extend(path.steps.iter().map(|s| s.square));
                        }
                    }
                    None => {
                        used.insert(*from);
                        used.insert(*to);
                    }
                },
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

fn automaton_tokens(automaton: &Automaton) -> TokenStream {
    let states = automaton.states.iter().map(state_tokens);
    let edges = automaton.edges.iter().map(edge_tokens);
    let targets = automaton
        .targets
        .iter()
        .map(|&t| Literal::u16_unsuffixed(t));
    let memo = automaton.memo;
    let attacks = match &automaton.attacks {
        Some(rays) => {
            let rays = rays.iter().map(ray_tokens);
            quote! { Some(&[#(#rays),*]) }
        }
        None => quote! { None },
    };
    quote! {
        rt::fv::Automaton {
            states: &[#(#states),*],
            edges: &[#(#edges),*],
            targets: &[#(#targets),*],
            memo: #memo,
            attacks: #attacks,
        }
    }
}

fn ray_tokens(ray: &Ray) -> TokenStream {
    let (forward, right) = (
        Literal::i32_unsuffixed(ray.forward),
        Literal::i32_unsuffixed(ray.right),
    );
    let line = match ray.max {
        1 => quote! { rt::fv::Ray::leap(#forward, #right) },
        UNBOUNDED => quote! { rt::fv::Ray::rider(#forward, #right) },
        max => {
            let max = Literal::u32_unsuffixed(max);
            quote! { rt::fv::Ray { max: #max, ..rt::fv::Ray::leap(#forward, #right) } }
        }
    };
    match ray.ranks {
        None => line,
        Some(RankRange { low, high, negated }) => {
            let (low, high) = (int_literal(low), int_literal(high));
            quote! { #line.on_ranks(#low, #high, #negated) }
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
    let reach = if reach == UNBOUNDED {
        quote! { rt::fv::UNBOUNDED }
    } else {
        let reach = Literal::u32_unsuffixed(reach);
        quote! { #reach }
    };
    let mut tokens = quote! { rt::fv::State::new(#first_edge, #edges, #reach) };
    if accept {
        tokens = quote! { #tokens.accepting() };
    }
    if crooked {
        tokens = quote! { #tokens.in_crooked() };
    }
    tokens
}

fn edge_tokens(edge: &Edge) -> TokenStream {
    let to = Literal::u32_unsuffixed(edge.to());
    match *edge {
        Edge::Leap { forward, right, .. } => {
            let (forward, right) = (
                Literal::i32_unsuffixed(forward),
                Literal::i32_unsuffixed(right),
            );
            quote! { rt::fv::Edge::leap(#forward, #right, #to) }
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
        Edge::Pass { .. } => quote! { rt::fv::Edge::pass(#to) },
        Edge::Begin { .. } => quote! { rt::fv::Edge::Begin { to: #to } },
        Edge::Stop { .. } => quote! { rt::fv::Edge::Stop { to: #to } },
        Edge::Again { .. } => quote! { rt::fv::Edge::Again { to: #to } },
        Edge::Call { piece, .. } => {
            let piece = Literal::u16_unsuffixed(piece);
            quote! { rt::fv::Edge::call(#piece, #to) }
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
    if !hole || step.no_hole || step.capture || path.must_capture {
        return None;
    }
    let value = program.pieces[usize::from(line.kind)].value;
    Some(value.on(step.square, program.cols))
}

/// The `match` arm of line `index`: one macro call (defined in
/// [`generate`]) with the line's text.
fn arm(names: &Names, index: u32, line: &Line) -> TokenStream {
    let at = Literal::u32_unsuffixed(line.source_line);
    let this = Literal::u32_unsuffixed(index);
    let next = Literal::u32_unsuffixed(index + 1);
    let (kind, white) = (names.piece(line.kind), colour(line.white));
    let text = Literal::string(line.text.trim());
    let body = match &line.action {
        Action::Move {
            from,
            to,
            promote,
            paths,
        } => {
            let (from_name, to_name) = (names.square(*from), names.square(*to));
            let target = *promote;
            let promote = match target {
                Some(p) => {
                    let p = names.piece(p);
                    quote! { Some(#p) }
                }
                None => quote! { None },
            };
            match paths {
                Some(paths) if paths.is_empty() => quote! { fails!(#text, #at, #next) },
                Some(_) if fall_value(names.program, line).is_some() => {
                    let paths = names.paths(line.kind, line.white, *from, *to, target);
                    let value = match fall_value(names.program, line).flatten() {
                        Some(value) => {
                            let value = Literal::i64_unsuffixed(value);
                            quote! { Some(#value) }
                        }
                        None => quote! { None },
                    };
                    quote! { falls!(#text, #at, #white, #kind, #from_name, #value, #promote, #paths, #next) }
                }
                Some(_) => {
                    let paths = names.paths(line.kind, line.white, *from, *to, target);
                    quote! { moves!(#text, #at, #white, #kind, #from_name, #promote, #paths, #next) }
                }
                None => {
                    quote! { searches!(#text, #at, #white, #kind, #from_name, #to_name, #promote, #next) }
                }
            }
        }
        Action::Checks { square, target } => {
            let (square, target) = (names.square(*square), Literal::u32_unsuffixed(*target));
            quote! { checks!(#text, #at, #white, #kind, #square, #target) }
        }
    };
    quote! { #this => #body, }
}
