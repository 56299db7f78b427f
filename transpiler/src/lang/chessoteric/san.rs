//! Standard algebraic notation: reading a move (and finding it among a
//! position's legal moves) and writing one.
//!
//! What is read, as chess2rs has always read it:
//! - `O-O` and `O-O-O` (letter O only);
//! - a piece move: an optional piece letter (`N`, `B`, `R`, `Q`, `K`; `P`
//!   or none for a pawn), an optional origin file and/or rank, `x` for a
//!   capture, the destination, and for a promotion `=` and a piece letter
//!   (`e8=Q`); a long form like `e2e4` or `Ng1f3` names the origin;
//! - one trailing `+` or `#`, which is ignored (whether the move checks is
//!   not checked);
//! - `--` (a null move) and drops (`N@f3`, `@e4`), which read as SAN but
//!   are never legal in chess.
//!
//! Annotations (`!`, `?`, …) are taken off by the PGN reader before.
//!
//! A move must say whether it captures (`Nf3` does not match a knight
//! taking on f3); a move that a pawn promotes with must say to what.
//!
//! Moves are written with the least disambiguation the rules ask for: the
//! origin file if it tells the candidates apart, else the rank, else both;
//! a pawn capture names its file; `+` or `#` follows a check or mate.

use std::fmt;
use std::str::FromStr;

use super::chess::{CastlingSide, File, Move, Position, Rank, Role, Square};

/// A move as SAN says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum San {
    /// A piece or pawn move.
    Normal(PieceMove),
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// A Crazyhouse drop (never legal here).
    Put {
        /// The piece dropped.
        role: Role,
        /// Where.
        to: Square,
    },
    /// `--` (never legal here).
    Null,
}

/// A piece or pawn move as SAN says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceMove {
    /// The moving piece.
    pub role: Role,
    /// The origin's file, if given.
    pub file: Option<File>,
    /// The origin's rank, if given.
    pub rank: Option<Rank>,
    /// Whether it takes (`x`).
    pub capture: bool,
    /// The destination.
    pub to: Square,
    /// What a pawn promotes to.
    pub promotion: Option<Role>,
}

impl PieceMove {
    /// Whether this move can mean `m`.
    fn matches(&self, m: &Move) -> bool {
        m.castle.is_none()
            && m.role == self.role
            && m.to == self.to
            && self.file.is_none_or(|f| f == m.from.file())
            && self.rank.is_none_or(|r| r == m.from.rank())
            && m.capture == self.capture
            && m.promotion == self.promotion
    }
}

impl fmt::Display for PieceMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.role != Role::Pawn {
            write!(f, "{}", letter(self.role))?;
        }
        if let Some(file) = self.file {
            write!(f, "{file}")?;
        }
        if let Some(rank) = self.rank {
            write!(f, "{rank}")?;
        }
        if self.capture {
            f.write_str("x")?;
        }
        write!(f, "{}", self.to)?;
        if let Some(promotion) = self.promotion {
            write!(f, "={}", letter(promotion))?;
        }
        Ok(())
    }
}

/// Text that is not SAN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseSanError;

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid san")
    }
}

impl std::error::Error for ParseSanError {}

/// Why SAN does not name a move of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SanError {
    /// No legal move matches.
    Illegal,
    /// More than one legal move matches.
    Ambiguous,
}

fn role_of(c: u8) -> Option<Role> {
    Some(match c {
        b'P' | b'p' => Role::Pawn,
        b'N' | b'n' => Role::Knight,
        b'B' | b'b' => Role::Bishop,
        b'R' | b'r' => Role::Rook,
        b'Q' | b'q' => Role::Queen,
        b'K' | b'k' => Role::King,
        _ => return None,
    })
}

fn file_of(c: u8) -> Option<File> {
    (b'a'..=b'h')
        .contains(&c)
        .then(|| File::index((c - b'a') as usize))
}

fn rank_of(c: u8) -> Option<Rank> {
    (b'1'..=b'8')
        .contains(&c)
        .then(|| Rank::index((c - b'1') as usize))
}

fn square_of(text: &[u8]) -> Option<Square> {
    match *text {
        [f, r] => Some(Square::new(file_of(f)?, rank_of(r)?)),
        _ => None,
    }
}

fn letter(role: Role) -> char {
    match role {
        Role::Pawn => 'P',
        Role::Knight => 'N',
        Role::Bishop => 'B',
        Role::Rook => 'R',
        Role::Queen => 'Q',
        Role::King => 'K',
    }
}

