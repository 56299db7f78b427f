//! Running the `chess2rs` binary (or a shell around it) with input on
//! stdin, for the memory tests (`memory_limit.rs`, `address_space.rs`).

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs `command` without colour, with `input` on stdin (written from a
/// thread; a child that stops reading closes the pipe, which is not an
/// error here), and collects its output.
pub fn run_with_input(command: &mut Command, input: &[u8]) -> Output {
    let mut child = command
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut pipe = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = pipe.write_all(&input);
    });
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap();
    output
}
