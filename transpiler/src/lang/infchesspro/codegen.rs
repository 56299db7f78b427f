//! InfChessPro IR → Rust. Lines are grouped into straight-line blocks:
//! a block starts at the first line, at every jump target and after a line
//! that does not fall through, and runs on while lines fall through to the
//! next. Each block becomes an arm of a `match` on the program counter
//! inside a loop, so only taken jumps go through the dispatch; the counter's
//! values are constants named after the labels of the lines they start at
//! (`LABEL_10`, `LABEL_MINUS_3`; `END` halts). Names become constants,
//! pieces runtime constants; only `*` reads and board operations remain at
//! run time.
//!
//! A program of more than [`TABLE_ABOVE_LINES`] lines is written as data
//! instead, three string literals that the runtime reads when the program
//! starts (`rt::icp::table`): its distinct commands once each in
//! `COMMANDS` (names as their indices, operands as numbers or `*`), each
//! line as `SOURCE_LINE COMMAND SUCCESS FAILURE` in `LINES`, and the labels
//! in `LABELS` if it reads jump targets, run by one loop in the runtime
//! through the same board calls. A string literal is one token however
//! long, so the code generator's cost and rustc's stay nearly flat in the
//! program's size instead of growing by nine lines of Rust per source
//! line (and tables of Rust values, one a line, cost the code generator
//! 8 GB for a million lines naming 250,000 pieces).

use std::collections::HashMap;
use std::ops::Range;

use chess2rs_runtime::__private::icp::table as rt_table;
use chess2rs_runtime::__private::icp::{Colour, Kind, NameId, Piece};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, ToTokens};

use super::ir::{Command, Line, Next, Operand, Program};
use crate::emit::int_literal;
use crate::split::{Arm, Items, Shared, StateMachine, FUNCTION_WEIGHT};

/// Above this many lines, the lines are a table (`static LINES`) that
/// one small loop runs, instead of one `match` arm per block: rustc's cost
/// then stays nearly flat in the program's size.
pub const TABLE_ABOVE_LINES: usize = 1_000;

