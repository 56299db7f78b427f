//! `chess2rs explain`: what a Chessoteric game computes, move by move — the
//! board after each annotated move (as text or SVG), its bit string with
//! the marker and the value bits set apart, the decoded instruction — then
//! the rule table and the initial tape. Also the BTM listing of a game.

use std::fmt::Write as _;

use super::chess::{Board, Color, File, Rank, Role, Square};

use super::lower::{assemble, group, machine, GroupKind, Instruction, Snapshot};
use crate::diag::Diagnostics;
use crate::source::Source;

/// The instructions as a BTM listing (marker, bits, suffix per line): a
/// program that compiles to the same machine.
pub fn btm_listing(instructions: &[Instruction]) -> String {
    instructions.iter().map(|i| i.btm() + "\n").collect()
}

/// Styling for the bit strings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Plain text: prefix, marker and value separated by ` | `.
    Plain,
    /// ANSI colours for a terminal.
    Colour,
}

/// The whole explanation as text.
pub fn explain(
    source: &Source,
    instructions: &[Instruction],
    style: Style,
) -> Result<String, Diagnostics> {
    let (assembled, _) = assemble(instructions)?;
    let machine = machine(&assembled, false, source);
    let mut out = String::new();
    let grouped = group(instructions);
    for (instruction, &index) in instructions.iter().zip(&grouped.group_of) {
        let (kind, starts) = GroupKind::of(instruction.annotation);
        let what = format!(
            "{} {} {}",
            if starts { "start" } else { "continue" },
            kind.what(),
            grouped.groups[index].number
        );
        let value = i64::from_str_radix(&instruction.bits, 2)
            .map_or_else(|_| "too large".to_string(), |v| v.to_string());
        match &instruction.snapshot {
            Some(snapshot) => {
                let dots = if snapshot.white { "." } else { "..." };
                let _ = writeln!(
                    out,
                    "{}{dots} {}{}",
                    snapshot.number,
                    snapshot.san,
                    instruction.annotation.suffix()
                );
                out.push_str(&diagram(&snapshot.board));
                let _ = writeln!(out, "bits:  {}", styled_bits(snapshot, style));
            }
            None => {
                let _ = writeln!(out, "{}", instruction.btm());
            }
        }
        let _ = writeln!(out, "=> {what}: bits {} = {value}\n", instruction.bits);
    }
    let _ = writeln!(out, "Rules (state, read -> next, write, move):");
    if machine.rules.is_empty() {
        let _ = writeln!(
            out,
            "  (none: the machine halts at once unless it starts in state 1 or 2)"
        );
    }
    for rule in &machine.rules {
        let _ = writeln!(
            out,
            "  {}, {} -> {}, {}, {}",
            rule.rule.state,
            rule.rule.read,
            rule.rule.next,
            rule.rule.write,
            if rule.rule.left { "left" } else { "right" }
        );
    }
    let tape: Vec<String> = machine.tape.iter().map(|v| v.to_string()).collect();
    let _ = writeln!(
        out,
        "Initial tape: [{}]",
        if tape.is_empty() {
            "0".to_string()
        } else {
            tape.join(", ")
        }
    );
    Ok(out)
}

/// The bit string: leading bits, marker, value bits — set apart.
fn styled_bits(snapshot: &Snapshot, style: Style) -> String {
    let bits = &snapshot.board_bits;
    let (prefix, marker, value) = (
        &bits[..snapshot.marker],
        &bits[snapshot.marker..=snapshot.marker],
        &bits[snapshot.marker + 1..],
    );
    match style {
        Style::Plain => format!("{prefix} | {marker} | {value}"),
        Style::Colour => {
            format!("\x1b[2m{prefix}\x1b[0m\x1b[1;33m{marker}\x1b[0m\x1b[1;32m{value}\x1b[0m")
        }
    }
}

fn piece_char(colour: Color, role: Role) -> char {
    match (colour, role) {
        (Color::White, Role::King) => '♔',
        (Color::White, Role::Queen) => '♕',
        (Color::White, Role::Rook) => '♖',
        (Color::White, Role::Bishop) => '♗',
        (Color::White, Role::Knight) => '♘',
        (Color::White, Role::Pawn) => '♙',
        (Color::Black, Role::King) => '♚',
        (Color::Black, Role::Queen) => '♛',
        (Color::Black, Role::Rook) => '♜',
        (Color::Black, Role::Bishop) => '♝',
        (Color::Black, Role::Knight) => '♞',
        (Color::Black, Role::Pawn) => '♟',
    }
}

/// The board as text, rank 8 at the top, with coordinates.
pub fn diagram(board: &Board) -> String {
    let mut out = String::new();
    for rank in Rank::ALL.iter().rev() {
        let _ = write!(out, "{} ", char::from(*rank));
        for file in File::ALL {
            let square = Square::new(file, *rank);
            let c = board
                .piece_at(square)
                .map_or('·', |p| piece_char(p.color, p.role));
            let _ = write!(out, " {c}");
        }
        out.push('\n');
    }
    out.push_str("   a b c d e f g h\n");
    out
}

