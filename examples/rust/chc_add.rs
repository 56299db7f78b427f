//! Embeds the Chess Code adder from the Chess Code page: input from a
//! string, output (raw number, then the same value as a character)
//! captured in a `Vec<u8>`.
//!
//! `cargo run --example chc_add`

use chess2rs_runtime::Options;

chess2rs_macros::chess_program!(fn add = file "add.chc");

fn main() {
    for input in ["65 3", "100 20"] {
        let mut output = Vec::new();
        match add(
            input.as_bytes(),
            &mut output,
            &Options::with_max_steps(100_000),
        ) {
            Ok(()) => println!("{input:?} -> {:?}", String::from_utf8_lossy(&output)),
            Err(error) => println!("{input:?} -> error: {error}"),
        }
    }
}
