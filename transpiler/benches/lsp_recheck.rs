//! The language server re-checking a 10,000-line document after a
//! keystroke: the change (an edit of a range, as the server's incremental
//! sync has clients send) arrives, the debounce passes, the document is
//! checked and its diagnostics converted and published — one per
//! language. Then the outline (what hovers and definitions answer from)
//! of the same document.

#[path = "../tests/support/lsp_documents.rs"]
mod lsp_documents;

use std::time::{Duration, Instant};

use chess2rs::lsp::Server;
use criterion::{criterion_group, criterion_main, Criterion};
use lsp_documents::{document, Typing};
use lsp_server::{Message, Notification};
use serde_json::json;

/// 10,000-line programs, one per language, each with work for every stage
/// (labels and jumps, loops, moves, annotated boards).
pub fn documents() -> Vec<(&'static str, String)> {
    ["icp", "chc", "fv", "pgn", "btm"]
        .into_iter()
        .filter_map(|extension| Some((extension, document(extension, 10_000, 0)?)))
        .collect()
}

fn notify(server: &mut Server, method: &str, params: serde_json::Value) {
    server.handle(
        Message::Notification(Notification::new(method.to_string(), params)),
        Instant::now(),
    );
}

fn recheck(c: &mut Criterion) {
    let mut group = c.benchmark_group("lsp_recheck_10000_lines");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for (extension, text) in documents() {
        assert!(text.lines().count() >= 10_000, "{extension}");
        let uri = format!("file:///bench.{extension}");
        let mut server = Server::new(&Default::default());
        notify(
            &mut server,
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text } }),
        );
        let typing = Typing::new(&text);
        let mut version = 1;
        group.bench_function(extension, |b| {
            b.iter(|| {
                let change = typing.change(version as usize - 1, &text, false);
                version += 1;
                notify(
                    &mut server,
                    "textDocument/didChange",
                    json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [change] }),
                );
                let published = server.publish_due(Instant::now() + Duration::from_secs(1));
                assert_eq!(published.len(), 1);
                published
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("lsp_outline_10000_lines");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5));
    for (extension, text) in documents() {
        let language = chess2rs::Language::from_extension(extension).unwrap();
        let source = chess2rs::Source::new(format!("bench.{extension}"), text);
        group.bench_function(extension, |b| {
            b.iter(|| chess2rs::outline(&source, language))
        });
    }
    group.finish();
}

criterion_group!(benches, recheck);
criterion_main!(benches);
