//! Finvara for editors: piece types and turns as symbols; each use of a
//! piece symbol (move lines, board cells, promotions, `"s"` in notations)
//! linked to its definition and each `checks turn M` to that turn's line;
//! tokens; and what each definition and move line does.

use std::collections::HashMap;

use chess2rs_runtime::__private::{fv, run_program};
use chess2rs_runtime::{ErrorKind, Options, SourceMap};

use super::classes::{attack_lines, AttackLine, ClassContext};
use super::syntax::{self, Atom, Cell, MoveAction, MoveLine, PieceDef, Seq, SquareRef, Value};
use crate::lang::FrontEnd as _;
use crate::outline::{Outline, Symbol, SymbolKind, TokenKind};
use crate::source::{Source, Span, Spanned};

/// The outline of a Finvara program (comments only if it does not parse).
pub fn outline(tree: Option<&syntax::Program>, source: &Source) -> Outline {
    let mut outline = Outline::default();
    comment_tokens(source, &mut outline);
    let Some(program) = tree else {
        return outline.finish();
    };
    let definitions: Definitions = program
        .pieces
        .iter()
        .map(|piece| (piece.symbol.value.as_str(), piece))
        .collect();
    piece_symbols(source, program, &definitions, &mut outline);
    board_cells(source, program, &definitions, &mut outline);
    move_lines(source, program, &definitions, &mut outline);
    outline.symbols.sort_by_key(|symbol| symbol.span.start);
    outline.finish()
}

/// The piece definitions, by symbol.
type Definitions<'a> = HashMap<&'a str, &'a PieceDef>;

/// The comments of `source`: `#` to the end of the line, except inside a
/// board row (`##` is a hole), where only after the row's last `|`.
fn comment_tokens(source: &Source, outline: &mut Outline) {
    for (start, line) in source.lines() {
        if let Some(hash) = syntax::comment_start(line) {
            outline.token(start + hash..start + line.len(), TokenKind::Comment);
        }
    }
}

/// A use of a piece symbol: a type token, linked to its definition.
fn use_of(symbol: &Spanned<String>, definitions: &Definitions, outline: &mut Outline) {
    outline.token(symbol.span.clone(), TokenKind::Type);
    if let Some(definition) = definitions.get(symbol.value.as_str()) {
        outline.link(symbol.span.clone(), definition.symbol.span.clone());
    }
}

/// Each piece definition: a symbol, its hover (what it does, its move
/// class) and the uses of other pieces in its notation.
fn piece_symbols(
    source: &Source,
    program: &syntax::Program,
    definitions: &Definitions,
    outline: &mut Outline,
) {
    let classes = attack_classes(program);
    for piece in &program.pieces {
        let notation = &source.text()[piece.notation.span.clone()];
        outline.symbols.push(Symbol {
            name: piece.symbol.value.clone(),
            detail: notation.to_string(),
            kind: SymbolKind::Piece,
            span: piece.symbol.span.start..piece.notation.span.end,
            name_span: piece.symbol.span.clone(),
        });
        outline.token(piece.symbol.span.clone(), TokenKind::Type);
        let mut text = describe_piece(piece, notation);
        text.push_str(&class_words(classes.get(&piece.symbol.value)));
        outline.hover(piece.symbol.span.start..piece.notation.span.end, text);
        let mut likes = Vec::new();
        collect_likes(&piece.notation.value, &mut likes);
        for like in likes {
            use_of(like, definitions, outline);
        }
    }
}

/// The board's pieces: linked to their definitions, with a hover.
fn board_cells(
    source: &Source,
    program: &syntax::Program,
    definitions: &Definitions,
    outline: &mut Outline,
) {
    for row in &program.rows {
        for cell in row {
            if let Cell::Piece(symbol, white) = &cell.value {
                let symbol_span = cell.span.start..cell.span.start + symbol.len();
                outline.token(symbol_span.clone(), TokenKind::Type);
                if let Some(definition) = definitions.get(symbol.as_str()) {
                    outline.link(symbol_span, definition.symbol.span.clone());
                    let side = if *white { "white" } else { "black" };
                    outline.hover(
                        cell.span.clone(),
                        format!(
                            "A {side} `{symbol}` at the start.\n\n{}",
                            describe_piece(
                                definition,
                                &source.text()[definition.notation.span.clone()]
                            )
                        ),
                    );
                }
            }
        }
    }
}

