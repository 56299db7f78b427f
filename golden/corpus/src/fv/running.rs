//! Finvara programs that run: the corpus.
//!
//! [`finvara`](super::finvara) makes programs that mostly halt after a few
//! lines. The programs here are planned: the generator keeps its own model of the
//! board (which squares are empty, holes, whose pieces) and of how deep
//! each stack is, and writes move lines it knows to be valid in that model
//! — a rider's TO on its line with the squares between free, a capture of
//! a piece that is there — plus some that are invalid on purpose. The body
//! of the program is a loop (`checks turn M` at its end): every piece that
//! moves in it ends in a hole (its stack action) after one to four moves,
//! every piece it takes is put back by a `checks` line of its colour, so
//! the board is the same at every pass and the moves stay valid pass after
//! pass, until the step limit, the input's end or a stack error stops it.
//! Kings sit in corners behind two rings of holes, which no leap of the
//! generated pieces (at most 2 squares either way) crosses, so nobody is
//! ever in check unless a program leaves a gap in a ring on purpose.

use super::model::{side, FvCell, FvForm, FvHome, FvLeap, FvMove, FvType};
use super::planner::{FvPlanner, FvShuttle};
use super::{finvara_board, finvara_value};
use crate::{corpus_random, Random};

/// How many programs the Finvara corpus has.
pub const FV_CORPUS_LEN: usize = 300;

/// Without the golden crate's `corpus` feature, `build.rs` compiles every
/// `FV_CORPUS_SHARE`-th corpus program (indices 0, 10, 20, …).
pub const FV_CORPUS_SHARE: usize = 10;

/// A generated Finvara program with its standard input and step limit.
#[derive(Clone, Debug)]
pub struct FinvaraRun {
    /// The program text.
    pub source: String,
    /// Standard input: whitespace-separated numbers (and sometimes a last
    /// token that is not one).
    pub input: String,
    /// The step limit to run it under.
    pub max_steps: u64,
    /// What the generator planned for each move line, in order: `v` a
    /// valid move, `i` an invalid one, `c` a `checks` line, `d` a line
    /// that only a skip makes run (behind a White `checks` line). The
    /// plan holds on the first pass through the loop unless a skip changes
    /// the course; later passes mostly repeat it.
    pub expected: String,
}

/// Corpus program `index`: [`finvara_running`] from a seed made of `index`
/// (each program independent of the others, so any one can be remade).
pub fn finvara_corpus(index: usize) -> FinvaraRun {
    finvara_running(&mut corpus_random(0x00F1_4A7A_C0B9, index))
}

/// A board side for the running programs: 4 to 64, about 40% up to 12,
/// 35% from 13 to 32 and 25% from 33 to 64.
fn finvara_side(random: &mut Random) -> usize {
    match random.below(20) {
        0..=7 => random.between(4, 12) as usize,
        8..=14 => random.between(13, 32) as usize,
        _ => random.between(33, 64) as usize,
    }
}

/// A random Finvara program that runs: boards from 4×4 to 64×64 with
/// holes, piece types of every kind of notation (leapers, riders, `[..]*`
/// riders, compounds, `c`/`m`/`r`/`r!`, crooked riders, `"s"`, `x`,
/// promotions), royal pieces on both sides, and a loop whose moves stay
/// valid pass after pass (see the module's documentation); with
/// input for its reads and a step limit. Typical programs run thousands
/// to hundreds of thousands of lines.
pub fn finvara_running(random: &mut Random) -> FinvaraRun {
    let rows = finvara_side(random);
    let cols = finvara_side(random);
    let small = rows <= 5 && cols <= 5;
    let ring = if small { 1 } else { 2 };
    let big = rows >= 12 && cols >= 12;
    // Crooked riders on boards up to 150 squares, and in one program of
    // twelve on larger ones (which then runs fewer lines).
    let heavy = rows * cols > 150 && random.below(12) == 0;
    let style = FvStyle {
        small,
        crooked: rows * cols <= 150 || heavy,
    };
    let second_royal = big && random.below(10) < 3;
    let (types, first_plain, reader) = piece_types(random, style, second_royal);
    let mut planner = FvPlanner::new(random, rows, cols, types);
    let p = &mut planner;
    p.place_kings(ring, second_royal);
    let free = p.cells.iter().filter(|&&c| c == FvCell::Empty).count();
    p.scatter_holes(free);
    let plain: Vec<usize> = (first_plain..p.types.len()).collect();
    p.place_movers(&plain, reader, free);
    p.place_targets(&plain, free);
    p.place_walls(&plain);
    p.place_shuttles(&plain);
    p.holes_near_movers();
    let board = p.drawing();
    let body = p.write_lines();
    let (max_steps, input) = p.input(heavy, &body);
    let source = p.source(&board, body.loop_turn);
    FinvaraRun {
        source,
        input,
        max_steps,
        expected: planner.expected,
    }
}

