//! The language server's limits: how many diagnostics a document
//! publishes (as many as `chess2rs check` shows, then one saying how many
//! more there are), and what that costs on a 10 MB document.

#[path = "support/cpu_time.rs"]
mod cpu_time;
#[path = "support/lsp_documents.rs"]
mod lsp_documents;

use std::time::{Duration, Instant};

use chess2rs::lsp::transport::Frame;
use chess2rs::lsp::{Server, Session};
use cpu_time::CpuTimer;
use lsp_documents::{document, Typing};
use lsp_server::{Message, Notification};
use serde_json::{json, Value};

/// An InfChessPro program of at least `bytes` bytes in which every label
/// is defined twice: one error per pair of lines.
pub fn duplicate_labels(bytes: usize) -> String {
    let mut text = String::with_capacity(bytes + 64);
    let mut label = 1;
    while text.len() < bytes {
        for _ in 0..2 {
            text.push_str(&format!("{label}. \"label {label}\n"));
        }
        label += 1;
    }
    text
}

/// A document of at least `bytes` bytes in which every other line is
/// wrong, by `case`: Chess Code with a cell that is not one (`a9+`,
/// `chc-syntax`) or a loop condition with no label (`chc-unmatched`), a
/// BTM listing with a bit that is not one (`12!`, `btm-syntax`) or a
/// continuation before anything started (`btm-orphans`), a PGN game of
/// knights going out and back whose Black moves are all annotated on
/// boards with no instruction in them (`pgn-annotations`: typing at a
/// line's end makes its `!` a `!!` and back, a game played each time).
pub fn wrong_lines(case: &str, bytes: usize) -> String {
    let pair = match case {
        "chc-syntax" => "a1+\na9+\n",
        "chc-unmatched" => "a1+\na1=R\n",
        "btm-syntax" => "101?\n12!\n",
        "pgn-annotations" => "1. Nf3 Nf6!\n2. Ng1 Ng8!\n",
        _ => "101?\n10!!\n",
    };
    pair.repeat(bytes.div_ceil(pair.len()))
}

fn notify(server: &mut Server, method: &str, params: Value) -> Vec<Message> {
    server.handle(
        Message::Notification(Notification::new(method.to_string(), params)),
        Instant::now(),
    )
}

/// The diagnostics of the one `publishDiagnostics` in `messages`.
fn published(messages: &[Message]) -> Vec<Value> {
    assert_eq!(messages.len(), 1, "one notification");
    let Message::Notification(notification) = &messages[0] else {
        panic!("{messages:?}");
    };
    notification.params["diagnostics"]
        .as_array()
        .unwrap()
        .clone()
}

