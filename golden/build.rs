//! Compiles every golden case with `chess2rs::compile` — the same call the
//! CLI and the macro make — into one module, so the whole suite costs one
//! rustc run.

use std::fmt::Write as _;
use std::path::Path;

use chess2rs_corpus::discover::discover;
use chess2rs_corpus::{btm, chc, fv, icp, Random, CORPORA};

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    println!("cargo:rerun-if-changed=build.rs");
    for entry in std::fs::read_dir(root).into_iter().flatten().flatten() {
        if entry.path().is_dir()
            && !["src", "tests"].contains(&&*entry.file_name().to_string_lossy())
        {
            println!("cargo:rerun-if-changed={}", entry.path().display());
        }
    }
    let mut functions = String::new();
    let mut macro_calls = String::new();
    let mut table = String::new();
    for case in discover(root) {
        let text = match std::fs::read_to_string(&case.path) {
            Ok(text) => text,
            Err(err) => panic!("cannot read golden case {}: {err}", case.name),
        };
        let source = chess2rs::Source::new(case.name.clone(), text);
        let Some(language) = chess2rs::Language::from_path(&case.path) else {
            continue;
        };
        let ident = case.ident();
        let options = chess2rs::CompileOptions {
            function_name: syn::Ident::new(&ident, proc_macro2::Span::call_site()),
            ..Default::default()
        };
        match chess2rs::compile(&source, language, &options) {
            Ok(compiled) => {
                writeln!(functions, "{}", compiled.tokens).unwrap();
                // The same program through the macro, as a user would embed it.
                writeln!(
                    macro_calls,
                    "::chess2rs_macros::chess_program!(pub fn {ident} = file {:?});",
                    case.name
                )
                .unwrap();
                let diagnostics = compiled.warnings.render(&source);
                writeln!(
                    table,
                    "    Case {{ name: {:?}, diagnostics: {diagnostics:?}, \
                     entry: Some(|i, o, opt| compiled::{ident}(i, o, opt)), \
                     via_macro: Some(|i, o, opt| via_macro::{ident}(i, o, opt)) }},",
                    case.name
                )
                .unwrap();
            }
            Err(errors) => {
                let diagnostics = errors.render(&source);
                writeln!(
                    table,
                    "    Case {{ name: {:?}, diagnostics: {diagnostics:?}, entry: None, via_macro: None }},",
                    case.name
                )
                .unwrap();
            }
        }
    }
    let benches = compile_bench_programs(&root.join("benches/programs"));
    let (random_functions, random_table) = compile_random_programs();
    let (corpus_functions, corpus_table) = compile_corpora();
    let out = format!(
        "/// Every golden case compiled by chess2rs, without the prelude: generated\n\
         /// code names everything by absolute path.\n\
         #[no_implicit_prelude]\npub mod compiled {{\n{functions}\n}}\n\n\
         /// Every golden case that compiles, embedded with `chess_program!`\n\
         /// (some on purpose with warnings, which the macro reports as\n\
         /// deprecation notes: expected here).\n\
         #[allow(deprecated)]\n\
         #[no_implicit_prelude]\n\
         pub mod via_macro {{\n{macro_calls}\n}}\n\n\
         /// Every golden case, sorted by name.\npub static CASES: &[Case] = &[\n{table}];\n\n\
         /// The benchmark programs of `benches/programs/`, one function per file stem.\n\
         pub mod bench_programs {{\n{benches}\n}}\n\n\
         /// Random programs (`chess2rs_corpus`'s generators), compiled.\n\
         pub mod random_compiled {{\n{random_functions}\n}}\n\n\
         /// Random programs: source, extension, compiled function.\n\
         pub static RANDOM: &[RandomCase] = &[\n{random_table}];\n\n\
         /// The corpora's programs (`chess2rs_corpus::CORPORA`) compiled in this\n\
         /// build, one function each.\n\
         pub mod corpus_compiled {{\n{corpus_functions}\n}}\n\n\
         /// The corpora's programs compiled in this build, by corpus and index.\n\
         pub static CORPUS: &[CorpusCase] = &[\n{corpus_table}];\n"
    );
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    std::fs::write(Path::new(&out_dir).join("cases.rs"), out).expect("OUT_DIR is writable");
}