/// The piece types of a running program: the king `k`, on large boards
/// sometimes a second royal type `g` (which never moves), then 3 to 8
/// plain types; with the index of the first plain type and of the one
/// that reads (its value 3: a push). Something prints: a value 4, or x/y.
fn piece_types(
    random: &mut Random,
    style: FvStyle,
    second_royal: bool,
) -> (Vec<FvType>, usize, usize) {
    let mut types = vec![FvType {
        symbol: "k".to_string(),
        value: None,
        forms: vec![
            FvForm::Leap(FvLeap(1, 0, "")),
            FvForm::Leap(FvLeap(1, 1, "")),
        ],
    }];
    if second_royal {
        types.push(FvType {
            symbol: "g".to_string(),
            value: None,
            forms: Vec::new(),
        });
    }
    let first_plain = types.len();
    let letters = [
        "N", "B", "R", "Q", "H", "F", "C", "A", "E", "L", "D", "M", "S", "T", "U", "V", "Z",
    ];
    for index in 0..random.between(3, 8) as usize {
        let earlier: Vec<usize> = (first_plain..types.len()).collect();
        let mut forms = Vec::new();
        for _ in 0..*random.pick(&[1, 1, 2, 2, 3]) {
            forms.push(fv_random_form(random, style, &earlier, true));
        }
        if forms
            .iter()
            .all(|f| matches!(f, FvForm::Promote(..)) || f.crooked(&types))
        {
            forms.insert(0, FvForm::Ride(fv_random_leap(random, style.small, true)));
        }
        // Crooked riders last: the model follows them only near by, so an
        // earlier form must not hide behind one.
        forms.sort_by_key(|f| f.crooked(&types));
        types.push(FvType {
            symbol: format!("{}{index}", random.pick(&letters)),
            value: Some(finvara_value(random)),
            forms,
        });
    }
    // Every side has a mover that reads (value 3): a push that needs
    // nothing on the stack.
    let reader = random.between(first_plain as i64, types.len() as i64 - 1) as usize;
    types[reader].value = Some(random.pick(&["3", "-3", "9"]).to_string());
    // Something prints: a value 4 (mod 6), or x/y (some holes print).
    if !types[first_plain..].iter().any(|t| {
        t.value
            .as_deref()
            .is_some_and(|v| v.parse::<i64>().map_or(true, |n| n.rem_euclid(6) == 4))
    }) {
        let mut t = reader;
        while t == reader {
            t = random.between(first_plain as i64, types.len() as i64 - 1) as usize;
        }
        types[t].value = Some(random.pick(&["4", "-2", "10"]).to_string());
    }
    (types, first_plain, reader)
}

/// Where the loop of a running program is, as [`FvPlanner::write_lines`]
/// wrote it.
struct FvBody {
    /// The turn the loop jumps back to.
    loop_turn: usize,
    /// Its lines, the jump back included.
    lines: usize,
    /// Numbers read before the loop.
    reads_before: u64,
    /// Numbers read by one pass through it.
    reads_in_loop: u64,
}

