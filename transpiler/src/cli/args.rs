//! The command line's definitions: the arguments of every verb (clap
//! derive), their help texts, and the checks clap cannot make itself (a
//! mistyped verb, a language name).

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use super::report::ReportArgs;
use crate::Language;

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
  chess2rs --explain E0105                  # what an error code means

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
pub(super) struct Cli {
    #[command(subcommand)]
    pub(super) verb: Option<Verb>,
    /// Print the explanation of a diagnostic code (the `E0105` of
    /// `error[E0105]: ...`): what it means, a program that has it and the
    /// program corrected. `docs/diagnostics.md` lists every code.
    #[arg(long, value_name = "CODE", exclusive = true)]
    pub(super) explain: Option<String>,
    #[command(flatten)]
    pub(super) emit: EmitArgs,
    #[command(flatten)]
    pub(super) report: ReportArgs,
}

#[derive(Args, Debug)]
pub(super) struct EmitArgs {
    /// The program to compile (`-` reads it from stdin; then give --lang).
    #[arg(required = true)]
    pub(super) file: Option<PathBuf>,
    #[command(flatten)]
    pub(super) lang: LangArg,
    /// Inline the runtime so `rustc -O FILE.rs` builds the program alone.
    #[arg(long)]
    pub(super) standalone: bool,
    /// What to print: the Rust program, or the lowered program for debugging.
    #[arg(long, value_enum, default_value_t = EmitKind::Rust)]
    pub(super) emit: EmitKind,
    /// Write to this file instead of stdout.
    ///
    /// A file is replaced whole (through a temporary file next to it), a
    /// symbolic link's target is replaced (the link stays), a FIFO or a
    /// device is written in place.
    #[arg(short, long, value_name = "FILE")]
    pub(super) output: Option<PathBuf>,
}

#[derive(Args, Debug, Clone)]
pub(super) struct LangArg {
    /// The language, overriding the file extension: icp, chc, pgn, btm, fv
    /// (or its name, e.g. infchesspro).
    #[arg(long, value_name = "LANG", value_parser = parse_language)]
    pub(super) lang: Option<Language>,
}

#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum EmitKind {
    /// The Rust program.
    Rust,
    /// The lowered program (labels resolved, names interned).
    Ir,
}

#[derive(Subcommand, Debug)]
pub(super) enum Verb {
    /// Compile the program natively with rustc (cached) and run it.
    #[command(after_help = "\
Example:
  chess2rs run examples/register.icp < examples/register.icp.in

The program reads this process's stdin and writes its stdout; chess2rs exits
with the program's exit code.

Tiers: a program that is not compiled yet starts at once in the interpreter
while rustc compiles it in the background; if rustc is done first, the
compiled program takes over where the interpreter stopped (it reruns from the
start on the same input and skips the output already printed), so `run` is
never slower than `interpret` and prints exactly what it prints. A run that
interprets for 100 ms or more lets the build finish, so the next run starts
compiled; --tier interpret or --tier compiled forces one side.

Builds are cached by content (in
$CHESS2RS_CACHE_DIR, else $XDG_CACHE_HOME/chess2rs or ~/.cache/chess2rs; see
`chess2rs cache`; a cache another user could write into is refused), so
running an unchanged program again, by any path, starts at once, and
`build` reuses what `run` built. Programs link the
chess2rs runtime, which rustc compiles once per toolchain (a few seconds,
the first time). rustc optimises fully (opt-level 3); set
CHESS2RS_OPT_LEVEL=0 for builds about three times faster.

On SIGINT or SIGTERM, chess2rs stops rustc (removing its unfinished build)
or the program, and exits with 130 or 143.")]
    Run(RunArgs),
    /// Compile the program to a native executable.
    #[command(after_help = "\
Example:
  chess2rs build examples/beer.icp -o beer && ./beer

The executable accepts --max-steps N, --max-memory SIZE and
--message-format human|short|json (how it prints a runtime error).")]
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
  # re-encode a game (35 moves instead of 75):
  chess2rs synth examples/chessoteric-hello.pgn
  chess2rs synth examples/hello.btm --annotate | chess2rs explain --lang pgn -
  chess2rs synth examples/hello.btm --design corner  # 62 moves, milliseconds

Annotated moves write the rules' parts and the tape symbols in order. By
default two designs write the game and the shorter is kept: a beam search
over the game's own positions, which sets up its own marker (a few seconds,
one search on each of two cores), and the corner design, an opening that
sets up a writing area by h8 (milliseconds). Rules that a later rule
replaces, rules for states 1 and 2 and leftover parts are not written: the
game builds the same machine with fewer moves.")]
    Synth(SynthArgs),
    /// Report errors and warnings only.
    #[command(after_help = "\
