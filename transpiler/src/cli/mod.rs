//! The `chess2rs` command line: emit Rust (default), `run`, `build`,
//! `interpret`, `check`.

mod build;
mod interrupt;
mod output;

use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};

use self::output::{refuse_inputs, same_file, to_stdout, write_output};
use crate::emit::ProgramText;
use crate::{check, compile_file, interpret, Checked, Diagnostics, Language, Source};
use chess2rs_runtime::Options;

/// Exit code for compile errors and bad command lines.
pub const EXIT_COMPILE_ERROR: u8 = 2;
/// Exit code for runtime errors.
pub const EXIT_RUNTIME_ERROR: u8 = 1;

const ABOUT: &str = "Compile chess-themed esoteric programs to Rust";

const LONG_ABOUT: &str = "\
Compile chess-themed esoteric programs to Rust.

Languages (chosen by file extension, or --lang):
  InfChessPro  .icp   an infinite chess board with goto lines
  Chess Code   .chc   Brainfuck-like cells in move notation
  Chessoteric  .pgn   a chess game whose annotated boards build a Turing machine
  BTM          .btm   Chessoteric's Turing-machine listing
  Finvara      .fv    fairy chess driving two stacks

With no verb, prints the generated Rust program for FILE on stdout.";

const EXAMPLES: &str = "\
Examples:
  chess2rs examples/beer.icp > beer.rs      # Rust using chess2rs-runtime
  chess2rs --standalone examples/beer.icp > beer.rs   # one file: rustc -O
  chess2rs run examples/beer.icp            # compile natively (cached), run
  chess2rs interpret examples/register.icp < in.txt   # run without rustc
  chess2rs check examples/beer.icp          # errors and warnings only
  chess2rs explain examples/chessoteric-hello.pgn     # a game, move by move

Exit codes: 0 the program halted, 1 runtime error, 2 compile error or bad
usage.";

#[derive(Parser, Debug)]
#[command(
    name = "chess2rs",
    version,
    about = ABOUT,
    long_about = LONG_ABOUT,
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true,
    subcommand_negates_reqs = true,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    verb: Option<Verb>,
    #[command(flatten)]
    emit: EmitArgs,
}

