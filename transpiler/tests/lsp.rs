//! `chess2rs lsp` driven over stdio with JSON-RPC, as an editor drives
//! it: for each language, open a program with an error and get its
//! diagnostic at the right range, fix it and get no errors, hover, go to a
//! definition, then shut down and exit with 0.

#[path = "support/lsp_frames.rs"]
mod lsp_frames;

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::Duration;

use serde_json::{json, Value};

/// A running server and the messages it sent.
struct Client {
    child: Child,
    stdin: ChildStdin,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let (child, stdin, messages) = lsp_frames::start(
            Command::new(env!("CARGO_BIN_EXE_chess2rs")).arg("lsp"),
            Stdio::inherit(),
        );
        let mut client = Client {
            child,
            stdin,
            messages,
            next_id: 1,
        };
        let capabilities = client.request("initialize", json!({ "capabilities": {} }));
        assert!(capabilities["capabilities"]["hoverProvider"] == json!(true));
        assert_eq!(capabilities["serverInfo"]["name"], "chess2rs");
        client.notify("initialized", json!({}));
        client
    }

    fn send(&mut self, message: Value) {
        self.stdin.write_all(&lsp_frames::frame(&message)).unwrap();
        self.stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(lsp_frames::notification(method, params));
    }

    /// Sends a request and waits for its response's result.
    fn request(&mut self, method: &str, params: Value) -> Value {
        lsp_frames::result(self.response(method, params))
    }

    /// Sends a request and waits for its response.
    fn response(&mut self, method: &str, params: Value) -> Value {
        let (id, request) = lsp_frames::request(&mut self.next_id, method, params);
        self.send(request);
        self.wait_for(|message| message["id"] == json!(id))
    }

    /// Sends a request the server must refuse as failed (-32803) and
    /// returns the refusal's message.
    fn refused(&mut self, method: &str, params: Value) -> String {
        let response = self.response(method, params);
        assert_eq!(response["error"]["code"], -32803, "{response}");
        response["error"]["message"].as_str().unwrap().to_string()
    }

    /// The next message `wanted` accepts (others are skipped).
    fn wait_for(&mut self, wanted: impl Fn(&Value) -> bool) -> Value {
        loop {
            let message = self
                .messages
                .recv_timeout(Duration::from_secs(20))
                .expect("the server answers within 20 s");
            if wanted(&message) {
                return message;
            }
        }
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let message = self.wait_for(|message| {
            message["method"] == "textDocument/publishDiagnostics"
                && message["params"]["uri"] == uri
        });
        message["params"]["diagnostics"].as_array().unwrap().clone()
    }

    fn shutdown(mut self) {
        let result = self.request("shutdown", Value::Null);
        assert!(result.is_null());
        self.notify("exit", Value::Null);
        let status = self.child.wait().unwrap();
        assert_eq!(status.code(), Some(0));
    }
}

fn position(line: u32, character: u32) -> Value {
    json!({ "line": line, "character": character })
}

fn at(uri: &str, line: u32, character: u32) -> Value {
    json!({ "textDocument": { "uri": uri }, "position": position(line, character) })
}

/// One language's session.
struct Case {
    uri: &'static str,
    /// A program with one error, and where (0-based line, character).
    broken: &'static str,
    error_at: (u32, u32),
    fixed: String,
    /// A position in `fixed` whose hover says something, and words in it.
    hover_at: (u32, u32),
    hover_says: &'static str,
    /// A use and the line of its definition, if the language has any.
    definition: Option<((u32, u32), u32)>,
}

const FINVARA_TURNS: &str = "(k):
(p 4): (1,0)

+--+--+
|kB|  |
+--+--+
|pW|kW|
+--+--+

Turn 1 W: p a1 -> b1
Turn 1 B: k b1 -> b1
Turn 2 W: p a1 checks turn 1
";

/// Two rules: (state 0, read 0 -> 3, write 1, move 0) and (3, 0 -> 0, 1,
/// 1); rule 1's next state leads to rule 2.
const TWO_RULES: &str = "10!\n10!\n111!\n11!\n10!\n111!\n10!\n10!\n11!\n11!\n";

