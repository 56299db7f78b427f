//! The language server's transport and session under random input, in
//! process (property tests; `lsp_transport.rs` sends a few cases to the
//! real process): random byte sequences — messages framed well and
//! badly, bytes that are no message, huge and lying lengths — read by
//! the reader with a small limit and handled by the session. Properties:
//!
//! - nothing panics, and the session ends only on an `exit` notification;
//! - the reader never holds more than its limit of a message: no
//!   allocation while it reads is larger than the limit (or its 4 KiB of
//!   a too-long message's first bytes), nor are all of them together
//!   more than the limit and 16 KiB;
//! - how the input arrives (all at once or a few bytes at a time) does
//!   not change what is read;
//! - a well-framed request after any bytes is answered.
//!
//! `LSP_FUZZ_CASES` sets the number of cases of each (default 1,200, a
//! few seconds; the run used 10,000).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Read;
use std::time::Instant;

use chess2rs::lsp::transport::{decode, Decoded, Frame, Reader};
use chess2rs::lsp::Session;
use lsp_server::Message;
use proptest::prelude::*;
use serde_json::{json, Value};

/// Counts, on the thread that asks, the allocations made while
/// `TRACKING` is set: the largest, and the most live at once.
struct Counting;

thread_local! {
    static TRACKING: Cell<bool> = const { Cell::new(false) };
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
}

fn note(grown: isize, size: usize) {
    let _ = TRACKING.try_with(|tracking| {
        if tracking.get() {
            LIVE.with(|live| {
                live.set(live.get() + grown);
                PEAK.with(|peak| peak.set(peak.get().max(live.get())));
            });
            LARGEST.with(|largest| largest.set(largest.get().max(size)));
        }
    });
}

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as isize, layout.size());
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        note(-(layout.size() as isize), 0);
        System.dealloc(ptr, layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size() as isize, layout.size());
        System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note(new_size as isize - layout.size() as isize, new_size);
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The most a read holds besides a message's bytes: a too-long
/// message's first bytes (4 KiB), a header line (1 KiB), small things.
const OVERHEAD: usize = 16 * 1024;

/// `read` run with the allocations counted: its result, the largest
/// allocation and the most bytes live at once.
fn counted<T>(read: impl FnOnce() -> T) -> (T, usize, isize) {
    LIVE.with(|live| live.set(0));
    PEAK.with(|peak| peak.set(0));
    LARGEST.with(|largest| largest.set(0));
    TRACKING.with(|tracking| tracking.set(true));
    let result = read();
    TRACKING.with(|tracking| tracking.set(false));
    (result, LARGEST.with(Cell::get), PEAK.with(Cell::get))
}

/// Input that arrives a few bytes at a time (`sizes`, in turn).
struct Trickle<'a> {
    bytes: &'a [u8],
    sizes: Vec<usize>,
    turn: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let size = self.sizes[self.turn % self.sizes.len()].max(1);
        self.turn += 1;
        let n = size.min(buffer.len()).min(self.bytes.len());
        buffer[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// Every frame of `input`, each read with its allocations checked
/// against `limit`.
fn frames(input: impl Read, limit: usize) -> Vec<Frame> {
    let mut reader = Reader::new(input, limit);
    let mut frames = Vec::new();
    loop {
        let (frame, largest, peak) = counted(|| reader.next_frame());
        assert!(
            largest <= limit.max(4096),
            "an allocation of {largest} bytes with a limit of {limit}"
        );
        assert!(
            peak <= (limit + OVERHEAD) as isize,
            "{peak} bytes held with a limit of {limit}"
        );
        match frame {
            Some(frame) => frames.push(frame),
            None => return frames,
        }
        assert!(frames.len() <= 100_000, "frames without end");
    }
}

/// A framed message.
fn framed(message: &Value) -> Vec<u8> {
    let body = message.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len()).into_bytes()
}

