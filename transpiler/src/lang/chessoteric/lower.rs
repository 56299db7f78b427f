//! Chessoteric lowering: the checked game is played (every move legal and
//! unambiguous), each annotated position becomes an
//! instruction, the instructions are assembled into rule parts and tape
//! symbols, and the parts are grouped into the Turing machine's rules.
//! BTM listings start at the instructions.

use std::collections::hash_map::{Entry, HashMap};

use chess2rs_runtime::__private::tm;

use super::chess::{Board, Color, Move, Position, Role, Square};
use super::san::{San, SanError};

use super::check::{self, Bits, Opening};
use super::ir::{states, Machine, Rule};
use super::syntax::{Annotation, BtmLine, Game};
use crate::diag::{Code, Diagnostic, Diagnostics};
use crate::source::{Source, Span, Spanned};

/// The machine built from `instructions` (of a game, or of a BTM listing
/// when `btm`); errors and warnings go to `diagnostics`.
pub fn lower(
    instructions: &[Instruction],
    btm: bool,
    source: &Source,
    diagnostics: &mut Diagnostics,
) -> Option<Machine> {
    if instructions.is_empty() {
        diagnostics.push(empty_program(source, btm));
    }
    match assemble(instructions) {
        Ok((assembled, warnings)) => {
            diagnostics.append(warnings);
            Some(machine(&assembled, btm, source))
        }
        Err(errors) => {
            diagnostics.append(errors);
            None
        }
    }
}

/// One instruction: an annotation with its bits (after the marker).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instruction {
    /// What the bits do.
    pub annotation: Annotation,
    /// The bits, most significant first.
    pub bits: String,
    /// Where it came from (the annotated move, or the BTM line).
    pub span: Span,
    /// For a game: the position it was read from.
    pub snapshot: Option<Snapshot>,
}

impl Instruction {
    /// The instruction as a BTM line: marker, bits, suffix.
    pub fn btm(&self) -> String {
        format!("1{}{}", self.bits, self.annotation.suffix())
    }
}

/// The position after an annotated move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The move number.
    pub number: u32,
    /// Whether White moved.
    pub white: bool,
    /// The move as written.
    pub san: String,
    /// The board after the move.
    pub board: Board,
    /// One bit per occupied square a1, b1, …, h8: 1 white, 0 black.
    pub board_bits: String,
    /// The index of the marker bit in `board_bits`.
    pub marker: usize,
}

/// The bits of an occupied-squares string: the marker's index and what
/// follows it, or `None` if there is no marker or nothing after it.
pub fn decode(board_bits: &str) -> Option<(usize, &str)> {
    let ones = board_bits.len() - board_bits.trim_start_matches('1').len();
    let rest = &board_bits[ones..];
    let zeros = rest.len() - rest.trim_start_matches('0').len();
    let marker = ones + zeros;
    let after = board_bits.get(marker + 1..)?;
    (board_bits.as_bytes().get(marker) == Some(&b'1') && !after.is_empty())
        .then_some((marker, after))
}

/// The occupied-squares bit string of a board.
pub fn board_bits(board: &Board) -> String {
    Square::ALL
        .iter()
        .filter_map(|&sq| board.color_at(sq))
        .map(|colour| if colour == Color::White { '1' } else { '0' })
        .collect()
}

