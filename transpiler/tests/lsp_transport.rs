//! `chess2rs lsp` over stdio never dies of what a client sends (issue
//! 38): a `Content-Length` of 2^63 - 1 or 5 GB under a 1 GB address-space
//! limit, a body that is not JSON, JSON that is no request, headers
//! without a usable `Content-Length` or with `\n` line ends, and bytes
//! that are no message at all are each answered with the protocol's error
//! (or skipped) and the next request is answered; `exit` ends with 1
//! unless `shutdown` came first (then 0); the end of the input ends the
//! server. A few random byte sequences go to the real process too (the
//! many go in process, `lsp_fuzz.rs`).
#![cfg(unix)]

#[path = "support/lsp_frames.rs"]
mod lsp_frames;

use lsp_frames::frame;

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::{json, Value};

/// The address-space limit the server runs under, in KiB (`ulimit -v`):
/// 1 GB, far below the 5 GB and 2^63 bytes that are announced.
const ADDRESS_SPACE_KIB: u64 = 976_563;

/// A running server (under the address-space limit) and the messages it
/// sent.
struct Client {
    child: Child,
    /// `None` once closed.
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    /// A server, initialized.
    fn start() -> Client {
        let mut client = Client::spawn();
        let result = client.request("initialize", json!({ "capabilities": {} }));
        assert_eq!(result["serverInfo"]["name"], "chess2rs");
        client.notify("initialized", json!({}));
        client
    }

    /// A server, not yet initialized.
    fn spawn() -> Client {
        let (child, stdin, messages) = lsp_frames::start(
            Command::new("sh")
                .arg("-c")
                .arg(format!("ulimit -v {ADDRESS_SPACE_KIB} && exec \"$0\" lsp"))
                .arg(env!("CARGO_BIN_EXE_chess2rs")),
            Stdio::null(),
        );
        Client {
            child,
            stdin: Some(stdin),
            messages,
            next_id: 1,
        }
    }

    /// Sends bytes as they are (a broken pipe is the server's to explain).
    fn raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        let _ = stdin.write_all(bytes);
        let _ = stdin.flush();
    }

    /// Closes the server's input.
    fn close(&mut self) {
        self.stdin = None;
    }

    fn send(&mut self, message: Value) {
        self.raw(&frame(&message));
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(lsp_frames::notification(method, params));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let (id, request) = lsp_frames::request(&mut self.next_id, method, params);
        self.send(request);
        let response = self.next();
        assert_eq!(response["id"], id, "{response}");
        lsp_frames::result(response)
    }

    /// The next message the server sends (it sends nothing unasked here).
    fn next(&mut self) -> Value {
        match self.messages.recv_timeout(Duration::from_secs(20)) {
            Ok(message) => message,
            Err(_) => {
                let status = self.child.try_wait().unwrap();
                panic!("no answer within 20 s; the server: {status:?}")
            }
        }
    }

    /// A request the server answers (hover in no document: `null`), to
    /// show it still serves.
    fn still_serves(&mut self) {
        let result = self.request("textDocument/hover", nowhere());
        assert!(result.is_null(), "{result}");
    }

    /// `shutdown`, `exit`, and the exit code 0.
    fn shutdown(mut self) {
        let result = self.request("shutdown", Value::Null);
        assert!(result.is_null());
        self.notify("exit", Value::Null);
        assert_eq!(self.wait(), Some(0));
    }

    /// The exit code, once the server has ended (within 20 s).
    fn wait(&mut self) -> Option<i32> {
        for _ in 0..200 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        panic!("the server did not end within 20 s");
    }
}

/// A hover's place in no document: the server answers `null`.
fn nowhere() -> Value {
    json!({ "textDocument": { "uri": "file:///none.icp" }, "position": { "line": 0, "character": 0 } })
}

/// An error response with `code` and id `id`.
fn assert_error(response: &Value, code: i64, id: Value) {
    assert_eq!(response["error"]["code"], code, "{response}");
    assert_eq!(response["id"], id, "{response}");
    assert!(response["error"]["message"].is_string(), "{response}");
}

