//! The byte scanning the reader does: a `Content-Length` header at the
//! end of a line, a JSON object's end, a message's id among its first
//! bytes, and buffers held within a limit.

use serde_json::Value;

use super::LOOKBACK;

/// Appends `bytes` to `held`, growing it (doubling) but never past
/// `limit` bytes, which `held` and `bytes` together are within.
pub(super) fn push_within(held: &mut Vec<u8>, bytes: &[u8], limit: usize) {
    let needed = held.len() + bytes.len();
    if needed > held.capacity() {
        let wanted = (held.capacity() * 2).max(needed).min(limit.max(needed));
        held.reserve_exact(wanted - held.len());
    }
    held.extend_from_slice(bytes);
}

/// Appends `bytes` to `tail`, keeping its last [`LOOKBACK`] bytes.
pub(super) fn keep_tail(tail: &mut Vec<u8>, bytes: &[u8]) {
    let bytes = &bytes[bytes.len().saturating_sub(LOOKBACK)..];
    tail.extend_from_slice(bytes);
    if tail.len() > LOOKBACK {
        tail.drain(..tail.len() - LOOKBACK);
    }
}

pub(super) fn find_newline(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == b'\n')
}

/// A character of a header name (an HTTP token).
pub(super) fn is_token(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&byte)
}

/// Where a `Content-Length: N` header (name in any case, spaces around
/// the colon and after the number, a `\r`) ends `line` (the bytes before
/// a line end), if it does.
pub(super) fn header_start(line: &[u8]) -> Option<usize> {
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
pub(super) fn length_value(header: &[u8]) -> Option<u64> {
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
pub(super) struct Object {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Object {
    /// Feeds the next bytes; the number of them up to the object's end,
    /// if it ends in them.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> Option<usize> {
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
pub(super) fn sniff_id(prefix: &[u8]) -> Value {
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
pub(super) fn id_value(bytes: &[u8]) -> Value {
    let mut stream = serde_json::Deserializer::from_slice(bytes).into_iter::<Value>();
    match stream.next() {
        Some(Ok(value @ (Value::Number(_) | Value::String(_)))) => value,
        _ => Value::Null,
    }
}
