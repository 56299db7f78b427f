//! Turing machine → Rust: a loop around a `match` on (state, symbol) with
//! one arm per rule, which rustc turns into jumps. The chess game is gone:
//! only the rules and the initial tape remain.

use proc_macro2::TokenStream;
use quote::quote;

use super::ir::Machine;
use crate::emit::int_literal;

/// The body of the entry function's closure (`io`, `steps`, `rt` in scope).
pub fn generate(machine: &Machine) -> TokenStream {
    let tape = machine.tape.iter().map(|&v| int_literal(v));
    let arms = machine.rules.iter().map(|rule| {
        let (state, read, next, write) = (
            int_literal(rule.state),
            int_literal(rule.read),
            int_literal(rule.next),
            int_literal(rule.write),
        );
        let (direction, doc) = if rule.left {
            (
                quote! { tape.left(); },
                format!(
                    " state {}, reading {}: write {}, state {}, left",
                    rule.state, rule.read, rule.write, rule.next
                ),
            )
        } else {
            (
                quote! { tape.right(); },
                format!(
                    " state {}, reading {}: write {}, state {}, right",
                    rule.state, rule.read, rule.write, rule.next
                ),
            )
        };
        quote! {
            #[doc = #doc]
            (#state, #read) => {
                steps.tick_unlocated()?;
                tape.write(#write);
                state = #next;
                #direction
            }
        }
    });
    quote! {
        let mut tape = rt::tm::Tape::new(&[#(#tape),*]);
        let mut state: i64 = 0;
        loop {
            match state {
                1 => {
                    steps.tick_unlocated()?;
                    tape.write(rt::tm::input_value(io)?);
                    state = 0;
                    tape.right();
                }
                2 => {
                    steps.tick_unlocated()?;
                    let symbol = tape.read();
                    if symbol != 0 {
                        rt::tm::output_symbol(io, symbol)?;
                    } else {
                        state = 0;
                    }
                    tape.right();
                }
                _ => match (state, tape.read()) {
                    #(#arms)*
                    _ => return Ok(()),
                },
            }
        }
    }
}
