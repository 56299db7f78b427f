//! `chess2rs man` (roff manual pages made from the command's own
//! definitions) and the command-line reference kept in `docs/cli.md`.

use clap::CommandFactory;

use super::args::{Cli, ManArgs};
use super::output::to_stdout;
use super::{CliResult, Failure};

/// `chess2rs man`: the manual page of the command or of one verb on
/// stdout, or all of them written into a directory. The command's page
/// lists the verbs as chess2rs-VERB(1), so those pages exist too.
pub(super) fn manual(args: &ManArgs) -> CliResult<u8> {
    // No `help` verb: it has no page of its own.
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Message(format!("cannot create `{}`: {e}", dir.display())))?;
        let mut pages = vec![command.clone()];
        pages.extend(
            command
                .get_subcommands()
                .filter(|verb| !verb.is_hide_set())
                .cloned(),
        );
        for page in pages {
            let page = man_page(page);
            let path = dir.join(page.get_filename());
            let mut roff = Vec::new();
            page.render(&mut roff)
                .and_then(|()| std::fs::write(&path, &roff))
                .map_err(|e| Failure::Message(format!("cannot write `{}`: {e}", path.display())))?;
            to_stdout(|out| writeln!(out, "{}", path.display()))?;
        }
        return Ok(0);
    }
    let page = match &args.verb {
        None => command,
        Some(verb) => command.find_subcommand(verb).cloned().ok_or_else(|| {
            let verbs: Vec<&str> = command
                .get_subcommands()
                .filter(|c| !c.is_hide_set())
                .map(|c| c.get_name())
                .collect();
            Failure::Message(format!(
                "`{verb}` is not a verb; pages exist for {}",
                verbs.join(", ")
            ))
        })?,
    };
    let mut roff = Vec::new();
    man_page(page)
        .render(&mut roff)
        .map_err(|e| Failure::Message(format!("cannot render the manual page: {e}")))?;
    to_stdout(|out| out.write_all(&roff))?;
    Ok(0)
}

/// The manual page of `command` (the whole command or one verb), each
/// saying which chess2rs it documents.
fn man_page(command: clap::Command) -> clap_mangen::Man {
    clap_mangen::Man::new(command).source(format!("chess2rs {}", env!("CARGO_PKG_VERSION")))
}

/// The command-line reference (`docs/cli.md`): every verb's help, as
/// `chess2rs VERB --help` prints it at 80 columns. A test keeps the file
/// equal to this.
pub fn reference() -> String {
    let mut command = Cli::command().term_width(80);
    command.build();
    let mut out = String::from(
        "# The `chess2rs` command line\n\n\
         Every verb's `--help`, as the command prints it. This file is generated\n\
         from the command's own definitions and checked by a test; after changing\n\
         the command line, regenerate it with\n\
         `CHESS2RS_WRITE_CLI_DOCS=1 cargo test -p chess2rs --test cli cli_reference`.\n\n\
         Shell completions: `chess2rs completions bash|zsh|fish|elvish|powershell`;\n\
         manual pages: `chess2rs man [VERB]`, or all of them with `chess2rs man --dir DIR`.\n\n",
    );
    let help = |command: &mut clap::Command| command.render_long_help().to_string();
    out.push_str(&format!(
        "## `chess2rs`\n\n```text\n{}```\n",
        help(&mut command)
    ));
    let names: Vec<String> = command
        .get_subcommands()
        .filter(|sub| !sub.is_hide_set())
        .map(|sub| sub.get_name().to_string())
        .filter(|name| name != "help")
        .collect();
    for name in names {
        if let Some(sub) = command.find_subcommand_mut(&name) {
            let mut sub = sub
                .clone()
                .term_width(80)
                .bin_name(format!("chess2rs {name}"));
            out.push_str(&format!(
                "\n## `chess2rs {name}`\n\n```text\n{}```\n",
                help(&mut sub)
            ));
        }
    }
    out.trim_end().to_string() + "\n"
}
