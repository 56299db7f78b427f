//! InfChessPro checks: duplicate labels, jumps to missing lines (errors);
//! text that looks like a jump, unreachable lines, names used but never
//! placed (warnings).
//!
//! The checks read each numbered line's [`Facts`]: its label, jump
//! targets and name as numbers (interned), and where its diagnostics would
//! go as offsets from its label. They are a few passes over an array, with
//! no hashing and nothing allocated per line; a diagnostic's text is made
//! only when it is kept ([`Diagnostics::push_with`]). [`check`] takes the
//! facts from a parsed program; [`Lines`] keeps them for a document open
//! in the language server and re-reads only the lines an edit changed, so
//! that checking a 10 MB document again after a keystroke costs those
//! passes and not a parse.

use super::ir::Interner;
use super::syntax::{self, Command, Line, Program, Target};
use crate::diag::{Code, Diagnostic, Diagnostics, Severity};
use crate::source::{LinesEdited, Source, Span};

/// All diagnostics for `program`; errors make it uncompilable.
pub fn check(program: &Program) -> Diagnostics {
    let mut names = Names::default();
    let facts: Vec<Facts> = program
        .lines
        .iter()
        .map(|line| names.facts(line, line.source_line.saturating_sub(1), 0))
        .collect();
    diagnose(&facts, &names, program, None)
}

/// Offsets and ids that stand for none.
const NONE: u32 = u32::MAX;
/// The target of a jump read from the input.
const INPUT: u32 = u32::MAX - 1;

/// One numbered line as the checks read it. Offsets are bytes from the
/// start of its label (its first byte).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Facts {
    /// The source line it is (0-based).
    line: u32,
    /// Where in that line its label starts.
    indent: u32,
    /// Its label (an id of [`Names::labels`]).
    label: u32,
    /// Where its label ends.
    label_end: u32,
    /// Where the line ends (blanks after it left out).
    end: u32,
    /// Its `?` and `!` jumps.
    jumps: [Jump; 2],
    /// The name its command uses (an id of [`Names::pieces`]) or
    /// [`NONE`], where it starts, and how it is used.
    name: u32,
    name_at: u32,
    usage: Usage,
    /// Whether the command can fail (and so take its `!` jump).
    can_fail: bool,
    /// Where text that ends in what looks like a jump has its `?` or `!`,
    /// or [`NONE`].
    text_jump: u32,
}

/// A jump of a line: its target (a label id, [`INPUT`], or [`NONE`] for
/// no jump) and its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Jump {
    target: u32,
    at: u32,
    end: u32,
}

/// How a command uses its piece name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Usage {
    /// It has none.
    None,
    /// `NAME=Tr,c`.
    Placed,
    /// `%NAME`.
    Counted,
    /// `NAME;dr,dc`.
    Moved,
    /// `NAME,r,c` (which a move from a square missing a number looks
    /// like when its name is made of digits).
    MovedTo,
}

/// The labels and piece names of a program, interned.
#[derive(Clone, Debug, Default)]
struct Names {
    labels: Interner<i64>,
    pieces: Interner<String>,
}

impl Names {
    /// The facts of `line`, source line `index` (0-based) whose label is
    /// `indent` bytes from the line's start.
    fn facts(&mut self, line: &Line, index: u32, indent: u32) -> Facts {
        let base = line.label.span.start;
        let offset = |at: usize| u32::try_from(at.saturating_sub(base)).unwrap_or(NONE);
        let mut jump = |jump: &Option<crate::source::Spanned<Target>>| match jump {
            None => Jump {
                target: NONE,
                at: 0,
                end: 0,
            },
            Some(jump) => Jump {
                target: match jump.value {
                    Target::Label(label) => self.labels.id(&label),
                    Target::Input => INPUT,
                },
                at: offset(jump.span.start),
                end: offset(jump.span.end),
            },
        };
        let jumps = [jump(&line.on_success), jump(&line.on_failure)];
        let (name, usage) = match &line.command {
            Command::Place { name, .. } => (Some(name), Usage::Placed),
            Command::Count { name } => (Some(name), Usage::Counted),
            Command::MoveNamedTo { name, .. } => (Some(name), Usage::MovedTo),
            Command::MoveNamedBy { name, .. } => (Some(name), Usage::Moved),
            _ => (None, Usage::None),
        };
        // `"TEXT?3`: a text line takes no jumps, so this prints `?3`.
        let text_jump = match &line.command {
            Command::Print { text } => {
                let body = text.value.trim_end_matches(|c: char| c.is_ascii_digit());
                let digits = text.value.len() - body.len();
                if digits > 0 && (body.ends_with('?') || body.ends_with('!')) {
                    offset(text.span.end - digits - 1)
                } else {
                    NONE
                }
            }
            _ => NONE,
        };
        Facts {
            line: index,
            indent,
            label: self.labels.id(&line.label.value),
            label_end: offset(line.label.span.end),
            end: offset(line.span.end),
            jumps,
            name: name.map_or(NONE, |name| self.pieces.id(name.value.as_str())),
            name_at: name.map_or(0, |name| offset(name.span.start)),
            usage,
            can_fail: line.command.can_fail(),
            text_jump,
        }
    }
}

