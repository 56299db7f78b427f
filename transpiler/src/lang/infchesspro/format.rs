//! InfChessPro's canonical layout (`chess2rs fmt`): `LABEL. COMMAND`
//! with one blank after the label and none inside the command, `?`
//! before `!`, comments kept at the left margin (as the language's own
//! page writes its programs); and, when asked, every line renumbered with
//! its jumps.

use std::collections::HashMap;
use std::fmt::Write;

use super::syntax::{self, Command, Line, Operand, Target};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::format::{FormatOptions, Formatted, Layout};
use crate::source::{Source, Spanned};

/// `source` in its canonical layout, renumbered if `options` ask.
pub fn format(source: &Source, options: &FormatOptions) -> Result<Formatted, Diagnostics> {
    let program = syntax::parse(source)?;
    let labels = match options.renumber {
        Some(step) => Some(renumbering(&program, step)?),
        None => None,
    };
    let label_of = |line: &Line| match &labels {
        Some(labels) => labels
            .get(&line.label.value)
            .copied()
            .unwrap_or(line.label.value),
        None => line.label.value,
    };
    let mut numbered = program.lines.iter().peekable();
    let mut layout = Layout::new(source);
    for (index, (_, text)) in source.lines().enumerate() {
        let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
        if let Some(line) = numbered.next_if(|line| line.source_line == number) {
            layout.line(&format!("{}. {}", label_of(line), written(line, &labels)));
        } else if let Some(start) = syntax::comment_start(text) {
            layout.line(&text[start..]);
        } else {
            layout.blank();
        }
    }
    Ok(Formatted::new(layout.finish()))
}

/// The command and jumps of `line`, jumps to labels through `labels` if
/// renumbering.
fn written(line: &Line, labels: &Option<HashMap<i64, i64>>) -> String {
    let mut text = String::new();
    write_command(&mut text, &line.command);
    for (mark, jump) in [('?', &line.on_success), ('!', &line.on_failure)] {
        match jump.as_ref().map(|jump| jump.value) {
            None => {}
            Some(Target::Input) => {
                text.push(mark);
                text.push('*');
            }
            Some(Target::Label(label)) => {
                let label = (labels.as_ref())
                    .and_then(|labels| labels.get(&label).copied())
                    .unwrap_or(label);
                let _ = write!(text, "{mark}{label}");
            }
        }
    }
    text
}

/// Writes `command` in its canonical spelling.
fn write_command(out: &mut String, command: &Command) {
    let operands = |out: &mut String, operands: &[Spanned<Operand>]| {
        for (index, operand) in operands.iter().enumerate() {
            if index > 0 {
                out.push(',');
            }
            let _ = match operand.value {
                Operand::Literal(value) => write!(out, "{value}"),
                Operand::Input => write!(out, "*"),
            };
        }
    };
    match command {
        Command::Nop => out.push('^'),
        Command::Print { text } => {
            out.push('"');
            out.push_str(&text.value);
        }
        Command::Count { name } => {
            out.push('%');
            out.push_str(&name.value);
        }
        Command::Place {
            name,
            piece,
            square,
        } => {
            let _ = write!(out, "{}={}", name.value, piece.value.letter());
            operands(out, square);
        }
        Command::MoveFrom { from, to } => {
            operands(out, from);
            out.push(',');
            operands(out, to);
        }
        Command::MoveNamedTo { name, to } => {
            out.push_str(&name.value);
            out.push(',');
            operands(out, to);
        }
        Command::MoveNamedBy { name, by } => {
            out.push_str(&name.value);
            out.push(';');
            operands(out, by);
        }
    }
}

