//! Large programs cost the code generator (and rustc) O(1) tokens per
//! source line: a program of more than a thousand lines is written as
//! tables of text, string literals that are one token however long (issue
//! 38: tables of Rust values, one a line, took 8 GB to emit for a million
//! lines). For each language, two programs of the same shape, one ten
//! times longer than the other, compile to token streams of nearly the
//! same length.

use proc_macro2::{TokenStream, TokenTree};

use crate::{compile, CompileOptions, Language, Source};

/// How many tokens `tokens` holds, those inside groups included.
fn count(tokens: TokenStream) -> usize {
    tokens
        .into_iter()
        .map(|token| match token {
            TokenTree::Group(group) => 1 + count(group.stream()),
            _ => 1,
        })
        .sum()
}

/// The tokens of the entry function compiled from `text`.
fn tokens(language: Language, name: &str, text: &str) -> usize {
    let source = Source::new(name, text);
    let compiled = compile(&source, language, &CompileOptions::default())
        .unwrap_or_else(|diagnostics| panic!("{name} does not compile: {diagnostics:?}"));
    count(compiled.tokens)
}

/// The tokens of programs of `small` and ten times `small` lines made by
/// `program` differ by fewer than 100.
fn grows_by_a_constant(language: Language, name: &str, small: usize, program: fn(usize) -> String) {
    let short = tokens(language, name, &program(small));
    let long = tokens(language, name, &program(10 * small));
    assert!(
        long < short + 100,
        "{name}: {short} tokens at {small} lines, {long} at {} lines",
        10 * small
    );
}

/// InfChessPro with a piece name of its own every four lines (so nearly
/// every command is distinct), and a jump read from input (so every label
/// is in the tables).
fn icp(lines: usize) -> String {
    let mut text = String::from("1. ^?*\n");
    for block in 0..lines / 4 {
        let label = 4 * block + 2;
        text += &format!("{label}. p{block}=R{block},0\n");
        text += &format!("{}. p{block};0,1?{}\n", label + 1, label + 3);
        text += &format!("{}. \"never printed\n", label + 2);
        text += &format!("{}. %p{block}\n", label + 3);
    }
    text
}

/// Finvara: two rooks going back and forth beside their kings.
fn fv(lines: usize) -> String {
    let mut text = String::from(
        "(k):\n(r 0): (1,0)*\n\n+--+--+--+--+\n|rB|  |  |kB|\n+--+--+--+--+\n\
         |  |  |  |  |\n+--+--+--+--+\n|rW|  |  |kW|\n+--+--+--+--+\n\n",
    );
    for turn in 1..=lines / 2 {
        let (a, b) = if turn % 2 == 1 { (1, 2) } else { (2, 1) };
        text += &format!("Turn {turn} W: r a{a} -> a{b}\nTurn {turn} B: r c{a} -> c{b}\n");
    }
    text
}

/// BTM: a chain of states, each writing 1 and going right, the start
/// state going on to 3 (1 and 2 read and print).
fn btm(lines: usize) -> String {
    let mut text = String::new();
    let mut state = 0;
    for _ in 0..lines / 5 {
        let next = if state == 0 { 3 } else { state + 1 };
        for value in [state, 0, next, 1, 0] {
            text += &format!("1{value:b}!\n");
        }
        state = next;
    }
    text
}

/// Chess Code: counting loops and prints.
fn chc(lines: usize) -> String {
    "a1+\nRa1\nKxb1\n1/2 1/2\nb1+\nb1=R+\nb1\n".repeat(lines / 7)
}

/// One test a language: `name: language, file name, lines, program`.
macro_rules! growth_tests {
    ($($name:ident: $language:expr, $file:literal, $lines:expr, $program:expr;)*) => {
        $(
            #[test]
            fn $name() {
                grows_by_a_constant($language, $file, $lines, $program);
            }
        )*
    };
}

growth_tests! {
    infchesspro_tables_grow_by_a_constant: Language::InfChessPro, "t.icp", 1_200, icp;
    finvara_tables_grow_by_a_constant: Language::Finvara, "t.fv", 1_200, fv;
    btm_tables_grow_by_a_constant: Language::Btm, "t.btm", 6_000, btm;
    chess_code_tables_grow_by_a_constant: Language::ChessCode, "t.chc", 1_400, chc;
}
