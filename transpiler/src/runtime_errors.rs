//! Runtime errors shown the way compile errors are: the failed command's
//! line with a caret under the command, its message, label and hint.
//!
//! Generated code keeps a [`SourceMap`] of the lines a runtime error can
//! name ([`source_map_tokens`]); the runtime fills an error's
//! [`chess2rs_runtime::Location`] from it and renders it itself (an
//! executable has no diagnostics crate). Where the source is at hand — the
//! CLI's `interpret`, the tests — the error becomes a [`Diagnostic`] for
//! the one renderer ([`runtime_diagnostic`]); both put the caret in the
//! same place, found by [`command_span`].
//!
//! [`SourceMap`]: chess2rs_runtime::SourceMap

use chess2rs_runtime::RuntimeError;
use proc_macro2::{Literal, TokenStream};
use quote::{quote, ToTokens};

use crate::diag::{CutLine, Diagnostic, Diagnostics};
use crate::language::Language;
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

    /// The one command of each of `lines`.
    pub fn lines(lines: impl IntoIterator<Item = u32>) -> Vec<Self> {
        lines.into_iter().map(ErrorSite::line).collect()
    }

    /// Where `err` happened, if it names a line.
    pub fn of(err: &RuntimeError) -> Option<Self> {
        Some(ErrorSite {
            line: err.line?,
            column: err.column.unwrap_or(0),
        })
    }
}

/// The command at `site`: its byte span in the source. A line's command is
/// the line without its comment and surrounding blanks, and for InfChessPro
/// without its label (`10. `); a command at a column is the word there (a
/// game's annotated move, up to a blank or bracket).
pub fn command_span(source: &Source, language: Language, site: ErrorSite) -> Option<Span> {
    let (start, text) = source.line(site.line)?;
    let span = commands_in_line(language, text, &[site.column]).pop()??;
    Some(start + span.start..start + span.end)
}

/// The byte spans in `text` (one line) of the commands at `columns`
/// (ascending, as in [`ErrorSite::column`]), found in one walk over the
/// line however many columns it holds.
fn commands_in_line(language: Language, text: &str, columns: &[u32]) -> Vec<Option<Span>> {
    let mut chars = text.char_indices().enumerate().peekable();
    columns
        .iter()
        .map(|&column| {
            if column == 0 {
                return Some(line_command(language, text));
            }
            let wanted = column as usize - 1;
            while chars.next_if(|&(index, _)| index < wanted).is_some() {}
            let &(index, (from, _)) = chars.peek()?;
            if index != wanted {
                return None;
            }
            let word = &text[from..];
            let end = word
                .find(|c: char| c.is_whitespace() || "{}()[];".contains(c))
                .filter(|&end| end > 0)
                .unwrap_or(word.len());
            Some(from..from + end)
        })
        .collect()
}

/// The command of a line that holds one, in bytes of `text`: see
/// [`command_span`].
fn line_command(language: Language, text: &str) -> Span {
    let code = match language {
        Language::ChessCode => text.split('|').next().unwrap_or(text),
        Language::Finvara | Language::Btm => text.split('#').next().unwrap_or(text),
        Language::InfChessPro | Language::Chessoteric => text,
    };
    let code = code.trim_end();
    let mut from = code.len() - code.trim_start().len();
    if language == Language::InfChessPro {
        // Skip the label: an integer and a dot.
        let rest = &code[from..];
        let unsigned = rest.trim_start_matches(['-', '+']);
        let digits = unsigned.len()
            - unsigned
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        if digits > 0 && unsigned[digits..].starts_with('.') {
            let after = from + (rest.len() - unsigned.len()) + digits + 1;
            let command = &code[after..];
            if !command.trim().is_empty() {
                from = after + (command.len() - command.trim_start().len());
            }
        }
    }
    from..code.len().max(from)
}

/// `err` as a diagnostic on its command, if it names a command of `source`.
pub fn runtime_diagnostic(
    err: &RuntimeError,
    source: &Source,
    language: Language,
) -> Option<Diagnostic> {
    let span = command_span(source, language, ErrorSite::of(err)?)?;
    let mut diagnostic = Diagnostic::error(err.message(), span).with_label(err.label());
    if let Some(help) = err.help() {
        diagnostic = diagnostic.with_help(help);
    }
    Some(diagnostic)
}

