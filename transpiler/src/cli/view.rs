//! `chess2rs view`: a run recorded by the interpreter, written as one
//! self-contained HTML page.

use std::path::PathBuf;

use super::args::ViewArgs;
use super::output::write_output;
use super::report::Reporter;
use super::{load, program_stem, CliResult};

/// Records the run on stdin and writes the page.
pub(super) fn view(args: &ViewArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(&args.source.file, &args.source.lang)?;
    let checked = reporter.checked(&loaded)?;
    let output = match &args.output {
        Some(path) => path.clone(),
        None => PathBuf::from(format!("{}.html", program_stem(&args.source.file))),
    };
    let options = args.limits.options();
    let started = std::time::Instant::now();
    let recording = crate::view::record(
        &checked.program,
        &loaded.source,
        loaded.language,
        std::io::stdin().lock(),
        &options,
        args.max_frames,
    );
    let page = crate::view::page(&recording, &loaded.source, loaded.language, args.max_frames);
    write_output(&output, &[&args.source.file], None, |out| {
        out.write_all(page.as_bytes())
    })?;
    eprintln!(
        "wrote {} ({} of {} step{}, {} KiB) in {:.2} s",
        output.display(),
        recording.frames.len(),
        recording.steps,
        if recording.steps == 1 { "" } else { "s" },
        page.len() / 1024,
        started.elapsed().as_secs_f64()
    );
    Ok(0)
}