impl FromStr for San {
    type Err = ParseSanError;

    fn from_str(text: &str) -> Result<San, ParseSanError> {
        let mut text = text.as_bytes();
        if let [rest @ .., b'+' | b'#'] = text {
            text = rest;
        }
        match text {
            b"--" => return Ok(San::Null),
            b"O-O" => return Ok(San::Castle(CastlingSide::KingSide)),
            b"O-O-O" => return Ok(San::Castle(CastlingSide::QueenSide)),
            [b'@', to @ ..] if to.len() == 2 => {
                return Ok(San::Put {
                    role: Role::Pawn,
                    to: square_of(to).ok_or(ParseSanError)?,
                })
            }
            [role, b'@', to @ ..] if to.len() == 2 => {
                return Ok(San::Put {
                    role: role_of(*role).ok_or(ParseSanError)?,
                    to: square_of(to).ok_or(ParseSanError)?,
                })
            }
            _ => {}
        }
        normal(text).ok_or(ParseSanError)
    }
}

/// A piece or pawn move: `[piece][file][rank][x]square[=piece]`.
fn normal(text: &[u8]) -> Option<San> {
    let mut chars = text.iter().copied().peekable();
    let first = chars.next()?;
    let (role, mut next) = if first.is_ascii_uppercase() {
        (role_of(first)?, chars.next()?)
    } else {
        (Role::Pawn, first)
    };
    let mut file = None;
    if let Some(f) = file_of(next) {
        file = Some(f);
        next = chars.next()?;
    }
    // After the file, a rank; then perhaps nothing more (`e4`, `Nf3`…
    // were the destination all along).
    let mut rank = None;
    let mut after = Some(next);
    if let Some(r) = rank_of(next) {
        rank = Some(r);
        after = chars.next();
    }
    let (capture, file, rank, to, after) = match after {
        None => (false, None, None, Square::new(file?, rank?), None),
        Some(b'x') => {
            let to = Square::new(file_of(chars.next()?)?, rank_of(chars.next()?)?);
            (true, file, rank, to, chars.next())
        }
        Some(b'=') => (false, None, None, Square::new(file?, rank?), Some(b'=')),
        Some(c) => {
            let to = Square::new(file_of(c)?, rank_of(chars.next()?)?);
            (false, file, rank, to, chars.next())
        }
    };
    let promotion = match after {
        None => None,
        Some(b'=') => Some(role_of(chars.next()?)?),
        Some(_) => return None,
    };
    // As before, whatever follows a promotion's piece letter is not
    // looked at (`e8=Qx` reads as `e8=Q`).
    Some(San::Normal(PieceMove {
        role,
        file,
        rank,
        capture,
        to,
        promotion,
    }))
}

impl San {
    /// Whether this SAN can mean `m`.
    pub fn matches(&self, m: &Move) -> bool {
        match self {
            San::Normal(piece_move) => piece_move.matches(m),
            San::Castle(side) => m.castle == Some(*side),
            San::Put { .. } | San::Null => false,
        }
    }

    /// The one legal move of `position` this SAN means.
    pub fn to_move(&self, position: &Position) -> Result<Move, SanError> {
        let candidates = match *self {
            San::Normal(PieceMove { role, to, .. }) => position.legal_moves_of(role, Some(to)),
            San::Castle(_) => position.legal_moves_of(Role::King, None),
            San::Put { .. } | San::Null => Vec::new(),
        };
        let mut found = candidates.into_iter().filter(|m| self.matches(m));
        let first = found.next().ok_or(SanError::Illegal)?;
        match (self, found.next()) {
            (San::Normal(_), Some(_)) => Err(SanError::Ambiguous),
            _ => Ok(first),
        }
    }

