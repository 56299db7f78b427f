//! InfChessPro checks on the syntax tree: duplicate labels, jumps to
//! missing lines (errors); text that looks like a jump, unreachable lines,
//! names used but never placed (warnings).

use std::collections::{HashMap, HashSet};

use super::syntax::{Command, Line, Program, Target};
use crate::diag::{Diagnostic, Diagnostics, Severity};

/// All diagnostics for `program`; errors make it uncompilable.
pub fn check(program: &Program) -> Diagnostics {
    let mut diagnostics = Diagnostics::default();
    let labels = check_labels(program, &mut diagnostics);
    check_targets(program, &labels, &mut diagnostics);
    warn_text_like_jumps(program, &mut diagnostics);
    if !diagnostics.has_errors() {
        warn_unreachable(program, &labels, &mut diagnostics);
    }
    warn_unplaced_names(program, &mut diagnostics);
    diagnostics.sort();
    diagnostics
}

/// Maps each label to its line index, reporting duplicates.
fn check_labels(program: &Program, diagnostics: &mut Diagnostics) -> HashMap<i64, usize> {
    let mut labels: HashMap<i64, usize> = HashMap::new();
    for (index, line) in program.lines.iter().enumerate() {
        if let Some(&first) = labels.get(&line.label.value) {
            diagnostics.push_with(Severity::Error, line.label.span.start, || {
                Diagnostic::error(
                    format!("label {} is defined twice", line.label.value),
                    line.label.span.clone(),
                )
                .with_label("defined again here")
                .with_secondary(
                    program.lines[first].label.span.clone(),
                    "first defined here",
                )
                .with_help("labels are jump targets and must be unique; renumber one of the lines")
            });
        } else {
            labels.insert(line.label.value, index);
        }
    }
    labels
}

fn check_targets(program: &Program, labels: &HashMap<i64, usize>, diagnostics: &mut Diagnostics) {
    let mut sorted: Option<Vec<i64>> = None;
    for line in &program.lines {
        for jump in [&line.on_success, &line.on_failure].into_iter().flatten() {
            if let Target::Label(label) = jump.value {
                if !labels.contains_key(&label) {
                    diagnostics.push_with(Severity::Error, jump.span.start, || {
                        let sorted = sorted.get_or_insert_with(|| {
                            let mut sorted: Vec<i64> = labels.keys().copied().collect();
                            sorted.sort_unstable();
                            sorted
                        });
                        let diagnostic = Diagnostic::error(
                            format!("no line is labelled {label}"),
                            jump.span.clone(),
                        )
                        .with_label("jump to a missing line");
                        match nearest(sorted, label) {
                            Some(nearest) => {
                                diagnostic.with_help(format!("the nearest label is {nearest}"))
                            }
                            None => diagnostic,
                        }
                    });
                }
            }
        }
    }
}

/// The label of `sorted` nearest to `label` (the smaller of two as near).
fn nearest(sorted: &[i64], label: i64) -> Option<i64> {
    let after = sorted.partition_point(|&l| l < label);
    let below = after.checked_sub(1).and_then(|index| sorted.get(index));
    let above = sorted.get(after);
    match (below, above) {
        (Some(&below), Some(&above)) if above.abs_diff(label) < below.abs_diff(label) => {
            Some(above)
        }
        (Some(&below), _) => Some(below),
        (None, above) => above.copied(),
    }
}

/// `"TEXT?3`: a text line takes no jumps, so this prints `?3`.
fn warn_text_like_jumps(program: &Program, diagnostics: &mut Diagnostics) {
    for line in &program.lines {
        let Command::Print { text } = &line.command else {
            continue;
        };
        let body = text.value.trim_end_matches(|c: char| c.is_ascii_digit());
        let digits = text.value.len() - body.len();
        if digits > 0 && (body.ends_with('?') || body.ends_with('!')) {
            let start = text.span.end - digits - 1;
            let jump = &text.value[body.len() - 1..];
            diagnostics.push_with(Severity::Warning, start, || {
                Diagnostic::warning("text ends in what looks like a jump", start..text.span.end)
                    .with_label(format!("`{jump}` is printed, not a jump"))
                    .with_help(format!(
                        "a text line takes no jumps; did you mean a jump? put `^{jump}` on the next line"
                    ))
            });
        }
    }
}

fn warn_unreachable(
    program: &Program,
    labels: &HashMap<i64, usize>,
    diagnostics: &mut Diagnostics,
) {
    let count = program.lines.len();
    let mut reached = vec![false; count];
    let mut pending = vec![0];
    let mut input_jump = false;
    while let Some(index) = pending.pop() {
        if index >= count || reached[index] {
            continue;
        }
        reached[index] = true;
        let line = &program.lines[index];
        let mut follow = |jump: &Option<_>| match jump
            .as_ref()
            .map(|j: &crate::source::Spanned<Target>| j.value)
        {
            None => pending.push(index + 1),
            Some(Target::Label(label)) => pending.extend(labels.get(&label).copied()),
            Some(Target::Input) => input_jump = true,
        };
        follow(&line.on_success);
        if can_fail(line) {
            follow(&line.on_failure);
        }
    }
    if input_jump {
        // A jump read from input can reach any line.
        return;
    }
    for (line, _) in program.lines.iter().zip(&reached).filter(|(_, &r)| !r) {
        diagnostics.push_with(Severity::Warning, line.span.start, || {
            Diagnostic::warning("this line can never execute", line.span.clone())
                .with_label("unreachable from the first line")
        });
    }
}

