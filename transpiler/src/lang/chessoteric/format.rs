//! The canonical layouts of Chessoteric games and BTM listings
//! (`chess2rs fmt`).
//!
//! A game: its tag pairs one a line, a blank line, then the movetext
//! wrapped at [`WIDTH`] columns with every White move numbered (`12.`)
//! and a Black move numbered (`12...`) only where it does not follow
//! White's; moves, annotations, NAGs, comments and variations kept
//! exactly as written (an annotation written apart from its move is
//! joined to it). A move keeps the number and side the parser gave it,
//! so a game whose numbers are wrong is still wrong in the same way.
//!
//! A listing: one instruction a line, comments one blank after it.

use super::syntax::{self, Annotation, PgnLexer, PgnMove, PgnToken, BTM_COMMENT, RESULTS};
use crate::diag::Diagnostics;
use crate::format::{code_line, comment_of, FormatOptions, Formatted, Layout};
use crate::source::Source;

/// The columns a game's movetext is wrapped at (PGN's export format).
pub const WIDTH: usize = 80;

/// A BTM listing in its canonical layout.
pub fn format_btm(source: &Source, _: &FormatOptions) -> Result<Formatted, Diagnostics> {
    syntax::parse_btm(source)?;
    let mut layout = Layout::new(source);
    for (index, (_, raw)) in source.lines().enumerate() {
        let comment = comment_of(raw, BTM_COMMENT);
        match syntax::parse_btm_line(source, index) {
            Some(Ok(line)) => {
                let code = format!("1{}{}", line.bits.value, line.annotation.value.suffix());
                layout.line(&code_line(0, &code, comment));
            }
            // Not so: the listing parsed.
            Some(Err(_)) => layout.line(raw.trim()),
            None if comment.is_some() => layout.line(&code_line(0, "", comment)),
            None => layout.blank(),
        }
    }
    Ok(Formatted::new(layout.finish()))
}

/// A game in its canonical layout.
pub fn format_pgn(source: &Source, _: &FormatOptions) -> Result<Formatted, Diagnostics> {
    let game = syntax::parse_pgn(source)?;
    let text = source.text();
    let mut movetext = Movetext {
        layout: Layout::new(source),
        line: String::new(),
        tags_before: false,
    };
    let mut moves = game.moves.iter().peekable();
    // The White move a Black move may follow without its number.
    let mut white_before: Option<u32> = None;
    for (token, span) in PgnLexer::new(text) {
        let written = &text[span.clone()];
        match token {
            PgnToken::Tag => {
                movetext.end_line();
                movetext.layout.line(&tag(written));
                movetext.tags_before = true;
                white_before = None;
                continue;
            }
            PgnToken::Escape => {
                movetext.end_line();
                movetext.layout.line(written);
            }
            PgnToken::LineComment => {
                movetext.push(written);
                movetext.end_line();
            }
            PgnToken::Comment | PgnToken::Variation | PgnToken::Nag => movetext.push(written),
            PgnToken::Word if RESULTS.contains(&written) => movetext.push(written),
            // A move number, an annotation written apart (joined to its
            // move), or moves: those whose SAN starts in this word.
            PgnToken::Word => {
                while let Some(pgn_move) = moves.next_if(|m| span.contains(&m.san.span.start)) {
                    let number = match (pgn_move.white, white_before) {
                        (true, _) => format!("{}. ", pgn_move.number),
                        (false, Some(white)) if white == pgn_move.number => String::new(),
                        (false, _) => format!("{}... ", pgn_move.number),
                    };
                    movetext.push(&format!("{number}{}", written_move(pgn_move, text)));
                    white_before = pgn_move.white.then_some(pgn_move.number);
                }
                continue;
            }
        }
        // A NAG annotates the move before it: a Black move after it
        // still follows White's.
        if token != PgnToken::Nag {
            white_before = None;
        }
    }
    movetext.end_line();
    Ok(Formatted::new(movetext.layout.finish()))
}

/// A move as written, with its annotation if that is a suffix (a NAG is
/// a token of its own).
fn written_move(pgn_move: &PgnMove, text: &str) -> String {
    let suffix = pgn_move.annotation.as_ref().filter(|annotation| {
        !text
            .get(annotation.span.clone())
            .is_some_and(|written| written.starts_with('$'))
    });
    let suffix = suffix
        .map(|annotation| annotation.value)
        .map(Annotation::suffix);
    format!("{}{}", pgn_move.san.value, suffix.unwrap_or_default())
}

