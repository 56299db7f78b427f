//! The language server's limits: how many diagnostics a document
//! publishes (as many as `chess2rs check` shows, then one saying how many
//! more there are), and what that costs on a 10 MB document.

use std::time::{Duration, Instant};

use chess2rs::lsp::Server;
use lsp_server::{Message, Notification};
use serde_json::{json, Value};

/// An InfChessPro program of at least `bytes` bytes in which every label
/// is defined twice: one error per pair of lines.
fn duplicate_labels(bytes: usize) -> String {
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

/// The 10 MB document opened and then changed ten times, each change
/// published once its debounce has passed: prints the time of each
/// (`cargo test --release --test lsp_limits -- --ignored --nocapture`).
#[test]
#[ignore = "a measurement: 10 MB, run in release"]
fn ten_megabytes_of_duplicate_labels_measured() {
    let text = duplicate_labels(10_000_000);
    let uri = "file:///big.icp";
    let mut server = Server::new(&Default::default());
    let start = Instant::now();
    let opened = notify(
        &mut server,
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text } }),
    );
    let size: usize = opened
        .iter()
        .map(|m| serde_json::to_string(m).unwrap().len())
        .sum();
    println!(
        "open: {:?}, {} diagnostics, {size} bytes of JSON",
        start.elapsed(),
        published(&opened).len()
    );
    let mut total = Duration::ZERO;
    let mut publishing = Duration::ZERO;
    for version in 2..=11 {
        let change = json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [ { "text": text } ] });
        let start = Instant::now();
        notify(&mut server, "textDocument/didChange", change);
        let published_at = Instant::now();
        let messages = server.publish_due(Instant::now() + Duration::from_secs(1));
        let json: usize = messages
            .iter()
            .map(|m| serde_json::to_string(m).unwrap().len())
            .sum();
        let took = start.elapsed();
        total += took;
        publishing += published_at.elapsed();
        println!(
            "change {version}: {took:?} ({} diagnostics, {json} bytes of JSON)",
            published(&messages).len()
        );
    }
    // Of which the compiler's check as the server makes it (parsing, 50
    // diagnostics built and 277,728 counted), the same ten times; and as
    // `--message-format json` makes it, every diagnostic built.
    let source = chess2rs::Source::new("big.icp".to_string(), text);
    let timed = |bounded: bool| {
        let start = Instant::now();
        for _ in 0..10 {
            let check = || chess2rs::check(&source, chess2rs::Language::InfChessPro);
            let checked = if bounded {
                chess2rs::diag::building_shown_only(check)
            } else {
                check()
            };
            assert!(checked.is_err());
        }
        start.elapsed()
    };
    let checking = timed(true);
    println!("10 checks building every diagnostic: {:?}", timed(false));
    println!(
        "10 changes: {total:?}; checking and publishing {publishing:?}, of which the compiler's check {checking:?}"
    );
}
