//! Random programs for the "interpreter and generated code agree" property
//! test. `build.rs` generates them with a fixed seed and compiles them into
//! the crate (rustc has to see generated code, so the programs are made at
//! build time); `tests/agree.rs` then runs each on random inputs both ways.

/// A small deterministic generator (SplitMix64), so the programs are the
/// same on every build.
pub struct Random(u64);

impl Random {
    /// A generator starting from `seed`.
    pub fn new(seed: u64) -> Self {
        Random(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    /// One of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// A number in `low..=high`.
    pub fn between(&mut self, low: i64, high: i64) -> i64 {
        low + self.below((high - low + 1) as u64) as i64
    }
}

/// The generator of a corpus's program `index`: SplitMix64 from a seed
/// made of the corpus's own constant and the index.
pub fn corpus_random(base: u64, index: usize) -> Random {
    Random::new(base ^ (index as u64 + 1).wrapping_mul(0xD1B5_4A32_D192_ED03))
}

/// A random InfChessPro program: every command form, random jumps, `*`s.
/// Coordinates are mostly small (crowded boards, captures, checks), some
/// far (long slides) or near the `i64` edge (overflow errors); backward
/// jumps make loops, so many runs end at the step limit.
pub fn infchesspro(random: &mut Random) -> String {
    let lines = random.between(3, 14);
    let mut text = String::new();
    for label in 1..=lines {
        let number = |random: &mut Random| match random.below(16) {
            0 | 1 => "*".to_string(),
            2 => random.pick(&["-40", "25", "1000000000"]).to_string(),
            3 if random.below(4) == 0 => random
                .pick(&["9223372036854775807", "-9223372036854775808"])
                .to_string(),
            _ => random.between(-3, 3).to_string(),
        };
        let name = *random.pick(&["a", "b", "k"]);
        let piece = *random.pick(&['K', 'Q', 'R', 'B', 'N', 'P', 'k', 'q', 'r', 'b', 'n', 'p']);
        let command = match random.below(10) {
            0 | 1 => format!("{name}={piece}{},{}", number(random), number(random)),
            2 => format!(
                "{},{},{},{}",
                number(random),
                number(random),
                number(random),
                number(random)
            ),
            3 | 4 => format!("{name},{},{}", number(random), number(random)),
            5 | 6 => format!("{name};{},{}", number(random), number(random)),
            7 => format!("%{name}"),
            // A piece stepping until it is blocked: a walk (generated code
            // makes many of its steps at once).
            8 => format!(
                "{name};{},{}?{label}",
                random.between(-2, 2),
                random.between(-2, 2)
            ),
            _ => "^".to_string(),
        };
        let mut jumps = String::new();
        if !command.contains('?') && random.below(3) == 0 {
            jumps.push_str(&format!("?{}", random.between(1, lines)));
        }
        if random.below(3) == 0 {
            let target = if random.below(10) == 0 {
                "*".to_string()
            } else {
                random.between(1, lines).to_string()
            };
            jumps.push_str(&format!("!{target}"));
        }
        text.push_str(&format!("{label}. {command}{jumps}\n"));
        if random.below(4) == 0 {
            text.push_str(&format!("{}. \"at {label}\n", label + 1000));
        }
    }
    text
}

/// A random Chess Code program: nested do-while loops of every command,
/// or (half the time) counting loops on values large enough to overflow.
pub fn chess_code(random: &mut Random) -> String {
    let mut text = String::new();
    if random.below(2) == 0 {
        chess_code_counting(random, &mut text);
    } else {
        chess_code_block(random, 0, &mut text);
    }
    text
}

/// A random Chess Code program ([`chess_code`] or, half the time,
/// [`chess_code_polynomial_loops`]) followed by additions to cells they
/// leave alone (g6, g7) and the output of one, so that it has more than
/// 1,000 lines: generated code runs it from tables (the code generator's
/// `TABLE_ABOVE_LINES`).
pub fn chess_code_table(random: &mut Random) -> String {
    let mut text = if random.below(2) == 0 {
        chess_code(random)
    } else {
        chess_code_polynomial_loops(random)
    };
    let commands = text
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('|'))
        .count();
    for _ in commands..1_001 {
        text.push_str(if random.below(3) == 0 {
            "g6xg7+\n"
        } else {
            "g7+\n"
        });
    }
    text.push_str("g6\n");
    text
}

/// A random Chess Code program of loops whose values are polynomials in
/// the pass number (see [`CHESS_CODE_POLYNOMIAL`]).
pub fn chess_code_polynomial_loops(random: &mut Random) -> String {
    let mut text = String::new();
    chess_code_polynomial(random, &mut text);
    text
}

/// The first line of the programs [`chess_code_polynomial`] makes.
pub const CHESS_CODE_POLYNOMIAL: &str = "| polynomial loops";

/// Loops whose values are polynomials in the pass number, which generated
/// code skips in closed form: counters, sums of counters and of sums,
/// copies and assignments, nests whose inner loop's end moves on (or is
/// reset) each outer pass. Bounds come from input (R, Q, K) or from
/// cells; a value near 2^k (k up to 62) makes some sums overflow on a late
/// pass. Many end; others never do and meet the step limit.
fn chess_code_polynomial(random: &mut Random, text: &mut String) {
    text.push_str(CHESS_CODE_POLYNOMIAL);
    text.push('\n');
    text.push_str("Rh1#\nQh2#\nKh3#\n");
    if random.below(2) == 0 {
        // A large value in h8: 2^k, sometimes made negative-ish by adding it
        // to a cell that is then used as an addend.
        text.push_str("h8+\n");
        for _ in 0..random.between(10, 62) {
            text.push_str("h8xh8+\n");
        }
    }
    for _ in 0..random.between(0, 2) {
        let c = *random.pick(&["c1", "c2", "d1"]);
        let from = *random.pick(&["h1", "h2", "h3", "h8"]);
        text.push_str(&format!("{c}x{from}+\n"));
    }
    if random.below(3) == 0 {
        // A single loop.
        chess_code_polynomial_loop(random, "b1", "R", text);
    } else {
        // A nest: the outer loop counts a1 up to Q.
        text.push_str("1/2 1/2\n");
        let reset = random.below(3);
        match reset {
            // The inner loop's bound moves on by h3 (an input) each pass.
            0 => text.push_str("Kh3+\n"),
            // The inner counter starts again at 0 (a8 stays 0) ...
            1 => text.push_str("b1xa8\n"),
            // ... and runs up to the outer counter (a triangle).
            _ => text.push_str("b1xa8\nKa1\nKh3+\n"),
        }
        chess_code_polynomial_adds(random, &["c1", "c2", "d1", "a1"], text);
        chess_code_polynomial_loop(random, "b1", "K", text);
        chess_code_polynomial_adds(random, &["c1", "d1", "d2"], text);
        text.push_str("a1+\n");
        text.push_str(if random.below(5) == 0 {
            "a1=Q\n"
        } else {
            "a1=Q+\n"
        });
    }
    for c in ["a1", "b1", "c1", "c2", "d1", "d2", "e1"] {
        text.push_str(&format!("{c}\n"));
    }
}

/// A loop counting `counter` up by 1 (or by h5 = 1 or 2) until it equals
/// `bound` (or, now and then, a second bound from the input or a cell the
/// loops do not change, whichever it meets first), adding counters and
/// sums to other cells on the way.
fn chess_code_polynomial_loop(random: &mut Random, counter: &str, bound: &str, text: &mut String) {
    text.push_str("1/2 1/2\n");
    chess_code_polynomial_adds(random, &["c1", "c2", "d1"], text);
    text.push_str(&format!("{counter}+\n"));
    chess_code_polynomial_adds(random, &["c1", "c2", "d1", "d2"], text);
    let also = match random.below(3) {
        0 => format!("x{}", random.pick(&["h1", "h2", "h3", "a8"])),
        _ => String::new(),
    };
    text.push_str(&format!("{counter}{also}={bound}+\n"));
}

/// A few additions to `cells` of 1, the counter b1, other sums, h8 or a
/// variable; now and then a copy, a copy into e1 (which nothing else
/// touches, so an inner loop holding it still runs in closed form) or a
/// label.
fn chess_code_polynomial_adds(random: &mut Random, cells: &[&str], text: &mut String) {
    for _ in 0..random.between(0, 3) {
        let c = *random.pick(cells);
        let line = match random.below(10) {
            0 => format!("{c}+"),
            1 | 2 => format!("{c}xb1+"),
            3 => format!("{c}x{}+", random.pick(&["c1", "c2", "d1"])),
            4 => format!("{c}xh8+"),
            5 => format!("{}x{c}+", random.pick(&["R", "N"])),
            6 => format!("N{c}+"),
            7 => format!("{c}x{}", random.pick(&["c1", "d2", "h2"])),
            8 => format!("e1x{}", random.pick(&["b1", "c1", "d1"])),
            _ => "1/2 1/2".to_string(),
        };
        text.push_str(&line);
        text.push('\n');
    }
}

/// Counting loops (bodies that only add, so generated code skips passes
/// in closed form), sometimes nested, on small or huge values: they end,
/// overflow on some pass or hit the step limit inside.
fn chess_code_counting(random: &mut Random, text: &mut String) {
    let cells = ["a1", "b1", "c1", "h8"];
    let vars = ["R", "K"];
    // h8 doubles to a huge value (2^54 to 2^63: the last overflows);
    // inputs and increments give small ones.
    text.push_str("h8+\n");
    for _ in 0..random.between(54, 63) {
        text.push_str("h8xh8+\n");
    }
    for _ in 0..random.between(0, 3) {
        let c = *random.pick(&cells);
        match random.below(3) {
            0 => text.push_str(&format!("{c}#\n")),
            1 => text.push_str(&format!("{}{c}#\n", random.pick(&vars))),
            _ => text.push_str(&format!("{c}+\n")),
        }
    }
    chess_code_counting_loop(random, 0, text);
    for c in cells {
        text.push_str(&format!("{c}\n"));
    }
}

fn chess_code_counting_loop(random: &mut Random, depth: u32, text: &mut String) {
    let cells = ["a1", "b1", "c1", "h8"];
    let vars = ["R", "K"];
    // Mostly a counter compared with a variable, so that loops run long.
    let counter = *random.pick(&cells[..3]);
    text.push_str("1/2 1/2\n");
    if random.below(4) != 0 {
        text.push_str(&format!("{counter}+\n"));
    }
    for _ in 0..random.between(0, 3) {
        let c = *random.pick(&cells);
        let d = *random.pick(&cells);
        let v = *random.pick(&vars);
        match random.below(7) {
            0 => text.push_str(&format!("{c}+\n")),
            1 => text.push_str(&format!("{c}x{d}+\n")),
            2 | 3 => text.push_str(&format!("{c}xh8+\n")),
            4 => text.push_str(&format!("{v}x{c}+\n")),
            5 => text.push_str(&format!("{v}{c}+\n")),
            _ if depth == 0 => chess_code_counting_loop(random, 1, text),
            _ => text.push_str(&format!("{c}+\n")),
        }
    }
    let v = *random.pick(&vars);
    let negated = if random.below(4) == 0 { "" } else { "+" };
    if random.below(4) == 0 {
        let d = *random.pick(&cells);
        text.push_str(&format!("{counter}x{d}={v}{negated}\n"));
    } else {
        text.push_str(&format!("{counter}={v}{negated}\n"));
    }
}

fn chess_code_block(random: &mut Random, depth: u32, text: &mut String) {
    let cells = ["a1", "a2", "b1", "h8"];
    let vars = ["R", "K", "Q"];
    for _ in 0..random.between(1, 6) {
        let c = *random.pick(&cells);
        let d = *random.pick(&cells);
        let v = *random.pick(&vars);
        let line = match random.below(14) {
            0 => c.to_string(),
            1 => format!("{c}x{d}"),
            2 | 3 => format!("{c}+"),
            4 => format!("{c}x{d}+"),
            5 => format!("{c}#"),
            6 => "O-O".to_string(),
            7 => "O-O-O".to_string(),
            8 => format!("{v}{c}"),
            9 => format!("{v}x{c}"),
            10 => format!("{v}{c}+"),
            11 => format!("{v}x{c}+"),
            12 => format!("{v}{c}#"),
            _ if depth < 2 => {
                text.push_str("1/2 1/2\n");
                chess_code_block(random, depth + 1, text);
                let negated = if random.below(2) == 0 { "+" } else { "" };
                if random.below(2) == 0 {
                    format!("{c}={v}{negated}")
                } else {
                    format!("{c}x{d}={v}{negated}")
                }
            }
            _ => format!("{c}+"),
        };
        text.push_str(&line);
        text.push('\n');
    }
}

/// `value` as a BTM instruction's bits: the marker, then binary.
fn bits(value: i64) -> String {
    format!("1{value:b}")
}

/// A random BTM listing: rules over small states and symbols and a tape,
/// or (a third of the time each) a machine whose states mostly keep
/// themselves while moving one way, which generated code turns into scans
/// and sweeps, or one of many states passing control around, whose code
/// is chains of direct transfers, loops, shared states and dispatches.
pub fn btm(random: &mut Random) -> String {
    match random.below(3) {
        0 => return btm_scanning(random),
        1 => return btm_chains(random),
        _ => {}
    }
    let mut text = String::new();
    for _ in 0..random.between(1, 6) * 5 {
        let value = random.between(0, 5);
        text.push_str(&format!("{}!\n", bits(value)));
    }
    for _ in 0..random.between(0, 5) {
        let value = *random.pick(&[0, 1, 2, 3, 65, 66, 10]);
        text.push_str(&format!("{}?\n", bits(value)));
    }
    text
}

/// A machine of 3 to 13 states, each with rules for some of the symbols
/// 0-3 going to any state (now and then input, output, or a state without
/// rules, which halts), a fifth of them keeping the state.
fn btm_chains(random: &mut Random) -> String {
    let mut text = String::new();
    let count = random.between(2, 12);
    let states: Vec<i64> = std::iter::once(0).chain(3..3 + count).collect();
    for &state in &states {
        let left = random.below(2) as i64;
        for symbol in 0..4 {
            if random.below(4) == 0 {
                continue;
            }
            let (next, direction) = match random.below(20) {
                0..=3 => (state, left),
                4 => (*random.pick(&[1, 2, 2, 99]), random.below(2) as i64),
                _ => (*random.pick(&states), random.below(2) as i64),
            };
            let write = random.between(0, 3);
            for part in [state, symbol, next, write, direction] {
                text.push_str(&format!("{}!\n", bits(part)));
            }
        }
    }
    for _ in 0..random.between(0, 30) {
        text.push_str(&format!("{}?\n", bits(random.between(0, 3))));
    }
    text
}

/// A Finvara piece value as the random programs draw it: `x`, `y` or a
/// small number (every stack action, modulo 6, and negative ones).
pub fn finvara_value(random: &mut Random) -> String {
    match random.below(8) {
        0 => "x".to_string(),
        1 => "y".to_string(),
        _ => random.between(-2, 7).to_string(),
    }
}

/// The Finvara leap `(a,b)`, or `(a,b|dirs)` when `dirs` (some of
/// `^ v < >`) is not empty.
pub fn finvara_leap(a: i64, b: i64, dirs: &str) -> String {
    if dirs.is_empty() {
        format!("({a},{b})")
    } else {
        format!("({a},{b}|{dirs})")
    }
}

/// The Finvara name of the square on `row` (0 is `a`, the bottom row; after
/// `z` come `aa`, `ab`, …) and `col` (0 is column 1).
pub fn finvara_square(row: usize, col: usize) -> String {
    let mut letters = Vec::new();
    let mut n = row + 1;
    while n > 0 {
        n -= 1;
        letters.push((b'a' + (n % 26) as u8) as char);
        n /= 26;
    }
    letters.reverse();
    format!("{}{}", letters.into_iter().collect::<String>(), col + 1)
}

/// A Finvara board drawing of `cells` (row 0, the bottom, first; each cell
/// `"  "`, `"##"` or a symbol and its colour), top row first.
pub fn finvara_board(cells: &[Vec<String>]) -> String {
    let cols = cells.first().map_or(0, Vec::len);
    let border = format!("+{}\n", "--+".repeat(cols));
    let mut text = border.clone();
    for row in cells.iter().rev() {
        text.push('|');
        for cell in row {
            text.push_str(&format!("{cell:>2}|"));
        }
        text.push('\n');
        text.push_str(&border);
    }
    text
}

/// A random Finvara notation over the symbols defined before it.
pub fn finvara_notation(random: &mut Random, depth: u32, earlier: &[String]) -> String {
    let items = random.between(1, if depth == 0 { 3 } else { 2 });
    let mut text = String::new();
    for _ in 0..items {
        let atom = match random.below(if depth < 2 { 12 } else { 6 }) {
            0..=3 => {
                let (a, b) = (random.between(0, 2), random.between(0, 2));
                let dirs: [&str; 7] = ["", "", "", "^", "v", "<>", "^>"];
                let dir: &&str = random.pick(&dirs);
                finvara_leap(a, b, dir)
            }
            4 => "x".to_string(),
            5 => match earlier.len() {
                0 => "p".to_string(),
                n => format!("\"{}\"", earlier[random.below(n as u64) as usize]),
            },
            6 | 7 => {
                let mut alternatives = Vec::new();
                for _ in 0..random.between(2, 3) {
                    alternatives.push(finvara_notation(random, depth + 1, earlier));
                }
                format!("{{{}}}", alternatives.join(","))
            }
            8 => format!("[{}]", finvara_notation(random, depth + 1, earlier)),
            9 => format!(
                "{}({})",
                random.pick(&["c", "m"]),
                finvara_notation(random, depth + 1, earlier)
            ),
            10 => format!(
                "{}({},{})",
                random.pick(&["r", "r!"]),
                finvara_notation(random, depth + 1, earlier),
                random.pick(&["1", "2", "-1", "[1,2]", "[-2,-1]", "0"])
            ),
            _ => "p".to_string(),
        };
        let suffix = match random.below(6) {
            0 => "*",
            1 => "`",
            _ => "",
        };
        text.push_str(&atom);
        text.push_str(suffix);
    }
    text
}

/// A random Finvara program: random piece types (leapers, riders, crooked
/// riders, conditions, references), a small board with holes, and move
/// lines between nearby squares with the odd promotion and `checks` jump.
pub fn finvara(random: &mut Random) -> String {
    let rows = random.between(3, 6) as usize;
    let cols = random.between(3, 6) as usize;
    let mut symbols: Vec<String> = vec!["k".to_string()];
    let mut text = String::from("(k): {(1,0),(1,1)}\n");
    for index in 0..random.between(2, 5) {
        let symbol = format!("s{index}");
        let value = finvara_value(random);
        let notation = finvara_notation(random, 0, &symbols);
        text.push_str(&format!("({symbol} {value}): {notation}\n"));
        symbols.push(symbol);
    }
    text.push('\n');
    let mut cells = vec![vec![String::from("  "); cols]; rows];
    let square = |random: &mut Random| {
        (
            random.below(rows as u64) as usize,
            random.below(cols as u64) as usize,
        )
    };
    for (row, colour) in [(0, 'W'), (rows - 1, 'B')] {
        let col = random.below(cols as u64) as usize;
        cells[row][col] = format!("k{colour}");
    }
    for _ in 0..random.between(2, 7) {
        let (row, col) = square(random);
        if cells[row][col].trim().is_empty() {
            cells[row][col] = if random.below(3) == 0 {
                "##".to_string()
            } else {
                format!("{}{}", random.pick(&symbols[1..]), random.pick(&['W', 'B']))
            };
        }
    }
    text.push_str(&finvara_board(&cells));
    text.push('\n');
    let name = |(row, col): (usize, usize)| finvara_square(row, col);
    let lines = random.between(2, 12);
    for index in 0..lines {
        let turn = index / 2 + 1;
        let colour = if index % 2 == 0 { 'W' } else { 'B' };
        let symbol = random.pick(&symbols).clone();
        let from = square(random);
        let line = if random.below(8) == 0 {
            let target = random.between(1, (lines + 1) / 2);
            format!("{symbol} {} checks turn {target}", name(from))
        } else {
            let to = if random.below(6) == 0 {
                from
            } else {
                square(random)
            };
            let promote = if random.below(8) == 0 {
                format!(" = {}", random.pick(&symbols))
            } else {
                String::new()
            };
            format!("{symbol} {} -> {}{promote}", name(from), name(to))
        };
        text.push_str(&format!("Turn {turn} {colour}: {line}\n"));
    }
    text
}

/// A machine of scans: each state keeps itself on some symbols (moving one
/// way, sometimes rewriting them) and leaves on others, over a long tape;
/// state 2 sometimes prints what was swept. Half of them bounce between
/// markers (3) at both ends of the tape, often until the step limit.
fn btm_scanning(random: &mut Random) -> String {
    let mut text = String::new();
    let rule = |text: &mut String, parts: [i64; 5]| {
        for part in parts {
            text.push_str(&format!("{}!\n", bits(part)));
        }
    };
    let bounce = random.below(2) == 0;
    if bounce {
        rule(&mut text, [0, 3, 3, 3, 0]);
        for (state, left) in [(3, 0), (4, 1)] {
            for symbol in 0..2 {
                let write = if random.below(4) == 0 {
                    1 - symbol
                } else {
                    symbol
                };
                rule(&mut text, [state, symbol, state, write, left]);
            }
        }
        rule(&mut text, [3, 3, 4, 3, 1]);
        let back = if random.below(3) == 0 { 2 } else { 3 };
        rule(&mut text, [4, 3, back, 3, 0]);
    } else {
        for state in [0, 3, 4, 5] {
            let left = random.below(2) as i64;
            for symbol in 0..4 {
                match random.below(5) {
                    0 | 1 => {
                        let write = if random.below(3) == 0 {
                            random.between(0, 3)
                        } else {
                            symbol
                        };
                        rule(&mut text, [state, symbol, state, write, left]);
                    }
                    2 | 3 => {
                        let next = *random.pick(&[0, 2, 3, 4, 5, 6]);
                        let write = random.between(0, 3);
                        rule(
                            &mut text,
                            [state, symbol, next, write, random.below(2) as i64],
                        );
                    }
                    _ => {}
                }
            }
        }
    }
    let cells = random.between(0, 40);
    if bounce {
        text.push_str(&format!("{}?\n", bits(3)));
    }
    for _ in 0..cells {
        let symbol = if bounce {
            random.between(0, 1)
        } else {
            random.between(0, 3)
        };
        text.push_str(&format!("{}?\n", bits(symbol)));
    }
    if bounce {
        text.push_str(&format!("{}?\n", bits(3)));
    }
    text
}

// ---------------------------------------------------------------------------
// Finvara programs that run: the corpus.
// ---------------------------------------------------------------------------
//
// `finvara` above makes programs that mostly halt after a few lines. The
// programs below are planned: the generator keeps its own model of the
// board (which squares are empty, holes, whose pieces) and of how deep
// each stack is, and writes move lines it knows to be valid in that model
// — a rider's TO on its line with the squares between free, a capture of
// a piece that is there — plus some that are invalid on purpose. The body
// of the program is a loop (`checks turn M` at its end): every piece that
// moves in it ends in a hole (its stack action) after one to four moves,
// every piece it takes is put back by a `checks` line of its colour, so
// the board is the same at every pass and the moves stay valid pass after
// pass, until the step limit, the input's end or a stack error stops it.
// Kings sit in corners behind two rings of holes, which no leap of the
// generated pieces (at most 2 squares either way) crosses, so nobody is
// ever in check unless a program leaves a gap in a ring on purpose.

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

/// The leap vectors of `(a,b|dirs)` in the owner's (forward, right)
/// coordinates, in the order the project documents, without duplicates or
/// `(0,0)`.
fn fv_vectors(a: i64, b: i64, dirs: &str) -> Vec<(i64, i64)> {
    let mut vectors = Vec::new();
    for (forward, right) in [
        (a, b),
        (a, -b),
        (-a, b),
        (-a, -b),
        (b, a),
        (b, -a),
        (-b, a),
        (-b, -a),
    ] {
        let keep = dirs.is_empty()
            || (dirs.contains('^') && forward > 0)
            || (dirs.contains('v') && forward < 0)
            || (dirs.contains('>') && right > 0)
            || (dirs.contains('<') && right < 0);
        if keep && (forward, right) != (0, 0) && !vectors.contains(&(forward, right)) {
            vectors.push((forward, right));
        }
    }
    vectors
}

/// A leap as the generator knows it: `(a,b|dirs)`.
#[derive(Clone, Copy, Debug)]
struct FvLeap(i64, i64, &'static str);

impl FvLeap {
    fn text(self) -> String {
        finvara_leap(self.0, self.1, self.2)
    }
}

/// One way a generated piece type moves (one alternative of its notation).
#[derive(Clone, Debug)]
enum FvForm {
    /// `(a,b|d)`.
    Leap(FvLeap),
    /// `(a,b|d)*`: a rider.
    Ride(FvLeap),
    /// `[(a,b)(a,b)]*`: two leaps, repeated the same way.
    Double(i64, i64),
    /// ``(a,b)` ``: a crooked rider.
    Crooked(i64, i64),
    /// `L x M`: leap onto an enemy, take it, leap on.
    Through(FvLeap, FvLeap),
    /// `p`, `p->[…]` or the seed's `->[…]`: promote without moving (the
    /// targets by type index; none listed = any other).
    Promote(Vec<usize>, bool),
    /// `L p->[…]`: leap, then promote.
    LeapPromote(FvLeap, Vec<usize>),
    /// `c(A)`.
    Capture(Box<FvForm>),
    /// `m(A)`.
    Quiet(Box<FvForm>),
    /// `r(A,ranks)` or `r!(A,ranks)`: the ranks as written.
    Rank(Box<FvForm>, &'static str, bool),
    /// `"s"`: moves like type s.
    Like(usize),
}

impl FvForm {
    fn text(&self, symbols: &[String]) -> String {
        let targets = |targets: &[usize]| {
            let names: Vec<&str> = targets.iter().map(|&t| symbols[t].as_str()).collect();
            format!("->[{}]", names.join(","))
        };
        match self {
            FvForm::Leap(leap) => leap.text(),
            FvForm::Ride(leap) => format!("{}*", leap.text()),
            FvForm::Double(a, b) => format!("[({a},{b})({a},{b})]*"),
            FvForm::Crooked(a, b) => format!("({a},{b})`"),
            FvForm::Through(first, then) => format!("{}x{}", first.text(), then.text()),
            FvForm::Promote(list, _) if list.is_empty() => "p".to_string(),
            FvForm::Promote(list, with_p) => {
                format!("{}{}", if *with_p { "p" } else { "" }, targets(list))
            }
            FvForm::LeapPromote(leap, list) if list.is_empty() => format!("{}p", leap.text()),
            FvForm::LeapPromote(leap, list) => format!("{}p{}", leap.text(), targets(list)),
            FvForm::Capture(inner) => format!("c({})", inner.text(symbols)),
            FvForm::Quiet(inner) => format!("m({})", inner.text(symbols)),
            FvForm::Rank(inner, ranks, negated) => format!(
                "r{}({},{ranks})",
                if *negated { "!" } else { "" },
                inner.text(symbols)
            ),
            FvForm::Like(kind) => format!("\"{}\"", symbols[*kind]),
        }
    }

    /// Whether the form has a crooked rider (whose routes the model only
    /// follows a few squares, so it cannot prove a move impossible).
    fn crooked(&self, types: &[FvType]) -> bool {
        match self {
            FvForm::Crooked(..) => true,
            FvForm::Capture(inner) | FvForm::Quiet(inner) | FvForm::Rank(inner, ..) => {
                inner.crooked(types)
            }
            FvForm::Like(kind) => types[*kind].forms.iter().any(|f| f.crooked(types)),
            _ => false,
        }
    }

    /// Whether the form can promote.
    fn promotes(&self, types: &[FvType]) -> bool {
        match self {
            FvForm::Promote(..) | FvForm::LeapPromote(..) => true,
            FvForm::Capture(inner) | FvForm::Quiet(inner) | FvForm::Rank(inner, ..) => {
                inner.promotes(types)
            }
            FvForm::Like(kind) => types[*kind].forms.iter().any(|f| f.promotes(types)),
            _ => false,
        }
    }
}

/// A generated piece type.
#[derive(Clone, Debug)]
struct FvType {
    symbol: String,
    /// `None`: royal.
    value: Option<String>,
    forms: Vec<FvForm>,
}

impl FvType {
    fn definition(&self, symbols: &[String]) -> String {
        let forms: Vec<String> = self.forms.iter().map(|f| f.text(symbols)).collect();
        let notation = match forms.len() {
            0 => String::new(),
            1 => forms[0].clone(),
            _ => format!("{{{}}}", forms.join(",")),
        };
        match &self.value {
            Some(value) => format!("({} {value}): {notation}", self.symbol),
            None => format!("({}): {notation}", self.symbol),
        }
    }
}

/// A cell of the generator's model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FvCell {
    Empty,
    Hole,
    Piece(usize, bool),
}

/// What a path allows promoting to.
#[derive(Clone, Copy, Debug)]
enum FvPromo {
    No,
    Any,
    /// A bit per type index.
    Only(u64),
}

/// The conditions a path carries (from `c`, `m` and promotions).
#[derive(Clone, Copy, Debug)]
struct FvFlags {
    promo: FvPromo,
    must_capture: bool,
    no_capture: bool,
}

/// What receives the paths of a notation: the landing squares (and
/// whether the path takes with `x` there), and the path's conditions.
type FvPathSink<'a> = dyn FnMut(&[(usize, bool)], FvFlags) + 'a;

/// What a valid move does, as the model sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct FvEffect {
    /// Every landing square of the path (holes included).
    landings: Vec<usize>,
    /// The hole the piece falls into.
    fell: Option<usize>,
    /// Squares whose pieces are taken (by `x` or at the end).
    taken: Vec<usize>,
    /// Where the piece ends (when it does not fall).
    end: usize,
    /// Its type afterwards.
    kind: usize,
}

/// A planned move line.
#[derive(Clone, Debug)]
struct FvMove {
    kind: usize,
    white: bool,
    from: usize,
    to: usize,
    promote: Option<usize>,
    effect: FvEffect,
}

/// A piece making its way from its square to a hole.
#[derive(Clone, Debug)]
struct FvEpisode {
    white: bool,
    moves: Vec<FvMove>,
    /// How many of `moves` were written.
    done: usize,
    /// Squares kept free for it.
    reserved: Vec<usize>,
    /// Stack elements its last move (a fall) pops.
    need: i64,
}

/// A square that a `checks` line keeps filled: a piece that sets out from
/// it, or a piece that the other side takes there.
#[derive(Clone, Copy, Debug)]
struct FvHome {
    square: usize,
    kind: usize,
    white: bool,
    target: bool,
}

/// What a fall does to its side's stack: (elements needed, change).
fn fv_stack_action(action: i64) -> (i64, i64) {
    match action {
        0..=2 => (2, -1),
        3 => (0, 1),
        4 => (1, 0),
        _ => (1, -1),
    }
}

/// The generator's model of a program being written.
struct FvPlanner<'a> {
    random: &'a mut Random,
    rows: usize,
    cols: usize,
    types: Vec<FvType>,
    cells: Vec<FvCell>,
    homes: Vec<FvHome>,
    home_at: Vec<Option<usize>>,
    reserved: Vec<bool>,
    /// Stack depths, White's first.
    depth: [i64; 2],
    /// Elements that planned falls will pop.
    pending: [i64; 2],
    episodes: Vec<FvEpisode>,
    /// Move line texts (after `Turn N C: `) in order.
    lines: Vec<String>,
    /// What the plan expects of each line (see [`FinvaraRun::expected`]).
    expected: String,
    /// Royal squares by side (kings stay put).
    royals: [usize; 2],
    /// Reads from the input planned (falls with action 3).
    reads: u64,
    /// Pieces left off their homes by a route given up.
    strays: Vec<usize>,
    /// Each side's shuttle, if it has one.
    shuttles: [Option<FvShuttle>; 2],
}

