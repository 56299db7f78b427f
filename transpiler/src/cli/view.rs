//! `chess2rs view`: a run recorded by the interpreter, written as one
//! self-contained HTML page.

use std::path::PathBuf;

use super::args::ViewArgs;
use super::output::write_output;
use super::report::Reporter;
use super::{interrupt, load, program_stem, CliResult, Failure, EXIT_RUNTIME_ERROR};

/// Records the run on stdin and writes the page.
pub(super) fn view(args: &ViewArgs, reporter: &Reporter) -> CliResult<u8> {
    let loaded = load(&args.source.file, &args.source.lang)?;
    let checked = reporter.checked(&loaded)?;
    let output = match &args.output {
        Some(path) => path.clone(),
        None => PathBuf::from(format!("{}.html", program_stem(&args.source.file))),
    };
    let mut options = args.limits.options();
    // Without --max-steps, a run that never ends still ends here.
    if options.max_steps.is_none() {
        options.max_steps = Some((args.max_frames as u64).saturating_add(args.run_past));
    }
    let started = std::time::Instant::now();
    let (recording, signal) = interrupt::catching(|| {
        crate::view::record(
            &checked.program,
            std::io::stdin().lock(),
            &options,
            args.max_frames,
            &|| interrupt::caught().is_some(),
        )
    })
    .map_err(|e| Failure::Message(e.to_string()))?;
    let page = crate::view::page(&recording, &loaded.source, loaded.language, args.max_frames);
    write_output(&output, &[&args.source.file], None, |out| {
        out.write_all(page.as_bytes())
    })?;
    // The run's end as `interpret` reports it, then what was written.
    if let Some(error) = &recording.error {
        reporter.runtime_error(error, &loaded, &recording.commands);
    }
    let wrote = format!(
        "wrote {} ({} of {} step{}, {} KiB) in {:.2} s",
        output.display(),
        recording.frames.len(),
        recording.steps,
        if recording.steps == 1 { "" } else { "s" },
        page.len() / 1024,
        started.elapsed().as_secs_f64()
    );
    reporter.progress(&wrote, &wrote);
    if let Some(signal) = signal {
        return Err(Failure::Interrupted(signal));
    }
    if recording.error.is_some() {
        return Ok(EXIT_RUNTIME_ERROR);
    }
    Ok(0)
}