/// Compiles each program in `dir` to a function named after its file stem.
fn compile_bench_programs(dir: &Path) -> String {
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut functions = String::new();
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .collect();
    entries.sort_by_key(|e| e.path());
    for entry in entries {
        let path = entry.path();
        let (Some(language), Some(stem)) = (
            chess2rs::Language::from_path(&path),
            path.file_stem().and_then(|s| s.to_str()),
        ) else {
            continue;
        };
        let text = std::fs::read_to_string(&path).expect("benchmark programs are readable");
        let source = chess2rs::Source::new(path.display().to_string(), text);
        let options = chess2rs::CompileOptions {
            function_name: syn::Ident::new(stem, proc_macro2::Span::call_site()),
            ..Default::default()
        };
        match chess2rs::compile(&source, language, &options) {
            Ok(compiled) => writeln!(functions, "{}", compiled.tokens).unwrap(),
            Err(errors) => panic!(
                "benchmark program does not compile:\n{}",
                errors.render(&source)
            ),
        }
    }
    functions
}

/// Generates random programs of every language with a fixed seed and
/// compiles those without errors: (functions, table entries).
fn compile_random_programs() -> (String, String) {
    let mut random = Random::new(0x00C4_E552_0125);
    let mut functions = String::new();
    let mut table = String::new();
    type Generator = fn(&mut Random) -> String;
    let generators: [(&str, Generator); 6] = [
        ("icp", icp::infchesspro),
        ("chc", chc::chess_code),
        ("btm", btm::btm),
        ("fv", fv::finvara),
        // Last, so the programs above stay what they were.
        ("chc", chc::chess_code_polynomial_loops),
        // Programs of more than 1,000 lines, run from tables.
        ("chc", chc::chess_code_table),
    ];
    for (family, (extension, generate)) in generators.into_iter().enumerate() {
        for index in 0..60 {
            let text = generate(&mut random);
            let language = chess2rs::Language::from_extension(extension).expect("known extension");
            let source = chess2rs::Source::new(format!("random{index}.{extension}"), text.clone());
            let ident = format!("random_{extension}_{family}_{index}");
            let options = chess2rs::CompileOptions {
                function_name: syn::Ident::new(&ident, proc_macro2::Span::call_site()),
                ..Default::default()
            };
            if let Ok(compiled) = chess2rs::compile(&source, language, &options) {
                writeln!(functions, "{}", compiled.tokens).unwrap();
                writeln!(
                    table,
                    "    RandomCase {{ source: {text:?}, extension: {extension:?}, entry: |i, o, opt| random_compiled::{ident}(i, o, opt) }},"
                )
                .unwrap();
            }
        }
    }
    (functions, table)
}

/// Compiles the programs of every corpus ([`CORPORA`]): all of them
/// with the crate's `corpus` feature, else every `share`-th (what `cargo
/// test --workspace` builds). With the feature, `CHESS2RS_CORPUS=chc,btm`
/// compiles all programs of those corpora only, the share of the others
/// (a quicker build to measure one language). Programs that do not
/// compile are listed with their errors, for the test to report:
/// (functions, table entries).
fn compile_corpora() -> (String, String) {
    println!("cargo:rerun-if-env-changed=CHESS2RS_CORPUS");
    let feature = std::env::var_os("CARGO_FEATURE_CORPUS").is_some();
    let only = std::env::var("CHESS2RS_CORPUS").ok();
    let mut functions = String::new();
    let mut table = String::new();
    for corpus in &CORPORA {
        let all = feature
            && only
                .as_deref()
                .is_none_or(|list| list.split(',').any(|e| e.trim() == corpus.extension));
        let language =
            chess2rs::Language::from_extension(corpus.extension).expect("a known extension");
        for index in (0..corpus.len).filter(|&i| corpus.in_build(i, all)) {
            let program = (corpus.program)(index);
            let ident = corpus.name(index);
            let source =
                chess2rs::Source::new(format!("{ident}.{}", corpus.extension), program.source);
            let options = chess2rs::CompileOptions {
                function_name: syn::Ident::new(&ident, proc_macro2::Span::call_site()),
                ..Default::default()
            };
            let extension = corpus.extension;
            match chess2rs::compile(&source, language, &options) {
                Ok(compiled) => {
                    writeln!(functions, "{}", compiled.tokens).unwrap();
                    writeln!(
                        table,
                        "    CorpusCase {{ extension: {extension:?}, index: {index}, errors: \"\", \
                         entry: Some(|i, o, opt| corpus_compiled::{ident}(i, o, opt)) }},"
                    )
                    .unwrap();
                }
                Err(errors) => writeln!(
                    table,
                    "    CorpusCase {{ extension: {extension:?}, index: {index}, errors: {:?}, entry: None }},",
                    errors.render(&source)
                )
                .unwrap(),
            }
        }
    }
    (functions, table)
}