/// Where the checks find what [`Facts`] leave out.
trait Located {
    /// Where numbered line `index` starts: the first byte of its label.
    fn start(&self, index: usize) -> usize;

    /// The text of `span`, in numbered line `index` (asked only for text
    /// that looks like a jump).
    fn text(&self, index: usize, span: Span) -> &str;
}

impl Located for Program {
    fn start(&self, index: usize) -> usize {
        self.lines[index].label.span.start
    }

    fn text(&self, index: usize, span: Span) -> &str {
        match &self.lines[index].command {
            Command::Print { text } => {
                let from = span.start.saturating_sub(text.span.start);
                let to = span.end.saturating_sub(text.span.start);
                text.value.get(from..to).unwrap_or_default()
            }
            _ => "",
        }
    }
}

/// The diagnostics of the numbered lines `facts` (with `names`, found in
/// `located`); `defined`, if given, is every label defined, sorted (else
/// it is found when a missing label's nearest one is asked for).
fn diagnose(
    facts: &[Facts],
    names: &Names,
    located: &impl Located,
    defined: Option<&[i64]>,
) -> Diagnostics {
    let mut diagnosis = Diagnosis {
        facts,
        names,
        located,
        diagnostics: Diagnostics::default(),
        first: vec![NONE; names.labels.values().len()],
        placed: vec![false; names.pieces.values().len()],
        reported: vec![false; names.pieces.values().len()],
        given_defined: defined,
        defined: None,
        fresh_label: None,
    };
    diagnosis.labels_defined_twice();
    for index in 0..facts.len() {
        diagnosis.jumps_to_missing_lines(index);
        diagnosis.text_like_jump(index);
        diagnosis.name_never_placed(index);
    }
    let mut diagnostics = diagnosis.diagnostics;
    if !diagnostics.has_errors() {
        warn_unreachable(facts, &diagnosis.first, located, &mut diagnostics);
    }
    diagnostics.sort();
    diagnostics
}

/// What [`diagnose`] finds, step by step, and what the steps share.
struct Diagnosis<'a, L> {
    facts: &'a [Facts],
    names: &'a Names,
    located: &'a L,
    diagnostics: Diagnostics,
    /// Each label's first line (an index of `facts`, or [`NONE`]).
    first: Vec<u32>,
    /// Which names are placed.
    placed: Vec<bool>,
    /// Which names have been warned of.
    reported: Vec<bool>,
    /// Every label defined, sorted, if the caller knows them.
    given_defined: Option<&'a [i64]>,
    /// Every label defined, sorted, once found (if not given).
    defined: Option<Vec<i64>>,
    /// A label no line has and no jump names, once one is wanted.
    fresh_label: Option<i64>,
}

