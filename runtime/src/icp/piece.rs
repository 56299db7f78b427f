//! The piece model: kinds, colours, pieces and their names.

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
    pub(super) fn pawn_forward(self) -> i128 {
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
