//! Finvara IR → Rust: the path tables the compiler built from each piece
//! type's notation become constants; each move line becomes a `match` arm
//! with its piece type, squares and colour as constants.

use chess2rs_runtime::fv::{Cell, PieceValue};
use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::ir::{Action, Program};
use crate::emit::int_literal;

/// The body of the entry function's closure (`io`, `steps`, `rt` in scope).
pub fn generate(program: &Program) -> TokenStream {
    let steps = program.steps.iter().map(|s| {
        let (square, capture, no_hole) = (Literal::u16_unsuffixed(s.square), s.capture, s.no_hole);
        quote! { rt::fv::Step { square: #square, capture: #capture, no_hole: #no_hole } }
    });
    let paths = program.paths.iter().map(|p| {
        let (first_step, count, end) = (Literal::u32_unsuffixed(p.first_step), Literal::u16_unsuffixed(p.steps), Literal::u16_unsuffixed(p.end));
        let (must_capture, no_capture, promotes) = (p.must_capture, p.no_capture, p.promotes);
        let (first_target, targets) = (Literal::u32_unsuffixed(p.first_target), Literal::u16_unsuffixed(p.targets));
        quote! {
            rt::fv::Path {
                first_step: #first_step, steps: #count, end: #end, must_capture: #must_capture,
                no_capture: #no_capture, promotes: #promotes, first_target: #first_target, targets: #targets
            }
        }
    });
    let targets = program.targets.iter().map(|&t| Literal::u16_unsuffixed(t));
    let index = program.index.iter().map(|&(a, b)| {
        let (a, b) = (Literal::u32_unsuffixed(a), Literal::u32_unsuffixed(b));
        quote! { (#a, #b) }
    });
    let values = program.values.iter().map(|v| match *v {
        PieceValue::Royal => quote! { rt::fv::PieceValue::Royal },
        PieceValue::Number(n) => {
            let n = int_literal(n);
            quote! { rt::fv::PieceValue::Number(#n) }
        }
        PieceValue::X => quote! { rt::fv::PieceValue::X },
        PieceValue::Y => quote! { rt::fv::PieceValue::Y },
    });
    let board = program.board.iter().map(|c| match *c {
        Cell::Empty => quote! { rt::fv::Cell::Empty },
        Cell::Hole => quote! { rt::fv::Cell::Hole },
        Cell::Piece { kind, white } => {
            let kind = Literal::u16_unsuffixed(kind);
            quote! { rt::fv::Cell::Piece { kind: #kind, white: #white } }
        }
    });
    let (cols, rows) = (
        Literal::u16_unsuffixed(program.cols),
        Literal::u16_unsuffixed(program.rows),
    );
    let arms = program.lines.iter().enumerate().map(|(index, line)| {
        let at = Literal::u32_unsuffixed(line.source_line);
        let doc = format!(" line {}: {}", line.source_line, line.text);
        let this = Literal::u32_unsuffixed(index as u32);
        let (next, after_next) = (Literal::u32_unsuffixed(index as u32 + 1), Literal::u32_unsuffixed(index as u32 + 2));
        let (kind, white) = (Literal::u16_unsuffixed(line.kind), line.white);
        let body = match line.action {
            Action::Move { from, to, promote } => {
                let (from, to) = (Literal::u16_unsuffixed(from), Literal::u16_unsuffixed(to));
                let promote = match promote {
                    Some(p) => {
                        let p = Literal::u16_unsuffixed(p);
                        quote! { Some(#p) }
                    }
                    None => quote! { None },
                };
                quote! {
                    let valid = game.try_move(&TABLES, io, #white, #kind, #from, #to, #promote, #at)?;
                    pc = if !valid && game.skip_next() { #after_next } else { #next };
                }
            }
            Action::Checks { square, target } => {
                let (square, target) = (Literal::u16_unsuffixed(square), Literal::u32_unsuffixed(target));
                quote! {
                    game.place(#kind, #white, #square);
                    pc = #target;
                }
            }
        };
        quote! {
            #[doc = #doc]
            #this => {
                steps.tick(#at)?;
                #body
            }
        }
    });
    quote! {
        /// Path steps of every piece type, colour and square.
        static STEPS: &[rt::fv::Step] = &[#(#steps),*];
        /// Paths, in notation order.
        static PATHS: &[rt::fv::Path] = &[#(#paths),*];
        /// Promotion targets.
        static TARGETS: &[u16] = &[#(#targets),*];
        /// For each piece type, colour and square: its paths.
        static INDEX: &[(u32, u32)] = &[#(#index),*];
        /// Piece type values.
        static VALUES: &[rt::fv::PieceValue] = &[#(#values),*];
        /// The initial board, bottom row first.
        static BOARD: &[rt::fv::Cell] = &[#(#board),*];
        static TABLES: rt::fv::Tables<'static> = rt::fv::Tables {
            steps: STEPS, paths: PATHS, targets: TARGETS, index: INDEX, values: VALUES, cols: #cols, rows: #rows,
        };
        let mut game = rt::fv::Game::new(BOARD);
        let mut pc: u32 = 0;
        loop {
            match pc {
                #(#arms)*
                _ => return Ok(()),
            }
            if game.someone_lost(&TABLES) {
                return Ok(());
            }
        }
    }
}
