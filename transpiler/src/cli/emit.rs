//! `chess2rs FILE` (no verb): the generated Rust program, or with
//! `--emit ir` the lowered program.

use super::args::{EmitArgs, EmitKind};
use super::output::{to_stdout, write_output};
use super::report::Reporter;
use super::{load, CliResult, Failure};
use crate::emit::ProgramText;

/// Prints (or writes to `-o`) the program file for `args.file`.
pub(super) fn emit_rust(args: &EmitArgs, reporter: &Reporter) -> CliResult<u8> {
    let Some(file) = &args.file else {
        return Err(Failure::Message(
            "no program given; see `chess2rs --help`".into(),
        ));
    };
    let loaded = load(file, &args.lang)?;
    let text = match args.emit {
        EmitKind::Rust => reporter.program_file(&loaded, args.standalone)?,
        EmitKind::Ir => {
            ProgramText::from(crate::ir_dump(&reporter.checked(&loaded)?.program) + "\n")
        }
    };
    match &args.output {
        Some(path) => write_output(path, &[file], None, |out| text.write_to(out))?,
        None => to_stdout(|out| text.write_to(out))?,
    }
    Ok(0)
}
