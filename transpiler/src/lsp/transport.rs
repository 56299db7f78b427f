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

use std::io::{self, Read, Write};

use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use serde_json::{Map, Value};

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

/// Appends `bytes` to `held`, growing it (doubling) but never past
/// `limit` bytes, which `held` and `bytes` together are within.
fn push_within(held: &mut Vec<u8>, bytes: &[u8], limit: usize) {
    let needed = held.len() + bytes.len();
    if needed > held.capacity() {
        let wanted = (held.capacity() * 2).max(needed).min(limit.max(needed));
        held.reserve_exact(wanted - held.len());
    }
    held.extend_from_slice(bytes);
}

/// Appends `bytes` to `tail`, keeping its last [`LOOKBACK`] bytes.
fn keep_tail(tail: &mut Vec<u8>, bytes: &[u8]) {
    let bytes = &bytes[bytes.len().saturating_sub(LOOKBACK)..];
    tail.extend_from_slice(bytes);
    if tail.len() > LOOKBACK {
        tail.drain(..tail.len() - LOOKBACK);
    }
}

fn find_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// A character of a header name (an HTTP token).
fn is_token(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

/// Where a `Content-Length: N` header (name in any case, spaces around
/// the colon and after the number, a `\r`) ends `line` (the bytes before
/// a line end), if it does.
fn header_start(line: &[u8]) -> Option<usize> {
    const NAME: &[u8] = b"content-length";
    let mut at = line.len();
    let skip_spaces = |at: &mut usize| {
        while *at > 0 && matches!(line[*at - 1], b' ' | b'\t') {
            *at -= 1;
        }
    };
    if at > 0 && line[at - 1] == b'\r' {
        at -= 1;
    }
    skip_spaces(&mut at);
    let digits_end = at;
    while at > 0 && line[at - 1].is_ascii_digit() {
        at -= 1;
    }
    if at == digits_end {
        return None;
    }
    skip_spaces(&mut at);
    if at == 0 || line[at - 1] != b':' {
        return None;
    }
    at -= 1;
    skip_spaces(&mut at);
    let start = at.checked_sub(NAME.len())?;
    line[start..at].eq_ignore_ascii_case(NAME).then_some(start)
}

/// The number of a `Content-Length: N` header (`None` past 64 bits).
fn length_value(header: &[u8]) -> Option<u64> {
    let colon = header.iter().position(|&b| b == b':')?;
    header[colon + 1..]
        .iter()
        .filter(|b| b.is_ascii_digit())
        .try_fold(0u64, |value, &digit| {
            value.checked_mul(10)?.checked_add(u64::from(digit - b'0'))
        })
}

/// Where a JSON object ends, found by following its strings and
/// brackets (not checking it is JSON).
#[derive(Default)]
struct Object {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Object {
    /// Feeds the next bytes; the number of them up to the object's end,
    /// if it ends in them.
    fn feed(&mut self, bytes: &[u8]) -> Option<usize> {
        for (index, &byte) in bytes.iter().enumerate() {
            if self.in_string {
                match (self.escaped, byte) {
                    (true, _) => self.escaped = false,
                    (false, b'\\') => self.escaped = true,
                    (false, b'"') => self.in_string = false,
                    _ => {}
                }
                continue;
            }
            match byte {
                b'"' => self.in_string = true,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => {
                    self.depth = self.depth.saturating_sub(1);
                    if self.depth == 0 {
                        return Some(index + 1);
                    }
                }
                _ => {}
            }
        }
        None
    }
}

/// The id of a message from its first bytes: the value of a top-level
/// `"id"` member, if it is a number or a string and comes before the
/// bytes end; else `null`.
fn sniff_id(prefix: &[u8]) -> Value {
    let mut depth = 0usize;
    let mut at = 0;
    // The last string closed at depth 1, and where it started.
    let mut key: Option<(usize, usize)> = None;
    while at < prefix.len() {
        match prefix[at] {
            b'"' => {
                let start = at;
                at += 1;
                while at < prefix.len() && prefix[at] != b'"' {
                    at += if prefix[at] == b'\\' { 2 } else { 1 };
                }
                if at >= prefix.len() {
                    return Value::Null;
                }
                key = (depth == 1).then_some((start, at + 1));
            }
            b'{' | b'[' => {
                depth += 1;
                key = None;
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                key = None;
            }
            b':' if depth == 1 => {
                if let Some((start, end)) = key.take() {
                    if &prefix[start..end] == b"\"id\"" {
                        return id_value(&prefix[at + 1..]);
                    }
                }
            }
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => key = None,
        }
        at += 1;
    }
    Value::Null
}

/// A JSON number or string at the start of `bytes` (after spaces), if it
/// ends within them.
fn id_value(bytes: &[u8]) -> Value {
    let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<Value>();
    match stream.next() {
        Some(Ok(value @ (Value::Number(_) | Value::String(_)))) => value,
        _ => Value::Null,
    }
}

/// A message decoded from a frame's body.
#[derive(Debug)]
pub enum Decoded {
    /// A request or notification.
    Message(Message),
    /// A response from the client (the server asks nothing, so it is
    /// dropped).
    Response,
}

/// The message in a body, or the error that answers it: `-32700` (parse
/// error) for bytes that are not JSON, `-32600` (invalid request) for
/// JSON that is no request or notification (with its id if it has a
/// usable one).
pub fn decode(body: &[u8]) -> Result<Decoded, Failure> {
    let value: Value = serde_json::from_slice(body)
        .map_err(|e| Failure::parse(format!("the message is not JSON: {e}")))?;
    let Value::Object(mut object) = value else {
        let what = if value.is_array() {
            "a batch (an array), which LSP does not use"
        } else {
            "not an object"
        };
        return Err(Failure::invalid(
            Value::Null,
            format!("the message is {what}"),
        ));
    };
    let id = object.remove("id");
    let reply_id = match &id {
        Some(id @ (Value::Number(_) | Value::String(_))) => id.clone(),
        _ => Value::Null,
    };
    let Some(method) = object.remove("method") else {
        if id.is_some() && (object.contains_key("result") || object.contains_key("error")) {
            return Ok(Decoded::Response);
        }
        return Err(Failure::invalid(
            reply_id,
            "the message has no `method` (it is neither a request nor a notification)",
        ));
    };
    let Value::String(method) = method else {
        return Err(Failure::invalid(reply_id, "the `method` is not a string"));
    };
    if object
        .get("jsonrpc")
        .is_some_and(|version| *version != "2.0")
    {
        return Err(Failure::invalid(
            reply_id,
            "the `jsonrpc` version is not 2.0",
        ));
    }
    let params = params(&mut object);
    let Some(id) = id else {
        return Ok(Decoded::Message(Message::Notification(Notification {
            method,
            params,
        })));
    };
    let id = match id {
        Value::String(id) => RequestId::from(id),
        Value::Number(ref number) => match number.as_i64().and_then(|n| i32::try_from(n).ok()) {
            Some(n) => RequestId::from(n),
            None => {
                return Err(Failure::invalid(
                    reply_id,
                    "the request's id is a number that is not a 32-bit integer",
                ))
            }
        },
        _ => {
            return Err(Failure::invalid(
                Value::Null,
                "the request's id is neither a number nor a string",
            ))
        }
    };
    Ok(Decoded::Message(Message::Request(Request {
        id,
        method,
        params,
    })))
}

fn params(object: &mut Map<String, Value>) -> Value {
    object.remove("params").unwrap_or(Value::Null)
}

/// What the server sends.
#[derive(Debug)]
pub enum Outgoing {
    /// A response or notification.
    Message(Message),
    /// The error answering a message it could not take.
    Failure(Failure),
}

impl Outgoing {
    /// Writes it, framed, and flushes.
    pub fn write(&self, out: &mut impl Write) -> io::Result<()> {
        match self {
            Outgoing::Message(message) => message.write(out),
            Outgoing::Failure(failure) => {
                let text = failure.response().to_string();
                write!(out, "Content-Length: {}\r\n\r\n{text}", text.len())?;
                out.flush()
            }
        }
    }
}

impl From<Message> for Outgoing {
    fn from(message: Message) -> Outgoing {
        Outgoing::Message(message)
    }
}

impl From<Response> for Outgoing {
    fn from(response: Response) -> Outgoing {
        Outgoing::Message(Message::Response(response))
    }
}

#[cfg(test)]
mod tests {
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
        let body =
            br#"{"jsonrpc":"2.0","id":"big","method":"m","params":"xxxxxxxxxxxxxxxxxxxxxxx"}"#;
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
}
