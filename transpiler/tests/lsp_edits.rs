//! The language server never panics or hangs, whatever the document and
//! however it is edited: random edit sequences on every golden program and
//! example (property test), and every saved fuzz input and golden program
//! opened as a document, each followed by every request at many positions.
//! Every range it returns lies inside the document.

use std::path::Path;
use std::time::{Duration, Instant};

use chess2rs::lsp::Server;
use lsp_server::{Message, Notification, Request, RequestId};
use proptest::prelude::*;
use serde_json::{json, Value};

/// A server as a client without position-encoding preferences starts it.
fn server() -> Server {
    Server::new(&Default::default())
}

fn notify(server: &mut Server, method: &str, params: Value) -> Vec<Message> {
    server.handle(
        Message::Notification(Notification::new(method.to_string(), params)),
        Instant::now(),
    )
}

fn request(server: &mut Server, method: &str, params: Value) -> Value {
    let replies = server.handle(
        Message::Request(Request::new(RequestId::from(1), method.to_string(), params)),
        Instant::now(),
    );
    match replies.into_iter().next() {
        Some(Message::Response(response)) => {
            serde_json::to_value(&response).expect("a response serialises")
        }
        other => panic!("no response to {method}: {other:?}"),
    }
}

/// The lines and UTF-16 lengths of `text`, for checking ranges.
fn line_lengths(text: &str) -> Vec<u64> {
    text.split('\n')
        .map(|line| line.encode_utf16().count() as u64)
        .collect()
}

/// Every `range` in `value` lies within the text's lines.
fn ranges_inside(value: &Value, lines: &[u64], what: &str) {
    match value {
        Value::Object(map) => {
            if let Some(range) = map.get("range") {
                for end in ["start", "end"] {
                    let line = range[end]["line"].as_u64().unwrap();
                    let character = range[end]["character"].as_u64().unwrap();
                    let length = lines.get(line as usize).copied();
                    assert!(
                        length.is_some_and(|length| character <= length),
                        "{what}: {end} {line}:{character} outside the text ({lines:?})"
                    );
                }
            }
            map.values().for_each(|v| ranges_inside(v, lines, what));
        }
        Value::Array(items) => items.iter().for_each(|v| ranges_inside(v, lines, what)),
        _ => {}
    }
}

/// Opens or changes `uri` to `text`, publishes its diagnostics and asks
/// every question at `positions` (line, character), checking the ranges.
fn exercise(server: &mut Server, uri: &str, text: &str, version: i32, positions: &[(u32, u32)]) {
    let lines = line_lengths(text);
    let mut published = if version == 1 {
        notify(
            server,
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text } }),
        )
    } else {
        notify(
            server,
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [ { "text": text } ] }),
        )
    };
    published.extend(server.publish_due(Instant::now() + Duration::from_secs(1)));
    for message in &published {
        ranges_inside(&serde_json::to_value(message).unwrap(), &lines, uri);
    }
    let document = json!({ "textDocument": { "uri": uri } });
    for method in [
        "textDocument/documentSymbol",
        "textDocument/semanticTokens/full",
    ] {
        let response = request(server, method, document.clone());
        assert!(response.get("error").is_none(), "{method}: {response}");
        ranges_inside(&response, &lines, uri);
    }
    for &(line, character) in positions {
        let at = json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } });
        for method in ["textDocument/hover", "textDocument/definition"] {
            let response = request(server, method, at.clone());
            assert!(response.get("error").is_none(), "{method}: {response}");
            ranges_inside(&response, &lines, uri);
        }
        let mut references = at.clone();
        references["context"] = json!({ "includeDeclaration": true });
        let response = request(server, "textDocument/references", references);
        ranges_inside(&response, &lines, uri);
    }
}

/// Every golden program and example, with its extension.
fn programs() -> Vec<(String, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut found = Vec::new();
    for dir in [
        "golden/infchesspro",
        "golden/chesscode",
        "golden/chessoteric",
        "golden/finvara",
        "examples",
    ] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap().flatten() {
            let path = entry.path();
            let Some(extension) = path.extension().and_then(|e| e.to_str()) else {
                continue;
            };
            if ["icp", "chc", "pgn", "btm", "fv"].contains(&extension) {
                let text = String::from_utf8_lossy(&std::fs::read(&path).unwrap()).into_owned();
                found.push((extension.to_string(), text));
            }
        }
    }
    found.sort();
    found
}

