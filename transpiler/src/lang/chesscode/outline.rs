//! Chess Code for editors: each loop as a symbol, each condition linked
//! to the label it loops back to, tokens, and what each command does.

use super::check;
use super::syntax::{self, Cell, Command, Condition, Line, Var};
use crate::outline::{Outline, Symbol, SymbolKind, TokenKind};
use crate::source::{Source, Spanned};

/// The outline of a Chess Code program (comments only if it does not
/// parse).
pub fn outline(tree: Option<&syntax::Program>, source: &Source) -> Outline {
    let mut outline = Outline::default();
    for (start, line) in source.lines() {
        if let Some(bar) = line.find(syntax::COMMENT) {
            outline.token(start + bar..start + line.len(), TokenKind::Comment);
        }
    }
    let Some(program) = tree else {
        return outline.finish();
    };
    let (loops, _) = check::check(program);
    for (&condition, &label) in &loops {
        let (condition, label) = (&program.lines[condition], &program.lines[label]);
        outline.link(condition.span.clone(), label.span.clone());
        outline.symbols.push(Symbol {
            name: format!("loop at line {}", label.source_line),
            detail: format!("until line {}: `{}`", condition.source_line, condition.text),
            kind: SymbolKind::Loop,
            span: label.span.start..condition.span.end,
            name_span: label.span.clone(),
        });
    }
    outline.symbols.sort_by_key(|symbol| symbol.span.start);
    let closing: std::collections::HashMap<usize, usize> = loops
        .iter()
        .map(|(&condition, &label)| (label, condition))
        .collect();
    for (index, line) in program.lines.iter().enumerate() {
        tokens(line, &mut outline);
        let closed_by = closing
            .get(&index)
            .map(|&condition| &program.lines[condition]);
        let loops_to = loops.get(&index).map(|&label| &program.lines[label]);
        outline.hover(line.span.clone(), describe(line, closed_by, loops_to));
    }
    outline.finish()
}

/// The tokens of one command line.
fn tokens(line: &Line, outline: &mut Outline) {
    let cell = |cell: &Spanned<Cell>, outline: &mut Outline| {
        outline.token(cell.span.clone(), TokenKind::Variable);
    };
    let var = |var: &Spanned<Var>, outline: &mut Outline| {
        outline.token(var.span.clone(), TokenKind::Type);
    };
    match &line.command {
        Command::Output(c) | Command::Increment(c) | Command::Input(c) => cell(c, outline),
        Command::Copy { to, from } | Command::AddCell { to, from } => {
            cell(to, outline);
            cell(from, outline);
        }
        Command::AsciiMode | Command::RawMode => {
            outline.token(line.span.clone(), TokenKind::Keyword);
        }
        Command::VarFromCell(v, c)
        | Command::CellFromVar(v, c)
        | Command::VarAddCell(v, c)
        | Command::CellAddVar(v, c)
        | Command::VarInput(v, c) => {
            var(v, outline);
            cell(c, outline);
        }
        Command::Label => outline.token(line.span.clone(), TokenKind::Label),
        Command::Condition(condition) => {
            cell(&condition.cell, outline);
            if let Some(also) = &condition.also {
                cell(also, outline);
            }
            var(&condition.var, outline);
        }
    }
}

/// A variable in words: `R (the rook)`.
fn var_words(var: Var) -> String {
    format!("variable `{}` (the {})", var.letter(), var.piece())
}

/// A cell in words.
fn cell_words(cell: &Spanned<Cell>) -> String {
    format!("cell `{}`", cell.value.name())
}

/// A condition in words.
fn condition_words(condition: &Condition) -> String {
    let relation = if condition.negated {
        "differs from"
    } else {
        "equals"
    };
    let var = var_words(condition.var.value);
    match &condition.also {
        None => format!("{} {relation} {var}", cell_words(&condition.cell)),
        Some(also) => format!(
            "{} {relation} {var} and {} {relation} it too",
            cell_words(&condition.cell),
            cell_words(also)
        ),
    }
}

/// What a line does, in Markdown.
fn describe(line: &Line, closed_by: Option<&Line>, loops_to: Option<&Line>) -> String {
    let what = match &line.command {
        Command::Output(c) => format!(
            "Prints {} (as a number, or as a character after `O-O`).",
            cell_words(c)
        ),
        Command::Copy { to, from } => format!("Sets {} to {}.", cell_words(to), cell_words(from)),
        Command::Increment(c) => format!("Adds 1 to {}.", cell_words(c)),
        Command::AddCell { to, from } => format!("Adds {} to {}.", cell_words(from), cell_words(to)),
        Command::Input(c) => format!("Reads the next number of the input into {}.", cell_words(c)),
        Command::AsciiMode => "Output mode ASCII: printing a cell writes the character of its value.".into(),
        Command::RawMode => "Output mode raw: printing a cell writes its value as a number.".into(),
        Command::VarFromCell(v, c) => format!("Sets {} to {}.", var_words(v.value), cell_words(c)),
        Command::CellFromVar(v, c) => format!("Sets {} to {}.", cell_words(c), var_words(v.value)),
        Command::VarAddCell(v, c) => format!("Adds {} to {}.", cell_words(c), var_words(v.value)),
        Command::CellAddVar(v, c) => format!("Adds {} to {}.", var_words(v.value), cell_words(c)),
        Command::VarInput(v, c) => format!(
            "Reads the next number of the input into {} and {}.",
            cell_words(c),
            var_words(v.value)
        ),
        Command::Label => match closed_by {
            Some(condition) => format!(
                "Loop label: the body below runs, then line {} (`{}`) decides whether to run it again.",
                condition.source_line, condition.text
            ),
            None => "Loop label that no condition loops back to: it does nothing.".into(),
        },
        Command::Condition(condition) => {
            let label = loops_to.map_or(String::new(), |label| {
                format!(" to the label on line {}", label.source_line)
            });
            format!(
                "Loop condition: loops back{label} while {}.",
                condition_words(condition)
            )
        }
    };
    format!("**line {}** `{}`\n\n{what}", line.source_line, line.text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::FrontEnd as _;

    #[test]
    fn conditions_link_to_their_labels() {
        let text = "a1+ | one\n1/2 1/2\n  b1+\nb1=R+\nb1\n";
        let outline = super::super::Stages::parse_and_outline(&Source::new("t.chc", text));
        let label = text.find("1/2").unwrap();
        let condition = text.find("b1=R+").unwrap();
        assert_eq!(outline.definition_at(condition + 2), Some(label..label + 7));
        assert_eq!(
            outline.references_at(label, false),
            vec![condition..condition + 5]
        );
        assert_eq!(outline.symbols.len(), 1);
        assert_eq!(outline.symbols[0].name, "loop at line 2");
        let hover = &outline.hover_at(condition).unwrap().text;
        assert!(
            hover.contains(
                "loops back to the label on line 2 while cell `b1` differs from variable `R`"
            ),
            "{hover}"
        );
        let hover = &outline.hover_at(label).unwrap().text;
        assert!(hover.contains("line 4 (`b1=R+`)"), "{hover}");
        assert_eq!(outline.tokens[1].kind, TokenKind::Comment);
    }
}