    /// The SAN of `m`, a legal move of `position`, without a check
    /// suffix.
    pub fn from_move(position: &Position, m: &Move) -> San {
        if let Some(side) = m.castle {
            return San::Castle(side);
        }
        let (mut file, mut rank) = (None, None);
        if m.role == Role::Pawn {
            if m.capture {
                file = Some(m.from.file());
            }
        } else {
            // Other pieces of the same kind that could go there too.
            let (mut others, mut same_file, mut same_rank) = (false, false, false);
            for other in position.legal_moves_of(m.role, Some(m.to)) {
                if other.role == m.role
                    && other.to == m.to
                    && other.from != m.from
                    && other.castle.is_none()
                {
                    others = true;
                    same_file |= other.from.file() == m.from.file();
                    same_rank |= other.from.rank() == m.from.rank();
                }
            }
            if others && (!same_file || same_rank) {
                file = Some(m.from.file());
            }
            if same_file {
                rank = Some(m.from.rank());
            }
        }
        San::Normal(PieceMove {
            role: m.role,
            file,
            rank,
            capture: m.capture,
            to: m.to,
            promotion: m.promotion,
        })
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Normal(piece_move) => piece_move.fmt(f),
            San::Castle(CastlingSide::KingSide) => f.write_str("O-O"),
            San::Castle(CastlingSide::QueenSide) => f.write_str("O-O-O"),
            San::Put {
                role: Role::Pawn,
                to,
            } => write!(f, "@{to}"),
            San::Put { role, to } => write!(f, "{}@{to}", letter(role)),
            San::Null => f.write_str("--"),
        }
    }
}