/// Pieces of a session, well and badly framed.
fn piece() -> impl Strategy<Value = Vec<u8>> {
    let message = prop_oneof![
        Just(
            json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } })
        ),
        Just(json!({ "jsonrpc": "2.0", "method": "initialized", "params": {} })),
        Just(
            json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": { "uri": "file:///f.icp", "languageId": "", "version": 1, "text": "1. ^\n1. ^\n2. ^?9\n" } } })
        ),
        Just(
            json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": { "textDocument": { "uri": "file:///f.icp", "version": 2 }, "contentChanges": [ { "text": "1. ^?1\n" } ] } })
        ),
        Just(
            json!({ "jsonrpc": "2.0", "id": "h", "method": "textDocument/hover", "params": { "textDocument": { "uri": "file:///f.icp" }, "position": { "line": 0, "character": 1 } } })
        ),
        Just(
            json!({ "jsonrpc": "2.0", "id": 2, "method": "textDocument/semanticTokens/full", "params": { "textDocument": { "uri": "file:///f.icp" } } })
        ),
        Just(json!({ "jsonrpc": "2.0", "id": 3, "method": "shutdown" })),
        Just(json!({ "jsonrpc": "2.0", "id": 4, "method": "no/such", "params": [1, 2] })),
        Just(json!({ "jsonrpc": "2.0", "id": 5, "result": null })),
        Just(json!([{ "jsonrpc": "2.0", "method": "initialized" }])),
        Just(json!({ "jsonrpc": "2.0", "id": 2147483648i64, "method": "shutdown" })),
        Just(json!({ "id": null, "method": 5 })),
    ];
    let body = message.prop_map(|message| message.to_string().into_bytes());
    prop_oneof![
        4 => body.clone().prop_map(|body| [format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes(), body].concat()),
        // Lengths that lie, are huge, are no number or are missing; bare
        // line feeds; no headers.
        1 => (body.clone(), any::<u16>()).prop_map(|(body, length)| [format!("Content-Length: {length}\r\n\r\n").into_bytes(), body].concat()),
        1 => body.clone().prop_map(|body| [b"Content-Length: 18446744073709551616\r\n\r\n".to_vec(), body].concat()),
        1 => body.clone().prop_map(|body| [b"Content-Length: 9223372036854775807\r\n\r\n".to_vec(), body].concat()),
        1 => body.clone().prop_map(|body| [b"Content-Length: twelve\r\n\r\n".to_vec(), body].concat()),
        1 => body.clone().prop_map(|body| [format!("content-length:{}\n\n", body.len()).into_bytes(), body].concat()),
        1 => body.clone().prop_map(|body| [b"Content-Type: x\r\n\r\n".to_vec(), body].concat()),
        1 => body.clone(),
        // A body cut anywhere, or with a byte changed.
        1 => (body.clone(), any::<prop::sample::Index>()).prop_map(|(body, at)| {
            let body = &body[..at.index(body.len() + 1)];
            [format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes(), body.to_vec()].concat()
        }),
        1 => (body, any::<prop::sample::Index>(), any::<u8>()).prop_map(|(mut body, at, byte)| {
            let at = at.index(body.len());
            body[at] = byte;
            [format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes(), body].concat()
        }),
        // Bytes that are no message, and pieces of headers.
        2 => prop::collection::vec(any::<u8>(), 0..64),
        1 => prop::sample::select(vec![
            &b"Content-Length: "[..], b"\r\n", b"\n", b"\r\n\r\n", b"{", b"}", b"\"", b"\\", b":",
            b"Content-Length: 7\r\n", b"CONTENT-LENGTH:3\n", b"X-Other: 1\r\n", b"{\"id\":12,",
        ])
        .prop_map(<[u8]>::to_vec),
        1 => (any::<u8>(), 1000..3000usize).prop_map(|(byte, n)| vec![byte; n]),
    ]
}

fn input() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(piece(), 0..12).prop_map(|pieces| pieces.concat())
}

