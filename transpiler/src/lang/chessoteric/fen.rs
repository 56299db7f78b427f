//! The FEN tag: reading a position and saying why one is refused.
//!
//! The reasons are worded as chess2rs has always worded them (the messages
//! are part of its output): first the part of the FEN that cannot be read
//! (`invalid board part in fen`, …), then what makes the position
//! illegal (`illegal position: missing king, opposite check`, …). Parts
//! may be separated by spaces or underscores, and missing trailing parts
//! take their defaults (White to move, no castling, no en passant, move
//! 1). Crazyhouse pockets, promoted-piece marks (`Q~`) and Three-check
//! counters are read and ignored, as standard chess has none of them.

use std::fmt;

use cozy_chess::{get_bishop_moves, get_king_moves, get_knight_moves, get_line_rays};
use cozy_chess::{get_pawn_attacks, get_rook_moves, BitBoard, BoardBuilder, CastleRights};

use super::chess::{dark_squares, Board, Color, File, Piece, Position, Rank, Role, Square};

/// Why a FEN was not read, or is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// A part of the FEN cannot be read.
    Syntax(Part),
    /// It reads, but is not a position of standard chess: the reasons, in
    /// a fixed order.
    Illegal(Vec<Illegal>),
}

/// The part of a FEN that cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    /// The FEN as a whole (nothing, or too many parts).
    Whole,
    /// The board.
    Board,
    /// Crazyhouse pockets.
    Pocket,
    /// The side to move.
    Turn,
    /// The castling rights.
    Castling,
    /// The en passant square.
    EnPassant,
    /// The halfmove clock.
    HalfmoveClock,
    /// The move number.
    Fullmoves,
}

/// A reason a position is not legal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Illegal {
    /// No pieces.
    EmptyBoard,
    /// A side has no king.
    MissingKing,
    /// A side has more than one king.
    TooManyKings,
    /// Pawns on the first or last rank.
    PawnsOnBackrank,
    /// Castling rights without their king and rook in place.
    InvalidCastlingRights,
    /// An en passant square no double pawn move can have left.
    InvalidEpSquare,
    /// The side not to move is in check.
    OppositeCheck,
    /// Checks no last move can have given.
    ImpossibleCheck,
    /// More pieces than promotions can give.
    TooMuchMaterial,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Syntax(part) => f.write_str(match part {
                Part::Whole => "invalid fen",
                Part::Board => "invalid board part in fen",
                Part::Pocket => "invalid pocket in fen",
                Part::Turn => "invalid turn part in fen",
                Part::Castling => "invalid castling part in fen",
                Part::EnPassant => "invalid ep square in fen",
                Part::HalfmoveClock => "invalid halfmove clock in fen",
                Part::Fullmoves => "invalid fullmove part in fen",
            }),
            FenError::Illegal(reasons) => {
                f.write_str("illegal position: ")?;
                if reasons.is_empty() {
                    return f.write_str("unknown reason");
                }
                for (i, reason) in reasons.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(match reason {
                        Illegal::EmptyBoard => "empty board",
                        Illegal::MissingKing => "missing king",
                        Illegal::TooManyKings => "too many kings",
                        Illegal::PawnsOnBackrank => "pawns on backrank",
                        Illegal::InvalidCastlingRights => "invalid castling rights",
                        Illegal::InvalidEpSquare => "invalid ep square",
                        Illegal::OppositeCheck => "opposite check",
                        Illegal::ImpossibleCheck => "impossible check",
                        Illegal::TooMuchMaterial => "too much material",
                    })?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for FenError {}

/// The FEN of `position`, with an en passant square only when a capture
/// there is legal.
pub fn write(position: &Position) -> String {
    let board = position.board();
    let mut fen = String::new();
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0;
        for file in File::ALL {
            match board.piece_at(Square::new(file, *rank)) {
                None => empty += 1,
                Some(piece) => {
                    if empty > 0 {
                        fen.push_str(&empty.to_string());
                        empty = 0;
                    }
                    let c = char::from(piece.role);
                    fen.push(if piece.color == Color::White {
                        c.to_ascii_uppercase()
                    } else {
                        c
                    });
                }
            }
        }
        if empty > 0 {
            fen.push_str(&empty.to_string());
        }
        if *rank != Rank::First {
            fen.push('/');
        }
    }
    fen.push_str(if position.turn() == Color::White {
        " w "
    } else {
        " b "
    });
    let [(white_short, white_long), (black_short, black_long)] = position.castling_rights();
    let mut castling = String::new();
    for (right, c) in [
        (white_short, 'K'),
        (white_long, 'Q'),
        (black_short, 'k'),
        (black_long, 'q'),
    ] {
        if right {
            castling.push(c);
        }
    }
    fen.push_str(if castling.is_empty() { "-" } else { &castling });
    match position.legal_moves().iter().find(|m| m.en_passant) {
        Some(m) => fen.push_str(&format!(" {}", m.to)),
        None => fen.push_str(" -"),
    }
    fen.push_str(&format!(
        " {} {}",
        position.halfmoves(),
        position.fullmoves()
    ));
    fen
}