/// A tag pair with one blank between its name and its value.
fn tag(written: &str) -> String {
    let inner = written
        .strip_prefix('[')
        .and_then(|inner| inner.strip_suffix(']'))
        .unwrap_or(written)
        .trim();
    match inner.split_once(char::is_whitespace) {
        Some((name, value)) => format!("[{name} {}]", value.trim_start()),
        None => format!("[{inner}]"),
    }
}

/// Movetext being wrapped into lines.
struct Movetext {
    layout: Layout,
    /// The line being filled.
    line: String,
    /// Whether tag pairs came since the last movetext (a blank line goes
    /// between them).
    tags_before: bool,
}

impl Movetext {
    /// Adds a token, on a new line if the current one would pass
    /// [`WIDTH`] columns.
    fn push(&mut self, token: &str) {
        if self.tags_before {
            self.layout.blank();
            self.tags_before = false;
        }
        if !self.line.is_empty() {
            if self.line.chars().count() + 1 + first_line(token).chars().count() > WIDTH {
                self.end_line();
            } else {
                self.line.push(' ');
            }
        }
        // A comment or variation may span lines: all but its last are
        // written now.
        let mut lines = token.split('\n').peekable();
        while let Some(part) = lines.next() {
            self.line.push_str(part);
            if lines.peek().is_some() {
                self.layout.line(&std::mem::take(&mut self.line));
            }
        }
    }

    /// Ends the current line (if it has anything).
    fn end_line(&mut self) {
        if !self.line.is_empty() {
            self.layout.line(&std::mem::take(&mut self.line));
        }
    }
}

/// The part of `token` before its first line end, as it is written (a
/// line's trailing blanks are not).
fn first_line(token: &str) -> &str {
    token.split('\n').next().unwrap_or_default().trim_end()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pgn(text: &str) -> String {
        crate::format::formatted_for_test(text, crate::Language::Chessoteric)
    }

    fn btm(text: &str) -> String {
        crate::format::formatted_for_test(text, crate::Language::Btm)
    }

    #[test]
    fn moves_are_numbered_and_annotations_kept() {
        let text = "[Event   \"x y\"]\n[Site \"z\"]\n1.e4 e5 2. Nf3 ! {a\ncomment} Nc6 $3 3. Bb5 a6 (3... Nf6) 4. Ba4 1-0\n";
        assert_eq!(
            pgn(text),
            "[Event \"x y\"]\n[Site \"z\"]\n\n1. e4 e5 2. Nf3! {a\ncomment} 2... Nc6 $3 3. Bb5 a6 (3... Nf6) 4. Ba4 1-0\n"
        );
    }

    #[test]
    fn movetext_is_wrapped_and_line_comments_end_lines() {
        let mut text = String::new();
        for n in 1..=12 {
            text.push_str(&format!("{n}. Nf3 Nf6 ; move {n}\n{n}... Ng8 "));
            text = text.replace(&format!("{n}... Ng8 "), "");
        }
        let formatted = pgn(&text);
        assert!(formatted.lines().all(|line| line.len() <= WIDTH));
        assert!(formatted.starts_with("1. Nf3 Nf6 ; move 1\n2. Nf3 Nf6 ; move 2\n"));
        let long: String = (1..=30)
            .map(|n| format!("{}. Nf3 Ng8 ", n))
            .collect::<String>()
            .replace("Ng8", "Nf6");
        let wrapped = pgn(&long);
        assert!(wrapped.lines().count() > 1);
        assert!(wrapped.lines().all(|line| line.len() <= WIDTH));
        assert_eq!(pgn(&wrapped), wrapped);
    }

    #[test]
    fn wrong_numbers_stay_wrong() {
        // Black's first move is missing: formatting keeps it missing.
        assert_eq!(pgn("1. e4 2. Nf3\n"), "1. e4 2. Nf3\n");
        assert_eq!(pgn("1... e5 2. Nf3\n"), "1... e5 2. Nf3\n");
    }

    #[test]
    fn escapes_keep_their_own_lines() {
        assert_eq!(pgn("%escaped\n1. e4 *\n"), "%escaped\n1. e4 *\n");
    }

    #[test]
    fn listings_are_trimmed_and_comments_kept() {
        assert_eq!(
            btm("# hello\n  10!   #  rule\n\n\n\n11001000?\n"),
            "# hello\n10! #  rule\n\n11001000?\n"
        );
    }
}
