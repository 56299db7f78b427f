//! Squares and the lines through them: rows, columns, diagonals, the eight
//! rays and the knight's jumps.

/// A square: (row, column). White pawns move toward higher rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square {
    /// The row.
    pub row: i64,
    /// The column.
    pub col: i64,
}

impl Square {
    /// The square at (`row`, `col`).
    pub const fn new(row: i64, col: i64) -> Self {
        Square { row, col }
    }

    /// This square moved by (`d_row`, `d_col`), or `None` if that leaves
    /// the `i64` range.
    pub fn offset(self, d_row: i64, d_col: i64) -> Option<Square> {
        Some(Square::new(
            self.row.checked_add(d_row)?,
            self.col.checked_add(d_col)?,
        ))
    }
}

/// Which of the four families of lines through a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LineFamily {
    /// Same row; position along it is the column.
    Row,
    /// Same column; position is the row.
    Col,
    /// Same row − col; position is the row.
    Diagonal,
    /// Same row + col; position is the row.
    AntiDiagonal,
}

pub(super) const FAMILIES: [LineFamily; 4] = [
    LineFamily::Row,
    LineFamily::Col,
    LineFamily::Diagonal,
    LineFamily::AntiDiagonal,
];

impl LineFamily {
    pub(super) fn index(self) -> usize {
        self as usize
    }

    /// The line through `sq` (its key) and the position of `sq` on it.
    pub(super) fn locate(self, sq: Square) -> (i128, i64) {
        let (r, c) = (i128::from(sq.row), i128::from(sq.col));
        match self {
            LineFamily::Row => (r, sq.col),
            LineFamily::Col => (c, sq.row),
            LineFamily::Diagonal => (r - c, sq.row),
            LineFamily::AntiDiagonal => (r + c, sq.row),
        }
    }

    /// The square at `pos` on the line `key`. Only called for squares that
    /// hold a piece, so the result is in range.
    pub(super) fn square_at(self, key: i128, pos: i64) -> Square {
        let clamp = |v: i128| v.clamp(i128::from(i64::MIN), i128::from(i64::MAX)) as i64;
        match self {
            LineFamily::Row => Square::new(clamp(key), pos),
            LineFamily::Col => Square::new(pos, clamp(key)),
            LineFamily::Diagonal => Square::new(pos, clamp(i128::from(pos) - key)),
            LineFamily::AntiDiagonal => Square::new(pos, clamp(key - i128::from(pos))),
        }
    }

    pub(super) fn is_diagonal(self) -> bool {
        matches!(self, LineFamily::Diagonal | LineFamily::AntiDiagonal)
    }
}

/// One of the eight directions: a line family and which way along it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Ray {
    pub(super) family: LineFamily,
    pub(super) increasing: bool,
}

pub(super) const RAYS: [Ray; 8] = [
    Ray {
        family: LineFamily::Row,
        increasing: true,
    },
    Ray {
        family: LineFamily::Row,
        increasing: false,
    },
    Ray {
        family: LineFamily::Col,
        increasing: true,
    },
    Ray {
        family: LineFamily::Col,
        increasing: false,
    },
    Ray {
        family: LineFamily::Diagonal,
        increasing: true,
    },
    Ray {
        family: LineFamily::Diagonal,
        increasing: false,
    },
    Ray {
        family: LineFamily::AntiDiagonal,
        increasing: true,
    },
    Ray {
        family: LineFamily::AntiDiagonal,
        increasing: false,
    },
];

/// The index in [`RAYS`] of the ray from a square to one `d_row` rows and
/// `d_col` columns away, if they share a line (and differ).
pub(super) fn ray_towards(d_row: i128, d_col: i128) -> Option<usize> {
    if d_row == 0 {
        match d_col.signum() {
            1 => Some(0),
            -1 => Some(1),
            _ => None,
        }
    } else if d_col == 0 {
        Some(if d_row > 0 { 2 } else { 3 })
    } else if d_row == d_col {
        Some(if d_row > 0 { 4 } else { 5 })
    } else if d_row == -d_col {
        Some(if d_row > 0 { 6 } else { 7 })
    } else {
        None
    }
}

pub(super) const KNIGHT_JUMPS: [(i64, i64); 8] = [
    (1, 2),
    (2, 1),
    (2, -1),
    (1, -2),
    (-1, -2),
    (-2, -1),
    (-2, 1),
    (-1, 2),
];

/// Whether squares `a` rows and `b` columns apart are a knight's jump
/// apart.
#[inline]
pub(super) fn is_knight_jump(a: u64, b: u64) -> bool {
    a < 3 && b < 3 && a + b == 3
}

/// Steps from `from` to `to` along their common line (the larger of the
/// row and column distances; at most 2^64 − 1, so a `u64`).
#[inline]
pub(super) fn distance(from: Square, to: Square) -> u64 {
    let d_row = to.row.abs_diff(from.row);
    let d_col = to.col.abs_diff(from.col);
    d_row.max(d_col)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SQUARES: [Square; 5] = [
        Square::new(0, 0),
        Square::new(3, -7),
        Square::new(-1_000_000_000_000, 5),
        Square::new(i64::MAX, i64::MIN),
        Square::new(i64::MIN, i64::MIN),
    ];

    #[test]
    fn each_line_family_finds_a_square_again_from_its_line_and_position() {
        for family in FAMILIES {
            for sq in SQUARES {
                let (key, pos) = family.locate(sq);
                assert_eq!(family.square_at(key, pos), sq, "{family:?}");
            }
        }
    }

    #[test]
    fn the_ray_towards_a_square_on_a_shared_line_leads_to_it() {
        let from = Square::new(2, -3);
        for (d_row, d_col) in [
            (0, 1),
            (0, -1),
            (1, 0),
            (-1, 0),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ] {
            for k in [1, 2, 1_000] {
                let to = from.offset(k * d_row, k * d_col).unwrap();
                let ray = RAYS[ray_towards(i128::from(k * d_row), i128::from(k * d_col)).unwrap()];
                let (key_from, pos_from) = ray.family.locate(from);
                let (key_to, pos_to) = ray.family.locate(to);
                assert_eq!(key_from, key_to, "({d_row},{d_col})");
                assert_eq!(pos_to > pos_from, ray.increasing, "({d_row},{d_col})");
                assert_eq!(distance(from, to), k as u64);
                assert_eq!(ray.family.is_diagonal(), d_row != 0 && d_col != 0);
            }
        }
        assert_eq!(ray_towards(0, 0), None, "the square itself");
        assert_eq!(ray_towards(1, 2), None, "no shared line");
    }

    #[test]
    fn knight_jumps_are_the_eight_one_by_two_offsets() {
        for (d_row, d_col) in KNIGHT_JUMPS {
            assert!(is_knight_jump(d_row.unsigned_abs(), d_col.unsigned_abs()));
        }
        assert!(!is_knight_jump(0, 3));
        assert!(!is_knight_jump(2, 2));
        assert!(!is_knight_jump(u64::MAX, 4));
    }
}