/// Plays a checked game; every annotated position becomes an instruction.
/// Stops at the first illegal move (the rest of the game has no position).
pub fn play(game: &Game, opening: &Opening) -> Result<Vec<Instruction>, Diagnostics> {
    let mut errors = Diagnostics::default();
    let mut position = opening.position.clone();
    let mut instructions = Vec::new();
    for (pgn_move, parsed) in game.moves.iter().zip(&opening.moves) {
        let san = &pgn_move.san;
        let side = if pgn_move.white { "White" } else { "Black" };
        let chess_move = match parsed.to_move(&position) {
            Ok(chess_move) => chess_move,
            Err(error) => {
                errors.push(illegal_move(
                    &position,
                    parsed,
                    error,
                    san,
                    pgn_move.number,
                    side,
                ));
                return Err(errors);
            }
        };
        position.play(&chess_move);
        let Some(annotation) = &pgn_move.annotation else {
            continue;
        };
        let board = position.board();
        let bits = board_bits(&board);
        match decode(&bits) {
            Some((marker, after)) => instructions.push(Instruction {
                annotation: annotation.value,
                bits: after.to_string(),
                span: san.span.start..annotation.span.end,
                snapshot: Some(Snapshot {
                    number: pgn_move.number,
                    white: pgn_move.white,
                    san: san.value.clone(),
                    board,
                    board_bits: bits,
                    marker,
                }),
            }),
            None => errors.push(no_instruction(
                pgn_move.number,
                pgn_move.white,
                san,
                annotation.span.end,
                &bits,
            )),
        }
    }
    if errors.is_empty() {
        Ok(instructions)
    } else {
        Err(errors)
    }
}

/// The error for an annotated move (White's when `white`, its `number`,
/// its SAN `san`, its annotation ending at `end`) whose board, of bits
/// `bits`, has no instruction in it.
pub(super) fn no_instruction(
    number: u32,
    white: bool,
    san: &Spanned<String>,
    end: usize,
    bits: &str,
) -> Diagnostic {
    let dots = if white { "." } else { "..." };
    Diagnostic::error(
        Code::PgnNoInstruction, format!("the board after {number}{dots} {} has no instruction in it", san.value),
        san.span.start..end,
    )
    .with_label(format!("its bits are {bits}"))
    .with_help("after the leading 1s and then 0s, a marker 1 and at least one more bit are needed; annotate another move")
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

/// The error for a move that is illegal or ambiguous, listing the legal
/// moves of that piece type or the candidates.
pub(super) fn illegal_move(
    position: &Position,
    san: &San,
    error: SanError,
    written: &Spanned<String>,
    number: u32,
    side: &str,
) -> Diagnostic {
    let legal = position.legal_moves();
    let described = |m: &Move| San::from_move(position, m).to_string();
    match error {
        SanError::Ambiguous => {
            let candidates: Vec<String> = legal
                .iter()
                .filter(|m| san.matches(m))
                .map(|m| format!("{} from {} ({})", role_name(m.role), m.from, described(m)))
                .collect();
            Diagnostic::error(
                Code::PgnAmbiguousMove,
                format!("`{}` ({side}'s move {number}) is ambiguous", written.value),
                written.span.clone(),
            )
            .with_label(format!("{} pieces can make it", candidates.len()))
            .with_help(format!("say which: {}", candidates.join(", ")))
        }
        SanError::Illegal => {
            let role = match san {
                San::Normal(piece_move) => Some(piece_move.role),
                San::Castle(_) => Some(Role::King),
                _ => None,
            };
            let of_role: Vec<String> = legal
                .iter()
                .filter(|m| Some(m.role) == role)
                .map(described)
                .collect();
            let kind = role.map_or("piece", role_name);
            let help = if of_role.is_empty() {
                format!("{side} has no legal {kind} move here")
            } else {
                format!("legal {kind} moves for {side} here: {}", of_role.join(", "))
            };
            let why = if position.is_game_over() {
                "the game is already over".to_string()
            } else if position.is_check() {
                format!("{side} is in check")
            } else {
                format!("no {side} {kind} can make it")
            };
            Diagnostic::error(
                Code::PgnIllegalMove,
                format!("`{}` ({side}'s move {number}) is illegal", written.value),
                written.span.clone(),
            )
            .with_label(why)
            .with_help(help)
        }
    }
}

/// The instructions of a BTM listing.
pub fn from_btm(lines: &[BtmLine]) -> Vec<Instruction> {
    lines
        .iter()
        .map(|line| Instruction {
            annotation: line.annotation.value,
            bits: line.bits.value.clone(),
            span: line.bits.span.start - 1..line.annotation.span.end,
            snapshot: None,
        })
        .collect()
}

/// A rule part or tape symbol: its value and where its bits came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Value {
    /// The bits read as a binary number.
    pub value: i64,
    /// The instruction that started it.
    pub span: Span,
}

