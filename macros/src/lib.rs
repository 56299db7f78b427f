//! `chess_program!`: compile a chess-language program into a Rust function
//! at compile time, through the same `chess2rs::compile` the CLI uses.
//!
//! Add both crates to `Cargo.toml` (the macro cannot re-export the runtime:
//! the compiler's interpreter depends on the runtime, so that would be a
//! package cycle):
//!
//! ```toml
//! [dependencies]
//! # not on crates.io yet: depend by path (or git) on this repository
//! chess2rs-runtime = { path = "../chess2rs/runtime" }
//! chess2rs-macros = { path = "../chess2rs/macros" }
//! ```

use proc_macro::TokenStream;

/// Compiles a program of InfChessPro, Chess Code, Chessoteric, BTM or
/// Finvara into a function
///
/// ```text
/// VIS fn NAME<R: BufRead, W: Write>(input: R, output: W, options: &chess2rs_runtime::Options)
///     -> Result<(), chess2rs_runtime::RuntimeError>
/// ```
///
/// that reads the program's input from `input`, writes its output to
/// `output` (flushed before returning, also on error) and stops after
/// `options.max_steps` steps if set.
///
/// # A program written inline
///
/// A string literal — raw strings (`r#"..."#`) suit these languages, which
/// use `"` and `#` — and its language, by extension or name:
///
/// ```
/// chess2rs_macros::chess_program! {
///     /// Greets the world.
///     pub fn hello = r#"1. "Hello, world!"#, lang = icp
/// }
///
/// let mut output = Vec::new();
/// hello(&b""[..], &mut output, &Default::default()).unwrap();
/// assert_eq!(output, b"Hello, world!\n");
/// ```
///
/// # A program in a file
///
/// `file "PATH"`, relative to the crate root (the directory of its
/// `Cargo.toml`); the language comes from the extension unless `lang` is
/// given. Editing the file recompiles the crate.
///
/// ```
/// chess2rs_macros::chess_program!(fn register = file "../examples/register.icp");
///
/// let mut output = Vec::new();
/// register(&b"5 3 2"[..], &mut output, &Default::default()).unwrap();
/// assert_eq!(output, b"stop\n");
/// ```
///
/// # Step limits and errors
///
/// ```
/// use chess2rs_runtime::Options;
///
/// chess2rs_macros::chess_program!(fn forever = r#"
/// 1. "again
/// 2. ^?1
/// "#, lang = InfChessPro);
///
/// let mut output = Vec::new();
/// let error = forever(&b""[..], &mut output, &Options::with_max_steps(3)).unwrap_err();
/// assert_eq!(error.to_string(), "line 3: step limit of 3 reached");
/// // Rendered like a compile error, with the program's line:
/// assert!(error.render().contains("3 | 2. ^?1"));
/// assert_eq!(output, b"again\nagain\n");
/// ```
///
/// # Another path to the runtime
///
/// Generated code names the runtime `::chess2rs_runtime`; `runtime = PATH`
/// points it elsewhere, e.g. at a re-export:
///
/// ```
/// mod support {
///     pub use chess2rs_runtime as rt;
/// }
/// chess2rs_macros::chess_program!(fn hi = r#"1. "hi"#, lang = icp, runtime = crate::support::rt);
///
/// fn main() {
///     let mut output = Vec::new();
///     hi(&b""[..], &mut output, &Default::default()).unwrap();
///     assert_eq!(output, b"hi\n");
/// }
/// ```
///
/// # Errors
///
/// A program with errors fails the build with the rendered diagnostics
/// (file, line, column, the line and a caret), pointing at the literal or
/// the path:
///
/// ```compile_fail
/// chess2rs_macros::chess_program!(fn bad = "1. ^?9", lang = icp);
/// ```
///
/// # Warnings
///
/// What `chess2rs check` warns about reaches the build output too. Stable
/// Rust gives proc macros no way to emit warnings, so each becomes the use
/// of a deprecated constant at the macro call (rustc's words "use of
/// deprecated constant" come first; they cannot be changed), whose note is
/// the rendered warning:
///
/// ```text
/// warning: use of deprecated constant `_::chess2rs_warning`: no piece called `ghost` is ever placed [W0151]
///            --> ghost (inline):1:5
///          ...
/// ```
///
/// `#[allow(deprecated)]` on the enclosing module silences them.
///
/// ```
/// #[allow(deprecated)]
/// mod quiet {
///     chess2rs_macros::chess_program!(pub fn ghost = "1. %ghost", lang = icp);
/// }
/// let mut output = Vec::new();
/// quiet::ghost(&b""[..], &mut output, &Default::default()).unwrap();
/// assert_eq!(output, b"0\n");
/// ```
#[proc_macro]
pub fn chess_program(input: TokenStream) -> TokenStream {
    let crate_root = std::env::var_os("CARGO_MANIFEST_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_default();
    chess2rs::embed::expand(input.into(), &crate_root).into()
}
