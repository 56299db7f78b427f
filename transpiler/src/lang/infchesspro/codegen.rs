//! InfChessPro IR → Rust: each numbered line becomes an arm of a `match`
//! on the program counter inside a loop. Names become constants, pieces
//! runtime constants; only `*` reads and board operations remain at run
//! time.

use chess2rs_runtime::icp::{Colour, Kind, Piece};
use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, ToTokens};

use super::ir::{Command, Line, Next, Operand, Program};
use crate::emit::int_literal;

/// The body of the entry function's closure (`io` and `steps` in scope,
/// the runtime's private module imported as `rt`).
pub fn generate(program: &Program) -> TokenStream {
    let name_consts = program.names.iter().enumerate().map(|(id, name)| {
        let ident = name_ident(name);
        let id = Literal::u32_unsuffixed(id as u32);
        let doc = format!(" The piece name `{name}`.");
        quote! { #[doc = #doc] const #ident: rt::icp::NameId = #id; }
    });
    let uses_input_jumps = program
        .lines
        .iter()
        .any(|line| line.on_success == Next::Input || line.on_failure == Next::Input);
    let labels = uses_input_jumps.then(|| {
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
    let arms = program
        .lines
        .iter()
        .enumerate()
        .map(|(index, line)| line_arm(program, index, line));
    let name_count = Literal::usize_unsuffixed(program.names.len());
    quote! {
        #(#name_consts)*
        #labels
        let mut board = rt::icp::Board::new(#name_count);
        let mut pc: u32 = 0;
        loop {
            match pc {
                #(#arms)*
                _ => return Ok(()),
            }
        }
    }
}

fn line_arm(program: &Program, index: usize, line: &Line) -> TokenStream {
    let at = Literal::u32_unsuffixed(line.source_line);
    let doc = format!(" line {}: {}", line.source_line, line.text);
    let index = Literal::u32_unsuffixed(index as u32);
    let (operands, count) = line.command.operands();
    let operands = &operands[..count];
    let reads = operands.iter().enumerate().filter_map(|(i, operand)| {
        let var = format_ident!("input{}", i);
        (*operand == Operand::Input).then(|| quote! { let #var = io.read_i64(#at)?; })
    });
    let value = |i: usize| match operands[i] {
        Operand::Literal(value) => int_literal(value),
        Operand::Input => format_ident!("input{}", i).into_token_stream(),
    };
    // Commands that always succeed are statements; the others are tests.
    let (statements, test) = match &line.command {
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
            let test =
                quote! { board.place(#name, rt::icp::#piece, rt::icp::Square::new(#row, #col)) };
            (quote! {}, Some(test))
        }
        Command::MoveFrom { .. } => {
            let (r1, c1, r2, c2) = (value(0), value(1), value(2), value(3));
            let test = quote! { board.move_from(rt::icp::Square::new(#r1, #c1), rt::icp::Square::new(#r2, #c2)) };
            (quote! {}, Some(test))
        }
        Command::MoveNamedTo { name, .. } => {
            let name = name_ident(&program.names[*name as usize]);
            let (row, col) = (value(0), value(1));
            let test = quote! { board.move_named_to(#name, rt::icp::Square::new(#row, #col)) };
            (quote! {}, Some(test))
        }
        Command::MoveNamedBy { name, .. } => {
            let name = name_ident(&program.names[*name as usize]);
            let (d_row, d_col) = (value(0), value(1));
            let test =
                quote! { board.move_named_by(#name, #d_row, #d_col).map_err(|e| e.in_line(#at))? };
            (quote! {}, Some(test))
        }
    };
    let next = |next: Next| match next {
        Next::Line(target) => {
            let target = Literal::u32_unsuffixed(target);
            quote! { #target }
        }
        Next::Input => quote! { rt::icp::jump_target(LABELS, io.read_i64(#at)?, #at)? },
    };
    let (success, failure) = (next(line.on_success), next(line.on_failure));
    let transfer = match test {
        None => quote! { pc = #success; },
        Some(test) if line.on_success == line.on_failure => quote! { #test; pc = #success; },
        Some(test) => quote! { pc = if #test { #success } else { #failure }; },
    };
    quote! {
        #[doc = #doc]
        #index => {
            steps.tick(#at)?;
            #(#reads)*
            #statements
            #transfer
        }
    }
}

/// The constant naming a piece name: `N_` and the name (names are made of
/// ASCII letters, digits and `_`, so this is always an identifier).
fn name_ident(name: &str) -> Ident {
    Ident::new(&format!("N_{name}"), Span::call_site())
}

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
