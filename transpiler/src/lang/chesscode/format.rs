//! Chess Code's canonical layout (`chess2rs fmt`): one command a line in
//! its one spelling, a loop's body indented two blanks deeper than its
//! label and condition, comments kept (one blank before a comment after
//! a command, a comment line indented as the code around it).

use super::check;
use super::syntax::{self, Command, Condition, COMMENT};
use crate::diag::Diagnostics;
use crate::format::{code_line, comment_of, FormatOptions, Formatted, Layout};
use crate::source::Source;

/// The blanks a loop's body is indented by, a level deeper.
const INDENT: usize = 2;

/// `source` in its canonical layout.
pub fn format(source: &Source, _: &FormatOptions) -> Result<Formatted, Diagnostics> {
    let program = syntax::parse(source)?;
    // The loops are the labels and conditions the checks pair (a label
    // without a condition opens nothing). A source line's depth is how
    // many loops' bodies hold it.
    let (matches, _) = check::check(&program);
    let mut depth_change = vec![0i64; source.line_count() + 2];
    for (&condition, &label) in &matches {
        let (Some(condition), Some(label)) =
            (program.lines.get(condition), program.lines.get(label))
        else {
            continue;
        };
        // Source lines are numbered from 1: the body is strictly between.
        if let Some(change) = depth_change.get_mut(label.source_line as usize + 1) {
            *change += 1;
        }
        if let Some(change) = depth_change.get_mut(condition.source_line as usize) {
            *change -= 1;
        }
    }
    let mut commands = program.lines.iter().peekable();
    let mut layout = Layout::new(source);
    let mut depth = 0i64;
    for (index, (_, raw)) in source.lines().enumerate() {
        depth += depth_change.get(index + 1).copied().unwrap_or(0);
        let indent = INDENT * usize::try_from(depth).unwrap_or(0);
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let comment = comment_of(raw, COMMENT);
        if let Some(line) = commands.next_if(|line| line.source_line == number) {
            layout.line(&code_line(indent, &spelled(&line.command), comment));
        } else if comment.is_some() {
            layout.line(&code_line(indent, "", comment));
        } else {
            layout.blank();
        }
    }
    Ok(Formatted::new(layout.finish()))
}

/// A command in its one spelling.
fn spelled(command: &Command) -> String {
    match command {
        Command::Output(cell) => cell.value.name(),
        Command::Copy { to, from } => format!("{}x{}", to.value.name(), from.value.name()),
        Command::Increment(cell) => format!("{}+", cell.value.name()),
        Command::AddCell { to, from } => format!("{}x{}+", to.value.name(), from.value.name()),
        Command::Input(cell) => format!("{}#", cell.value.name()),
        Command::AsciiMode => "O-O".to_string(),
        Command::RawMode => "O-O-O".to_string(),
        Command::VarFromCell(var, cell) => format!("{}{}", var.value.letter(), cell.value.name()),
        Command::CellFromVar(var, cell) => format!("{}x{}", var.value.letter(), cell.value.name()),
        Command::VarAddCell(var, cell) => format!("{}{}+", var.value.letter(), cell.value.name()),
        Command::CellAddVar(var, cell) => {
            format!("{}x{}+", var.value.letter(), cell.value.name())
        }
        Command::VarInput(var, cell) => format!("{}{}#", var.value.letter(), cell.value.name()),
        Command::Label => "1/2 1/2".to_string(),
        Command::Condition(Condition {
            cell,
            also,
            var,
            negated,
        }) => {
            let also = also.as_ref().map(|also| format!("x{}", also.value.name()));
            format!(
                "{}{}={}{}",
                cell.value.name(),
                also.unwrap_or_default(),
                var.value.letter(),
                if *negated { "+" } else { "" }
            )
        }
    }
}

#[cfg(test)]
mod tests {
    fn formatted(text: &str) -> String {
        crate::format::formatted_for_test(text, crate::Language::ChessCode)
    }

    #[test]
    fn loop_bodies_are_indented_and_comments_kept() {
        let text = "| Inputs\n a1#  |  first \n\n\n1/2   1/2\n  a2+\n1/2 1/2\n| inner\na3+\n a3=B+\na1=R\n";
        assert_eq!(
            formatted(text),
            "| Inputs\na1# |  first\n\n1/2 1/2\n  a2+\n  1/2 1/2\n    | inner\n    a3+\n  a3=B+\na1=R\n"
        );
    }

    #[test]
    fn a_label_without_its_condition_opens_nothing() {
        assert_eq!(formatted("1/2 1/2\na1\n"), "1/2 1/2\na1\n");
    }

    #[test]
    fn every_form_is_spelled_once() {
        let text = "a1\na1xb2\na1+\na1xb2+\na1#\nO-O\nO-O-O\nRa1\nNxa1\nBa1+\nQxa1+\nKa1#\n1/2 1/2\na1xb2=R+\n";
        // The loop's body is empty: nothing to indent.
        assert_eq!(formatted(text), text);
    }

    #[test]
    fn formatting_is_a_fixed_point() {
        let text = "a1#\n1/2 1/2\n   1/2 1/2 | x\nb1+\n  b1=R\na1=R+\n";
        let once = formatted(text);
        assert_eq!(formatted(&once), once);
    }
}
