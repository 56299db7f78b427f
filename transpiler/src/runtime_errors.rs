//! Runtime errors shown the way compile errors are: the failed command's
//! line with a caret under the command, its message, label and hint.
//!
//! Generated code keeps a [`SourceMap`] of the lines a runtime error can
//! name ([`source_map_tokens`]); the runtime fills an error's
//! [`chess2rs_runtime::Location`] from it and renders it itself (an
//! executable has no diagnostics crate). Where the source is at hand — the
//! CLI's `interpret`, the tests — the error becomes a [`Diagnostic`] for
//! the one renderer ([`runtime_diagnostic`]); both put the caret in the
//! same place: the span of the failed command, which lowering keeps on
//! the program's IR ([`CommandSite`], [`crate::lang::BackEnd::error_sites`]).
//!
//! [`SourceMap`]: chess2rs_runtime::SourceMap

use chess2rs_runtime::RuntimeError;
use proc_macro2::{Literal, TokenStream};
use quote::{quote, ToTokens};

use crate::diag::{Code, CutLine, Diagnostic, Diagnostics};
use crate::source::{Source, Span};
use crate::split::Items;

/// A command a run-time error can name: its 1-based source line and, for
/// a line that holds several commands (a game's annotated moves), the
/// 1-based character column where it starts; column `0` is the line's one
/// command. Generated code and the runtime pass the same two numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ErrorSite {
    /// The 1-based line.
    pub line: u32,
    /// The 1-based column of the command, or `0` for the line's command.
    pub column: u32,
}

impl ErrorSite {
    /// The one command of line `line`.
    pub fn line(line: u32) -> Self {
        ErrorSite { line, column: 0 }
    }

    /// Where `err` happened, if it names a line.
    pub fn of(err: &RuntimeError) -> Option<Self> {
        Some(ErrorSite {
            line: err.line?,
            column: err.column.unwrap_or(0),
        })
    }
}

/// A command a run-time error can name, and where it is in the source:
/// what lowering keeps of each command's position ([`crate::lang::BackEnd::error_sites`]).
/// A line's command is the line without its comment and surrounding blanks,
/// and for InfChessPro without its label (`10. `); a game's rule is its
/// first annotated move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommandSite {
    /// What the generated code and the runtime call it.
    pub site: ErrorSite,
    /// Its bytes in the source.
    pub span: Span,
}

impl CommandSite {
    /// The one command of line `line`, at `span`.
    pub fn line(line: u32, span: Span) -> Self {
        CommandSite {
            site: ErrorSite::line(line),
            span,
        }
    }
}

/// A program's commands, sorted by site (one per site): where each
/// run-time error points.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Commands(Vec<CommandSite>);

impl Commands {
    /// The commands of `sites` (any order, repeats kept once).
    pub fn new(mut sites: Vec<CommandSite>) -> Self {
        sites.sort_by_key(|command| command.site);
        sites.dedup_by_key(|command| command.site);
        Commands(sites)
    }

    /// Where the command at `site` is.
    pub fn span(&self, site: ErrorSite) -> Option<Span> {
        let at = self
            .0
            .binary_search_by_key(&site, |command| command.site)
            .ok()?;
        Some(self.0[at].span.clone())
    }

    /// Every command, sorted by site.
    pub fn as_slice(&self) -> &[CommandSite] {
        &self.0
    }
}

/// `err` as a diagnostic on its command, if it names one of `commands`
/// and has a code (an internal error or a failed read or write has none:
/// the runtime renders it as it is).
pub fn runtime_diagnostic(err: &RuntimeError, commands: &Commands) -> Option<Diagnostic> {
    let span = commands.span(ErrorSite::of(err)?)?;
    let code = Code::parse(err.code()?)?;
    let mut diagnostic = Diagnostic::error(code, err.message(), span).with_label(err.label());
    if let Some(help) = err.help() {
        diagnostic = diagnostic.with_help(help);
    }
    Some(diagnostic)
}

