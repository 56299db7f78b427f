//! What renaming finds in an InfChessPro program: a line label (with
//! every jump to it) or a piece name (placed, moved and counted).

use std::collections::HashSet;

use super::syntax::{Program, Target};
use crate::rename::{at, NameShape, Renaming};
use crate::source::{Source, Span, Spanned};

/// The label or name at `offset` of `program` (the tree of `source`).
pub fn renaming(program: &Program, source: &Source, offset: usize) -> Option<Renaming> {
    let labels = label_sites(program, source);
    if let Some((value, _)) = labels.iter().find(|(_, span)| at(span, offset)) {
        let value = *value;
        return Some(Renaming {
            what: format!("label {value}"),
            at: labels.iter().find(|(_, span)| at(span, offset))?.1.clone(),
            sites: (labels.iter())
                .filter(|(other, _)| *other == value)
                .map(|(_, span)| span.clone())
                .collect(),
            taken: (program.lines.iter())
                .map(|line| line.label.value)
                .filter(|&label| label != value)
                .map(|label| label.to_string())
                .collect(),
            shape: NameShape::Label,
        });
    }
    let names: Vec<&Spanned<String>> = (program.lines.iter())
        .filter_map(|line| line.command.name())
        .collect();
    let name = names.iter().find(|name| at(&name.span, offset))?;
    Some(Renaming {
        what: format!("the pieces called `{}`", name.value),
        at: name.span.clone(),
        sites: (names.iter())
            .filter(|other| other.value == name.value)
            .map(|other| other.span.clone())
            .collect(),
        taken: (names.iter())
            .map(|other| other.value.clone())
            .filter(|other| *other != name.value)
            .collect::<HashSet<_>>(),
        shape: NameShape::Word,
    })
}

/// Every label and every jump's target label, as a value and where its
/// digits are, in source order.
fn label_sites(program: &Program, source: &Source) -> Vec<(i64, Span)> {
    let mut sites = Vec::new();
    for line in &program.lines {
        sites.push((line.label.value, line.label.span.clone()));
        for jump in [&line.on_success, &line.on_failure].into_iter().flatten() {
            if let Target::Label(value) = jump.value {
                // The jump's span starts at its `?` or `!`: the label is
                // the digits it ends with.
                let written = source.text().get(jump.span.clone()).unwrap_or_default();
                let digits = written.bytes().rev().take_while(u8::is_ascii_digit).count();
                sites.push((value, jump.span.end - digits..jump.span.end));
            }
        }
    }
    sites.sort_by_key(|(_, span)| span.start);
    sites
}

#[cfg(test)]
mod tests {
    use super::*;

    fn renamed(text: &str, offset: usize, new: &str) -> Result<String, String> {
        let source = Source::new("t.icp", text);
        let program = super::super::syntax::parse(&source).map_err(|_| "parse".to_string())?;
        let renaming = renaming(&program, &source, offset).ok_or("nothing to rename")?;
        renaming.renamed(text, new)
    }

    #[test]
    fn a_label_is_renamed_with_every_jump_to_it() {
        let text = "1. a=K0,0?2!1\n2. a;1,0 ? 1\n";
        assert_eq!(
            renamed(text, 0, "10").unwrap(),
            "10. a=K0,0?2!10\n2. a;1,0 ? 10\n"
        );
        // From a jump, the same.
        assert_eq!(
            renamed(text, 12, "10").unwrap(),
            "10. a=K0,0?2!10\n2. a;1,0 ? 10\n"
        );
        assert!(renamed(text, 0, "2").unwrap_err().contains("taken"));
    }

    #[test]
    fn a_piece_name_is_renamed_where_placed_moved_and_counted() {
        let text = "1. a=K0,0\n2. b=k5,5\n3. a;1,0\n4. a,2,2\n5. %a\n";
        assert_eq!(
            renamed(text, 3, "king").unwrap(),
            "1. king=K0,0\n2. b=k5,5\n3. king;1,0\n4. king,2,2\n5. %king\n"
        );
        assert!(renamed(text, 3, "b").unwrap_err().contains("taken"));
    }

    #[test]
    fn text_and_squares_are_not_names() {
        assert_eq!(
            renamed("1. \"hello\n2. 0,0,1,1\n", 5, "x").unwrap_err(),
            "nothing to rename"
        );
        assert_eq!(
            renamed("1. \"hello\n2. 0,0,1,1\n", 14, "x").unwrap_err(),
            "nothing to rename"
        );
    }
}
