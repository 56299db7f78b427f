//! Finvara programs: random ones ([`finvara`]: random piece types, a small
//! board and move lines, which mostly halt after a few lines), and
//! programs that run ([`finvara_running`]; the corpus, [`finvara_corpus`]),
//! planned on a model of the board so that their moves stay valid pass
//! after pass.

mod model;
mod moves;
mod planner;
mod running;

pub use running::{finvara_corpus, finvara_running, FinvaraRun, FV_CORPUS_LEN, FV_CORPUS_SHARE};

use crate::Random;

/// A Finvara piece value as the random programs draw it: `x`, `y` or a
/// small number (every stack action, modulo 6, and negative ones).
pub fn finvara_value(random: &mut Random) -> String {
    match random.below(8) {
        0 => "x".to_string(),
        1 => "y".to_string(),
        _ => random.between(-2, 7).to_string(),
    }
}

/// The eight leaps of `(a,b)` by symmetry, as (forward, right) in the
/// owner's coordinates, in the order the project documents (some may be
/// equal, or `(0,0)`).
pub fn leap_symmetries(a: i64, b: i64) -> [(i64, i64); 8] {
    let mut leaps = [(0, 0); 8];
    for (index, (first, second)) in [(1, 1), (1, -1), (-1, 1), (-1, -1)].into_iter().enumerate() {
        leaps[index] = (first * a, second * b);
        leaps[index + 4] = (first * b, second * a);
    }
    leaps
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
