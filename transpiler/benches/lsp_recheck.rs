//! The language server re-checking a 10,000-line document after a change:
//! the change arrives, the debounce passes, the document is checked and
//! its diagnostics converted and published — one per language. Then the
//! outline (what hovers and definitions answer from) of the same document.

use std::time::{Duration, Instant};

use chess2rs::lsp::Server;
use criterion::{criterion_group, criterion_main, Criterion};
use lsp_server::{Message, Notification};
use serde_json::json;

/// 10,000-line programs, one per language, each with work for every stage
/// (labels and jumps, loops, moves, annotated boards).
pub fn documents() -> Vec<(&'static str, String)> {
    let icp: String = (1..=10_000)
        .map(|n| match n % 4 {
            0 => format!("{n}. p{n}=P{n},0\n"),
            1 => format!("{n}. p;1,0?{}!{}\n", n + 1, n + 2),
            2 => format!("{n}. \"line {n}\n"),
            _ => format!("{n}. %p\n"),
        })
        .collect();
    let chc: String = (0..2_000)
        .map(|n| {
            format!(
                "a1+\n1/2 1/2\n  b{}+\nb{}=R+\nb{}\n",
                n % 8 + 1,
                n % 8 + 1,
                n % 8 + 1
            )
        })
        .collect();
    let mut fv = String::from("(k):\n(p 4): (1,0)\n(q 1): {(1,0)*,(1,1)*}\n\n+--+--+--+\n|kB|  |qB|\n+--+--+--+\n|  |  |  |\n+--+--+--+\n|pW|qW|kW|\n+--+--+--+\n\n");
    for turn in 1..=4_994 {
        fv.push_str(&format!(
            "Turn {turn} W: p a1 -> b1\nTurn {turn} B: q c3 -> b3\n"
        ));
    }
    let pgn: String = (1..=10_000)
        .map(|n| {
            if n % 10 == 1 {
                format!("{n}. Nf3! Nf6\n")
            } else if n % 2 == 1 {
                format!("{n}. Nf3 Nf6\n")
            } else {
                format!("{n}. Ng1 Ng8\n")
            }
        })
        .collect();
    let btm: String = (0..10_000)
        .map(|n| format!("1{:b}{}\n", n % 64, if n % 7 == 0 { "?" } else { "!" }))
        .collect();
    vec![
        ("icp", icp),
        ("chc", chc),
        ("fv", fv),
        ("pgn", pgn),
        ("btm", btm),
    ]
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
        let mut version = 1;
        group.bench_function(extension, |b| {
            b.iter(|| {
                version += 1;
                notify(
                    &mut server,
                    "textDocument/didChange",
                    json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [ { "text": text } ] }),
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
