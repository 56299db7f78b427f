//! Diagnostics of `chess_program!`, checked against `ui/*.stderr`
//! (regenerate with `TRYBUILD=overwrite cargo test -p chess2rs-macros --test ui`).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
}