/// As many diagnostics as `check` shows (50, the first errors), then
/// one saying how many more there are; on opening and after a change.
#[test]
fn a_document_publishes_at_most_what_check_shows_and_how_many_more() {
    // 2,000 labels defined twice: 2,000 errors.
    let text: String = (1..=2_000)
        .map(|label| format!("{label}. \"label {label}\n{label}. \"again\n"))
        .collect();
    let uri = "file:///twice.icp";
    let mut server = Server::new(&Default::default());
    let opened = notify(
        &mut server,
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text } }),
    );
    let check = |diagnostics: Vec<Value>| {
        assert_eq!(diagnostics.len(), 50 + 1);
        // The first errors in order: labels 1 to 50, each on its second
        // line.
        for (index, diagnostic) in diagnostics[..50].iter().enumerate() {
            assert_eq!(diagnostic["severity"], 1);
            assert_eq!(diagnostic["range"]["start"]["line"], 2 * index + 1);
            assert!(diagnostic["message"]
                .as_str()
                .unwrap()
                .starts_with(&format!("label {} is defined twice", index + 1)));
        }
        let more = &diagnostics[50];
        assert_eq!(
            more["message"],
            "1950 more errors not shown (the first 50 are listed; fix them and check again)"
        );
        assert_eq!(more["severity"], 3, "information");
        assert_eq!(more["range"]["start"], json!({ "line": 0, "character": 0 }));
    };
    check(published(&opened));
    let changed = text.replacen("label 1\n", "label one\n", 1);
    notify(
        &mut server,
        "textDocument/didChange",
        json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [ { "text": changed } ] }),
    );
    check(published(
        &server.publish_due(Instant::now() + Duration::from_secs(1)),
    ));
    // Warnings fill what errors leave: 3 errors, then 47 of the 60
    // warnings (text that looks like a jump), then 13 more.
    let text: String = (1..=3)
        .map(|label| format!("{label}. ^\n{label}. ^\n"))
        .chain((10..70).map(|label| format!("{label}. \"x?1\n")))
        .collect();
    let opened = notify(
        &mut server,
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": "file:///mixed.icp", "languageId": "", "version": 1, "text": text } }),
    );
    let diagnostics = published(&opened);
    assert_eq!(diagnostics.len(), 51);
    let severities: Vec<i64> = diagnostics
        .iter()
        .map(|d| d["severity"].as_i64().unwrap())
        .collect();
    assert_eq!(severities[..3], [1, 1, 1]);
    assert!(severities[3..50].iter().all(|&s| s == 2), "{severities:?}");
    assert_eq!(
        diagnostics[50]["message"],
        "13 more warnings not shown (the first 50 are listed; fix them and check again)"
    );
}

/// A session that has answered `initialize`, and whether it takes
/// changes as edits (incremental sync) rather than whole texts.
fn initialized() -> (Session, bool) {
    let mut session = Session::new();
    let body = json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } });
    let (replies, _) = session.frame(
        Frame::Body(body.to_string().into_bytes()),
        Instant::now(),
        &mut std::io::sink(),
    );
    let mut written = Vec::new();
    for reply in replies {
        reply.write(&mut written).unwrap();
    }
    let text = String::from_utf8(written).unwrap();
    let reply: Value = serde_json::from_str(&text[text.find('{').unwrap()..]).unwrap();
    let sync = &reply["result"]["capabilities"]["textDocumentSync"];
    let kind = sync.get("change").unwrap_or(sync);
    (session, *kind == 2)
}

/// Runs `frame` through `session` and then what is due long after, all
/// written out as the server writes them: the bytes written.
fn round_trip(session: &mut Session, frame: Vec<u8>) -> Vec<u8> {
    let now = Instant::now();
    let (mut replies, _) = session.frame(Frame::Body(frame), now, &mut std::io::sink());
    replies.extend(session.publish_due(now + Duration::from_secs(3600)));
    let mut written = Vec::new();
    for reply in &replies {
        reply.write(&mut written).unwrap();
    }
    written
}

/// The diagnostics of the one `publishDiagnostics` the server wrote.
fn written_diagnostics(written: &[u8]) -> usize {
    let text = std::str::from_utf8(written).unwrap();
    let body: Value = serde_json::from_str(&text[text.find('{').unwrap()..]).unwrap();
    assert_eq!(body["method"], "textDocument/publishDiagnostics");
    body["params"]["diagnostics"].as_array().unwrap().len()
}

