//! Turing machines (BTM listings): random ones ([`btm`]: small rules,
//! scans, chains of states), and the corpus ([`btm_corpus`]): machines
//! assembled from pieces known to halt, with random parameters, symbols,
//! state numbers and tapes, one piece after another on the tape.
//!
//! - **bounce**: the head sweeps right over a region of random symbols
//!   (through a chain of one to three states, each rewriting some symbols
//!   and handing over to the next on others) to a marker, counts once in a
//!   counter beyond it, and sweeps back (another chain) to the left
//!   marker; the counter is unary (a mark erased per round) or binary
//!   (carrying from the end next to the region, or from the far end,
//!   walking back over the whole number), and the piece ends when it runs
//!   out or overflows;
//! - **sweep**: a run grows one cell a round between two markers, the
//!   head going back to the left marker each time (about D² steps).
//!
//! Every state moves one way until a marker turns it, every round uses up
//! the counter, so each piece halts. The last piece ends in a state with no
//! rules, or prints a text through the output state 2. One program in
//! twenty is instead a random machine over a few states and symbols, run
//! until it halts or meets its step limit.

use crate::{corpus_random, step_limit, CorpusProgram, Random};

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

/// A machine being assembled.
struct Machine<'a> {
    random: &'a mut Random,
    rules: Vec<[i64; 5]>,
    tape: Vec<i64>,
    used: Vec<i64>,
    /// Steps it runs, roughly.
    steps: f64,
}

