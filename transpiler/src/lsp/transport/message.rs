//! Messages in and out: a frame's body decoded into a request or
//! notification (or the error that answers it), and what the server
//! writes back, framed.

use std::io::{self, Write};

use lsp_server::{Message, Notification, Request, RequestId, Response};
use serde_json::{Map, Value};

use super::Failure;

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
