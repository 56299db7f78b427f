//! The server's unit tests, driven through `Server` with a fake clock:
//! debouncing, document names, position encodings, re-reading edits.

use super::*;

fn change(server: &mut Server, version: i32, text: &str, now: Instant) -> Vec<Message> {
    let params = serde_json::json!({
        "textDocument": { "uri": "file:///t.icp", "version": version },
        "contentChanges": [ { "text": text } ],
    });
    server.handle(
        Message::Notification(Notification::new(
            DidChangeTextDocument::METHOD.into(),
            params,
        )),
        now,
    )
}

#[test]
fn changes_in_quick_succession_are_checked_once_after_the_quiet_time() {
    let mut server = Server::new(&InitializeParams::default());
    let start = Instant::now();
    let open = serde_json::json!({
        "textDocument": { "uri": "file:///t.icp", "languageId": "", "version": 1, "text": "1. ^\n" },
    });
    let opened = server.handle(
        Message::Notification(Notification::new(DidOpenTextDocument::METHOD.into(), open)),
        start,
    );
    assert_eq!(opened.len(), 1, "an opened document is checked at once");
    for (version, text) in [(2, "1. ^?"), (3, "1. ^?9"), (4, "1. ^?9\n")] {
        let at = start + Duration::from_millis(10 * version as u64);
        assert!(change(&mut server, version, text, at).is_empty());
    }
    let last_change = start + Duration::from_millis(40);
    assert!(server.publish_due(last_change + DEBOUNCE / 2).is_empty());
    assert_eq!(server.next_deadline(), Some(last_change + DEBOUNCE));
    let published = server.publish_due(last_change + DEBOUNCE);
    assert_eq!(published.len(), 1);
    let Message::Notification(notification) = &published[0] else {
        panic!("{published:?}");
    };
    assert_eq!(notification.params["version"], 4);
    let diagnostics = notification.params["diagnostics"].as_array().unwrap();
    assert_eq!(
        diagnostics[0]["message"],
        "no line is labelled 9\njump to a missing line"
    );
    assert!(server.next_deadline().is_none());
}

#[test]
fn documents_are_named_by_their_decoded_path() {
    let uri = |text: &str| text.parse::<Uri>().unwrap();
    assert_eq!(name_of(&uri("file:///w/my%20game.pgn")), "/w/my game.pgn");
    assert_eq!(name_of(&uri("untitled:Untitled-1")), "untitled:Untitled-1");
}

#[test]
fn a_client_offering_utf8_positions_gets_them() {
    let params: InitializeParams = serde_json::from_value(serde_json::json!({
        "capabilities": { "general": { "positionEncodings": ["utf-8", "utf-16"] } }
    }))
    .unwrap();
    let server = Server::new(&params);
    assert_eq!(
        server.capabilities().position_encoding,
        Some(PositionEncodingKind::UTF8)
    );
    let plain = Server::new(&InitializeParams::default());
    assert_eq!(
        plain.capabilities().position_encoding,
        Some(PositionEncodingKind::UTF16)
    );
}

/// An edit of a 10,000-line InfChessPro document re-reads the lines it
/// changed, not the document: what a re-check costs besides passes
/// over what each line's facts are.
#[test]
fn an_edit_re_reads_only_the_lines_it_changed() {
    let mut server = Server::new(&InitializeParams::default());
    let uri = "file:///long.icp";
    let text: String = (1..=10_000).map(|n| format!("{n}. \"line {n}\n")).collect();
    let open = serde_json::json!({
        "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text },
    });
    let opened = server.handle(
        Message::Notification(Notification::new(DidOpenTextDocument::METHOD.into(), open)),
        Instant::now(),
    );
    assert_eq!(opened.len(), 1);
    let parsed = |server: &Server| server.documents[&uri.parse::<Uri>().unwrap()].lines_parsed();
    // Every line, and the empty one after the last line end.
    assert_eq!(parsed(&server), Some(10_001));
    let mut edit = |version: i32, range: [u32; 4], text: &str| {
        let before = parsed(&server).unwrap();
        let params = serde_json::json!({
            "textDocument": { "uri": uri, "version": version },
            "contentChanges": [ {
                "range": {
                    "start": { "line": range[0], "character": range[1] },
                    "end": { "line": range[2], "character": range[3] },
                },
                "text": text,
            } ],
        });
        let now = Instant::now();
        server.handle(
            Message::Notification(Notification::new(
                DidChangeTextDocument::METHOD.into(),
                params,
            )),
            now,
        );
        let published = server.publish_due(now + DEBOUNCE);
        let Some(Message::Notification(notification)) = published.first() else {
            panic!("{published:?}");
        };
        let messages: Vec<String> = notification.params["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["message"].as_str().unwrap().to_string())
            .collect();
        (parsed(&server).unwrap() - before, messages)
    };
    // A character typed: its line.
    let typed = edit(2, [4_999, 16, 4_999, 16], "?7");
    assert_eq!(typed.0, 1);
    assert_eq!(
        typed.1,
        ["text ends in what looks like a jump\n`?7` is printed, not a jump"]
    );
    let warning = typed.1;
    // A line added after another: both.
    let end = "101. \"line 101".len() as u32;
    assert_eq!(
        edit(3, [100, end, 100, end], "\n20000. ^"),
        (2, warning.clone())
    );
    // A line taken away: the one that takes its place.
    assert_eq!(edit(4, [200, 0, 201, 0], ""), (1, warning.clone()));
    // A label that jumps out of place: its line still, though the
    // check's passes find the duplicate far away.
    let (parsed, messages) = edit(5, [9_000, 0, 9_000, 4], "7");
    assert_eq!(parsed, 1);
    assert_eq!(
        messages[1..],
        ["label 7 is defined twice\ndefined again here"]
    );
}