Example:
  chess2rs check examples/beer.icp

Exits with 0 if the program compiles (warnings allowed, unless
-D warnings), 2 otherwise. For editors and scripts:
  chess2rs check --message-format json examples/beer.icp")]
    Check(SourceArgs),
    /// Rewrite programs in their language's canonical layout.
    #[command(after_help = "\
Each language has one layout: InfChessPro `LABEL. COMMAND` without blanks
in the command; Chess Code loop bodies indented; Finvara boards redrawn to the
widest cell (short rows completed with empty cells); Chessoteric movetext
wrapped at 80 columns with canonical move numbers; comments and blank-line
groups kept. Formatting never changes what a program does; a program that
does not parse is left alone (exit 2, with its errors).

Examples:
  chess2rs fmt examples/*.icp examples/*.fv     # rewrite in place
  chess2rs fmt --check golden/**/*.chc          # CI: diff, exit 1 if any
  chess2rs fmt --renumber=10 prog.icp           # lines 10, 20, 30, …
  cat prog.fv | chess2rs fmt --lang fv -        # stdin to stdout

Exit codes: 0 formatted (or, with --check, already formatted), 1 --check
found a file that is not, 2 a file could not be read or parsed.")]
    Fmt(FmtArgs),
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
    /// Show or empty the build cache of `run` and `build`.
    #[command(after_help = "\
Examples:
  chess2rs cache path                  # where the executables are kept
  chess2rs cache list                  # program, size, last use
  chess2rs cache clean --older-than 30 # unused for 30 days
  chess2rs cache clean                 # everything

An entry is a program's executable or the runtime library that programs
link (one per toolchain). A program's entry is keyed by its text, its
language, chess2rs and the toolchain, not by the file's path or name: the
same program reached by another path, or copied, is not built again, and
`run` and `build` share it.")]
    Cache(CacheArgs),
    /// Run a language server on stdin/stdout, for editors: diagnostics as
    /// `check` reports them, hovers, go to definition, references, document
    /// symbols and semantic tokens, in all four languages.
    #[command(after_help = "\
Editors start it themselves; docs/editors.md has the set-up for VS Code,
Neovim and Helix. For example, Neovim:
  vim.lsp.start({ name = 'chess2rs', cmd = { 'chess2rs', 'lsp' } })

The language comes from the file's extension (.icp .chc .pgn .btm .fv), else
from the editor's language id.")]
    Lsp,
    /// Record a run in the interpreter and write it as one self-contained
    /// HTML page that plays it back step by step.
    #[command(after_help = "\
Examples:
  echo 0 | chess2rs view examples/truth.fv -o truth.html
  chess2rs view examples/hello.btm      # writes hello.html

The page needs nothing else (no network): a step slider, play/pause, step
buttons and the arrow keys; the source with the current line highlighted;
the board, cells or tape after the step; the output so far; how the run
ended. Long runs keep their first --max-frames steps.")]
    View(ViewArgs),
    /// `run`'s background build (not for people): reads a program from
    /// stdin, builds its executable into the cache, and prints its path.
    #[command(hide = true, name = "tier-build")]
    TierBuild(TierBuildArgs),
}

#[derive(Args, Debug)]
pub(super) struct TierBuildArgs {
    /// The program's language.
    #[arg(long, value_name = "LANG", value_parser = parse_language)]
    pub(super) lang: Language,
    /// The program's name, for `cache list`.
    #[arg(long, value_name = "NAME")]
    pub(super) name: String,
}

/// Which side of `run` runs the program.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Tier {
    /// The compiled program if it is in the cache; else interpret at once
    /// while rustc compiles, and switch to the compiled program if it is
    /// ready first.
    Auto,
    /// Only the interpreter (as `chess2rs interpret`).
    Interpret,
    /// Only the compiled program (wait for rustc).
    Compiled,
}