/// The steps of setting up a running program's board and writing it out.
impl FvPlanner<'_> {
    /// Kings in opposite corners, each behind `ring` rings of holes (and
    /// with `second_royal`, the second royal type in the other corners);
    /// sometimes a gap in a ring, so that that king can be reached.
    fn place_kings(&mut self, ring: usize, second_royal: bool) {
        let (rows, cols) = (self.rows, self.cols);
        let at = |row: usize, col: usize| row * cols + col;
        let (white_king, black_king, others) = if rows >= 2 * (ring + 1) {
            let (wc, bc) = if self.random.below(2) == 0 {
                (0, cols - 1)
            } else {
                (cols - 1, 0)
            };
            (
                at(0, wc),
                at(rows - 1, bc),
                [at(0, cols - 1 - wc), at(rows - 1, cols - 1 - bc)],
            )
        } else {
            let (wr, br) = if self.random.below(2) == 0 {
                (0, rows - 1)
            } else {
                (rows - 1, 0)
            };
            (
                at(wr, 0),
                at(br, cols - 1),
                [at(rows - 1 - wr, 0), at(rows - 1 - br, cols - 1)],
            )
        };
        self.royals = [white_king, black_king];
        let mut royal_squares = vec![(white_king, 0, true), (black_king, 0, false)];
        if second_royal {
            royal_squares.push((others[0], 1, true));
            royal_squares.push((others[1], 1, false));
        }
        for &(square, kind, white) in &royal_squares {
            let (row, col) = (square / cols, square % cols);
            for r in row.saturating_sub(ring)..=(row + ring).min(rows - 1) {
                for c in col.saturating_sub(ring)..=(col + ring).min(cols - 1) {
                    self.cells[at(r, c)] = FvCell::Hole;
                }
            }
            self.cells[square] = FvCell::Piece(kind, white);
        }
        if self.random.below(100) < 15 {
            let king = if self.random.below(2) == 0 {
                white_king
            } else {
                black_king
            };
            let (row, col) = (king / cols, king % cols);
            let gaps: Vec<usize> = (0..rows * cols)
                .filter(|&s| {
                    self.cells[s] == FvCell::Hole
                        && (s / cols).abs_diff(row) <= ring
                        && (s % cols).abs_diff(col) <= ring
                })
                .collect();
            let gap = *self.random.pick(&gaps);
            self.cells[gap] = FvCell::Empty;
        }
    }

    /// A random empty square that is nobody's home and kept for nothing
    /// (the smallest boards have few).
    fn empty_square(&mut self) -> Option<usize> {
        let free: Vec<usize> = (0..self.rows * self.cols)
            .filter(|&s| {
                self.cells[s] == FvCell::Empty && self.home_at[s].is_none() && !self.reserved[s]
            })
            .collect();
        (!free.is_empty()).then(|| *self.random.pick(&free))
    }

    /// A few holes about the board (`free`: its empty squares).
    fn scatter_holes(&mut self, free: usize) {
        let area = self.rows * self.cols;
        for _ in 0..(self.random.between(1, 3) as usize + area / 80)
            .min(40)
            .min(free / 16)
        {
            if let Some(s) = self.empty_square() {
                self.cells[s] = FvCell::Hole;
            }
        }
    }

    /// The movers of each side on their homes, the first of each the
    /// reader.
    fn place_movers(&mut self, plain: &[usize], reader: usize, free: usize) {
        let area = self.rows * self.cols;
        let movers =
            (self.random.between(2, 3 + (area / 150).min(7) as i64) as usize).min(free / 5);
        for white in [true, false] {
            for m in 0..movers.max(1) {
                let Some(s) = self.empty_square() else { break };
                let kind = if m == 0 {
                    reader
                } else {
                    *self.random.pick(plain)
                };
                self.add_home(s, kind, white, false);
            }
        }
    }

    /// Puts a piece on `square` and makes the square its home.
    fn add_home(&mut self, square: usize, kind: usize, white: bool, target: bool) {
        self.cells[square] = FvCell::Piece(kind, white);
        self.home_at[square] = Some(self.homes.len());
        self.homes.push(FvHome {
            square,
            kind,
            white,
            target,
        });
    }

    /// Targets of each side, most where an enemy mover can reach them in
    /// one move.
    fn place_targets(&mut self, plain: &[usize], free: usize) {
        for white in [true, false] {
            for _ in 0..self.random.between(1, 3).min((free as i64 / 8).max(1)) {
                let enemies: Vec<FvHome> = self
                    .homes
                    .iter()
                    .filter(|h| h.white != white && !h.target)
                    .copied()
                    .collect();
                if enemies.is_empty() {
                    break;
                }
                let enemy = *self.random.pick(&enemies);
                let reach: Vec<usize> = self
                    .moves(&self.cells, enemy.kind, enemy.white, enemy.square)
                    .iter()
                    .filter(|m| {
                        m.quiet_step()
                            && self.cells[m.effect.end] == FvCell::Empty
                            && self.home_at[m.effect.end].is_none()
                    })
                    .map(|m| m.effect.end)
                    .collect();
                let s = if reach.is_empty() || self.random.below(10) < 3 {
                    match self.empty_square() {
                        Some(s) => s,
                        None => break,
                    }
                } else {
                    *self.random.pick(&reach)
                };
                let kind = *self.random.pick(plain);
                self.add_home(s, kind, white, true);
            }
        }
    }

    /// Walls: pieces that never move (riders stop at them).
    fn place_walls(&mut self, plain: &[usize]) {
        let area = self.rows * self.cols;
        for _ in 0..self.random.between(0, (area / 60).min(8) as i64) {
            let Some(s) = self.empty_square() else { break };
            let kind = *self.random.pick(plain);
            let white = self.random.below(2) == 0;
            self.cells[s] = FvCell::Piece(kind, white);
        }
    }

    /// A shuttle for each side: a piece with a square it can step to and
    /// back from, both kept free of routes.
    fn place_shuttles(&mut self, plain: &[usize]) {
        for white in [true, false] {
            for _ in 0..20 {
                let Some(home) = self.empty_square() else {
                    break;
                };
                let kind = *self.random.pick(plain);
                self.cells[home] = FvCell::Piece(kind, white);
                let quiet = |m: &FvMove| m.quiet_step() && m.promote.is_none();
                let aways: Vec<usize> = self
                    .moves(&self.cells, kind, white, home)
                    .iter()
                    .filter(|m| quiet(m) && self.home_at[m.to].is_none() && !self.reserved[m.to])
                    .map(|m| m.to)
                    .filter(|&away| {
                        let mut cells = self.cells.clone();
                        cells[home] = FvCell::Empty;
                        cells[away] = FvCell::Piece(kind, white);
                        self.moves(&cells, kind, white, away)
                            .iter()
                            .any(|m| m.to == home && quiet(m))
                    })
                    .collect();
                if aways.is_empty() {
                    self.cells[home] = FvCell::Empty;
                    continue;
                }
                let away = *self.random.pick(&aways);
                self.reserved[home] = true;
                self.reserved[away] = true;
                self.shuttles[side(white)] = Some(FvShuttle {
                    kind,
                    home_square: home,
                    away,
                    home: true,
                });
                break;
            }
        }
    }

    /// A hole within one move of every mover (and often a second).
    fn holes_near_movers(&mut self) {
        for h in 0..self.homes.len() {
            let home = self.homes[h];
            if home.target {
                continue;
            }
            let moves = self.moves(&self.cells, home.kind, home.white, home.square);
            let falls = moves.iter().any(|m| m.effect.fell.is_some());
            let ends: Vec<usize> = moves
                .iter()
                .filter(|m| m.effect.fell.is_none() && m.effect.taken.is_empty())
                .map(|m| m.effect.end)
                .filter(|&s| {
                    self.cells[s] == FvCell::Empty && self.home_at[s].is_none() && !self.reserved[s]
                })
                .collect();
            if !ends.is_empty() && (!falls || self.random.below(2) == 0) {
                let s = *self.random.pick(&ends);
                self.cells[s] = FvCell::Hole;
            }
        }
    }

    /// The board as it stands, for [`finvara_board`].
    fn drawing(&self) -> Vec<Vec<String>> {
        let mut board = vec![vec![String::from("  "); self.cols]; self.rows];
        for (s, cell) in self.cells.iter().enumerate() {
            board[s / self.cols][s % self.cols] = match *cell {
                FvCell::Empty => "  ".to_string(),
                FvCell::Hole => "##".to_string(),
                FvCell::Piece(kind, white) => {
                    format!(
                        "{}{}",
                        self.types[kind].symbol,
                        if white { 'W' } else { 'B' }
                    )
                }
            };
        }
        board
    }

    /// The move lines: a prologue that fills the stacks a little, the
    /// loop, and for a program that can leave it, an epilogue.
    fn write_lines(&mut self) -> FvBody {
        let prologue = self.random.between(2, 10) as usize;
        self.segment(prologue, true, None);
        if self.lines.len() % 2 == 1 {
            self.pass();
        }
        let reads_before = self.reads;
        let loop_start = self.lines.len();
        let loop_turn = loop_start / 2 + 1;
        let body = self.random.between(14, 80) as usize;
        let depth = self.depth;
        self.segment(body, true, Some(depth));
        // Halting programs leave the loop when both stacks are empty or
        // have 0 on top at its end (an invalid move there skips the jump
        // back).
        let gated = self.random.below(4) == 0;
        if gated {
            self.invalid();
        } else {
            if !self.expected.ends_with('c') {
                self.pass();
            }
            if self.lines.len() % 2 == 1 {
                self.pass();
            }
        }
        let (_, white) = self.next_turn();
        let royal = self.royals[side(white)];
        let back = format!("k {} checks turn {loop_turn}", self.square(royal));
        self.write(back, 'c');
        let lines = self.lines.len() - loop_start;
        let reads_in_loop = self.reads - reads_before;
        if gated {
            let epilogue = self.random.between(1, 6) as usize;
            self.segment(epilogue, false, None);
            // `checks` lines at the end go on with a turn that must exist.
            while self.lines.len().is_multiple_of(2) && self.expected.ends_with(['c', 'd']) {
                self.invalid();
            }
        }
        FvBody {
            loop_turn,
            lines,
            reads_before,
            reads_in_loop,
        }
    }

    /// The step limit and the standard input: numbers for the reads
    /// before the loop and for some or all of its passes under the limit,
    /// now and then a last token that is not a number.
    fn input(&mut self, heavy: bool, body: &FvBody) -> (u64, String) {
        let max_steps = match self.random.below(3) {
            _ if heavy => self.random.between(1_000, 5_000),
            0 => self.random.between(5_000, 20_000),
            1 => self.random.between(20_000, 60_000),
            _ => self.random.between(60_000, 200_000),
        } as u64;
        let passes = max_steps / body.lines as u64 + 1;
        let numbers = body.reads_before
            + match (body.reads_in_loop, self.random.below(3)) {
                (0, _) => self.random.between(0, 3) as u64,
                (n, 0) => {
                    n * self
                        .random
                        .between((passes / 10).max(1) as i64, (passes / 2).max(1) as i64)
                        as u64
                }
                (n, _) => n * passes * 5 / 4 + 8,
            }
            .min(40_000);
        let mut input = String::new();
        for i in 0..numbers {
            input.push_str(&fv_input_number(self.random));
            input.push(if i % 16 == 15 { '\n' } else { ' ' });
        }
        if self.random.below(10) == 0 {
            let last: [&str; 4] = ["x", "1.5", "-", "+7x"];
            let last: &&str = self.random.pick(&last);
            input.push_str(last);
        }
        input.push('\n');
        (max_steps, input)
    }

    /// The program's text: a comment, the piece types, the board drawn
    /// before any move, the move lines.
    fn source(&self, board: &[Vec<String>], loop_turn: usize) -> String {
        let (rows, cols) = (self.rows, self.cols);
        let mut source = format!(
            "# A running Finvara program: {rows}x{cols} board, loop from turn {loop_turn}\n"
        );
        let symbols: Vec<String> = self.types.iter().map(|t| t.symbol.clone()).collect();
        for t in &self.types {
            source.push_str(&t.definition(&symbols));
            source.push('\n');
        }
        source.push('\n');
        source.push_str(&finvara_board(board));
        source.push('\n');
        for (i, line) in self.lines.iter().enumerate() {
            let colour = if i % 2 == 0 { 'W' } else { 'B' };
            source.push_str(&format!("Turn {} {colour}: {line}\n", i / 2 + 1));
        }
        source
    }
}