impl<L: Located> Diagnosis<'_, L> {
    /// Finds each label's first line and which names are placed; an
    /// error for each label defined again.
    fn labels_defined_twice(&mut self) {
        let (labels, facts, located) = (self.names.labels.values(), self.facts, self.located);
        let label_span = |index: usize| {
            let start = located.start(index);
            start..start + facts[index].label_end as usize
        };
        for (index, line) in facts.iter().enumerate() {
            let defined = self.first[line.label as usize];
            if defined == NONE {
                self.first[line.label as usize] = u32::try_from(index).unwrap_or(NONE);
            } else {
                let span = label_span(index);
                self.diagnostics.push_with(Severity::Error, span.start, || {
                    Diagnostic::error(
                        Code::IcpLabelTwice,
                        format!("label {} is defined twice", labels[line.label as usize]),
                        span,
                    )
                    .with_label("defined again here")
                    .with_secondary(label_span(defined as usize), "first defined here")
                    .with_help(
                        "labels are jump targets and must be unique; renumber one of the lines",
                    )
                });
            }
            if line.usage == Usage::Placed {
                self.placed[line.name as usize] = true;
            }
        }
    }

    /// An error for each jump of line `index` to a label no line has.
    fn jumps_to_missing_lines(&mut self, index: usize) {
        let line = &self.facts[index];
        for jump in &line.jumps {
            if jump.target >= INPUT || self.first[jump.target as usize] != NONE {
                continue;
            }
            let start = self.located.start(index);
            let span = start + jump.at as usize..start + jump.end as usize;
            let (labels, first) = (self.names.labels.values(), &self.first);
            let (given, sorted) = (self.given_defined, &mut self.defined);
            self.diagnostics.push_with(Severity::Error, span.start, || {
                let label = labels[jump.target as usize];
                let diagnostic = Diagnostic::error(
                    Code::IcpNoSuchLabel,
                    format!("no line is labelled {label}"),
                    span,
                )
                .with_label("jump to a missing line");
                let defined = given.unwrap_or_else(|| {
                    sorted.get_or_insert_with(|| {
                        let mut sorted: Vec<i64> = (first.iter().zip(labels))
                            .filter(|(&first, _)| first != NONE)
                            .map(|(_, &label)| label)
                            .collect();
                        sorted.sort_unstable();
                        sorted
                    })
                });
                match nearest(defined, label) {
                    Some(nearest) => {
                        diagnostic.with_help(format!("the nearest label is {nearest}"))
                    }
                    None => diagnostic,
                }
            });
        }
    }

    /// A warning if line `index` is text that ends in what looks like a
    /// jump.
    fn text_like_jump(&mut self, index: usize) {
        let line = &self.facts[index];
        if line.text_jump == NONE {
            return;
        }
        let start = self.located.start(index);
        let span = start + line.text_jump as usize..start + line.end as usize;
        let (facts, labels, located) = (self.facts, self.names.labels.values(), self.located);
        let fresh_label = &mut self.fresh_label;
        self.diagnostics
            .push_with(Severity::Warning, span.start, || {
                let jump = located.text(index, span.clone());
                // The jump on a line of its own, under a label no line
                // has and no jump names.
                let fresh = *fresh_label.get_or_insert_with(|| {
                    let used = facts.iter().flat_map(|line| {
                        let targets = line.jumps.iter().map(|jump| jump.target);
                        std::iter::once(line.label).chain(targets.filter(|&t| t < INPUT))
                    });
                    (used.map(|id| labels[id as usize]).max())
                        .map_or(1, |max| max.saturating_add(1))
                });
                Diagnostic::warning(
                    Code::IcpTextLikeJump,
                    "text ends in what looks like a jump",
                    span.clone(),
                )
                .with_label(format!("`{jump}` is printed, not a jump"))
                .with_help(format!(
                    "a text line takes no jumps; did you mean a jump? put `^{jump}` on the next line"
                ))
                .with_suggestion(span, format!("\n{fresh}. ^{jump}"))
            });
    }

    /// A warning if line `index` is the first to move or count a piece
    /// that is never placed.
    fn name_never_placed(&mut self, index: usize) {
        let line = &self.facts[index];
        let how = match line.usage {
            Usage::Counted => "counted",
            Usage::Moved | Usage::MovedTo => "moved",
            Usage::None | Usage::Placed => return,
        };
        let name = line.name as usize;
        if self.placed[name] || self.reported[name] {
            return;
        }
        self.reported[name] = true;
        let pieces = self.names.pieces.values();
        let name = pieces[name].as_str();
        let at = self.located.start(index) + line.name_at as usize;
        let span = at..at + name.len();
        if line.usage == Usage::MovedTo && name.bytes().all(|b| b.is_ascii_digit()) {
            self.diagnostics.push_with(Severity::Warning, at, || {
                Diagnostic::warning(
                    Code::IcpNeverPlaced,
                    format!("`{name}` is read as a piece's name here, and no piece called `{name}` is ever placed"),
                    span,
                )
                .with_label("the name of the piece to move")
                .with_help(
                    "a move from a square takes four numbers, `r1,c1,r2,c2`; with three, the first names the piece to move",
                )
            });
            return;
        }
        let placed = &self.placed;
        self.diagnostics.push_with(Severity::Warning, at, || {
            let placed = (pieces.iter().zip(placed))
                .filter(|(_, &placed)| placed)
                .map(|(name, _)| name.as_str());
            let warning = Diagnostic::warning(
                Code::IcpNeverPlaced,
                format!("no piece called `{name}` is ever placed"),
                span.clone(),
            )
            .with_label(format!("{how} here, but never placed"));
            match crate::diag::did_you_mean(name, placed) {
                // Said only when case is the whole difference.
                Some(close) if close.to_lowercase() == name.to_lowercase() => warning
                    .with_help(format!(
                        "did you mean `{close}`? (names are case-sensitive)"
                    ))
                    .with_suggestion(span, close),
                Some(close) => warning
                    .with_help(format!("did you mean `{close}`?"))
                    .with_suggestion(span, close),
                None => warning.with_help(format!("place one with `{name}=Tr,c`")),
            }
        });
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

/// Warns of each line no path from the first line reaches (unless a
/// jump read from the input can reach any line); `first` is each label's
/// line.
fn warn_unreachable(
    facts: &[Facts],
    first: &[u32],
    located: &impl Located,
    diagnostics: &mut Diagnostics,
) {
    let count = facts.len();
    let mut reached = vec![false; count];
    let mut pending = vec![0];
    while let Some(index) = pending.pop() {
        if index >= count || reached[index] {
            continue;
        }
        reached[index] = true;
        let line = &facts[index];
        let taken = if line.can_fail { 2 } else { 1 };
        for jump in &line.jumps[..taken] {
            match jump.target {
                NONE => pending.push(index + 1),
                // A jump read from input can reach any line.
                INPUT => return,
                label => pending.extend(
                    (first.get(label as usize))
                        .filter(|&&at| at != NONE)
                        .map(|&at| at as usize),
                ),
            }
        }
    }
    for (index, line) in facts
        .iter()
        .enumerate()
        .filter(|&(index, _)| !reached[index])
    {
        let start = located.start(index);
        diagnostics.push_with(Severity::Warning, start, || {
            Diagnostic::warning(
                Code::IcpUnreachable,
                "this line can never execute",
                start..start + line.end as usize,
            )
            .with_label("unreachable from the first line")
        });
    }
}

/// A program's lines as the checks read them, kept for a document that
/// is being edited: [`Lines::edited`] re-reads only the lines an edit
/// changed, and [`Lines::diagnostics`] checks the facts kept.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// The numbered lines, in order.
    facts: Vec<Facts>,
    /// The lines that do not parse, in order: the source line (0-based)
    /// and where in it the error is.
    errors: Vec<(u32, u32)>,
    names: Names,
    /// How many lines define each label (by id).
    definitions: Vec<u32>,
    /// The labels defined, sorted (for the label nearest to a missing one).
    defined: Vec<i64>,
    /// How many source lines have been parsed.
    parsed: usize,
}