#[derive(Args, Debug)]
pub(super) struct ViewArgs {
    #[command(flatten)]
    pub(super) source: SourceArgs,
    /// Where to write the page (default: the program's name with .html, in
    /// the current directory).
    #[arg(short, long, value_name = "OUT.html")]
    pub(super) output: Option<PathBuf>,
    #[command(flatten)]
    pub(super) limits: LimitArgs,
    /// Record at most N steps (the run goes on and is counted).
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub(super) max_frames: usize,
    /// Without --max-steps, stop the run N steps after the last recorded
    /// one (a step-limit error, as --max-steps gives), so that a program
    /// that never ends still gets its page.
    #[arg(long, value_name = "N", default_value_t = 10_000_000)]
    pub(super) run_past: u64,
}

#[derive(Args, Debug)]
pub(super) struct CacheArgs {
    #[command(subcommand)]
    pub(super) action: CacheAction,
}

/// What `chess2rs cache` does.
#[derive(Subcommand, Debug)]
pub(super) enum CacheAction {
    /// Print the cache directory.
    Path,
    /// List the cached executables: the program each was last used for,
    /// its size and how long ago it was last used.
    List,
    /// Remove cached executables: all of them, or those not used for DAYS
    /// days.
    Clean {
        /// Remove only entries last used more than DAYS days ago.
        #[arg(long, value_name = "DAYS")]
        older_than: Option<u64>,
    },
}

#[derive(Args, Debug)]
pub(super) struct ManArgs {
    /// The verb whose page to print (chess2rs-VERB(1)); none: chess2rs(1).
    pub(super) verb: Option<String>,
    /// Write every page (chess2rs.1 and one per verb) into DIR instead.
    #[arg(long, value_name = "DIR", conflicts_with = "verb")]
    pub(super) dir: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(super) struct SourceArgs {
    /// The program (`-` reads it from stdin; then give --lang).
    pub(super) file: PathBuf,
    #[command(flatten)]
    pub(super) lang: LangArg,
}

#[derive(Args, Debug)]
pub(super) struct ExplainArgs {
    #[command(flatten)]
    pub(super) source: SourceArgs,
    /// Print only the BTM listing (it compiles to the same program).
    #[arg(long, conflicts_with = "svg")]
    pub(super) btm: bool,
    /// Write one SVG diagram per annotated move into DIR.
    #[arg(long, value_name = "DIR")]
    pub(super) svg: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub(super) struct FmtArgs {
    /// The programs (`-` reads one from stdin and writes it to stdout;
    /// then give --lang).
    #[arg(required = true, value_name = "FILE")]
    pub(super) files: Vec<PathBuf>,
    #[command(flatten)]
    pub(super) lang: LangArg,
    /// Write nothing: print a diff for each file that is not formatted,
    /// and exit with 1 if there is one.
    #[arg(long)]
    pub(super) check: bool,
    /// InfChessPro: label the lines STEP, 2×STEP, 3×STEP… and rewrite
    /// every jump to match (`--renumber` alone: 1, 2, 3…; a step is given
    /// as `--renumber=10`).
    #[arg(long, value_name = "STEP", num_args = 0..=1, default_missing_value = "1",
          require_equals = true, value_parser = clap::value_parser!(u32).range(1..))]
    pub(super) renumber: Option<u32>,
}

#[derive(Args, Debug)]
pub(super) struct SynthArgs {
    #[command(flatten)]
    pub(super) source: SourceArgs,
    /// Write the game to this file instead of stdout (replaced whole; a
    /// symbolic link's target is replaced, a FIFO or a device written in
    /// place).
    #[arg(short, long, value_name = "GAME.pgn")]
    pub(super) output: Option<PathBuf>,
    /// Add the seven standard tags and, after each annotated move, a
    /// comment naming the value it writes.
    #[arg(long)]
    pub(super) annotate: bool,
    /// The writing design: `best` (whole-board and corner, the shorter
    /// game), `whole-board` (any legal move of any piece, found by a beam
    /// search: densest, a few seconds), `corner` (16 opening plies, two
    /// squares after the marker: milliseconds) or `kings-walk` (26 opening
    /// plies, four squares).
    #[arg(long, value_enum, default_value_t = SynthDesign::Best)]
    pub(super) design: SynthDesign,
    /// Print nothing on stderr: no progress, no warnings (errors still).
    #[arg(short, long)]
    pub(super) quiet: bool,
}