/// The body of the entry function's closure (`io` and `steps` in scope,
/// the runtime's private module imported as `rt`).
pub fn generate(program: &Program, items: &mut dyn Items) -> TokenStream {
    let known = known_pieces(program);
    if program.lines.len() > TABLE_ABOVE_LINES {
        return generate_table(program, &known, items);
    }
    let name_consts = program.names.iter().enumerate().map(|(id, name)| {
        let ident = name_ident(name);
        let doc = match known[id] {
            Some(piece) => format!(
                " The piece name `{name}` (always {}).",
                piece_const(piece)
                    .to_string()
                    .to_lowercase()
                    .replace('_', " ")
            ),
            None => format!(" The piece name `{name}`."),
        };
        let id = Literal::u32_unsuffixed(id as u32);
        quote! { #[doc = #doc] const #ident: rt::icp::NameId = #id; }
    });
    let labels = uses_input_jumps(program).then(|| {
        let entries = program.labels.iter().map(|&(label, index)| {
            let label = int_literal(label);
            let index = Literal::u32_unsuffixed(index);
            quote! { (#label, #index) }
        });
        quote! {
            /// Every label and its line index, sorted, for jumps read from input.
            const LABELS: &[(i64, u32)] = &[#(#entries),*];
        }
    });
    let mut dispatch = StateMachine::new(format_ident!("pc"), quote! { u32 }, program.lines.len());
    dispatch
        .shared
        .push(Shared::changed("board", quote! { rt::icp::Board }));
    // Each walk loop's pace, kept from one run of the loop to the next.
    let paces = walk_paces(program);
    let pace_count = paces.iter().flatten().count();
    if pace_count > 0 {
        let count = Literal::usize_unsuffixed(pace_count);
        dispatch
            .shared
            .push(Shared::changed("paces", quote! { [rt::icp::Pace; #count] }));
    }
    let pace_array = (pace_count > 0).then(|| {
        let count = Literal::usize_unsuffixed(pace_count);
        quote! { let mut paces = [rt::icp::Pace::new(); #count]; }
    });
    let blocks = blocks(program);
    let targets = Targets::new(program);
    // `END` only where some line goes past the last one (else it would be
    // an unused constant).
    let end = Next::Line(program.lines.len() as u32);
    let ends = program
        .lines
        .iter()
        .any(|line| line.on_success == end || line.on_failure == end);
    let target_consts = blocks
        .iter()
        .map(|block| block.start)
        .chain(ends.then_some(program.lines.len()))
        .map(|index| {
            let ident = targets.ident(index);
            let doc = match program.lines.get(index) {
                Some(line) => format!(" The block starting at line {}.", line.source_line),
                None => " Past the last line: the program halts.".to_string(),
            };
            let index = Literal::u32_unsuffixed(index as u32);
            quote! { #[doc = #doc] const #ident: u32 = #index; }
        })
        .collect::<Vec<_>>();
    let arms = blocks.into_iter().map(|block| Arm {
        key: block.start as i64,
        weight: block.len(),
        tokens: block_arm(
            program,
            &known,
            &targets,
            &paces,
            dispatch.is_split(),
            block,
        ),
    });
    let run = dispatch.generate(TokenStream::new(), arms, items);
    let name_count = Literal::usize_unsuffixed(program.names.len());
    // A split program's constants go with its functions, a thousand at a
    // time: a program of a million lines names hundreds of thousands of
    // pieces and blocks, too many to print as part of one function.
    let consts: Vec<TokenStream> = name_consts.chain(target_consts).collect();
    let consts = if dispatch.is_split() {
        for chunk in consts.chunks(1000) {
            items.push(quote! { #(#chunk)* });
        }
        Vec::new()
    } else {
        consts
    };
    quote! {
        #(#consts)*
        #labels
        let mut board = rt::icp::Board::new(#name_count);
        #pace_array
        let mut pc: u32 = 0;
        #run
    }
}

/// [`generate`] for a large program: its tables as texts and the call
/// that runs them (see the module documentation).
fn generate_table(
    program: &Program,
    known: &[Option<Piece>],
    items: &mut dyn Items,
) -> TokenStream {
    let mut commands = String::new();
    let mut seen: HashMap<String, u32> = HashMap::new();
    let mut lines = String::new();
    let mut command = String::new();
    let target = |next: Next| match next {
        Next::Line(target) => target,
        Next::Input => rt_table::INPUT,
    };
    for (index, line) in program.lines.iter().enumerate() {
        // A walk's pace is its command's (lines sharing a walk command
        // share a pace, which only tunes how often the board tries to
        // walk): the runtime numbers the walk commands in order.
        command.clear();
        rt_table::write_command(&mut command, &table_command(known, line, index));
        let next = seen.len() as u32;
        let entry = match seen.get(&command) {
            Some(&entry) => entry,
            None => {
                commands.push_str(&command);
                seen.insert(command.clone(), next);
                next
            }
        };
        let targets = (target(line.on_success), target(line.on_failure));
        rt_table::write_line(&mut lines, (line.source_line, entry, targets.0, targets.1));
    }
    // Labels only for jumps read from input.
    let mut labels = String::new();
    if uses_input_jumps(program) {
        for &(label, index) in &program.labels {
            rt_table::write_label(&mut labels, label, index);
        }
    }
    let (commands, lines, labels) = (
        items.text(&commands),
        items.text(&lines),
        items.text(&labels),
    );
    let name_count = Literal::usize_unsuffixed(program.names.len());
    quote! {
        /// The program's distinct commands, one a line, names by their
        /// index (`rt::icp::table::write_command`).
        static COMMANDS: &str = #commands;
        /// Each line in order: its source line, its command's index in
        /// [`COMMANDS`], the line index it goes on at after success and
        /// after failure (the line count halts; `*` reads a label).
        static LINES: &str = #lines;
        /// Every label and its line index, sorted, for jumps read from
        /// input (none if the program reads none).
        static LABELS: &str = #labels;
        rt::icp::table::run_table(
            &rt::icp::table::Table {
                names: #name_count,
                commands: COMMANDS,
                lines: LINES,
                labels: LABELS,
            },
            io,
            steps,
        )
    }
}

/// A line's command in the tables of a large program (a walk's pace
/// left 0: the runtime numbers walks).
fn table_command<'a>(
    known: &[Option<Piece>],
    line: &'a Line,
    index: usize,
) -> rt_table::Command<'a> {
    let (operands, _) = line.command.operands();
    let operand = |i: usize| match operands[i] {
        Operand::Literal(value) => rt_table::Operand::Literal(value),
        Operand::Input => rt_table::Operand::Input,
    };
    let known = |name: NameId| known[name as usize];
    if let Some((name, d_row, d_col)) = walk(line, index) {
        return rt_table::Command::Walk(name, known(name), (d_row, d_col), 0);
    }
    match &line.command {
        Command::Nop => rt_table::Command::Nop,
        Command::Print(text) => rt_table::Command::Print(text),
        Command::Count(name) => rt_table::Command::Count(*name),
        Command::Place { name, piece, .. } => {
            rt_table::Command::Place(*name, *piece, [operand(0), operand(1)])
        }
        Command::MoveFrom { .. } => {
            rt_table::Command::MoveFrom([operand(0), operand(1), operand(2), operand(3)])
        }
        Command::MoveNamedTo { name, .. } => {
            rt_table::Command::MoveNamedTo(*name, known(*name), [operand(0), operand(1)])
        }
        Command::MoveNamedBy { name, .. } => {
            rt_table::Command::MoveNamedBy(*name, known(*name), [operand(0), operand(1)])
        }
    }
}

fn uses_input_jumps(program: &Program) -> bool {
    program
        .lines
        .iter()
        .any(|line| line.on_success == Next::Input || line.on_failure == Next::Input)
}

/// For each line, the index of its pace among the program's walk loops
/// (see [`walk`]), or `None` if it is not one.
fn walk_paces(program: &Program) -> Vec<Option<usize>> {
    let mut count = 0;
    (0..program.lines.len())
        .map(|index| {
            walk(&program.lines[index], index).map(|_| {
                count += 1;
                count - 1
            })
        })
        .collect()
}

/// The line index ranges of the straight-line blocks, in order, each at
/// most [`FUNCTION_WEIGHT`] lines. With jumps read from input any line can
/// be a target, so every line is a block.
fn blocks(program: &Program) -> Vec<Range<usize>> {
    let lines = &program.lines;
    let mut starts_block = vec![uses_input_jumps(program); lines.len() + 1];
    starts_block[0] = true;
    for (index, line) in lines.iter().enumerate() {
        for next in [line.on_success, line.on_failure] {
            if let Next::Line(target) = next {
                if target as usize != index + 1 {
                    starts_block[target as usize] = true;
                }
            }
        }
    }
    let mut blocks = Vec::new();
    let mut start = 0;
    for (index, line) in lines.iter().enumerate() {
        let at_end = index + 1 == lines.len();
        // A long straight run is cut every FUNCTION_WEIGHT lines, so that
        // a large program splits into functions of that size (one arm of a
        // million lines would be one function, and a few gigabytes to
        // print).
        let full = index + 1 - start >= FUNCTION_WEIGHT;
        if at_end || full || starts_block[index + 1] || !falls_through(index, line) {
            blocks.push(start..index + 1);
            start = index + 1;
        }
    }
    blocks
}

/// Whether one of the line's exits is the next line.
fn falls_through(index: usize, line: &Line) -> bool {
    let next = Next::Line(index as u32 + 1);
    line.on_success == next || line.on_failure == next
}

/// The names of the program counter's values: each line index by the
/// line's label.
struct Targets {
    /// The label of each line, by index.
    labels: Vec<i64>,
}

impl Targets {
    fn new(program: &Program) -> Self {
        let mut labels = vec![0; program.lines.len()];
        for &(label, index) in &program.labels {
            labels[index as usize] = label;
        }
        Targets { labels }
    }

    /// The constant for line `index`: `LABEL_` and its label (`MINUS_`
    /// for a negative one), or `END` past the last line.
    fn ident(&self, index: usize) -> Ident {
        match self.labels.get(index) {
            Some(&label) if label < 0 => format_ident!("LABEL_MINUS_{}", label.unsigned_abs()),
            Some(&label) => format_ident!("LABEL_{}", label.unsigned_abs()),
            None => format_ident!("END"),
        }
    }
}

/// The match arm running the lines of `block` one after another.
fn block_arm(
    program: &Program,
    known: &[Option<Piece>],
    targets: &Targets,
    paces: &[Option<usize>],
    outlined: bool,
    block: Range<usize>,
) -> TokenStream {
    let docs = program.lines[block.clone()].iter().map(|line| {
        let doc = format!(" line {}: {}", line.source_line, line.text);
        quote! { #[doc = #doc] }
    });
    let first = targets.ident(block.start);
    let last = block.end - 1;
    let bodies = block.map(|index| {
        let pace = paces[index];
        line_code(
            program,
            known,
            targets,
            pace,
            outlined,
            index,
            index == last,
        )
    });
    quote! {
        #(#docs)*
        #first => {
            #(#bodies)*
        }
    }
}

/// One line's code. Inside a block, a taken jump sets `pc` and continues
/// the loop, and falling through runs on into the next line's code; the
/// last line of a block sets `pc` to wherever it goes.
fn line_code(
    program: &Program,
    known: &[Option<Piece>],
    targets: &Targets,
    pace: Option<usize>,
    outlined: bool,
    index: usize,
    last_in_block: bool,
) -> TokenStream {
    let line = &program.lines[index];
    let at = Literal::u32_unsuffixed(line.source_line);
    let (operands, count) = line.command.operands();
    let operands = &operands[..count];
    let reads = operands.iter().enumerate().filter_map(|(i, operand)| {
        let var = format_ident!("input{}", i);
        (*operand == Operand::Input).then(|| quote! { let #var = io.read_i64(#at)?; })
    });
    let (statements, test) = command_code(program, known, outlined, line);
    let next = |next: Next| match next {
        Next::Line(target) => targets.ident(target as usize).into_token_stream(),
        Next::Input => quote! { rt::icp::jump_target(LABELS, io.read_i64(#at)?, #at)? },
    };
    let jump = |target: Next| {
        let target = next(target);
        quote! { pc = #target; continue; }
    };
    let fall = Next::Line(index as u32 + 1);
    let (success, failure) = (line.on_success, line.on_failure);
    if let (Some(test), Some((name, d_row, d_col)), Some(pace)) = (&test, walk(line, index), pace) {
        // A walk: the loop of single steps, each preceded (at the board's
        // pace) by as many steps as the board proves at once.
        let known = known_tokens(known[name as usize]);
        let name = name_ident(&program.names[name as usize]);
        let (d_row, d_col) = (int_literal(d_row), int_literal(d_col));
        let failure = match failure {
            _ if last_in_block => {
                let failure = next(failure);
                quote! { pc = #failure; }
            }
            failure if failure == fall => quote! {},
            failure => jump(failure),
        };
        let pace = Literal::usize_unsuffixed(pace);
        return quote! {
            let pace = &mut paces[#pace];
            pace.enter();
            loop {
                board.walk_paced(pace, #name, (#d_row, #d_col), #known, steps);
                steps.tick(#at)?;
                if !#test {
                    break;
                }
            }
            #failure
        };
    }
    let transfer = match test {
        None if last_in_block => {
            let success = next(success);
            quote! { pc = #success; }
        }
        None => quote! {},
        Some(test) if success == failure && last_in_block => {
            let success = next(success);
            quote! { #test; pc = #success; }
        }
        Some(test) if success == failure => quote! { #test; },
        Some(test) if last_in_block => {
            let (success, failure) = (next(success), next(failure));
            quote! { pc = if #test { #success } else { #failure }; }
        }
        Some(test) if success == fall => {
            let failure = jump(failure);
            quote! { if !#test { #failure } }
        }
        Some(test) => {
            let success = jump(success);
            quote! { if #test { #success } }
        }
    };
    quote! {
        steps.tick(#at)?;
        #(#reads)*
        #statements
        #transfer
    }
}

/// A line's command: statements for the commands that always succeed,
/// a test (an expression, true on success) for the others.
fn command_code(
    program: &Program,
    known: &[Option<Piece>],
    outlined: bool,
    line: &Line,
) -> (TokenStream, Option<TokenStream>) {
    let at = Literal::u32_unsuffixed(line.source_line);
    let (operands, count) = line.command.operands();
    let operands = &operands[..count];
    let value = |i: usize| match operands[i] {
        Operand::Literal(value) => int_literal(value),
        Operand::Input => format_ident!("input{}", i).into_token_stream(),
    };
    match &line.command {
        Command::Nop => (quote! {}, None),
        Command::Print(text) => (quote! { io.write_line(#text)?; }, None),
        Command::Count(name) => {
            let name = name_ident(&program.names[*name as usize]);
            (
                quote! { io.write_i64_line(board.count(#name) as i64)?; },
                None,
            )
        }
        Command::Place { name, piece, .. } => {
            let name = name_ident(&program.names[*name as usize]);
            let piece = piece_const(*piece);
            let (row, col) = (value(0), value(1));
            let test = quote! { board.place(#name, rt::icp::#piece, rt::icp::Square::new(#row, #col)).map_err(|e| e.in_line(#at))? };
            (quote! {}, Some(test))
        }
        Command::MoveFrom { .. } => {
            let (r1, c1, r2, c2) = (value(0), value(1), value(2), value(3));
            let test = quote! { board.move_from(rt::icp::Square::new(#r1, #c1), rt::icp::Square::new(#r2, #c2)) };
            (quote! {}, Some(test))
        }
        Command::MoveNamedTo { name, .. } => {
            let known = known_tokens(known[*name as usize]);
            let name = name_ident(&program.names[*name as usize]);
            let (row, col) = (value(0), value(1));
            let to = quote! { rt::icp::Square::new(#row, #col) };
            let test = if outlined {
                quote! { rt::icp::outlined::move_named_to(board, #name, #to, #known) }
            } else {
                quote! { board.move_named_to(#name, #to, #known) }
            };
            (quote! {}, Some(test))
        }
        Command::MoveNamedBy { name, .. } => {
            let known = known_tokens(known[*name as usize]);
            let name = name_ident(&program.names[*name as usize]);
            let (d_row, d_col) = (value(0), value(1));
            // (A closure per line would be a function per line for rustc.)
            let test = if outlined {
                quote! { rt::icp::outlined::move_named_by(board, #name, #d_row, #d_col, #known, #at)? }
            } else {
                quote! { board.move_named_by(#name, #d_row, #d_col, #known).map_err(|e| e.in_line(#at))? }
            };
            (quote! {}, Some(test))
        }
    }
}

/// The name and offset of a line that repeats `NAME;dr,dc` while it
/// succeeds (its success jumps to itself; both numbers literal): a walk.
fn walk(line: &Line, index: usize) -> Option<(NameId, i64, i64)> {
    match line.command {
        Command::MoveNamedBy {
            name,
            by: [Operand::Literal(d_row), Operand::Literal(d_col)],
        } if line.on_success == Next::Line(index as u32) => Some((name, d_row, d_col)),
        _ => None,
    }
}

/// The constant naming a piece name: `N_` and the name (names are made of
/// ASCII letters, digits and `_`, so this is always an identifier).
fn name_ident(name: &str) -> Ident {
    Ident::new(&format!("N_{name}"), Span::call_site())
}

/// For every name, the piece every piece called that name is, when all
/// the program's placements of the name agree (pieces never change type),
/// so that a move by name can test only what that piece needs.
fn known_pieces(program: &Program) -> Vec<Option<Piece>> {
    // None: never placed; Some(Some(p)): always p; Some(None): varies.
    let mut placed: Vec<Option<Option<Piece>>> = vec![None; program.names.len()];
    for line in &program.lines {
        if let Command::Place { name, piece, .. } = line.command {
            let entry = &mut placed[name as usize];
            *entry = match *entry {
                None => Some(Some(piece)),
                Some(Some(first)) if first == piece => Some(Some(first)),
                Some(_) => Some(None),
            };
        }
    }
    placed.into_iter().map(Option::flatten).collect()
}

/// A known piece as an `Option<Piece>` expression.
fn known_tokens(known: Option<Piece>) -> TokenStream {
    match known {
        Some(piece) => {
            let piece = piece_const(piece);
            quote! { Some(rt::icp::#piece) }
        }
        None => quote! { None },
    }
}

/// The runtime constant for `piece` (`WHITE_ROOK`, …).
fn piece_const(piece: Piece) -> Ident {
    let colour = match piece.colour {
        Colour::White => "WHITE",
        Colour::Black => "BLACK",
    };
    let kind = match piece.kind {
        Kind::King => "KING",
        Kind::Queen => "QUEEN",
        Kind::Rook => "ROOK",
        Kind::Bishop => "BISHOP",
        Kind::Knight => "KNIGHT",
        Kind::Pawn => "PAWN",
    };
    Ident::new(&format!("{colour}_{kind}"), Span::call_site())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::infchesspro::{lower, syntax};
    use crate::source::Source;

    fn program(text: &str) -> Program {
        let source = Source::new("t.icp", text);
        lower::lower(&syntax::parse(&source).unwrap(), &source)
    }

    fn blocks_of(text: &str) -> Vec<Range<usize>> {
        blocks(&program(text))
    }

    #[test]
    fn long_straight_runs_are_cut_into_blocks_of_function_size() {
        let text: String = (1..=450).map(|i| format!("{i}. \"{i}\n")).collect();
        assert_eq!(blocks_of(&text), [0..200, 200..400, 400..450]);
        let mut split = Vec::new();
        let code = generate(&program(&text), &mut split).to_string();
        assert_eq!(split.len(), 3 + 1, "three functions and their constants");
        assert!(
            !code.contains("const LABEL_1 "),
            "constants go with the functions"
        );
    }

    #[test]
    fn programs_above_the_threshold_are_tables_of_distinct_commands() {
        let text = |lines: usize| -> String {
            (1..=lines)
                .map(|i| format!("{i}. a;0,1?{i}\n"))
                .collect::<String>()
        };
        let mut split = Vec::new();
        let small = generate(&program(&text(TABLE_ABOVE_LINES)), &mut split).to_string();
        assert!(!small.contains("static LINES"));
        let mut items = Vec::new();
        let large = generate(&program(&text(TABLE_ABOVE_LINES + 1)), &mut items).to_string();
        assert!(large.contains("static LINES"));
        assert!(
            large.contains("static COMMANDS : & str = \"walk 0 - 0 1\n\""),
            "one walk command, written once: {large}"
        );
        assert!(large.contains("1001 0 1000 1001\n\""), "{large}");
        assert!(items.is_empty(), "the loop is the runtime's");
    }

    #[test]
    fn a_name_is_known_to_be_a_piece_only_when_all_its_placements_agree() {
        let program = program("1. a=R0,0\n2. b=R0,1\n3. a=R5,5\n4. b=r1,1\n5. c;0,1\n");
        let id = |name: &str| program.names.iter().position(|n| n == name).unwrap();
        let known = known_pieces(&program);
        let rook = Piece::from_letter('R');
        assert_eq!(known[id("a")], rook);
        assert_eq!(known[id("b")], None, "white and black rooks");
        assert_eq!(known[id("c")], None, "never placed");
    }

    #[test]
    fn blocks_run_until_a_jump_target_or_a_line_that_does_not_fall_through() {
        // 1-3 fall through; 4 is a target (of itself) and 5 is reached
        // only by falling from 4, then jumps away; 6 is a target.
        let text = "1. a=R0,0\n2. ^\n3. a;0,1!6\n4. a;0,1?4\n5. ^?1\n6. \"x\n";
        assert_eq!(blocks_of(text), vec![0..3, 3..5, 5..6]);
    }

    #[test]
    fn each_walk_loop_has_a_pace_of_its_own() {
        // Lines 2 and 4 repeat themselves by literal offsets; 3 reads its
        // offset and 5 jumps elsewhere, so they are not walks.
        let program = program("1. a=R0,0\n2. a;0,1?2\n3. a;0,*?3\n4. a;0,-1?4\n5. a;0,1?1\n");
        assert_eq!(
            walk_paces(&program),
            vec![None, Some(0), None, Some(1), None]
        );
    }

    #[test]
    fn with_jumps_read_from_input_every_line_is_a_block() {
        let text = "1. ^\n2. ^\n3. a;0,1!*\n4. ^\n";
        assert_eq!(blocks_of(text), vec![0..1, 1..2, 2..3, 3..4]);
    }
}
