//! InfChessPro for editors: each line's label as a symbol, jumps linked to
//! the lines they name, tokens, and what each line does in words.

use std::collections::HashMap;

use chess2rs_runtime::__private::icp::{Colour, Kind, Piece};

use super::syntax::{self, Command, Line, Operand, Target};
use crate::outline::{Outline, Symbol, SymbolKind, TokenKind};
use crate::source::{Source, Spanned};

/// The outline of an InfChessPro program (empty if it does not parse).
pub fn outline(tree: Option<&syntax::Program>, source: &Source) -> Outline {
    let mut outline = Outline::default();
    for (start, line) in source.lines() {
        if let Some(hash) = syntax::comment_start(line) {
            outline.token(start + hash..start + line.len(), TokenKind::Comment);
        }
    }
    let Some(program) = tree else {
        return outline.finish();
    };
    let mut labels: HashMap<i64, &Line> = HashMap::new();
    for line in &program.lines {
        labels.entry(line.label.value).or_insert(line);
    }
    for line in &program.lines {
        outline.symbols.push(Symbol {
            name: format!("{}.", line.label.value),
            detail: line.text(source).to_string(),
            kind: SymbolKind::Label,
            span: line.span.clone(),
            name_span: line.label.span.clone(),
        });
        outline.token(line.label.span.clone(), TokenKind::Label);
        command_tokens(&line.command, &mut outline);
        for (jump, taken) in [
            (&line.on_success, "succeeded"),
            (&line.on_failure, "failed"),
        ] {
            let Some(jump) = jump else { continue };
            outline.token(jump.span.clone(), TokenKind::Label);
            let text = match jump.value {
                Target::Label(label) => match labels.get(&label) {
                    Some(target) => {
                        outline.link(jump.span.clone(), target.label.span.clone());
                        format!(
                            "If the command {taken}, jumps to the line labelled {label} (line {}: `{}`).",
                            target.source_line, target.text(source)
                        )
                    }
                    None => format!(
                        "If the command {taken}, jumps to label {label}, which no line has."
                    ),
                },
                Target::Input => format!(
                    "If the command {taken}, reads a label from the input and jumps to that line."
                ),
            };
            outline.hover(jump.span.clone(), text);
        }
        outline.hover(line.span.clone(), describe(line, &labels));
    }
    name_links(program, &mut outline);
    outline.finish()
}

/// Each use of a piece name linked to where the name is first placed
/// (its definition, for "go to definition" and references).
fn name_links(program: &syntax::Program, outline: &mut Outline) {
    let mut placed: HashMap<&str, &Spanned<String>> = HashMap::new();
    for line in &program.lines {
        if let Command::Place { name, .. } = &line.command {
            placed.entry(name.value.as_str()).or_insert(name);
        }
    }
    for name in program.lines.iter().filter_map(|line| line.command.name()) {
        match placed.get(name.value.as_str()) {
            Some(first) if first.span != name.span => {
                outline.link(name.span.clone(), first.span.clone());
            }
            _ => {}
        }
    }
}

/// Tokens of a command.
fn command_tokens(command: &Command, outline: &mut Outline) {
    let name = |name: &Spanned<String>, outline: &mut Outline| {
        outline.token(name.span.clone(), TokenKind::Variable);
    };
    let numbers = |operands: &[Spanned<Operand>], outline: &mut Outline| {
        for operand in operands {
            outline.token(operand.span.clone(), TokenKind::Number);
        }
    };
    match command {
        Command::Nop => {}
        Command::Print { text } => outline.token(text.span.clone(), TokenKind::String),
        Command::Count { name: counted } => name(counted, outline),
        Command::Place {
            name: placed,
            piece,
            square,
        } => {
            name(placed, outline);
            outline.token(piece.span.clone(), TokenKind::Type);
            numbers(square, outline);
        }
        Command::MoveFrom { from, to } => {
            numbers(from, outline);
            numbers(to, outline);
        }
        Command::MoveNamedTo { name: moved, to } => {
            name(moved, outline);
            numbers(to, outline);
        }
        Command::MoveNamedBy { name: moved, by } => {
            name(moved, outline);
            numbers(by, outline);
        }
    }
}

/// A piece type in words: `white knight`.
pub fn piece_words(piece: Piece) -> String {
    let colour = match piece.colour {
        Colour::White => "white",
        Colour::Black => "black",
    };
    let kind = match piece.kind {
        Kind::King => "king",
        Kind::Queen => "queen",
        Kind::Rook => "rook",
        Kind::Bishop => "bishop",
        Kind::Knight => "knight",
        Kind::Pawn => "pawn",
    };
    format!("{colour} {kind}")
}

/// An operand in words (`*` reads it from the input).
fn operand(operand: &Spanned<Operand>) -> String {
    match operand.value {
        Operand::Literal(value) => value.to_string(),
        Operand::Input => "a number read from the input".to_string(),
    }
}

/// A square `(row, column)` in words.
fn square(pair: &[Spanned<Operand>; 2]) -> String {
    format!("row {}, column {}", operand(&pair[0]), operand(&pair[1]))
}