/// One annotated board as an SVG picture: 64 squares, the pieces, the
/// coordinates, and a caption with the move and its bits.
pub fn svg(snapshot: &Snapshot, instruction: &Instruction) -> String {
    const SIZE: u32 = 48;
    let board_px = SIZE * 8;
    let (width, height) = (board_px + 40, board_px + 90);
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="sans-serif">"#
    );
    let _ = writeln!(
        out,
        r#"<rect width="{width}" height="{height}" fill="white"/>"#
    );
    for rank in Rank::ALL {
        for file in File::ALL {
            let x = 24 + (file as u32) * SIZE;
            let y = 8 + (7 - (rank as u32)) * SIZE;
            let dark = ((file as u32) + (rank as u32)).is_multiple_of(2);
            let fill = if dark { "#b58863" } else { "#f0d9b5" };
            let name = Square::new(file, rank);
            let _ = writeln!(
                out,
                r#"<rect class="square" data-square="{name}" x="{x}" y="{y}" width="{SIZE}" height="{SIZE}" fill="{fill}"/>"#
            );
            if let Some(piece) = snapshot.board.piece_at(name) {
                let c = piece_char(piece.color, piece.role);
                let _ = writeln!(
                    out,
                    r#"<text class="piece" data-square="{name}" x="{}" y="{}" font-size="38" text-anchor="middle">{c}</text>"#,
                    x + SIZE / 2,
                    y + SIZE - 10
                );
            }
        }
    }
    for (i, file) in File::ALL.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="{}" y="{}" font-size="14" text-anchor="middle">{}</text>"#,
            24 + i as u32 * SIZE + SIZE / 2,
            board_px + 24,
            char::from(*file)
        );
    }
    for (i, rank) in Rank::ALL.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="12" y="{}" font-size="14" text-anchor="middle">{}</text>"#,
            8 + (7 - i as u32) * SIZE + SIZE / 2 + 5,
            char::from(*rank)
        );
    }
    let dots = if snapshot.white { "." } else { "..." };
    let bits = &snapshot.board_bits;
    let _ = writeln!(
        out,
        r#"<text class="caption" x="24" y="{}" font-size="16">{}{dots} {}{} → {}</text>"#,
        board_px + 50,
        snapshot.number,
        escape(&snapshot.san),
        instruction.annotation.suffix(),
        instruction.btm()
    );
    let _ = writeln!(
        out,
        r##"<text class="bits" x="24" y="{}" font-size="13" font-family="monospace"><tspan fill="#888">{}</tspan><tspan fill="#c60" font-weight="bold">{}</tspan><tspan fill="#080" font-weight="bold">{}</tspan></text>"##,
        board_px + 74,
        &bits[..snapshot.marker],
        &bits[snapshot.marker..=snapshot.marker],
        &bits[snapshot.marker + 1..]
    );
    out.push_str("</svg>\n");
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The position after an annotated move as `chess2rs view` draws it: a
/// grid of the 64 squares (rank 8 on top) with the pieces' figurines.
pub fn board_grid(board: &Board) -> crate::picture::Grid {
    let cells = Rank::ALL
        .iter()
        .rev()
        .flat_map(|rank| {
            File::ALL
                .into_iter()
                .map(move |file| Square::new(file, *rank))
        })
        .map(|square| {
            board
                .piece_at(square)
                .map_or(String::new(), |p| piece_char(p.color, p.role).to_string())
        })
        .collect();
    crate::picture::Grid::chessboard("position", cells)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::chessoteric::instructions;

    fn hello() -> (Source, Vec<Instruction>) {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../golden/chessoteric/chessoteric-hello.pgn"
        );
        let source = Source::new("hello.pgn", std::fs::read_to_string(path).unwrap());
        let instructions = instructions(&source, false).unwrap();
        (source, instructions)
    }

    #[test]
    fn explains_the_first_annotated_move_like_the_seed() {
        let (source, instructions) = hello();
        let text = explain(&source, &instructions, Style::Plain).unwrap();
        assert!(text.starts_with("5. Qg8!\n8  ♜ ♞ ♝ · ♚ ♝ ♕ ♜\n"), "{text}");
        assert!(
            text.contains(
                "bits:  1111111111111100000000000000 | 1 | 0\n=> start rule part 1: bits 0 = 0"
            ),
            "{text}"
        );
        assert!(text.contains("Initial tape: [1, 72, 101, 108, 108, 111, 44, 32, 119, 111, 114, 108, 100, 33, 10]"), "{text}");
    }

    #[test]
    fn btm_listing_matches_the_seed_listing() {
        let (_, instructions) = hello();
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../golden/chessoteric/hello.btm"
        );
        let seed = std::fs::read_to_string(path).unwrap();
        assert_eq!(btm_listing(&instructions).trim(), seed.trim());
    }

    #[test]
    fn svg_of_the_first_board_is_well_formed_with_64_squares_and_the_pieces() {
        let (_, instructions) = hello();
        let first = &instructions[0];
        let svg = svg(first.snapshot.as_ref().unwrap(), first);
        let document = roxmltree::Document::parse(&svg).expect("well-formed XML");
        let squares = document
            .descendants()
            .filter(|n| n.attribute("class") == Some("square"))
            .count();
        assert_eq!(squares, 64);
        let piece_on = |square: &str| {
            document
                .descendants()
                .find(|n| {
                    n.attribute("class") == Some("piece")
                        && n.attribute("data-square") == Some(square)
                })
                .and_then(|n| n.text())
                .map(str::to_string)
        };
        assert_eq!(
            piece_on("g8").as_deref(),
            Some("♕"),
            "the white queen landed on g8"
        );
        assert_eq!(piece_on("e8").as_deref(), Some("♚"));
        assert_eq!(piece_on("a1").as_deref(), Some("♖"));
        assert_eq!(piece_on("e1").as_deref(), Some("♔"));
        assert_eq!(piece_on("d1"), None, "the queen left d1");
        let pieces = document
            .descendants()
            .filter(|n| n.attribute("class") == Some("piece"))
            .count();
        assert_eq!(pieces, 30);
        assert!(svg.contains("5. Qg8! → 10!"));
    }
}
