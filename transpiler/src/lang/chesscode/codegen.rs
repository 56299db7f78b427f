//! Chess Code IR → Rust: cells and variables become local `i64`s (only
//! those the program uses), loops become Rust `loop`s ending in the
//! condition, commands become straight-line arithmetic. Nothing is
//! dispatched at run time.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use super::ir::{Cell, Condition, Op, Program, Stmt, Var};

/// The body of the entry function's closure (`io`, `steps`, `rt` in scope).
pub fn generate(program: &Program) -> TokenStream {
    let mut cells = BTreeSet::new();
    let mut vars = BTreeSet::new();
    let mut outputs = false;
    collect(&program.body, &mut cells, &mut vars, &mut outputs);
    let cell_decls = cells.iter().map(|&c| {
        let name = cell_ident(c);
        quote! { let mut #name: i64 = 0; }
    });
    let var_decls = vars.iter().map(|&v| {
        let name = var_ident(v);
        quote! { let mut #name: i64 = 0; }
    });
    let mode = outputs.then(|| quote! { let mut ascii = false; });
    let body = block(&program.body);
    quote! {
        #(#cell_decls)*
        #(#var_decls)*
        #mode
        #body
        Ok(())
    }
}

/// The cells and variables a block uses, and whether it outputs anything.
fn collect(
    statements: &[Stmt],
    cells: &mut BTreeSet<Cell>,
    vars: &mut BTreeSet<Var>,
    outputs: &mut bool,
) {
    for statement in statements {
        match statement {
            Stmt::Step(step) => match step.op {
                Op::Output(c) | Op::Increment(c) | Op::Input(c) => {
                    *outputs |= matches!(step.op, Op::Output(_));
                    cells.insert(c);
                }
                Op::Copy(a, b) | Op::AddCell(a, b) => {
                    cells.extend([a, b]);
                }
                Op::VarFromCell(v, c)
                | Op::CellFromVar(v, c)
                | Op::VarAddCell(v, c)
                | Op::CellAddVar(v, c)
                | Op::VarInput(v, c) => {
                    cells.insert(c);
                    vars.insert(v);
                }
                Op::AsciiMode | Op::RawMode => *outputs = true,
                Op::Label => {}
            },
            Stmt::Loop(body) => {
                cells.insert(body.condition.cell);
                cells.extend(body.condition.also);
                vars.insert(body.condition.var);
                collect(&body.body, cells, vars, outputs);
            }
        }
    }
}

fn block(statements: &[Stmt]) -> TokenStream {
    let statements = statements.iter().map(|statement| match statement {
        Stmt::Step(step) => {
            let line = Literal::u32_unsuffixed(step.source_line);
            let effect = op(step.op, &line);
            quote! { steps.tick(#line)?; #effect }
        }
        Stmt::Loop(body) => {
            let label = Literal::u32_unsuffixed(body.label_line);
            let line = Literal::u32_unsuffixed(body.condition_line);
            let inner = block(&body.body);
            let condition = condition(body.condition);
            quote! {
                steps.tick(#label)?;
                loop {
                    #inner
                    steps.tick(#line)?;
                    if !(#condition) {
                        break;
                    }
                }
            }
        }
    });
    quote! { #(#statements)* }
}

fn condition(condition: Condition) -> TokenStream {
    let cell = cell_ident(condition.cell);
    let var = var_ident(condition.var);
    let also = condition.also.map(cell_ident);
    match (condition.negated, also) {
        (false, None) => quote! { #cell == #var },
        (true, None) => quote! { #cell != #var },
        (false, Some(also)) => quote! { #cell == #var && #cell == #also },
        (true, Some(also)) => quote! { #cell != #var && #cell != #also },
    }
}

fn op(op: Op, line: &Literal) -> TokenStream {
    match op {
        Op::Output(c) => {
            let c = cell_ident(c);
            quote! { rt::chc::output(io, #c, ascii, #line)?; }
        }
        Op::Copy(to, from) => {
            let (to, from) = (cell_ident(to), cell_ident(from));
            quote! { #to = #from; }
        }
        Op::Increment(c) => {
            let c = cell_ident(c);
            quote! { #c = rt::chc::add(#c, 1, #line)?; }
        }
        Op::AddCell(to, from) => {
            let (to, from) = (cell_ident(to), cell_ident(from));
            quote! { #to = rt::chc::add(#to, #from, #line)?; }
        }
        Op::Input(c) => {
            let c = cell_ident(c);
            quote! { #c = io.read_i64(#line)?; }
        }
        Op::AsciiMode => quote! { ascii = true; },
        Op::RawMode => quote! { ascii = false; },
        Op::VarFromCell(v, c) => {
            let (v, c) = (var_ident(v), cell_ident(c));
            quote! { #v = #c; }
        }
        Op::CellFromVar(v, c) => {
            let (v, c) = (var_ident(v), cell_ident(c));
            quote! { #c = #v; }
        }
        Op::VarAddCell(v, c) => {
            let (v, c) = (var_ident(v), cell_ident(c));
            quote! { #v = rt::chc::add(#v, #c, #line)?; }
        }
        Op::CellAddVar(v, c) => {
            let (v, c) = (var_ident(v), cell_ident(c));
            quote! { #c = rt::chc::add(#c, #v, #line)?; }
        }
        Op::VarInput(v, c) => {
            let (v, c) = (var_ident(v), cell_ident(c));
            quote! { #v = io.read_i64(#line)?; #c = #v; }
        }
        Op::Label => quote! {},
    }
}

/// A cell's local: its name (`a1` … `h8` are identifiers).
fn cell_ident(cell: Cell) -> Ident {
    Ident::new(&cell.name(), Span::call_site())
}

/// A variable's local, named after its piece.
fn var_ident(var: Var) -> Ident {
    let name = match var {
        Var::Rook => "rook",
        Var::Knight => "knight",
        Var::Bishop => "bishop",
        Var::Queen => "queen",
        Var::King => "king",
    };
    Ident::new(name, Span::call_site())
}
