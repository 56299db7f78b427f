//! What every fuzz target does with its input, shared with the replay
//! test (`transpiler/tests/fuzz_replay.rs`, which includes this file):
//! the property is that chess2rs never panics and never aborts, whatever
//! the program.

use chess2rs::{Language, Source};
use chess2rs_runtime::Options;

/// Treats `data` as a program in `language`: makes its editor outline
/// (what `chess2rs lsp` answers from), checks it and renders its
/// diagnostics; if it compiles, also generates the program file (which
/// pretty-prints, so tokens that do not parse would panic) and interprets
/// it for at most 10,000 steps on a fixed input with a memory budget of
/// 64 MiB (a program that outgrows it, such as a Finvara move whose path
/// search explodes, ends with the memory error in well under a second).
pub fn exercise(language: Language, data: &[u8]) {
    let text = String::from_utf8_lossy(data).into_owned();
    let source = Source::new(format!("fuzz.{}", language.extension()), text);
    let _ = chess2rs::outline(&source, language);
    match chess2rs::check(&source, language) {
        Ok(checked) => {
            let _ = checked.warnings.render(&source);
            let _ = chess2rs::compile_file(&source, language, false);
            let mut options = Options::with_max_steps(10_000);
            options.max_memory = Some(64 << 20);
            let input = &b"3 -1 0 72 105\n7\nhello\n"[..];
            let _ = chess2rs::interpret(&checked.program, input, std::io::sink(), &options);
        }
        Err(errors) => {
            let _ = errors.render(&source);
        }
    }
}

/// The language a target or a crash directory is named after.
pub fn language_of(target: &str) -> Option<Language> {
    Language::from_extension(target)
}