/// Each move line: a symbol, its tokens, its links (the piece, a
/// `checks` line's turn) and a hover that says what it does (and whether
/// it is valid on the initial board).
fn move_lines(
    source: &Source,
    program: &syntax::Program,
    definitions: &Definitions,
    outline: &mut Outline,
) {
    let valid_at_start = initial_validity(source, program);
    let turn_lines: HashMap<(u32, bool), (&MoveLine, Span)> = program
        .moves
        .iter()
        .filter_map(|line| {
            let (start, text) = source.line(line.source_line)?;
            Some((
                (line.turn.value, line.white),
                (line, start..start + text.trim_end().len()),
            ))
        })
        .collect();
    for line in &program.moves {
        let Some((start, text)) = source.line(line.source_line) else {
            continue;
        };
        let line_span = start..start + text.trim_end().len();
        let side = if line.white { "W" } else { "B" };
        outline.symbols.push(Symbol {
            name: format!("Turn {} {side}", line.turn.value),
            detail: line.text.trim().to_string(),
            kind: SymbolKind::Turn,
            span: line_span.clone(),
            name_span: line.turn.span.clone(),
        });
        if let Some(word) = text.find("Turn") {
            outline.token(start + word..start + word + 4, TokenKind::Keyword);
        }
        outline.token(line.turn.span.clone(), TokenKind::Number);
        use_of(&line.symbol, definitions, outline);
        match &line.action {
            MoveAction::Move { from, to, promote } => {
                outline.token(from.span.clone(), TokenKind::Variable);
                outline.token(to.span.clone(), TokenKind::Variable);
                if let Some(promote) = promote {
                    use_of(promote, definitions, outline);
                }
            }
            MoveAction::Checks { square, turn } => {
                outline.token(square.span.clone(), TokenKind::Variable);
                if let Some(word) = text.find("checks") {
                    outline.token(start + word..start + word + 6, TokenKind::Keyword);
                }
                outline.token(turn.span.clone(), TokenKind::Label);
                if let Some((target, span)) = turn_lines.get(&(turn.value, true)) {
                    outline.link(turn.span.clone(), span.clone());
                    outline.hover(
                        turn.span.clone(),
                        format!(
                            "Turn {} W, line {}: `{}`",
                            turn.value,
                            target.source_line,
                            target.text.trim()
                        ),
                    );
                }
            }
        }
        let piece = definitions.get(line.symbol.value.as_str()).copied();
        let mut text = describe_move(line, piece, source);
        if let Some(valid) = valid_at_start.get(&line.source_line) {
            text.push_str(if *valid {
                "\n\nOn the initial board this move is **valid**."
            } else {
                "\n\nOn the initial board this move is **not valid**."
            });
        }
        outline.hover(line_span, text);
    }
}

/// How many distinct moves the outline tries on the initial board at most
/// (the lines of further ones go without the verdict).
const TRIED_AT_MOST: usize = 128;

/// The memory one try may take: its search's nodes are charged to it, so
/// this bounds the nodes a try visits (a move whose search would take more
/// goes without the verdict). With [`TRIED_AT_MOST`] it bounds the whole
/// cost, the same on every machine and under any load, unlike a time
/// budget.
const TRIAL_MEMORY: u64 = 2 << 20;

/// For each move line (by source line), whether its move is valid on the
/// initial board, from the program lowered from `tree` (parsed once, for
/// the whole outline) and the runtime's own move
/// search — for the first [`TRIED_AT_MOST`] distinct moves, each within
/// [`TRIAL_MEMORY`].
fn initial_validity(source: &Source, tree: &syntax::Program) -> HashMap<u32, bool> {
    let Ok((program, _)) = super::Stages::check_and_lower(tree, source) else {
        return HashMap::new();
    };
    let rules_data = program.rules_data();
    let rules = rules_data.rules();
    let initial = fv::Game::new(&rules, &program.board);
    // By move: the verdict.
    let mut tried: HashMap<fv::Move, Option<bool>> = HashMap::new();
    let mut verdicts = HashMap::new();
    for line in &program.lines {
        let Some(mv) = line.mv() else {
            continue;
        };
        let verdict = match tried.get(&mv) {
            Some(verdict) => *verdict,
            None if tried.len() < TRIED_AT_MOST => {
                let verdict = try_at_start(&initial, &rules, mv, line.source_line);
                tried.insert(mv, verdict);
                verdict
            }
            None => None,
        };
        if let Some(valid) = verdict {
            verdicts.insert(line.source_line, valid);
        }
    }
    verdicts
}