impl Lines {
    /// The lines of `source`.
    pub fn new(source: &Source) -> Lines {
        let mut lines = Lines::default();
        lines.edited(source, crate::lang::line_facts::all_lines(source));
        lines
    }

    /// How many source lines have been parsed since [`Lines::new`]: what
    /// an edit cost.
    pub fn parsed(&self) -> usize {
        self.parsed
    }

    /// Takes in an edit of the source (now `source`) that replaced the
    /// lines `edited` names.
    pub fn edited(&mut self, source: &Source, edited: LinesEdited) {
        let LinesEdited {
            first,
            removed,
            inserted,
        } = edited;
        let index = |line: usize| u32::try_from(line).unwrap_or(NONE);
        let (old_end, new_end) = (index(first + removed), index(first + inserted));
        let mut facts = Vec::new();
        let mut errors = Vec::new();
        for line in first..first + inserted {
            self.parsed += 1;
            let start = source.line_start(line).unwrap_or(0);
            match syntax::parse_line(source, line) {
                None => {}
                Some(Ok(parsed)) => {
                    let indent = parsed.label.span.start.saturating_sub(start);
                    let indent = u32::try_from(indent).unwrap_or(NONE);
                    facts.push(self.names.facts(&parsed, index(line), indent));
                }
                Some(Err(error)) => {
                    let at = u32::try_from(error.span.start.saturating_sub(start)).unwrap_or(NONE);
                    errors.push((index(line), at));
                }
            }
        }
        // The labels whose definitions change, and whether each was defined.
        let from_facts = self.facts.partition_point(|f| f.line < index(first));
        let (from, to) = (from_facts, self.facts.partition_point(|f| f.line < old_end));
        let mut changed: Vec<(u32, bool)> = (self.facts[from..to].iter().chain(&facts))
            .map(|f| (f.label, false))
            .collect();
        self.definitions.resize(self.names.labels.values().len(), 0);
        for (label, was) in &mut changed {
            *was = self.definitions[*label as usize] > 0;
        }
        for gone in &self.facts[from..to] {
            self.definitions[gone.label as usize] -= 1;
        }
        for new in &facts {
            self.definitions[new.label as usize] += 1;
        }
        let added = facts.len();
        self.facts.splice(from..to, facts);
        let from = self
            .errors
            .partition_point(|&(line, _)| line < index(first));
        let to = self.errors.partition_point(|&(line, _)| line < old_end);
        let added_errors = errors.len();
        self.errors.splice(from..to, errors);
        // The lines after the edit moved by as many lines as it added.
        if old_end != new_end {
            for moved in &mut self.facts[from_facts + added..] {
                moved.line = moved.line - old_end + new_end;
            }
            for (line, _) in &mut self.errors[from + added_errors..] {
                *line = *line - old_end + new_end;
            }
        }
        changed.sort_unstable();
        changed.dedup_by_key(|(label, _)| *label);
        let labels = self.names.labels.values();
        let (mut gone, mut new) = (Vec::new(), Vec::new());
        for (label, was) in changed {
            match (was, self.definitions[label as usize] > 0) {
                (true, false) => gone.push(labels[label as usize]),
                (false, true) => new.push(labels[label as usize]),
                _ => {}
            }
        }
        update_sorted(&mut self.defined, gone, new);
        // Labels and names no line has any more keep their ids; when they
        // outnumber the rest, the lines are read again.
        let live = 4 * (self.facts.len() + 1024);
        if self.names.labels.values().len() > live || self.names.pieces.values().len() > live {
            let parsed = self.parsed;
            *self = Lines::new(source);
            self.parsed += parsed;
        }
    }

