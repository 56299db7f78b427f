//! What a walk's try costs against a single step, on the board of corpus
//! program 42 (ten pieces, two kings far away, a knight stepping back and
//! forth): `cargo run --release -p chess2rs-runtime --example walk_cost`.
//! The generated walk loops make about as many single steps as a try costs
//! before their first try (`FIRST_WAIT` in `runtime/src/icp/walk.rs`).

use std::hint::black_box;
use std::time::Instant;

use chess2rs_runtime::__private::icp::{
    Board, Square, BLACK_ROOK, WHITE_BISHOP, WHITE_KING, WHITE_KNIGHT, WHITE_PAWN,
};

/// Moves made per measurement.
const MOVES: u64 = 2_000_000;

fn board() -> Board {
    let mut board = Board::new(8);
    let pieces = [
        (0, WHITE_KNIGHT, 10000012, -10000045),
        (1, WHITE_PAWN, 9999936, -10000083),
        (1, WHITE_PAWN, 10000014, -10000044),
        (2, WHITE_BISHOP, 1000019999987, 999980000035),
        (3, WHITE_PAWN, 1000019999950, 999980000072),
        (4, WHITE_KING, 20000000, -20000000),
        (5, BLACK_ROOK, 29999916, -29999967),
        (6, WHITE_PAWN, 29999919, -29999965),
        (6, WHITE_PAWN, 29999974, -30000020),
        (7, WHITE_KING, 40000003, -40000026),
    ];
    for (name, piece, row, col) in pieces {
        assert!(board.place(name, piece, Square::new(row, col)).unwrap());
    }
    board
}

/// The knight's step on move `i`: back and forth.
fn step(i: u64) -> (i64, i64) {
    if i.is_multiple_of(2) {
        (-2, -1)
    } else {
        (2, 1)
    }
}

/// Runs `f` on moves 0..MOVES and prints the time per move.
fn time(what: &str, mut f: impl FnMut(u64)) {
    let start = Instant::now();
    for i in 0..MOVES {
        f(i);
    }
    let ns = start.elapsed().as_nanos() as f64 / MOVES as f64;
    println!("{what}: {ns:.1} ns");
}

fn main() {
    let mut board = board();
    time("single step, piece known", |i| {
        let (d_row, d_col) = step(i);
        let moved = board.move_named_by(black_box(0), d_row, d_col, Some(WHITE_KNIGHT));
        assert!(matches!(moved, Ok(true)));
    });
    time("single step, piece looked up", |i| {
        let (d_row, d_col) = step(i);
        let moved = board.move_named_by(black_box(0), black_box(d_row), black_box(d_col), None);
        assert!(matches!(moved, Ok(true)));
    });
    time("try of a walk, one step allowed", |i| {
        let (d_row, d_col) = step(i);
        assert_eq!(board.walk_by(0, d_row, d_col, Some(WHITE_KNIGHT), 1), 1);
    });
}
