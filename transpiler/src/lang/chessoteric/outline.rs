//! Chessoteric games and BTM listings for editors: each annotated move (or
//! BTM line) as a symbol, with what its bits say — the rule part or tape
//! symbol it writes, and for a game the board it read them from — and
//! tokens for moves, annotations, tags and comments.

use super::lower::{group, Group, GroupKind, Grouped, Instruction};
use super::syntax::Annotation;
use crate::outline::{Outline, Symbol, SymbolKind, TokenKind};
use crate::source::{Source, Span};

/// The five parts of a rule, in the order they are written.
const RULE_PARTS: [&str; 5] = [
    "state",
    "read symbol",
    "next state",
    "symbol written",
    "move",
];

/// The outline of a game (`btm` false) or a BTM listing, from its
/// `instructions` (`None` if it does not play: comments, tags and moves
/// only).
pub fn outline(instructions: Option<&[Instruction]>, source: &Source, btm: bool) -> Outline {
    let mut outline = Outline::default();
    lexical_tokens(source, btm, &mut outline);
    let Some(instructions) = instructions else {
        return outline.finish();
    };
    // Each instruction's part or symbol, with the whole value it adds up
    // to (a start and its continuations).
    let Grouped { groups, group_of } = group(instructions);
    link_next_states(&groups, &mut outline);
    let rules = decoded_rules(&groups);
    for (instruction, index) in instructions.iter().zip(group_of) {
        let what = groups.get(index).map(
            |Group {
                 kind, number, bits, ..
             }| {
                let value = i64::from_str_radix(bits, 2)
                    .map_or_else(|_| "too large".to_string(), |v| v.to_string());
                match kind {
                    GroupKind::Part if *number > 0 => format!(
                        "rule part {number}: the {} of rule {}, value {value} (bits {bits}){}",
                        RULE_PARTS[(number - 1) % 5],
                        (number - 1) / 5 + 1,
                        rules
                            .get((number - 1) / 5)
                            .map_or(String::new(), |rule| format!(
                                ".\n\nRule {}: {rule}",
                                (number - 1) / 5 + 1
                            ))
                    ),
                    GroupKind::Symbol if *number > 0 => {
                        format!("tape symbol {number}: value {value} (bits {bits})")
                    }
                    _ => format!("a continuation before any start: value {value}"),
                }
            },
        );
        let name = match &instruction.snapshot {
            Some(snapshot) => format!(
                "{}{} {}{}",
                snapshot.number,
                if snapshot.white { "." } else { "..." },
                snapshot.san,
                instruction.annotation.suffix()
            ),
            None => instruction.btm(),
        };
        outline.symbols.push(Symbol {
            name: name.clone(),
            detail: what.clone().unwrap_or_default(),
            kind: SymbolKind::Instruction,
            span: instruction.span.clone(),
            name_span: instruction.span.clone(),
        });
        outline.hover(instruction.span.clone(), describe(instruction, &name, what));
    }
    outline.finish()
}

/// Each complete rule (five parts) in words: `in state 0 reading 1: write
/// 0, move right, go to state 2`.
fn decoded_rules(groups: &[Group]) -> Vec<String> {
    let values: Vec<Option<i64>> = groups
        .iter()
        .filter(|group| group.kind == GroupKind::Part && group.number > 0)
        .map(|group| i64::from_str_radix(&group.bits, 2).ok())
        .collect();
    values
        .chunks_exact(5)
        .map(|rule| match rule {
            [Some(state), Some(read), Some(next), Some(write), Some(direction)] => format!(
                "in state {state} reading {read}: write {write}, move {}, go to state {next}",
                if direction % 2 == 0 { "right" } else { "left" }
            ),
            _ => "a part is too large to read".to_string(),
        })
        .collect()
}

/// Links each rule's next-state part to the state part of the first rule
/// for that state: the machine's jumps.
fn link_next_states(groups: &[Group], outline: &mut Outline) {
    let parts: Vec<&Group> = groups
        .iter()
        .filter(|group| group.kind == GroupKind::Part && group.number > 0)
        .collect();
    let value = |group: &Group| i64::from_str_radix(&group.bits, 2).ok();
    let rules: Vec<&[&Group]> = parts.chunks_exact(5).collect();
    let mut first_rule_of: std::collections::HashMap<i64, &Span> = Default::default();
    for rule in &rules {
        if let Some(state) = value(rule[0]) {
            first_rule_of.entry(state).or_insert(&rule[0].start);
        }
    }
    for rule in &rules {
        if let Some(target) = value(rule[2]).and_then(|next| first_rule_of.get(&next)) {
            outline.link(rule[2].start.clone(), (*target).clone());
        }
    }
}