/// What a FEN says, before it is checked.
struct Setup {
    board: Board,
    turn: Color,
    /// The rook squares castling rights are given for.
    castling: BitBoard,
    ep_square: Option<Square>,
    halfmoves: u32,
    fullmoves: u32,
}

/// The position a FEN describes.
pub fn parse(fen: &str) -> Result<Position, FenError> {
    let setup = read(fen.as_bytes()).map_err(FenError::Syntax)?;
    position(&setup)
}

fn read(fen: &[u8]) -> Result<Setup, Part> {
    let mut parts = fen
        .split(|&c| c == b' ' || c == b'_')
        .filter(|part| !part.is_empty());
    let board_part = parts.next().ok_or(Part::Whole)?;
    // Pockets: `board[pocket]`, or a ninth rank `board/pocket`.
    let (board_part, pocket) = if board_part.ends_with(b"]") {
        let open = board_part
            .iter()
            .position(|&c| c == b'[')
            .ok_or(Part::Board)?;
        (
            &board_part[..open],
            Some(&board_part[open + 1..board_part.len() - 1]),
        )
    } else if let Some(eighth) = board_part
        .iter()
        .enumerate()
        .filter(|(_, &c)| c == b'/')
        .map(|(i, _)| i)
        .nth(7)
    {
        (&board_part[..eighth], Some(&board_part[eighth + 1..]))
    } else {
        (board_part, None)
    };
    let board = read_board(board_part).ok_or(Part::Board)?;
    if let Some(pocket) = pocket {
        if pocket.len() > 64 || !pocket.iter().all(|&c| piece_of(c).is_some()) {
            return Err(Part::Pocket);
        }
    }
    let turn = match parts.next() {
        Some(b"w") | None => Color::White,
        Some(b"b") => Color::Black,
        Some(_) => return Err(Part::Turn),
    };
    let castling = match parts.next() {
        Some(b"-") | None => BitBoard::EMPTY,
        Some(part) => read_castling(part, &board).ok_or(Part::Castling)?,
    };
    let ep_square = match parts.next() {
        Some(b"-") | None => None,
        Some(part) => Some(read_square(part).ok_or(Part::EnPassant)?),
    };
    // Three-check counters may come before the clocks or after them.
    let mut checks_read = false;
    let halfmoves = match parts.next() {
        Some(part) if is_remaining_checks(part) => {
            checks_read = true;
            parts.next()
        }
        other => other,
    };
    let halfmoves = match halfmoves {
        Some(part) => number(part).ok_or(Part::HalfmoveClock)?,
        None => 0,
    };
    let mut fullmoves = 1;
    if let Some(part) = parts.next() {
        fullmoves = number(part).ok_or(Part::Fullmoves)?.max(1);
    }
    let last = match parts.next() {
        Some(part) if !checks_read && is_remaining_checks(part) => parts.next(),
        other => other,
    };
    if last.is_some() {
        return Err(Part::Whole);
    }
    Ok(Setup {
        board,
        turn,
        castling,
        ep_square,
        halfmoves,
        fullmoves,
    })
}

