//! `chess2rs fmt`: programs rewritten in their language's canonical
//! layout, or (with `--check`) a diff of each that is not in it.

use std::path::Path;

use super::args::FmtArgs;
use super::output::{to_stdout, write_output};
use super::report::Reporter;
use super::{load, CliResult, Failure, EXIT_COMPILE_ERROR, EXIT_RUNTIME_ERROR};
use crate::FormatOptions;

/// Formats every file named; the exit code is the worst of them: 2 for
/// a file that could not be read or parsed, 1 for one `--check` found
/// unformatted, else 0.
pub(super) fn format_files(args: &FmtArgs, reporter: &Reporter) -> CliResult<u8> {
    let mut worst = 0;
    for file in &args.files {
        let code = match format_file(file, args, reporter) {
            Ok(code) => code,
            Err(Failure::Message(message)) => {
                reporter.message(&message);
                EXIT_COMPILE_ERROR
            }
            Err(Failure::Diagnostics) => EXIT_COMPILE_ERROR,
            Err(interrupted @ Failure::Interrupted(_)) => return Err(interrupted),
        };
        worst = worst.max(code);
    }
    Ok(worst)
}

/// Formats one file (`-`: stdin to stdout): 0 if it is formatted now, 1
/// if `--check` found it is not.
fn format_file(file: &Path, args: &FmtArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(file, &args.lang)?;
    let options = FormatOptions {
        renumber: args.renumber,
    };
    let formatted = crate::format(&loaded.source, loaded.language, &options).map_err(|errors| {
        reporter.diagnostics(&errors, &loaded.source);
        Failure::Diagnostics
    })?;
    // What was repaired beyond the layout, as warnings on the text read.
    reporter.diagnostics(&formatted.repairs, &loaded.source);
    let text = formatted.text.as_bytes();
    let stdin = file == Path::new("-");
    if args.check {
        if formatted.text == loaded.source.text() {
            return Ok(0);
        }
        let diff = diff(loaded.source.name(), loaded.source.text(), &formatted.text);
        to_stdout(|out| out.write_all(diff.as_bytes()))?;
        return Ok(EXIT_RUNTIME_ERROR);
    }
    if stdin {
        to_stdout(|out| out.write_all(text))?;
    } else if formatted.text != loaded.source.text() {
        let permissions = std::fs::metadata(file).ok().map(|meta| meta.permissions());
        write_output(file, &[], permissions, |out| out.write_all(text))?;
    }
    Ok(0)
}

/// A unified diff from `old` to `new` (the text of `name`), three lines
/// of context around each change.
fn diff(name: &str, old: &str, new: &str) -> String {
    let diff = similar::TextDiff::from_lines(old, new);
    let mut unified = diff.unified_diff();
    let written = unified
        .context_radius(3)
        .header(name, &format!("{name} (formatted)"))
        .to_string();
    format!("Diff in {name}:\n{written}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_diff_names_the_file_and_shows_both_sides() {
        let shown = diff("a.icp", "1.  ^\n2. ^\n", "1. ^\n2. ^\n");
        assert_eq!(
            shown,
            "Diff in a.icp:\n--- a.icp\n+++ a.icp (formatted)\n@@ -1,2 +1,2 @@\n-1.  ^\n+1. ^\n 2. ^\n"
        );
    }
}