/// A piece that steps between two squares kept for it: what a side does
/// when it has nothing else to do.
#[derive(Clone, Copy, Debug)]
struct FvShuttle {
    kind: usize,
    home_square: usize,
    away: usize,
    /// On `home_square` (else on `away`).
    home: bool,
}

fn side(white: bool) -> usize {
    usize::from(!white)
}

impl FvPlanner<'_> {
    fn square(&self, square: usize) -> String {
        finvara_square(square / self.cols, square % self.cols)
    }

    /// The square `vector` (owner's forward, right) from `square`.
    fn step(&self, square: usize, white: bool, (forward, right): (i64, i64)) -> Option<usize> {
        let (dr, dc) = if white {
            (forward, right)
        } else {
            (-forward, -right)
        };
        let row = (square / self.cols) as i64 + dr;
        let col = (square % self.cols) as i64 + dc;
        (row >= 0 && col >= 0 && row < self.rows as i64 && col < self.cols as i64)
            .then(|| row as usize * self.cols + col as usize)
    }

    /// `square`'s rank for its owner (1 = the owner's first row).
    fn rank(&self, square: usize, white: bool) -> i64 {
        let row = (square / self.cols) as i64;
        if white {
            row + 1
        } else {
            self.rows as i64 - row
        }
    }

    /// Whether rank `rank` is in the ranks written `text` (`2`, `-1`,
    /// `[1,3]`…), as the spec resolves them.
    fn in_ranks(&self, text: &str, rank: i64) -> bool {
        let resolve = |n: i64| if n < 0 { self.rows as i64 + n + 1 } else { n };
        let numbers: Vec<i64> = text
            .trim_matches(|c| c == '[' || c == ']')
            .split(',')
            .map(|n| n.parse().expect("generated ranks are numbers"))
            .collect();
        let (a, b) = (resolve(numbers[0]), resolve(*numbers.last().unwrap()));
        if numbers.len() == 1 && a == 0 {
            return false;
        }
        a.min(b) <= rank && rank <= a.max(b)
    }

    /// Calls `out` with every path of `form` for a piece of `white` on
    /// `from`, in notation order, as landing squares (and whether the path
    /// takes with `x` there). Crooked riders go at most 8 squares away.
    #[allow(clippy::too_many_arguments)]
    fn paths(
        &self,
        form: &FvForm,
        cells: &[FvCell],
        white: bool,
        from: usize,
        flags: FvFlags,
        buffer: &mut Vec<(usize, bool)>,
        out: &mut FvPathSink,
    ) {
        match form {
            FvForm::Leap(FvLeap(a, b, dirs)) => {
                for v in fv_vectors(*a, *b, dirs) {
                    if let Some(to) = self.step(from, white, v) {
                        out(&[(to, false)], flags);
                    }
                }
            }
            FvForm::Ride(FvLeap(a, b, dirs)) => {
                for v in fv_vectors(*a, *b, dirs) {
                    buffer.clear();
                    let mut at = from;
                    while let Some(to) = self.step(at, white, v) {
                        buffer.push((to, false));
                        out(buffer, flags);
                        if matches!(cells[to], FvCell::Piece(..)) {
                            break;
                        }
                        at = to;
                    }
                }
            }
            FvForm::Double(a, b) => {
                let vectors = fv_vectors(*a, *b, "");
                for &v in &vectors {
                    for &w in &vectors {
                        if (v.0 + w.0, v.1 + w.1) == (0, 0) {
                            continue;
                        }
                        buffer.clear();
                        let mut at = from;
                        while let Some(middle) = self.step(at, white, v) {
                            let Some(to) = self.step(middle, white, w) else {
                                break;
                            };
                            buffer.push((middle, false));
                            buffer.push((to, false));
                            out(buffer, flags);
                            if matches!(cells[middle], FvCell::Piece(..))
                                || matches!(cells[to], FvCell::Piece(..))
                            {
                                break;
                            }
                            at = to;
                        }
                    }
                }
            }
            FvForm::Crooked(a, b) => {
                let vectors = fv_vectors(*a, *b, "");
                let near = |s: usize| {
                    let (r, c) = (s / self.cols, s % self.cols);
                    let (fr, fc) = (from / self.cols, from % self.cols);
                    r.abs_diff(fr) <= 8 && c.abs_diff(fc) <= 8
                };
                let mut seen = vec![from];
                let mut ended = Vec::new();
                let mut next = 0;
                let mut queue = vec![from];
                while next < queue.len() {
                    let at = queue[next];
                    next += 1;
                    for &v in &vectors {
                        let Some(to) = self.step(at, white, v) else {
                            continue;
                        };
                        if to == from || !near(to) {
                            continue;
                        }
                        if !ended.contains(&to) {
                            ended.push(to);
                            out(&[(to, false)], flags);
                        }
                        if cells[to] == FvCell::Empty && !seen.contains(&to) {
                            seen.push(to);
                            queue.push(to);
                        }
                    }
                }
            }
            FvForm::Through(first, then) => {
                for v in fv_vectors(first.0, first.1, first.2) {
                    for w in fv_vectors(then.0, then.1, then.2) {
                        let Some(middle) = self.step(from, white, v) else {
                            continue;
                        };
                        if let Some(to) = self.step(middle, white, w) {
                            out(&[(middle, true), (to, false)], flags);
                        }
                    }
                }
            }
            FvForm::Promote(list, _) => {
                out(
                    &[],
                    FvFlags {
                        promo: promo_of(list),
                        ..flags
                    },
                );
            }
            FvForm::LeapPromote(FvLeap(a, b, dirs), list) => {
                for v in fv_vectors(*a, *b, dirs) {
                    if let Some(to) = self.step(from, white, v) {
                        out(
                            &[(to, false)],
                            FvFlags {
                                promo: promo_of(list),
                                ..flags
                            },
                        );
                    }
                }
            }
            FvForm::Capture(inner) => {
                let flags = FvFlags {
                    must_capture: true,
                    ..flags
                };
                self.paths(inner, cells, white, from, flags, buffer, out);
            }
            FvForm::Quiet(inner) => {
                let flags = FvFlags {
                    no_capture: true,
                    ..flags
                };
                self.paths(inner, cells, white, from, flags, buffer, out);
            }
            FvForm::Rank(inner, ranks, negated) => {
                if self.in_ranks(ranks, self.rank(from, white)) != *negated {
                    self.paths(inner, cells, white, from, flags, buffer, out);
                }
            }
            FvForm::Like(kind) => {
                for form in &self.types[*kind].forms {
                    self.paths(form, cells, white, from, flags, buffer, out);
                }
            }
        }
    }

    /// The effect of `path` for a piece of `kind` and `white` on `from`
    /// promoting to `promote`, if the path is legal on `cells` (the check
    /// rule aside: kings are out of reach).
    #[allow(clippy::too_many_arguments)]
    fn legal(
        &self,
        cells: &[FvCell],
        kind: usize,
        white: bool,
        from: usize,
        path: &[(usize, bool)],
        flags: FvFlags,
        promote: Option<usize>,
    ) -> Option<FvEffect> {
        let new_kind = match (flags.promo, promote) {
            (FvPromo::No, None) => kind,
            (FvPromo::Any, Some(p)) if p != kind => p,
            (FvPromo::Only(mask), Some(p)) if mask & (1 << p) != 0 => p,
            _ => return None,
        };
        let mut taken = Vec::new();
        let mut fell = None;
        let last = path.len().checked_sub(1);
        let mut ends_taking = false;
        for (i, &(square, x)) in path.iter().enumerate() {
            let cell = if taken.contains(&square) {
                FvCell::Empty
            } else {
                cells[square]
            };
            let enemy = matches!(cell, FvCell::Piece(_, w) if w != white);
            if x {
                if !enemy {
                    return None;
                }
                if fell.is_none() {
                    taken.push(square);
                }
                continue;
            }
            if Some(i) == last {
                if matches!(cell, FvCell::Piece(_, w) if w == white) {
                    return None;
                }
                ends_taking = enemy;
            } else if matches!(cell, FvCell::Piece(..)) {
                return None;
            }
            if cell == FvCell::Hole && fell.is_none() {
                fell = Some(square);
            }
        }
        let took = path.iter().any(|&(_, x)| x) || ends_taking;
        if flags.must_capture && !ends_taking || flags.no_capture && took {
            return None;
        }
        let end = path.last().map_or(from, |&(s, _)| s);
        if fell.is_none() && ends_taking {
            taken.push(end);
        }
        Some(FvEffect {
            landings: path.iter().map(|&(s, _)| s).collect(),
            fell,
            taken,
            end,
            kind: new_kind,
        })
    }

    /// Every move a piece of `kind` and `white` on `from` can make on
    /// `cells`: (TO, promotion, effect) for the first legal path to each.
    fn moves(&self, cells: &[FvCell], kind: usize, white: bool, from: usize) -> Vec<FvMove> {
        let mut found: Vec<FvMove> = Vec::new();
        let mut buffer = Vec::new();
        let flags = FvFlags {
            promo: FvPromo::No,
            must_capture: false,
            no_capture: false,
        };
        let others: Vec<usize> = (0..self.types.len())
            .filter(|&t| t != kind && self.types[t].value.is_some())
            .collect();
        for form in &self.types[kind].forms {
            self.paths(
                form,
                cells,
                white,
                from,
                flags,
                &mut buffer,
                &mut |path, flags| {
                    let to = path.last().map_or(from, |&(s, _)| s);
                    let promotions: Vec<Option<usize>> = match flags.promo {
                        FvPromo::No => vec![None],
                        FvPromo::Any => others.iter().map(|&t| Some(t)).collect(),
                        FvPromo::Only(mask) => {
                            (0..64).filter(|t| mask & (1 << t) != 0).map(Some).collect()
                        }
                    };
                    for promote in promotions {
                        if found.iter().any(|m| m.to == to && m.promote == promote) {
                            continue;
                        }
                        if let Some(effect) =
                            self.legal(cells, kind, white, from, path, flags, promote)
                        {
                            found.push(FvMove {
                                kind,
                                white,
                                from,
                                to,
                                promote,
                                effect,
                            });
                        }
                    }
                },
            );
        }
        found
    }

    /// The move `kind` of `white` from `from` to `to` makes on the current
    /// board, if it is valid there.
    fn resolve(
        &self,
        kind: usize,
        white: bool,
        from: usize,
        to: usize,
        promote: Option<usize>,
    ) -> Option<FvEffect> {
        if self.cells[from] != FvCell::Piece(kind, white) {
            return None;
        }
        self.moves(&self.cells, kind, white, from)
            .into_iter()
            .find(|m| m.to == to && m.promote == promote)
            .map(|m| m.effect)
    }

    /// The stack action (0 to 5) of `kind` falling into `hole`; `None`
    /// for a royal piece.
    fn action(&self, kind: usize, hole: usize) -> Option<i64> {
        let value = match self.types[kind].value.as_deref()? {
            "x" => (hole % self.cols + 1) as i64,
            "y" => (hole / self.cols + 1) as i64,
            n => n.parse().expect("generated values are numbers"),
        };
        Some(value.rem_euclid(6))
    }

    /// Whether a planned route may use `square` (not kept for another
    /// route, not a square `checks` lines fill).
    fn free_for_route(&self, square: usize) -> bool {
        !self.reserved[square] && self.home_at[square].is_none()
    }

    /// Whether `m` may be a step of a new route: it lands only on free
    /// squares (or holes), and takes only pieces of the other side's
    /// target homes.
    fn route_step_ok(&self, cells: &[FvCell], m: &FvMove) -> bool {
        let landings_ok = m.effect.landings.iter().all(|&s| {
            cells[s] == FvCell::Hole
                || self.free_for_route(s)
                || (m.effect.taken.contains(&s) && !self.reserved[s])
        });
        let takes_ok = m.effect.taken.iter().all(|&s| {
            self.home_at[s].is_some_and(|h| self.homes[h].target && self.homes[h].white != m.white)
        });
        // A move that stays on its square only promotes; not on a home.
        let stays_ok = m.effect.end != m.from || self.home_at[m.from].is_none();
        landings_ok && takes_ok && stays_ok
    }

    /// Plans a route for the piece on `from` ending in a fall whose stack
    /// action the stack can afford; `read` asks for an action 3 (a push),
    /// `take` for a route that takes a piece of the other side.
    fn plan_route(&mut self, from: usize, read: bool, take: bool) -> Option<FvEpisode> {
        let FvCell::Piece(kind, white) = self.cells[from] else {
            return None;
        };
        let budget = self.depth[side(white)] - self.pending[side(white)];
        for _ in 0..6 {
            let legs = *self.random.pick(&[1, 2, 2, 3, 3, 4]);
            let mut cells = self.cells.clone();
            let (mut at, mut kind) = (from, kind);
            let mut route: Vec<FvMove> = Vec::new();
            let mut need = 0;
            for leg in 0..legs + 1 {
                let moves: Vec<FvMove> = self
                    .moves(&cells, kind, white, at)
                    .into_iter()
                    .filter(|m| self.route_step_ok(&cells, m))
                    .filter(|m| {
                        m.effect
                            .landings
                            .iter()
                            .all(|s| !route.iter().any(|r| r.effect.landings.contains(s)))
                    })
                    .collect();
                let falls: Vec<&FvMove> = moves
                    .iter()
                    .filter(|m| {
                        let Some(hole) = m.effect.fell else {
                            return false;
                        };
                        // A piece that falls does not promote: its own value acts.
                        let Some(action) = self.action(kind, hole) else {
                            return false;
                        };
                        let (needs, _) = fv_stack_action(action);
                        (!read || action == 3) && (needs == 0 || budget - needs >= 1)
                    })
                    .filter(|_| !take || route.iter().any(|r| !r.effect.taken.is_empty()))
                    .collect();
                let walks: Vec<&FvMove> =
                    moves.iter().filter(|m| m.effect.fell.is_none()).collect();
                if (leg + 1 >= legs || walks.is_empty()) && !falls.is_empty() {
                    let fall = (*self.random.pick(&falls)).clone();
                    need = fv_stack_action(self.action(kind, fall.effect.fell.unwrap()).unwrap()).0;
                    route.push(fall);
                    break;
                }
                if leg == legs || walks.is_empty() {
                    break;
                }
                // Prefer taking when asked to.
                let taking: Vec<&FvMove> = walks
                    .iter()
                    .copied()
                    .filter(|m| !m.effect.taken.is_empty())
                    .collect();
                let walk = if take && !taking.is_empty() {
                    (*self.random.pick(&taking)).clone()
                } else {
                    (*self.random.pick(&walks)).clone()
                };
                apply_effect(&mut cells, &walk, &mut [0, 0], None);
                at = walk.effect.end;
                kind = walk.effect.kind;
                route.push(walk);
            }
            if route.last().is_some_and(|m| m.effect.fell.is_some()) {
                let mut reserved = Vec::new();
                for m in &route {
                    for &s in &m.effect.landings {
                        if self.cells[s] != FvCell::Hole && !reserved.contains(&s) {
                            reserved.push(s);
                        }
                    }
                }
                for &s in &reserved {
                    self.reserved[s] = true;
                }
                self.pending[side(white)] += need;
                return Some(FvEpisode {
                    white,
                    moves: route,
                    done: 0,
                    reserved,
                    need,
                });
            }
        }
        None
    }

    /// The text of a planned move.
    fn move_text(&self, m: &FvMove) -> String {
        let promote = m
            .promote
            .map_or(String::new(), |p| format!(" = {}", self.types[p].symbol));
        format!(
            "{} {} -> {}{promote}",
            self.types[m.kind].symbol,
            self.square(m.from),
            self.square(m.to)
        )
    }

    /// Turn number and colour of the next line.
    fn next_turn(&self) -> (usize, bool) {
        (self.lines.len() / 2 + 1, self.lines.len().is_multiple_of(2))
    }

    /// A `checks` line of the colour whose line is next: places `kind` on
    /// `square` if empty and goes on with the next turn. A White line
    /// jumps over Black's line of its turn: that one is written too (a
    /// Black `checks` line, run only after a skip).
    fn checks(&mut self, kind: usize, square: usize) {
        let (turn, white) = self.next_turn();
        if self.cells[square] == FvCell::Empty {
            self.cells[square] = FvCell::Piece(kind, white);
        }
        let text = format!(
            "{} {} checks turn {}",
            self.types[kind].symbol,
            self.square(square),
            turn + 1
        );
        self.write(text, 'c');
        if white {
            let text = format!("k {} checks turn {}", self.square(self.royals[1]), turn + 1);
            self.write(text, 'd');
        }
    }

    /// A `checks` line that places nothing: on the mover's king. (On a
    /// White line it jumps over Black's.)
    fn pass(&mut self) {
        let (_, white) = self.next_turn();
        self.checks(0, self.royals[side(white)]);
    }

    /// A line for a side with nothing to do: its shuttle steps over and
    /// back (valid moves that leave the board as it was two moves later);
    /// without a shuttle, Black passes and White makes an invalid move
    /// (a White `checks` line would take Black's line away).
    fn neutral(&mut self) {
        let (_, white) = self.next_turn();
        match self.shuttles[side(white)] {
            Some(_) => self.shuttle(white),
            None if white => self.safe_invalid(),
            None => self.pass(),
        }
    }

    /// Moves `white`'s shuttle to its other square.
    fn shuttle(&mut self, white: bool) {
        let Some(shuttle) = self.shuttles[side(white)].as_mut() else {
            return;
        };
        let (from, to) = if shuttle.home {
            (shuttle.home_square, shuttle.away)
        } else {
            (shuttle.away, shuttle.home_square)
        };
        shuttle.home = !shuttle.home;
        let kind = shuttle.kind;
        self.cells[from] = FvCell::Empty;
        self.cells[to] = FvCell::Piece(kind, white);
        let text = format!(
            "{} {} -> {}",
            self.types[kind].symbol,
            self.square(from),
            self.square(to)
        );
        self.write(text, 'v');
    }

    /// Whether `white`'s shuttle is away from its home square.
    fn shuttle_away(&self, white: bool) -> bool {
        self.shuttles[side(white)].is_some_and(|s| !s.home)
    }

    /// A move line that is invalid whatever the board (or, for the last
    /// kind, invalid on the planned board).
    fn invalid(&mut self) {
        let (_, white) = self.next_turn();
        let movers: Vec<FvHome> = self
            .homes
            .iter()
            .filter(|h| h.white == white && !h.target)
            .copied()
            .collect();
        let any_square = |p: &mut Self| p.random.below((p.rows * p.cols) as u64) as usize;
        let kinds = self.types.len();
        let line = match self.random.below(7) {
            // From a hole.
            0 => {
                let holes: Vec<usize> = (0..self.cells.len())
                    .filter(|&s| self.cells[s] == FvCell::Hole)
                    .collect();
                let hole = *self.random.pick(&holes);
                let kind = self.random.between(1, kinds as i64 - 1) as usize;
                let to = any_square(self);
                format!(
                    "{} {} -> {}",
                    self.types[kind].symbol,
                    self.square(hole),
                    self.square(to)
                )
            }
            // The wrong symbol on the own king, or the other side's king.
            1 | 2 => {
                let (kind, at) = if self.random.below(2) == 0 {
                    (
                        self.random.between(1, kinds as i64 - 1) as usize,
                        self.royals[side(white)],
                    )
                } else {
                    (0, self.royals[side(!white)])
                };
                let to = any_square(self);
                format!(
                    "{} {} -> {}",
                    self.types[kind].symbol,
                    self.square(at),
                    self.square(to)
                )
            }
            // Onto the own king, or nowhere (TO = FROM, no promotion).
            3 | 4 if !movers.is_empty() => {
                let home = *self.random.pick(&movers);
                let to = if self.random.below(2) == 0 {
                    self.royals[side(white)]
                } else {
                    home.square
                };
                format!(
                    "{} {} -> {}",
                    self.types[home.kind].symbol,
                    self.square(home.square),
                    self.square(to)
                )
            }
            // A promotion the piece cannot make.
            5 if !movers.is_empty() => {
                let home = *self.random.pick(&movers);
                let promotes = self.types[home.kind]
                    .forms
                    .iter()
                    .any(|f| f.promotes(&self.types));
                let to = any_square(self);
                let target = self.random.between(1, kinds as i64 - 1) as usize;
                if promotes {
                    format!(
                        "{} {} -> {}",
                        self.types[home.kind].symbol,
                        self.square(home.square),
                        self.square(home.square)
                    )
                } else {
                    format!(
                        "{} {} -> {} = {}",
                        self.types[home.kind].symbol,
                        self.square(home.square),
                        self.square(to),
                        self.types[target].symbol
                    )
                }
            }
            // A square off the piece's lines, or blocked, on the board as
            // planned (only for pieces whose every move the model follows).
            _ => {
                let plain: Vec<FvHome> = movers
                    .iter()
                    .filter(|h| {
                        self.cells[h.square] == FvCell::Piece(h.kind, h.white)
                            && !self.types[h.kind]
                                .forms
                                .iter()
                                .any(|f| f.crooked(&self.types))
                    })
                    .copied()
                    .collect();
                let mut line = None;
                if !plain.is_empty() {
                    let home = *self.random.pick(&plain);
                    for _ in 0..10 {
                        let to = any_square(self);
                        if to != home.square
                            && self
                                .resolve(home.kind, white, home.square, to, None)
                                .is_none()
                        {
                            line = Some(format!(
                                "{} {} -> {}",
                                self.types[home.kind].symbol,
                                self.square(home.square),
                                self.square(to)
                            ));
                            break;
                        }
                    }
                }
                line.unwrap_or_else(|| {
                    format!(
                        "{} {} -> {}",
                        self.types[0].symbol,
                        self.square(self.royals[side(!white)]),
                        self.square(self.royals[side(white)])
                    )
                })
            }
        };
        self.write(line, 'i');
    }

    /// An invalid move followed by a pass: whether or not the pass is
    /// skipped, the next line run is the same.
    fn safe_invalid(&mut self) {
        self.invalid();
        self.pass();
    }

    /// Writes a line and what the plan expects of it.
    fn write(&mut self, text: String, expected: char) {
        self.lines.push(text);
        self.expected.push(expected);
    }

    /// Writes the next move of `episode` (on the current board) and
    /// applies it; drops the episode when it ends (a piece it leaves off
    /// its home becomes a stray). Returns false if the move cannot be
    /// written now (its fall needs stack elements that are not there yet).
    fn advance(&mut self, episode: usize) -> bool {
        let e = &self.episodes[episode];
        let planned = e.moves[e.done].clone();
        let effect = self.resolve(
            planned.kind,
            planned.white,
            planned.from,
            planned.to,
            planned.promote,
        );
        let white = planned.white;
        if let Some(hole) = effect.as_ref().and_then(|e| e.fell) {
            let (needs, _) = fv_stack_action(self.action(planned.kind, hole).unwrap_or(3));
            if needs > 0 && self.depth[side(white)] < needs + 1 {
                return false;
            }
        }
        self.write(
            self.move_text(&planned),
            if effect.is_some() { 'v' } else { 'i' },
        );
        let (ended, left_on) = match effect {
            Some(effect) => {
                let differs = effect != planned.effect;
                let actual = FvMove {
                    effect,
                    ..planned.clone()
                };
                let action = actual
                    .effect
                    .fell
                    .and_then(|hole| self.action(actual.kind, hole));
                if action == Some(3) {
                    self.reads += 1;
                }
                apply_effect(&mut self.cells, &actual, &mut self.depth, action);
                let e = &mut self.episodes[episode];
                e.done += 1;
                let ended = actual.effect.fell.is_some() || differs || e.done == e.moves.len();
                (
                    ended,
                    actual.effect.fell.is_none().then_some(actual.effect.end),
                )
            }
            // Invalid after all: the piece stays; give the route up.
            None => (true, Some(planned.from)),
        };
        if ended {
            let e = self.episodes.remove(episode);
            for s in e.reserved {
                self.reserved[s] = false;
            }
            self.pending[side(e.white)] -= e.need;
            if let Some(square) = left_on {
                if self.home_at[square].is_none() {
                    self.strays.push(square);
                }
            }
        }
        true
    }

    /// The homes of `white` that are empty and free (a `checks` line
    /// would fill them).
    fn empty_homes(&self, white: bool) -> Vec<usize> {
        (0..self.homes.len())
            .filter(|&h| {
                let home = self.homes[h];
                home.white == white
                    && self.cells[home.square] == FvCell::Empty
                    && !self.reserved[home.square]
            })
            .collect()
    }

    /// Starts a route for a piece of `white` on a mover home (`read`,
    /// `take`: see [`FvPlanner::plan_route`]) and writes its first move.
    fn start(&mut self, white: bool, read: bool, take: bool) -> bool {
        let mut ready: Vec<usize> = (0..self.homes.len())
            .filter(|&h| {
                let home = self.homes[h];
                home.white == white
                    && !home.target
                    && self.cells[home.square] == FvCell::Piece(home.kind, white)
                    && !self.reserved[home.square]
            })
            .collect();
        while !ready.is_empty() {
            let pick = self.random.below(ready.len() as u64) as usize;
            let home = self.homes[ready.swap_remove(pick)];
            if let Some(episode) = self.plan_route(home.square, read, take) {
                self.episodes.push(episode);
                return self.advance(self.episodes.len() - 1);
            }
        }
        false
    }

    /// Plans a route for a stray of `white` and writes its first move.
    fn rescue(&mut self, white: bool) -> bool {
        let strays: Vec<usize> = (0..self.strays.len())
            .filter(|&i| matches!(self.cells[self.strays[i]], FvCell::Piece(_, w) if w == white))
            .collect();
        for i in strays.into_iter().rev() {
            let square = self.strays.remove(i);
            if self.reserved[square] {
                continue;
            }
            if let Some(episode) = self.plan_route(square, false, false) {
                self.episodes.push(episode);
                return self.advance(self.episodes.len() - 1);
            }
            // Stuck for good: it stays where it is.
        }
        false
    }

    /// Writes lines: at least `min`, then (with `settle`) until every
    /// route has ended and every home is filled — the board is back where
    /// it was — and, with `balance`, until neither stack is shallower than
    /// there (or too many lines were tried).
    fn segment(&mut self, min: usize, settle: bool, balance: Option<[i64; 2]>) {
        let start = self.lines.len();
        loop {
            let (_, white) = self.next_turn();
            let written = self.lines.len() - start;
            let finishing = written >= min;
            if finishing {
                let settled = self.episodes.is_empty()
                    && self.empty_homes(true).is_empty()
                    && self.empty_homes(false).is_empty()
                    && !self.shuttle_away(true)
                    && !self.shuttle_away(false);
                let short = |s: usize| balance.is_some_and(|d| self.depth[s] < d[s]);
                let over = written - min;
                if !settle || settled && (!short(0) && !short(1) || over > 60) || over > 200 {
                    return;
                }
            }
            let own: Vec<usize> = (0..self.episodes.len())
                .filter(|&e| self.episodes[e].white == white)
                .collect();
            // (weight, activity): 0 advance, 1 start, 2 refill, 3 invalid,
            // 4 stray, 5 push own stack, 6 push the other's, 7 shuttle.
            let mut choices: Vec<(u64, u8)> = Vec::new();
            if !own.is_empty() {
                choices.push((6, 0));
            }
            if !finishing && own.len() < 2 {
                choices.push((4, 1));
            }
            if !self.empty_homes(white).is_empty() {
                choices.push((if finishing { 8 } else { 3 }, 2));
            }
            if !finishing {
                choices.push((1, 3));
            }
            if self.shuttles[side(white)].is_some() {
                let back = finishing && self.shuttle_away(white);
                choices.push((if back { 12 } else { 1 }, 7));
            }
            if self
                .strays
                .iter()
                .any(|&s| matches!(self.cells[s], FvCell::Piece(_, w) if w == white))
            {
                choices.push((3, 4));
            }
            if let (true, Some(d)) = (finishing, balance) {
                if self.depth[side(white)] < d[side(white)] && own.len() < 2 {
                    choices.push((4, 5));
                }
                if self.depth[side(!white)] < d[side(!white)] && own.len() < 2 {
                    choices.push((4, 6));
                }
            }
            let mut done = false;
            while !done && !choices.is_empty() {
                let total: u64 = choices.iter().map(|c| c.0).sum();
                let mut roll = self.random.below(total);
                let mut index = 0;
                while roll >= choices[index].0 {
                    roll -= choices[index].0;
                    index += 1;
                }
                let (_, activity) = choices.swap_remove(index);
                done = match activity {
                    0 => own.iter().rev().any(|&e| self.advance(e)),
                    1 => self.start(white, false, false),
                    2 => {
                        let homes = self.empty_homes(white);
                        let home = self.homes[*self.random.pick(&homes)];
                        self.checks(home.kind, home.square);
                        true
                    }
                    // An invalid move; one whose pass may be skipped
                    // (changing the course) only while a stack has
                    // something that may not be 0 on top.
                    3 => {
                        if self.depth == [0, 0] || self.random.below(10) < 6 {
                            self.safe_invalid();
                        } else {
                            self.invalid();
                        }
                        true
                    }
                    4 => self.rescue(white),
                    5 => self.start(white, true, false),
                    7 => {
                        self.shuttle(white);
                        true
                    }
                    6 => self.start(white, false, true),
                    _ => unreachable!("activities are 0 to 7"),
                };
            }
            if !done {
                self.neutral();
            }
        }
    }
}