fn piece_of(c: u8) -> Option<Piece> {
    let role = match c.to_ascii_lowercase() {
        b'p' => Role::Pawn,
        b'n' => Role::Knight,
        b'b' => Role::Bishop,
        b'r' => Role::Rook,
        b'q' => Role::Queen,
        b'k' => Role::King,
        _ => return None,
    };
    let color = if c.is_ascii_uppercase() {
        Color::White
    } else {
        Color::Black
    };
    Some(Piece { color, role })
}

/// The board part: ranks 8 to 1 separated by `/`, digits for empty
/// squares; a piece may be marked promoted with `~`.
fn read_board(part: &[u8]) -> Option<Board> {
    let mut board = Board::empty();
    let (mut rank, mut file) = (7i8, 0i8);
    let mut chars = part.iter().copied().peekable();
    while let Some(c) = chars.next() {
        if c == b'/' && file == 8 {
            file = 0;
            rank -= 1;
            if rank < 0 {
                return None;
            }
        } else if (b'1'..=b'8').contains(&c) {
            file += (c - b'0') as i8;
            if file > 8 {
                return None;
            }
        } else if let Some(piece) = piece_of(c) {
            if !(0..8).contains(&file) {
                return None;
            }
            if chars.peek() == Some(&b'~') {
                chars.next();
            }
            let square = Square::new(File::index(file as usize), Rank::index(rank as usize));
            board.set(square, Some(piece));
            file += 1;
        } else {
            return None;
        }
    }
    (rank == 0 && file == 8).then_some(board)
}

/// The castling part: `K`/`Q`/`k`/`q` (the outermost rook on that side of
/// the back rank, else the corner) or files (`A`–`H`, `a`–`h`); at most
/// two per side.
fn read_castling(part: &[u8], board: &Board) -> Option<BitBoard> {
    let mut rights = BitBoard::EMPTY;
    for &c in part {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let backrank = Rank::First.relative_to(color);
        let rooks_and_kings: Vec<Square> = File::ALL
            .iter()
            .map(|&file| Square::new(file, backrank))
            .filter(|&sq| {
                board
                    .piece_at(sq)
                    .is_some_and(|p| p.color == color && matches!(p.role, Role::Rook | Role::King))
            })
            .collect();
        let is_rook = |sq: &Square| board.piece_at(*sq).is_some_and(|p| p.role == Role::Rook);
        let square = match c.to_ascii_lowercase() {
            b'k' => rooks_and_kings
                .last()
                .copied()
                .filter(is_rook)
                .unwrap_or(Square::new(File::H, backrank)),
            b'q' => rooks_and_kings
                .first()
                .copied()
                .filter(is_rook)
                .unwrap_or(Square::new(File::A, backrank)),
            file @ b'a'..=b'h' => Square::new(File::index((file - b'a') as usize), backrank),
            _ => return None,
        };
        rights |= square.bitboard();
    }
    for rank in [Rank::First, Rank::Eighth] {
        if (rights & rank.bitboard()).len() > 2 {
            return None;
        }
    }
    Some(rights)
}

fn read_square(part: &[u8]) -> Option<Square> {
    match part {
        &[f @ b'a'..=b'h', r @ b'1'..=b'8'] => Some(Square::new(
            File::index((f - b'a') as usize),
            Rank::index((r - b'1') as usize),
        )),
        _ => None,
    }
}

/// A move count: ASCII digits, saturating.
fn number(part: &[u8]) -> Option<u32> {
    if part.is_empty() || !part.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(part.iter().fold(0u32, |n, &d| {
        n.saturating_mul(10).saturating_add(u32::from(d - b'0'))
    }))
}