/// Rule parts and tape symbols, in order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Assembled {
    /// Rule parts, taken in groups of five.
    pub parts: Vec<Value>,
    /// The initial tape.
    pub symbols: Vec<Value>,
}

/// What a group of instructions adds up to: a rule part or a tape symbol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GroupKind {
    /// A rule part (`!` starts one, `!!` continues it).
    Part,
    /// A tape symbol (`?` starts one, `??` continues it).
    Symbol,
}

impl GroupKind {
    /// The kind `annotation` starts or continues, and whether it starts.
    pub fn of(annotation: Annotation) -> (GroupKind, bool) {
        match annotation {
            Annotation::StartPart => (GroupKind::Part, true),
            Annotation::ContinuePart => (GroupKind::Part, false),
            Annotation::StartSymbol => (GroupKind::Symbol, true),
            Annotation::ContinueSymbol => (GroupKind::Symbol, false),
        }
    }

    /// "rule part" or "tape symbol".
    pub fn what(self) -> &'static str {
        match self {
            GroupKind::Part => "rule part",
            GroupKind::Symbol => "tape symbol",
        }
    }
}

/// A start and its continuations: one rule part or tape symbol.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// Rule part or tape symbol.
    pub kind: GroupKind,
    /// Which one of its kind (1-based); 0 for continuations before any
    /// start of their kind (an error), which join one group.
    pub number: usize,
    /// All its bits, in order.
    pub bits: String,
    /// The instruction that starts it.
    pub start: Span,
}

/// The instructions in groups: every group, and each instruction's group
/// (an index into `groups`). Lowering, `explain` and the outline all read
/// a game's values from this one grouping.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grouped {
    /// The rule parts and tape symbols, in the order they start.
    pub groups: Vec<Group>,
    /// The group of each instruction.
    pub group_of: Vec<usize>,
}

/// Chessoteric's join rule, the one place it is written: a start begins
/// a group of its kind; a continuation joins the last group of its kind,
/// or, before any start of its kind (an error), a group numbered 0 that
/// the next continuations of that kind join too. [`group`] (for lowering,
/// `explain` and the outline) and [`check::read_values`] (the values and
/// their errors) both read instructions through it.
#[derive(Clone, Debug, Default)]
pub struct Joiner {
    /// How many groups of each kind have started, and how many groups
    /// there are in all.
    started: [usize; 2],
    groups: usize,
    /// The last group of each kind, and whether it is numbered 0.
    last: [Option<(usize, bool)>; 2],
}

/// Where [`Joiner::join`] puts an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Joined {
    /// The kind of its group.
    pub kind: GroupKind,
    /// Its group: an index among all groups, in the order they begin.
    pub group: usize,
    /// Which group of its kind (1-based), or 0 for continuations before
    /// any start of their kind.
    pub number: usize,
    /// Whether it begins its group.
    pub begins: bool,
}

impl Joiner {
    /// The group of the next instruction, annotated `annotation`.
    pub fn join(&mut self, annotation: Annotation) -> Joined {
        let (kind, starts) = GroupKind::of(annotation);
        let last = &mut self.last[kind as usize];
        if let (false, Some((group, orphan))) = (starts, *last) {
            let number = if orphan {
                0
            } else {
                self.started[kind as usize]
            };
            return Joined {
                kind,
                group,
                number,
                begins: false,
            };
        }
        let number = if starts {
            self.started[kind as usize] += 1;
            self.started[kind as usize]
        } else {
            0
        };
        let group = self.groups;
        self.groups += 1;
        *last = Some((group, !starts));
        Joined {
            kind,
            group,
            number,
            begins: true,
        }
    }
}

