//! The incremental board (scans or the lazily kept line index, cached check
//! flags, name lists) against a brute-force model that follows the spec
//! literally: random operations on a small area must give the same results
//! and the same boards, whichever query strategy the board uses.

use super::{Board, Colour, Kind, Piece, Square};
use proptest::prelude::*;

#[derive(Clone, Debug)]
struct ModelPiece {
    piece: Piece,
    square: Square,
    name: u32,
    placed: u64,
}

/// The spec, written as plainly as possible.
#[derive(Default)]
struct Model {
    pieces: Vec<ModelPiece>,
    placements: u64,
}

impl Model {
    /// The piece every piece called `name` is, if they all agree (what
    /// generated code promises the board when a name's placements agree);
    /// `None` otherwise, or for every other name, so both ways are tested.
    fn known(&self, name: u32) -> Option<Piece> {
        let mut pieces = self.pieces.iter().filter(|p| p.name == name);
        let first = pieces.next()?.piece;
        (name != 2 && pieces.all(|p| p.piece == first)).then_some(first)
    }

    fn at(&self, sq: Square) -> Option<usize> {
        self.pieces.iter().position(|p| p.square == sq)
    }

    fn place(&mut self, name: u32, piece: Piece, sq: Square) -> bool {
        if self.at(sq).is_some() {
            return false;
        }
        self.placements += 1;
        self.pieces.push(ModelPiece {
            piece,
            square: sq,
            name,
            placed: self.placements,
        });
        true
    }

    /// Whether the piece at index `i` could move to / capture on `to`
    /// (rule 2; `capturing` says whether `to` holds an enemy).
    fn can_go(&self, i: usize, to: Square, capturing: bool) -> bool {
        let p = &self.pieces[i];
        let (dr, dc) = (to.row - p.square.row, to.col - p.square.col);
        let clear = || {
            let steps = dr.abs().max(dc.abs());
            (1..steps).all(|k| {
                let sq = Square::new(
                    p.square.row + dr.signum() * k,
                    p.square.col + dc.signum() * k,
                );
                self.at(sq).is_none()
            })
        };
        let straight = (dr == 0) != (dc == 0);
        let diagonal = dr != 0 && dr.abs() == dc.abs();
        match p.piece.kind {
            Kind::King => dr.abs() <= 1 && dc.abs() <= 1 && (dr, dc) != (0, 0),
            Kind::Queen => (straight || diagonal) && clear(),
            Kind::Rook => straight && clear(),
            Kind::Bishop => diagonal && clear(),
            Kind::Knight => (dr.abs(), dc.abs()) == (1, 2) || (dr.abs(), dc.abs()) == (2, 1),
            Kind::Pawn => {
                let forward = if p.piece.colour == Colour::White {
                    1
                } else {
                    -1
                };
                dr == forward && if capturing { dc.abs() == 1 } else { dc == 0 }
            }
        }
    }

    fn attacked(&self, sq: Square, colour: Colour) -> bool {
        (0..self.pieces.len()).any(|i| {
            self.pieces[i].piece.colour != colour
                && self.pieces[i].square != sq
                && self.can_go(i, sq, true)
        })
    }

    fn try_move(&mut self, i: usize, to: Square) -> bool {
        let colour = self.pieces[i].piece.colour;
        let target = self.at(to);
        if target == Some(i) || target.is_some_and(|t| self.pieces[t].piece.colour == colour) {
            return false;
        }
        if !self.can_go(i, to, target.is_some()) {
            return false;
        }
        let before = self.pieces.clone();
        let mover = self.pieces[i].placed;
        if let Some(t) = target {
            self.pieces.remove(t);
        }
        let i = self.pieces.iter().position(|p| p.placed == mover).unwrap();
        self.pieces[i].square = to;
        let safe = self
            .pieces
            .iter()
            .filter(|p| p.piece.colour == colour && p.piece.kind == Kind::King)
            .all(|k| !self.attacked(k.square, colour));
        if !safe {
            self.pieces = before;
        }
        safe
    }

    fn candidates(&self, name: u32) -> Vec<u64> {
        let mut placed: Vec<u64> = self
            .pieces
            .iter()
            .filter(|p| p.name == name)
            .map(|p| p.placed)
            .collect();
        placed.sort_unstable_by(|a, b| b.cmp(a));
        placed
    }

    fn index_of(&self, placed: u64) -> usize {
        self.pieces.iter().position(|p| p.placed == placed).unwrap()
    }

    fn move_named_to(&mut self, name: u32, to: Square) -> bool {
        self.candidates(name).into_iter().any(|placed| {
            let i = self.index_of(placed);
            self.try_move(i, to)
        })
    }