/// Three-check counters: `3+3` (checks left) or `+0+0` (checks given).
fn is_remaining_checks(part: &[u8]) -> bool {
    let pieces: Vec<&[u8]> = part.splitn(3, |&c| c == b'+').collect();
    let small = |p: &[u8], signed: bool| {
        let p = match p {
            [b'+' | b'-', rest @ ..] if signed => rest,
            _ => p,
        };
        number(p).is_some_and(|n| n <= 3)
    };
    match pieces.as_slice() {
        [[], given_white, given_black] => small(given_white, false) && small(given_black, true),
        [white, black] => small(white, false) && small(black, false),
        _ => false,
    }
}

/// Pieces of one side and kind.
fn pieces(board: &Board, color: Color, role: Role) -> BitBoard {
    Square::ALL
        .iter()
        .filter(|&&sq| board.piece_at(sq) == Some(Piece { color, role }))
        .fold(BitBoard::EMPTY, |bb, sq| bb | sq.bitboard())
}

fn occupied(board: &Board) -> BitBoard {
    Square::ALL
        .iter()
        .filter(|&&sq| board.piece_at(sq).is_some())
        .fold(BitBoard::EMPTY, |bb, sq| bb | sq.bitboard())
}

/// Pieces of `by` that attack `square` when `occupied` are occupied.
fn attackers(board: &Board, square: Square, by: Color, occupied: BitBoard) -> BitBoard {
    let of = |role| pieces(board, by, role);
    let diagonal = of(Role::Bishop) | of(Role::Queen);
    let straight = of(Role::Rook) | of(Role::Queen);
    (get_bishop_moves(square, occupied) & diagonal)
        | (get_rook_moves(square, occupied) & straight)
        | (get_knight_moves(square) & of(Role::Knight))
        | (get_king_moves(square) & of(Role::King))
        | (get_pawn_attacks(square, !by) & of(Role::Pawn))
}

/// Whether castling rights are those of standard chess: each names a
/// rook in its corner, with its king on the e-file.
fn castling_is_valid(setup: &Setup) -> bool {
    setup.castling.into_iter().all(|rook| {
        let color = if rook.rank() == Rank::First {
            Color::White
        } else {
            Color::Black
        };
        matches!(rook.file(), File::A | File::H)
            && setup.board.piece_at(rook)
                == Some(Piece {
                    color,
                    role: Role::Rook,
                })
            && setup.board.piece_at(Square::new(File::E, rook.rank()))
                == Some(Piece {
                    color,
                    role: Role::King,
                })
    })
}

/// The en passant square, if valid: on the sixth rank of the side to
/// move, behind a pawn that has just made a double move, with the squares
/// the pawn passed empty.
fn valid_ep_square(setup: &Setup) -> Result<Option<Square>, ()> {
    let Some(square) = setup.ep_square else {
        return Ok(None);
    };
    if square.rank() != Rank::Sixth.relative_to(setup.turn) {
        return Err(());
    }
    let them = !setup.turn;
    let pushed_to = Square::new(square.file(), Rank::Fourth.relative_to(them));
    let pushed_from = Square::new(square.file(), Rank::Second.relative_to(them));
    if !pieces(&setup.board, them, Role::Pawn).has(pushed_to)
        || setup.board.piece_at(square).is_some()
        || setup.board.piece_at(pushed_from).is_some()
    {
        return Err(());
    }
    Ok(Some(square))
}

/// Whether `color` has no more pieces than promotions can give: pawns
/// plus pieces beyond the starting set (bishops counted per square
/// colour) at most 8.
fn material_is_possible(board: &Board, color: Color) -> bool {
    let count = |role| pieces(board, color, role).len();
    let bishops = pieces(board, color, Role::Bishop);
    let dark = (bishops & dark_squares()).len();
    let light = bishops.len() - dark;
    let promoted = count(Role::Queen).saturating_sub(1)
        + count(Role::Rook).saturating_sub(2)
        + count(Role::Knight).saturating_sub(2)
        + light.saturating_sub(1)
        + dark.saturating_sub(1);
    count(Role::Pawn) + promoted <= 8
}

