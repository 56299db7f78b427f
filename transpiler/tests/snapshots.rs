//! Snapshots of the Rust generated for the seed programs, so every change
//! to code generation is reviewed (`cargo insta review`).

use std::path::Path;

use chess2rs::{compile, emit, CompileOptions, Language, Source};

fn generated(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let language = Language::from_path(&path).unwrap();
    let source = Source::new(name, text);
    let compiled = compile(&source, language, &CompileOptions::for_program_file(false)).unwrap();
    emit::program_file(&source, language, &compiled.tokens, false)
}

#[test]
fn beer() {
    insta::assert_snapshot!(generated("beer.icp"));
}

#[test]
fn first() {
    insta::assert_snapshot!(generated("first.icp"));
}

#[test]
fn register() {
    insta::assert_snapshot!(generated("register.icp"));
}

#[test]
fn add_chc() {
    insta::assert_snapshot!(generated("add.chc"));
}

/// Nested loops whose values are polynomials: the pure pass closures.
#[test]
fn triangles_chc() {
    insta::assert_snapshot!(generated("triangles.chc"));
}

#[test]
fn hello_btm() {
    insta::assert_snapshot!(generated("hello.btm"));
}

#[test]
fn hello_pgn() {
    insta::assert_snapshot!(generated("chessoteric-hello.pgn"));
}

#[test]
fn truth_fv() {
    insta::assert_snapshot!(generated("truth.fv"));
}
