//! `chess2rs view`: a run recorded by the interpreter, written as one
//! self-contained HTML page.

use std::path::{Path, PathBuf};

use chess2rs_runtime::Options;

use super::args::ViewArgs;
use super::output::write_output;
use super::report::Reporter;
use super::{load, CliResult};

/// Records the run on stdin and writes the page.
pub(super) fn view(args: &ViewArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(&args.source.file, &args.source.lang)?;
    let checked = reporter.checked(&loaded)?;
    let output = match &args.output {
        Some(path) => path.clone(),
        None => {
            let stem = Path::new(loaded.source.name())
                .file_stem()
                .and_then(|stem| stem.to_str())
                .filter(|stem| !stem.is_empty() && *stem != "<stdin>")
                .unwrap_or("program");
            PathBuf::from(format!("{stem}.html"))
        }
    };
    let options = Options {
        max_steps: args.max_steps,
        max_memory: Some(args.max_memory),
    };
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