/// The position, if the setup is legal enough to play from.
fn position(setup: &Setup) -> Result<Position, FenError> {
    let mut reasons = Vec::new();
    let board = &setup.board;
    let all = occupied(board);
    if !castling_is_valid(setup) {
        reasons.push(Illegal::InvalidCastlingRights);
    }
    let ep_square = valid_ep_square(setup).unwrap_or_else(|()| {
        reasons.push(Illegal::InvalidEpSquare);
        None
    });
    if all.is_empty() {
        reasons.push(Illegal::EmptyBoard);
    }
    let backranks = Rank::First.bitboard() | Rank::Eighth.bitboard();
    let pawns = pieces(board, Color::White, Role::Pawn) | pieces(board, Color::Black, Role::Pawn);
    if !(pawns & backranks).is_empty() {
        reasons.push(Illegal::PawnsOnBackrank);
    }
    let king = |color| {
        let kings = pieces(board, color, Role::King);
        (kings.len() == 1)
            .then(|| kings.into_iter().next())
            .flatten()
    };
    for color in [Color::White, Color::Black] {
        match pieces(board, color, Role::King).len() {
            0 => reasons.push(Illegal::MissingKing),
            1 => {}
            _ => reasons.push(Illegal::TooManyKings),
        }
        if !material_is_possible(board, color) {
            reasons.push(Illegal::TooMuchMaterial);
        }
    }
    if let Some(their_king) = king(!setup.turn) {
        if !attackers(board, their_king, setup.turn, all).is_empty() {
            reasons.push(Illegal::OppositeCheck);
        }
    }
    if let Some(our_king) = king(setup.turn) {
        let checkers = attackers(board, our_king, !setup.turn, all);
        let mut each = checkers.into_iter();
        if let (Some(first), Some(last)) = (each.next(), checkers.into_iter().last()) {
            let impossible = match ep_square {
                Some(ep) => {
                    // The pawn that just moved gives check, or uncovers a
                    // single slider's.
                    let them = !setup.turn;
                    let pushed_to = Square::new(ep.file(), Rank::Fourth.relative_to(them));
                    let pushed_from = Square::new(ep.file(), Rank::Second.relative_to(them));
                    let before = (all & !pushed_to.bitboard()) | pushed_from.bitboard();
                    first != last
                        || (first != pushed_to
                            && !attackers(board, our_king, them, before).is_empty())
                }
                None => {
                    first != last
                        && (checkers.len() > 2 || get_line_rays(first, our_king).has(last))
                }
            };
            if impossible {
                reasons.push(Illegal::ImpossibleCheck);
            }
        }
    }
    if !reasons.is_empty() {
        reasons.sort();
        reasons.dedup();
        return Err(FenError::Illegal(reasons));
    }
    let mut builder = BoardBuilder::empty();
    for square in Square::ALL {
        *builder.square_mut(square) = board.piece_at(square).map(|p| (p.role, p.color));
    }
    builder.side_to_move = setup.turn;
    for color in [Color::White, Color::Black] {
        let rank = Rank::First.relative_to(color);
        let has = |file| setup.castling.has(Square::new(file, rank));
        *builder.castle_rights_mut(color) = CastleRights {
            short: has(File::H).then_some(File::H),
            long: has(File::A).then_some(File::A),
        };
    }
    builder.en_passant = ep_square;
    builder.halfmove_clock = 0;
    builder.fullmove_number = 1;
    let built = builder.build().or_else(|_| {
        // An en passant square that no capture could use may still be
        // refused by cozy-chess; it changes nothing.
        builder.en_passant = None;
        builder.build()
    });
    match built {
        Ok(board) => Ok(Position::from_parts(
            board,
            setup.halfmoves,
            setup.fullmoves,
        )),
        Err(_) => Err(FenError::Illegal(Vec::new())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(fen: &str) -> String {
        parse(fen).unwrap_err().to_string()
    }

    #[test]
    fn standard_fens_are_read() {
        let start = parse("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert_eq!(start, Position::default());
        let p = parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 7").unwrap();
        assert_eq!((p.turn(), p.fullmoves()), (Color::Black, 7));
        assert!(parse("4k3/8/8/8/8/8/8/4K3").is_ok(), "parts may be missing");
        assert!(parse("4k3/8/8/8/8/8/8/4K3_w_-_-_0_1").is_ok());
        assert!(parse("4k3/8/8/8/8/8/8/4K2R w K - 0 1 +0+0").is_ok());
        assert!(parse("4k3/8/8/8/8/8/8/4K2R[Qq] w K - 0 1").is_ok());
        assert_eq!(
            parse("4k3/8/8/8/8/8/8/4K3 w - - 0 0").unwrap().fullmoves(),
            1
        );
    }

    #[test]
    fn positions_are_written_back() {
        for fen in [
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 12 40",
            "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",
        ] {
            assert_eq!(write(&parse(fen).unwrap()), fen);
        }
        // No capture there: the square is left out.
        let quiet = parse("4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1").unwrap();
        assert_eq!(write(&quiet), "4k3/8/8/3p4/8/8/8/4K3 w - - 0 1");
    }

    #[test]
    fn unreadable_parts_are_named() {
        assert_eq!(reason(""), "invalid fen");
        assert_eq!(reason("not a position"), "invalid board part in fen");
        assert_eq!(reason("8/8/8 w - - 0 1"), "invalid board part in fen");
        assert_eq!(reason("4k3/8/8/8/8/8/8/4K3 x"), "invalid turn part in fen");
        assert_eq!(
            reason("4k3/8/8/8/8/8/8/4K3 w KQX"),
            "invalid castling part in fen"
        );
        assert_eq!(
            reason("4k3/8/8/8/8/8/8/4K3 w - e9"),
            "invalid ep square in fen"
        );
        assert_eq!(
            reason("4k3/8/8/8/8/8/8/4K3 w - - x"),
            "invalid halfmove clock in fen"
        );
        assert_eq!(
            reason("4k3/8/8/8/8/8/8/4K3 w - - 0 y"),
            "invalid fullmove part in fen"
        );
        assert_eq!(reason("4k3/8/8/8/8/8/8/4K3 w - - 0 1 z"), "invalid fen");
        assert_eq!(reason("4k3/8/8/8/8/8/8/4K3[X] w"), "invalid pocket in fen");
    }

    #[test]
    fn illegal_positions_give_every_reason() {
        assert_eq!(
            reason("8/8/8/8/8/8/8/8 w - - 0 1"),
            "illegal position: empty board, missing king"
        );
        assert_eq!(
            reason("4k3/8/8/8/8/8/8/8 w - - 0 1"),
            "illegal position: missing king"
        );
        assert_eq!(
            reason("4k3/8/8/8/8/8/8/3KK3 w - - 0 1"),
            "illegal position: too many kings"
        );
        assert_eq!(
            reason("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            "illegal position: pawns on backrank"
        );
        assert_eq!(
            reason("4k3/8/8/8/8/8/8/4K3 w K - 0 1"),
            "illegal position: invalid castling rights"
        );
        assert_eq!(
            reason("4k3/8/8/8/8/8/8/3K3R w K - 0 1"),
            "illegal position: invalid castling rights"
        );
        assert_eq!(
            reason("4k3/8/8/8/8/8/8/4K3 w - e3 0 1"),
            "illegal position: invalid ep square"
        );
        assert_eq!(
            reason("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1"),
            "illegal position: opposite check"
        );
        assert_eq!(
            reason("4k3/8/8/8/8/8/8/r3K2r w - - 0 1"),
            "illegal position: impossible check"
        );
        assert!(parse("4k3/8/8/8/8/8/8/R3K2R b K - 0 1").is_ok());
        assert_eq!(
            reason("4k3/pppppppp/qq6/8/8/8/8/4K3 w - - 0 1"),
            "illegal position: too much material"
        );
    }

    #[test]
    fn en_passant_squares_are_kept_when_valid() {
        assert!(parse("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1").is_ok());
        assert_eq!(
            reason("4k3/8/8/3pP3/8/8/8/4K3 w - d3 0 1"),
            "illegal position: invalid ep square"
        );
    }
}