#[derive(Args, Debug)]
struct EmitArgs {
    /// The program to compile (`-` reads it from stdin; then give --lang).
    #[arg(required = true)]
    file: Option<PathBuf>,
    #[command(flatten)]
    lang: LangArg,
    /// Inline the runtime so `rustc -O FILE.rs` builds the program alone.
    #[arg(long)]
    standalone: bool,
    /// What to print: the Rust program, or the lowered program for debugging.
    #[arg(long, value_enum, default_value_t = EmitKind::Rust)]
    emit: EmitKind,
    /// Write to this file instead of stdout.
    ///
    /// A file is replaced whole (through a temporary file next to it), a
    /// symbolic link's target is replaced (the link stays), a FIFO or a
    /// device is written in place.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
struct LangArg {
    /// The language, overriding the file extension: icp, chc, pgn, btm, fv
    /// (or its name, e.g. infchesspro).
    #[arg(long, value_name = "LANG", value_parser = parse_language)]
    lang: Option<Language>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum EmitKind {
    /// The Rust program.
    Rust,
    /// The lowered program (labels resolved, names interned).
    Ir,
}

#[derive(Subcommand, Debug)]
enum Verb {
    /// Compile the program natively with rustc (cached) and run it.
    #[command(after_help = "\
Example:
  chess2rs run examples/register.icp < examples/register.icp.in

The program reads this process's stdin and writes its stdout; chess2rs exits
with the program's exit code. Builds are cached (in $CHESS2RS_CACHE_DIR, else
$XDG_CACHE_HOME/chess2rs or ~/.cache/chess2rs), so running an unchanged
program again starts at once. rustc optimises fully (opt-level 3); set
CHESS2RS_OPT_LEVEL=0 for builds about three times faster.

On SIGINT or SIGTERM, chess2rs stops rustc (removing its unfinished build)
or the program, and exits with 130 or 143.")]
    Run(RunArgs),
    /// Compile the program to a native executable.
    #[command(after_help = "\
Example:
  chess2rs build examples/beer.icp -o beer && ./beer

The executable accepts --max-steps N and --max-memory SIZE.")]
    Build(BuildArgs),
    /// Run the program in the interpreter, without rustc.
    #[command(after_help = "\
Examples:
  echo '5 3 2' | chess2rs interpret examples/register.icp --max-steps 1000
  # the board and both stacks after each move line:
  echo 0 | chess2rs interpret examples/truth.fv --trace
  # the first 20 machine steps:
  chess2rs interpret examples/hello.btm --trace --trace-limit 20")]
    Interpret(InterpretArgs),
    /// Explain a Chessoteric game: each annotated board, its bits and its
    /// instruction, then the machine.
    #[command(after_help = "\
Examples:
  # boards, bits, instructions, rules, tape:
  chess2rs explain examples/chessoteric-hello.pgn
  # the same program as a BTM listing:
  chess2rs explain examples/chessoteric-hello.pgn --btm > hello.btm
  # one SVG picture per annotated move, in the directory boards:
  chess2rs explain examples/chessoteric-hello.pgn --svg boards

Bits are shown as leading bits | marker | value bits (coloured on a
terminal).")]
    Explain(ExplainArgs),
    /// Write a Chessoteric game (PGN) that builds the machine of a BTM
    /// listing or of another game: a legal game from the standard position,
    /// checked by playing it back before it is printed.
    #[command(after_help = "\
Examples:
  chess2rs synth examples/hello.btm -o hello.pgn && chess2rs run hello.pgn
  # re-encode a game (62 moves instead of 75):
  chess2rs synth examples/chessoteric-hello.pgn
  chess2rs synth examples/hello.btm --annotate | chess2rs explain --lang pgn -

The game is an opening that sets up a writing area by h8, then moves whose
annotations write the rules' parts and the tape symbols in order. Rules
that a later rule replaces, rules for states 1 and 2 and leftover parts
are not written: the game builds the same machine with fewer moves.")]
    Synth(SynthArgs),
    /// Report errors and warnings only.
    #[command(after_help = "\
Example:
  chess2rs check examples/beer.icp

Exits with 0 if the program compiles (warnings allowed), 2 otherwise.")]
    Check(SourceArgs),
    /// Print a shell completion script.
    #[command(after_help = "\
Examples:
  chess2rs completions bash \\
      > ~/.local/share/bash-completion/completions/chess2rs
  chess2rs completions zsh > ~/.zfunc/_chess2rs
  chess2rs completions fish > ~/.config/fish/completions/chess2rs.fish")]
    Completions {
        /// The shell: bash, zsh, fish, elvish or powershell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print a manual page (roff): chess2rs(1), or a verb's page.
    #[command(after_help = "\
Examples:
  chess2rs man > chess2rs.1 && man ./chess2rs.1
  chess2rs man run | man -l -          # chess2rs-run(1)
  # every page, chess2rs.1 and chess2rs-VERB.1, for MANPATH:
  chess2rs man --dir ~/.local/share/man/man1")]
    Man(ManArgs),
}

#[derive(Args, Debug)]
struct ManArgs {
    /// The verb whose page to print (chess2rs-VERB(1)); none: chess2rs(1).
    verb: Option<String>,
    /// Write every page (chess2rs.1 and one per verb) into DIR instead.
    #[arg(long, value_name = "DIR", conflicts_with = "verb")]
    dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct SourceArgs {
    /// The program (`-` reads it from stdin; then give --lang).
    file: PathBuf,
    #[command(flatten)]
    lang: LangArg,
}

#[derive(Args, Debug)]
struct ExplainArgs {
    #[command(flatten)]
    source: SourceArgs,
    /// Print only the BTM listing (it compiles to the same program).
    #[arg(long, conflicts_with = "svg")]
    btm: bool,
    /// Write one SVG diagram per annotated move into DIR.
    #[arg(long, value_name = "DIR")]
    svg: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct SynthArgs {
    #[command(flatten)]
    source: SourceArgs,
    /// Write the game to this file instead of stdout (replaced whole; a
    /// symbolic link's target is replaced, a FIFO or a device written in
    /// place).
    #[arg(short, long, value_name = "GAME.pgn")]
    output: Option<PathBuf>,
    /// Add the seven standard tags and, after each annotated move, a
    /// comment naming the value it writes.
    #[arg(long)]
    annotate: bool,
    /// Print nothing on stderr: no progress, no warnings (errors still).
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct RunArgs {
    #[command(flatten)]
    source: SourceArgs,
    /// Stop with a runtime error after N steps (executed lines, moves or
    /// transitions).
    #[arg(long, value_name = "N")]
    max_steps: Option<u64>,
    /// Stop with a runtime error when what the program grows (a tape,
    /// pieces, stacks) would pass SIZE bytes: a number with K, M, G or T
    /// (powers of 1024), or `unlimited`.
    #[arg(long, value_name = "SIZE", value_parser = memory_size, default_value = "2G")]
    max_memory: u64,
    /// Print nothing on stderr while compiling.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Args, Debug)]
struct InterpretArgs {
    #[command(flatten)]
    source: SourceArgs,
    /// Stop with a runtime error after N steps (executed lines, moves or
    /// transitions).
    #[arg(long, value_name = "N")]
    max_steps: Option<u64>,
    /// Stop with a runtime error when what the program grows (a tape,
    /// pieces, stacks) would pass SIZE bytes: a number with K, M, G or T
    /// (powers of 1024), or `unlimited`.
    #[arg(long, value_name = "SIZE", value_parser = memory_size, default_value = "2G")]
    max_memory: u64,
    /// After each step, print on stderr what it did: the line and the pieces
    /// (InfChessPro), the cells and variables (Chess Code), the rule and the
    /// tape around the head (Chessoteric, BTM), the board and both stacks
    /// (Finvara).
    #[arg(long)]
    trace: bool,
    /// Stop tracing after N steps (the program runs on).
    #[arg(long, value_name = "N", default_value_t = 10_000, requires = "trace")]
    trace_limit: u64,
}

#[derive(Args, Debug)]
struct BuildArgs {
    #[command(flatten)]
    source: SourceArgs,
    /// Where to write the executable (default: the program's name without
    /// extension, in the current directory).
    #[arg(short, long, value_name = "EXE")]
    output: Option<PathBuf>,
    /// Print nothing on stderr while compiling.
    #[arg(short, long)]
    quiet: bool,
}

fn parse_language(name: &str) -> Result<Language, String> {
    Language::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Language::ALL.iter().map(|l| l.extension()).collect();
        let names = Language::ALL.iter().map(|l| l.name().to_lowercase());
        let names: Vec<String> = names.collect();
        let candidates = known
            .iter()
            .copied()
            .chain(names.iter().map(String::as_str));
        let hint = match crate::diag::did_you_mean(name, candidates) {
            Some(close) => format!("; did you mean `{close}`?"),
            None => String::new(),
        };
        format!(
            "unknown language `{name}` (expected one of: {}){hint}",
            known.join(", ")
        )
    })
}

/// The verbs, for "did you mean" on a mistyped one.
const VERBS: [&str; 9] = [
    "run",
    "build",
    "interpret",
    "check",
    "explain",
    "synth",
    "completions",
    "man",
    "help",
];

/// A first argument that is not a file and reads like a mistyped verb
/// (`chess2rs runn x.icp`): the message saying so, else `None`. Without
/// this, clap takes the word for the program file and complains about the
/// next argument instead.
fn mistyped_verb(args: &[std::ffi::OsString]) -> Option<String> {
    let first = args.get(1)?.to_str()?;
    if first.starts_with('-')
        || VERBS.contains(&first)
        || Path::new(first).exists()
        || Language::from_path(Path::new(first)).is_some()
    {
        return None;
    }
    let suggestion = crate::diag::did_you_mean(first, VERBS);
    let more_args = args.len() > 2;
    match suggestion {
        Some(verb) => Some(format!(
            "`{first}` is not a verb or a program file; did you mean `chess2rs {verb}`?"
        )),
        None if more_args => Some(format!(
            "`{first}` is not a verb or a program file (verbs: {})",
            VERBS.join(", ")
        )),
        None => None,
    }
}

/// Runs the CLI with the process's arguments and returns its exit code.
pub fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if let Some(message) = mistyped_verb(&args) {
        eprintln!("error: {message}\n\nFor more information, try `chess2rs --help`.");
        return ExitCode::from(EXIT_COMPILE_ERROR);
    }
    let cli = Cli::parse_from(args);
    let result = match cli.verb {
        None => emit_rust(&cli.emit),
        Some(Verb::Check(args)) => check_only(&args),
        Some(Verb::Explain(args)) => explain_game(&args),
        Some(Verb::Synth(args)) => synth_game(&args),
        Some(Verb::Interpret(args)) => interpret_file(&args),
        Some(Verb::Run(args)) => build::run(&args),
        Some(Verb::Build(args)) => build::build(&args),
        Some(Verb::Completions { shell }) => {
            // Generated in memory: clap_complete panics on a failed write.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "chess2rs", &mut script);
            to_stdout(|out| out.write_all(&script)).map(|()| 0)
        }
        Some(Verb::Man(args)) => manual(&args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // The conventional status of a process ended by the signal.
        Err(Failure::Interrupted(signal)) => {
            ExitCode::from(u8::try_from(128 + signal).unwrap_or(u8::MAX))
        }
        Err(failure) => {
            failure.report();
            ExitCode::from(EXIT_COMPILE_ERROR)
        }
    }
}

/// `chess2rs man`: the manual page of the command or of one verb on
/// stdout, or all of them written into a directory. The command's page
/// lists the verbs as chess2rs-VERB(1), so those pages exist too.
fn manual(args: &ManArgs) -> CliResult<u8> {
    // No `help` verb: it has no page of its own.
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    if let Some(dir) = &args.dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Message(format!("cannot create `{}`: {e}", dir.display())))?;
        let mut pages = vec![command.clone()];
        pages.extend(command.get_subcommands().cloned());
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
            let verbs: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
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

/// Why the CLI stopped before running a program.
enum Failure {
    /// The program has errors (already printed).
    Diagnostics,
    /// Anything else: a message for `error: ...`.
    Message(String),
    /// SIGINT or SIGTERM (the number) came while rustc or the program ran;
    /// the child was killed and waited for. Nothing to print.
    Interrupted(i32),
}

impl Failure {
    fn report(&self) {
        if let Failure::Message(message) = self {
            eprintln!("error: {message}");
        }
    }
}

type CliResult<T> = Result<T, Failure>;

/// A program loaded from a file or stdin, with its language.
struct Loaded {
    source: Source,
    language: Language,
}

fn load(file: &Path, lang: &LangArg) -> CliResult<Loaded> {
    let (name, bytes) = if file == Path::new("-") {
        let mut bytes = Vec::new();
        std::io::stdin()
            .read_to_end(&mut bytes)
            .map_err(|e| Failure::Message(format!("cannot read the program from stdin: {e}")))?;
        ("<stdin>".to_string(), bytes)
    } else {
        let bytes = std::fs::read(file)
            .map_err(|e| Failure::Message(format!("cannot read `{}`: {e}", file.display())))?;
        (file.display().to_string(), bytes)
    };
    let language = match lang.lang.or_else(|| Language::from_path(file)) {
        Some(language) => language,
        None => {
            return Err(Failure::Message(format!(
                "cannot tell the language of `{name}` from its extension; give --lang (icp, chc, pgn, btm or fv)"
            )))
        }
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        Failure::Message(format!(
            "`{name}` is not valid UTF-8 (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })?;
    Ok(Loaded {
        source: Source::new(name, text),
        language,
    })
}

/// Prints diagnostics on stderr, coloured when stderr is a terminal.
fn print_diagnostics(diagnostics: &Diagnostics, source: &Source) {
    if diagnostics.is_empty() {
        return;
    }
    let color = if std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
        ColorChoice::Auto
    } else {
        ColorChoice::Never
    };
    let mut stderr = StandardStream::stderr(color);
    diagnostics.emit(source, &mut stderr);
}

/// Checks the program, printing warnings, or prints errors and fails.
fn checked(loaded: &Loaded) -> CliResult<Checked> {
    checked_showing_warnings(loaded, true)
}

/// The checked program; errors printed, and warnings if `warnings`.
fn checked_showing_warnings(loaded: &Loaded, warnings: bool) -> CliResult<Checked> {
    match check(&loaded.source, loaded.language) {
        Ok(checked) => {
            if warnings {
                print_diagnostics(&checked.warnings, &loaded.source);
            }
            Ok(checked)
        }
        Err(errors) => {
            print_diagnostics(&errors, &loaded.source);
            Err(Failure::Diagnostics)
        }
    }
}

/// The generated program file for `loaded`, warnings printed.
fn program_file(loaded: &Loaded, standalone: bool) -> CliResult<ProgramText> {
    match compile_file(&loaded.source, loaded.language, standalone) {
        Ok((text, warnings)) => {
            print_diagnostics(&warnings, &loaded.source);
            Ok(text)
        }
        Err(errors) => {
            print_diagnostics(&errors, &loaded.source);
            Err(Failure::Diagnostics)
        }
    }
}

fn emit_rust(args: &EmitArgs) -> CliResult<u8> {
    let Some(file) = &args.file else {
        return Err(Failure::Message(
            "no program given; see `chess2rs --help`".into(),
        ));
    };
    let loaded = load(file, &args.lang)?;
    let text = match args.emit {
        EmitKind::Rust => program_file(&loaded, args.standalone)?,
        EmitKind::Ir => ProgramText::from(crate::ir_dump(&checked(&loaded)?.program) + "\n"),
    };
    match &args.output {
        Some(path) => write_output(path, &[file], None, |out| text.write_to(out))?,
        None => to_stdout(|out| text.write_to(out))?,
    }
    Ok(0)
}

fn check_only(args: &SourceArgs) -> CliResult<u8> {
    let loaded = load(&args.file, &args.lang)?;
    let checked = checked(&loaded)?;
    let warnings = checked.warnings.0.len();
    eprintln!(
        "{}: no errors ({}, {warnings} warning{})",
        loaded.source.name(),
        loaded.language,
        if warnings == 1 { "" } else { "s" }
    );
    Ok(0)
}

fn interpret_file(args: &InterpretArgs) -> CliResult<u8> {
    let loaded = load(&args.source.file, &args.source.lang)?;
    let checked = checked(&loaded)?;
    let options = Options {
        max_steps: args.max_steps,
        max_memory: Some(args.max_memory),
    };
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let result = if args.trace {
        crate::interpret_traced(
            &checked.program,
            stdin.lock(),
            stdout.lock(),
            &options,
            args.trace_limit,
            &mut std::io::stderr().lock(),
        )
    } else if std::io::stderr().is_terminal() {
        // A long run shows how far it got, after a second.
        let done = std::sync::atomic::AtomicU64::new(0);
        let (stop, wait) = std::sync::mpsc::channel::<()>();
        std::thread::scope(|scope| {
            let done = &done;
            scope.spawn(move || {
                show_progress(
                    || format!("{} steps", done.load(std::sync::atomic::Ordering::Relaxed)),
                    &wait,
                )
            });
            let result = crate::interpret_counted(
                &checked.program,
                stdin.lock(),
                stdout.lock(),
                &options,
                done,
            );
            let _ = stop.send(());
            result
        })
    } else {
        interpret(&checked.program, stdin.lock(), stdout.lock(), &options)
    };
    match result {
        Ok(()) => Ok(0),
        Err(err) => {
            eprint!(
                "{}",
                crate::runtime_errors::render_runtime_error(&err, &loaded.source, loaded.language)
            );
            Ok(EXIT_RUNTIME_ERROR)
        }
    }
}

/// Shows `running: STATUS…` on stderr, from one second after the start
/// until `stop` says the program ended, then clears the line.
fn show_progress(status: impl Fn() -> String, stop: &std::sync::mpsc::Receiver<()>) {
    use std::sync::mpsc::RecvTimeoutError;
    use std::time::Duration;
    if !matches!(
        stop.recv_timeout(Duration::from_secs(1)),
        Err(RecvTimeoutError::Timeout)
    ) {
        return;
    }
    loop {
        eprint!("\r  running: {}…", status());
        if !matches!(
            stop.recv_timeout(Duration::from_millis(250)),
            Err(RecvTimeoutError::Timeout)
        ) {
            break;
        }
    }
    eprint!("\r{}\r", " ".repeat(40));
}

fn synth_game(args: &SynthArgs) -> CliResult<u8> {
    use crate::lang::chessoteric::synth::{synthesize, SynthOptions};
    let loaded = load(&args.source.file, &args.source.lang)?;
    if !matches!(loaded.language, Language::Chessoteric | Language::Btm) {
        return Err(Failure::Message(format!(
            "`synth` writes games for BTM listings (.btm) and Chessoteric games (.pgn); `{}` is {}",
            loaded.source.name(),
            loaded.language
        )));
    }
    let checked = checked_showing_warnings(&loaded, !args.quiet)?;
    let crate::Program::Chessoteric(machine) = &checked.program else {
        return Err(Failure::Message("not a Chessoteric program".into()));
    };
    let started = std::time::Instant::now();
    let quiet = args.quiet;
    let mut report = |message: &str| {
        if !quiet {
            eprintln!("synth: {message}");
        }
    };
    let options = SynthOptions {
        annotate: args.annotate,
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

fn explain_game(args: &ExplainArgs) -> CliResult<u8> {
    use crate::lang::chessoteric::{explain, instructions};
    let loaded = load(&args.source.file, &args.source.lang)?;
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
    let instructions = instructions(&loaded.source, btm).map_err(|errors| {
        print_diagnostics(&errors, &loaded.source);
        Failure::Diagnostics
    })?;
    let text = if args.btm {
        explain::btm_listing(&instructions)
    } else if let Some(dir) = &args.svg {
        std::fs::create_dir_all(dir)
            .map_err(|e| Failure::Message(format!("cannot create `{}`: {e}", dir.display())))?;
        let mut written = 0;
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
            written += 1;
        }
        eprintln!(
            "wrote {written} SVG file{} to {}",
            if written == 1 { "" } else { "s" },
            dir.display()
        );
        return Ok(0);
    } else {
        let style = if std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none() {
            explain::Style::Colour
        } else {
            explain::Style::Plain
        };
        explain::explain(&loaded.source, &instructions, style).map_err(|errors| {
            print_diagnostics(&errors, &loaded.source);
            Failure::Diagnostics
        })?
    };
    to_stdout(|out| out.write_all(text.as_bytes()))?;
    Ok(0)
}

/// Parses `--max-memory`'s SIZE the way built programs do.
fn memory_size(text: &str) -> Result<u64, String> {
    chess2rs_runtime::__private::parse_size(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of every verb's closing text (examples, notes) survives
    /// an 80-column terminal unwrapped: a command cut in two cannot be
    /// copied.
    #[test]
    fn help_texts_fit_80_columns() {
        let mut command = Cli::command().term_width(80);
        command.build();
        let mut commands = vec![command.clone()];
        commands.extend(command.get_subcommands().cloned());
        for command in commands {
            let Some(after) = command.get_after_help().map(|text| text.to_string()) else {
                continue;
            };
            let name = command.get_name().to_string();
            let rendered = command.term_width(80).render_help().to_string();
            for line in after.lines() {
                assert!(
                    rendered.lines().any(|shown| shown == line),
                    "`{name}` help wraps {line:?}:\n{rendered}"
                );
            }
        }
    }
}
