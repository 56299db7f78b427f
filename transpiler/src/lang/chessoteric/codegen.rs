//! Turing machine → Rust. Each state is an arm of one `match` holding the
//! code of its rules; a change of state assigns a constant and loops, which
//! rustc turns into a direct jump to the new state's code. Rules that keep
//! their state and direction become scans (or sweeps, if they rewrite what
//! they pass) over the tape, counting their steps in one go. The chess game
//! is gone: only the rules and the initial tape remain.

use std::collections::BTreeMap;

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::ir::{states, Machine, Rule};
use crate::emit::int_literal;
use crate::split::{Arm, Items, Shared, StateMachine};

/// The body of the entry function's closure (`io`, `steps`, `rt` in scope).
pub fn generate(machine: &Machine, items: &mut dyn Items) -> TokenStream {
    let tape = machine.tape.iter().map(|&v| int_literal(v));
    let mut by_state: BTreeMap<i64, Vec<&Rule>> = BTreeMap::new();
    for rule in &machine.rules {
        by_state.entry(rule.state).or_default().push(rule);
    }
    // Rules of the input and output states never run: those states do
    // their own thing.
    by_state.retain(|&state, _| state != states::INPUT && state != states::OUTPUT);
    let mut dispatch =
        StateMachine::new(format_ident!("state"), quote! { i64 }, machine.rules.len());
    dispatch.shared.push(Shared {
        name: format_ident!("tape"),
        ty: quote! { rt::tm::Tape },
        mutable: true,
    });
    // The line and column of the rule that entered the input or output
    // state, which their errors name: a cell, so split-off functions share
    // it by reference however many rules set it.
    dispatch.shared.push(Shared {
        name: format_ident!("entered_by"),
        ty: quote! { &::std::cell::Cell<(u32, u32)> },
        mutable: false,
    });
    let halt = dispatch.halt();
    let arms = by_state.iter().map(|(&state, rules)| Arm {
        key: state,
        weight: rules.len(),
        tokens: state_arm(state, rules, &halt),
    });
    let fixed_arms = quote! {
        INPUT => {
            let (line, column) = entered_by.get();
            steps.tick_at(line, column)?;
            tape.write(rt::tm::input_value(io, (line, column))?);
            tape.right();
            state = 0;
        }
        OUTPUT => loop {
            let (line, column) = entered_by.get();
            steps.tick_at(line, column)?;
            let symbol = tape.read();
            if symbol == 0 {
                tape.right();
                state = 0;
                break;
            }
            rt::tm::output_symbol(io, symbol)?;
            tape.right();
        },
    };
    // A state without rules halts (finding no rule is not a step).
    let run = dispatch.generate(fixed_arms, arms, items);
    quote! {
        /// Reads a line of input, writes its value, moves right, state 0.
        const INPUT: i64 = 1;
        /// Prints the symbols under the head up to a 0, then state 0.
        const OUTPUT: i64 = 2;
        let mut tape = rt::tm::Tape::new(&[#(#tape),*]);
        let mut state: i64 = 0;
        let entered_by = &::std::cell::Cell::new((0u32, 0u32));
        #run
    }
}

/// The `match` arm of one state: its rules by the symbol read, inside a
/// `loop` when some rule keeps the state.
fn state_arm(state: i64, rules: &[&Rule], halt: &TokenStream) -> TokenStream {
    let loops = rules.iter().any(|rule| rule.next == state);
    let arms = rules.iter().map(|rule| rule_arm(rule, loops));
    let dispatch = quote! {
        match tape.read() {
            #(#arms)*
            _ => #halt,
        }
    };
    let state = int_literal(state);
    if !loops {
        return quote! { #state => #dispatch };
    }
    let scan = scan(rules);
    quote! {
        #state => loop {
            #scan
            #dispatch
        },
    }
}

/// One rule as a `match` arm on the symbol read. Inside a state's `loop`
/// (`in_loop`), a rule that keeps the state continues it and one that
/// changes the state breaks out of it.
fn rule_arm(rule: &Rule, in_loop: bool) -> TokenStream {
    let (read, write) = (int_literal(rule.read), int_literal(rule.write));
    let (direction, word) = if rule.left {
        (quote! { tape.left(); }, "left")
    } else {
        (quote! { tape.right(); }, "right")
    };
    let doc = format!(
        " state {}, reading {}: write {}, state {}, {word} ({})",
        rule.state, rule.read, rule.write, rule.next, rule.origin
    );
    let line = proc_macro2::Literal::u32_unsuffixed(rule.line);
    let column = proc_macro2::Literal::u32_unsuffixed(rule.column);
    // A listing's rule is its line; a game's, one annotated move of a line.
    let tick = if rule.column == 0 {
        quote! { steps.tick(#line)?; }
    } else {
        quote! { steps.tick_at(#line, #column)?; }
    };
    let site = quote! { entered_by.set((#line, #column)); };
    let (next, enters) = match rule.next {
        states::INPUT => (quote! { INPUT }, site),
        states::OUTPUT => (quote! { OUTPUT }, site),
        next => (int_literal(next), TokenStream::new()),
    };
    let transition = if rule.next == rule.state {
        quote! { continue; }
    } else if in_loop {
        quote! { #enters state = #next; break; }
    } else {
        quote! { #enters state = #next; }
    };
    quote! {
        #[doc = #doc]
        #read => {
            #tick
            tape.write(#write);
            #direction
            #transition
        }
    }
}

/// If every rule that keeps the state moves the same way, a scan over the
/// symbols those rules read (a sweep if some of them rewrite the symbol);
/// the rules' own arms then only run where the scan stops short (the
/// tape's end, cell 0, the step limit).
fn scan(rules: &[&Rule]) -> TokenStream {
    let keep: Vec<&Rule> = rules
        .iter()
        .copied()
        .filter(|rule| rule.next == rule.state)
        .collect();
    let left = keep[0].left;
    if keep.iter().any(|rule| rule.left != left) {
        return TokenStream::new();
    }
    let reads = symbol_pattern(keep.iter().map(|rule| rule.read));
    let symbols = keep
        .iter()
        .map(|rule| rule.read.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let word = if left { "left" } else { "right" };
    if keep.iter().all(|rule| rule.write == rule.read) {
        let doc = format!(" Pass over {symbols} moving {word} in one go.");
        let call = if left {
            quote! { scan_left }
        } else {
            quote! { scan_right }
        };
        return quote! {
            #[doc = #doc]
            tape.#call(steps, |symbol| ::std::matches!(symbol, #reads));
        };
    }
    let doc = format!(" Rewrite {symbols} moving {word} in one go.");
    let call = if left {
        quote! { sweep_left }
    } else {
        quote! { sweep_right }
    };
    let writes = keep.iter().map(|rule| {
        let (read, write) = (int_literal(rule.read), int_literal(rule.write));
        quote! { #read => Some(#write), }
    });
    quote! {
        #[doc = #doc]
        tape.#call(steps, |symbol| match symbol {
            #(#writes)*
            _ => None,
        });
    }
}

/// A pattern matching `symbols`: runs of consecutive values as ranges.
fn symbol_pattern(symbols: impl Iterator<Item = i64>) -> TokenStream {
    let mut sorted: Vec<i64> = symbols.collect();
    sorted.sort_unstable();
    sorted.dedup();
    let mut runs: Vec<(i64, i64)> = Vec::new();
    for symbol in sorted {
        match runs.last_mut() {
            Some((_, last)) if last.checked_add(1) == Some(symbol) => *last = symbol,
            _ => runs.push((symbol, symbol)),
        }
    }
    let alternatives = runs.into_iter().map(|(first, last)| {
        let (low, high) = (int_literal(first), int_literal(last));
        match last - first {
            0 => low,
            1 => quote! { #low | #high },
            _ => quote! { #low..=#high },
        }
    });
    quote! { #(#alternatives)|* }
}
