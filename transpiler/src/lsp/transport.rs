//! The language server's transport: JSON-RPC messages framed by
//! `Content-Length` headers on a byte stream, read without trusting the
//! client.
//!
//! - A message is held only once its bytes have arrived, and never more
//!   than [`MAX_MESSAGE`] of it: a longer one (or a `Content-Length` that
//!   says so) is read past in small pieces, and answered with an error
//!   carrying its id when the id is among its first bytes.
//! - A header line is held up to [`MAX_HEADER_LINE`] bytes.
//! - Framing is lenient where that is unambiguous: lines may end in `\n`
//!   alone, header names are matched without case, a message with no
//!   headers (or a bad `Content-Length`) that starts with `{` is read to
//!   the end of its JSON object.
//! - Framing recovers: `Content-Length: N` followed by a line end cannot
//!   occur in a JSON text (outside a string the letters are no JSON
//!   token, inside one a raw line end is not allowed), so wherever it
//!   appears (in bytes that were no message, or in a body whose declared
//!   length was too long) a new message starts there.
//!
//! [`Reader`] turns bytes into [`Frame`]s; [`decode`] turns a frame's body
//! into a message or the error that answers it.

use std::io::{self, Read};

use lsp_server::ErrorCode;
use serde_json::Value;

use self::scan::{
    find_newline, header_start, is_token, keep_tail, length_value, push_within, sniff_id, Object,
};

mod message;
mod scan;

pub use self::message::{decode, Decoded, Outgoing};

/// The longest message the server reads (64 MiB): a document of that
/// size is far beyond what an editor sends a compiler of these languages.
pub const MAX_MESSAGE: usize = 64 << 20;

/// The longest header line held whole; of a longer line only its end is
/// kept (to find a `Content-Length` header there).
pub const MAX_HEADER_LINE: usize = 1024;

/// How many bytes the reader asks its input for at a time.
const CHUNK: usize = 64 * 1024;

/// How far back from a line end a `Content-Length` header is looked for:
/// the header name, spaces and up to 20 digits fit with room to spare.
const LOOKBACK: usize = 96;

/// How many first bytes of a message too long to hold are kept, to find
/// its id.
const PREFIX: usize = 4096;

/// What the reader made of the next bytes of its input.
#[derive(Debug)]
pub enum Frame {
    /// A message's body (not yet known to be JSON).
    Body(Vec<u8>),
    /// A message that could not be read: the error that answers it.
    Broken(Failure),
    /// Bytes between messages that were no message (only logged).
    Skipped(u64),
}

/// A message the server could not take, and the JSON-RPC error that
/// answers it.
#[derive(Clone, Debug, PartialEq)]
pub struct Failure {
    /// The message's id, or `null` when it is not known.
    pub id: Value,
    /// The JSON-RPC error code.
    pub code: i32,
    /// What was wrong.
    pub message: String,
}

impl Failure {
    fn parse(message: impl Into<String>) -> Failure {
        Failure {
            id: Value::Null,
            code: ErrorCode::ParseError as i32,
            message: message.into(),
        }
    }

    fn invalid(id: Value, message: impl Into<String>) -> Failure {
        Failure {
            id,
            code: ErrorCode::InvalidRequest as i32,
            message: message.into(),
        }
    }

    /// The error response.
    pub fn response(&self) -> Value {
        serde_json::json!({
            "jsonrpc": "2.0",
            "id": self.id,
            "error": { "code": self.code, "message": self.message },
        })
    }
}