impl Machine<'_> {
    /// A state number not used yet (never 1 or 2): mostly small, some
    /// large.
    fn state(&mut self) -> i64 {
        loop {
            let s = match self.random.below(10) {
                0 => self.random.between(1_000, 5_000_000),
                _ => self.random.between(3, 120),
            };
            if !self.used.contains(&s) {
                self.used.push(s);
                return s;
            }
        }
    }

    fn rule(&mut self, state: i64, read: i64, next: i64, write: i64, left: bool) {
        self.rules.push([state, read, next, write, i64::from(left)]);
    }

    /// `count` distinct symbols other than those in `taken`.
    fn symbols(&mut self, count: usize, taken: &[i64]) -> Vec<i64> {
        let mut out = Vec::new();
        while out.len() < count {
            let s = match self.random.below(10) {
                0..=6 => self.random.between(0, 12),
                7 | 8 => self.random.between(65, 90),
                _ => self.random.between(1_000, 1_000_000),
            };
            if !out.contains(&s) && !taken.contains(&s) {
                out.push(s);
            }
        }
        out
    }

    /// A chain of one to three states moving one way over `alphabet`,
    /// rewriting some symbols; each state but the last hands over to the
    /// next on some symbols. Returns the states, first first.
    fn chain(&mut self, alphabet: &[i64], left: bool) -> Vec<i64> {
        let length = *self.random.pick(&[1, 1, 2, 2, 3]);
        let states: Vec<i64> = (0..length).map(|_| self.state()).collect();
        for (i, &state) in states.iter().enumerate() {
            for &symbol in alphabet {
                let write = if self.random.below(4) == 0 {
                    *self.random.pick(alphabet)
                } else {
                    symbol
                };
                let next = if i + 1 < length && self.random.below(3) == 0 {
                    states[i + 1]
                } else {
                    state
                };
                self.rule(state, symbol, next, write, left);
            }
        }
        states
    }

    /// A bounce piece entered by `entry` on its left marker (the tape's
    /// end when it starts); leaves right of its right marker in `exit`.
    /// Runs about `budget` steps.
    fn bounce(&mut self, entry: i64, exit: i64, budget: f64) -> String {
        let width = match self.random.below(3) {
            0 => self.random.between(1, 12),
            1 => self.random.between(13, 80),
            _ => self.random.between(81, 400),
        };
        let alphabet_size = self.random.between(1, 4) as usize;
        let markers = self.symbols(3, &[0]);
        let (l, m, r) = (markers[0], markers[1], markers[2]);
        let alphabet = self.symbols(alphabet_size, &markers);
        let mut counter_symbols = self.symbols(2, &markers);
        counter_symbols.retain(|s| !alphabet.contains(s));
        while counter_symbols.len() < 2 {
            let extra = self.symbols(1, &[&markers[..], &alphabet, &counter_symbols].concat());
            counter_symbols.extend(extra);
        }
        let (zero, one) = (counter_symbols[0], counter_symbols[1]);
        let rightward = self.chain(&alphabet, false);
        let leftward = self.chain(&alphabet, true);
        let find = self.state();
        self.rule(entry, l, rightward[0], l, false);
        for &state in &rightward {
            self.rule(state, m, find, m, false);
        }
        for &state in &leftward {
            self.rule(state, m, state, m, true);
            self.rule(state, zero, state, zero, true);
            self.rule(state, one, state, one, true);
            self.rule(state, l, rightward[0], l, false);
        }
        self.tape.push(l);
        for _ in 0..width {
            let symbol = *self.random.pick(&alphabet);
            self.tape.push(symbol);
        }
        self.tape.push(m);
        let w = width as f64;
        let kind = match self.random.below(3) {
            0 => {
                // Unary: `one` marks, each round turns the first into `zero`.
                let n = ((w * w + budget).sqrt() - w).max(2.0) as i64;
                self.rule(find, zero, find, zero, false);
                self.rule(find, one, leftward[0], zero, true);
                self.rule(find, r, exit, r, false);
                for _ in 0..n {
                    self.tape.push(one);
                }
                self.steps += n as f64 * (2.0 * w + n as f64 + 4.0);
                format!("bounce over {width} cells, unary counter {n}")
            }
            1 => {
                // Binary, carrying away from the region.
                let bits = self.bits(budget / (2.0 * w + 6.0));
                self.rule(find, one, find, zero, false);
                self.rule(find, zero, leftward[0], one, true);
                self.rule(find, r, exit, r, false);
                let rounds = self.counter(bits, zero, one, false);
                self.steps += rounds * (2.0 * w + 6.0);
                format!("bounce over {width} cells, {bits}-bit counter (near end)")
            }
            _ => {
                // Binary, carrying from the far end: walk over the number
                // to the right marker, carry back, walk back.
                let bits = self.bits(budget / (2.0 * w + 40.0));
                let carry = self.state();
                let out = self.state();
                self.rule(find, zero, find, zero, false);
                self.rule(find, one, find, one, false);
                self.rule(find, r, carry, r, true);
                self.rule(carry, one, carry, zero, true);
                self.rule(carry, zero, leftward[0], one, true);
                self.rule(carry, m, out, m, false);
                self.rule(out, zero, out, zero, false);
                self.rule(out, r, exit, r, false);
                let rounds = self.counter(bits, zero, one, true);
                self.steps += rounds * (2.0 * w + 3.0 * bits as f64 + 4.0);
                format!("bounce over {width} cells, {bits}-bit counter (far end)")
            }
        };
        self.tape.push(r);
        format!(
            "{kind}, {} + {} sweep states, {alphabet_size} symbols",
            rightward.len(),
            leftward.len()
        )
    }

    /// Counter bits for about `rounds` rounds.
    fn bits(&mut self, rounds: f64) -> u32 {
        (rounds.max(4.0).log2().round() as u32).clamp(3, 20)
    }

    /// Writes a `bits`-bit counter, low bit first when `far` is false
    /// (last otherwise), with random high bits set; returns its rounds.
    fn counter(&mut self, bits: u32, zero: i64, one: i64, far: bool) -> f64 {
        let mut value = 0u64;
        if self.random.below(3) == 0 {
            value = self.random.below(1 << (bits - 1));
        }
        let mut cells: Vec<i64> = (0..bits)
            .map(|b| if value >> b & 1 == 1 { one } else { zero })
            .collect();
        if far {
            cells.reverse();
        }
        self.tape.extend(cells);
        ((1u64 << bits) - value) as f64
    }

    /// A sweep piece: a run grows one cell a round between markers.
    fn sweep(&mut self, entry: i64, exit: i64, budget: f64) -> String {
        let markers = self.symbols(2, &[0]);
        let (l, s) = (markers[0], markers[1]);
        let run = self.symbols(2, &markers);
        let (blank, full) = (run[0], run[1]);
        let distance = (budget.sqrt() as i64).clamp(10, 3_000);
        let grow = self.state();
        let back = self.state();
        self.rule(entry, l, grow, l, false);
        self.rule(grow, full, grow, full, false);
        self.rule(grow, blank, back, full, true);
        self.rule(grow, s, exit, s, false);
        self.rule(back, full, back, full, true);
        self.rule(back, l, grow, l, false);
        self.tape.push(l);
        let density = self.random.below(4);
        for _ in 0..distance {
            let cell = if self.random.below(4) < density {
                full
            } else {
                blank
            };
            self.tape.push(cell);
        }
        self.tape.push(s);
        self.steps += (distance * distance) as f64;
        format!("sweep over {distance} cells")
    }
}