/// The game `chess2rs synth` writes for [`TWO_RULES`], and where its
/// moves that start a rule part are (0-based line, character).
fn synthesised_game() -> (String, Vec<(u32, u32)>) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("lsp");
    std::fs::create_dir_all(&dir).unwrap();
    let machine = dir.join("two.btm");
    std::fs::write(&machine, TWO_RULES).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_chess2rs"))
        .args(["synth", "-q", "--design", "corner"])
        .arg(&machine)
        .output()
        .unwrap();
    assert!(output.status.success());
    let game = String::from_utf8(output.stdout).unwrap();
    let mut starts = Vec::new();
    for (line, text) in game.lines().enumerate() {
        let mut column = 0;
        for word in text.split(' ') {
            if word.ends_with('!') && !word.ends_with("!!") {
                starts.push((line as u32, column as u32));
            }
            column += word.len() + 1;
        }
    }
    (game, starts)
}

fn cases() -> Vec<Case> {
    let (game, game_parts) = synthesised_game();
    vec![
        Case {
            uri: "file:///w/jump.icp",
            broken: "1. a=K0,0\n2. a;0,1?1!9\n3. \"done\n",
            error_at: (1, 10),
            fixed: "1. a=K0,0\n2. a;0,1?1!3\n3. \"done\n".into(),
            hover_at: (1, 4),
            hover_says: "Moves a piece called `a` by 0 rows and 1 columns",
            definition: Some(((1, 9), 0)),
        },
        Case {
            uri: "file:///w/loop.chc",
            broken: "a1+\n  b1+\nb1=R+\nb1\n",
            error_at: (2, 0),
            fixed: "a1+\nRa1\n1/2 1/2\n  b1+\nb1=R+\nb1\n".into(),
            hover_at: (4, 1),
            hover_says: "loops back to the label on line 3",
            definition: Some(((4, 1), 2)),
        },
        Case {
            uri: "file:///w/turns.fv",
            broken: "(k):\n(p 4): (1,0)\n\n+--+--+\n|kB|  |\n+--+--+\n|pW|kW|\n+--+--+\n\nTurn 1 W: p a1 -> z1\n",
            error_at: (9, 18),
            fixed: FINVARA_TURNS.into(),
            hover_at: (9, 12),
            hover_says: "Moves a `p` from `a1`",
            definition: Some(((11, 27), 9)),
        },
        Case {
            uri: "file:///w/game.pgn",
            broken: "1. e4 e5 2. Nf3 Nc6 3. Qh9 a6\n",
            error_at: (0, 23),
            hover_at: game_parts[2],
            hover_says: "rule part 3: the next state of rule 1, value 3",
            // Rule 1's next state (3) is the state of rule 2.
            definition: Some((game_parts[2], game_parts[5].0)),
            fixed: game,
        },
        Case {
            uri: "file:///w/machine.btm",
            broken: "100!\n12x!\n",
            error_at: (1, 1),
            fixed: TWO_RULES.into(),
            hover_at: (2, 1),
            hover_says: "rule part 3: the next state of rule 1, value 3",
            definition: Some(((2, 1), 5)),
        },
    ]
}

#[test]
fn every_language_over_stdio() {
    for case in cases() {
        let mut client = Client::start();
        let uri = case.uri;
        client.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": case.broken } }),
        );
        let diagnostics = client.diagnostics(uri);
        let error = diagnostics
            .iter()
            .find(|d| d["severity"] == 1)
            .unwrap_or_else(|| panic!("{uri}: no error in {diagnostics:?}"));
        assert_eq!(
            error["range"]["start"],
            position(case.error_at.0, case.error_at.1),
            "{uri}: {error}"
        );
        assert_eq!(error["source"], "chess2rs");
        // Its code, and where the code is explained.
        let code = error["code"].as_str().unwrap_or_default();
        assert!(code.starts_with("E0") && code.len() == 5, "{uri}: {error}");
        assert!(
            error["codeDescription"]["href"].as_str().is_some_and(
                |href| href.ends_with(&format!("diagnostics.md#{}", code.to_lowercase()))
            ),
            "{uri}: {error}"
        );
        // The fix: no errors once the change is checked.
        client.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": 2 }, "contentChanges": [ { "text": case.fixed } ] }),
        );
        let diagnostics = client.diagnostics(uri);
        assert!(
            diagnostics.iter().all(|d| d["severity"] != 1),
            "{uri}: {diagnostics:?}"
        );
        let hover = client.request(
            "textDocument/hover",
            at(uri, case.hover_at.0, case.hover_at.1),
        );
        let text = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(text.contains(case.hover_says), "{uri}: {hover}");
        if let Some(((line, character), target)) = case.definition {
            let definition = client.request("textDocument/definition", at(uri, line, character));
            assert_eq!(definition["uri"], uri, "{definition}");
            assert_eq!(
                definition["range"]["start"]["line"], target,
                "{uri}: {definition}"
            );
        }
        let symbols = client.request(
            "textDocument/documentSymbol",
            json!({ "textDocument": { "uri": uri } }),
        );
        assert!(!symbols.as_array().unwrap().is_empty(), "{uri}: {symbols}");
        let tokens = client.request(
            "textDocument/semanticTokens/full",
            json!({ "textDocument": { "uri": uri } }),
        );
        let data = tokens["data"].as_array().unwrap();
        assert!(
            !data.is_empty() && data.len().is_multiple_of(5),
            "{uri}: {tokens}"
        );
        client.shutdown();
    }
}

