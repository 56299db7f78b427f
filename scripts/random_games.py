#!/usr/bin/env python3
"""Writes transpiler/tests/data/random_games.txt: random legal chess games
for the SAN corpus test (transpiler/tests/san_corpus.rs).

The games come from python-chess (`pip install chess`, 1.11.2 was used),
a chess library independent of the one chess2rs uses, so the corpus checks
our SAN reading and writing against another implementation. The script was
run once and its output committed; it is not part of the build or the tests.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install chess
    /tmp/venv/bin/python scripts/random_games.py > transpiler/tests/data/random_games.txt

Each line is one game from the standard starting position: its moves in
SAN (with `+`/`#`), separated by spaces, then ` | ` and the final position
as FEN (the en passant square only when a capture there is legal, as
python-chess writes it). Lines starting with `#` are comments.

Play is random with a bias towards what makes SAN interesting: castling,
en passant, promotions (each piece equally, so mostly underpromotions),
captures, checks and mates, so that the corpus covers them all; games end
at mate, stalemate, insufficient material or a random length (some long).
"""

import random
import sys

import chess

GAMES = 1200
SEED = 20261126
STATS = {"en passant": 0, "mates": 0, "stalemates": 0, "insufficient material": 0}


def pick(board: chess.Board, rng: random.Random) -> chess.Move:
    moves = list(board.legal_moves)
    mates, checks, captures, promotions, castles, en_passant = [], [], [], [], [], []
    for move in moves:
        if board.is_en_passant(move):
            en_passant.append(move)
        if board.is_castling(move):
            castles.append(move)
        if move.promotion:
            promotions.append(move)
        if board.is_capture(move):
            captures.append(move)
        if board.gives_check(move):
            board.push(move)
            (mates if board.is_checkmate() else checks).append(move)
            board.pop()
    # Moves that SAN must tell apart from another piece's by file and rank
    # both, or by rank: rare in random play.
    both, by_rank = [], []
    for move in moves:
        piece = board.piece_type_at(move.from_square)
        if piece in (chess.PAWN, chess.KING):
            continue
        others = [
            o.from_square
            for o in moves
            if o.to_square == move.to_square
            and o.from_square != move.from_square
            and board.piece_type_at(o.from_square) == piece
        ]
        same_file = any(chess.square_file(o) == chess.square_file(move.from_square) for o in others)
        same_rank = any(chess.square_rank(o) == chess.square_rank(move.from_square) for o in others)
        if same_file and same_rank:
            both.append(move)
        elif same_file:
            by_rank.append(move)
    # Queen promotions half the time (more queens, more disambiguation),
    # else one of the underpromotions.
    if promotions and rng.random() < 0.5:
        promotions = [m for m in promotions if m.promotion == chess.QUEEN] or promotions
    for choices, chance in [
        (mates, 0.5),
        (both, 0.9),
        (by_rank, 0.3),
        (en_passant, 0.8),
        (castles, 0.6),
        (promotions, 0.8),
        (captures, 0.35),
        (checks, 0.15),
    ]:
        if choices and rng.random() < chance:
            return rng.choice(choices)
    return rng.choice(moves)


def game(rng: random.Random) -> str:
    board = chess.Board()
    limit = rng.choice([40, 80, 120, 200, 300, 500])
    sans = []
    while len(sans) < limit and not board.is_game_over(claim_draw=False):
        move = pick(board, rng)
        if board.is_en_passant(move):
            STATS["en passant"] += 1
        sans.append(board.san(move))
        board.push(move)
    if board.is_stalemate():
        STATS["stalemates"] += 1
    if board.is_checkmate():
        STATS["mates"] += 1
    if board.is_insufficient_material():
        STATS["insufficient material"] += 1
    return " ".join(sans) + " | " + board.fen()


def main() -> None:
    rng = random.Random(SEED)
    out = sys.stdout
    out.write(f"# {GAMES} random games by scripts/random_games.py (seed {SEED}), python-chess {chess.__version__}\n")
    for _ in range(GAMES):
        out.write(game(rng) + "\n")
    print(STATS, file=sys.stderr)


if __name__ == "__main__":
    main()
