//! Chessoteric (`.pgn`) and BTM (`.btm`): a chess game whose annotated
//! positions encode a Turing machine (`docs/languages.md`).
//!
//! syntax (PGN or BTM text → tree) → check (the FEN, SAN and turn order,
//! without playing) → lower (play the game, read an
//! instruction from each annotated position, assemble parts and symbols,
//! group the rules → the machine) → codegen (regions of states whose
//! transitions are direct jumps, with scans over the tape) or interp. The two front ends share everything after the
//! instructions.

pub mod check;
pub mod chess;
pub mod codegen;
pub mod explain;
pub mod fen;
pub mod format;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod outline;
pub mod pgn_lines;
pub mod regions;
pub mod san;
pub mod syntax;
pub mod synth;

use crate::diag::Diagnostics;
use crate::runtime_errors::CommandSite;
use crate::source::Source;

/// The instructions of a game (`btm` false) or of a BTM listing: the first
/// half of lowering, for `explain` and `--btm`.
pub fn instructions(source: &Source, btm: bool) -> Result<Vec<lower::Instruction>, Diagnostics> {
    if btm {
        return Ok(lower::from_btm(&syntax::parse_btm(source)?));
    }
    game_instructions(&syntax::parse_pgn(source)?)
}

/// The instructions of a parsed game: checked, then played.
fn game_instructions(game: &syntax::Game) -> Result<Vec<lower::Instruction>, Diagnostics> {
    let (opening, diagnostics) = check::check(game);
    if diagnostics.has_errors() {
        return Err(diagnostics);
    }
    lower::play(game, &opening)
}

/// Where each step of a game's or listing's machine comes from: the
/// annotated move (or BTM line) of each rule's first part, and of each tape
/// symbol's start. Lowering keeps them with the machine, so that a traced
/// step can show the move it comes from (`chess2rs view`).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct StepSources {
    /// The instructions that start a rule or a tape symbol.
    kept: Vec<lower::Instruction>,
    /// By the (line, column) a rule names (column 0 in a listing): its
    /// first instruction, in `kept`.
    rules: std::collections::HashMap<(u32, u32), usize>,
    /// The instruction that starts each initial tape symbol, by cell, in
    /// `kept`.
    symbols: Vec<usize>,
    /// Where each kept instruction is: (line, column; column 0 in a
    /// listing).
    places: Vec<(u32, u32)>,
}

/// Counted, not listed: `--emit ir` shows the machine, whose rules name
/// their moves already.
impl std::fmt::Debug for StepSources {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StepSources")
            .field("rules", &self.rules.len())
            .field("tape_symbols", &self.symbols.len())
            .finish()
    }
}

impl StepSources {
    /// The sources of `machine`'s steps among the `instructions` it was
    /// lowered from (a listing's when `btm`).
    pub fn new(
        instructions: Vec<lower::Instruction>,
        machine: &ir::Machine,
        source: &Source,
        btm: bool,
    ) -> StepSources {
        let sites: std::collections::HashSet<(u32, u32)> = machine
            .rules
            .iter()
            .map(|rule| (rule.rule.line, rule.rule.column))
            .collect();
        let mut line_col = source.line_cols();
        let mut sources = StepSources::default();
        for instruction in instructions {
            let (line, column) = line_col(instruction.span.start);
            let place = (line, if btm { 0 } else { column });
            let starts_symbol = instruction.annotation == syntax::Annotation::StartSymbol;
            let starts_rule = sites.contains(&place) && !sources.rules.contains_key(&place);
            if !starts_symbol && !starts_rule {
                continue;
            }
            let index = sources.kept.len();
            if starts_rule {
                sources.rules.insert(place, index);
            }
            if starts_symbol {
                sources.symbols.push(index);
            }
            sources.kept.push(instruction);
            sources.places.push(place);
        }
        sources
    }

    /// Which kept instruction a step comes from: the rule's (at `line`,
    /// `column`), or with no rule (`line` 0: the input or output state)
    /// the one that wrote the initial symbol of tape cell `head`.
    fn index(&self, line: u32, column: u32, head: usize) -> Option<usize> {
        if line != 0 {
            self.rules.get(&(line, column)).copied()
        } else {
            self.symbols.get(head).copied()
        }
    }

    /// Where the instruction a step comes from is ([`StepSources::step`]
    /// without drawing its position).
    pub fn place(&self, line: u32, column: u32, head: usize) -> Option<(u32, u32)> {
        Some(self.places[self.index(line, column, head)?])
    }

    /// The instruction a step comes from ([`StepSources::index`]): the
    /// position after it and its bits.
    pub fn step(&self, line: u32, column: u32, head: usize) -> Option<StepSource> {
        let index = self.index(line, column, head)?;
        let instruction = &self.kept[index];
        let position = instruction.snapshot.as_ref().map(|snapshot| {
            let dots = if snapshot.white { "." } else { "..." };
            let san = format!(
                "{}{dots} {}{}",
                snapshot.number,
                snapshot.san,
                instruction.annotation.suffix()
            );
            (explain::board_grid(&snapshot.board), san)
        });
        Some(StepSource {
            position,
            bits: instruction.bits.clone(),
        })
    }
}

