//! Reading the language server's replies in the tests that drive
//! `chess2rs lsp` over stdio (`lsp.rs`, `lsp_transport.rs`).

use std::io::{BufRead, BufReader, Read};
use std::process::ChildStdout;
use std::sync::mpsc::{channel, Receiver};

/// Each message the server writes to `stdout` (`Content-Length` framed
/// JSON), read by a thread of its own; the channel closes when the output
/// ends or is not framed as the protocol says.
pub fn messages(stdout: ChildStdout) -> Receiver<serde_json::Value> {
    let mut stdout = BufReader::new(stdout);
    let (send, messages) = channel();
    std::thread::spawn(move || loop {
        let mut length = None;
        loop {
            let mut header = String::new();
            if stdout.read_line(&mut header).unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim();
            if header.is_empty() {
                break;
            }
            if let Some(value) = header.strip_prefix("Content-Length: ") {
                length = value.parse::<usize>().ok();
            }
        }
        let mut body = vec![0; length.expect("a Content-Length header")];
        if stdout.read_exact(&mut body).is_err() {
            return;
        }
        if send.send(serde_json::from_slice(&body).unwrap()).is_err() {
            return;
        }
    });
    messages
}
