//! InfChessPro board costs: a move (with its path check and check test)
//! must not depend on the distance moved, and may grow only
//! logarithmically with the number of pieces; a named move costs O(1) plus
//! the candidates it tries.

use std::hint::black_box;

use chess2rs_runtime::__private::icp::{Board, Piece, Square};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

fn piece(letter: char) -> Piece {
    match Piece::from_letter(letter) {
        Some(piece) => piece,
        None => unreachable!("{letter} is a piece letter"),
    }
}

/// A board with `pieces` pieces scattered away from column 0, a white king
/// at (0,0) and a white rook at (1,0) shielding it from a black rook far up
/// column 0: moves of the king and the rook run the full check test.
fn crowded_board(pieces: u64) -> Board {
    let mut board = Board::new(3);
    board.place(0, piece('K'), Square::new(0, 0)).unwrap();
    board.place(0, piece('R'), Square::new(1, 0)).unwrap();
    board
        .place(0, piece('r'), Square::new(4_000_000_000_000_000_000, 0))
        .unwrap();
    let mut placed = 0;
    let mut i: i64 = 1;
    while placed < pieces {
        // Pseudo-random squares off row 0 and off the rook's column.
        let row = (i * 7919) % 1_000_003 + 5;
        let col = (i * 104_729) % 999_983 + 5;
        if board
            .place(
                1,
                piece(if i % 2 == 0 { 'p' } else { 'B' }),
                Square::new(row, col),
            )
            .unwrap()
        {
            placed += 1;
        }
        i += 1;
    }
    board
}

/// The shielding rook sliding `distance` squares up column 0 and back (both
/// moves succeed and pass the check test of the white king at (0,0)).
fn slide(c: &mut Criterion) {
    let mut group = c.benchmark_group("icp_slide_there_and_back");
    for distance in [1i64, 1_000, 1_000_000_000, 1_000_000_000_000_000] {
        let mut board = crowded_board(1_000);
        group.bench_with_input(
            BenchmarkId::new("distance", distance),
            &distance,
            |b, &d| {
                b.iter(|| {
                    assert!(board.move_from(Square::new(1, 0), Square::new(1 + d, 0)));
                    assert!(board.move_from(Square::new(1 + d, 0), black_box(Square::new(1, 0))));
                })
            },
        );
    }
    group.finish();
}

/// The king on (0, 0) steps to (1, 1) and back.
fn step_there_and_back(board: &mut Board) {
    assert!(board.move_from(Square::new(0, 0), Square::new(1, 1)));
    assert!(board.move_from(Square::new(1, 1), black_box(Square::new(0, 0))));
}

/// The same one-square king step and back on boards of growing size.
fn board_size(c: &mut Criterion) {
    let mut group = c.benchmark_group("icp_king_step_there_and_back");
    for pieces in [10u64, 1_000, 100_000] {
        let mut board = crowded_board(pieces);
        group.bench_with_input(BenchmarkId::new("pieces", pieces), &pieces, |b, _| {
            b.iter(|| step_there_and_back(&mut board))
        });
    }
    group.finish();
}

/// The king step with many kings on the board (the check test then looks
/// along the rays from the changed squares instead of scanning all kings).
fn many_kings(c: &mut Criterion) {
    let mut group = c.benchmark_group("icp_king_step_among_many_kings");
    for kings in [100i64, 10_000] {
        let mut board = crowded_board(1_000);
        for i in 0..kings {
            board
                .place(
                    1,
                    piece(if i % 2 == 0 { 'K' } else { 'k' }),
                    Square::new(-10 - 3 * i, 7 + 5 * i),
                )
                .unwrap();
        }
        group.bench_with_input(BenchmarkId::new("kings", kings), &kings, |b, _| {
            b.iter(|| step_there_and_back(&mut board))
        });
    }
    group.finish();
}

/// A named move whose newest candidate succeeds, with many pieces of that
/// name on the board: cost must not grow with the name's population.
fn named_move(c: &mut Criterion) {
    let mut group = c.benchmark_group("icp_named_move_newest_succeeds");
    for same_name in [1u64, 1_000, 100_000] {
        let mut board = Board::new(2);
        for i in 0..same_name as i64 {
            board
                .place(0, piece('N'), Square::new(10 + 3 * i, 10))
                .unwrap();
        }
        group.bench_with_input(
            BenchmarkId::new("pieces_named", same_name),
            &same_name,
            |b, _| {
                b.iter(|| {
                    assert!(board.move_named_by(0, 1, 2, None).is_ok_and(|moved| moved));
                    assert!(board
                        .move_named_by(0, -1, -2, None)
                        .is_ok_and(|moved| moved));
                })
            },
        );
    }
    group.finish();
}

/// A pinned piece and a king in check: failed moves cost as much as good
/// ones (they are tried and taken back).
fn refused_move(c: &mut Criterion) {
    let mut board = crowded_board(1_000);
    c.bench_function("icp_pinned_rook_refused", |b| {
        b.iter(|| {
            assert!(!board.move_from(Square::new(1, 0), black_box(Square::new(1, -1_000_000))))
        })
    });
}

criterion_group!(
    benches,
    slide,
    board_size,
    many_kings,
    named_move,
    refused_move
);
criterion_main!(benches);
