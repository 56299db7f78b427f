//! Embeds the Finvara truth-machine: input 0 prints 0 and halts; input 1
//! prints 1 forever, so it runs with a step limit.
//!
//! `cargo run --example fv_truth`

use chess2rs_runtime::Options;

chess2rs_macros::chess_program!(fn truth_machine = file "truth.fv");

fn main() {
    for input in ["0", "1"] {
        let mut output = Vec::new();
        let result = truth_machine(input.as_bytes(), &mut output, &Options::with_max_steps(40));
        let printed = String::from_utf8_lossy(&output).replace('\n', " ");
        match result {
            Ok(()) => println!("input {input}: printed {printed}and halted"),
            Err(error) => println!("input {input}: printed {printed}then stopped: {error}"),
        }
    }
}