/// Positions all over a text: the start, middle and end of every line (of
/// up to 200 lines; a request costs in proportion to the document's
/// length, so a longer one has fewer, down to 50, spread from its first
/// line to its last), and some past the ends.
fn positions_in(text: &str) -> Vec<(u32, u32)> {
    let lengths = line_lengths(text);
    let probed = lengths.len().min((40_000 / lengths.len()).max(50));
    let mut positions = Vec::new();
    for i in 0..probed {
        let line = if probed < 2 {
            0
        } else {
            i * (lengths.len() - 1) / (probed - 1)
        };
        let length = lengths[line] as u32;
        let line = line as u32;
        positions.extend([
            (line, 0),
            (line, length / 2),
            (line, length),
            (line, length + 3),
        ]);
    }
    positions.push((u32::MAX, u32::MAX));
    positions
}

#[test]
fn every_fuzz_input_and_golden_program_as_a_document() {
    let mut server = server();
    let mut documents = programs();
    let crashes = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/crashes");
    for target in std::fs::read_dir(crashes).unwrap().flatten() {
        if !target.path().is_dir() {
            continue;
        }
        for input in std::fs::read_dir(target.path()).unwrap().flatten() {
            let extension = target.file_name().to_string_lossy().into_owned();
            let text = String::from_utf8_lossy(&std::fs::read(input.path()).unwrap()).into_owned();
            documents.push((extension, text));
        }
    }
    assert!(documents.len() > 150, "only {} documents", documents.len());
    // The fuzzers' whole local corpora too, when asked for (they are not
    // committed): CHESS2RS_FUZZ_CORPUS=fuzz/work.
    if let Some(work) = std::env::var_os("CHESS2RS_FUZZ_CORPUS") {
        for extension in ["icp", "chc", "pgn", "btm", "fv"] {
            let queue = Path::new(&work).join(extension).join("out/default/queue");
            for input in std::fs::read_dir(queue).into_iter().flatten().flatten() {
                if input.path().is_file() {
                    let text =
                        String::from_utf8_lossy(&std::fs::read(input.path()).unwrap()).into_owned();
                    documents.push((extension.to_string(), text));
                }
            }
        }
        eprintln!("{} documents", documents.len());
    }
    for (index, (extension, text)) in documents.iter().enumerate() {
        let uri = format!("file:///doc{index}.{extension}");
        exercise(&mut server, &uri, text, 1, &positions_in(text));
    }
}

/// An edit: replace the characters `start..start + length` (counted in
/// characters, wrapped to the text) with `insert`.
#[derive(Debug, Clone)]
struct Edit {
    start: usize,
    length: usize,
    insert: String,
}

fn edit() -> impl Strategy<Value = Edit> {
    // Pieces of every language's syntax, and some noise.
    let fragment = prop_oneof![
        Just("\n".to_string()),
        Just("1. ".to_string()),
        Just("?1!2".to_string()),
        Just("a=K0,0".to_string()),
        Just("\"hi".to_string()),
        Just("1/2 1/2\n".to_string()),
        Just("a1xb2+".to_string()),
        Just("Turn 1 W: k a1 -> b1\n".to_string()),
        Just("|kW|##|  |\n".to_string()),
        Just("(q 3): {(1,0)*,c((1,1))}`\n".to_string()),
        Just("e4! Nf3?? {c} ".to_string()),
        Just("1101!\n".to_string()),
        Just("é𝄞\u{feff}".to_string()),
        "[ -~]{0,12}",
    ];
    (0usize..4000, 0usize..30, fragment).prop_map(|(start, length, insert)| Edit {
        start,
        length,
        insert,
    })
}

fn apply(text: &str, edit: &Edit) -> String {
    let chars: Vec<char> = text.chars().collect();
    let start = edit.start % (chars.len() + 1);
    let end = (start + edit.length).min(chars.len());
    let mut edited: String = chars[..start].iter().collect();
    edited.push_str(&edit.insert);
    edited.extend(&chars[end..]);
    edited
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_edit_sequences_never_break_the_server(
        program in 0usize..10_000,
        edits in proptest::collection::vec(edit(), 1..12),
        probes in proptest::collection::vec((0u32..60, 0u32..80), 4),
    ) {
        let programs = programs();
        let (extension, text) = &programs[program % programs.len()];
        let uri = format!("file:///edited.{extension}");
        let mut server = server();
        let mut text = text.clone();
        exercise(&mut server, &uri, &text, 1, &probes);
        for (version, edit) in edits.iter().enumerate() {
            text = apply(&text, edit);
            exercise(&mut server, &uri, &text, version as i32 + 2, &probes);
        }
    }
}
