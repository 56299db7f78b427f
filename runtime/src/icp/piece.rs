//! The piece model: kinds, colours, pieces and their names, and how each
//! kind moves and attacks.

use super::geometry::{is_knight_jump, Square};

/// The six kinds of chess piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// King: one step in any direction.
    King,
    /// Queen: any distance along rows, columns and diagonals.
    Queen,
    /// Rook: any distance along rows and columns.
    Rook,
    /// Bishop: any distance along diagonals.
    Bishop,
    /// Knight: (±1, ±2) or (±2, ±1).
    Knight,
    /// Pawn: one step forward, captures one step diagonally forward.
    Pawn,
}

impl Kind {
    /// Whether the kind slides (rook, bishop, queen), so that every square
    /// it passes over must be empty; the others step or jump.
    #[inline(always)]
    pub(super) fn slides(self) -> bool {
        matches!(self, Kind::Rook | Kind::Bishop | Kind::Queen)
    }
}

/// White or black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Moves pawns toward higher rows.
    White,
    /// Moves pawns toward lower rows.
    Black,
}

impl Colour {
    pub(super) fn index(self) -> usize {
        match self {
            Colour::White => 0,
            Colour::Black => 1,
        }
    }

    /// The row direction this colour's pawns move in.
    fn pawn_forward(self) -> i128 {
        match self {
            Colour::White => 1,
            Colour::Black => -1,
        }
    }
}

/// A piece type with its colour, as written `K Q R B N P` / `k q r b n p`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The kind.
    pub kind: Kind,
    /// The colour.
    pub colour: Colour,
}

impl Piece {
    /// The letter the piece is written as (uppercase white, lowercase
    /// black).
    pub fn letter(self) -> char {
        let letter = match self.kind {
            Kind::King => 'K',
            Kind::Queen => 'Q',
            Kind::Rook => 'R',
            Kind::Bishop => 'B',
            Kind::Knight => 'N',
            Kind::Pawn => 'P',
        };
        match self.colour {
            Colour::White => letter,
            Colour::Black => letter.to_ascii_lowercase(),
        }
    }

    /// The piece written as `letter` (uppercase white, lowercase black).
    pub fn from_letter(letter: char) -> Option<Piece> {
        let kind = match letter.to_ascii_uppercase() {
            'K' => Kind::King,
            'Q' => Kind::Queen,
            'R' => Kind::Rook,
            'B' => Kind::Bishop,
            'N' => Kind::Knight,
            'P' => Kind::Pawn,
            _ => return None,
        };
        let colour = if letter.is_ascii_uppercase() {
            Colour::White
        } else {
            Colour::Black
        };
        Some(Piece { kind, colour })
    }

    /// The movement rule: whether the piece can go from `from` to `to`,
    /// `a` rows and `b` columns apart (not both 0), onto an empty square or
    /// (`captures`) one held by the other colour, if nothing stands between
    /// (see [`Kind::slides`]).
    #[inline(always)]
    pub(super) fn reaches(
        self,
        from: Square,
        to: Square,
        (a, b): (u64, u64),
        captures: bool,
    ) -> bool {
        let straight = a == 0 || b == 0;
        let diagonal = a == b;
        // Each arm is a plain test, so with the piece and the offset known
        // (generated code) the match folds away.
        match self.kind {
            Kind::King => a <= 1 && b <= 1,
            Kind::Knight => is_knight_jump(a, b),
            Kind::Pawn => {
                let forward = match self.colour {
                    Colour::White => to.row > from.row,
                    Colour::Black => to.row < from.row,
                };
                a == 1 && forward && ((b == 0 && !captures) || (b == 1 && captures))
            }
            Kind::Rook => straight,
            Kind::Bishop => diagonal,
            Kind::Queen => straight || diagonal,
        }
    }

    /// The attack rule along a line: whether the piece, standing on
    /// `from`, attacks `to`, `distance` steps away along a diagonal (if
    /// `diagonal`) or a row or column, with nothing between. A knight
    /// attacks nothing along a line.
    #[inline(always)]
    pub(super) fn attacks_along(
        self,
        from: Square,
        to: Square,
        diagonal: bool,
        distance: u64,
    ) -> bool {
        match self.kind {
            Kind::Queen => true,
            Kind::Rook => !diagonal,
            Kind::Bishop => diagonal,
            Kind::King => distance == 1,
            Kind::Pawn => {
                // A pawn attacks one step diagonally forward: it stands
                // one row behind the square, as seen from its side.
                let row_of_pawn = i128::from(from.row);
                diagonal
                    && distance == 1
                    && i128::from(to.row) - row_of_pawn == self.colour.pawn_forward()
            }
            Kind::Knight => false,
        }
    }
}