/// What an annotated move or BTM line does, in Markdown.
fn describe(instruction: &Instruction, name: &str, what: Option<String>) -> String {
    let action = match instruction.annotation {
        Annotation::StartPart => "starts a new rule part",
        Annotation::ContinuePart => "appends its bits to the current rule part",
        Annotation::StartSymbol => "starts a new tape symbol",
        Annotation::ContinueSymbol => "appends its bits to the current tape symbol",
    };
    let mut text = format!("**`{name}`** {action}: bits `{}`", instruction.bits);
    if let Some(snapshot) = &instruction.snapshot {
        text.push_str(&format!(
            " — read from the board after the move, one bit per piece from a1 to h8 (1 white, 0 black): `{}`, the value after the marker",
            snapshot.board_bits
        ));
    }
    if let Some(what) = what {
        text.push_str(&format!("\n\nTogether: {what}."));
    }
    text
}

/// Tokens that need no game: comments, tags, annotations, bits.
fn lexical_tokens(source: &Source, btm: bool, outline: &mut Outline) {
    if btm {
        for (start, line) in source.lines() {
            let code_end = line.find(super::syntax::BTM_COMMENT).unwrap_or(line.len());
            if code_end < line.len() {
                outline.token(start + code_end..start + line.len(), TokenKind::Comment);
            }
            let code = line[..code_end].trim_end();
            let bits_end = code.trim_end_matches(['!', '?']).len();
            let lead = code.len() - code.trim_start().len();
            outline.token(start + lead..start + bits_end, TokenKind::Number);
            outline.token(start + bits_end..start + code.len(), TokenKind::Operator);
        }
        return;
    }
    let text = source.text();
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let rest = &text[at..];
        let end = match bytes[at] {
            b'{' => rest.find('}').map_or(text.len(), |close| at + close + 1),
            b';' => rest.find('\n').map_or(text.len(), |newline| at + newline),
            b'[' => rest.find(']').map_or(text.len(), |close| at + close + 1),
            b'!' | b'?' => at + rest.len() - rest.trim_start_matches(['!', '?']).len(),
            _ => {
                at += rest.chars().next().map_or(1, char::len_utf8);
                continue;
            }
        };
        let kind = match bytes[at] {
            b'{' | b';' => TokenKind::Comment,
            b'[' => TokenKind::String,
            _ => TokenKind::Operator,
        };
        outline.token(at..end, kind);
        at = end;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::FrontEnd as _;

    #[test]
    fn btm_lines_say_what_they_write() {
        let text = "100!\n101! # one\n110!\n100!\n100!\n11001000?\n";
        let outline = super::super::BtmStages::parse_and_outline(&Source::new("t.btm", text));
        assert_eq!(outline.symbols.len(), 6);
        assert_eq!(outline.symbols[0].span.start, 0);
        let hover = &outline.hover_at(text.find("110!").unwrap()).unwrap().text;
        assert!(
            hover.contains("rule part 3: the next state of rule 1, value 2"),
            "{hover}"
        );
        let hover = &outline
            .hover_at(text.find("11001000?").unwrap())
            .unwrap()
            .text;
        assert!(hover.contains("tape symbol 1: value 72"), "{hover}");
        assert!(outline.tokens.iter().any(|t| t.kind == TokenKind::Comment));
    }

    #[test]
    fn a_rules_next_state_leads_to_the_rule_for_that_state() {
        // Rule 1: state 0, read 0, next 3, write 1, move 0; rule 2: state
        // 3, read 0, next 0, write 1, move 1.
        let text = "10!\n10!\n111!\n11!\n10!\n111!\n10!\n10!\n11!\n11!\n";
        let outline = super::super::BtmStages::parse_and_outline(&Source::new("t.btm", text));
        let next_of_rule_1 = text.find("111!").unwrap();
        let state_of_rule_2 = text.rfind("111!").unwrap();
        assert_eq!(
            outline.definition_at(next_of_rule_1).map(|span| span.start),
            Some(state_of_rule_2)
        );
        // Rule 2 goes back to state 0, rule 1's state part.
        let next_of_rule_2 = text.match_indices("10!").nth(4).unwrap().0;
        assert_eq!(
            outline.definition_at(next_of_rule_2).map(|span| span.start),
            Some(0)
        );
    }

    #[test]
    fn a_games_annotated_moves_show_their_board_bits() {
        let game = include_str!("../../../../examples/chessoteric-hello.pgn");
        let outline = super::super::Stages::parse_and_outline(&Source::new("hello.pgn", game));
        assert!(!outline.symbols.is_empty());
        let first = &outline.symbols[0];
        let hover = &outline.hover_at(first.span.start).unwrap().text;
        assert!(
            hover.contains("read from the board after the move"),
            "{hover}"
        );
        assert!(hover.contains("rule part 1"), "{hover}");
    }
}
