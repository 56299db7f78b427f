//! Fuzz target: the icp front end (and, for programs that compile, code
//! generation and the interpreter).

fn main() {
    let language = chess2rs_fuzz::language_of("icp").expect("a language extension");
    afl::fuzz!(|data: &[u8]| chess2rs_fuzz::exercise(language, data));
}
