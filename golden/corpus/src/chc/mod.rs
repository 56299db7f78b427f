//! Chess Code programs: random ones ([`chess_code`] and its variants, for
//! the agreement test), and the corpus ([`chess_code_corpus`]: nests of
//! loops whose trip counts the generator fixes).

mod corpus;

pub use corpus::chess_code_corpus;

use crate::Random;

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
