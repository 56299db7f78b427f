//! Documents for measuring the language server, one per language, each
//! with work for every stage (labels and jumps, loops, moves, annotated
//! boards), of any size: `benches/lsp_recheck.rs` re-checks 10,000-line
//! ones, `tests/lsp_limits.rs` 10 MB ones.

/// A document of `extension`'s language (`icp`, `chc`, `fv`, `pgn` or
/// `btm`) of at least `lines` lines and `bytes` bytes; `None` for another
/// extension.
pub fn document(extension: &str, lines: usize, bytes: usize) -> Option<String> {
    let (mut text, mut unit): (String, Box<dyn FnMut(usize) -> String>) = match extension {
        "icp" => (
            String::new(),
            Box::new(|n| {
                let n = n + 1;
                match n % 4 {
                    0 => format!("{n}. p{n}=P{n},0\n"),
                    1 => format!("{n}. p;1,0?{}!{}\n", n + 1, n + 2),
                    2 => format!("{n}. \"line {n}\n"),
                    _ => format!("{n}. %p\n"),
                }
            }),
        ),
        // Loops of five lines.
        "chc" => (
            String::new(),
            Box::new(|n| {
                let file = n % 8 + 1;
                format!("a1+\n1/2 1/2\n  b{file}+\nb{file}=R+\nb{file}\n")
            }),
        ),
        // A board with riders, then two move lines a turn.
        "fv" => (
            "(k):\n(p 4): (1,0)\n(q 1): {(1,0)*,(1,1)*}\n\n+--+--+--+\n|kB|  |qB|\n+--+--+--+\n|  |  |  |\n+--+--+--+\n|pW|qW|kW|\n+--+--+--+\n\n".to_string(),
            Box::new(|n| {
                let turn = n + 1;
                format!("Turn {turn} W: p a1 -> b1\nTurn {turn} B: q c3 -> b3\n")
            }),
        ),
        // One game, a move in ten annotated.
        "pgn" => (
            String::new(),
            Box::new(|n| {
                let n = n + 1;
                if n % 10 == 1 {
                    format!("{n}. Nf3! Nf6\n")
                } else if n % 2 == 1 {
                    format!("{n}. Nf3 Nf6\n")
                } else {
                    format!("{n}. Ng1 Ng8\n")
                }
            }),
        ),
        "btm" => (
            String::new(),
            Box::new(|n| format!("1{:b}{}\n", n % 64, if n % 7 == 0 { "?" } else { "!" })),
        ),
        _ => return None,
    };
    let (mut count, mut n) = (text.lines().count(), 0);
    while count < lines || text.len() < bytes {
        let more = unit(n);
        count += more.lines().count();
        text.push_str(&more);
        n += 1;
    }
    Some(text)
}

/// Someone typing at the end of a document's line (its middle line,
/// unless told): its last character typed again, then taken away, over
/// and over.
pub struct Typing {
    /// The line (0-based), where it ends (in UTF-16 units and in bytes of
    /// the text), and the character typed.
    line: usize,
    column: usize,
    at: usize,
    typed: char,
}

impl Typing {
    /// Typing in `text`.
    pub fn new(text: &str) -> Typing {
        Typing::on_line(text, text.lines().count() / 2)
    }

    /// Typing at the end of line `line` (0-based) of `text`.
    pub fn on_line(text: &str, line: usize) -> Typing {
        let lines: Vec<&str> = text.lines().collect();
        let middle = lines.get(line).copied().unwrap_or_default();
        let start: usize = lines[..line].iter().map(|l| l.len() + 1).sum();
        Typing {
            line,
            column: middle.encode_utf16().count(),
            at: start + middle.len(),
            typed: middle.chars().last().unwrap_or('x'),
        }
    }

    /// The content change of keystroke `n` (from 0) of typing in `text`
    /// (the text before the first): an edit of a range, or with `whole`
    /// the whole text after it.
    pub fn change(&self, n: usize, text: &str, whole: bool) -> serde_json::Value {
        let adding = n.is_multiple_of(2);
        if whole {
            let mut edited = text.to_string();
            if adding {
                edited.insert(self.at, self.typed);
            }
            return serde_json::json!({ "text": edited });
        }
        let end = self.column + if adding { 0 } else { self.typed.len_utf16() };
        let inserted = if adding {
            self.typed.to_string()
        } else {
            String::new()
        };
        serde_json::json!({
            "range": {
                "start": { "line": self.line, "character": self.column },
                "end": { "line": self.line, "character": end },
            },
            "text": inserted,
        })
    }
}