#[test]
fn references_hovers_and_closing() {
    let mut client = Client::start();
    let uri = "file:///w/refs.icp";
    let text = "1. ^\n2. \"again?1\n3. ^?1\n";
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "icp", "version": 1, "text": text } }),
    );
    // `check`'s warning, its label in the message and its help as related
    // information.
    let diagnostics = client.diagnostics(uri);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let warning = &diagnostics[0];
    assert_eq!(warning["severity"], 2);
    assert_eq!(warning["code"], "W0150");
    assert_eq!(
        warning["codeDescription"]["href"],
        "https://github.com/chess2rs/chess2rs/blob/main/docs/diagnostics.md#w0150"
    );
    assert_eq!(warning["range"]["start"], position(1, 9));
    assert!(warning["message"]
        .as_str()
        .unwrap()
        .starts_with("text ends in what looks like a jump"));
    let help = warning["relatedInformation"][0]["message"]
        .as_str()
        .unwrap();
    assert!(
        help.starts_with("help: a text line takes no jumps"),
        "{help}"
    );
    let references = client.request(
        "textDocument/references",
        json!({ "textDocument": { "uri": uri }, "position": position(0, 0), "context": { "includeDeclaration": true } }),
    );
    let lines: Vec<u64> = references
        .as_array()
        .unwrap()
        .iter()
        .map(|location| location["range"]["start"]["line"].as_u64().unwrap())
        .collect();
    // The label, and the one jump to it (line 2 prints `again?1`).
    assert_eq!(lines, [0, 2]);
    // Nothing to say past the end of the text.
    let hover = client.request("textDocument/hover", at(uri, 40, 0));
    assert!(hover.is_null(), "{hover}");
    // A document of an unknown language is left alone; an unknown method
    // is an error, not a crash.
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": "file:///w/notes.txt", "languageId": "plaintext", "version": 1, "text": "hi" } }),
    );
    let id = 99;
    client.send(json!({ "jsonrpc": "2.0", "id": id, "method": "workspace/symbol", "params": { "query": "" } }));
    let response = client.wait_for(|m| m["id"] == json!(id));
    assert_eq!(response["error"]["code"], -32601);
    // Closing clears the document's diagnostics.
    client.notify(
        "textDocument/didClose",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert!(client.diagnostics(uri).is_empty());
    client.shutdown();
}

/// `edits` (LSP `TextEdit`s in UTF-16 positions) applied to `text`.
fn applied(text: &str, edits: &Value) -> String {
    let offset = |position: &Value| {
        let line = position["line"].as_u64().unwrap() as usize;
        let character = position["character"].as_u64().unwrap() as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        let rest = &text[start.min(text.len())..];
        let line_text = rest.split('\n').next().unwrap_or_default();
        let bytes: usize = (line_text.chars())
            .scan(0, |units, c| {
                *units += c.len_utf16();
                Some((*units, c.len_utf8()))
            })
            .take_while(|(units, _)| *units <= character)
            .map(|(_, len)| len)
            .sum();
        start.min(text.len()) + bytes
    };
    let mut edits: Vec<&Value> = edits.as_array().unwrap().iter().collect();
    edits.sort_by_key(|edit| std::cmp::Reverse(offset(&edit["range"]["start"])));
    let mut text = text.to_string();
    for edit in edits {
        let (start, end) = (
            offset(&edit["range"]["start"]),
            offset(&edit["range"]["end"]),
        );
        let new_text = edit["newText"].as_str().unwrap();
        text.replace_range(start..end, new_text);
    }
    text
}