/// Whether `mv` (of source line `line`) is valid on `initial` (`None` if
/// the search outgrew a small memory budget). The move's stack action may
/// then fail (nothing on the stacks yet): the move was valid all the same.
fn try_at_start(initial: &fv::Game, rules: &fv::Rules, mv: fv::Move, line: u32) -> Option<bool> {
    let mut game = initial.clone();
    let mut valid = None;
    let options = Options {
        max_steps: None,
        max_memory: Some(TRIAL_MEMORY),
    };
    let outcome = run_program(
        &b""[..],
        std::io::sink(),
        &options,
        &SourceMap::EMPTY,
        |io, _| {
            valid = Some(game.try_move(rules, io, mv, line)?);
            Ok(())
        },
    );
    match outcome {
        Ok(()) => valid,
        Err(error)
            if matches!(
                error.kind,
                ErrorKind::MemoryLimit { .. } | ErrorKind::OutOfMemory
            ) =>
        {
            None
        }
        Err(_) => Some(true),
    }
}

/// Each piece type's move class — the lines it attacks along, as the
/// compiler reads the notation (`classes.rs`) — or `None` where its
/// attacks are searched.
fn attack_classes(program: &syntax::Program) -> HashMap<String, Option<Vec<AttackLine>>> {
    let rows = program.rows.len() as u32;
    let cols = program.rows.first().map_or(0, Vec::len) as u32;
    let mut classes = HashMap::new();
    for piece in &program.pieces {
        let context = ClassContext {
            classes: &classes,
            rows,
            cols,
        };
        let lines = attack_lines(&piece.notation.value, &context);
        classes.insert(piece.symbol.value.clone(), lines);
    }
    classes
}

/// A move class in words: each line (direction, how far, where it
/// must start), or that the attacks are searched.
fn class_words(class: Option<&Option<Vec<AttackLine>>>) -> String {
    let Some(class) = class else {
        return String::new();
    };
    let Some(lines) = class else {
        return "\n\nIts attacks are not lines of leaps: the compiler searches its paths."
            .to_string();
    };
    let lines: Vec<String> = lines
        .iter()
        .filter(|line| !line.stays)
        .map(|line| {
            let ray = &line.ray;
            let reach = match ray.max {
                fv::UNBOUNDED => " as far as the board goes".to_string(),
                1 => String::new(),
                max => format!(" up to {max} times"),
            };
            let bent = if line.bends.is_empty() {
                ""
            } else {
                " (bent: landings inside must be empty)"
            };
            let crooked = if ray.crooked > 0 {
                " (crooked rider)"
            } else {
                ""
            };
            let ranks = ray.ranks.map_or(String::new(), |r| {
                format!(
                    " from rows {}–{}{}",
                    r.low,
                    r.high,
                    if r.negated { " excluded" } else { "" }
                )
            });
            format!(
                "- ({}, {}){reach}{bent}{crooked}{ranks}",
                ray.forward, ray.right
            )
        })
        .collect();
    if lines.is_empty() {
        return "\n\nIt attacks nothing.".to_string();
    }
    format!(
        "\n\nMove class: it attacks along these lines (rows forward, columns right, per leap):\n{}",
        lines.join("\n")
    )
}

/// Every `"s"` in a notation.
fn collect_likes<'a>(seq: &'a Seq, out: &mut Vec<&'a Spanned<String>>) {
    for item in seq {
        match &item.atom {
            Atom::Like(symbol) => out.push(symbol),
            Atom::Any(choices) => choices.iter().for_each(|seq| collect_likes(seq, out)),
            Atom::Group(seq)
            | Atom::Capture(seq)
            | Atom::NoCapture(seq)
            | Atom::Rank { seq, .. } => collect_likes(seq, out),
            Atom::Leap { .. } | Atom::CaptureHere | Atom::Promote(_) => {}
        }
    }
}