/// The `.btm` text of a value: the marker, then binary.
fn bits(value: i64) -> String {
    format!("1{value:b}")
}

/// A random machine over a few states and symbols (not known to halt).
fn wild(random: &mut Random) -> (Vec<[i64; 5]>, Vec<i64>, String) {
    let states = random.between(2, 6);
    let symbols = random.between(2, 4);
    let mut rules = Vec::new();
    for state in (0..states).map(|s| if s == 0 { 0 } else { s + 2 }) {
        for symbol in 0..symbols {
            if random.below(8) != 0 {
                let next = match random.below(states as u64) {
                    0 => 0,
                    s => s as i64 + 2,
                };
                rules.push([
                    state,
                    symbol,
                    next,
                    random.between(0, symbols - 1),
                    random.between(0, 1),
                ]);
            }
        }
    }
    let tape = (0..random.between(1, 30))
        .map(|_| random.between(0, symbols - 1))
        .collect();
    (
        rules,
        tape,
        format!("random machine, {states} states, {symbols} symbols"),
    )
}

/// Turing-machine corpus program `index`.
pub fn btm_corpus(index: usize) -> CorpusProgram {
    let mut random = corpus_random(0x00B7_0A11_5CA7, index);
    // 3 x 10^4 to 1.2 x 10^6 steps, spread evenly in log.
    let budget = 3e4 * 40f64.powf(random.below(1000) as f64 / 1000.0);
    let (rules, tape, shape, steps) = if random.below(20) == 0 {
        let (rules, tape, shape) = wild(&mut random);
        // Its limit is the budget (below): a quarter of it.
        (rules, tape, shape, (budget - 200_000.0).max(0.0) / 4.0)
    } else {
        let mut m = Machine {
            random: &mut random,
            rules: Vec::new(),
            tape: Vec::new(),
            used: vec![0, 1, 2],
            steps: 0.0,
        };
        let pieces = *m.random.pick(&[1, 1, 1, 2, 2, 3]);
        let mut entry = 0;
        let mut shapes = Vec::new();
        for piece in 0..pieces {
            let last = piece + 1 == pieces;
            let exit = if last && m.random.below(3) == 0 {
                2
            } else {
                m.state()
            };
            let share = budget / pieces as f64;
            shapes.push(if m.random.below(4) == 0 {
                m.sweep(entry, exit, share)
            } else {
                m.bounce(entry, exit, share)
            });
            if exit == 2 {
                // Printed by state 2 up to a 0; then state 0 finds a 0,
                // for which it has no rule.
                let text: Vec<i64> = (0..m.random.between(1, 12))
                    .map(|_| *m.random.pick(&[72, 105, 33, 10, 0x263A, 0x110000, 3]))
                    .collect();
                m.tape.extend(&text);
                m.tape.push(0);
                shapes.push(format!("prints {} symbols", text.len()));
            }
            entry = exit;
        }
        // Rules in a random order (none repeats a state and symbol).
        for i in (1..m.rules.len()).rev() {
            let j = m.random.below(i as u64 + 1) as usize;
            m.rules.swap(i, j);
        }
        (m.rules, m.tape, shapes.join("; then "), m.steps)
    };
    let mut text = format!("# Turing-machine corpus program {index}: {shape}\n");
    for rule in &rules {
        for part in rule {
            text.push_str(&format!("{}!\n", bits(*part)));
        }
    }
    for symbol in &tape {
        text.push_str(&format!("{}?\n", bits(*symbol)));
    }
    let mut shape = shape;
    let max_steps = step_limit(&mut random, steps, (4.0, 200_000), &mut shape);
    CorpusProgram {
        source: text,
        input: String::new(),
        max_steps,
        shape,
    }
}