/// Writes `m`, a legal move of `position`, as SAN with `+` or `#` if it
/// checks or mates, and plays it.
pub fn write_and_play(position: &mut Position, m: &Move) -> String {
    let mut san = San::from_move(position, m).to_string();
    position.play(m);
    if position.is_checkmate() {
        san.push('#');
    } else if position.is_check() {
        san.push('+');
    }
    san
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::chessoteric::fen;

    fn position(fen: &str) -> Position {
        fen::parse(fen).unwrap()
    }

    fn san(text: &str) -> San {
        text.parse().unwrap()
    }

    /// Plays `text` in `position` and writes it back with its suffix.
    fn round_trip(position: &mut Position, text: &str) -> String {
        let m = san(text).to_move(position).unwrap();
        write_and_play(position, &m)
    }

    #[test]
    fn reads_the_san_chess2rs_always_read() {
        for text in [
            "e4", "exd5", "Nf3", "Nbd2", "R1e2", "Qh4e1", "e8=Q", "exd8=N+", "O-O", "O-O-O#",
            "Pe4", "e2e4", "Ng1f3", "--", "@e4", "N@f3", "e8=K", "Kxe2", "e8=Qx",
        ] {
            assert!(text.parse::<San>().is_ok(), "{text}");
        }
        for text in [
            "", "+", "+++", "Zz9", "Bb9", "Xx4", "0-0", "O-O-O-O", "e4!", "e4++", "e9", "i4", "Nx",
            "e8=", "e8Q", "Nf3e", "exd", "o-o",
        ] {
            assert!(text.parse::<San>().is_err(), "{text}");
        }
        assert_eq!(
            san("Nbxd2"),
            San::Normal(PieceMove {
                role: Role::Knight,
                file: Some(File::B),
                rank: None,
                capture: true,
                to: Square::D2,
                promotion: None
            })
        );
    }

    #[test]
    fn writes_what_it_reads() {
        for text in [
            "e4", "exd5", "Nbd2", "R1e2", "Qh4e1", "e8=Q", "O-O", "O-O-O", "--",
        ] {
            assert_eq!(san(text).to_string(), text);
        }
        assert_eq!(san("O-O+").to_string(), "O-O");
    }

    #[test]
    fn ambiguous_and_illegal_moves_are_told_apart() {
        let mut p = Position::default();
        for text in ["Nf3", "Nf6", "Nc3", "Nc6", "Nd4", "Nd5"] {
            round_trip(&mut p, text);
        }
        assert_eq!(san("Nb5").to_move(&p), Err(SanError::Ambiguous));
        assert!(san("Ncb5").to_move(&p).is_ok());
        assert!(san("N4b5").to_move(&p).is_ok());
        assert_eq!(san("Nxb5").to_move(&p), Err(SanError::Illegal));
        assert_eq!(san("Ke3").to_move(&p), Err(SanError::Illegal));
        assert_eq!(san("--").to_move(&p), Err(SanError::Illegal));
        assert_eq!(san("N@e4").to_move(&p), Err(SanError::Illegal));
    }

    #[test]
    fn disambiguates_by_file_then_rank_then_both() {
        // Knights on b1 and f1, rooks on a1 and a5, queens on d4, h4 and
        // h8.
        let p = position("7Q/2k5/8/R7/3Q3Q/8/8/RN2KN2 w - - 0 1");
        let written = |from: Square, to: Square| {
            let m = p
                .legal_moves()
                .into_iter()
                .find(|m| m.from == from && m.to == to)
                .unwrap();
            San::from_move(&p, &m).to_string()
        };
        assert_eq!(written(Square::B1, Square::D2), "Nbd2", "files differ");
        assert_eq!(written(Square::A1, Square::A3), "R1a3", "same file");
        assert_eq!(written(Square::A5, Square::A3), "R5a3");
        assert_eq!(
            written(Square::H4, Square::D8),
            "Qh4d8",
            "file and rank shared"
        );
        assert_eq!(written(Square::H8, Square::D8), "Q8d8");
        assert_eq!(written(Square::D4, Square::D8), "Qdd8");
        assert_eq!(written(Square::D4, Square::E4), "Qde4", "same rank");
        assert_eq!(written(Square::E1, Square::E2), "Ke2");
        for text in ["Qh4d8", "Q8d8", "Qdd8", "R1a3", "Nbd2"] {
            assert!(san(text).to_move(&p).is_ok(), "{text}");
        }
        assert_eq!(san("Qd8").to_move(&p), Err(SanError::Ambiguous));
        assert_eq!(san("Qhd8").to_move(&p), Err(SanError::Ambiguous));
    }

    #[test]
    fn pinned_pieces_do_not_need_telling_apart() {
        // Both knights reach d4, but the one on e2 is pinned by the rook
        // on e8.
        let p = position("4r2k/8/8/1N6/8/8/4N3/4K3 w - - 0 1");
        let m = san("Nd4").to_move(&p).unwrap();
        assert_eq!(m.from, Square::B5);
        assert_eq!(San::from_move(&p, &m).to_string(), "Nd4");
        assert_eq!(san("Ned4").to_move(&p), Err(SanError::Illegal));
    }

    #[test]
    fn en_passant_is_a_capture_by_file() {
        let mut p = Position::default();
        for text in ["e4", "a6", "e5", "d5"] {
            round_trip(&mut p, text);
        }
        assert_eq!(san("ed6").to_move(&p), Err(SanError::Illegal));
        let m = san("exd6").to_move(&p).unwrap();
        assert!(m.en_passant && m.capture);
        assert_eq!(write_and_play(&mut p, &m), "exd6");
        assert_eq!(p.board().piece_at(Square::D5), None);
    }

    #[test]
    fn promotions_must_say_to_what() {
        let mut p = position("1n2k3/P7/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(san("a8").to_move(&p), Err(SanError::Illegal));
        assert_eq!(san("axb8").to_move(&p), Err(SanError::Illegal));
        assert_eq!(round_trip(&mut p.clone(), "a8=N"), "a8=N");
        assert_eq!(round_trip(&mut p.clone(), "axb8=R"), "axb8=R+");
        assert_eq!(round_trip(&mut p, "axb8=Q+"), "axb8=Q+");
    }

    #[test]
    fn castling_through_or_out_of_check_is_refused() {
        let through = position("r3kr2/8/8/8/8/8/8/R3K2R w KQq - 0 1");
        assert_eq!(san("O-O").to_move(&through), Err(SanError::Illegal));
        assert!(san("O-O-O").to_move(&through).is_ok());
        let attacked = position("r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1");
        assert_eq!(san("O-O").to_move(&attacked), Err(SanError::Illegal));
        assert!(san("O-O-O").to_move(&attacked).is_ok());
        let in_check = position("r3k2r/8/8/8/8/8/4r3/R3K2R w KQkq - 0 1");
        assert_eq!(san("O-O-O").to_move(&in_check), Err(SanError::Illegal));
        let mut free = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        assert_eq!(san("Kg1").to_move(&free), Err(SanError::Illegal));
        let m = san("O-O").to_move(&free).unwrap();
        assert_eq!((m.from, m.to), (Square::E1, Square::G1));
        assert_eq!(write_and_play(&mut free, &m), "O-O");
        assert_eq!(round_trip(&mut free, "O-O-O"), "O-O-O");
        let board = free.board();
        assert_eq!(board.piece_at(Square::F1).map(|p| p.role), Some(Role::Rook));
        assert_eq!(board.piece_at(Square::D8).map(|p| p.role), Some(Role::Rook));
    }

    #[test]
    fn checks_and_mates_get_their_suffix() {
        let mut p = Position::default();
        let written: Vec<String> = ["f3", "e5", "g4", "Qh4"]
            .iter()
            .map(|text| round_trip(&mut p, text))
            .collect();
        assert_eq!(written, ["f3", "e5", "g4", "Qh4#"]);
        let mut p = position("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
        assert_eq!(round_trip(&mut p, "Ra8"), "Ra8+");
    }
}
