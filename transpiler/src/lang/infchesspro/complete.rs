//! InfChessPro completions: after `?` or `!` the labels of the program's
//! lines, where a command starts the names placed so far.

use super::syntax::comment_start;
use crate::complete::{after, line_before, Completion, CompletionKind};
use crate::source::Source;

/// What may be written at `offset` of `source` (which need not parse).
pub fn completions(source: &Source, offset: usize) -> Vec<Completion> {
    let before = line_before(source.text(), offset);
    let lines = numbered_lines(source);
    if after(before, "?") || after(before, "!") {
        return (lines.iter())
            .map(|(label, command)| {
                Completion::new(
                    label.to_string(),
                    CompletionKind::Label,
                    format!("{label}. {command}"),
                )
                .documented(format!("Jumps to the line labelled {label}: `{command}`."))
            })
            .collect();
    }
    // At the command: a label, its dot, and a word being typed.
    let at_command = before.split_once('.').is_some_and(|(label, rest)| {
        label.trim().bytes().all(|b| b.is_ascii_digit())
            && !label.trim().is_empty()
            && rest
                .trim_start()
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_')
    });
    if !at_command {
        return Vec::new();
    }
    let mut names: Vec<&str> = (lines.iter())
        .filter_map(|(_, command)| command.split_once('=').map(|(name, _)| name.trim()))
        .filter(|name| {
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        })
        .collect();
    names.sort_unstable();
    names.dedup();
    (names.into_iter())
        .map(|name| {
            Completion::new(name, CompletionKind::Piece, "a piece name")
                .documented(format!("The pieces placed as `{name}=T…`: move one with `{name},r,c` or `{name};dr,dc`, count them with `%{name}`."))
        })
        .collect()
}

/// Each numbered line's label and command (read leniently: a program
/// being typed need not parse).
fn numbered_lines(source: &Source) -> Vec<(i64, &str)> {
    (source.lines())
        .filter(|(_, text)| comment_start(text).is_none())
        .filter_map(|(_, text)| {
            let (label, command) = text.split_once('.')?;
            Some((label.trim().parse().ok()?, command.trim()))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    fn texts(text: &str, offset: usize) -> Vec<String> {
        crate::complete::completed_for_test(text, crate::Language::InfChessPro, offset)
    }

    #[test]
    fn labels_after_a_jump_and_names_at_a_command() {
        let text = "1. a=K0,0\n# 7. not a line\n5. b = k1,1\n3. a;1,0?\n4. \n";
        let jump = text.find('?').unwrap() + 1;
        assert_eq!(texts(text, jump), ["1", "5", "3", "4"]);
        let command = text.len() - 1;
        assert_eq!(texts(text, command), ["a", "b"]);
        // Inside a number, nothing.
        assert!(texts(text, 7).is_empty());
    }
}