fn warn_unplaced_names(program: &Program, diagnostics: &mut Diagnostics) {
    let placed: HashSet<&str> = program
        .lines
        .iter()
        .filter_map(|line| match &line.command {
            Command::Place { name, .. } => Some(name.value.as_str()),
            _ => None,
        })
        .collect();
    let mut reported = HashSet::new();
    for line in &program.lines {
        let (name, how) = match &line.command {
            Command::Count { name } => (name, "counted"),
            Command::MoveNamedTo { name, .. } | Command::MoveNamedBy { name, .. } => {
                (name, "moved")
            }
            _ => continue,
        };
        if !placed.contains(name.value.as_str()) && reported.insert(name.value.as_str()) {
            diagnostics.push_with(Severity::Warning, name.span.start, || {
                Diagnostic::warning(
                    format!("no piece called `{}` is ever placed", name.value),
                    name.span.clone(),
                )
                .with_label(format!("{how} here, but never placed"))
                .with_help(
                    match crate::diag::did_you_mean(&name.value, placed.iter().copied()) {
                        // Said only when case is the whole difference.
                        Some(close) if close.to_lowercase() == name.value.to_lowercase() => {
                            format!("did you mean `{close}`? (names are case-sensitive)")
                        }
                        Some(close) => format!("did you mean `{close}`?"),
                        None => format!("place one with `{}=Tr,c`", name.value),
                    },
                )
            });
        }
    }
}

/// Whether `line` can fail (and so take its `!` jump).
fn can_fail(line: &Line) -> bool {
    line.command.can_fail()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::infchesspro::syntax::parse;
    use crate::source::Source;

    fn messages(text: &str) -> Vec<String> {
        let program = parse(&Source::new("t.icp", text)).unwrap();
        check(&program).into_iter().map(|d| d.message).collect()
    }

    #[test]
    fn duplicate_and_missing_labels() {
        assert_eq!(
            messages("1. ^\n1. ^?7\n"),
            vec!["label 1 is defined twice", "no line is labelled 7"]
        );
    }

    #[test]
    fn warnings() {
        assert_eq!(
            messages("1. \"go?3\n"),
            vec!["text ends in what looks like a jump"]
        );
        assert_eq!(
            messages("1. ^?3\n2. ^\n3. ^\n"),
            vec!["this line can never execute"]
        );
        assert_eq!(messages("1. ^?*\n2. ^?1\n3. ^\n"), Vec::<String>::new());
        assert_eq!(
            messages("1. %x\n2. x;1,1\n3. y=K0,0\n4. y,1,1\n"),
            vec!["no piece called `x` is ever placed"]
        );
        assert_eq!(messages("1. \"50%!\n"), Vec::<String>::new());
    }

    #[test]
    fn a_name_never_placed_suggests_a_close_placed_one() {
        let source = Source::new("t.icp", "1. Beer=P0,0\n2. beer;1,0\n3. %Bear\n4. %zzz\n");
        let tree = crate::lang::infchesspro::syntax::parse(&source).unwrap();
        let helps: Vec<String> = check(&tree).iter().filter_map(|d| d.help.clone()).collect();
        assert_eq!(
            helps,
            [
                "did you mean `Beer`? (names are case-sensitive)",
                "did you mean `Beer`?",
                "place one with `zzz=Tr,c`"
            ]
        );
    }

    #[test]
    fn a_missing_label_names_the_nearest_one_smaller_on_a_tie() {
        let helps = |text: &str| -> Vec<String> {
            let tree = parse(&Source::new("t.icp", text)).unwrap();
            check(&tree).iter().filter_map(|d| d.help.clone()).collect()
        };
        assert_eq!(
            helps("10. ^?14\n20. ^?15\n30. ^?27\n40. ^?5\n50. ^?99\n"),
            [
                "the nearest label is 10",
                "the nearest label is 10",
                "the nearest label is 30",
                "the nearest label is 10",
                "the nearest label is 50"
            ]
        );
        assert_eq!(nearest(&[], 3), None);
    }

    /// Checked as the editor and `check` check, a program with an error on
    /// every other line keeps the 50 shown and counts the rest.
    #[test]
    fn only_the_shown_diagnostics_are_kept_when_bounded() {
        let text: String = (1..=2_000)
            .map(|label| format!("{label}. ^?{}\n{label}. ^\n", label + 5_000))
            .collect();
        let tree = parse(&Source::new("t.icp", text)).unwrap();
        let diagnostics = crate::diag::building_shown_only(|| check(&tree));
        assert_eq!(diagnostics.len(), 4_000, "2,000 twice, 2,000 missing");
        assert_eq!(diagnostics.iter().count(), 50);
        let first: Vec<&str> = diagnostics
            .iter()
            .take(2)
            .map(|d| d.message.as_str())
            .collect();
        assert_eq!(
            first,
            ["no line is labelled 5001", "label 1 is defined twice"]
        );
        assert_eq!(check(&tree).iter().count(), 4_000);
    }
}
