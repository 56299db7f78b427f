//! Unit tests of the transport: frames read from well and badly framed
//! input, headers found at line ends and across reads, ids sniffed from a
//! message's first bytes, and bodies decoded or answered.

use lsp_server::{Message, RequestId};

use super::*;

/// Every frame of `input` (limit `limit`), shortened for comparing:
/// bodies as text, failures as code, id and message.
fn read(input: &[u8], limit: usize) -> Vec<String> {
    let mut reader = Reader::new(input, limit);
    std::iter::from_fn(|| reader.next_frame())
        .map(|frame| match frame {
            Frame::Body(body) => format!("body {}", String::from_utf8_lossy(&body)),
            Frame::Broken(failure) => {
                format!("{} {}: {}", failure.code, failure.id, failure.message)
            }
            Frame::Skipped(bytes) => format!("skipped {bytes}"),
        })
        .collect()
}

#[test]
fn content_length_headers_are_found_at_line_ends() {
    assert_eq!(header_start(b"Content-Length: 52\r"), Some(0));
    assert_eq!(header_start(b"}content-LENGTH :\t7 "), Some(1));
    assert_eq!(header_start(b"xContent-Length:52"), Some(1));
    assert_eq!(header_start(b"Content-Length: 5x"), None);
    assert_eq!(header_start(b"Content-Length: "), None);
    assert_eq!(header_start(b"Content-Lengt: 5"), None);
    assert_eq!(header_start(b"ontent-Length: 5"), None);
    assert_eq!(length_value(b"Content-Length: 52"), Some(52));
    assert_eq!(length_value(b"Content-Length: 18446744073709551616"), None);
}

#[test]
fn well_framed_messages_are_read_as_they_are() {
    assert_eq!(
        read(
            b"Content-Length: 2\r\n\r\n{}Content-Type: x\r\nContent-Length: 3\r\n\r\n[1]",
            100
        ),
        ["body {}", "body [1]"]
    );
    // Bare line feeds, spaces and blank lines between messages.
    assert_eq!(
        read(
            b"\r\n content-length:2\n\n{}\n\nCONTENT-LENGTH : 2 \r\n\r\n{}",
            100
        ),
        ["body {}", "body {}"]
    );
}

#[test]
fn bad_headers_are_answered_and_framing_recovers() {
    // No Content-Length, a non-numeric one: a JSON object after them
    // is read; anything else is skipped up to the next header.
    assert_eq!(
        read(b"Content-Type: x\r\n\r\n{\"a\":\"}\\\"\"}Content-Length: abc\r\n\r\nnope\nContent-Length: 2\r\n\r\n{}", 100),
        [
            r#"body {"a":"}\""}"#,
            "-32700 null: a `Content-Length` header whose value is not a number (skipped)",
            "skipped 5",
            "body {}",
        ]
    );
    // A line that is no header, in headers and between messages.
    assert_eq!(
        read(
            b"Content-Length: 2\r\nwhat\r\n\r\n{}hello\r\nContent-Length: 2\r\n\r\n{}",
            100
        ),
        ["skipped 6", "body {}", "skipped 7", "body {}"]
    );
    // Headers without their empty line.
    assert_eq!(
        read(b"Content-Length: 9\r\n{}Content-Length: 2\r\n\r\n{}", 100),
        [
            "skipped 2",
            "-32700 null: a message's headers were not ended by an empty line (skipped)",
            "body {}",
        ]
    );
}

