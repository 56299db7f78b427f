//! The registry's own checks: every explanation's examples run (the wrong
//! program gives exactly its code, the corrected one nothing), every
//! explanation file is a code's, and `docs/diagnostics.md` is made from
//! them.

use std::path::Path;

use super::{reference, Code};
use crate::{FormatOptions, Language, Source};

/// A fenced block of an explanation: its info string split at commas,
/// and its text.
struct Example {
    info: Vec<String>,
    text: String,
}

impl Example {
    /// The value of the `key=VALUE` word of the info string, if it has one.
    fn value(&self, key: &str) -> Option<&str> {
        self.info
            .iter()
            .find_map(|word| word.strip_prefix(key)?.strip_prefix('='))
    }

    fn has(&self, flag: &str) -> bool {
        self.info.iter().any(|word| word == flag)
    }

    /// The code the example says it gives, if it says one.
    fn code(&self) -> Option<&str> {
        self.info
            .iter()
            .map(String::as_str)
            .find(|word| word.starts_with(['E', 'W']) && word.len() == 5)
    }

    /// What the example gives as chess2rs does it (checks it; formats or
    /// runs it if its info says so): the code of every diagnostic, and the
    /// diagnostics rendered.
    fn codes(&self) -> Result<(Vec<Code>, String), String> {
        let extension = self.info.first().map_or("", String::as_str);
        let language = Language::from_extension(extension)
            .ok_or_else(|| format!("`{extension}` is not a language's extension"))?;
        let source = Source::new(format!("example.{extension}"), self.text.clone());
        let diagnostics = if self.has("fmt") || self.has("renumber") {
            let options = FormatOptions {
                renumber: self.has("renumber").then_some(1),
            };
            match crate::format(&source, language, &options) {
                Ok(formatted) => formatted.repairs,
                Err(errors) => errors,
            }
        } else {
            match crate::check(&source, language) {
                Err(errors) => errors,
                Ok(checked) if self.has("run") => {
                    let mut diagnostics = checked.warnings.clone();
                    if let Some(error) = self.run(&checked)? {
                        let sites = checked.program.error_sites();
                        let diagnostic = crate::runtime_errors::runtime_diagnostic(&error, &sites)
                            .ok_or_else(|| format!("a runtime error without a code: {error}"))?;
                        diagnostics.push(diagnostic);
                    }
                    diagnostics
                }
                Ok(checked) => checked.warnings,
            }
        };
        let codes = diagnostics.iter().map(|d| d.code).collect();
        Ok((codes, diagnostics.render(&source)))
    }

    /// Runs the checked example in the interpreter (10,000 steps at
    /// most, the input and memory limit its info gives): its runtime
    /// error, if it stops with one.
    fn run(
        &self,
        checked: &crate::Checked,
    ) -> Result<Option<chess2rs_runtime::RuntimeError>, String> {
        let max_memory = match self.value("max-memory") {
            Some(size) => Some(chess2rs_runtime::__private::parse_size(size)?),
            None => None,
        };
        let options = chess2rs_runtime::Options {
            max_steps: Some(10_000),
            max_memory,
        };
        let input = self.value("input").unwrap_or_default().replace('_', " ");
        let mut output = Vec::new();
        Ok(crate::interpret(&checked.program, input.as_bytes(), &mut output, &options).err())
    }
}

/// The fenced blocks of `markdown`.
fn examples(markdown: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut lines = markdown.lines();
    while let Some(line) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let text: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        examples.push(Example {
            info: info
                .split(',')
                .map(|word| word.trim().to_string())
                .collect(),
            text: text.iter().map(|line| format!("{line}\n")).collect(),
        });
    }
    examples
}

