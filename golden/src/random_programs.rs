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

/// A random Chess Code program with nested do-while loops.
pub fn chess_code(random: &mut Random) -> String {
    let mut text = String::new();
    chess_code_block(random, 0, &mut text);
    text
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

/// A random BTM listing: rules over small states and symbols, a tape.
pub fn btm(random: &mut Random) -> String {
    let mut text = String::new();
    let bits = |value: i64| format!("1{value:b}");
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