/// `textDocument/formatting` for every language: the edits leave the
/// document as `chess2rs fmt` writes it, touch only the lines it changes,
/// and a document that does not parse is refused with the protocol's
/// "request failed" and its first error.
#[test]
fn formatting_over_stdio() {
    let mut client = Client::start();
    let documents = [
        ("file:///w/f.icp", "# kept\n1.  a = K0 , 0 ?2\n\n\n2. %a\n"),
        ("file:///w/f.chc", "a1#\n1/2 1/2\na1+ | x\n   a1=R+\n"),
        (
            "file:///w/f.fv",
            "(k):\n(q 1):{ (1,0)* }\n|kW|qB|\n|  |\nTurn 1 W: k a1->a2\n",
        ),
        ("file:///w/f.pgn", "[Event \"é\"]\n1.e4   e5! 2. Nf3\n"),
        ("file:///w/f.btm", "  10!\n# c\n11001000? \n"),
    ];
    for (uri, text) in documents {
        let language = chess2rs::Language::from_extension(uri.rsplit('.').next().unwrap()).unwrap();
        client.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text } }),
        );
        let edits = client.request(
            "textDocument/formatting",
            json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } }),
        );
        let expected = chess2rs::format(
            &chess2rs::Source::new("t", text),
            language,
            &chess2rs::FormatOptions::default(),
        )
        .unwrap()
        .text;
        assert_ne!(expected, text, "{uri}: the case must need formatting");
        assert_eq!(applied(text, &edits), expected, "{uri}: {edits}");
    }
    // The first line of the InfChessPro document is left alone.
    let edits = client.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": "file:///w/f.icp" }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert!(edits
        .as_array()
        .unwrap()
        .iter()
        .all(|edit| edit["range"]["start"]["line"] != 0));
    let uri = "file:///w/bad.chc";
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": "a1+\nnot one\n" } }),
    );
    let message = client.refused(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": { "tabSize": 4, "insertSpaces": true } }),
    );
    assert!(
        message.starts_with(
            "the document does not parse: line 2, column 1: `not one` is not a Chess Code command"
        ),
        "{message}"
    );
    client.shutdown();
}

/// `textDocument/prepareRename` and `textDocument/rename`: an InfChessPro
/// label with its jumps and a Finvara symbol everywhere it is written;
/// refused where there is no name, and for a name already taken.
#[test]
fn renaming_over_stdio() {
    let mut client = Client::start();
    let icp = "file:///w/r.icp";
    let text = "1. a=K0,0?2\n2. a;1,0!1\n";
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": icp, "languageId": "", "version": 1, "text": text } }),
    );
    let range = client.request("textDocument/prepareRename", at(icp, 1, 10));
    assert_eq!(
        range,
        json!({ "start": position(1, 9), "end": position(1, 10) })
    );
    let mut rename = at(icp, 1, 10);
    rename["newName"] = json!("100");
    let edit = client.request("textDocument/rename", rename);
    assert_eq!(
        applied(text, &edit["changes"][icp]),
        "100. a=K0,0?2\n2. a;1,0!100\n"
    );
    // Text is no name: nothing to prepare, and a rename is refused.
    let fv = "file:///w/r.fv";
    let text = "(k):\n(q 1): (1,0)\n|kW|qB|\nTurn 1 W: k a1 -> b1\n";
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": fv, "languageId": "", "version": 1, "text": text } }),
    );
    assert!(client
        .request("textDocument/prepareRename", at(fv, 3, 0))
        .is_null());
    for (line, character, new_name, refusal) in [
        (3, 0, "x", "there is no name to rename here"),
        (1, 1, "k", "`k` is taken"),
    ] {
        let mut rename = at(fv, line, character);
        rename["newName"] = json!(new_name);
        let message = client.refused("textDocument/rename", rename);
        assert!(message.starts_with(refusal), "{message}");
    }
    // Chess Code has no names: a rename on a loop label says why.
    let chc = "file:///w/r.chc";
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": chc, "languageId": "", "version": 1, "text": "1/2 1/2\na1=R+\n" } }),
    );
    let mut rename = at(chc, 0, 1);
    rename["newName"] = json!("x");
    let message = client.refused("textDocument/rename", rename);
    assert!(
        message.contains("Chess Code has no names to rename"),
        "{message}"
    );
    let mut rename = at(fv, 2, 4);
    rename["newName"] = json!("queen");
    let edit = client.request("textDocument/rename", rename);
    assert_eq!(
        applied(text, &edit["changes"][fv]),
        "(k):\n(queen 1): (1,0)\n|kW|queenB|\nTurn 1 W: k a1 -> b1\n"
    );
    client.shutdown();
}

