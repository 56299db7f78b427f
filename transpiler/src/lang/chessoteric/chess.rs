//! The chess rules Chessoteric needs, on top of the `cozy-chess` move
//! generator (MIT): a position with its move number, legal moves in a
//! fixed order, playing them, and the board as pieces on squares. SAN is
//! [`super::san`], FEN [`super::fen`].
//!
//! Moves are described the usual way: castling is the king's two-square
//! move (`e1`→`g1`), not cozy-chess's king-takes-own-rook, and a move
//! knows whether it captures (en passant included).

pub use cozy_chess::{Color, File, Rank, Square};

use cozy_chess::{BitBoard, Piece as CozyPiece};

/// A kind of piece.
pub type Role = CozyPiece;

/// A piece: its side and kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What piece it is.
    pub role: Role,
}

/// The pieces on the 64 squares (no side to move, castling or en passant).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; 64],
}

impl Board {
    /// A board with no pieces.
    pub fn empty() -> Board {
        Board {
            squares: [None; 64],
        }
    }

    /// The piece on `square`, if any.
    pub fn piece_at(&self, square: Square) -> Option<Piece> {
        self.squares[square as usize]
    }

    /// The side of the piece on `square`, if any.
    pub fn color_at(&self, square: Square) -> Option<Color> {
        self.piece_at(square).map(|p| p.color)
    }

    /// Puts `piece` on `square` (or empties it).
    pub fn set(&mut self, square: Square, piece: Option<Piece>) {
        self.squares[square as usize] = piece;
    }

    fn of(board: &cozy_chess::Board) -> Board {
        let mut out = Board::empty();
        for square in board.occupied() {
            if let (Some(role), Some(color)) = (board.piece_on(square), board.color_on(square)) {
                out.set(square, Some(Piece { color, role }));
            }
        }
        out
    }
}

/// Which side a castling move goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// `O-O`, towards the h-file.
    KingSide,
    /// `O-O-O`, towards the a-file.
    QueenSide,
}

/// A legal move of some position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// The moving piece (the king for castling).
    pub role: Role,
    /// Where the moving piece stands.
    pub from: Square,
    /// Where the moving piece lands (for castling, the king's square).
    pub to: Square,
    /// Whether it takes a piece (en passant included).
    pub capture: bool,
    /// What a pawn promotes to.
    pub promotion: Option<Role>,
    /// Whether it is an en passant capture.
    pub en_passant: bool,
    /// For castling: which side.
    pub castle: Option<CastlingSide>,
    /// The move as cozy-chess plays it.
    raw: cozy_chess::Move,
}

/// A position of standard chess: the cozy-chess board, and the move
/// counters kept here (cozy-chess stops its halfmove clock at 100 and
/// keeps the move number in 16 bits; a FEN may say more).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    board: cozy_chess::Board,
    halfmoves: u32,
    fullmoves: u32,
}

impl Default for Position {
    fn default() -> Position {
        Position {
            board: cozy_chess::Board::default(),
            halfmoves: 0,
            fullmoves: 1,
        }
    }
}

impl Position {
    /// A position from a cozy-chess board and the move counters.
    pub(super) fn from_parts(board: cozy_chess::Board, halfmoves: u32, fullmoves: u32) -> Position {
        Position {
            board,
            halfmoves,
            fullmoves,
        }
    }

    /// The cozy-chess board (for searches that play many moves).
    pub(super) fn raw(&self) -> &cozy_chess::Board {
        &self.board
    }

    /// `raw`, a legal cozy-chess move of this position, described.
    pub(super) fn move_of(&self, raw: cozy_chess::Move) -> Move {
        self.describe(raw, self.turn())
    }

    /// Plies since the last capture or pawn move.
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The castling rights left: for White then Black, king side and
    /// queen side.
    pub fn castling_rights(&self) -> [(bool, bool); 2] {
        [Color::White, Color::Black].map(|color| {
            let rights = self.board.castle_rights(color);
            (rights.short.is_some(), rights.long.is_some())
        })
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        self.board.side_to_move()
    }