/// `synth --design`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SynthDesign {
    /// The whole board and the corner design, the shorter game.
    Best,
    /// Any legal move of any piece, found by a beam search.
    WholeBoard,
    /// The corner design.
    Corner,
    /// The king's-walk design.
    KingsWalk,
}

/// The limits of a run (`run`, `interpret`, `view`).
#[derive(Args, Debug)]
pub(super) struct LimitArgs {
    /// Stop with a runtime error after N steps (executed lines, moves or
    /// transitions).
    #[arg(long, value_name = "N")]
    pub(super) max_steps: Option<u64>,
    /// Stop with a runtime error when what the program grows (a tape,
    /// pieces, stacks) would pass SIZE bytes: a number with K, M, G or T
    /// (powers of 1024), or `unlimited`.
    #[arg(long, value_name = "SIZE", value_parser = memory_size, default_value = "2G")]
    pub(super) max_memory: u64,
}

impl LimitArgs {
    /// The runtime's options for these limits.
    pub(super) fn options(&self) -> chess2rs_runtime::Options {
        chess2rs_runtime::Options {
            max_steps: self.max_steps,
            max_memory: Some(self.max_memory),
        }
    }
}

#[derive(Args, Debug)]
pub(super) struct RunArgs {
    #[command(flatten)]
    pub(super) source: SourceArgs,
    #[command(flatten)]
    pub(super) limits: LimitArgs,
    /// Print nothing on stderr while compiling.
    #[arg(short, long)]
    pub(super) quiet: bool,
    /// Say every step on stderr: a cache hit ("Fresh"), the generated code,
    /// the runtime library's build, the switch from interpreter to compiled
    /// program.
    #[arg(short, long, conflicts_with = "quiet")]
    pub(super) verbose: bool,
    /// Which side runs the program: `auto` interprets a program that is not
    /// compiled yet while rustc compiles it, and switches to the compiled
    /// program when it is ready.
    #[arg(long, value_enum, default_value_t = Tier::Auto)]
    pub(super) tier: Tier,
    /// For tests: interpret exactly N steps (waiting for rustc there), then
    /// switch to the compiled program.
    #[arg(long, value_name = "N", hide = true, conflicts_with = "tier")]
    pub(super) switch_after: Option<u64>,
}

#[derive(Args, Debug)]
pub(super) struct InterpretArgs {
    #[command(flatten)]
    pub(super) source: SourceArgs,
    #[command(flatten)]
    pub(super) limits: LimitArgs,
    /// After each step, print on stderr what it did: the line and the pieces
    /// (InfChessPro), the cells and variables (Chess Code), the rule and the
    /// tape around the head (Chessoteric, BTM), the board and both stacks
    /// (Finvara).
    #[arg(long)]
    pub(super) trace: bool,
    /// Stop tracing after N steps (the program runs on).
    #[arg(long, value_name = "N", default_value_t = 10_000, requires = "trace")]
    pub(super) trace_limit: u64,
}

#[derive(Args, Debug)]
pub(super) struct BuildArgs {
    #[command(flatten)]
    pub(super) source: SourceArgs,
    /// Where to write the executable (default: the program's name without
    /// extension, in the current directory).
    #[arg(short, long, value_name = "EXE")]
    pub(super) output: Option<PathBuf>,
    /// Print nothing on stderr while compiling.
    #[arg(short, long)]
    pub(super) quiet: bool,
    /// Say every step on stderr: a cache hit ("Fresh"), the generated code,
    /// the runtime library's build.
    #[arg(short, long, conflicts_with = "quiet")]
    pub(super) verbose: bool,
}