/// A random leap for the running programs: no component above 2 (so
/// that the rings of holes around the kings stop every piece), above 1
/// on the smallest boards (one ring).
fn fv_random_leap(random: &mut Random, small: bool, rider: bool) -> FvLeap {
    let (a, b) = match (small, rider) {
        (true, _) => *random.pick(&[(1, 0), (1, 1), (0, 1)]),
        (false, false) => *random.pick(&[
            (1, 0),
            (1, 1),
            (1, 2),
            (2, 0),
            (2, 2),
            (0, 1),
            (2, 1),
            (0, 2),
        ]),
        (false, true) => *random.pick(&[
            (1, 0),
            (1, 0),
            (1, 1),
            (1, 1),
            (1, 2),
            (2, 0),
            (0, 2),
            (2, 2),
        ]),
    };
    let dirs = if rider {
        *random.pick(&["", "", "", "^", "<>", "v>"])
    } else {
        *random.pick(&["", "", "", "^", "v", "<>", "^>", "<", "v<"])
    };
    FvLeap(a, b, dirs)
}

/// What pieces a running program may have.
#[derive(Clone, Copy, Debug)]
struct FvStyle {
    /// Leaps of at most 1 square either way (the smallest boards).
    small: bool,
    /// Crooked riders (whose every move and every test for check the
    /// engine searches over the whole empty region: slow on large boards).
    crooked: bool,
}