/// `err` rendered for a user who has `source` (whose program has
/// `commands`): as a diagnostic when it names a command, else `error: ...`
/// with what it knows.
pub fn render_runtime_error(err: &RuntimeError, source: &Source, commands: &Commands) -> String {
    match runtime_diagnostic(err, commands) {
        Some(diagnostic) => Diagnostics::from(diagnostic).render(source),
        None => err.render(),
    }
}

/// `err` as `format` asks: for `human` as [`render_runtime_error`]; for
/// `short` and `json` as a compiled program prints it (located by the
/// same table its code would carry), so that every tier of `run` prints
/// the same object.
pub fn render_runtime_error_as(
    err: &RuntimeError,
    source: &Source,
    commands: &Commands,
    format: chess2rs_runtime::MessageFormat,
) -> String {
    if format == chess2rs_runtime::MessageFormat::Human {
        return render_runtime_error(err, source, commands);
    }
    let command = ErrorSite::of(err).and_then(|site| {
        Some(CommandSite {
            site,
            span: commands.span(site)?,
        })
    });
    let located = match command {
        Some(command) => {
            let table = source_map_table(source, &[command]);
            let map = chess2rs_runtime::SourceMap {
                file: source.name(),
                lines: &table,
            };
            err.clone().located(&map)
        }
        None => err.clone(),
    };
    located.render_as(format)
}

/// The table of a [`chess2rs_runtime::SourceMap`] for `commands` (sorted
/// by site), one line each: `LINE COLUMN WIDTH CARET TEXT` — where the
/// command starts (in characters), how wide the caret under it is and
/// where the caret starts in TEXT, and TEXT: the source line, or the part
/// of a long line around the command, cut as diagnostics cut it
/// ([`CutLine`]), so that a compiled program shows an error as `interpret`
/// does. Its size grows with the number of commands, not with the length
/// of the lines that hold them.
pub fn source_map_table(source: &Source, commands: &[CommandSite]) -> String {
    let mut table = String::new();
    for same_line in commands.chunk_by(|a, b| a.site.line == b.site.line) {
        let line = same_line[0].site.line;
        let Some((start, text)) = source.line(line) else {
            continue;
        };
        // Characters before each command, counted in one walk of the line.
        let (mut counted_to, mut chars_before) = (0usize, 0usize);
        for command in same_line {
            let span = command.span.start.saturating_sub(start).min(text.len())
                ..command.span.end.saturating_sub(start).min(text.len());
            if span.start < counted_to || !text.is_char_boundary(span.start) {
                (counted_to, chars_before) = (0, 0);
            }
            let Some(before) = text.get(counted_to..span.start) else {
                continue;
            };
            chars_before += before.chars().count();
            counted_to = span.start;
            let column = chars_before + 1;
            let (shown, caret, width) = match CutLine::around(text, span.clone()) {
                Some(cut) => terminal_layout(&cut.text, cut.span),
                None => terminal_layout(text, span),
            };
            table.push_str(&format!("{line} {column} {width} {caret} {shown}\n"));
        }
    }
    table
}

/// Spaces a tab advances to, as the diagnostics renderer expands it.
const TAB_WIDTH: usize = 4;

/// `text` as the diagnostics renderer lays it out on a terminal, and where
/// `span` (bytes of `text`) falls in it: the text with each tab expanded to
/// the next multiple of [`TAB_WIDTH`] columns, the columns before the span
/// and the columns it covers (at least 1). Characters take their display
/// width (two for most emoji and CJK, none for control characters), as
/// codespan-reporting counts them, so that the runtime's plain rendering
/// puts the caret where `interpret`'s does.
fn terminal_layout(text: &str, span: Span) -> (String, usize, usize) {
    use unicode_width::UnicodeWidthChar;
    let (mut shown, mut columns) = (String::with_capacity(text.len()), 0usize);
    // An empty span is marked under the character after it, as wide.
    let (mut caret, mut end, mut next_width) = (0, 0, 1);
    for (at, c) in text.char_indices() {
        let width = match c {
            '\t' => TAB_WIDTH - columns % TAB_WIDTH,
            c => c.width().unwrap_or(0),
        };
        if at == span.start {
            (caret, next_width) = (columns, width);
        }
        if at == span.end {
            end = columns;
        }
        if c == '\t' {
            shown.extend(std::iter::repeat_n(' ', width));
        } else {
            shown.push(c);
        }
        columns += width;
    }
    if span.start >= text.len() {
        caret = columns;
    }
    if span.end >= text.len() {
        end = columns;
    }
    let width = if span.is_empty() {
        next_width
    } else {
        end.saturating_sub(caret)
    };
    (shown, caret, width.max(1))
}

