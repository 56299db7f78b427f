//! Embeds the InfChessPro register machine, feeding its input from a string
//! and capturing its output in a `Vec<u8>`.
//!
//! `cargo run --example icp_register`

use chess2rs_runtime::Options;

chess2rs_macros::chess_program!(fn register_machine = file "register.icp");

fn main() {
    for input in ["5 3 2", "0 0 0", "7 -1"] {
        let mut output = Vec::new();
        let result = register_machine(
            input.as_bytes(),
            &mut output,
            &Options::with_max_steps(10_000),
        );
        let printed = String::from_utf8_lossy(&output);
        match result {
            Ok(()) => println!("input {input:?}: printed {printed:?}"),
            Err(error) => println!("input {input:?}: printed {printed:?}, then failed: {error}"),
        }
    }
}