impl Piece {
    /// A lower bound of the Chebyshev distance from `sq` to the nearest
    /// square the piece, standing on `at`, could attack if nothing stood
    /// between: 0 when `sq` may be attacked.
    pub(super) fn reach_distance(self, at: Square, sq: Square) -> u64 {
        let (a, b) = (sq.row.abs_diff(at.row), sq.col.abs_diff(at.col));
        // Each diagonal move changes row − col (or row + col) by at most
        // 2 per square.
        let to_diagonals = || {
            let (r, c) = (i128::from(sq.row), i128::from(sq.col));
            let (ar, ac) = (i128::from(at.row), i128::from(at.col));
            let gap = |v: i128| v.unsigned_abs().div_ceil(2).min(u128::from(u64::MAX)) as u64;
            gap((r - c) - (ar - ac)).min(gap((r + c) - (ar + ac)))
        };
        match self.kind {
            Kind::Rook => a.min(b),
            Kind::Bishop => to_diagonals(),
            Kind::Queen => a.min(b).min(to_diagonals()),
            Kind::Knight => a.max(b).saturating_sub(2),
            Kind::King | Kind::Pawn => a.max(b).saturating_sub(1),
        }
    }
}

/// An interned piece name: an index fixed at compile time.
pub type NameId = u32;

/// White king, as written `K`.
pub const WHITE_KING: Piece = Piece {
    kind: Kind::King,
    colour: Colour::White,
};
/// White queen, `Q`.
pub const WHITE_QUEEN: Piece = Piece {
    kind: Kind::Queen,
    colour: Colour::White,
};
/// White rook, `R`.
pub const WHITE_ROOK: Piece = Piece {
    kind: Kind::Rook,
    colour: Colour::White,
};
/// White bishop, `B`.
pub const WHITE_BISHOP: Piece = Piece {
    kind: Kind::Bishop,
    colour: Colour::White,
};
/// White knight, `N`.
pub const WHITE_KNIGHT: Piece = Piece {
    kind: Kind::Knight,
    colour: Colour::White,
};
/// White pawn, `P`.
pub const WHITE_PAWN: Piece = Piece {
    kind: Kind::Pawn,
    colour: Colour::White,
};
/// Black king, `k`.
pub const BLACK_KING: Piece = Piece {
    kind: Kind::King,
    colour: Colour::Black,
};
/// Black queen, `q`.
pub const BLACK_QUEEN: Piece = Piece {
    kind: Kind::Queen,
    colour: Colour::Black,
};
/// Black rook, `r`.
pub const BLACK_ROOK: Piece = Piece {
    kind: Kind::Rook,
    colour: Colour::Black,
};
/// Black bishop, `b`.
pub const BLACK_BISHOP: Piece = Piece {
    kind: Kind::Bishop,
    colour: Colour::Black,
};
/// Black knight, `n`.
pub const BLACK_KNIGHT: Piece = Piece {
    kind: Kind::Knight,
    colour: Colour::Black,
};
/// Black pawn, `p`.
pub const BLACK_PAWN: Piece = Piece {
    kind: Kind::Pawn,
    colour: Colour::Black,
};

#[cfg(test)]
mod tests {
    use super::super::test_support::piece;
    use super::*;

    #[test]
    fn pieces_are_written_as_their_letters() {
        for letter in "KQRBNPkqrbnp".chars() {
            assert_eq!(piece(letter).letter(), letter);
        }
        assert_eq!(Piece::from_letter('x'), None);
        assert_eq!(piece('R'), WHITE_ROOK);
        assert_eq!(piece('n'), BLACK_KNIGHT);
    }

    #[test]
    fn each_kind_moves_by_its_own_rule() {
        let from = Square::new(0, 0);
        let reaches = |letter: char, d_row: i64, d_col: i64, captures: bool| {
            let to = Square::new(d_row, d_col);
            let apart = (d_row.unsigned_abs(), d_col.unsigned_abs());
            piece(letter).reaches(from, to, apart, captures)
        };
        assert!(reaches('K', 1, -1, false) && !reaches('K', 2, 0, false));
        assert!(reaches('N', -2, 1, true) && !reaches('N', 2, 2, false));
        assert!(reaches('R', 0, -9, false) && !reaches('R', 1, 1, false));
        assert!(reaches('B', -5, 5, false) && !reaches('B', 0, 5, false));
        assert!(reaches('Q', 7, 0, false) && reaches('q', 7, -7, true));
        assert!(reaches('P', 1, 0, false) && !reaches('P', 1, 0, true));
        assert!(reaches('P', 1, 1, true) && !reaches('P', 1, 1, false));
        assert!(!reaches('P', -1, 0, false) && reaches('p', -1, 0, false));
        assert!(WHITE_QUEEN.kind.slides() && !BLACK_KNIGHT.kind.slides());
    }

    #[test]
    fn pawns_attack_diagonally_forward_and_knights_never_along_a_line() {
        let from = Square::new(0, 0);
        assert!(WHITE_PAWN.attacks_along(from, Square::new(1, 1), true, 1));
        assert!(!WHITE_PAWN.attacks_along(from, Square::new(-1, 1), true, 1));
        assert!(BLACK_PAWN.attacks_along(from, Square::new(-1, -1), true, 1));
        assert!(!WHITE_PAWN.attacks_along(from, Square::new(1, 0), false, 1));
        assert!(!WHITE_KING.attacks_along(from, Square::new(2, 0), false, 2));
        assert!(BLACK_ROOK.attacks_along(from, Square::new(0, 9), false, 9));
        assert!(!BLACK_BISHOP.attacks_along(from, Square::new(0, 9), false, 9));
        assert!(!WHITE_KNIGHT.attacks_along(from, Square::new(1, 1), true, 1));
    }
}