    /// The number of the move being played (1 at the start; it goes up
    /// after each Black move).
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Whether the moves after this position see `other` as they see
    /// it: the same pieces, side to move, castling rights and en passant
    /// capture (compared whole, not by a hash). The move counters may
    /// differ: no move's legality or board reads them.
    pub fn same_for_later_moves(&self, other: &Position) -> bool {
        self.board.same_position(&other.board)
    }

    /// The pieces on the board.
    pub fn board(&self) -> Board {
        Board::of(&self.board)
    }

    /// The side of the piece on `square`, if any.
    pub fn color_at(&self, square: Square) -> Option<Color> {
        self.board.color_on(square)
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        !self.board.checkers().is_empty()
    }

    /// Whether the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// Whether no more moves can be played for a result: checkmate,
    /// stalemate, or neither side with material to mate.
    pub fn is_game_over(&self) -> bool {
        !self.has_legal_moves() || is_dead(&self.board)
    }

    fn has_legal_moves(&self) -> bool {
        self.board.generate_moves(|_| true)
    }

    /// Every legal move, in a fixed order: en passant captures; then, out
    /// of check, pawn captures towards the a-file, then towards the
    /// h-file (each by destination, promotions after the others), pawn
    /// pushes, double pushes, knight, bishop, rook and queen moves (by
    /// origin, then destination), king moves, castling king side then
    /// queen side; in check, king moves come before the other pieces'.
    /// (The order lists moves in messages.)
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = self.legal_moves_unordered();
        let (us, in_check) = (self.turn(), self.is_check());
        moves.sort_by_key(|m| order_key(m, us, in_check));
        moves
    }

    /// Every legal move, in no particular order (quicker).
    pub fn legal_moves_unordered(&self) -> Vec<Move> {
        let us = self.turn();
        let mut moves = Vec::with_capacity(48);
        self.board.generate_moves(|piece_moves| {
            for raw in piece_moves {
                moves.push(self.describe(raw, us));
            }
            false
        });
        moves
    }

    /// The legal moves of the side to move's pieces of kind `role`, in no
    /// particular order; only those landing on `to` if given (castling,
    /// which lands on the king's square, is then left out).
    pub fn legal_moves_of(&self, role: Role, to: Option<Square>) -> Vec<Move> {
        let us = self.turn();
        let mut moves = Vec::new();
        let mask = self.board.colored_pieces(us, role);
        self.board.generate_moves_for(mask, |mut piece_moves| {
            if let Some(to) = to {
                piece_moves.to &= to.bitboard();
            }
            for raw in piece_moves {
                let m = self.describe(raw, us);
                if to.is_none() || m.castle.is_none() {
                    moves.push(m);
                }
            }
            false
        });
        moves
    }

    fn describe(&self, raw: cozy_chess::Move, us: Color) -> Move {
        let role = self.board.piece_on(raw.from).unwrap_or(Role::Pawn);
        let target = self.board.color_on(raw.to);
        if role == Role::King && target == Some(us) {
            let (side, file) = if raw.to.file() > raw.from.file() {
                (CastlingSide::KingSide, File::G)
            } else {
                (CastlingSide::QueenSide, File::C)
            };
            return Move {
                role,
                from: raw.from,
                to: Square::new(file, raw.from.rank()),
                capture: false,
                promotion: None,
                en_passant: false,
                castle: Some(side),
                raw,
            };
        }
        let en_passant = role == Role::Pawn && raw.from.file() != raw.to.file() && target.is_none();
        Move {
            role,
            from: raw.from,
            to: raw.to,
            capture: target.is_some() || en_passant,
            promotion: raw.promotion,
            en_passant,
            castle: None,
            raw,
        }
    }

    /// Plays `m`, a legal move of this position.
    pub fn play(&mut self, m: &Move) {
        if self.turn() == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.halfmoves = if m.role == Role::Pawn || m.capture {
            0
        } else {
            self.halfmoves.saturating_add(1)
        };
        self.board.play_unchecked(m.raw);
    }
}