/// Groups `instructions` by the join rule ([`Joiner`]).
pub fn group(instructions: &[Instruction]) -> Grouped {
    let mut grouped = Grouped::default();
    let mut joiner = Joiner::default();
    for instruction in instructions {
        let joined = joiner.join(instruction.annotation);
        if joined.begins {
            grouped.groups.push(Group {
                kind: joined.kind,
                number: joined.number,
                bits: instruction.bits.clone(),
                start: instruction.span.clone(),
            });
        } else {
            grouped.groups[joined.group]
                .bits
                .push_str(&instruction.bits);
        }
        grouped.group_of.push(joined.group);
    }
    grouped
}

/// Joins continuations to what they continue and reads the values; then
/// warns about leftover parts and replaced rules (the checks of
/// [`check::read_values`]).
pub fn assemble(instructions: &[Instruction]) -> Result<(Assembled, Diagnostics), Diagnostics> {
    let mut diagnostics = Diagnostics::default();
    let read = (instructions.iter().enumerate())
        .map(|(index, instruction)| (index, instruction.annotation, Bits::of(&instruction.bits)));
    let mut assembled = Assembled::default();
    let read = check::read_values(
        read,
        &instructions,
        &mut diagnostics,
        |kind, value, index| {
            let value = Value {
                value,
                span: instructions[index].span.clone(),
            };
            match kind {
                GroupKind::Part => assembled.parts.push(value),
                GroupKind::Symbol => assembled.symbols.push(value),
            }
        },
    );
    if read {
        Ok((assembled, diagnostics))
    } else {
        Err(diagnostics)
    }
}

impl check::Places for &[Instruction] {
    fn start(&self, index: usize) -> usize {
        self[index].span.start
    }

    fn span(&self, index: usize) -> Span {
        self[index].span.clone()
    }
}

/// Groups parts into rules (a later rule for the same state and symbol
/// replaces the earlier one; leftover parts are dropped). A game's rules
/// name the column of their first annotated move; a listing's (`btm`), the
/// line.
pub fn machine(assembled: &Assembled, btm: bool, source: &Source) -> Machine {
    let mut rules: Vec<Rule> = Vec::new();
    let mut line_col = source.line_cols();
    // Where the rule for each (state, read) is in `rules`.
    let mut index: HashMap<(i64, i64), usize> = HashMap::new();
    // Where a part starts: a listing's line, a game's line and column (a
    // game line holds many moves).
    let mut place = |part: &Value| {
        let (line, column) = line_col(part.span.start);
        let text = source.text().get(part.span.clone()).unwrap_or("?");
        let written = if btm {
            format!("`{text}` (line {line})")
        } else {
            format!("`{text}` ({line}:{column})")
        };
        (line, if btm { 0 } else { column }, written)
    };
    for parts in assembled.parts.chunks_exact(5) {
        let (line, column, first) = place(&parts[0]);
        let (_, _, last) = place(&parts[4]);
        let rule = Rule {
            rule: tm::Rule {
                state: parts[0].value,
                read: parts[1].value,
                next: parts[2].value,
                write: parts[3].value,
                left: parts[4].value % 2 != 0,
                line,
                column,
            },
            origin: format!("from {first} to {last}"),
            span: parts[0].span.clone(),
        };
        let (state, read) = (rule.rule.state, rule.rule.read);
        if state == states::INPUT || state == states::OUTPUT {
            continue;
        }
        match index.entry((state, read)) {
            Entry::Occupied(existing) => rules[*existing.get()] = rule,
            Entry::Vacant(slot) => {
                slot.insert(rules.len());
                rules.push(rule);
            }
        }
    }
    Machine {
        rules,
        tape: assembled.symbols.iter().map(|s| s.value).collect(),
        source_name: source.name().to_string(),
        sources: super::StepSources::default(),
    }
}

