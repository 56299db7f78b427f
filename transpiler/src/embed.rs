//! The expansion of `chess_program!` (the `chess2rs-macros` crate is a thin
//! wrapper around [`expand`], so the expansion is testable here).
//!
//! Input grammar:
//!
//! ```text
//! #[doc = ...]* VISIBILITY fn NAME = SOURCE (, OPTION)* ;?
//! SOURCE = "program text" | file "path/relative/to/the/crate/root.EXT"
//! OPTION = lang = NAME_OR_EXTENSION | runtime = PATH
//! ```

use std::path::{Path, PathBuf};

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, Ident, LitStr, Token, Visibility};

use crate::{compile, CompileOptions, Language, Source};

/// Where the program text comes from.
enum ProgramSource {
    /// A string literal in the macro input.
    Inline(LitStr),
    /// `file "path"`, relative to the crate root.
    File(LitStr),
}

/// Parsed macro input.
struct MacroInput {
    docs: Vec<String>,
    visibility: Visibility,
    name: Ident,
    source: ProgramSource,
    language: Option<(Language, Span)>,
    runtime: Option<syn::Path>,
}

mod kw {
    syn::custom_keyword!(file);
    syn::custom_keyword!(lang);
    syn::custom_keyword!(runtime);
}

impl Parse for MacroInput {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        let mut docs = Vec::new();
        for attr in &attrs {
            match &attr.meta {
                syn::Meta::NameValue(nv) if nv.path.is_ident("doc") => match &nv.value {
                    syn::Expr::Lit(syn::ExprLit {
                        lit: syn::Lit::Str(text),
                        ..
                    }) => docs.push(text.value()),
                    other => return Err(syn::Error::new_spanned(other, "expected a doc comment")),
                },
                _ => {
                    return Err(syn::Error::new_spanned(
                        attr,
                        "only doc comments are allowed here",
                    ))
                }
            }
        }
        let visibility: Visibility = input.parse()?;
        input.parse::<Token![fn]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        let source = if input.peek(kw::file) {
            input.parse::<kw::file>()?;
            ProgramSource::File(input.parse()?)
        } else if input.peek(LitStr) {
            ProgramSource::Inline(input.parse()?)
        } else {
            return Err(input.error(
                "expected the program: a string literal (e.g. r#\"...\"#) or `file \"path\"`",
            ));
        };
        let mut language = None;
        let mut runtime = None;
        while input.peek(Token![,]) {
            input.parse::<Token![,]>()?;
            if input.is_empty() {
                break;
            }
            if input.peek(kw::lang) {
                let keyword = input.parse::<kw::lang>()?;
                if language.is_some() {
                    return Err(syn::Error::new(keyword.span, "`lang` given twice"));
                }
                input.parse::<Token![=]>()?;
                let (name, span) = if input.peek(LitStr) {
                    let lit: LitStr = input.parse()?;
                    (lit.value(), lit.span())
                } else {
                    let ident: Ident = input.parse()?;
                    (ident.to_string(), ident.span())
                };
                let found = Language::from_name(&name).ok_or_else(|| {
                    syn::Error::new(
                        span,
                        format!("unknown language `{name}`; expected icp, chc, pgn, btm or fv (or the language's name)"),
                    )
                })?;
                language = Some((found, span));
            } else if input.peek(kw::runtime) {
                let keyword = input.parse::<kw::runtime>()?;
                if runtime.is_some() {
                    return Err(syn::Error::new(keyword.span, "`runtime` given twice"));
                }
                input.parse::<Token![=]>()?;
                runtime = Some(input.parse()?);
            } else {
                return Err(input.error("expected `lang = ...` or `runtime = ...`"));
            }
        }
        if input.peek(Token![;]) {
            input.parse::<Token![;]>()?;
        }
        if !input.is_empty() {
            return Err(
                input.error("unexpected input after the program; options are separated by `,`")
            );
        }
        Ok(MacroInput {
            docs,
            visibility,
            name,
            source,
            language,
            runtime,
        })
    }
}