/// Where a move comes in [`Position::legal_moves`]'s order.
fn order_key(m: &Move, us: Color, in_check: bool) -> (u8, u8, u8, u8) {
    let promotion = match m.promotion {
        None => 0,
        Some(Role::Queen) => 0,
        Some(Role::Rook) => 1,
        Some(Role::Bishop) => 2,
        Some(_) => 3,
    };
    let (from, to) = (m.from as u8, m.to as u8);
    if m.en_passant {
        return (0, from, 0, 0);
    }
    let group = match (m.role, m.castle) {
        (Role::King, Some(CastlingSide::KingSide)) => 14,
        (Role::King, Some(CastlingSide::QueenSide)) => 15,
        (Role::King, None) if in_check => 1,
        (Role::King, None) => 13,
        (Role::Pawn, _) => {
            let promotes = u8::from(m.promotion.is_some());
            if m.capture {
                let towards_a = m.to.file() < m.from.file();
                return (2 + 2 * u8::from(!towards_a) + promotes, to, promotion, 0);
            }
            let double = m.from.rank().relative_to(us) == Rank::Second
                && m.to.rank().relative_to(us) == Rank::Fourth;
            if double {
                return (8, to, 0, 0);
            }
            return (6 + promotes, to, promotion, 0);
        }
        (Role::Knight, _) => 9,
        (Role::Bishop, _) => 10,
        (Role::Rook, _) => 11,
        (Role::Queen, _) => 12,
    };
    (group, from, to, 0)
}

/// Whether `color` cannot mate with what it has, whatever the other side
/// does: a bare king; a king and one knight against a king (and queens);
/// kings and bishops on squares of one colour only, no knights or pawns.
/// Whether neither side has the material to checkmate (the game is then
/// over, whatever is played).
pub(super) fn is_dead(board: &cozy_chess::Board) -> bool {
    insufficient_material(board, Color::White) && insufficient_material(board, Color::Black)
}

fn insufficient_material(board: &cozy_chess::Board, color: Color) -> bool {
    let ours = board.colors(color);
    let pawns_rooks_queens =
        board.pieces(Role::Pawn) | board.pieces(Role::Rook) | board.pieces(Role::Queen);
    if !(ours & pawns_rooks_queens).is_empty() {
        return false;
    }
    if !(ours & board.pieces(Role::Knight)).is_empty() {
        let theirs = board.colors(!color);
        let their_others = theirs & !board.pieces(Role::King) & !board.pieces(Role::Queen);
        return ours.len() <= 2 && their_others.is_empty();
    }
    if !(ours & board.pieces(Role::Bishop)).is_empty() {
        let bishops = board.pieces(Role::Bishop);
        let same_colour =
            (bishops & dark_squares()).is_empty() || (bishops & !dark_squares()).is_empty();
        return same_colour
            && board.pieces(Role::Knight).is_empty()
            && board.pieces(Role::Pawn).is_empty();
    }
    true
}

/// The dark squares (a1, c1, …).
pub(super) fn dark_squares() -> BitBoard {
    Square::ALL
        .iter()
        .filter(|sq| (sq.file() as usize + sq.rank() as usize).is_multiple_of(2))
        .fold(BitBoard::EMPTY, |bb, sq| bb | sq.bitboard())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> Position {
        super::super::fen::parse(fen).unwrap()
    }

    #[test]
    fn castling_is_the_kings_two_square_move() {
        let p = position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
        let castles: Vec<_> = p
            .legal_moves()
            .into_iter()
            .filter(|m| m.castle.is_some())
            .map(|m| (m.from, m.to, m.castle.unwrap()))
            .collect();
        assert_eq!(
            castles,
            vec![
                (Square::E1, Square::G1, CastlingSide::KingSide),
                (Square::E1, Square::C1, CastlingSide::QueenSide)
            ]
        );
    }

    #[test]
    fn fullmoves_go_up_after_black() {
        let mut p = Position::default();
        for _ in 0..3 {
            let m = p.legal_moves()[0];
            p.play(&m);
        }
        assert_eq!(p.fullmoves(), 2);
    }

    #[test]
    fn insufficient_material_ends_the_game() {
        assert!(position("8/8/4k3/8/8/3K4/8/8 w - - 0 1").is_game_over());
        assert!(position("8/8/4k3/8/8/3KN3/8/8 w - - 0 1").is_game_over());
        assert!(!position("8/8/4k3/8/8/R2K4/8/8 w - - 0 1").is_game_over());
        assert!(!position("8/8/4k3/4p3/8/3KN3/8/8 w - - 0 1").is_game_over());
    }
}