/// The annotated move (or BTM line) a machine's step comes from.
pub struct StepSource {
    /// In a game: the position after the move, and the move as written.
    pub position: Option<(crate::picture::Grid, String)>,
    /// The instruction's bits.
    pub bits: String,
}

/// The machine of `instructions` (a listing's when `btm`), with the
/// sources of its steps.
fn machine(
    instructions: Vec<lower::Instruction>,
    btm: bool,
    source: &Source,
    diagnostics: &mut Diagnostics,
) -> Option<ir::Machine> {
    let mut machine = lower::lower(&instructions, btm, source, diagnostics)?;
    machine.sources = StepSources::new(instructions, &machine, source, btm);
    Some(machine)
}

/// Chessoteric's stages for games (`.pgn`).
pub struct Stages;

/// Chessoteric's stages for BTM listings (`.btm`): only parsing, checking
/// and the first half of lowering differ.
pub struct BtmStages;

impl super::FrontEnd for Stages {
    type Tree = syntax::Game;
    type Facts = check::Opening;
    type Program = ir::Machine;

    const RENAMABLE: &'static str =
        "a game has no names to rename: its moves and annotations are the program";

    fn parse(source: &Source) -> Result<syntax::Game, Diagnostics> {
        syntax::parse_pgn(source)
    }

    fn check(game: &syntax::Game) -> (check::Opening, Diagnostics) {
        check::check(game)
    }

    fn lower(
        game: &syntax::Game,
        opening: check::Opening,
        source: &Source,
        diagnostics: &mut Diagnostics,
    ) -> Option<ir::Machine> {
        match lower::play(game, &opening) {
            Ok(instructions) => machine(instructions, false, source, diagnostics),
            Err(errors) => {
                diagnostics.append(errors);
                None
            }
        }
    }

    fn outline(game: Option<&syntax::Game>, source: &Source) -> crate::outline::Outline {
        let instructions = game.and_then(|game| game_instructions(game).ok());
        outline::outline(instructions.as_deref(), source, false)
    }

    fn format(
        source: &Source,
        options: &crate::format::FormatOptions,
    ) -> Result<crate::format::Formatted, Diagnostics> {
        format::format_pgn(source, options)
    }
}

impl super::BackEnd for ir::Machine {
    fn generate(&self, items: &mut dyn crate::split::Items) -> proc_macro2::TokenStream {
        codegen::generate(self, items)
    }

    fn interpret_observed<R: std::io::BufRead, W: std::io::Write, O>(
        &self,
        io: &mut chess2rs_runtime::__private::Io<R, W>,
        steps: &mut chess2rs_runtime::__private::StepCounter,
        observe: &mut O,
    ) -> Result<(), chess2rs_runtime::RuntimeError>
    where
        O: FnMut(&dyn crate::picture::Step) + ?Sized,
    {
        interp::run_traced(self, io, steps, &mut |state, rule, tape| {
            observe(&interp::Traced {
                state,
                rule,
                tape,
                sources: &self.sources,
            })
        })
    }

    /// Each rule's first annotated move (a listing's line): the step limit
    /// stops a rule, and input errors name the rule that entered the input
    /// state.
    fn error_sites(&self) -> Vec<CommandSite> {
        self.rules.iter().map(ir::Rule::command).collect()
    }
}

impl super::FrontEnd for BtmStages {
    type Tree = Vec<syntax::BtmLine>;
    type Facts = ();
    type Program = ir::Machine;

    const RENAMABLE: &'static str =
        "a listing has no names to rename: its lines are bits and annotations";

    fn parse(source: &Source) -> Result<Vec<syntax::BtmLine>, Diagnostics> {
        syntax::parse_btm(source)
    }

    /// A listing's syntax is all there is to check.
    fn check(_: &Vec<syntax::BtmLine>) -> ((), Diagnostics) {
        ((), Diagnostics::default())
    }

    fn lower(
        lines: &Vec<syntax::BtmLine>,
        (): (),
        source: &Source,
        diagnostics: &mut Diagnostics,
    ) -> Option<ir::Machine> {
        machine(lower::from_btm(lines), true, source, diagnostics)
    }

    fn outline(lines: Option<&Vec<syntax::BtmLine>>, source: &Source) -> crate::outline::Outline {
        let instructions = lines.map(|lines| lower::from_btm(lines));
        outline::outline(instructions.as_deref(), source, true)
    }

    fn format(
        source: &Source,
        options: &crate::format::FormatOptions,
    ) -> Result<crate::format::Formatted, Diagnostics> {
        format::format_btm(source, options)
    }
}
