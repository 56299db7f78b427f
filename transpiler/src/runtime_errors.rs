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

use crate::diag::{Diagnostic, Diagnostics};
use crate::language::Language;
use crate::source::{Source, Span};

/// The command on source line `line`: its byte span in the source. The
/// command is the line without its comment and surrounding blanks, and for
/// InfChessPro without its label (`10. `).
pub fn command_span(source: &Source, language: Language, line: u32) -> Option<Span> {
    let (start, text) = source.line(line)?;
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
    Some(start + from..start + code.len().max(from))
}

/// `err` as a diagnostic on its command, if it names a line of `source`.
pub fn runtime_diagnostic(
    err: &RuntimeError,
    source: &Source,
    language: Language,
) -> Option<Diagnostic> {
    let span = command_span(source, language, err.line?)?;
    let mut diagnostic = Diagnostic::error(err.message(), span).with_label(err.label());
    if let Some(help) = err.help() {
        diagnostic = diagnostic.with_help(help);
    }
    Some(diagnostic)
}

/// `err` rendered for a user who has `source`: as a diagnostic when it
/// names a line, else `error: ...` with what it knows.
pub fn render_runtime_error(err: &RuntimeError, source: &Source, language: Language) -> String {
    match runtime_diagnostic(err, source, language) {
        Some(diagnostic) => Diagnostics::from(diagnostic).render(source),
        None => err.render(),
    }
}

/// The constant `SOURCE` of an entry function: the file name and, for each
/// of `lines`, `LINE COLUMN WIDTH TEXT` (where its command is, in
/// characters as the renderer counts them, and the line's text) — one
/// string literal whose lines are the program's, so it costs the compiler
/// one token whatever the program's size.
pub fn source_map_tokens(source: &Source, language: Language, lines: &[u32]) -> TokenStream {
    let mut table = String::new();
    for &line in lines {
        let Some(span) = command_span(source, language, line) else {
            continue;
        };
        let Some((start, text)) = source.line(line) else {
            continue;
        };
        let (Some(before), Some(command)) = (
            text.get(..span.start - start),
            source.text().get(span.clone()),
        ) else {
            continue;
        };
        let column = before.chars().count() + 1;
        let width = command.chars().count().max(1);
        table.push_str(&format!("{line} {column} {width} {text}\n"));
    }
    let file = source.name();
    let table = multiline_literal(&table);
    quote! {
        /// Where runtime errors point: each line that can fail, as `LINE
        /// COLUMN WIDTH TEXT` (where its command starts and how wide it is).
        const SOURCE: rt::SourceMap<'static> = rt::SourceMap {
            file: #file,
            lines: #table,
        };
    }
}

/// A string literal of `text` that keeps its line breaks as real ones, so
/// that the generated file shows the lines as they are.
fn multiline_literal(text: &str) -> TokenStream {
    let mut quoted = String::from("\"");
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
        .parse()
        .unwrap_or_else(|_| Literal::string(text).into_token_stream())
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess2rs_runtime::{ErrorKind, SourceMap};

    fn command(language: Language, text: &str) -> String {
        let source = Source::new("t", text);
        let span = command_span(&source, language, 1).unwrap();
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
        let tokens = source_map_tokens(&source, Language::InfChessPro, &[1, 2]);
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
            Some("1 4 11 1. \"say \\ \"hi\"\n2 4 1 2. ^\n")
        );
        // The literal keeps real line breaks.
        assert!(tokens.to_string().contains("\"hi\\\"\n2 4 1"), "{tokens}");
    }

    #[test]
    fn both_renderers_agree() {
        let text = "1. ^\n2. a=R0,*\n\n\n\n\n\n\n\n\n\n12.  \"x\n";
        let source = Source::new("p.icp", text);
        let table = [2u32, 12]
            .iter()
            .map(|&line| {
                let span = command_span(&source, Language::InfChessPro, line).unwrap();
                let (start, text) = source.line(line).unwrap();
                format!("{line} {} {} {text}\n", span.start - start + 1, span.len())
            })
            .collect::<String>();
        let map = SourceMap {
            file: "p.icp",
            lines: &table,
        };
        let errors = || {
            [
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
        };
        for (located, plain) in errors().into_iter().zip(errors()) {
            let by_runtime = located.located(&map).render();
            let by_diagnostics = render_runtime_error(&plain, &source, Language::InfChessPro);
            assert_eq!(by_runtime, by_diagnostics);
        }
    }
}