    fn move_named_by(&mut self, name: u32, dr: i64, dc: i64) -> bool {
        self.candidates(name).into_iter().any(|placed| {
            let i = self.index_of(placed);
            let from = self.pieces[i].square;
            self.try_move(i, Square::new(from.row + dr, from.col + dc))
        })
    }
}

#[derive(Clone, Debug)]
enum Op {
    Place(u32, char, i64, i64),
    MoveFrom(i64, i64, i64, i64),
    MoveNamedTo(u32, i64, i64),
    MoveNamedBy(u32, i64, i64),
    /// A walk of up to this many steps (`Board::walk_by`).
    Walk(u32, i64, i64, u64),
}

/// Mostly a small area; sometimes far enough out for slides longer than
/// the board checks square by square.
fn coord() -> impl Strategy<Value = i64> {
    prop_oneof![
        4 => -3i64..=3,
        1 => prop::sample::select(vec![-30i64, -12, 12, 30]),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    op_placing(vec![
        'K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p',
    ])
}

/// Operations placing pieces drawn from `letters`.
fn op_placing(letters: Vec<char>) -> impl Strategy<Value = Op> {
    let letter = prop::sample::select(letters);
    prop_oneof![
        (0u32..3, letter, coord(), coord()).prop_map(|(n, l, r, c)| Op::Place(n, l, r, c)),
        (coord(), coord(), coord(), coord()).prop_map(|(a, b, c, d)| Op::MoveFrom(a, b, c, d)),
        (0u32..3, coord(), coord()).prop_map(|(n, r, c)| Op::MoveNamedTo(n, r, c)),
        (0u32..3, -2i64..=2, -2i64..=2).prop_map(|(n, r, c)| Op::MoveNamedBy(n, r, c)),
        (0u32..3, -2i64..=2, -2i64..=2, 0u64..40).prop_map(|(n, r, c, m)| Op::Walk(n, r, c, m)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1500))]

    #[test]
    fn board_agrees_with_the_plain_model(ops in prop::collection::vec(op(), 1..60)) {
        run(&ops)?;
    }

    /// Mostly kings: exercises the many-kings path of the check test.
    #[test]
    fn board_with_many_kings_agrees_with_the_plain_model(
        ops in prop::collection::vec(op_placing(vec!['K', 'k', 'K', 'k', 'Q', 'r', 'b', 'N', 'p']), 20..90)
    ) {
        run(&ops)?;
    }
}

/// The boards compared with the model: the default one, one that always
/// hashes and uses the line index, one whose index is dropped and rebuilt
/// often, and one that switches between small and large often.
fn boards() -> [Board; 4] {
    [
        Board::new(3),
        Board::tuned(3, 0, 1000),
        Board::tuned(3, 0, 0),
        Board::tuned(3, 4, 0),
    ]
}

fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    for mut board in boards() {
        let mut model = Model::default();
        for op in ops {
            let (got, want) = match *op {
                Op::Place(n, l, r, c) => {
                    let piece = Piece::from_letter(l).unwrap();
                    (
                        board.place(n, piece, Square::new(r, c)).unwrap(),
                        model.place(n, piece, Square::new(r, c)),
                    )
                }
                Op::MoveFrom(a, b, c, d) => {
                    let want = match model.at(Square::new(a, b)) {
                        Some(i) => model.try_move(i, Square::new(c, d)),
                        None => false,
                    };
                    (board.move_from(Square::new(a, b), Square::new(c, d)), want)
                }
                Op::MoveNamedTo(n, r, c) => (
                    board.move_named_to(n, Square::new(r, c), model.known(n)),
                    model.move_named_to(n, Square::new(r, c)),
                ),
                Op::MoveNamedBy(n, r, c) => (
                    board.move_named_by(n, r, c, model.known(n)).unwrap(),
                    model.move_named_by(n, r, c),
                ),
                // Each step the walk made is a move the model makes too.
                Op::Walk(n, r, c, max) => {
                    let steps = board.walk_by(n, r, c, model.known(n), max);
                    prop_assert!(steps <= max);
                    let made = (0..steps).all(|_| model.move_named_by(n, r, c));
                    (made, true)
                }
            };
            prop_assert_eq!(got, want, "result of {:?}", op);
            for name in 0..3 {
                prop_assert_eq!(
                    board.count(name),
                    model.pieces.iter().filter(|p| p.name == name).count()
                );
            }
            prop_assert_eq!(board.len(), model.pieces.len());
            for p in &model.pieces {
                prop_assert_eq!(board.piece_at(p.square), Some(p.piece));
                if p.piece.kind == Kind::King {
                    prop_assert_eq!(
                        board.king_in_check(p.square),
                        Some(model.attacked(p.square, p.piece.colour))
                    );
                }
            }
        }
    }
    Ok(())
}