pub(super) fn parse_language(name: &str) -> Result<Language, String> {
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
pub(super) const VERBS: [&str; 13] = [
    "run",
    "build",
    "interpret",
    "check",
    "explain",
    "fmt",
    "synth",
    "completions",
    "man",
    "cache",
    "lsp",
    "view",
    "help",
];

/// Verbs for chess2rs itself, not shown or suggested.
const HIDDEN_VERBS: [&str; 1] = ["tier-build"];

/// A first argument that is not a file and reads like a mistyped verb
/// (`chess2rs runn x.icp`): the message saying so, else `None`. Without
/// this, clap takes the word for the program file and complains about the
/// next argument instead.
pub(super) fn mistyped_verb(args: &[std::ffi::OsString]) -> Option<String> {
    let first = args.get(1)?.to_str()?;
    if first.starts_with('-')
        || VERBS.contains(&first)
        || HIDDEN_VERBS.contains(&first)
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

/// The reporting options (`--message-format`, `--color`, `-D`) that
/// take a value; each may come before the verb.
const REPORT_OPTIONS: [&str; 4] = ["--message-format", "--color", "-D", "--deny"];

/// `args` with reporting options given before the verb moved after it
/// (`chess2rs -D warnings check x.fv` → `chess2rs check -D warnings
/// x.fv`): clap cannot take options both before a verb and without one
/// (`chess2rs x.fv`), so they are put where it reads them.
pub(super) fn report_options_after_verb(args: Vec<OsString>) -> Vec<OsString> {
    let mut leading = 0;
    let mut at = 1;
    while let Some(arg) = args.get(at).and_then(|arg| arg.to_str()) {
        let takes_next = REPORT_OPTIONS.contains(&arg);
        let joined = REPORT_OPTIONS.iter().any(|option| {
            arg.strip_prefix(option)
                .is_some_and(|rest| rest.starts_with('=') || (*option == "-D" && !rest.is_empty()))
        });
        if takes_next {
            at += 2;
        } else if joined {
            at += 1;
        } else {
            break;
        }
        leading = at - 1;
    }
    let verb = args.get(leading + 1).and_then(|arg| arg.to_str());
    if leading == 0 || !verb.is_some_and(|verb| VERBS.contains(&verb)) {
        return args;
    }
    let mut moved = Vec::with_capacity(args.len());
    moved.push(args[0].clone());
    moved.push(args[leading + 1].clone());
    moved.extend_from_slice(&args[1..=leading]);
    moved.extend_from_slice(&args[leading + 2..]);
    moved
}

/// Whether `args` give `--message-format json` (the last
/// `--message-format` counts, anywhere before a `--`), read before clap
/// so that its own errors can be JSON too.
pub(super) fn asks_for_json(args: &[OsString]) -> bool {
    let mut json = false;
    let mut words = args.iter().skip(1).map(|arg| arg.to_str().unwrap_or(""));
    while let Some(word) = words.next() {
        let value = match word.strip_prefix("--message-format") {
            _ if word == "--" => break,
            Some("") => words.next(),
            Some(rest) => rest.strip_prefix('='),
            None => continue,
        };
        json = value == Some("json");
    }
    json
}

/// Parses `--max-memory`'s SIZE the way built programs do.
pub(super) fn memory_size(text: &str) -> Result<u64, String> {
    chess2rs_runtime::__private::parse_size(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every line of every verb's closing text (examples, notes) survives
    /// an 80-column terminal unwrapped: a command cut in two cannot be
    /// copied.
    #[test]
    fn reporting_options_before_the_verb_move_after_it() {
        let moved = |line: &str| -> String {
            let args = line.split(' ').map(OsString::from).collect();
            let args = report_options_after_verb(args);
            let words: Vec<String> = args.iter().map(|a| a.to_string_lossy().into()).collect();
            words.join(" ")
        };
        assert_eq!(moved("c -D warnings check x"), "c check -D warnings x");
        assert_eq!(
            moved("c --color=always --message-format json run x -q"),
            "c run --color=always --message-format json x -q"
        );
        assert_eq!(moved("c -Dwarnings check x"), "c check -Dwarnings x");
        // Without a verb, or with other options first, nothing moves.
        assert_eq!(moved("c -D warnings x.icp"), "c -D warnings x.icp");
        assert_eq!(moved("c check -D warnings x"), "c check -D warnings x");
        assert_eq!(
            moved("c --standalone -D warnings x"),
            "c --standalone -D warnings x"
        );
        assert_eq!(moved("c --color"), "c --color");
    }

    #[test]
    fn json_is_asked_for_anywhere_before_a_double_dash() {
        let asks =
            |line: &str| asks_for_json(&line.split(' ').map(OsString::from).collect::<Vec<_>>());
        assert!(asks("c --message-format json check x"));
        assert!(asks("c run x --message-format=json --bogus"));
        assert!(!asks(
            "c run x --message-format json --message-format short"
        ));
        assert!(!asks("c run x -- --message-format json"));
        assert!(!asks("c run x --message-format"));
    }

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
