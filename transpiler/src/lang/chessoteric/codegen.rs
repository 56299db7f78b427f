//! Turing machine → Rust. The states are grouped into *regions*
//! (`regions.rs`): each region is one arm of the dispatch `match state`,
//! and inside it every transition known at compile time is a direct jump,
//! written as structured control flow — a loop labelled after each state
//! that a transition returns to, a labelled block before each state that
//! several transitions reach, the code of any other state inline where
//! its one transition is. The head, the cells and the steps still
//! allowed are locals while a region runs. Steps are counted per stretch
//! of code: each loop iteration checks once that the longest stretch it
//! can run without another check fits in the steps allowed, and otherwise
//! hands over to the runtime's rule table (`rt::tm::finish`), which runs
//! the last steps one at a time, so the limit stops exactly the right
//! step. Rules that keep their state and direction become scans (or
//! sweeps, if they rewrite what they pass) over the tape, counting their
//! steps in one go. The chess game is gone: only the rules and the
//! initial tape remain.

use std::collections::{BTreeMap, BTreeSet};

use chess2rs_runtime::__private::tm_blocks as rt_blocks;
use chess2rs_runtime::__private::tm_table as rt_table;
use proc_macro2::{Ident, Punct, Spacing, Span, TokenStream};
use quote::{format_ident, quote, ToTokens, TokenStreamExt};

use super::ir::{states, Machine, Rule};
use super::regions::{self, Region, Regions};
use crate::emit::int_literal;
use crate::split::{Arm, Items, Shared, StateMachine};