/// What a line does, in Markdown.
fn describe(line: &Line, labels: &HashMap<i64, &Line>) -> String {
    let what = match &line.command {
        Command::Nop => "Does nothing.".to_string(),
        Command::Print { text } => format!("Prints `{}` and a newline.", text.value),
        Command::Count { name } => format!(
            "Prints how many pieces are called `{}` (a number and a newline).",
            name.value
        ),
        Command::Place {
            name,
            piece,
            square: at,
        } => format!(
            "Places a new {} called `{}` on {}. Fails if the square is taken; check is not tested.",
            piece_words(piece.value),
            name.value,
            square(at)
        ),
        Command::MoveFrom { from, to } => format!(
            "Moves the piece on {} to {}. Fails if there is no piece there or the move is not legal (blocked, onto its own side, or leaving its own king attacked).",
            square(from),
            square(to)
        ),
        Command::MoveNamedTo { name, to } => format!(
            "Moves a piece called `{}` to {}, trying the newest such piece first. Fails if none can legally go there.",
            name.value,
            square(to)
        ),
        Command::MoveNamedBy { name, by } => format!(
            "Moves a piece called `{}` by {} rows and {} columns, trying the newest such piece first. Fails if none can legally make that move.",
            name.value,
            operand(&by[0]),
            operand(&by[1])
        ),
    };
    let next = |jump: &Option<Spanned<Target>>| match jump.as_ref().map(|jump| jump.value) {
        None => "goes on to the next line".to_string(),
        Some(Target::Label(label)) => match labels.get(&label) {
            Some(target) => format!("jumps to label {label} (line {})", target.source_line),
            None => format!("jumps to label {label} (no such line)"),
        },
        Some(Target::Input) => "jumps to a label read from the input".to_string(),
    };
    let mut text = format!(
        "**line {}** (label {})\n\n{what}",
        line.source_line, line.label.value
    );
    if line.command.can_fail() {
        text.push_str(&format!(
            "\n\n- succeeded: {}\n- failed: {}",
            next(&line.on_success),
            next(&line.on_failure)
        ));
    } else {
        text.push_str(&format!("\n\nThen {}.", next(&line.on_success)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::FrontEnd as _;

    #[test]
    fn jumps_link_to_their_lines_and_lines_are_described() {
        let text = "1. a=K0,0\n# a comment\n2. a;0,1?1!3\n3. \"done\n";
        let outline = super::super::Stages::parse_and_outline(&Source::new("t.icp", text));
        let names: Vec<&str> = outline.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["1.", "2.", "3."]);
        let jump_to_1 = text.find("?1").unwrap();
        assert_eq!(outline.definition_at(jump_to_1 + 1), Some(0..1));
        let line3 = text.find("3. \"").unwrap();
        assert_eq!(
            outline.definition_at(text.find("!3").unwrap()),
            Some(line3..line3 + 1)
        );
        assert_eq!(outline.references_at(0, false).len(), 1);
        let hover = &outline.hover_at(text.find("a;").unwrap()).unwrap().text;
        assert!(
            hover.contains("Moves a piece called `a` by 0 rows and 1 columns"),
            "{hover}"
        );
        assert!(
            hover.contains("succeeded: jumps to label 1 (line 1)"),
            "{hover}"
        );
        assert!(
            hover.contains("failed: jumps to label 3 (line 4)"),
            "{hover}"
        );
        let place = &outline.hover_at(4).unwrap().text;
        assert!(
            place.contains("white king called `a` on row 0, column 0"),
            "{place}"
        );
        let kinds: Vec<TokenKind> = outline.tokens.iter().map(|t| t.kind).collect();
        assert!(kinds.contains(&TokenKind::Comment) && kinds.contains(&TokenKind::String));
    }

    #[test]
    fn piece_names_link_to_where_they_are_first_placed() {
        let text = "1. a=K0,0\n2. a;0,1\n3. %a\n4. a=K5,5\n5. %b\n";
        let outline = super::super::Stages::parse_and_outline(&Source::new("t.icp", text));
        let first = text.find('a').unwrap();
        let uses: Vec<usize> = outline
            .references_at(first, true)
            .iter()
            .map(|s| s.start)
            .collect();
        assert_eq!(
            uses,
            [
                first,
                text.find("a;").unwrap(),
                text.find("%a").unwrap() + 1,
                text.find("a=K5").unwrap()
            ]
        );
        assert_eq!(
            outline.definition_at(text.find("%a").unwrap() + 1),
            Some(first..first + 1)
        );
        // A name never placed has no definition.
        assert_eq!(outline.definition_at(text.find("%b").unwrap() + 1), None);
    }

    #[test]
    fn a_program_that_does_not_parse_has_only_comment_tokens() {
        let outline = super::super::Stages::parse_and_outline(&Source::new("t.icp", "# c\n1. >\n"));
        assert!(outline.symbols.is_empty());
        assert_eq!(outline.tokens.len(), 1);
    }
}