/// `err` rendered for a user who has `source`: as a diagnostic when it
/// names a command, else `error: ...` with what it knows.
pub fn render_runtime_error(err: &RuntimeError, source: &Source, language: Language) -> String {
    match runtime_diagnostic(err, source, language) {
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
    language: Language,
    format: chess2rs_runtime::MessageFormat,
) -> String {
    if format == chess2rs_runtime::MessageFormat::Human {
        return render_runtime_error(err, source, language);
    }
    let located = match ErrorSite::of(err) {
        Some(site) => {
            let table = source_map_table(source, language, &[site]);
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

/// The table of a [`chess2rs_runtime::SourceMap`] for `sites`, one line
/// each: `LINE COLUMN WIDTH CARET TEXT` — where the command starts (in
/// characters), how wide the caret under it is, where the caret starts in
/// TEXT, and TEXT: the source line, or the part of a long line around the
/// command, cut as diagnostics cut it ([`CutLine`]), so that a compiled
/// program shows an error as `interpret` does. Its size grows with the
/// number of sites, not with the length of the lines that hold them.
pub fn source_map_table(source: &Source, language: Language, sites: &[ErrorSite]) -> String {
    let mut sites = sites.to_vec();
    sites.sort_unstable();
    sites.dedup();
    let mut table = String::new();
    for same_line in sites.chunk_by(|a, b| a.line == b.line) {
        let line = same_line[0].line;
        let Some((_, text)) = source.line(line) else {
            continue;
        };
        let columns: Vec<u32> = same_line.iter().map(|site| site.column).collect();
        let spans = commands_in_line(language, text, &columns);
        // Characters before each span, counted in one walk of the line.
        let (mut counted_to, mut chars_before) = (0usize, 0usize);
        for span in spans.into_iter().flatten() {
            if span.start < counted_to {
                (counted_to, chars_before) = (0, 0);
            }
            chars_before += text[counted_to..span.start].chars().count();
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
    language: Language,
    sites: &[ErrorSite],
    texts: &mut dyn Items,
) -> TokenStream {
    let table = texts.text(&source_map_table(source, language, sites));
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
    use chess2rs_runtime::{ErrorKind, SourceMap};

    fn command(language: Language, text: &str) -> String {
        let source = Source::new("t", text);
        let span = command_span(&source, language, ErrorSite::line(1)).unwrap();
        source.text()[span].to_string()
    }

    #[test]
    fn the_command_is_the_line_without_label_comment_or_blanks() {
        assert_eq!(command(Language::InfChessPro, "10. a;0,-1!40"), "a;0,-1!40");
        assert_eq!(command(Language::InfChessPro, "  -3.   ^  "), "^");
        assert_eq!(command(Language::InfChessPro, "7."), "7.");
        assert_eq!(command(Language::ChessCode, "  Ra1 Rb2 | sum"), "Ra1 Rb2");
        assert_eq!(
            command(Language::Finvara, "Turn 1 W: i a1 -> b1 # falls"),
            "Turn 1 W: i a1 -> b1"
        );
        assert_eq!(command(Language::Btm, "1 0 1"), "1 0 1");
    }

    #[test]
    fn the_source_map_is_one_literal_with_the_lines_as_they_are() {
        let source = Source::new("q.icp", "1. \"say \\ \"hi\"\n2. ^\n");
        let sites = [ErrorSite::line(2), ErrorSite::line(1)];
        let tokens = source_map_tokens(&source, Language::InfChessPro, &sites, &mut Vec::new());
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
    fn a_column_names_one_word_of_a_line() {
        let source = Source::new("g.pgn", "1. e4! e5 2. Nf3?? {x} Nc6!\n");
        let word = |column| {
            let span = command_span(
                &source,
                Language::Chessoteric,
                ErrorSite { line: 1, column },
            )?;
            Some(source.text()[span].to_string())
        };
        assert_eq!(word(4).as_deref(), Some("e4!"));
        assert_eq!(word(14).as_deref(), Some("Nf3??"));
        assert_eq!(word(24).as_deref(), Some("Nc6!"));
        assert_eq!(word(99), None);
        let sites = [4, 24, 14].map(|column| ErrorSite { line: 1, column });
        assert_eq!(
            source_map_table(&source, Language::Chessoteric, &sites),
            "1 4 3 3 1. e4! e5 2. Nf3?? {x} Nc6!\n\
             1 14 5 13 1. e4! e5 2. Nf3?? {x} Nc6!\n\
             1 24 4 23 1. e4! e5 2. Nf3?? {x} Nc6!\n"
        );
    }

    #[test]
    fn a_long_line_is_kept_around_each_command_only() {
        let moves: String = (1..=400).map(|n| format!("{n}. a3 a6 ")).collect();
        let source = Source::new("long.pgn", &moves);
        let sites: Vec<ErrorSite> = (0..400)
            .map(|n| ErrorSite {
                line: 1,
                column: source
                    .line_col(moves.find(&format!("{}. a3", n + 1)).unwrap())
                    .1,
            })
            .collect();
        let table = source_map_table(&source, Language::Chessoteric, &sites);
        assert_eq!(table.lines().count(), 400);
        assert!(table.len() < 400 * 200, "{} bytes", table.len());
    }

    /// Errors rendered by the runtime from the table and by the
    /// diagnostics crate from the source are the same text.
    fn assert_renderers_agree(
        source: &Source,
        language: Language,
        sites: &[ErrorSite],
        errors: impl Fn() -> Vec<RuntimeError>,
    ) {
        let table = source_map_table(source, language, sites);
        let map = SourceMap {
            file: source.name(),
            lines: &table,
        };
        for (located, plain) in errors().into_iter().zip(errors()) {
            let by_runtime = located.located(&map).render();
            let by_diagnostics = render_runtime_error(&plain, source, language);
            assert_eq!(by_runtime, by_diagnostics);
        }
    }

    #[test]
    fn both_renderers_agree_on_long_lines_and_columns() {
        let moves: String = (1..=60).map(|n| format!("{n}. a3 a6! ")).collect();
        let source = Source::new("long.pgn", format!("{moves}\n"));
        let column = |n: usize| {
            let at = moves.find(&format!(" {n}. a3")).unwrap_or(0);
            source.line_col(at + format!(" {n}. ").len()).1
        };
        let sites: Vec<ErrorSite> = [1, 30, 60]
            .map(|n| ErrorSite {
                line: 1,
                column: column(n),
            })
            .to_vec();
        assert_renderers_agree(&source, Language::Chessoteric, &sites, || {
            sites
                .iter()
                .map(|site| {
                    RuntimeError::at(ErrorKind::StepLimit { limit: 3 }, site.line)
                        .at_column(site.column)
                })
                .collect()
        });
    }

    proptest::proptest! {
        /// Any sites, even outside the source, make a table without
        /// panicking; and for each word of any text (long lines, characters
        /// of several bytes) both renderers give the same text.
        #[test]
        fn any_site_renders_the_same_both_ways(
            text in "([a-zé😀!?.\t]{1,9}[ \t]{1,3}){0,120}(\n([a-zé!?.]{1,9} ){0,40}){0,3}",
            odd in proptest::collection::vec((0u32..6, 0u32..900), 0..6),
            picks in proptest::collection::vec(0usize..1000, 1..6),
        ) {
            let source = Source::new("g.pgn", text.clone());
            let odd: Vec<ErrorSite> = odd.into_iter().map(|(line, column)| ErrorSite { line, column }).collect();
            let _ = source_map_table(&source, Language::Chessoteric, &odd);
            // The sites of some words: where a non-blank follows a blank.
            let mut words = Vec::new();
            for (number, (_, line)) in (1u32..).zip(source.lines()) {
                let mut after_blank = true;
                for (column, c) in (1u32..).zip(line.chars()) {
                    if after_blank && !c.is_whitespace() {
                        words.push(ErrorSite { line: number, column });
                    }
                    after_blank = c.is_whitespace();
                }
            }
            if words.is_empty() {
                return Ok(());
            }
            let sites: Vec<ErrorSite> = picks.iter().map(|&i| words[i % words.len()]).collect();
            assert_renderers_agree(&source, Language::Chessoteric, &sites, || {
                sites
                    .iter()
                    .map(|site| {
                        RuntimeError::at(ErrorKind::InputLineMissing, site.line)
                            .at_column(site.column)
                    })
                    .collect()
            });
        }
    }

    proptest::proptest! {
        /// The same for line commands in every language: labels, comments,
        /// tabs, wide characters and long lines.
        #[test]
        fn any_line_renders_the_same_both_ways(
            lines in proptest::collection::vec("[ \t]{0,2}(-?[0-9]{1,3}\\.)?[a-z😀é|#;,=\t ]{0,300}", 1..5),
            language in proptest::sample::select(vec![
                Language::InfChessPro,
                Language::ChessCode,
                Language::Finvara,
                Language::Btm,
            ]),
        ) {
            let source = Source::new("p", lines.join("\n"));
            let sites: Vec<ErrorSite> = (1..=lines.len() as u32).map(ErrorSite::line).collect();
            assert_renderers_agree(&source, language, &sites, || {
                sites
                    .iter()
                    .map(|site| RuntimeError::at(ErrorKind::InputEnded, site.line))
                    .collect()
            });
        }
    }

    #[test]
    fn both_renderers_agree() {
        let text = "1. ^\n2. a=R0,*  \n\n\n\n\n\n\n\n\n\n12.  \"x\n";
        let source = Source::new("p.icp", text);
        let sites = [ErrorSite::line(2), ErrorSite::line(12)];
        assert_renderers_agree(&source, Language::InfChessPro, &sites, || {
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
                    },
                    12,
                ),
            ]
        });
    }
}