/// `textDocument/codeAction`: every diagnostic whose help says "did you
/// mean" (or names another certain fix) comes with a quick fix, and the
/// document it leaves no longer has that diagnostic.
#[test]
fn quick_fixes_over_stdio() {
    let mut client = Client::start();
    let cases = [
        (
            "icp",
            "1. n=K0,0\n2. m;0,-1\n",
            "no piece called `m` is ever placed",
            "1. n=K0,0\n2. n;0,-1\n",
        ),
        (
            "icp",
            "1. \"hi?1\n",
            "text ends in what looks like a jump",
            "1. \"hi\n2. ^?1\n",
        ),
        ("chc", "A1+\n", "`A1+` is not a Chess Code command", "a1+\n"),
        (
            "chc",
            "a3#\na3xK+\n",
            "`a3xK+` is not a Chess Code command",
            "a3#\nKxa3+\n",
        ),
        (
            "chc",
            "# hi\n",
            "`#` does not start a comment in Chess Code",
            "| hi\n",
        ),
        (
            "fv",
            "(k):\n(Q 1): (1,0)\n|kW|qB|kB|\n",
            "no piece `q` is defined",
            "(k):\n(Q 1): (1,0)\n|kW|QB|kB|\n",
        ),
    ];
    for (index, (extension, text, message, fixed)) in cases.into_iter().enumerate() {
        let uri = format!("file:///w/fix{index}.{extension}");
        client.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text } }),
        );
        let diagnostics = client.diagnostics(&uri);
        let diagnostic = diagnostics
            .iter()
            .find(|d| d["message"].as_str().unwrap().starts_with(message))
            .unwrap_or_else(|| panic!("{uri}: no `{message}` in {diagnostics:?}"));
        let actions = client.request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri },
                "range": diagnostic["range"],
                "context": { "diagnostics": [diagnostic] },
            }),
        );
        let action = &actions[0];
        assert_eq!(action["kind"], "quickfix", "{uri}: {actions}");
        let edited = applied(text, &action["edit"]["changes"][uri.as_str()]);
        assert_eq!(edited, fixed, "{uri}");
        let again = format!("file:///w/fixed{index}.{extension}");
        client.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": again, "languageId": "", "version": 1, "text": edited } }),
        );
        let after = client.diagnostics(&again);
        assert!(
            after
                .iter()
                .all(|d| !d["message"].as_str().unwrap().starts_with(message)),
            "{again}: {after:?}"
        );
    }
    client.shutdown();
}

/// `textDocument/completion`: the labels of the program after a jump
/// being typed (the document does not parse yet), with the line each
/// names; piece symbols in a Finvara move line.
#[test]
fn completion_over_stdio() {
    let mut client = Client::start();
    let uri = "file:///w/c.icp";
    let text = "1. a=K0,0\n2. \"hi\n3. a;1,0?\n";
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": uri, "languageId": "", "version": 1, "text": text } }),
    );
    let items = client.request("textDocument/completion", at(uri, 2, 9));
    let labels: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(labels, ["1", "2", "3"]);
    assert_eq!(items[1]["detail"], "2. \"hi");
    assert!(items[1]["documentation"]["value"]
        .as_str()
        .unwrap()
        .contains("Jumps to the line labelled 2"));
    let fv = "file:///w/c.fv";
    let text = "(k):\n(q 1): (1,0)*\n|kW|qB|\nTurn 1 W: \n";
    client.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": fv, "languageId": "", "version": 1, "text": text } }),
    );
    let items = client.request("textDocument/completion", at(fv, 3, 10));
    let symbols: Vec<&str> = items
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["label"].as_str().unwrap())
        .collect();
    assert_eq!(symbols, ["k", "q"]);
    assert_eq!(items[1]["detail"], "(q 1): (1,0)*");
    client.shutdown();
}