/// A 10 MB document of each language opened, then edited as a user
/// types (a character added at the end of its middle line, then taken
/// away, over and over; for `fv-board` and `fv-piece`, of its first board
/// row or second piece): prints the time from the change's bytes to the
/// diagnostics written, the debounce left out — the least of the samples
/// and the mean CPU time — and a whole check by `chess2rs::check`
/// (`cargo test --release -p chess2rs --test lsp_limits -- --ignored
/// --nocapture`; `LSP_SAMPLES` sets how many changes, 20 by default, and
/// `LSP_CASES` which documents, e.g. `icp-twice,pgn`; the cases of
/// [`wrong_lines`] have an error on every other line, `pgn-annotations`
/// on every line).
#[test]
#[ignore = "a measurement: 10 MB documents, run in release"]
fn ten_megabyte_documents_rechecked_after_one_line_edits() {
    let samples: usize = std::env::var("LSP_SAMPLES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(20);
    let size = 10_000_000;
    let cases = [
        ("icp", "icp-twice", duplicate_labels(size)),
        ("icp", "icp", document("icp", 0, size).unwrap()),
        ("chc", "chc", document("chc", 0, size).unwrap()),
        ("chc", "chc-syntax", wrong_lines("chc-syntax", size)),
        ("chc", "chc-unmatched", wrong_lines("chc-unmatched", size)),
        ("fv", "fv", document("fv", 0, size).unwrap()),
        ("fv", "fv-board", document("fv", 0, size).unwrap()),
        ("fv", "fv-piece", document("fv", 0, size).unwrap()),
        ("pgn", "pgn", document("pgn", 0, size).unwrap()),
        (
            "pgn",
            "pgn-annotations",
            wrong_lines("pgn-annotations", size),
        ),
        ("btm", "btm", document("btm", 0, size).unwrap()),
        ("btm", "btm-syntax", wrong_lines("btm-syntax", size)),
        ("btm", "btm-orphans", wrong_lines("btm-orphans", size)),
    ];
    let wanted = std::env::var("LSP_CASES").ok();
    let wanted = |name: &str| {
        wanted
            .as_deref()
            .is_none_or(|list| list.split(',').any(|case| case == name))
    };
    for (extension, name, text) in cases {
        if !wanted(name) {
            continue;
        }
        let uri = format!("file:///big.{extension}");
        let (mut session, incremental) = initialized();
        // Finvara's board or pieces: the end of its first row (`|`: a row
        // too wide) or of its second piece (`)`: a notation that does not
        // read).
        let typing = match name {
            "fv-board" => Typing::on_line(&text, 5),
            "fv-piece" => Typing::on_line(&text, 1),
            _ => Typing::new(&text),
        };
        let lines = text.lines().count();
        let open = json!({ "jsonrpc": "2.0", "method": "textDocument/didOpen", "params": { "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text } } });
        let start = Instant::now();
        let written = round_trip(&mut session, open.to_string().into_bytes());
        let opened = start.elapsed();
        let opened_with = written_diagnostics(&written);
        let mut walls = Vec::new();
        let cpu = CpuTimer::start();
        let mut published = Vec::new();
        for sample in 0..samples {
            let version = sample as i32 + 2;
            let change = typing.change(sample, &text, !incremental);
            let body = json!({ "jsonrpc": "2.0", "method": "textDocument/didChange", "params": { "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] } })
                .to_string()
                .into_bytes();
            let start = Instant::now();
            let written = round_trip(&mut session, body);
            walls.push(start.elapsed());
            published.push(written);
        }
        let cpu = cpu.elapsed() / samples as u32;
        walls.sort();
        let counts: Vec<usize> = published.iter().map(|w| written_diagnostics(w)).collect();
        // The whole check as `chess2rs check` makes it, the least of three.
        let language = chess2rs::Language::from_extension(extension).unwrap();
        let source = chess2rs::Source::new(format!("big.{extension}"), text.clone());
        let checks = (0..3)
            .map(|_| {
                let start = Instant::now();
                let _ = chess2rs::diag::building_shown_only(|| chess2rs::check(&source, language));
                start.elapsed()
            })
            .min()
            .unwrap();
        println!(
            "{name}: {} bytes, {} lines ({}); open {opened:.1?} ({opened_with} diagnostics); re-check least {:.1?}, median {:.1?}, CPU mean {cpu:.1?} ({:?} diagnostics); whole check {checks:.1?}",
            text.len(),
            lines,
            if incremental { "edits" } else { "whole texts" },
            walls[0],
            walls[walls.len() / 2],
            counts.iter().min().zip(counts.iter().max()),
        );
    }
}