/// A message's body read from the input (by its `Content-Length` or to
/// the end of its JSON object).
struct Body {
    /// Its bytes, unless it was longer than the limit.
    bytes: Option<Vec<u8>>,
    /// Its first bytes (of one too long to hold).
    prefix: Vec<u8>,
    /// How many bytes it had.
    length: u64,
    /// Why it ended before its declared end: a new message's header
    /// inside it, or the end of input.
    cut: Option<Cut>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Cut {
    Header,
    End,
}

/// What a header line was.
enum Line {
    /// Empty: the end of a header block.
    Blank,
    /// `Content-Length: N` (`None` if N does not fit in 64 bits), after
    /// this many bytes that were no header.
    Length(Option<u64>, usize),
    /// `Content-Length` with a value that is no number.
    BadLength,
    /// Another header (ignored).
    Other,
    /// Bytes that are no header.
    Junk(usize),
    /// The input ended (after this many bytes).
    End(usize),
}

/// Reads frames from a byte stream; see the module's documentation.
pub struct Reader<R> {
    input: R,
    /// Bytes read and not yet taken: `buffer[start..end]`.
    buffer: Vec<u8>,
    start: usize,
    end: usize,
    /// Whether the input has ended.
    ended: bool,
    limit: usize,
    /// Bytes skipped since the last frame, not yet reported.
    skipped: u64,
    /// A frame to return after reporting skipped bytes.
    pending: Option<Frame>,
    /// A `Content-Length` read that starts the next header block (found
    /// while the previous block was still open).
    carried: Option<Option<u64>>,
}

impl<R: Read> Reader<R> {
    /// A reader of `input` that holds messages up to `limit` bytes
    /// ([`MAX_MESSAGE`] for the server).
    pub fn new(input: R, limit: usize) -> Reader<R> {
        Reader {
            input,
            // Room to put back a header found across two reads.
            buffer: vec![0; CHUNK + LOOKBACK],
            start: 0,
            end: 0,
            ended: false,
            limit,
            skipped: 0,
            pending: None,
            carried: None,
        }
    }

    /// The next frame, or `None` at the end of the input (or when reading
    /// it fails).
    pub fn next_frame(&mut self) -> Option<Frame> {
        if let Some(frame) = self.pending.take() {
            return Some(frame);
        }
        let frame = self.frame();
        if self.skipped > 0 {
            let skipped = std::mem::take(&mut self.skipped);
            self.pending = frame;
            return Some(Frame::Skipped(skipped));
        }
        frame
    }

    fn frame(&mut self) -> Option<Frame> {
        // The header block: lines up to an empty one. `length` is what
        // its `Content-Length` said, `bad` why the block cannot be used.
        let mut length: Option<Option<u64>> = self.carried.take();
        let mut bad: Option<&str> = None;
        let mut in_block = length.is_some();
        loop {
            if !in_block {
                // Between messages: blank lines and spaces are nothing; a
                // `{` starts a message sent without headers.
                match self.skip_whitespace() {
                    None => return None,
                    Some(b'{') => return Some(self.unframed()),
                    Some(_) => {}
                }
            }
            match self.line() {
                Line::End(bytes) => {
                    self.skipped += bytes as u64;
                    return in_block.then(|| {
                        Frame::Broken(Failure::parse("the input ended inside a message's headers"))
                    });
                }
                Line::Blank => break,
                Line::Length(value, junk) => {
                    self.skipped += junk as u64;
                    // After bytes that were no header, or a second one: a
                    // new block starts here, and the open one never ended.
                    if in_block && (junk > 0 || length.is_some()) {
                        self.carried = Some(value);
                        return Some(Frame::Broken(Failure::parse(
                            "a message's headers were not ended by an empty line (skipped)",
                        )));
                    }
                    length = Some(value);
                    in_block = true;
                }
                Line::BadLength => {
                    bad = Some("a `Content-Length` header whose value is not a number");
                    in_block = true;
                }
                Line::Other => in_block = true,
                Line::Junk(bytes) => {
                    if in_block {
                        bad = Some("a header line that is not `Name: value`");
                    }
                    self.skipped += bytes as u64;
                }
            }
        }
        match (bad, length) {
            (None, Some(Some(length))) => Some(self.declared(length)),
            (None, Some(None)) => Some(self.declared(u64::MAX)),
            (bad, _) => {
                let why = bad.unwrap_or("a message without a `Content-Length` header");
                // Its body, if it is a JSON object, can still be read.
                if self.peek() == Some(b'{') {
                    return Some(self.unframed());
                }
                Some(Frame::Broken(Failure::parse(format!("{why} (skipped)"))))
            }
        }
    }

    /// A message of `length` bytes by its header.
    fn declared(&mut self, length: u64) -> Frame {
        let body = self.body(length, None);
        self.finish(body, Some(length))
    }