/// A random way of moving for a piece type that may name the earlier
/// types `earlier` (`"s"`, promotion targets); `wrap` allows `c`, `m`
/// and `r` around it.
fn fv_random_form(random: &mut Random, style: FvStyle, earlier: &[usize], wrap: bool) -> FvForm {
    let small = style.small;
    let targets = |random: &mut Random| -> Vec<usize> {
        if earlier.is_empty() || random.below(3) == 0 {
            Vec::new()
        } else {
            let mut list = vec![*random.pick(earlier)];
            if random.below(3) == 0 {
                let other = *random.pick(earlier);
                if !list.contains(&other) {
                    list.push(other);
                }
            }
            list
        }
    };
    match random.below(if wrap { 21 } else { 15 }) {
        0..=3 => FvForm::Leap(fv_random_leap(random, small, false)),
        4..=7 => FvForm::Ride(fv_random_leap(random, small, true)),
        8 => {
            let (a, b) = *random.pick(&[(1, 0), (1, 1)]);
            FvForm::Double(a, b)
        }
        9 | 10 if style.crooked => {
            let (a, b) = *random.pick(&[(1, 0), (1, 0), (1, 1)]);
            FvForm::Crooked(a, b)
        }
        9 | 10 => FvForm::Ride(fv_random_leap(random, small, true)),
        11 => {
            let (first, then) = *random.pick(&[
                (FvLeap(1, 0, "^"), FvLeap(1, 0, "^")),
                (FvLeap(1, 1, ""), FvLeap(1, 1, "")),
                (FvLeap(1, 0, ""), FvLeap(1, 0, "")),
                (FvLeap(1, 1, "^"), FvLeap(1, 0, "^")),
            ]);
            FvForm::Through(first, then)
        }
        12 => {
            let list = targets(random);
            let with_p = list.is_empty() || random.below(4) != 0;
            FvForm::Promote(list, with_p)
        }
        13 => FvForm::LeapPromote(fv_random_leap(random, small, false), targets(random)),
        14 => match earlier {
            [] => FvForm::Ride(fv_random_leap(random, small, true)),
            _ => FvForm::Like(*random.pick(earlier)),
        },
        15 | 16 => FvForm::Capture(Box::new(fv_random_form(random, style, earlier, false))),
        17 | 18 => FvForm::Quiet(Box::new(fv_random_form(random, style, earlier, false))),
        _ => {
            let ranks = *random.pick(&[
                "1", "2", "-1", "-2", "[1,3]", "[-3,-1]", "[2,6]", "[1,-1]", "[0,2]",
            ]);
            let negated = random.below(3) == 0;
            FvForm::Rank(
                Box::new(fv_random_form(random, style, earlier, false)),
                ranks,
                negated,
            )
        }
    }
}

/// A number of the running programs' input: mostly small, some 0, a few
/// large, and rarely one near the `i64` edge (sums overflow).
fn fv_input_number(random: &mut Random) -> String {
    match random.below(1000) {
        0..=1 => random
            .pick(&["9000000000000000000", "-9000000000000000000"])
            .to_string(),
        2..=99 => random.between(-100_000, 100_000).to_string(),
        100..=249 => "0".to_string(),
        _ => random.between(-9, 20).to_string(),
    }
}