#[test]
fn a_body_ends_at_a_header_inside_it_or_at_the_end_of_input() {
    // A Content-Length too long: the next header ends the body.
    assert_eq!(
        read(
            b"Content-Length: 99\r\n\r\n{}Content-Length: 2\r\n\r\n{}",
            100
        ),
        ["body {}", "body {}"]
    );
    // Too short: the rest is no message.
    assert_eq!(
        read(
            b"Content-Length: 1\r\n\r\n{}Content-Length: 2\r\n\r\n{}",
            100
        ),
        ["body {", "skipped 1", "body {}"]
    );
    assert_eq!(
        read(b"Content-Length: 9\r\n\r\n{}", 100),
        ["-32700 null: the input ended inside a message (2 bytes of 9)"]
    );
    // Inside a JSON string, `Content-Length: 2` is no header (no raw
    // line end can follow it there).
    assert_eq!(
        read(b"Content-Length: 23\r\n\r\n[\"Content-Length: 2\\n\"]", 100),
        [r#"body ["Content-Length: 2\n"]"#]
    );
}

#[test]
fn a_message_over_the_limit_is_skipped_and_answered_with_its_id() {
    let body = br#"{"jsonrpc":"2.0","id":"big","method":"m","params":"xxxxxxxxxxxxxxxxxxxxxxx"}"#;
    let mut input = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    input.extend_from_slice(body);
    input.extend_from_slice(b"Content-Length: 2\r\n\r\n{}");
    assert_eq!(
        read(&input, 20),
        [
            format!("-32600 \"big\": a message of {} bytes (its Content-Length) is longer than the 20 bytes the server reads; {} bytes of it skipped", body.len(), body.len()),
            "body {}".to_string(),
        ]
    );
    // 2^64 and 2^63 - 1 bytes, announced: the next header ends them.
    assert_eq!(
        read(b"Content-Length: 18446744073709551616\r\n\r\n{\"id\":4,Content-Length: 2\r\n\r\n{}", 5),
        [
            "-32600 4: a message of 18446744073709551615 bytes (its Content-Length) is longer than the 5 bytes the server reads; 8 bytes of it skipped",
            "body {}",
        ]
    );
}

#[test]
fn a_header_across_two_reads_is_found() {
    /// Input arriving `size` bytes at a time.
    struct Slow<'a>(&'a [u8], usize);
    impl Read for Slow<'_> {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            let n = self.1.min(self.0.len()).min(buffer.len());
            buffer[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }
    let input = b"Content-Length: 999\r\n\r\n{\"id\":1}Content-Length: 2\r\n\r\n{}";
    for limit in [4, 100] {
        let whole = read(input, limit);
        for size in 1..8 {
            let mut reader = Reader::new(Slow(input, size), limit);
            let mut count = 0;
            while let Some(frame) = reader.next_frame() {
                count += 1;
                if let Frame::Body(body) = frame {
                    assert!(whole.contains(&format!("body {}", String::from_utf8_lossy(&body))));
                }
            }
            assert_eq!(count, whole.len(), "{size}");
        }
    }
}

#[test]
fn ids_are_found_in_the_first_bytes() {
    assert_eq!(
        sniff_id(br#"{"jsonrpc":"2.0","id":12,"method""#),
        Value::from(12)
    );
    assert_eq!(sniff_id(br#"{ "id" : "a\"b" }"#), Value::from("a\"b"));
    assert_eq!(sniff_id(br#"{"params":{"id":3},"id":"#), Value::Null);
    assert_eq!(sniff_id(br#"{"x":"id","y":1}"#), Value::Null);
    assert_eq!(sniff_id(br#"{"id":[1]}"#), Value::Null);
}

#[test]
fn bodies_are_decoded_or_answered() {
    let failure = |body: &str| decode(body.as_bytes()).unwrap_err();
    assert_eq!(failure("nope").code, -32700);
    assert_eq!(failure("nope").id, Value::Null);
    assert_eq!(failure("[]").code, -32600);
    assert_eq!(failure(r#"{"id":1}"#).id, Value::from(1));
    assert_eq!(
        failure(r#"{"id":1,"method":"m","jsonrpc":"1.0"}"#).code,
        -32600
    );
    assert_eq!(
        failure(r#"{"id":1e3,"method":"m"}"#).id,
        serde_json::json!(1e3)
    );
    assert!(matches!(
        decode(br#"{"id":1,"result":null}"#),
        Ok(Decoded::Response)
    ));
    let Ok(Decoded::Message(Message::Request(request))) =
        decode(br#"{"jsonrpc":"2.0","id":"x","method":"m"}"#)
    else {
        panic!()
    };
    assert_eq!(
        (request.id, request.params),
        (RequestId::from("x".to_string()), Value::Null)
    );
    assert!(matches!(
        decode(br#"{"method":"exit"}"#),
        Ok(Decoded::Message(Message::Notification(_)))
    ));
}
