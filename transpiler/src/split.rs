//! Generated programs that rustc compiles quickly at any size.
//!
//! rustc's time and memory grow faster than linearly with the size of one
//! function (borrow checking, LLVM's passes), so a 10,000-line program
//! compiled into one `match` costs minutes and gigabytes. Large programs are
//! therefore split into functions of at most [`FUNCTION_WEIGHT`] source
//! lines each; small ones (every benchmark, nearly every real program) keep
//! the single function, so their code and speed do not change.
//!
//! [`StateMachine`] splits the `loop { match pc { … } }` of InfChessPro,
//! Finvara and Turing machines: each function runs its own arms in its own
//! loop, so a jump inside a function stays a jump, and returns the program
//! counter when control leaves it. Chess Code, whose loops are structured,
//! splits its statement lists itself with the same limit.

use proc_macro2::{Ident, Literal, TokenStream};
use quote::{format_ident, quote};

/// The most source lines (about) one generated function holds when a
/// program is split.
pub const FUNCTION_WEIGHT: usize = 200;

/// The generic parameters and the I/O and step-counter parameters every
/// split-off function takes (`io` and `steps`, as in the entry closure).
pub fn io_params() -> (TokenStream, TokenStream) {
    (
        quote! { <R: ::std::io::BufRead, W: ::std::io::Write> },
        quote! { io: &mut rt::Io<R, W>, steps: &mut rt::StepCounter },
    )
}

/// A variable the arms of a state machine use besides `io` and `steps`,
/// passed to split-off functions.
pub struct Shared {
    /// Its name in the generated code.
    pub name: Ident,
    /// Its type (without the `&mut` when `mutable`).
    pub ty: TokenStream,
    /// Whether the arms change it (passed as `&mut`) or only read it (a
    /// `Copy` value, such as a shared reference, passed as it is).
    pub mutable: bool,
}

impl Shared {
    /// A variable `name` of type `ty` that the arms change.
    pub fn changed(name: &str, ty: TokenStream) -> Self {
        Shared {
            name: format_ident!("{name}"),
            ty,
            mutable: true,
        }
    }

    /// A `Copy` value `name` of type `ty` that the arms only read.
    pub fn read(name: &str, ty: TokenStream) -> Self {
        Shared {
            name: format_ident!("{name}"),
            ty,
            mutable: false,
        }
    }
}

/// One arm of a state machine.
pub struct Arm {
    /// The program-counter value it matches (arms come in increasing order).
    pub key: i64,
    /// The arm, pattern included.
    pub tokens: TokenStream,
    /// How many source lines it holds.
    pub weight: usize,
}

/// A `loop { match COUNTER { … } }` over the arms of a program, written
/// as one loop or, when the arms are heavy, as one function per group of
/// arms.
pub struct StateMachine {
    /// The program counter's name (`pc`, `state`).
    pub counter: Ident,
    /// Its type (`u32`, `i64`).
    pub counter_type: TokenStream,
    /// The variables the arms use.
    pub shared: Vec<Shared>,
    /// Put at the start of every split-off function (e.g. the macros the
    /// arms call, which must be defined where their variables are).
    pub prelude: TokenStream,
    /// Run after every arm, in every loop: given the statement that halts
    /// the program there.
    pub after_arm: Box<dyn Fn(TokenStream) -> TokenStream>,
    split: bool,
}

impl StateMachine {
    /// A state machine for arms of `total_weight` source lines in all.
    pub fn new(counter: Ident, counter_type: TokenStream, total_weight: usize) -> Self {
        StateMachine {
            counter,
            counter_type,
            shared: Vec::new(),
            prelude: TokenStream::new(),
            after_arm: Box::new(|_| TokenStream::new()),
            split: total_weight > FUNCTION_WEIGHT,
        }
    }

    /// Whether the arms go into split-off functions.
    pub fn is_split(&self) -> bool {
        self.split
    }

    /// The expression an arm uses to halt the program.
    pub fn halt(&self) -> TokenStream {
        if self.split {
            quote! { return Ok(None) }
        } else {
            quote! { return Ok(()) }
        }
    }