    /// What checking `source`, whose lines these are, reports: every
    /// syntax error, else the checks' errors and warnings (as
    /// [`crate::check`] does: lowering an InfChessPro program adds none).
    pub fn diagnostics(&self, source: &Source) -> Diagnostics {
        if self.errors.is_empty() {
            let located = InSource {
                source,
                facts: &self.facts,
            };
            return diagnose(&self.facts, &self.names, &located, Some(&self.defined));
        }
        let mut diagnostics = Diagnostics::default();
        for &(line, at) in &self.errors {
            let line = line as usize;
            let start = source.line_start(line).unwrap_or(0) + at as usize;
            diagnostics.push_with(Severity::Error, start, || {
                match syntax::parse_line(source, line) {
                    Some(Err(error)) => error,
                    // Not so while the lines are the source's.
                    _ => {
                        Diagnostic::error(Code::IcpSyntax, "this line does not parse", start..start)
                    }
                }
            });
        }
        diagnostics
    }
}

/// Removes the labels `gone` from `sorted` and adds the labels `new` (in
/// it, none of them), keeping it sorted.
fn update_sorted(sorted: &mut Vec<i64>, mut gone: Vec<i64>, mut new: Vec<i64>) {
    // A few, one by one (an edit of a line); many, by sorting.
    if gone.len() + new.len() <= 64 {
        for label in gone {
            if let Ok(at) = sorted.binary_search(&label) {
                sorted.remove(at);
            }
        }
        for label in new {
            if let Err(at) = sorted.binary_search(&label) {
                sorted.insert(at, label);
            }
        }
        return;
    }
    gone.sort_unstable();
    let mut gone = gone.into_iter().peekable();
    sorted.retain(|&label| {
        while gone.next_if(|&next| next < label).is_some() {}
        gone.next_if_eq(&label).is_none()
    });
    new.sort_unstable();
    sorted.extend(new);
    sorted.sort_unstable();
}

/// The lines of a [`Lines`] found in their source.
struct InSource<'a> {
    source: &'a Source,
    facts: &'a [Facts],
}

impl Located for InSource<'_> {
    fn start(&self, index: usize) -> usize {
        let line = &self.facts[index];
        self.source.line_start(line.line as usize).unwrap_or(0) + line.indent as usize
    }

    fn text(&self, _: usize, span: Span) -> &str {
        self.source.text().get(span).unwrap_or_default()
    }
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
