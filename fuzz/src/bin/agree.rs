//! Differential fuzz target: the interpreter and the generated code agree
//! on every compiled golden case and random program, whatever the input
//! and step limit (see `fuzz/src/agree.rs`).

#[path = "../agree.rs"]
mod agree;

fn main() {
    afl::fuzz!(|data: &[u8]| {
        agree::agree(data);
    });
}
