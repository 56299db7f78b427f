//! Running the `chess2rs` binary (or a program it built, or a shell around
//! it) with input on stdin.

use std::io::Write;
use std::process::{Child, Command, Output, Stdio};

/// Runs `command` without colour, with `input` on stdin ([`feed_and_wait`]),
/// and collects its output.
pub fn run_with_input(command: &mut Command, input: &[u8]) -> Output {
    feed_and_wait(spawn_piped(command.env("NO_COLOR", "1")), input)
}

/// Starts `command` with its stdin, stdout and stderr piped.
pub fn spawn_piped(command: &mut Command) -> Child {
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Writes `input` to the child's stdin (from a thread, so a child that
/// prints before it reads cannot deadlock against us) and waits for it.
///
/// A child may exit without reading its input (a usage error, a program
/// that never reads, one stopped by a limit): the write then races with
/// the exit and may fail with a broken pipe, which is not an error of the
/// child. Any other write error fails the test.
pub fn feed_and_wait(mut child: Child, input: &[u8]) -> Output {
    let mut pipe = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    let writer = std::thread::spawn(move || match pipe.write_all(&input) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    });
    let output = child.wait_with_output().unwrap();
    writer
        .join()
        .expect("stdin writer thread")
        .expect("writing the child's stdin");
    output
}
