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

/// One test a program, named as its snapshot is: `name: "file"`.
macro_rules! snapshot_tests {
    ($($(#[$doc:meta])* $name:ident: $file:literal,)*) => {
        $(
            $(#[$doc])*
            #[test]
            fn $name() {
                insta::assert_snapshot!(generated($file));
            }
        )*
    };
}

snapshot_tests! {
    beer: "beer.icp",
    first: "first.icp",
    register: "register.icp",
    add_chc: "add.chc",
    /// Nested loops whose values are polynomials: the pure pass closures.
    triangles_chc: "triangles.chc",
    hello_btm: "hello.btm",
    hello_pgn: "chessoteric-hello.pgn",
    truth_fv: "truth.fv",
}
