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
            // A piece stepping until it is blocked: a loop.
            8 => format!(
                "{name};{},{}?{label}",
                random.between(-1, 1),
                random.between(-1, 1)
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
/// or (half the time) a machine whose states mostly keep themselves while
/// moving one way, which generated code turns into scans and sweeps.
pub fn btm(random: &mut Random) -> String {
    if random.below(2) == 0 {
        return btm_scanning(random);
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
                finvara_leap(a, b, *random.pick(&["", "", "", "^", "v", "<>", "^>"]))
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