/// A piece definition in words.
fn describe_piece(piece: &PieceDef, notation: &str) -> String {
    let value = match piece.value {
        None => "royal: it has no value, and a side whose royal pieces are all attacked has lost"
            .to_string(),
        Some(Value::Number(n)) => format!("value {n}"),
        Some(Value::X) => "value: the column number of its square".to_string(),
        Some(Value::Y) => "value: the row number of its square".to_string(),
    };
    format!(
        "**piece `{}`** ({value})\n\nMoves by `{notation}`: {}.",
        piece.symbol.value,
        notation_words(&piece.notation.value)
    )
}

/// A notation in words, item by item.
fn notation_words(seq: &Seq) -> String {
    let words: Vec<String> = seq
        .iter()
        .map(|item| {
            let atom = match &item.atom {
                Atom::Leap { a, b, dirs } => {
                    let filter = if dirs.is_some() {
                        " in the directions given"
                    } else {
                        ""
                    };
                    format!("a leap by ({a},{b}){filter}")
                }
                Atom::Any(choices) => format!(
                    "one of: {}",
                    choices
                        .iter()
                        .map(notation_words)
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
                Atom::Group(seq) => format!("[{}]", notation_words(seq)),
                Atom::Capture(seq) => format!("only capturing: {}", notation_words(seq)),
                Atom::NoCapture(seq) => format!("only without capturing: {}", notation_words(seq)),
                Atom::Rank {
                    seq,
                    ranks,
                    negated,
                } => format!(
                    "{} when it starts {} rows {}–{}",
                    notation_words(seq),
                    if *negated { "outside" } else { "on" },
                    ranks.0,
                    ranks.1
                ),
                Atom::Like(symbol) => format!("moves like `{}`", symbol.value),
                Atom::CaptureHere => "capturing what stands here".to_string(),
                Atom::Promote(targets) if targets.is_empty() => "promotion".to_string(),
                Atom::Promote(targets) => format!(
                    "promotion to {}",
                    targets
                        .iter()
                        .map(|t| format!("`{}`", t.value))
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
            };
            let repeats: String = item
                .repeats
                .iter()
                .map(|repeat| match repeat {
                    syntax::Repeat::Same => ", repeated the same way each time",
                    syntax::Repeat::Any => ", repeated any way each time",
                })
                .collect();
            format!("{atom}{repeats}")
        })
        .collect();
    if words.is_empty() {
        "staying where it is".to_string()
    } else {
        words.join(", then ")
    }
}

/// A square in words.
fn square_words(square: &SquareRef, source: &Source) -> String {
    format!(
        "`{}` (row {}, column {})",
        &source.text()[square.span.clone()],
        square.row,
        square.col
    )
}

/// What a move line does, in Markdown.
fn describe_move(line: &MoveLine, piece: Option<&PieceDef>, source: &Source) -> String {
    let side = if line.white { "White" } else { "Black" };
    let what = match &line.action {
        MoveAction::Move { from, to, promote } => {
            let promotion = promote
                .as_ref()
                .map_or(String::new(), |p| format!(", promoting to `{}`", p.value));
            format!(
                "Moves a `{}` from {} to {}{promotion}. If the move is valid its value goes through the stacks; if not, the program goes on.",
                line.symbol.value,
                square_words(from, source),
                square_words(to, source)
            )
        }
        MoveAction::Checks { square, turn } => format!(
            "If a `{}` on {} attacks an enemy royal piece, the program goes back to turn {}.",
            line.symbol.value,
            square_words(square, source),
            turn.value
        ),
    };
    let piece = piece.map_or(String::new(), |piece| {
        format!(
            "\n\n`{}` moves by `{}`.",
            piece.symbol.value,
            &source.text()[piece.notation.span.clone()]
        )
    });
    format!(
        "**Turn {} ({side})**, line {}\n\n{what}{piece}",
        line.turn.value, line.source_line
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRUTH: &str = include_str!("../../../../examples/truth.fv");

    #[test]
    fn symbols_link_to_definitions_and_checks_to_their_turn() {
        let outline = super::super::Stages::parse_and_outline(&Source::new("truth.fv", TRUTH));
        let names: Vec<&str> = outline.symbols.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(&names[..5], ["k", "n", "q", "i", "p"]);
        assert!(names.contains(&"Turn 4 W"));
        // `p` in a move line means the definition `(p 4)`.
        let use_of_p = TRUTH.find("W: p a2").unwrap() + 3;
        let definition = TRUTH.find("(p 4)").unwrap() + 1;
        assert_eq!(
            outline.definition_at(use_of_p),
            Some(definition..definition + 1)
        );
        // Board cells and move lines use it: every reference is found.
        let references = outline.references_at(definition, false);
        assert!(references.len() >= 4, "{references:?}");
        // `checks turn 3` leads to the `Turn 3 W` line.
        let checks = TRUTH.find("checks turn 3").unwrap() + "checks turn ".len();
        let turn3 = TRUTH.find("Turn 3 W").unwrap();
        assert_eq!(outline.definition_at(checks).map(|s| s.start), Some(turn3));
        let hover = &outline.hover_at(use_of_p - 2).unwrap().text;
        assert!(
            hover.contains("Moves a `p` from `a2` (row 1, column 2) to `b2`"),
            "{hover}"
        );
        let piece = &outline.hover_at(definition).unwrap().text;
        assert!(
            piece.contains("value 4") && piece.contains("a leap by (1,0)"),
            "{piece}"
        );
    }

    #[test]
    fn hovers_judge_moves_by_the_runtime_search() {
        // Moving like a piece that cannot move is no move at all.
        let text = "(k):\n(g 4): \"k\"(0,1|>)\n(f 4): {\"k\",(0,1|>)}\n\
                    +--+--+--+--+\n|kB|  |  |kW|\n+--+--+--+--+\n|gW|  |fW|  |\n+--+--+--+--+\n\
                    Turn 1 W: g a1 -> a2\nTurn 1 B: k b1 -> b2\nTurn 2 W: f a3 -> a4\n";
        let outline = super::super::Stages::parse_and_outline(&Source::new("like.fv", text));
        let hover = |needle: &str| {
            let at = text.find(needle).unwrap() + "Turn 1 W: ".len();
            outline.hover_at(at).unwrap().text.clone()
        };
        let g = hover("Turn 1 W: g");
        assert!(g.contains("this move is **not valid**"), "{g}");
        let f = hover("Turn 2 W: f");
        assert!(f.contains("this move is **valid**"), "{f}");
    }

    /// The first TRIED_AT_MOST distinct moves get a verdict, the rest
    /// none, whatever the machine's load: a count, not a clock.
    #[test]
    fn verdicts_are_given_for_a_fixed_number_of_distinct_moves() {
        // A rook on b2 of a 13 x 13 board, sent to every other square in
        // turn (most of them not valid: a verdict all the same).
        let size = 13;
        let border = format!("+{}\n", "--+".repeat(size));
        let row = |cells: &str| format!("|{cells}{}\n", "  |".repeat(size - cells.len() / 3));
        let mut rows = vec![row("kB|")];
        rows.extend((0..size - 3).map(|_| row("")));
        rows.push(row("  |rW|"));
        rows.push(row("kW|"));
        let board: String = rows.iter().map(|r| format!("{r}{border}")).collect();
        // Two definition lines and the board (a border and two lines a
        // row): the first move line is line 2 + 1 + 2 * size + 1.
        let mut text = format!("(k):\n(r 0): (0,1)*\n{border}{board}");
        let first_move_line = 2 + 1 + 2 * size as u32 + 1;
        let letters = "abcdefghijklm";
        let targets: Vec<String> = letters
            .chars()
            .flat_map(|row| (1..=size).map(move |col| format!("{row}{col}")))
            .filter(|square| square != "b2")
            .collect();
        assert!(targets.len() > TRIED_AT_MOST + 20);
        for (index, to) in targets.iter().enumerate() {
            let turn = index + 1;
            text.push_str(&format!(
                "Turn {turn} W: r b2 -> {to}\nTurn {turn} B: k m1 -> m1\n"
            ));
        }
        let source = Source::new("square.fv", text);
        let tree = syntax::parse(&source).unwrap();
        let verdicts = initial_validity(&source, &tree);
        let on_white_lines = |verdicts: &HashMap<u32, bool>| {
            verdicts
                .keys()
                .filter(|line| (**line - first_move_line).is_multiple_of(2))
                .count()
        };
        // The black move is the second distinct move tried; every black
        // line has its verdict, and TRIED_AT_MOST - 1 white lines.
        assert_eq!(on_white_lines(&verdicts), TRIED_AT_MOST - 1);
        assert_eq!(verdicts.len() - on_white_lines(&verdicts), targets.len());
        assert_eq!(
            initial_validity(&source, &tree),
            verdicts,
            "the same every time"
        );
    }
}