/// The warning for a game with no annotated move (or an empty listing): a
/// machine with no rules and a blank tape, which halts at once and prints
/// nothing.
pub(crate) fn empty_program(source: &Source, btm: bool) -> Diagnostic {
    let end = source.text().len();
    let start = source.text().trim_end().len().min(end);
    let (what, help) = if btm {
        (
            "this listing has no instruction",
            "each line is `1`, the instruction's bits, and `!`, `?`, `!!` or `??`",
        )
    } else {
        (
            "no move of this game is annotated",
            "annotations build the program: `!` starts a rule part, `?` a tape symbol, `!!`/`??` continue them (e.g. `5. Qg8!`)",
        )
    };
    Diagnostic::warning(
        Code::EmptyProgram,
        format!("{what}: the program is empty (it halts at once and prints nothing)"),
        start.saturating_sub(1).min(start)..start,
    )
    .with_label("the program ends here")
    .with_help(help)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_join_rule_numbers_groups_and_joins_continuations() {
        use Annotation::*;
        let mut joiner = Joiner::default();
        let joined: Vec<(usize, usize, bool)> = [
            ContinuePart,
            ContinuePart,
            StartPart,
            StartSymbol,
            ContinuePart,
            StartPart,
            ContinueSymbol,
        ]
        .into_iter()
        .map(|annotation| {
            let joined = joiner.join(annotation);
            (joined.group, joined.number, joined.begins)
        })
        .collect();
        // Two continuations before any part: one group numbered 0; then
        // part 1 (continued past a symbol), symbol 1, part 2.
        assert_eq!(
            joined,
            [
                (0, 0, true),
                (0, 0, false),
                (1, 1, true),
                (2, 1, true),
                (1, 1, false),
                (3, 2, true),
                (2, 1, false)
            ]
        );
    }

    #[test]
    fn decoding_follows_the_seed_example() {
        let bits = "111111111111110000000000000010";
        assert_eq!(decode(bits), Some((28, "0")));
        assert_eq!(decode("1100"), None);
        assert_eq!(decode("11001"), None);
        assert_eq!(decode("110011"), Some((4, "1")));
    }

    fn last_snapshot(pgn: &str) -> Snapshot {
        let game =
            super::super::syntax::parse_pgn(&crate::source::Source::new("t.pgn", pgn)).unwrap();
        let instructions = match play(&game, &super::super::check::check(&game).0) {
            Ok(instructions) => instructions,
            Err(errors) => panic!("{:?}", errors.iter().next().unwrap().message),
        };
        instructions.last().unwrap().snapshot.clone().unwrap()
    }

    #[test]
    fn en_passant_removes_the_captured_pawn_from_the_bits() {
        let snapshot = last_snapshot("1. e4 a6 2. e5 d5 3. exd6?");
        // Ranks 1-2: 15 white; rank 5 empty (d5 was taken en passant);
        // rank 6: a6 black, d6 white; then 6 + 8 black.
        assert_eq!(
            snapshot.board_bits,
            format!("{}01{}", "1".repeat(15), "0".repeat(14))
        );
        assert_eq!(
            decode(&snapshot.board_bits),
            Some((16, "0".repeat(14).as_str()))
        );
    }

    #[test]
    fn castling_moves_king_and_rook() {
        let snapshot = last_snapshot("1. e4 e5 2. Nf3 Nc6 3. Bc4 Bc5 4. O-O d6 5. d3 Be6 6. Nc3 Qd7 7. Be3 O-O-O 8. Nd5 h6 9. Nb6+?");
        let at = |sq: Square| snapshot.board.piece_at(sq).map(|p| (p.color, p.role));
        assert_eq!(at(Square::G1), Some((Color::White, Role::King)));
        assert_eq!(at(Square::F1), Some((Color::White, Role::Rook)));
        assert_eq!(at(Square::C8), Some((Color::Black, Role::King)));
        assert_eq!(at(Square::D8), Some((Color::Black, Role::Rook)));
        assert_eq!(at(Square::E8), None);
    }

    #[test]
    fn promotion_puts_a_white_queen_on_the_last_rank() {
        let game = super::super::syntax::parse_pgn(&crate::source::Source::new(
            "t.pgn",
            "1. h4 g5 2. hxg5 h6 3. gxh6 Nf6 4. h7 Rg8 5. hxg8=Q?",
        ))
        .unwrap();
        // The white queen on g8 is the last occupied square: its 1 is the
        // marker with nothing after it, so this board encodes nothing.
        let errors = play(&game, &super::super::check::check(&game).0).unwrap_err();
        assert_eq!(
            &*errors.iter().next().unwrap().label,
            format!("its bits are {}{}1", "1".repeat(15), "0".repeat(13))
        );
    }

    fn assembled(pgn: &str) -> Assembled {
        let game =
            super::super::syntax::parse_pgn(&crate::source::Source::new("t.pgn", pgn)).unwrap();
        assemble(&play(&game, &super::super::check::check(&game).0).unwrap())
            .unwrap()
            .0
    }

    #[test]
    fn continuations_join_the_last_group_of_their_kind_and_orphans_one_group_numbered_zero() {
        // (after the marker 1) ?? ?? before any ?, then ! ?? !! ? ?? !!.
        let listing = "11??\n110??\n111!\n10??\n11!!\n10?\n11??\n10!!\n";
        let source = crate::source::Source::new("t.btm", listing);
        let lines = super::super::syntax::parse_btm(&source).unwrap();
        let grouped = group(&from_btm(&lines));
        let summary: Vec<(GroupKind, usize, &str)> = grouped
            .groups
            .iter()
            .map(|g| (g.kind, g.number, g.bits.as_str()))
            .collect();
        assert_eq!(
            summary,
            [
                (GroupKind::Symbol, 0, "1100"),
                (GroupKind::Part, 1, "1110"),
                (GroupKind::Symbol, 1, "01"),
            ]
        );
        assert_eq!(grouped.group_of, [0, 0, 1, 0, 1, 2, 2, 1]);
        // Each orphan continuation is an error of its own.
        let errors = assemble(&from_btm(&lines)).unwrap_err();
        assert_eq!(errors.len(), 3);
    }

    #[test]
    fn continuations_append_bits_with_suffixes_and_nags() {
        // The seed's boards after 5. Qg8 and 7. Rxh8 hold the bits 0 and 1.
        let opening = "1. e3 e6 2. h4 Qxh4 3. Qg4 Qe7 4. Qxg7 Nf6 5. Qg8";
        let symbols = assembled(&format!("{opening}? Nd5 6. Rxh7 Qf6 7. Rxh8??"));
        assert_eq!(
            symbols.symbols.iter().map(|v| v.value).collect::<Vec<_>>(),
            vec![0b01]
        );
        let parts = assembled(&format!("{opening} $1 Nd5 6. Rxh7 Qf6 7. Rxh8 $3"));
        assert_eq!(
            parts.parts.iter().map(|v| v.value).collect::<Vec<_>>(),
            vec![0b01]
        );
        let nags = assembled(&format!("{opening} $2 Nd5 6. Rxh7 Qf6 7. Rxh8 $4"));
        assert_eq!(
            nags.symbols,
            symbols
                .symbols
                .iter()
                .map(|v| Value {
                    value: v.value,
                    span: nags.symbols[0].span.clone()
                })
                .collect::<Vec<_>>()
        );
    }

    #[test]
    fn start_position_bits() {
        assert_eq!(
            board_bits(&Position::default().board()),
            format!("{}{}", "1".repeat(16), "0".repeat(16))
        );
    }
}
