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
use quote::quote;

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
/// of `lines`, its text and where its command is (columns in characters,
/// as the renderer counts them).
pub fn source_map_tokens(source: &Source, language: Language, lines: &[u32]) -> TokenStream {
    let entries = lines.iter().filter_map(|&line| {
        let span = command_span(source, language, line)?;
        let (start, text) = source.line(line)?;
        let column = text.get(..span.start - start)?.chars().count() + 1;
        let width = source.text().get(span.clone())?.chars().count().max(1);
        let (line, column, width) = (
            Literal::u32_unsuffixed(line),
            Literal::u32_unsuffixed(column as u32),
            Literal::u32_unsuffixed(width as u32),
        );
        Some(quote! { rt::SourceLine::new(#line, #column, #width, #text) })
    });
    let file = source.name();
    quote! {
        /// Where runtime errors point: each line that can fail (line,
        /// column and width of its command, text).
        const SOURCE: rt::SourceMap<'static> = rt::SourceMap {
            file: #file,
            lines: &[#(#entries),*],
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess2rs_runtime::{ErrorKind, SourceLine, SourceMap};

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
    fn both_renderers_agree() {
        let text = "1. ^\n2. a=R0,*\n\n\n\n\n\n\n\n\n\n12.  \"x\n";
        let source = Source::new("p.icp", text);
        let map_lines: Vec<SourceLine> = [2, 12]
            .iter()
            .map(|&line| {
                let span = command_span(&source, Language::InfChessPro, line).unwrap();
                let (start, text) = source.line(line).unwrap();
                SourceLine {
                    line,
                    column: (span.start - start + 1) as u32,
                    width: span.len() as u32,
                    text,
                }
            })
            .collect();
        let map = SourceMap {
            file: "p.icp",
            lines: &map_lines,
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