    /// A message without a usable header, read to the end of the JSON
    /// object it starts with.
    fn unframed(&mut self) -> Frame {
        let body = self.body(u64::MAX, Some(Object::default()));
        self.finish(body, None)
    }

    fn finish(&mut self, body: Body, declared: Option<u64>) -> Frame {
        let Body {
            bytes,
            prefix,
            length,
            cut,
        } = body;
        match (bytes, cut) {
            (Some(bytes), Some(Cut::Header)) if bytes.is_empty() => {
                Frame::Broken(Failure::parse(format!(
                    "a message without a body: the next message's header came where its {} bytes were to be",
                    declared.map_or("JSON".to_string(), |d| d.to_string())
                )))
            }
            (Some(bytes), None | Some(Cut::Header)) => Frame::Body(bytes),
            (Some(_), Some(Cut::End)) => Frame::Broken(Failure::parse(format!(
                "the input ended inside a message ({length} bytes{})",
                declared.map_or(String::new(), |d| format!(" of {d}"))
            ))),
            (None, _) => {
                let what = match declared {
                    Some(declared) => format!("a message of {declared} bytes (its Content-Length)"),
                    None => "a message without a Content-Length".to_string(),
                };
                Frame::Broken(Failure::invalid(
                    sniff_id(&prefix),
                    format!(
                        "{what} is longer than the {} bytes the server reads; {length} bytes of it skipped",
                        self.limit
                    ),
                ))
            }
        }
    }

    /// Reads a body of `length` bytes (or, with `object`, to the end of
    /// the JSON object), holding it if it is within the limit, ending it
    /// early at a `Content-Length` header inside it or at the end of the
    /// input. What it is depends only on the input's bytes, not on how
    /// they arrive.
    fn body(&mut self, length: u64, mut object: Option<Object>) -> Body {
        let limit = self.limit as u64;
        let mut body = Body {
            bytes: Some(Vec::new()),
            prefix: Vec::new(),
            length: 0,
            cut: None,
        };
        // The body's last LOOKBACK bytes so far, where a header that ends
        // in the next piece may start.
        let mut tail: Vec<u8> = Vec::new();
        while body.length < length {
            if self.start == self.end && !self.fill() {
                body.cut = Some(Cut::End);
                break;
            }
            let wanted = usize::try_from(length - body.length).unwrap_or(usize::MAX);
            let mut piece = (self.end - self.start).min(wanted);
            let mut done = false;
            if let Some(object) = &mut object {
                if let Some(end) = object.feed(&self.buffer[self.start..self.start + piece]) {
                    piece = end;
                    done = true;
                }
            }
            // A header inside the piece: `Content-Length: N` in the last
            // LOOKBACK bytes before a line end in the piece (bytes before
            // the piece included).
            let mut header_at = None;
            let mut from = self.start;
            while let Some(at) = find_newline(&self.buffer[from..self.start + piece]) {
                let newline = from + at;
                let before = &self.buffer[self.start..newline];
                let found = if before.len() >= LOOKBACK {
                    let from = before.len() - LOOKBACK;
                    header_start(&before[from..]).map(|start| (from + start) as isize)
                } else {
                    let earlier = &tail[tail.len().saturating_sub(LOOKBACK - before.len())..];
                    let joined = [earlier, before].concat();
                    header_start(&joined).map(|start| start as isize - earlier.len() as isize)
                };
                if found.is_some() {
                    header_at = found;
                    break;
                }
                from = newline + 1;
            }
            if let Some(start) = header_at {
                if start >= 0 {
                    piece = start as usize;
                } else {
                    // The header began in what was already taken: put
                    // those bytes back.
                    let back = start.unsigned_abs();
                    let earlier = tail.split_off(tail.len() - back);
                    body.length -= back as u64;
                    if let Some(bytes) = &mut body.bytes {
                        bytes.truncate(body.length as usize);
                    }
                    body.prefix.truncate(body.length as usize);
                    self.unread(&earlier);
                    piece = 0;
                }
                body.cut = Some(Cut::Header);
                done = true;
            }
            let taken = &self.buffer[self.start..self.start + piece];
            if body.prefix.len() < PREFIX {
                let room = PREFIX - body.prefix.len();
                push_within(&mut body.prefix, &taken[..taken.len().min(room)], PREFIX);
            }
            if let Some(bytes) = &mut body.bytes {
                let room = self.limit - bytes.len();
                push_within(bytes, &taken[..taken.len().min(room)], self.limit);
            }
            keep_tail(&mut tail, taken);
            body.length += piece as u64;
            self.start += piece;
            // Past the limit by more than a header's length, no header can
            // bring the body back within it: stop holding it.
            if body.length > limit.saturating_add(LOOKBACK as u64) {
                body.bytes = None;
            }
            if done {
                break;
            }
        }
        if object.is_some() && body.cut.is_none() && body.length == length {
            // Never for a real input (it would be 2^64 bytes long).
            body.cut = Some(Cut::End);
        }
        if body.length > limit {
            body.bytes = None;
        }
        body
    }