/// The new label of each old one when the numbered lines are labelled
/// `step`, `2 × step`, … in file order; refused where a jump's line could
/// change: a label defined twice, a jump to no line, a target read from
/// input.
fn renumbering(program: &syntax::Program, step: u32) -> Result<HashMap<i64, i64>, Diagnostics> {
    let mut errors = Diagnostics::default();
    let mut labels: HashMap<i64, i64> = HashMap::with_capacity(program.lines.len());
    let mut first_at = HashMap::with_capacity(program.lines.len());
    for (index, line) in program.lines.iter().enumerate() {
        let new = i64::try_from(index + 1)
            .ok()
            .and_then(|n| n.checked_mul(i64::from(step)));
        let Some(new) = new.filter(|_| step > 0) else {
            errors.push(
                Diagnostic::error(
                    Code::IcpNumberTooLarge,
                    "the new labels would not fit",
                    line.label.span.clone(),
                )
                .with_help("renumber by a step of at least 1 whose labels stay below 2^63"),
            );
            return Err(errors);
        };
        let label = &line.label;
        if let Some(first) = first_at.insert(label.value, label.span.clone()) {
            errors.push(
                Diagnostic::error(
                    Code::IcpLabelTwice,
                    format!("label {} is defined twice", label.value),
                    label.span.clone(),
                )
                .with_label("defined again here")
                .with_secondary(first, "first defined here")
                .with_help("renumbering cannot tell which of them a jump means: relabel one first"),
            );
        }
        labels.insert(label.value, new);
    }
    for line in &program.lines {
        for jump in [&line.on_success, &line.on_failure].into_iter().flatten() {
            match jump.value {
                Target::Label(label) if !labels.contains_key(&label) => errors.push(
                    Diagnostic::error(Code::IcpNoSuchLabel, format!("no line is labelled {label}"), jump.span.clone())
                        .with_label("jumps to no line")
                        .with_help("renumbering would give the target a meaning: fix the jump first"),
                ),
                Target::Input => errors.push(
                    Diagnostic::error(
                        Code::IcpRenumberInputJump, "this jump's target is read from input",
                        jump.span.clone(),
                    )
                    .with_label("`*` reads the label to jump to")
                    .with_help(
                        "renumbering would send the numbers the program reads to other lines; format without --renumber",
                    ),
                ),
                Target::Label(_) => {}
            }
        }
    }
    if errors.is_empty() {
        Ok(labels)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn formatted(text: &str, renumber: Option<u32>) -> Result<String, Vec<String>> {
        let source = Source::new("t.icp", text);
        format(&source, &FormatOptions { renumber })
            .map(|formatted| formatted.text)
            .map_err(|errors| errors.iter().map(|e| e.message.clone()).collect())
    }

    #[test]
    fn commands_are_written_without_blanks_and_numbers_plainly() {
        let text = "  1.  x = R +05 , * \n2. 3 , 1,5,-0 ! 1 ? 2\n3. \"  Hi ?3  \n4. 007 ; 1 , 0\n";
        assert_eq!(
            formatted(text, None).unwrap(),
            "1. x=R5,*\n2. 3,1,5,0?2!1\n3. \"  Hi ?3\n4. 007;1,0\n"
        );
    }

    #[test]
    fn comments_stay_at_the_margin_and_blank_runs_become_one() {
        let text = "# top\n9. ^\n  # inside\n10. %a\n\n\n\n7. ^?9\n";
        assert_eq!(
            formatted(text, None).unwrap(),
            "# top\n9. ^\n# inside\n10. %a\n\n7. ^?9\n"
        );
    }

    #[test]
    fn renumbering_rewrites_every_jump() {
        let text = "10. a=K0,0?30!10\n20. ^\n30. a;1,0?10\n";
        assert_eq!(
            formatted(text, Some(1)).unwrap(),
            "1. a=K0,0?3!1\n2. ^\n3. a;1,0?1\n"
        );
        assert_eq!(
            formatted(text, Some(10)).unwrap(),
            "10. a=K0,0?30!10\n20. ^\n30. a;1,0?10\n"
        );
    }

    #[test]
    fn renumbering_refuses_what_it_would_change() {
        assert_eq!(
            formatted("1. ^?*\n", Some(1)).unwrap_err(),
            ["this jump's target is read from input"]
        );
        assert_eq!(
            formatted("1. ^?5\n", Some(1)).unwrap_err(),
            ["no line is labelled 5"]
        );
        assert_eq!(
            formatted("1. ^\n1. ^\n", Some(1)).unwrap_err(),
            ["label 1 is defined twice"]
        );
        // Without renumbering, all three are laid out as they are.
        assert_eq!(formatted("1. ^?*\n", None).unwrap(), "1. ^?*\n");
    }

    #[test]
    fn formatting_is_a_fixed_point() {
        let text = "1. Amount=K99,0\n2. Beer=P0,0!4\n  3.Beer;1,0 ?3 !2\n# x\n\n14. \"No more\n";
        let once = formatted(text, None).unwrap();
        assert_eq!(formatted(&once, None).unwrap(), once);
    }

    #[test]
    fn a_program_that_does_not_parse_is_refused() {
        assert!(formatted("1. ^\nnot a line\n", None).is_err());
    }
}
