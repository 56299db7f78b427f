//! The writing designs: the opening that sets up each writing area, and
//! the squares whose pieces move while writing.

use cozy_chess::BitBoard as Bitboard;

use super::super::chess::Square;

/// The opening of the corner design ([`Design::Corner`]), in SAN: from
/// the standard position to its writing area. White's dark-squared bishop
/// takes e7 and f8 and stands on f8 as the marker; White's king's knight
/// takes h8 by f3, h4 and g6 and becomes the first writing piece (a 1 on
/// h8, gone from g6); Black's queen's knight waits. The board then reads
/// white pieces (ranks 1–3), Black's pawns and a8–e8, the marker, then
/// g8's knight (0) and h8's knight (1).
pub const OPENING: &[&str] = &[
    "b3", "Nc6", "Ba3", "Nb8", "Bxe7", "Nc6", "Bxf8", "Nb8", "Nf3", "Nc6", "Nh4", "Nb8", "Ng6",
    "Nc6", "Nxh8", "Nb8",
];

/// The opening of the king's-walk design ([`Design::KingsWalk`]), in SAN.
/// White's light-squared bishop takes f7 and Black's king takes it back, so
/// that the king stands on f7, before rank 8 in the a1…h8 reading. White's
/// dark-squared bishop takes e7 and then the queen on d8, where it is the
/// marker; both White knights come to f6 and g6, ahead of every black
/// piece in the reading, from where they jump into rank 8. Black's queen's
/// knight waits. After the marker come e8 (empty), f8 (bishop), g8
/// (knight) and h8 (rook): four squares that White's knights and Black's
/// king, bishop, knight and rook step into and out of.
pub const KINGS_WALK_OPENING: &[&str] = &[
    "e3", "Nc6", "Bc4", "Nb8", "Bxf7+", "Kxf7", "b3", "Nc6", "Ba3", "Nb8", "Bxe7", "Nc6", "Bxd8",
    "Nb8", "Nc3", "Nc6", "Nd5", "Nb8", "Nf6", "Nc6", "Nf3", "Nb8", "Nh4", "Nc6", "Ng6", "Nb8",
];

/// Where the game writes its values: an opening, and the squares whose
/// pieces move while writing (or the whole board).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Design {
    /// The whole board and the corner design, keeping the shorter game
    /// (the corner design's if the whole board's search gets stuck). What
    /// `chess2rs synth` uses.
    Best,
    /// The first design: [`OPENING`] (16 plies), then two squares after a
    /// marker on f8 (662 positions). Fast (milliseconds, also in a debug
    /// build, hence the default); about one ply per bit.
    #[default]
    Corner,
    /// [`KINGS_WALK_OPENING`] (26 plies), then four squares after a marker
    /// on d8 (55,534 positions). About 0.8 plies per bit.
    KingsWalk,
    /// Any legal move of any piece, from the standard position and from
    /// the corner design's first eight plies (one search each, on a
    /// thread each; the shorter game is kept), found by a beam search
    /// (`beam`): the search sets up its own marker and writing pieces.
    /// About 0.6 plies per bit, opening included; a few seconds in a
    /// release build.
    WholeBoard,
}

/// Where the whole-board searches start: the standard position, and the
/// corner design's marker in place (`4. Bxf8`).
pub(super) const WHOLE_BOARD_STARTS: [&[&str]; 2] = [&[], OPENING.split_at(8).0];

impl Design {
    /// The opening of an area design (the whole board has none of its
    /// own; its empty game borrows the corner design's).
    pub(super) fn opening(self) -> &'static [&'static str] {
        match self {
            Design::KingsWalk => KINGS_WALK_OPENING,
            _ => OPENING,
        }
    }

    /// The squares of the writing area: pieces on them (other than pawns)
    /// may move between them while writing.
    ///
    /// Corner: White's knight around g6 and h8 (and the squares it
    /// passes), Black's king's knight between g8, e7, f6 and h6, Black's
    /// queen from d8 (she steps into the knights' squares), and White's
    /// queen on c1/d1 (White's waiting move). Larger areas write hello
    /// world in no fewer plies but have many more positions.
    ///
    /// King's walk: rank 8 after the marker, Black's king's squares f7 and
    /// e7 (and e6), the knights' squares f6, g6 and h6, and White's rook on
    /// a1/b1 (a waiting move). Dropping h6 and e6 gives 7,594 positions but
    /// 116 writing plies for hello world instead of 75.
    pub(super) fn area_squares(self) -> Bitboard {
        use Square::*;
        let squares: &[Square] = match self {
            Design::KingsWalk => &[E8, F8, G8, H8, E7, F7, E6, F6, G6, H6, A1, B1],
            _ => &[E7, G8, H8, G6, H6, F6, F5, D8, C1, D1],
        };
        squares.iter().copied().collect()
    }
}