    /// Reads one line (without its line end), classified. Only its first
    /// [`MAX_HEADER_LINE`] bytes are held, or its last [`LOOKBACK`] of a
    /// longer one.
    fn line(&mut self) -> Line {
        let mut line: Vec<u8> = Vec::new();
        // The line's length, and whether only its end is held.
        let mut length = 0usize;
        let mut long = false;
        loop {
            if self.start == self.end && !self.fill() {
                return Line::End(length);
            }
            let available = &self.buffer[self.start..self.end];
            let (piece, newline) = match find_newline(available) {
                Some(at) => (&available[..at], true),
                None => (available, false),
            };
            length = length.saturating_add(piece.len());
            if long || line.len() + piece.len() > MAX_HEADER_LINE {
                long = true;
                keep_tail(&mut line, piece);
            } else {
                push_within(&mut line, piece, MAX_HEADER_LINE);
            }
            self.start += piece.len() + usize::from(newline);
            if newline {
                break;
            }
        }
        // What a line of junk skips: its bytes and its line end.
        let skipped = length + 1;
        // Where the held bytes start in the line.
        let held_from = length - line.len();
        // A header is looked for in the last LOOKBACK bytes, as in a body.
        let from = line.len().saturating_sub(LOOKBACK);
        if let Some(start) = header_start(&line[from..]) {
            let start = from + start;
            return Line::Length(length_value(&line[start..]), held_from + start);
        }
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if !long && line.iter().all(|&b| b == b' ' || b == b'\t') {
            return Line::Blank;
        }
        if long {
            return Line::Junk(skipped);
        }
        match line.iter().position(|&b| b == b':') {
            Some(colon) if colon > 0 && line[..colon].iter().all(|&b| is_token(b)) => {
                if line[..colon].eq_ignore_ascii_case(b"content-length") {
                    Line::BadLength
                } else {
                    Line::Other
                }
            }
            _ => Line::Junk(skipped),
        }
    }

    /// Skips spaces and line ends, returning the next byte (`None` at the
    /// end of the input).
    fn skip_whitespace(&mut self) -> Option<u8> {
        loop {
            let byte = self.peek()?;
            if !matches!(byte, b' ' | b'\t' | b'\r' | b'\n') {
                return Some(byte);
            }
            self.start += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        if self.start == self.end && !self.fill() {
            return None;
        }
        Some(self.buffer[self.start])
    }

    /// Reads more input into an empty buffer; `false` at the end.
    fn fill(&mut self) -> bool {
        if self.ended {
            return false;
        }
        self.start = 0;
        self.end = 0;
        loop {
            match self.input.read(&mut self.buffer[..CHUNK]) {
                Ok(0) => {
                    self.ended = true;
                    return false;
                }
                Ok(read) => {
                    self.end = read;
                    return true;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(_) => {
                    self.ended = true;
                    return false;
                }
            }
        }
    }

    /// Puts `bytes` (at most [`LOOKBACK`]) back before the unread input.
    fn unread(&mut self, bytes: &[u8]) {
        if self.start >= bytes.len() {
            self.start -= bytes.len();
        } else {
            let shift = bytes.len() - self.start;
            self.buffer
                .copy_within(self.start..self.end, self.start + shift);
            self.start += shift;
            self.end += shift;
            self.start -= bytes.len();
        }
        self.buffer[self.start..self.start + bytes.len()].copy_from_slice(bytes);
    }
}

#[cfg(test)]
mod tests;
