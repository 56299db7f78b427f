//! The messages of the tests that drive `chess2rs lsp` over stdio
//! (`lsp.rs`, `lsp_transport.rs`): those they send, framed, and the
//! server's replies, read.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};

use serde_json::{json, Value};

/// Starts the server `command` runs, its stderr going to `stderr`: the
/// child, its stdin, and the messages it writes ([`messages`]).
pub fn start(command: &mut Command, stderr: Stdio) -> (Child, ChildStdin, Receiver<Value>) {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let stdin = child.stdin.take().unwrap();
    let messages = messages(child.stdout.take().unwrap());
    (child, stdin, messages)
}

/// `message` framed as LSP frames it.
pub fn frame(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// A notification of `method` with `params`.
pub fn notification(method: &str, params: Value) -> Value {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

/// A request of `method` with `params`, numbered `next_id` (which then
/// counts on): its id and the request.
pub fn request(next_id: &mut i64, method: &str, params: Value) -> (i64, Value) {
    let id = *next_id;
    *next_id += 1;
    let request = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
    (id, request)
}

/// A response's result, asserting that it is no error.
pub fn result(response: Value) -> Value {
    assert!(response.get("error").is_none(), "{response}");
    response["result"].clone()
}

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