    /// The loop. `fixed_arms` stay in the entry's own loop (they must not
    /// halt with [`StateMachine::halt`]); `arms`, in increasing key order,
    /// go into functions when the machine is split, each handed to `items`
    /// as soon as it is complete (so a large program is never held whole).
    /// Any other counter value halts.
    pub fn generate(
        &self,
        fixed_arms: TokenStream,
        arms: impl IntoIterator<Item = Arm>,
        items: &mut dyn Items,
    ) -> TokenStream {
        let counter = &self.counter;
        let mut arms = arms.into_iter().peekable();
        if arms.peek().is_none() && fixed_arms.is_empty() {
            // No line: the program halts at once.
            return quote! { Ok(()) };
        }
        if !self.split {
            let arms = arms.map(|arm| arm.tokens);
            return self.entry_loop(fixed_arms, quote! { #(#arms)* });
        }
        // Each function's name and its first and last keys.
        let mut functions: Vec<(Ident, i64, i64)> = Vec::new();
        let mut group: Vec<Arm> = Vec::new();
        let mut weight = 0;
        let mut flush = |group: &mut Vec<Arm>, functions: &mut Vec<(Ident, i64, i64)>| {
            if let (Some(first), Some(last)) = (group.first(), group.last()) {
                let name = format_ident!("part_{}", functions.len());
                functions.push((name.clone(), first.key, last.key));
                items.push(self.function(&name, group));
                group.clear();
            }
        };
        for arm in arms {
            if !group.is_empty() && weight + arm.weight > FUNCTION_WEIGHT {
                flush(&mut group, &mut functions);
                weight = 0;
            }
            weight += arm.weight;
            group.push(arm);
        }
        flush(&mut group, &mut functions);
        let calls = functions
            .iter()
            .enumerate()
            .map(|(index, (name, first, last))| {
                // The ranges cover every counter value between the functions'
                // first keys, so none falls between two functions.
                let last = match functions.get(index + 1) {
                    Some((_, next, _)) => next - 1,
                    None => *last,
                };
                let (first, last) = (key_literal(*first), key_literal(last));
                let arguments = self.shared.iter().map(|shared| {
                    let name = &shared.name;
                    if shared.mutable {
                        quote! { &mut #name }
                    } else {
                        quote! { #name }
                    }
                });
                quote! {
                    #first..=#last => match #name(#counter, #(#arguments,)* io, steps)? {
                        Some(next) => #counter = next,
                        None => return Ok(()),
                    },
                }
            });
        self.entry_loop(fixed_arms, quote! { #(#calls)* })
    }

    /// The entry's loop: a match on the counter with `fixed_arms`, then
    /// `arms`; any other value halts.
    fn entry_loop(&self, fixed_arms: TokenStream, arms: TokenStream) -> TokenStream {
        let counter = &self.counter;
        let after_arm = (self.after_arm)(quote! { return Ok(()) });
        quote! {
            loop {
                match #counter {
                    #fixed_arms
                    #arms
                    _ => return Ok(()),
                }
                #after_arm
            }
        }
    }

    /// A split-off function running `arms` until the counter leaves them:
    /// it returns the counter (`Some`), or `None` when the program halts.
    fn function(&self, name: &Ident, arms: &[Arm]) -> TokenStream {
        let (counter, counter_type) = (&self.counter, &self.counter_type);
        let (generics, io_params) = io_params();
        let params = self.shared.iter().map(|shared| {
            let (name, ty) = (&shared.name, &shared.ty);
            if shared.mutable {
                quote! { #name: &mut #ty }
            } else {
                quote! { #name: #ty }
            }
        });
        let doc = format!(
            " Arms {}..={} of the program, until control leaves them.",
            arms[0].key,
            arms[arms.len() - 1].key
        );
        let prelude = &self.prelude;
        let after_arm = (self.after_arm)(self.halt());
        let arms = arms.iter().map(|arm| &arm.tokens);
        quote! {
            #[doc = #doc]
            #[inline(never)]
            fn #name #generics(
                mut #counter: #counter_type,
                #(#params,)*
                #io_params,
            ) -> ::std::result::Result<::std::option::Option<#counter_type>, rt::RuntimeError> {
                #prelude
                loop {
                    match #counter {
                        #(#arms)*
                        _ => return Ok(Some(#counter)),
                    }
                    #after_arm
                }
            }
        }
    }
}

/// A program-counter value as a pattern.
fn key_literal(key: i64) -> Literal {
    if key < 0 {
        // Counters are never negative in practice; a negative one is
        // written as a suffixed literal so it still parses as a pattern.
        Literal::i64_suffixed(key)
    } else {
        Literal::u64_unsuffixed(key as u64)
    }
}

/// Where generated code puts the items it makes — split-off functions and
/// large tables — before the statements that use them.
pub trait Items {
    /// Adds one item.
    fn push(&mut self, item: TokenStream);

    /// A string literal holding `text` (as
    /// [`multiline_literal`](crate::runtime_errors::multiline_literal)
    /// writes it), for the entry function's body, not for items. A
    /// program file's sink ([`crate::emit::PrettyItems`]) keeps a long
    /// text aside and returns a placeholder that the file's text replaces
    /// with the literal, so that the text is never held as tokens, parsed
    /// or pretty-printed (copies that cost hundreds of megabytes for a
    /// million-line program's tables).
    fn text(&mut self, text: &str) -> TokenStream {
        crate::runtime_errors::multiline_literal(text)
    }
}

/// Items kept as tokens, in order (for [`crate::compile`] and the macro).
impl Items for Vec<TokenStream> {
    fn push(&mut self, item: TokenStream) {
        Vec::push(self, item);
    }
}

/// Consecutive groups of `items` whose weights add up to at most
/// [`FUNCTION_WEIGHT`] (an item heavier than that is a group of its own).
pub fn groups<T>(items: &[T], weight: impl Fn(&T) -> usize) -> Vec<&[T]> {
    let mut groups = Vec::new();
    let (mut start, mut total) = (0, 0);
    for (index, item) in items.iter().enumerate() {
        let w = weight(item);
        if index > start && total + w > FUNCTION_WEIGHT {
            groups.push(&items[start..index]);
            (start, total) = (index, 0);
        }
        total += w;
    }
    if start < items.len() {
        groups.push(&items[start..]);
    }
    groups
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_fill_up_to_the_weight_and_keep_heavy_items_alone() {
        let weights = [150, 50, 1, FUNCTION_WEIGHT + 5, 10, 10];
        let sizes: Vec<usize> = groups(&weights, |w| *w).iter().map(|g| g.len()).collect();
        assert_eq!(sizes, vec![2, 1, 1, 2]);
        assert!(groups(&[] as &[usize], |w| *w).is_empty());
    }

    #[test]
    fn small_machines_stay_one_loop_and_large_ones_split() {
        let arm = |key: i64| Arm {
            key,
            tokens: quote! { #key => {} },
            weight: 100,
        };
        let small = StateMachine::new(format_ident!("pc"), quote! { u32 }, 100);
        let mut items = Vec::new();
        let code = small
            .generate(TokenStream::new(), vec![arm(0)], &mut items)
            .to_string();
        assert!(items.is_empty());
        assert!(!code.contains("fn part_0"), "{code}");
        assert_eq!(small.halt().to_string(), "return Ok (())");

        let large = StateMachine::new(format_ident!("pc"), quote! { u32 }, 300);
        let mut items = Vec::new();
        let code = large
            .generate(TokenStream::new(), vec![arm(0), arm(1), arm(2)], &mut items)
            .to_string();
        assert_eq!(items.len(), 2);
        assert!(items[0].to_string().contains("fn part_0"));
        assert!(items[1].to_string().contains("fn part_1"));
        assert!(code.contains("0 ..= 1 => match part_0"), "{code}");
        assert!(large.is_split());
        assert!(code.contains("2 ..= 2 => match part_1"), "{code}");
        assert_eq!(large.halt().to_string(), "return Ok (None)");
    }
}

#[cfg(test)]
mod file_tests {
    use crate::{compile, compile_file, emit, CompileOptions, Language, Source};

    /// The program file `compile_file` streams holds exactly the code of
    /// `compile`, for a program large enough to be split.
    #[test]
    fn streamed_files_hold_the_same_code_as_compile() {
        let mut text = String::from("1. c=R0,0\n");
        for label in 2..600 {
            text.push_str(&format!("{label}. c;0,1?{}\n", (label * 7) % 599 + 1));
        }
        let source = Source::new("long.icp", text);
        let (streamed, _) = compile_file(&source, Language::InfChessPro, false).unwrap();
        let streamed = streamed.to_string();
        assert!(streamed.contains("fn part_2"), "not split");
        assert_same_code(&source, &streamed);
    }

    /// The same for a program of tables whose texts are long enough to be
    /// kept aside as literals and put back in place of placeholders.
    #[test]
    fn streamed_files_put_long_texts_back_in_place() {
        let text: String = (0..6_000)
            .map(|i| format!("{}. p{i}=R{i},0\n", i + 1))
            .collect();
        let source = Source::new("names.icp", text);
        let (streamed, _) = compile_file(&source, Language::InfChessPro, false).unwrap();
        let streamed = streamed.to_string();
        assert!(!streamed.contains("CHESS2RS_TEXT"), "a placeholder is left");
        assert!(streamed.contains("static COMMANDS: &str = \"place 0 R 0 0\n"));
        assert!(streamed.contains("\n6000 5999 6000 6000\n\";"));
        assert_same_code(&source, &streamed);
    }

    /// Checks that `streamed` holds the code `compile` makes of `source`.
    fn assert_same_code(source: &Source, streamed: &str) {
        let options = CompileOptions::for_program_file(false);
        let compiled = compile(source, Language::InfChessPro, &options).unwrap();
        let whole = emit::program_file(source, Language::InfChessPro, &compiled.tokens, false);
        // Compared as tokens; prettyplease's trailing commas depend on the
        // width left at each indentation, so they are left out.
        let tokens = |text: &str| {
            let file = syn::parse_file(text).unwrap();
            let text = quote::ToTokens::to_token_stream(&file).to_string();
            text.replace(" ,)", ")")
                .replace(" , )", ")")
                .replace(" ,]", "]")
                .replace(" , ]", "]")
                .replace(" , }", "}")
                .replace(" ,}", "}")
        };
        assert_eq!(tokens(streamed), tokens(&whole));
    }
}