#[test]
fn every_explanation_gives_its_code_and_its_correction_checks_clean() {
    let mut failures = Vec::new();
    for &code in Code::ALL {
        let examples = examples(code.explanation());
        let wrong = examples.iter().filter(|e| e.code().is_some()).count();
        if wrong == 0 || wrong == examples.len() {
            failures.push(format!(
                "{}: wants a program that gives it and a corrected one",
                code.as_str()
            ));
        }
        for example in &examples {
            let wanted: Vec<Code> = match example.code() {
                Some(written) if written != code.as_str() => {
                    failures.push(format!("{}: an example says {written}", code.as_str()));
                    continue;
                }
                Some(_) => vec![code],
                None => Vec::new(),
            };
            match example.codes() {
                Ok((mut given, rendered)) => {
                    given.sort();
                    given.dedup();
                    if given != wanted {
                        failures.push(format!(
                            "{}: the example\n{}gives {:?}, not {:?}:\n{rendered}",
                            code.as_str(),
                            example.text,
                            given.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
                            wanted.iter().map(|c| c.as_str()).collect::<Vec<_>>(),
                        ))
                    }
                }
                Err(why) => failures.push(format!("{}: {why}", code.as_str())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_explanation_file_is_a_codes_and_starts_with_a_sentence() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/diag/codes");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .expect("the explanations' directory")
        .filter_map(|entry| {
            let name = entry.ok()?.file_name().into_string().ok()?;
            Some(name.strip_suffix(".md")?.to_string())
        })
        .collect();
    files.sort();
    let codes: Vec<&str> = Code::ALL.iter().map(|code| code.as_str()).collect();
    let mut sorted = codes.clone();
    sorted.sort_by_key(|code| &code[1..]);
    assert_eq!(codes, sorted, "Code::ALL is in the order of the numbers");
    let mut numbers: Vec<&str> = codes.iter().map(|code| &code[1..]).collect();
    numbers.dedup();
    assert_eq!(
        numbers.len(),
        codes.len(),
        "no number is both an E and a W code"
    );
    let mut registered = codes.clone();
    registered.sort();
    assert_eq!(files, registered, "one explanation per code, no other");
    for &code in Code::ALL {
        let summary = code.summary();
        assert!(
            summary.ends_with('.') && !summary.starts_with('#'),
            "{}: the explanation starts with one sentence: {summary:?}",
            code.as_str()
        );
        assert_eq!(Code::parse(code.as_str()), Some(code));
    }
}

#[test]
fn codes_are_read_as_rustc_reads_them() {
    assert_eq!(Code::parse("E0105"), Some(Code::IcpNoSuchLabel));
    assert_eq!(Code::parse("e0105"), Some(Code::IcpNoSuchLabel));
    assert_eq!(Code::parse("0105"), Some(Code::IcpNoSuchLabel));
    assert_eq!(Code::parse("W0105"), None);
    assert_eq!(Code::parse("E9999"), None);
    assert_eq!(Code::parse(""), None);
    assert_eq!(Code::IcpNeverPlaced.severity(), crate::Severity::Warning);
    assert_eq!(
        Code::IcpNoSuchLabel.docs_url(),
        "https://github.com/chess2rs/chess2rs/blob/main/docs/diagnostics.md#e0105"
    );
}

/// Every runtime error the runtime gives a code has one of the registry.
#[test]
fn runtime_errors_codes_are_registered() {
    use chess2rs_runtime::{ErrorKind, RuntimeError};
    let kinds = [
        ErrorKind::StepLimit { limit: 1 },
        ErrorKind::InputEnded,
        ErrorKind::InputNotANumber { found: "x".into() },
        ErrorKind::Overflow { what: "x".into() },
        ErrorKind::InputLineMissing,
        ErrorKind::InputLineTooLarge { number: "9".into() },
        ErrorKind::MemoryLimit { limit: 1 },
        ErrorKind::OutOfMemory,
        ErrorKind::NoSuchLabel { label: 1 },
    ];
    for kind in kinds {
        let error = RuntimeError::new(kind);
        let code = error.code().and_then(Code::parse);
        assert!(code.is_some(), "{error}: {:?}", error.code());
        assert!(code.is_some_and(|code| code.as_str().starts_with("E06")));
    }
}

/// `docs/diagnostics.md` is [`reference`]; regenerate it with
/// `CHESS2RS_WRITE_DIAGNOSTICS_DOCS=1 cargo test -p chess2rs --lib diagnostics_reference`.
#[test]
fn diagnostics_reference_in_docs_matches_the_explanations() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/diagnostics.md");
    let wanted = reference();
    if std::env::var_os("CHESS2RS_WRITE_DIAGNOSTICS_DOCS").is_some() {
        std::fs::write(&path, &wanted).expect("docs/diagnostics.md is writable");
    }
    let found = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        found == wanted,
        "docs/diagnostics.md is out of date with the explanations; regenerate it with \
         `CHESS2RS_WRITE_DIAGNOSTICS_DOCS=1 cargo test -p chess2rs --lib diagnostics_reference`"
    );
}

/// A code's letter is its diagnostics' severity: an error built with a
/// warning's code is a bug the tests catch.
#[test]
#[cfg(debug_assertions)]
#[should_panic(expected = "of the other severity")]
fn an_error_with_a_warnings_code_is_caught() {
    let _ = crate::Diagnostic::error(Code::IcpNeverPlaced, "x", 0..0);
}
