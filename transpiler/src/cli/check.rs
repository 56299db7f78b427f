//! `chess2rs check`: errors and warnings only.

use super::args::SourceArgs;
use super::report::Reporter;
use super::{load, CliResult};

/// Checks the program; says so on stderr when it compiles (unless the
/// output is JSON).
pub(super) fn check_only(args: &SourceArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(&args.file, &args.lang)?;
    let checked = reporter.checked(&loaded)?;
    let warnings = checked.warnings.len();
    if !reporter.is_human() {
        // JSON output is diagnostics only.
        return Ok(0);
    }
    eprintln!(
        "{}: no errors ({}, {warnings} warning{})",
        loaded.source.name(),
        loaded.language,
        if warnings == 1 { "" } else { "s" }
    );
    Ok(0)
}
