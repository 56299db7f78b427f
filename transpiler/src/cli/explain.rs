//! `chess2rs explain`: a Chessoteric game move by move, as a BTM
//! listing, or as SVG pictures.

use super::args::ExplainArgs;
use super::output::{same_file, to_stdout};
use super::report::{Reporter, Stream};
use super::{load, CliResult, Failure};
use crate::Language;

/// Explains the game (or listing) on stdout, or writes its pictures.
pub(super) fn explain_game(args: &ExplainArgs, reporter: &Reporter) -> CliResult<u8> {
    use crate::lang::chessoteric::{explain, instructions};
    // `chess2rs explain E0105` for `chess2rs --explain E0105`.
    let file = &args.source.file;
    let code = file.to_str().and_then(crate::diag::Code::parse);
    if let Some(code) = code.filter(|_| !file.exists()) {
        return Err(Failure::Message(format!(
            "`explain` shows Chessoteric games; `{}` is a diagnostic code: `chess2rs --explain {}` explains it",
            file.display(),
            code.as_str()
        )));
    }
    let loaded = load(file, &args.source.lang)?;
    let btm = match loaded.language {
        Language::Chessoteric => false,
        Language::Btm => true,
        other => {
            return Err(Failure::Message(format!(
                "`explain` shows Chessoteric games (.pgn) and BTM listings (.btm); `{}` is {other}",
                loaded.source.name()
            )))
        }
    };
    let instructions = reporter.or_errors(instructions(&loaded.source, btm), &loaded.source)?;
    let text = if args.btm {
        explain::btm_listing(&instructions)
    } else if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Message(format!("cannot create `{}`: {e}", dir.display())))?;
        let mut written = Vec::new();
        for (index, instruction) in instructions.iter().enumerate() {
            let Some(snapshot) = &instruction.snapshot else {
                continue;
            };
            let side = if snapshot.white { "white" } else { "black" };
            let path = dir.join(format!(
                "{:03}-move-{}-{side}.svg",
                index + 1,
                snapshot.number
            ));
            if same_file(&path, &args.source.file) {
                return Err(Failure::Message(format!(
                    "refusing to write `{}`: it is the game itself; choose another --svg directory",
                    path.display()
                )));
            }
            std::fs::write(&path, explain::svg(snapshot, instruction))
                .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", path.display())))?;
            written.push(path);
        }
        // The files on stdout, one per line (for scripts); the count on
        // stderr.
        to_stdout(|out| {
            written
                .iter()
                .try_for_each(|path| writeln!(out, "{}", path.display()))
        })?;
        let wrote = format!(
            "wrote {} SVG file{} to {}",
            written.len(),
            if written.len() == 1 { "" } else { "s" },
            dir.display()
        );
        reporter.progress(&wrote, &wrote);
        return Ok(0);
    } else {
        let style = if reporter.colours(Stream::Stdout) {
            explain::Style::Colour
        } else {
            explain::Style::Plain
        };
        reporter.or_errors(
            explain::explain(&loaded.source, &instructions, style),
            &loaded.source,
        )?
    };
    to_stdout(|out| out.write_all(text.as_bytes()))?;
    Ok(0)
}