#[test]
fn a_huge_content_length_is_read_past_in_bounded_memory_and_the_server_goes_on() {
    for length in ["9223372036854775807", "5000000000"] {
        let mut client = Client::start();
        // The length and then the next message at once: the reader finds
        // the next message's header where the huge body would be.
        client.raw(format!("Content-Length: {length}\r\n\r\n").as_bytes());
        client.still_serves_after_error(length);
        // With a body that has an id: it is read up to the next header
        // and answered as the request it is.
        let hover = json!({ "jsonrpc": "2.0", "id": 77, "method": "textDocument/hover",
            "params": { "textDocument": { "uri": "file:///none.icp" }, "position": { "line": 0, "character": 0 } } });
        client.raw(format!("Content-Length: {length}\r\n\r\n{hover}").as_bytes());
        client.still_serves_unchecked();
        let answered = client.next();
        assert_eq!(answered["id"], 77, "{answered}");
        assert!(answered["result"].is_null(), "{answered}");
        assert_eq!(client.next()["id"], client.next_id - 1);
        client.shutdown();
    }
}

impl Client {
    /// The error answering a message announced as `length` bytes, then a
    /// request answered.
    fn still_serves_after_error(&mut self, length: &str) {
        let id = self.next_id;
        self.still_serves_unchecked();
        let error = self.next();
        assert_error(&error, -32700, Value::Null);
        let text = error["error"]["message"].as_str().unwrap();
        assert!(text.contains(length), "{text}");
        let answer = self.next();
        assert_eq!(answer["id"], id, "{answer}");
        assert!(answer["result"].is_null(), "{answer}");
    }

    /// Sends a hover request numbered `id` (out of turn) and asserts
    /// that it is refused with error `code`.
    fn hover_refused(&mut self, id: i64, code: i64) {
        self.raw(&frame(
            &json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover", "params": {} }),
        ));
        assert_error(&self.next(), code, json!(id));
    }

    /// Sends the hover request of [`Client::still_serves`] without
    /// waiting.
    fn still_serves_unchecked(&mut self) {
        let (_, request) = lsp_frames::request(&mut self.next_id, "textDocument/hover", nowhere());
        self.send(request);
    }
}