/// Expands `chess_program!` input; `crate_root` is the directory `file`
/// paths are relative to (the user crate's `CARGO_MANIFEST_DIR`). Errors
/// become `compile_error!` on the offending token, with a function of the
/// promised signature beside it so call sites do not fail as well.
pub fn expand(input: TokenStream, crate_root: &Path) -> TokenStream {
    let input = match syn::parse2::<MacroInput>(input) {
        Ok(input) => input,
        Err(err) => return err.to_compile_error(),
    };
    let runtime = input
        .runtime
        .clone()
        .unwrap_or_else(|| CompileOptions::default().runtime);
    let options = CompileOptions {
        function_name: input.name.clone(),
        visibility: input.visibility.clone(),
        docs: input.docs.clone(),
        runtime,
    };
    match compile_input(&input, crate_root, &options) {
        Ok(tokens) => tokens,
        Err((span, message)) => {
            let stub = stub_function(&options);
            quote_spanned! {span=>
                ::core::compile_error! { #message }
                #stub
            }
        }
    }
}

/// The generated function (plus `include_bytes!` for files), or the span
/// and message of the error.
fn compile_input(
    input: &MacroInput,
    crate_root: &Path,
    options: &CompileOptions,
) -> Result<TokenStream, (Span, String)> {
    let (source, language, span, tracked) = match &input.source {
        ProgramSource::Inline(lit) => {
            let Some((language, _)) = input.language else {
                return Err((
                    lit.span(),
                    "an inline program needs its language: add `, lang = icp` (or chc, pgn, btm, fv)".into(),
                ));
            };
            let source = Source::new(format!("{} (inline)", input.name), lit.value());
            (source, language, lit.span(), None)
        }
        ProgramSource::File(lit) => {
            let relative = PathBuf::from(lit.value());
            let path = crate_root.join(&relative);
            let language = match input.language {
                Some((language, _)) => language,
                None => Language::from_path(&relative).ok_or_else(|| {
                    (
                        lit.span(),
                        format!(
                            "cannot tell the language of `{}` from its extension; add `, lang = icp` (or chc, pgn, btm, fv)",
                            relative.display()
                        ),
                    )
                })?,
            };
            let text = std::fs::read_to_string(&path).map_err(|e| {
                (
                    lit.span(),
                    format!(
                        "cannot read `{}` (relative to the crate root): {e}",
                        relative.display()
                    ),
                )
            })?;
            let source = Source::new(relative.display().to_string(), text);
            (source, language, lit.span(), Some(path))
        }
    };
    let compiled = compile(&source, language, options).map_err(|errors| {
        let rendered = errors.render(&source);
        (span, format!("{language} program has errors:\n{rendered}"))
    })?;
    let tokens = compiled.tokens;
    let warnings = compiled.warnings.iter().map(|warning| {
        let rendered = crate::diag::Diagnostics::from(warning.clone()).render(&source);
        warning_tokens(span, warning.code, rendered.trim_end())
    });
    // Depend on the file so cargo recompiles when it changes.
    let track = tracked.map(|path| {
        let path = path.display().to_string();
        quote! { const _: &[u8] = ::core::include_bytes!(#path); }
    });
    Ok(quote! { #track #tokens #(#warnings)* })
}

/// A warning at the macro call, on stable Rust: the use of a deprecated
/// constant whose note is the rendered chess2rs warning, so rustc prints it
/// in the build output without failing the build. rustc's words come
/// first and cannot be changed; the constant's name says whose warning it
/// is and the note goes on with the warning's own message and its `code`
/// (`warning: use of deprecated constant `_::chess2rs_warning`: no piece
/// called ... [W0151]`), then the rendered source line.
fn warning_tokens(span: Span, code: crate::diag::Code, rendered: &str) -> TokenStream {
    let code = code.as_str();
    let body = rendered
        .strip_prefix(&format!("warning[{code}]: "))
        .unwrap_or(rendered);
    let note = match body.split_once('\n') {
        Some((message, rest)) => format!("{message} [{code}]\n{rest}"),
        None => format!("{body} [{code}]"),
    };
    let name = quote::format_ident!("chess2rs_warning", span = span);
    quote_spanned! {span=>
        const _: () = {
            #[deprecated(note = #note)]
            #[allow(non_upper_case_globals)]
            const #name: () = ();
            #[allow(clippy::let_unit_value)]
            let _ = #name;
        };
    }
}

/// A function with the entry signature, for use when the program has errors.
fn stub_function(options: &CompileOptions) -> TokenStream {
    let CompileOptions {
        function_name,
        visibility,
        runtime,
        ..
    } = options;
    quote! {
        #[allow(unused_variables)]
        #visibility fn #function_name<R: ::std::io::BufRead, W: ::std::io::Write>(
            input: R,
            output: W,
            options: &#runtime::Options,
        ) -> ::std::result::Result<(), #runtime::RuntimeError> {
            ::std::result::Result::Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn expand_str(input: &str) -> String {
        let tokens: TokenStream = input.parse().unwrap();
        expand(tokens, Path::new(env!("CARGO_MANIFEST_DIR"))).to_string()
    }

    #[test]
    fn inline_program_with_language() {
        let out = expand_str(
            r##"/// Says hi. 
 pub fn hello = r#"1. "hi"#, lang = icp"##,
        );
        assert!(out.contains("pub fn hello"), "{out}");
        assert!(out.contains("Says hi."), "{out}");
        assert!(!out.contains("compile_error"), "{out}");
    }

    #[test]
    fn warnings_reach_the_build_output_as_deprecation_notes() {
        let out = expand_str(r#"fn ghost = "1. %ghost", lang = icp"#);
        assert!(!out.contains("compile_error"), "{out}");
        assert!(out.contains("deprecated"), "{out}");
        assert!(out.contains("chess2rs_warning"), "{out}");
        // The note starts with the warning's message (rustc's own
        // "warning:" is before it).
        assert!(
            out.contains("note = \"no piece called `ghost` is ever placed [W0151]"),
            "{out}"
        );
        assert!(out.contains("ghost (inline):1:5"), "{out}");
        let clean = expand_str(r#"fn fine = "1. ^", lang = icp"#);
        assert!(!clean.contains("deprecated"), "{clean}");
    }

    #[test]
    fn file_program_tracks_the_file() {
        let out = expand_str(r#"fn beer = file "../examples/beer.icp""#);
        assert!(out.contains("include_bytes"), "{out}");
        assert!(out.contains("fn beer"), "{out}");
    }

    #[test]
    fn errors_become_compile_errors_with_a_stub() {
        let out = expand_str(r#"fn bad = "1. ^?9", lang = icp"#);
        assert!(out.contains("compile_error"), "{out}");
        assert!(out.contains("no line is labelled 9"), "{out}");
        assert!(out.contains("bad (inline):1:5"), "{out}");
        assert!(out.contains("fn bad"), "{out}");
        for (input, message) in [
            (r#"fn x = "1. ^""#, "an inline program needs its language"),
            (r#"fn x = file "nope.icp""#, "cannot read `nope.icp`"),
            (r#"fn x = file "Cargo.toml""#, "cannot tell the language"),
            (r#"fn x = "", lang = cobol"#, "unknown language `cobol`"),
            (r#"x = "", lang = icp"#, "expected `fn`"),
            (r#"fn x "1. ^""#, "expected `=`"),
            (r#"fn x = 5"#, "expected the program"),
            (
                r#"fn x = "", colour = white"#,
                "expected `lang = ...` or `runtime = ...`",
            ),
            (
                r#"#[inline] fn x = "", lang = icp"#,
                "only doc comments are allowed here",
            ),
        ] {
            let out = expand_str(input);
            assert!(out.contains(message), "{input}: {out}");
        }
    }
}