fn cases() -> u32 {
    std::env::var("LSP_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1_200)
}

/// Whether `frame` holds an `exit` notification.
fn is_exit(frame: &Frame) -> bool {
    matches!(frame, Frame::Body(body)
        if matches!(decode(body), Ok(Decoded::Message(Message::Notification(n))) if n.method == "exit"))
}

/// Runs a session on `frames`: its replies (as sent) and exit code. It
/// may end only on `exit`.
fn session(frames: Vec<Frame>) -> (Vec<u8>, Option<u8>) {
    let mut session = Session::new();
    let (mut out, mut log) = (Vec::new(), Vec::new());
    for frame in frames {
        let exit_frame = is_exit(&frame);
        let (replies, exit) = session.frame(frame, Instant::now(), &mut log);
        for reply in replies {
            reply.write(&mut out).unwrap();
        }
        let due = session.publish_due(Instant::now() + std::time::Duration::from_secs(1));
        for reply in due {
            reply.write(&mut out).unwrap();
        }
        assert_eq!(
            exit.is_some(),
            exit_frame,
            "ended on something that is not `exit`"
        );
        if exit.is_some() {
            return (out, exit);
        }
    }
    (out, None)
}

/// The responses in `out` (the session's output, framed).
fn responses(out: &[u8]) -> Vec<Value> {
    let mut reader = Reader::new(out, usize::MAX);
    let mut messages = Vec::new();
    while let Some(frame) = reader.next_frame() {
        let Frame::Body(body) = frame else {
            panic!("the server framed badly: {frame:?}");
        };
        messages.push(serde_json::from_slice(&body).expect("the server sends JSON"));
    }
    messages
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]

    /// Random input, read whole and a few bytes at a time with a small
    /// limit: the same frames, each read in bounded memory; the session
    /// survives them and ends only on `exit`; a request after them is
    /// answered.
    #[test]
    fn random_input_is_survived(
        input in input(),
        limit in prop_oneof![Just(64usize), Just(300), Just(4096)],
        sizes in prop::collection::vec(1..9usize, 1..4),
    ) {
        let whole = frames(&input[..], limit);
        let trickled = frames(Trickle { bytes: &input, sizes, turn: 0 }, limit);
        prop_assert_eq!(format!("{whole:?}"), format!("{trickled:?}"));
        let (_, exit) = session(whole);
        if exit.is_none() {
            // The same input, then a request: answered.
            let probe = json!({ "jsonrpc": "2.0", "id": "probe", "method": "textDocument/hover",
                "params": { "textDocument": { "uri": "file:///f.icp" }, "position": { "line": 0, "character": 0 } } });
            let mut input = input.clone();
            input.extend_from_slice(&framed(&probe));
            let (out, _) = session(frames(&input[..], limit.max(300)));
            let answered = responses(&out).iter().any(|response| response["id"] == "probe");
            prop_assert!(answered, "the request after the input was not answered");
        }
    }
}

/// A `Content-Length` of 5 GB and 2^63 - 1 followed by 60 MB of a body
/// (more than the limit of this reader, 1 MiB): read past in bounded
/// memory, answered with an error, and the message after it read.
#[test]
fn a_body_over_the_limit_is_read_past_without_holding_it() {
    for declared in ["5000000000", "9223372036854775807"] {
        let mut input = format!("Content-Length: {declared}\r\n\r\n{{\"jsonrpc\":\"2.0\",\"id\":31,\"method\":\"textDocument/didOpen\",\"params\":\"").into_bytes();
        input.resize(input.len() + 60_000_000, b'a');
        input.extend_from_slice(b"\"}");
        let after = framed(&json!({ "jsonrpc": "2.0", "method": "initialized" }));
        input.extend_from_slice(&after);
        let frames = frames(&input[..], 1 << 20);
        match &frames[..] {
            [Frame::Broken(failure), Frame::Body(body)] => {
                assert_eq!(failure.code, -32600);
                assert_eq!(failure.id, json!(31), "the id from the first bytes");
                assert!(failure.message.contains(declared), "{}", failure.message);
                assert_eq!(body[..], after[after.len() - body.len()..]);
            }
            other => panic!("{other:?}"),
        }
    }
}