/// The promotions a `->[…]` list allows (`p` alone: any other type).
fn promo_of(list: &[usize]) -> FvPromo {
    if list.is_empty() {
        FvPromo::Any
    } else {
        FvPromo::Only(list.iter().fold(0, |mask, &t| mask | 1 << t))
    }
}

/// Applies a move's effect to a model board and the stack depths (`action`:
/// the stack action of its fall).
fn apply_effect(cells: &mut [FvCell], m: &FvMove, depth: &mut [i64; 2], action: Option<i64>) {
    cells[m.from] = FvCell::Empty;
    for &square in &m.effect.taken {
        if let FvCell::Piece(_, white) = cells[square] {
            depth[side(white)] += 1;
        }
        cells[square] = FvCell::Empty;
    }
    match m.effect.fell {
        Some(_) => {
            if let Some(action) = action {
                depth[side(m.white)] += fv_stack_action(action).1;
            }
        }
        None => cells[m.effect.end] = FvCell::Piece(m.effect.kind, m.white),
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

/// A random Finvara program that runs: boards from 4×4 to 64×64 with
/// holes, piece types of every kind of notation (leapers, riders, `[..]*`
/// riders, compounds, `c`/`m`/`r`/`r!`, crooked riders, `"s"`, `x`,
/// promotions), royal pieces on both sides, and a loop whose moves stay
/// valid pass after pass (see the comment above [`FV_CORPUS_LEN`]); with
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
    let mut types = vec![FvType {
        symbol: "k".to_string(),
        value: None,
        forms: vec![
            FvForm::Leap(FvLeap(1, 0, "")),
            FvForm::Leap(FvLeap(1, 1, "")),
        ],
    }];
    let second_royal = big && random.below(10) < 3;
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
            forms.insert(0, FvForm::Ride(fv_random_leap(random, small, true)));
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
    let mut planner = FvPlanner {
        random,
        rows,
        cols,
        types,
        cells: vec![FvCell::Empty; rows * cols],
        homes: Vec::new(),
        home_at: vec![None; rows * cols],
        reserved: vec![false; rows * cols],
        depth: [0, 0],
        pending: [0, 0],
        episodes: Vec::new(),
        lines: Vec::new(),
        expected: String::new(),
        royals: [0, 0],
        reads: 0,
        strays: Vec::new(),
        shuttles: [None, None],
    };
    let p = &mut planner;
    let at = |row: usize, col: usize| row * cols + col;
    // Kings in opposite corners, each behind `ring` rings of holes.
    let (white_king, black_king, others) = if rows >= 2 * (ring + 1) {
        let (wc, bc) = if p.random.below(2) == 0 {
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
        let (wr, br) = if p.random.below(2) == 0 {
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
    p.royals = [white_king, black_king];
    let mut royal_squares = vec![(white_king, 0, true), (black_king, 0, false)];
    if second_royal {
        royal_squares.push((others[0], 1, true));
        royal_squares.push((others[1], 1, false));
    }
    for &(square, kind, white) in &royal_squares {
        let (row, col) = (square / cols, square % cols);
        for r in row.saturating_sub(ring)..=(row + ring).min(rows - 1) {
            for c in col.saturating_sub(ring)..=(col + ring).min(cols - 1) {
                p.cells[at(r, c)] = FvCell::Hole;
            }
        }
        p.cells[square] = FvCell::Piece(kind, white);
    }
    // Sometimes a gap in a ring: that king can be reached.
    if p.random.below(100) < 15 {
        let king = if p.random.below(2) == 0 {
            white_king
        } else {
            black_king
        };
        let (row, col) = (king / cols, king % cols);
        let gaps: Vec<usize> = (0..rows * cols)
            .filter(|&s| {
                p.cells[s] == FvCell::Hole
                    && (s / cols).abs_diff(row) <= ring
                    && (s % cols).abs_diff(col) <= ring
            })
            .collect();
        let gap = *p.random.pick(&gaps);
        p.cells[gap] = FvCell::Empty;
    }
    let area = rows * cols;
    // Squares to place things on (the smallest boards have few).
    let empty_square = |p: &mut FvPlanner| {
        let free: Vec<usize> = (0..area)
            .filter(|&s| p.cells[s] == FvCell::Empty && p.home_at[s].is_none() && !p.reserved[s])
            .collect();
        (!free.is_empty()).then(|| *p.random.pick(&free))
    };
    let free = p.cells.iter().filter(|&&c| c == FvCell::Empty).count();
    for _ in 0..(p.random.between(1, 3) as usize + area / 80)
        .min(40)
        .min(free / 16)
    {
        if let Some(s) = empty_square(p) {
            p.cells[s] = FvCell::Hole;
        }
    }
    let plain: Vec<usize> = (first_plain..p.types.len()).collect();
    let movers = (p.random.between(2, 3 + (area / 150).min(7) as i64) as usize).min(free / 5);
    for white in [true, false] {
        for m in 0..movers.max(1) {
            let Some(s) = empty_square(p) else { break };
            let kind = if m == 0 {
                reader
            } else {
                *p.random.pick(&plain)
            };
            p.cells[s] = FvCell::Piece(kind, white);
            p.home_at[s] = Some(p.homes.len());
            p.homes.push(FvHome {
                square: s,
                kind,
                white,
                target: false,
            });
        }
    }
    // Targets, most where an enemy mover can reach them in one move.
    for white in [true, false] {
        for _ in 0..p.random.between(1, 3).min((free as i64 / 8).max(1)) {
            let enemies: Vec<FvHome> = p
                .homes
                .iter()
                .filter(|h| h.white != white && !h.target)
                .copied()
                .collect();
            if enemies.is_empty() {
                break;
            }
            let enemy = *p.random.pick(&enemies);
            let reach: Vec<usize> = p
                .moves(&p.cells, enemy.kind, enemy.white, enemy.square)
                .iter()
                .filter(|m| {
                    m.effect.fell.is_none()
                        && m.effect.taken.is_empty()
                        && m.effect.end != m.from
                        && p.cells[m.effect.end] == FvCell::Empty
                        && p.home_at[m.effect.end].is_none()
                })
                .map(|m| m.effect.end)
                .collect();
            let s = if reach.is_empty() || p.random.below(10) < 3 {
                match empty_square(p) {
                    Some(s) => s,
                    None => break,
                }
            } else {
                *p.random.pick(&reach)
            };
            let kind = *p.random.pick(&plain);
            p.cells[s] = FvCell::Piece(kind, white);
            p.home_at[s] = Some(p.homes.len());
            p.homes.push(FvHome {
                square: s,
                kind,
                white,
                target: true,
            });
        }
    }
    // Walls: pieces that never move (riders stop at them).
    for _ in 0..p.random.between(0, (area / 60).min(8) as i64) {
        let Some(s) = empty_square(p) else { break };
        let kind = *p.random.pick(&plain);
        let white = p.random.below(2) == 0;
        p.cells[s] = FvCell::Piece(kind, white);
    }
    // A shuttle for each side: a piece with a square it can step to and
    // back from, both kept free of routes.
    for white in [true, false] {
        for _ in 0..20 {
            let Some(home) = empty_square(p) else { break };
            let kind = *p.random.pick(&plain);
            p.cells[home] = FvCell::Piece(kind, white);
            let quiet = |m: &FvMove| {
                m.effect.fell.is_none()
                    && m.effect.taken.is_empty()
                    && m.effect.end != m.from
                    && m.promote.is_none()
            };
            let aways: Vec<usize> = p
                .moves(&p.cells, kind, white, home)
                .iter()
                .filter(|m| quiet(m) && p.home_at[m.to].is_none() && !p.reserved[m.to])
                .map(|m| m.to)
                .filter(|&away| {
                    let mut cells = p.cells.clone();
                    cells[home] = FvCell::Empty;
                    cells[away] = FvCell::Piece(kind, white);
                    p.moves(&cells, kind, white, away)
                        .iter()
                        .any(|m| m.to == home && quiet(m))
                })
                .collect();
            if aways.is_empty() {
                p.cells[home] = FvCell::Empty;
                continue;
            }
            let away = *p.random.pick(&aways);
            p.reserved[home] = true;
            p.reserved[away] = true;
            p.shuttles[side(white)] = Some(FvShuttle {
                kind,
                home_square: home,
                away,
                home: true,
            });
            break;
        }
    }
    // A hole within one move of every mover (and often a second).
    for h in 0..p.homes.len() {
        let home = p.homes[h];
        if home.target {
            continue;
        }
        let moves = p.moves(&p.cells, home.kind, home.white, home.square);
        let falls = moves.iter().any(|m| m.effect.fell.is_some());
        let ends: Vec<usize> = moves
            .iter()
            .filter(|m| m.effect.fell.is_none() && m.effect.taken.is_empty())
            .map(|m| m.effect.end)
            .filter(|&s| p.cells[s] == FvCell::Empty && p.home_at[s].is_none() && !p.reserved[s])
            .collect();
        if !ends.is_empty() && (!falls || p.random.below(2) == 0) {
            let s = *p.random.pick(&ends);
            p.cells[s] = FvCell::Hole;
        }
    }
    let mut board = vec![vec![String::from("  "); cols]; rows];
    for (s, cell) in p.cells.iter().enumerate() {
        board[s / cols][s % cols] = match *cell {
            FvCell::Empty => "  ".to_string(),
            FvCell::Hole => "##".to_string(),
            FvCell::Piece(kind, white) => {
                format!("{}{}", p.types[kind].symbol, if white { 'W' } else { 'B' })
            }
        };
    }
    // The prologue fills the stacks a little; the body is the loop.
    let prologue = p.random.between(2, 10) as usize;
    p.segment(prologue, true, None);
    if p.lines.len() % 2 == 1 {
        p.pass();
    }
    let reads_before = p.reads;
    let loop_start = p.lines.len();
    let loop_turn = loop_start / 2 + 1;
    let body = p.random.between(14, 80) as usize;
    let depth = p.depth;
    p.segment(body, true, Some(depth));
    // Halting programs leave the loop when both stacks are empty or have
    // 0 on top at its end (an invalid move there skips the jump back).
    let gated = p.random.below(4) == 0;
    if gated {
        p.invalid();
    } else {
        if !p.expected.ends_with('c') {
            p.pass();
        }
        if p.lines.len() % 2 == 1 {
            p.pass();
        }
    }
    let (_, white) = p.next_turn();
    let royal = p.royals[side(white)];
    let back = format!("k {} checks turn {loop_turn}", p.square(royal));
    p.write(back, 'c');
    let body_lines = p.lines.len() - loop_start;
    let reads_in_loop = p.reads - reads_before;
    if gated {
        let epilogue = p.random.between(1, 6) as usize;
        p.segment(epilogue, false, None);
        // `checks` lines at the end go on with a turn that must exist.
        while p.lines.len().is_multiple_of(2) && p.expected.ends_with(['c', 'd']) {
            p.invalid();
        }
    }
    let reads_before_loop = reads_before;
    let max_steps = match p.random.below(3) {
        _ if heavy => p.random.between(1_000, 5_000),
        0 => p.random.between(5_000, 20_000),
        1 => p.random.between(20_000, 60_000),
        _ => p.random.between(60_000, 200_000),
    } as u64;
    let passes = max_steps / body_lines as u64 + 1;
    let numbers = reads_before_loop
        + match (reads_in_loop, p.random.below(3)) {
            (0, _) => p.random.between(0, 3) as u64,
            (n, 0) => {
                n * p
                    .random
                    .between((passes / 10).max(1) as i64, (passes / 2).max(1) as i64)
                    as u64
            }
            (n, _) => n * passes * 5 / 4 + 8,
        }
        .min(40_000);
    let mut input = String::new();
    for i in 0..numbers {
        input.push_str(&fv_input_number(p.random));
        input.push(if i % 16 == 15 { '\n' } else { ' ' });
    }
    if p.random.below(10) == 0 {
        let last: [&str; 4] = ["x", "1.5", "-", "+7x"];
        let last: &&str = p.random.pick(&last);
        input.push_str(last);
    }
    input.push('\n');
    let mut source =
        format!("# A running Finvara program: {rows}x{cols} board, loop from turn {loop_turn}\n");
    let symbols: Vec<String> = p.types.iter().map(|t| t.symbol.clone()).collect();
    for t in &p.types {
        source.push_str(&t.definition(&symbols));
        source.push('\n');
    }
    source.push('\n');
    source.push_str(&finvara_board(&board));
    source.push('\n');
    for (i, line) in p.lines.iter().enumerate() {
        let colour = if i % 2 == 0 { 'W' } else { 'B' };
        source.push_str(&format!("Turn {} {colour}: {line}\n", i / 2 + 1));
    }
    FinvaraRun {
        source,
        input,
        max_steps,
        expected: planner.expected,
    }
}
