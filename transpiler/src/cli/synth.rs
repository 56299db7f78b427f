//! `chess2rs synth`: a legal Chessoteric game for a machine.

use super::args::{SynthArgs, SynthDesign};
use super::output::{to_stdout, write_output};
use super::report::Reporter;
use super::{load, CliResult, Failure};
use crate::Language;

/// Writes the game for a BTM listing or a Chessoteric game.
pub(super) fn synth_game(args: &SynthArgs, reporter: &Reporter) -> CliResult<u8> {
    use crate::lang::chessoteric::synth::{synthesize, Design, SynthOptions};
    let loaded = load(&args.source.file, &args.source.lang)?;
    if !matches!(loaded.language, Language::Chessoteric | Language::Btm) {
        return Err(Failure::Message(format!(
            "`synth` writes games for BTM listings (.btm) and Chessoteric games (.pgn); `{}` is {}",
            loaded.source.name(),
            loaded.language
        )));
    }
    let checked = reporter.checked_showing_warnings(&loaded, !args.quiet)?;
    let crate::Program::Chessoteric(machine) = &checked.program else {
        return Err(Failure::Message("not a Chessoteric program".into()));
    };
    let started = std::time::Instant::now();
    let quiet = args.quiet;
    let mut report = |message: &str| {
        if !quiet {
            reporter.progress(&format!("synth: {message}"), message);
        }
    };
    let options = SynthOptions {
        annotate: args.annotate,
        design: match args.design {
            SynthDesign::Best => Design::Best,
            SynthDesign::WholeBoard => Design::WholeBoard,
            SynthDesign::Corner => Design::Corner,
            SynthDesign::KingsWalk => Design::KingsWalk,
        },
    };
    let game =
        synthesize(machine, options, &mut report).map_err(|e| Failure::Message(e.to_string()))?;
    report(&format!(
        "{} moves ({} plies, {} annotated) for {} bits in {:.2} s",
        game.moves(),
        game.plies,
        game.annotated,
        game.bits,
        started.elapsed().as_secs_f64()
    ));
    let pgn = game.pgn.as_bytes();
    match &args.output {
        Some(path) => write_output(path, &[&args.source.file], None, |out| out.write_all(pgn))?,
        None => to_stdout(|out| out.write_all(pgn))?,
    }
    Ok(0)
}