#[test]
fn a_body_that_is_not_json_is_a_parse_error_and_json_that_is_no_request_invalid() {
    let mut client = Client::start();
    client.raw(b"Content-Length: 16\r\n\r\nthis is not json");
    assert_error(&client.next(), -32700, Value::Null);
    client.still_serves();
    // Not UTF-8.
    client.raw(b"Content-Length: 4\r\n\r\n\xff\xfe{}");
    assert_error(&client.next(), -32700, Value::Null);
    // JSON, but no request: an array, a number, an object without a
    // method (with its id), a method that is no string, an id that is an
    // object.
    for (body, id) in [
        ("[1,2]", Value::Null),
        ("42", Value::Null),
        (r#"{"jsonrpc":"2.0","id":3}"#, json!(3)),
        (r#"{"jsonrpc":"2.0","id":"x","method":7}"#, json!("x")),
        (
            r#"{"jsonrpc":"2.0","id":{},"method":"shutdown"}"#,
            Value::Null,
        ),
    ] {
        client.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
        assert_error(&client.next(), -32600, id);
    }
    client.still_serves();
    client.shutdown();
}

#[test]
fn headers_without_a_usable_content_length_or_with_bare_line_feeds() {
    let mut client = Client::start();
    let hover = |id: i64| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
            "params": { "textDocument": { "uri": "file:///none.icp" }, "position": { "line": 0, "character": 0 } } })
        .to_string()
    };
    // No Content-Length, then a non-numeric one: the body, a JSON object,
    // is read to its end and answered.
    client.raw(
        format!(
            "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
            hover(101)
        )
        .as_bytes(),
    );
    assert_eq!(client.next()["id"], 101);
    client.raw(format!("Content-Length: lots\r\n\r\n{}", hover(102)).as_bytes());
    assert_eq!(client.next()["id"], 102);
    // A body that is no object after such headers: a parse error, and the
    // next message is found after it.
    client.raw(b"Content-Length: lots\r\n\r\nnot json at all");
    assert_error(&client.next(), -32700, Value::Null);
    client.still_serves();
    // Lines ending in `\n` alone, and a header name in lower case.
    let body = hover(103);
    client.raw(format!("content-length: {}\n\n{body}", body.len()).as_bytes());
    assert_eq!(client.next()["id"], 103);
    // A message with no headers at all.
    client.raw(hover(104).as_bytes());
    assert_eq!(client.next()["id"], 104);
    // A Content-Length too short: the rest of the body is no message and
    // is skipped up to the next header.
    let body = hover(105);
    client.raw(format!("Content-Length: 10\r\n\r\n{body}").as_bytes());
    assert_error(&client.next(), -32700, Value::Null);
    client.still_serves();
    // Too long (but within the limit): the next header ends the body.
    let body = hover(106);
    client.raw(format!("Content-Length: {}\r\n\r\n{body}", body.len() + 1000).as_bytes());
    client.still_serves_unchecked();
    assert_eq!(client.next()["id"], 106);
    assert!(client.next()["result"].is_null());
    // Headers with no empty line after them.
    client.raw(b"Content-Length: 5\r\n");
    client.still_serves_unchecked();
    assert_error(&client.next(), -32700, Value::Null);
    assert!(client.next()["result"].is_null());
    client.shutdown();
}

#[test]
fn exit_without_shutdown_is_1_with_it_0_and_the_end_of_input_ends_the_server() {
    let mut client = Client::start();
    client.notify("exit", Value::Null);
    assert_eq!(client.wait(), Some(1));
    // Requests after `shutdown` are refused; `exit` is then 0.
    let mut client = Client::start();
    assert!(client.request("shutdown", Value::Null).is_null());
    client.hover_refused(9, -32600);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait(), Some(0));
    // Before `initialize`: requests are refused, `exit` is 1.
    let mut client = Client::spawn();
    client.hover_refused(1, -32002);
    client.notify("exit", Value::Null);
    assert_eq!(client.wait(), Some(1));
    // The input ends: the server ends, 1 without `shutdown`, 0 after it.
    let mut client = Client::start();
    client.close();
    assert_eq!(client.wait(), Some(1));
    let mut client = Client::start();
    assert!(client.request("shutdown", Value::Null).is_null());
    client.close();
    assert_eq!(client.wait(), Some(0));
}

/// Random bytes, framed or not, between the messages of a real session:
/// the server answers the request after them and exits when told.
#[test]
fn random_bytes_to_the_real_process() {
    let cases = std::env::var("LSP_PROCESS_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(6);
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    });
    let garbage = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..200),
        prop::collection::vec(
            prop_oneof![
                Just(b"Content-Length: ".to_vec()),
                Just(b"\r\n".to_vec()),
                Just(b"\n".to_vec()),
                Just(b"{\"id\":".to_vec()),
                Just(b"99999999999999999999".to_vec()),
                Just(b"}".to_vec()),
                Just(b"\"".to_vec()),
                prop::collection::vec(any::<u8>(), 0..8),
            ],
            0..30
        )
        .prop_map(|pieces| pieces.concat()),
    ];
    runner
        .run(&garbage, |bytes| {
            let mut client = Client::start();
            client.raw(&bytes);
            // Whatever the bytes were answered with, the request after
            // them is answered (by its id).
            let id = client.next_id;
            client.still_serves_unchecked();
            loop {
                let message = client.next();
                if message["id"] == id {
                    break;
                }
                prop_assert!(message.get("error").is_some(), "{message}");
            }
            client.shutdown();
            Ok(())
        })
        .unwrap();
}
