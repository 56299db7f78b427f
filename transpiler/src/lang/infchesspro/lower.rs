//! InfChessPro syntax tree → IR. Runs only on programs that passed
//! [`super::check`], so every literal jump target exists.

use crate::source::Source;

use super::ir::{Command, Interner, Line, Next, Program};
use super::syntax::{self, Target};

/// Lowers a checked program.
pub fn lower(program: &syntax::Program, source: &Source) -> Program {
    let mut labels: Vec<(i64, u32)> = Vec::new();
    for (index, line) in program.lines.iter().enumerate() {
        labels.push((line.label.value, index as u32));
    }
    // Labels are distinct (checked): a jump's line is found by a binary
    // search of the sorted labels, which a hash map of a million labels
    // would have cost 35 MB more at the peak of a large program's emit.
    labels.sort_unstable();
    let mut names = Interner::<String>::default();
    let lines = program
        .lines
        .iter()
        .enumerate()
        .map(|(index, line)| {
            let fall_through = Next::Line(index as u32 + 1);
            let resolve = |jump: &Option<crate::source::Spanned<Target>>| match jump
                .as_ref()
                .map(|j| j.value)
            {
                None => fall_through,
                // Checked: the label exists; a missing one would halt.
                Some(Target::Label(label)) => labels
                    .binary_search_by_key(&label, |&(label, _)| label)
                    .map_or(Next::Line(program.lines.len() as u32), |at| {
                        Next::Line(labels[at].1)
                    }),
                Some(Target::Input) => Next::Input,
            };
            let on_success = resolve(&line.on_success);
            let on_failure = if line.command.can_fail() {
                resolve(&line.on_failure)
            } else {
                on_success
            };
            Line {
                source_line: line.source_line,
                span: line.command_span.clone(),
                text: line.text(source).to_string(),
                command: lower_command(&line.command, &mut names),
                on_success,
                on_failure,
            }
        })
        .collect();
    Program {
        lines,
        names: names.into_values(),
        labels,
        source_name: source.name().to_string(),
    }
}

fn lower_command(command: &syntax::Command, names: &mut Interner<String>) -> Command {
    let values =
        |pair: &[crate::source::Spanned<syntax::Operand>; 2]| [pair[0].value, pair[1].value];
    match command {
        syntax::Command::Nop => Command::Nop,
        syntax::Command::Print { text } => Command::Print(text.value.clone()),
        syntax::Command::Count { name } => Command::Count(names.id(name.value.as_str())),
        syntax::Command::Place {
            name,
            piece,
            square,
        } => Command::Place {
            name: names.id(name.value.as_str()),
            piece: piece.value,
            square: values(square),
        },
        syntax::Command::MoveFrom { from, to } => Command::MoveFrom {
            from: values(from),
            to: values(to),
        },
        syntax::Command::MoveNamedTo { name, to } => Command::MoveNamedTo {
            name: names.id(name.value.as_str()),
            to: values(to),
        },
        syntax::Command::MoveNamedBy { name, by } => Command::MoveNamedBy {
            name: names.id(name.value.as_str()),
            by: values(by),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::Source;

    #[test]
    fn labels_resolve_to_indices_and_names_are_interned() {
        let source = Source::new("t.icp", "5. a=K0,0?9\n9. b;1,0!5\n7. %a\n");
        let program = lower(&syntax::parse(&source).unwrap(), &source);
        assert_eq!(program.names, vec!["a", "b"]);
        assert_eq!(program.labels, vec![(5, 0), (7, 2), (9, 1)]);
        assert_eq!(program.lines[0].on_success, Next::Line(1));
        assert_eq!(program.lines[0].on_failure, Next::Line(1));
        assert_eq!(program.lines[1].on_failure, Next::Line(0));
        assert_eq!(program.lines[1].on_success, Next::Line(2));
        assert_eq!(program.lines[2].command, Command::Count(0));
        assert_eq!(
            program.lines[2].on_success,
            Next::Line(3),
            "past the end halts"
        );
    }
}