/// The body of the entry function's closure (`io`, `steps`, `rt` in scope).
pub fn generate(machine: &Machine, items: &mut dyn Items) -> TokenStream {
    let tape = machine.tape.iter().map(|&v| int_literal(v));
    let mut by_state: BTreeMap<i64, Vec<&Rule>> = BTreeMap::new();
    for rule in &machine.rules {
        by_state.entry(rule.rule.state).or_default().push(rule);
    }
    // Rules of the input and output states never run: those states do
    // their own thing.
    by_state.retain(|&state, _| state != states::INPUT && state != states::OUTPUT);
    let mut dispatch =
        StateMachine::new(format_ident!("state"), quote! { i64 }, machine.rules.len());
    dispatch
        .shared
        .push(Shared::changed("tape", quote! { rt::tm::Tape }));
    // The line and column of the rule that entered the input or output
    // state, which their errors name: a cell, so split-off functions share
    // it by reference however many rules set it.
    dispatch.shared.push(Shared::read(
        "entered_by",
        quote! { &::std::cell::Cell<(u32, u32)> },
    ));
    let context = Context {
        halt: dispatch.halt(),
        split: dispatch.is_split(),
        by_state: &by_state,
    };
    let regions = Regions::new(&by_state);
    let has_regions = regions.iter().next().is_some();
    if machine.rules.len() > TABLE_ABOVE_RULES && has_regions {
        return table_machine(machine, &by_state, &regions, items);
    }
    if has_regions {
        items.push(rule_table(&by_state));
    }
    let arms = regions.iter().map(|region| Arm {
        key: region.root(),
        weight: region.weight(),
        tokens: context.region_arm(region),
    });
    let fixed_arms = quote! {
        INPUT => {
            let (line, column) = entered_by.get();
            steps.tick_at(line, column)?;
            tape.write(rt::tm::input_value(io, (line, column))?);
            tape.right((line, column))?;
            state = 0;
        }
        OUTPUT => loop {
            let (line, column) = entered_by.get();
            steps.tick_at(line, column)?;
            let symbol = tape.read();
            if symbol == 0 {
                tape.right((line, column))?;
                state = 0;
                break;
            }
            rt::tm::output_symbol(io, symbol)?;
            tape.right((line, column))?;
        },
    };
    // A state without rules halts (finding no rule is not a step).
    let run = dispatch.generate(fixed_arms, arms, items);
    let macro_steps = (has_regions && macro_steps_apply(machine, &by_state)).then(|| {
        let roots = region_roots(&regions);
        quote! {
            /// The states the code below is entered at (the roots of its
            /// regions): macro steps that stop paying end in one of them.
            const ROOTS: &[i64] = &[#(#roots),*];
            // Macro steps while they pay, then the code below.
            if rt::tm_blocks::run(RULES, ROOTS, &mut tape, &mut state, entered_by, steps) {
                let control = rt::tm::Control { state, entered_by: entered_by.get() };
                return rt::tm::finish(RULES, &mut tape, control, io, steps);
            }
        }
    });
    quote! {
        /// Reads a line of input, writes its value, moves right, state 0.
        const INPUT: i64 = 1;
        /// Prints the symbols under the head up to a 0, then state 0.
        const OUTPUT: i64 = 2;
        let mut tape = rt::tm::Tape::new(&[#(#tape),*]);
        let mut state: i64 = 0;
        let entered_by = &::std::cell::Cell::new((0u32, 0u32));
        #macro_steps
        #run
    }
}

/// The states where the regions start (where macro steps hand over), in
/// order, once each, as literals.
fn region_roots(regions: &Regions) -> Vec<TokenStream> {
    let roots = regions
        .iter()
        .map(|region| region.root())
        .collect::<BTreeSet<_>>();
    roots.into_iter().map(int_literal).collect()
}

/// Above this many rules, a machine is run by the runtime from its rule
/// table (`rt::tm_table::run_table`: macro steps where they apply, then
/// one step at a time) instead of being compiled into regions: rustc's
/// cost for a region's code grows with every rule (10,000 rules took it
/// minutes and gigabytes), the table's stays small.
pub const TABLE_ABOVE_RULES: usize = 1_000;

/// The body of a machine of more than [`TABLE_ABOVE_RULES`] rules: its
/// rules, the roots of its regions (where macro steps hand over) and its
/// tape as texts (string literals, one token each however long), which
/// the runtime reads when the program starts and runs.
fn table_machine(
    machine: &Machine,
    by_state: &BTreeMap<i64, Vec<&Rule>>,
    regions: &Regions,
    items: &mut dyn Items,
) -> TokenStream {
    let mut rules: Vec<&Rule> = by_state.values().flatten().copied().collect();
    rules.sort_by_key(|rule| (rule.rule.state, rule.rule.read));
    let mut rules_text = String::new();
    for rule in rules {
        rt_table::write_rule(&mut rules_text, &rule.rule);
    }
    let roots: Vec<i64> = regions
        .iter()
        .map(|region| region.root())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let (mut roots_text, mut tape_text) = (String::new(), String::new());
    rt_table::write_numbers(&mut roots_text, &roots);
    rt_table::write_numbers(&mut tape_text, &machine.tape);
    let (rules, roots, tape) = (
        items.text(&rules_text),
        items.text(&roots_text),
        items.text(&tape_text),
    );
    let macro_steps = macro_steps_apply(machine, by_state);
    quote! {
        /// Every rule by state and symbol read, one a line: `STATE READ
        /// NEXT WRITE MOVE LINE COLUMN`.
        static RULES: &str = #rules;
        /// The states where macro steps hand over.
        static ROOTS: &str = #roots;
        /// The initial tape from cell 0.
        static TAPE: &str = #tape;
        rt::tm_table::run_table(
            &rt::tm_table::Table {
                rules: RULES,
                roots: ROOTS,
                tape: TAPE,
                macro_steps: #macro_steps,
            },
            io,
            steps,
        )
    }
}

/// Whether the machine may run in macro steps (`rt::tm_blocks`) if it has
/// regions: its rules and tape use at most 16 symbols (blank included),
/// so a block of 16 cells fits in a word.
fn macro_steps_apply(machine: &Machine, by_state: &BTreeMap<i64, Vec<&Rule>>) -> bool {
    let mut symbols: Vec<i64> = vec![0];
    let rules = by_state.values().flatten();
    symbols.extend(rules.flat_map(|rule| [rule.rule.read, rule.rule.write]));
    symbols.extend(&machine.tape);
    symbols.sort_unstable();
    symbols.dedup();
    symbols.len() <= rt_blocks::CODES
}

/// `RULES`, every rule sorted by state and symbol, for the last steps
/// before the step limit, which the runtime runs one at a time.
fn rule_table(by_state: &BTreeMap<i64, Vec<&Rule>>) -> TokenStream {
    let mut rules: Vec<&Rule> = by_state.values().flatten().copied().collect();
    rules.sort_by_key(|rule| (rule.rule.state, rule.rule.read));
    let rows = rules.iter().map(|rule| {
        let rule = &rule.rule;
        let (state, read) = (int_literal(rule.state), int_literal(rule.read));
        let (next, write, left) = (int_literal(rule.next), int_literal(rule.write), rule.left);
        let line = proc_macro2::Literal::u32_unsuffixed(rule.line);
        let column = proc_macro2::Literal::u32_unsuffixed(rule.column);
        quote! {
            rt::tm::Rule { state: #state, read: #read, next: #next, write: #write,
                left: #left, line: #line, column: #column },
        }
    });
    quote! {
        /// Every rule by state and symbol read, for the steps run one at a
        /// time when the step limit is near.
        const RULES: &[rt::tm::Rule] = &[#(#rows)*];
    }
}

/// What the code of every region needs to know.
struct Context<'a> {
    /// The statement that halts the program.
    halt: TokenStream,
    /// Whether the regions are in split-off functions (`tape` is then a
    /// `&mut`, and a finished run returns `Ok(None)`).
    split: bool,
    /// The rules of each state.
    by_state: &'a BTreeMap<i64, Vec<&'a Rule>>,
}

/// A label (`'s3`, `'m3`) in generated code.
struct Label(String);

impl Label {
    /// The label of the loop of the state at `node` (a loop header).
    fn looped(region: &Region, node: usize) -> Self {
        Label(format!("s{}", unsigned_name(region.state(node))))
    }

    /// The label of the block after which the state at `node` (reached by
    /// several transitions) starts.
    fn merge(region: &Region, node: usize) -> Self {
        Label(format!("m{}", unsigned_name(region.state(node))))
    }

    /// The label of the block after which the state at `node` scans.
    fn scan(region: &Region, node: usize) -> Self {
        Label(format!("k{}", unsigned_name(region.state(node))))
    }
}

/// A state in a name: its digits, with `n` for a minus sign.
fn unsigned_name(state: i64) -> String {
    if state < 0 {
        format!("n{}", state.unsigned_abs())
    } else {
        state.to_string()
    }
}

impl ToTokens for Label {
    fn to_tokens(&self, tokens: &mut TokenStream) {
        tokens.append(Punct::new('\'', Spacing::Joint));
        tokens.append(Ident::new(&self.0, Span::call_site()));
    }
}

impl Context<'_> {
    /// The dispatch arm of `region`: the head, cells and steps allowed
    /// become locals, the states' code runs until control leaves the
    /// region (then the locals go back), the program halts, or the steps
    /// allowed run short of what the code ahead may take.
    fn region_arm(&self, region: &Region) -> TokenStream {
        let root = int_literal(region.root());
        let code = self.tree(region, 0, 0);
        let (tape, finished) = if self.split {
            (quote! { tape }, quote! { .map(|()| None) })
        } else {
            (quote! { &mut tape }, TokenStream::new())
        };
        quote! {
            #root => {
                let (tape_cells, mut head) = tape.parts();
                let mut cells: &mut [i64] = &mut tape_cells[..];
                let mut fuel = steps.available();
                let careful = 'region: { #code };
                tape.set_head(head);
                steps.spend_down_to(fuel);
                if careful {
                    let control = rt::tm::Control { state, entered_by: entered_by.get() };
                    return rt::tm::finish(RULES, #tape, control, io, steps) #finished;
                }
            }
        }
    }

    /// The code of the state at `node` and of the states it dominates
    /// (Ramsey's translation of a reducible flow graph: the states several
    /// transitions reach follow labelled blocks, in order, inside the
    /// state's loop if it is a loop header). `pending` steps ran since the
    /// last time `fuel` was counted down.
    fn tree(&self, region: &Region, node: usize, pending: u64) -> TokenStream {
        let merges = region.merge_children(node);
        if region.is_header(node) {
            let body = self.within(region, node, &merges, 0);
            let counted = count_down(pending);
            let label = Label::looped(region, node);
            return quote! {
                #counted
                #label: loop { #body }
            };
        }
        self.within(region, node, &merges, pending)
    }

    /// The code of the state at `node`, inside blocks after which the
    /// states `merges` (highest first in reverse postorder) follow.
    fn within(&self, region: &Region, node: usize, merges: &[usize], pending: u64) -> TokenStream {
        let Some((&merge, rest)) = merges.split_first() else {
            return self.state_code(region, node, pending);
        };
        let inner = self.within(region, node, rest, pending);
        let label = Label::merge(region, merge);
        let after = self.tree(region, merge, 0);
        quote! {
            #label: { #inner }
            #after
        }
    }

    /// One state: its scan, the check of the steps allowed (at a loop
    /// header or the region's start), its rules by the symbol read.
    fn state_code(&self, region: &Region, node: usize, pending: u64) -> TokenStream {
        let state = region.state(node);
        let rules = &self.by_state[&state];
        let mut code = TokenStream::new();
        if region.is_header(node) || node == 0 {
            let budget = proc_macro2::Literal::u64_unsuffixed(region.budget(node));
            let state = int_literal(state);
            code.extend(quote! {
                if fuel < #budget {
                    state = #state;
                    break 'region true;
                }
            });
        }
        let arms = rules
            .iter()
            .map(|rule| self.rule_arm(region, node, rule, pending + 1));
        let halt = &self.halt;
        code.extend(quote! {
            match cells[head] {
                #(#arms)*
                _ => #halt,
            }
        });
        let scan = scan(state, rules);
        if scan.is_empty() {
            return code;
        }
        // The rules that keep the state run one step, then the scan the
        // rest of their run: a run of none costs no scan.
        // The scan is inside the blocks the states this one dominates
        // follow, so it goes back to the loop itself.
        let label = Label::scan(region, node);
        let looped = Label::looped(region, node);
        quote! {
            #label: { #code }
            #scan
            continue #looped;
        }
    }

    /// Whether the state at `node` scans or sweeps.
    fn scans(&self, region: &Region, node: usize) -> bool {
        let state = region.state(node);
        !scan(state, &self.by_state[&state]).is_empty()
    }

    /// One rule as a `match` arm on the symbol read, `pending` steps (its
    /// own included) not yet counted down.
    fn rule_arm(&self, region: &Region, node: usize, rule: &Rule, pending: u64) -> TokenStream {
        let read = int_literal(rule.rule.read);
        let write = if rule.rule.write == rule.rule.read {
            TokenStream::new()
        } else {
            let write = int_literal(rule.rule.write);
            quote! { cells[head] = #write; }
        };
        let (direction, word) = if rule.rule.left {
            (quote! { head = head.saturating_sub(1); }, "left")
        } else {
            let line = proc_macro2::Literal::u32_unsuffixed(rule.rule.line);
            let column = proc_macro2::Literal::u32_unsuffixed(rule.rule.column);
            let right = quote! {
                head += 1;
                if head == cells.len() {
                    cells = rt::tm::grow(tape_cells, (#line, #column))?;
                }
            };
            (right, "right")
        };
        let doc = format!(
            " state {}, reading {}: write {}, state {}, {word} ({})",
            rule.rule.state, rule.rule.read, rule.rule.write, rule.rule.next, rule.origin
        );
        let transition = self.transition(region, node, rule, pending);
        quote! {
            #[doc = #doc]
            #read => {
                #write
                #direction
                #transition
            }
        }
    }

    /// Where control goes after `rule`, run at `node` with `pending` steps
    /// not yet counted down.
    fn transition(&self, region: &Region, node: usize, rule: &Rule, pending: u64) -> TokenStream {
        let counted = count_down(pending);
        let line = proc_macro2::Literal::u32_unsuffixed(rule.rule.line);
        let column = proc_macro2::Literal::u32_unsuffixed(rule.rule.column);
        let special = match rule.rule.next {
            states::INPUT => Some(quote! { INPUT }),
            states::OUTPUT => Some(quote! { OUTPUT }),
            _ => None,
        };
        if let Some(special) = special {
            return quote! {
                #counted
                entered_by.set((#line, #column));
                state = #special;
                break 'region false;
            };
        }
        if !self.by_state.contains_key(&rule.rule.next) {
            // No rule in the next state: the program halts there.
            return self.halt.clone();
        }
        let Some(target) = region.node(rule.rule.next) else {
            // Another region's state.
            let next = int_literal(rule.rule.next);
            return quote! {
                #counted
                state = #next;
                break 'region false;
            };
        };
        match regions::edge(region, node, target) {
            regions::Edge::Back if target == node && self.scans(region, node) => {
                let label = Label::scan(region, node);
                quote! { #counted break #label; }
            }
            regions::Edge::Back => {
                let label = Label::looped(region, target);
                quote! { #counted continue #label; }
            }
            regions::Edge::Merge => {
                let label = Label::merge(region, target);
                quote! { #counted break #label; }
            }
            regions::Edge::Inline => self.tree(region, target, pending),
        }
    }
}

/// Counts `pending` steps down from `fuel`.
fn count_down(pending: u64) -> TokenStream {
    if pending == 0 {
        return TokenStream::new();
    }
    let pending = proc_macro2::Literal::u64_unsuffixed(pending);
    quote! { fuel -= #pending; }
}

/// If every rule of `state` that keeps it moves the same way, a scan over
/// the symbols those rules read (a sweep if some of them rewrite the
/// symbol), counting one step per cell passed; the rules' own arms then
/// only run where the scan stops short (the tape's end, cell 0, the steps
/// allowed).
fn scan(state: i64, rules: &[&Rule]) -> TokenStream {
    let keep: Vec<&Rule> = rules
        .iter()
        .copied()
        .filter(|rule| rule.rule.next == state)
        .collect();
    let Some(first) = keep.first() else {
        return TokenStream::new();
    };
    let left = first.rule.left;
    if keep.iter().any(|rule| rule.rule.left != left) {
        return TokenStream::new();
    }
    let symbols = keep
        .iter()
        .map(|rule| rule.rule.read.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let word = if left { "left" } else { "right" };
    let moved = if left {
        quote! { head -= moved; }
    } else {
        quote! { head += moved; }
    };
    let (doc, call) = if keep.iter().all(|rule| rule.rule.write == rule.rule.read) {
        let reads = symbol_pattern(keep.iter().map(|rule| rule.rule.read));
        let function = if left {
            quote! { scan_left }
        } else {
            quote! { scan_right }
        };
        (
            format!(" Pass over {symbols} moving {word} in one go."),
            quote! { rt::tm::#function(cells, head, fuel, |symbol| ::std::matches!(symbol, #reads)) },
        )
    } else {
        let function = if left {
            quote! { sweep_left }
        } else {
            quote! { sweep_right }
        };
        let writes = keep.iter().map(|rule| {
            let (read, write) = (int_literal(rule.rule.read), int_literal(rule.rule.write));
            quote! { #read => Some(#write), }
        });
        (
            format!(" Rewrite {symbols} moving {word} in one go."),
            quote! {
                rt::tm::#function(cells, head, fuel, |symbol| match symbol {
                    #(#writes)*
                    _ => None,
                })
            },
        )
    };
    quote! {
        #[doc = #doc]
        let moved = #call;
        #moved
        fuel -= moved as u64;
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