/// The constant `SOURCE` of an entry function: the file name and the
/// [`source_map_table`] of `sites` as one string literal whose lines are
/// the program's, so it costs the compiler one token whatever the
/// program's size.
/// The literal comes from `texts` ([`Items::text`]).
pub fn source_map_tokens(
    source: &Source,
    commands: &Commands,
    texts: &mut dyn Items,
) -> TokenStream {
    let table = texts.text(&source_map_table(source, commands.as_slice()));
    let file = source.name();
    quote! {
        /// Where runtime errors point: each command that can fail, as `LINE
        /// COLUMN WIDTH CARET TEXT` (where it starts, how wide the caret
        /// under it is and where that starts in the text shown).
        const SOURCE: rt::SourceMap<'static> = rt::SourceMap {
            file: #file,
            lines: #table,
        };
    }
}

/// A string literal of `text` that keeps its line breaks as real ones, so
/// that the generated file shows the lines as they are.
pub(crate) fn multiline_literal(text: &str) -> TokenStream {
    multiline_quoted(text)
        .parse()
        .unwrap_or_else(|_| Literal::string(text).into_token_stream())
}

/// The text of [`multiline_literal`]'s literal, quotes included.
pub(crate) fn multiline_quoted(text: &str) -> String {
    let mut quoted = String::with_capacity(text.len() + 2);
    quoted.push('"');
    for c in text.chars() {
        match c {
            '\\' => quoted.push_str("\\\\"),
            '"' => quoted.push_str("\\\""),
            '\n' => quoted.push('\n'),
            c if c.is_control() => quoted.push_str(&c.escape_default().to_string()),
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Language;
    use chess2rs_runtime::{ErrorKind, SourceMap};

    /// The commands of `text`, a program of `language` that checks.
    fn commands_of(language: Language, text: &str) -> (Source, Commands) {
        let source = Source::new("t", text);
        let commands = crate::check(&source, language)
            .unwrap_or_else(|errors| panic!("{}", errors.render(&source)))
            .program
            .error_sites();
        (source, commands)
    }

    /// The text of every command of `text`, by site.
    fn command_texts(language: Language, text: &str) -> Vec<String> {
        let (source, commands) = commands_of(language, text);
        commands
            .as_slice()
            .iter()
            .map(|command| source.text()[command.span.clone()].to_string())
            .collect()
    }

    /// A site on line 1 at `span` of `source` (its column counted).
    fn at(source: &Source, span: Span) -> CommandSite {
        let (line, column) = source.line_col(span.start);
        CommandSite {
            site: ErrorSite { line, column },
            span,
        }
    }

    #[test]
    fn lowering_keeps_each_command_without_label_comment_or_blanks() {
        assert_eq!(
            command_texts(Language::InfChessPro, "10. a=K0,0!40\n  3.   ^  \n40. %a\n"),
            ["a=K0,0!40", "^", "%a"]
        );
        assert_eq!(
            command_texts(Language::ChessCode, "a1#\n  Ra1 | sum\nRb1  | b1 read\n"),
            ["a1#", "Ra1", "Rb1"]
        );
        let board = "(k):\n(i 3): (1,0)\n+--+--+\n|kB|  |\n+--+--+\n|iW|kW|\n+--+--+\n";
        assert_eq!(
            command_texts(
                Language::Finvara,
                &format!("{board}Turn 1 W: i a1 -> b1 # falls\n  Turn 1 B: k a2 -> b2\n")
            ),
            ["Turn 1 W: i a1 -> b1", "Turn 1 B: k a2 -> b2"]
        );
        assert_eq!(
            command_texts(Language::Btm, "10!  # a rule\n10!\n10!\n10!\n10!\n"),
            ["10!"]
        );
    }

    #[test]
    fn a_games_rules_are_their_first_annotated_moves() {
        let game = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../golden/chessoteric/chessoteric-hello.pgn"
        ))
        .unwrap();
        let (source, commands) = commands_of(Language::Chessoteric, &game);
        assert!(!commands.as_slice().is_empty());
        for command in commands.as_slice() {
            let word = &source.text()[command.span.clone()];
            assert!(word.ends_with(['!', '?']), "{word:?}");
            assert!(!word.contains(char::is_whitespace), "{word:?}");
            assert_eq!(
                source.line_col(command.span.start),
                (command.site.line, command.site.column)
            );
        }
    }

    #[test]
    fn the_source_map_is_one_literal_with_the_lines_as_they_are() {
        let (source, commands) = commands_of(Language::InfChessPro, "1. \"say \\ \"hi\"\n2. ^\n");
        let tokens = source_map_tokens(&source, &commands, &mut Vec::new());
        let item: syn::ItemConst = syn::parse2(tokens.clone()).unwrap();
        let syn::Expr::Struct(map) = *item.expr else {
            panic!("not a struct: {tokens}");
        };
        let lines = map.fields.iter().find_map(|field| match &field.expr {
            syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) if text.value().contains(' ') => Some(text.value()),
            _ => None,
        });
        assert_eq!(
            lines.as_deref(),
            Some("1 4 11 3 1. \"say \\ \"hi\"\n2 4 1 3 2. ^\n")
        );
        // The literal keeps real line breaks.
        assert!(tokens.to_string().contains("\"hi\\\"\n2 4 1"), "{tokens}");
    }

    #[test]
    fn commands_of_one_line_are_placed_by_their_columns() {
        let line = "1. e4! e5 2. Nf3?? {x} Nc6!";
        let source = Source::new("g.pgn", format!("{line}\n"));
        let commands: Vec<CommandSite> = ["e4!", "Nf3??", "Nc6!"]
            .map(|word| {
                let start = line.find(word).unwrap();
                at(&source, start..start + word.len())
            })
            .to_vec();
        assert_eq!(
            source_map_table(&source, &commands),
            "1 4 3 3 1. e4! e5 2. Nf3?? {x} Nc6!\n\
             1 14 5 13 1. e4! e5 2. Nf3?? {x} Nc6!\n\
             1 24 4 23 1. e4! e5 2. Nf3?? {x} Nc6!\n"
        );
    }

    #[test]
    fn a_long_line_is_kept_around_each_command_only() {
        let moves: String = (1..=400).map(|n| format!("{n}. a3 a6 ")).collect();
        let source = Source::new("long.pgn", &moves);
        let commands: Vec<CommandSite> = (0..400)
            .map(|n| {
                let start = moves.find(&format!("{}. a3", n + 1)).unwrap();
                at(&source, start..start + 2)
            })
            .collect();
        let table = source_map_table(&source, &commands);
        assert_eq!(table.lines().count(), 400);
        assert!(table.len() < 400 * 200, "{} bytes", table.len());
    }

    /// Errors rendered by the runtime from the table and by the
    /// diagnostics crate from the source are the same text.
    fn assert_renderers_agree(
        source: &Source,
        commands: &Commands,
        errors: impl Fn() -> Vec<RuntimeError>,
    ) {
        let table = source_map_table(source, commands.as_slice());
        let map = SourceMap {
            file: source.name(),
            lines: &table,
        };
        for (located, plain) in errors().into_iter().zip(errors()) {
            let by_runtime = located.located(&map).render();
            let by_diagnostics = render_runtime_error(&plain, source, commands);
            assert_eq!(by_runtime, by_diagnostics);
        }
    }

    /// Errors at each of `commands` (the same site more than once too).
    fn errors_at(commands: &Commands, kind: impl Fn() -> ErrorKind) -> Vec<RuntimeError> {
        commands
            .as_slice()
            .iter()
            .map(|command| {
                RuntimeError::at(kind(), command.site.line).at_column(command.site.column)
            })
            .collect()
    }

    #[test]
    fn both_renderers_agree_on_long_lines_and_columns() {
        let moves: String = (1..=60).map(|n| format!("{n}. a3 a6! ")).collect();
        let source = Source::new("long.pgn", format!("{moves}\n"));
        let commands = Commands::new(
            [1, 30, 60]
                .map(|n: usize| {
                    let start =
                        moves.find(&format!("{n}. a3")).unwrap_or(0) + format!("{n}. ").len();
                    at(&source, start..start + 2)
                })
                .to_vec(),
        );
        assert_renderers_agree(&source, &commands, || {
            errors_at(&commands, || ErrorKind::StepLimit { limit: 3 })
        });
    }

    proptest::proptest! {
        /// Any spans, even outside the source or inside a character, make a
        /// table without panicking; and for each word of any text (long
        /// lines, characters of several bytes) both renderers give the same
        /// text.
        #[test]
        fn any_command_renders_the_same_both_ways(
            text in "([a-zé😀!?.\t]{1,9}[ \t]{1,3}){0,120}(\n([a-zé!?.]{1,9} ){0,40}){0,3}",
            odd in proptest::collection::vec((0u32..6, 0u32..900, 0usize..2000, 0usize..40), 0..6),
            picks in proptest::collection::vec(0usize..1000, 1..6),
        ) {
            let source = Source::new("g.pgn", text.clone());
            let odd: Vec<CommandSite> = odd
                .into_iter()
                .map(|(line, column, start, length)| CommandSite {
                    site: ErrorSite { line, column },
                    span: start..start + length,
                })
                .collect();
            let _ = source_map_table(&source, Commands::new(odd).as_slice());
            // Every word: a run of non-blanks after a blank.
            let mut words = Vec::new();
            let mut start = None;
            for (at, c) in text.char_indices().chain([(text.len(), ' ')]) {
                match (start, c.is_whitespace()) {
                    (None, false) => start = Some(at),
                    (Some(from), true) => {
                        words.push(from..at);
                        start = None;
                    }
                    _ => {}
                }
            }
            if words.is_empty() {
                return Ok(());
            }
            let commands = Commands::new(
                picks.iter().map(|&i| at(&source, words[i % words.len()].clone())).collect(),
            );
            assert_renderers_agree(&source, &commands, || {
                errors_at(&commands, || ErrorKind::InputLineMissing)
            });
        }
    }

    proptest::proptest! {
        /// The same for a command per line, anywhere in its line: labels,
        /// comments, tabs, wide characters and long lines.
        #[test]
        fn any_line_renders_the_same_both_ways(
            lines in proptest::collection::vec("[ \t]{0,2}(-?[0-9]{1,3}\\.)?[a-z😀é|#;,=\t ]{0,300}", 1..5),
            cuts in proptest::collection::vec((0usize..400, 0usize..400), 5),
        ) {
            let source = Source::new("p", lines.join("\n"));
            let commands = Commands::new(
                (1u32..)
                    .zip(source.lines())
                    .zip(&cuts)
                    .map(|((line, (start, text)), &(a, b))| {
                        let bounds: Vec<usize> =
                            text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
                        let (a, b) = (bounds[a % bounds.len()], bounds[b % bounds.len()]);
                        CommandSite::line(line, start + a.min(b)..start + a.max(b))
                    })
                    .collect(),
            );
            assert_renderers_agree(&source, &commands, || {
                errors_at(&commands, || ErrorKind::InputEnded)
            });
        }
    }

    #[test]
    fn both_renderers_agree() {
        let text = "1. ^\n2. a=R0,*  \n\n\n\n\n\n\n\n\n\n12.  \"x\n";
        let (source, commands) = commands_of(Language::InfChessPro, text);
        assert_renderers_agree(&source, &commands, || {
            vec![
                RuntimeError::at(
                    ErrorKind::InputNotANumber {
                        found: "two".into(),
                    },
                    2,
                ),
                RuntimeError::at(ErrorKind::InputEnded, 2),
                RuntimeError::at(ErrorKind::StepLimit { limit: 3 }, 12),
                RuntimeError::at(
                    ErrorKind::Other {
                        message: "no hint".into(),
                        code: Some("E0608"),
                    },
                    12,
                ),
            ]
        });
    }
}
