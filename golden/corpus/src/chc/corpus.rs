//! The Chess Code corpus: nests of do-while loops whose trip counts the
//! generator fixes, so every program ends (or overflows, or meets its step
//! limit, on purpose) after a number of steps it knows.
//!
//! Each loop has its own counter cell, stepping by 1 or by a constant cell
//! (negative ones too), and ends when the counter reaches its bound:
//! `ctr=V+` with the bound in a variable, or `ctrxD=V+` with one of D and
//! V the bound and the other a value the counter never meets. An inner
//! loop either resets its counter from a constant cell before each entry,
//! or keeps counting while its bound variable moves on by the trip count
//! (`Vm+`). Bounds come from input (`#`) or from constants the program
//! builds (increments and doublings). Around the counters, bodies add
//! constants, counters (triangular and higher sums), constants and other
//! cells, copy cells, move values through variables, and — in loops run at
//! most 20,000 times — print and read. Values are kept in the `i64` range
//! by a bound on every cell (an add that could overflow is dropped), except
//! in the few programs that overflow on purpose.

use crate::{corpus_random, CorpusProgram, Random};

/// A cell (0 = a1, 1 = b1, …, 63 = h8) or a variable (0 = R … 4 = K).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    Cell(u8),
    Var(u8),
}

impl Slot {
    fn text(self) -> String {
        match self {
            Slot::Cell(c) => format!("{}{}", (b'a' + c % 8) as char, c / 8 + 1),
            Slot::Var(v) => ["R", "N", "B", "Q", "K"][v as usize].to_string(),
        }
    }

    /// Its index in per-slot tables.
    fn index(self) -> usize {
        match self {
            Slot::Cell(c) => c as usize,
            Slot::Var(v) => 64 + v as usize,
        }
    }
}

/// One command, as far as the value bounds need to know.
#[derive(Clone, Copy, Debug)]
enum Op {
    /// `C+`.
    Inc(Slot),
    /// dst += src: `CxD+`, `VC+` (V += C), `VxC+` (C += V).
    Add(Slot, Slot),
    /// dst = src: `CxD`, `VC`, `VxC`.
    Copy(Slot, Slot),
    /// `C#`.
    Read(Slot),
    /// `VC#`.
    ReadBoth(Slot, Slot),
    /// `C`.
    Print(Slot),
    /// `O-O` or `O-O-O`.
    Mode(&'static str),
}

impl Op {
    fn text(self) -> String {
        use Slot::{Cell, Var};
        match self {
            Op::Inc(c) => format!("{}+", c.text()),
            Op::Add(d @ Cell(_), s @ Cell(_)) => format!("{}x{}+", d.text(), s.text()),
            Op::Add(v @ Var(_), c) => format!("{}{}+", v.text(), c.text()),
            Op::Add(c, v) => format!("{}x{}+", v.text(), c.text()),
            Op::Copy(d @ Cell(_), s @ Cell(_)) => format!("{}x{}", d.text(), s.text()),
            Op::Copy(v @ Var(_), c) => format!("{}{}", v.text(), c.text()),
            Op::Copy(c, v) => format!("{}x{}", v.text(), c.text()),
            Op::Read(c) => format!("{}#", c.text()),
            Op::ReadBoth(v, c) => format!("{}{}#", v.text(), c.text()),
            Op::Print(c) => c.text(),
            Op::Mode(m) => m.to_string(),
        }
    }

    /// The slot it writes (both for `VC#`: the variable; the cell is a
    /// constant's).
    fn dst(self) -> Option<Slot> {
        match self {
            Op::Inc(d) | Op::Add(d, _) | Op::Copy(d, _) | Op::Read(d) | Op::ReadBoth(d, _) => {
                Some(d)
            }
            Op::Print(_) | Op::Mode(_) => None,
        }
    }
}

/// A command with how often it runs.
#[derive(Clone, Debug)]
struct OpRecord {
    op: Op,
    execs: u64,
    enabled: bool,
    /// Overflows on purpose: no bound applies.
    unchecked: bool,
}

/// The program as a tree: commands (by index into the records) and loops.
enum Item {
    Op(usize),
    Loop {
        body: Vec<Item>,
        condition: String,
        entries: u64,
        passes: u64,
    },
}

/// What a value may be at most, in magnitude, over the whole run.
const LIMIT: f64 = 4.0e18;

struct Gen<'a> {
    random: &'a mut Random,
    ops: Vec<OpRecord>,
    cells: Vec<u8>,
    vars: Vec<u8>,
    /// Fixed bounds of counters, bound variables and constants.
    fixed: [Option<f64>; 69],
    /// Constants: slot and value.
    consts: Vec<(Slot, i64)>,
    /// Data slots, in the order values may flow (lower to higher).
    data: Vec<Slot>,
    /// Input numbers of the prologue, in order.
    input: Vec<i64>,
    /// Numbers read inside loops.
    loop_reads: u64,
    decoy: Option<Slot>,
    prologue: Vec<Item>,
    features: Vec<&'static str>,
}

impl Gen<'_> {
    fn note(&mut self, feature: &'static str) {
        if !self.features.contains(&feature) {
            self.features.push(feature);
        }
    }

    fn record(&mut self, op: Op, execs: u64) -> Item {
        self.ops.push(OpRecord {
            op,
            execs,
            enabled: true,
            unchecked: false,
        });
        Item::Op(self.ops.len() - 1)
    }

    fn take_cell(&mut self) -> Option<Slot> {
        self.cells.pop().map(Slot::Cell)
    }

    fn take_var(&mut self) -> Option<Slot> {
        self.vars.pop().map(Slot::Var)
    }

    /// A cell holding `value` from the prologue on: read, counted up or
    /// built bit by bit.
    fn constant(&mut self, value: i64) -> Option<Slot> {
        if let Some(&(slot, _)) = self.consts.iter().find(|&&(_, v)| v == value) {
            if self.random.below(2) == 0 {
                return Some(slot);
            }
        }
        let cell = self.take_cell()?;
        if (1..=6).contains(&value) && self.random.below(2) == 0 {
            for _ in 0..value {
                let item = self.record(Op::Inc(cell), 1);
                self.prologue.push(item);
            }
        } else if value > 0 && self.random.below(2) == 0 {
            let bits = 64 - value.leading_zeros();
            let item = self.record(Op::Inc(cell), 1);
            self.prologue.push(item);
            for bit in (0..bits - 1).rev() {
                let item = self.record(Op::Add(cell, cell), 1);
                self.prologue.push(item);
                if value >> bit & 1 == 1 {
                    let item = self.record(Op::Inc(cell), 1);
                    self.prologue.push(item);
                }
            }
        } else {
            let item = self.record(Op::Read(cell), 1);
            self.prologue.push(item);
            self.input.push(value);
            self.note("input");
        }
        self.fixed[cell.index()] = Some(value.unsigned_abs() as f64);
        self.consts.push((cell, value));
        Some(cell)
    }

    /// A variable holding `value` from the prologue on.
    fn bound_variable(&mut self, value: i64) -> Option<Slot> {
        let var = self.take_var()?;
        if self.random.below(3) == 0 {
            let cell = self.take_cell()?;
            let item = self.record(Op::ReadBoth(var, cell), 1);
            self.prologue.push(item);
            self.input.push(value);
            self.fixed[cell.index()] = Some(value.unsigned_abs() as f64);
            self.consts.push((cell, value));
            self.note("input bounds");
        } else {
            let cell = self.constant(value)?;
            let item = self.record(Op::Copy(var, cell), 1);
            self.prologue.push(item);
        }
        self.fixed[var.index()] = Some(value.unsigned_abs() as f64);
        Some(var)
    }

    /// The variable holding a value no counter meets.
    fn decoy(&mut self) -> Option<Slot> {
        if self.decoy.is_none() {
            let value = 1_000_000_000_000_000 + self.random.between(0, 1_000_000);
            self.decoy = self.bound_variable(value);
        }
        self.decoy
    }

    /// A data slot to write: a new one (highest in the flow) or an
    /// existing one.
    fn data_dst(&mut self, var_ok: bool) -> Option<Slot> {
        let fresh = self.data.len() < 3 || self.random.below(3) == 0;
        if fresh {
            let slot = if var_ok && self.random.below(4) == 0 {
                self.take_var().or_else(|| self.take_cell())
            } else {
                self.take_cell()
            };
            if let Some(slot) = slot {
                self.data.push(slot);
                return Some(slot);
            }
        }
        let candidates: Vec<Slot> = self
            .data
            .iter()
            .copied()
            .filter(|s| var_ok || matches!(s, Slot::Cell(_)))
            .collect();
        (!candidates.is_empty()).then(|| *self.random.pick(&candidates))
    }

    /// A value `dst` may take from: a counter in scope, a constant, or a
    /// data slot lower in the flow; never variable to variable.
    fn data_src(&mut self, dst: Slot, counters: &[Slot]) -> Option<Slot> {
        let rank = self
            .data
            .iter()
            .position(|&s| s == dst)
            .unwrap_or(usize::MAX);
        let mut candidates: Vec<Slot> = Vec::new();
        let lower: Vec<Slot> = self.data[..rank.min(self.data.len())].to_vec();
        match self.random.below(3) {
            0 => candidates.extend(counters.iter().copied()),
            1 => candidates.extend(self.consts.iter().map(|&(s, _)| s)),
            _ => candidates.extend(lower),
        }
        if candidates.is_empty() {
            candidates.extend(counters.iter().copied());
        }
        candidates.retain(|&s| !(matches!(dst, Slot::Var(_)) && matches!(s, Slot::Var(_))));
        (!candidates.is_empty()).then(|| *self.random.pick(&candidates))
    }

    /// A command for a loop body run `execs` times in all.
    fn data_op(&mut self, execs: u64, counters: &[Slot], items: &mut Vec<Item>) {
        match self.random.below(14) {
            0 | 1 => {
                if let Some(d) = self.data_dst(false) {
                    items.push(self.record(Op::Inc(d), execs));
                }
            }
            2..=5 => {
                if let Some(d) = self.data_dst(true) {
                    if let Some(s) = self.data_src(d, counters) {
                        if counters.contains(&s) {
                            self.note("sums of counters");
                        } else if self.data.contains(&s) {
                            self.note("sums of sums");
                        }
                        items.push(self.record(Op::Add(d, s), execs));
                    }
                }
            }
            6 | 7 => {
                if let Some(d) = self.data_dst(true) {
                    if let Some(s) = self.data_src(d, counters) {
                        self.note("copies");
                        items.push(self.record(Op::Copy(d, s), execs));
                    }
                }
            }
            8 if execs <= 20_000 => {
                let mut sources: Vec<Slot> = counters.to_vec();
                sources.extend(self.data.iter().filter(|s| matches!(s, Slot::Cell(_))));
                let s = *self.random.pick(&sources);
                self.note("prints in loops");
                items.push(self.record(Op::Print(s), execs));
            }
            9 if execs <= 20_000 => {
                if let Some(d) = self.data_dst(false) {
                    self.note("reads in loops");
                    self.loop_reads += execs;
                    items.push(self.record(Op::Read(d), execs));
                }
            }
            10 if execs <= 5_000 => {
                let character = *self.random.pick(&[10, 32, 42, 65, 97, 0x263A]);
                if let Some(c) = self.constant(character) {
                    self.note("characters in loops");
                    items.push(self.record(Op::Mode("O-O"), execs));
                    items.push(self.record(Op::Print(c), execs));
                    items.push(self.record(Op::Mode("O-O-O"), execs));
                }
            }
            _ => {
                // The shape of the example: a sum of the innermost
                // counter (a triangular number, or higher).
                if let (Some(d), Some(&c)) = (self.data_dst(false), counters.last()) {
                    self.note("sums of counters");
                    items.push(self.record(Op::Add(d, c), execs));
                }
            }
        }
    }

    /// A loop at `depth` of a nest with these trip counts, entered
    /// `entries` times; the commands that set it up before each entry go
    /// to `before`.
    fn a_loop(
        &mut self,
        depth: usize,
        trips: &[u64],
        entries: u64,
        counters: &mut Vec<Slot>,
        before: &mut Vec<Item>,
        kinds: &mut Vec<&'static str>,
    ) -> Option<Item> {
        let n = trips[depth];
        let passes = entries * n;
        let counter = self.take_cell()?;
        let step: i64 = if self.random.below(10) < 7 {
            1
        } else {
            *self.random.pick(&[2, 3, 5, -1, -2, -7])
        };
        let step_cell = if step == 1 {
            None
        } else {
            Some(self.constant(step)?)
        };
        // Where the counter starts each entry, whether the bound moves.
        let moving = entries > 1 && self.random.below(3) == 0 && !self.vars.is_empty();
        let start = if entries == 1 || moving {
            0
        } else {
            self.random.between(-3, 5)
        };
        let condition;
        if moving {
            let var = self.take_var()?;
            let m = self.constant(n as i64 * step)?;
            before.push(self.record(Op::Add(var, m), entries));
            self.fixed[var.index()] = Some((passes as i64 * step).unsigned_abs() as f64);
            self.fixed[counter.index()] = Some((passes as i64 * step).unsigned_abs() as f64);
            condition = format!("{}={}+", counter.text(), var.text());
            kinds.push("moving bound");
        } else {
            if entries > 1 {
                let base = self.constant(start)?;
                before.push(self.record(Op::Copy(counter, base), entries));
            }
            let target = start + n as i64 * step;
            self.fixed[counter.index()] = Some((start.abs() + (n as i64 * step).abs()) as f64);
            let two = self.random.below(3) == 0 || self.vars.len() <= 1;
            if two && (self.vars.is_empty() || self.random.below(2) == 0) {
                let bound = self.constant(target)?;
                let decoy = self.decoy()?;
                condition = format!("{}x{}={}+", counter.text(), bound.text(), decoy.text());
                kinds.push("two bounds, cell");
            } else if two {
                let bound = self.bound_variable(target)?;
                let decoy = self.constant(-1_000_000_000_000_000)?;
                condition = format!("{}x{}={}+", counter.text(), decoy.text(), bound.text());
                kinds.push("two bounds, variable");
            } else {
                let bound = self.bound_variable(target)?;
                condition = format!("{}={}+", counter.text(), bound.text());
                kinds.push(if entries > 1 { "reset" } else { "counter" });
            }
        }
        if step != 1 {
            kinds.push("step not 1");
        }
        counters.push(counter);
        let mut body = Vec::new();
        for _ in 0..self.random.between(0, 2) {
            self.data_op(passes, counters, &mut body);
        }
        if depth + 1 < trips.len() {
            let siblings = if self.random.below(8) == 0 { 2 } else { 1 };
            for _ in 0..siblings {
                let mut setup = Vec::new();
                let inner = self.a_loop(depth + 1, trips, passes, counters, &mut setup, kinds)?;
                body.extend(setup);
                body.push(inner);
            }
        }
        for _ in 0..self.random.between(0, 2) {
            self.data_op(passes, counters, &mut body);
        }
        let increment = match step_cell {
            None => self.record(Op::Inc(counter), passes),
            Some(s) => self.record(Op::Add(counter, s), passes),
        };
        let at = self.random.below(body.len() as u64 + 1) as usize;
        body.insert(at, increment);
        counters.pop();
        Some(Item::Loop {
            body,
            condition,
            entries,
            passes,
        })
    }

    /// Drops adds until every data slot's bound fits: per slot, its
    /// largest copied-in value plus everything added to it.
    fn keep_in_range(&mut self) {
        loop {
            let mut bound = self.fixed;
            let mut culprit = None;
            for &d in &self.data {
                let (mut copied, mut added, mut worst): (f64, f64, Option<(f64, usize)>) =
                    (0.0, 0.0, None);
                for (i, r) in self.ops.iter().enumerate() {
                    if !r.enabled || r.unchecked || r.op.dst() != Some(d) {
                        continue;
                    }
                    let e = r.execs as f64;
                    let amount = match r.op {
                        Op::Inc(_) => e,
                        Op::Add(_, s) => e * bound[s.index()].unwrap_or(LIMIT),
                        Op::Copy(_, s) => {
                            copied = copied.max(bound[s.index()].unwrap_or(LIMIT));
                            continue;
                        }
                        _ => {
                            copied = copied.max(100.0);
                            continue;
                        }
                    };
                    added += amount;
                    if matches!(r.op, Op::Add(..)) && worst.is_none_or(|(w, _)| amount > w) {
                        worst = Some((amount, i));
                    }
                }
                let total = copied + added;
                if total > LIMIT {
                    culprit = worst.map(|(_, i)| i);
                    break;
                }
                bound[d.index()] = Some(total);
            }
            match culprit {
                Some(i) => self.ops[i].enabled = false,
                None => return,
            }
        }
    }
}

/// The text of `items`, indented by loop depth; counts the steps they run.
fn write(items: &[Item], ops: &[OpRecord], depth: usize, text: &mut String, steps: &mut u64) {
    let indent = "  ".repeat(depth);
    for item in items {
        match item {
            Item::Op(i) if ops[*i].enabled => {
                text.push_str(&format!("{indent}{}\n", ops[*i].op.text()));
                *steps += ops[*i].execs;
            }
            Item::Op(_) => {}
            Item::Loop {
                body,
                condition,
                entries,
                passes,
            } => {
                text.push_str(&format!("{indent}1/2 1/2\n"));
                write(body, ops, depth + 1, text, steps);
                text.push_str(&format!("{indent}{condition}\n"));
                *steps += entries + passes;
            }
        }
    }
}

/// Trip counts for a nest of `depth` loops whose innermost body runs
/// about `total` times.
fn trips(random: &mut Random, depth: usize, total: f64) -> Vec<u64> {
    let weights: Vec<f64> = (0..depth)
        .map(|_| 0.3 + random.below(1000) as f64 / 1000.0)
        .collect();
    let sum: f64 = weights.iter().sum();
    weights
        .iter()
        .map(|w| (total.powf(w / sum).round() as u64).max(2))
        .collect()
}

/// Chess Code corpus program `index`.
pub fn chess_code_corpus(index: usize) -> CorpusProgram {
    let mut random = corpus_random(0x00C4_E55C_0DE5, index);
    loop {
        if let Some(program) = generate(&mut random, index) {
            return program;
        }
    }
}

/// One try at a program (`None` when it ran out of cells or variables).
fn generate(random: &mut Random, index: usize) -> Option<CorpusProgram> {
    let mut cells: Vec<u8> = (0..64).collect();
    let mut vars: Vec<u8> = (0..5).collect();
    for i in (1..cells.len()).rev() {
        cells.swap(i, random.below(i as u64 + 1) as usize);
    }
    for i in (1..vars.len()).rev() {
        vars.swap(i, random.below(i as u64 + 1) as usize);
    }
    let nests = *random.pick(&[1, 1, 1, 2, 2, 3]);
    // Innermost passes in all: 3 x 10^4 to 10^6, spread evenly in log.
    let total = 3e4 * 33f64.powf(random.below(1000) as f64 / 1000.0);
    let mut g = Gen {
        random,
        ops: Vec::new(),
        cells,
        vars,
        fixed: [None; 69],
        consts: Vec::new(),
        data: Vec::new(),
        input: Vec::new(),
        loop_reads: 0,
        decoy: None,
        prologue: Vec::new(),
        features: Vec::new(),
    };
    let mut main = Vec::new();
    let mut shapes = Vec::new();
    for _ in 0..nests {
        let depth = *g.random.pick(&[1, 1, 2, 2, 2, 3, 3, 3, 4, 4]);
        let trips = trips(g.random, depth, total / nests as f64);
        let mut kinds = Vec::new();
        let mut counters = Vec::new();
        let mut setup = Vec::new();
        let nest = g.a_loop(0, &trips, 1, &mut counters, &mut setup, &mut kinds)?;
        main.extend(setup);
        main.push(nest);
        kinds.sort_unstable();
        kinds.dedup();
        let trips: Vec<String> = trips.iter().map(u64::to_string).collect();
        shapes.push(format!(
            "depth {depth} ({}; {})",
            trips.join("x"),
            kinds.join(", ")
        ));
    }
    g.keep_in_range();
    // A few programs overflow on purpose: a sum of a large constant in the
    // longest loop leaves the i64 range part-way.
    let overflow = g.random.below(25) == 0;
    if overflow {
        let mut longest: Option<(u64, usize)> = None;
        for (i, item) in main.iter().enumerate() {
            if let Item::Loop { passes, .. } = item {
                if longest.is_none_or(|(p, _)| *passes > p) {
                    longest = Some((*passes, i));
                }
            }
        }
        if let Some((passes, i)) = longest {
            let k = 64 - (passes / 3).max(2).ilog2() as i64;
            let big = g.constant(1 << k.min(62))?;
            let sum = g.take_cell()?;
            let item = g.record(Op::Add(sum, big), passes);
            g.ops.last_mut().expect("just recorded").unchecked = true;
            if let Item::Loop { body, .. } = &mut main[i] {
                body.insert(0, item);
            }
            g.note("overflows");
        }
    }
    let mut text = format!("| Chess Code corpus program {index}\n");
    let mut steps = 0;
    let prologue = std::mem::take(&mut g.prologue);
    write(&prologue, &g.ops, 0, &mut text, &mut steps);
    write(&main, &g.ops, 0, &mut text, &mut steps);
    let outputs: Vec<Slot> = g
        .data
        .iter()
        .copied()
        .filter(|s| matches!(s, Slot::Cell(_)))
        .take(3)
        .collect();
    for s in outputs {
        text.push_str(&format!("{}\n", s.text()));
        steps += 1;
    }
    let mut input: Vec<String> = g.input.iter().map(i64::to_string).collect();
    for _ in 0..g.loop_reads {
        input.push(g.random.between(-100, 100).to_string());
    }
    let mut ending = "";
    if g.loop_reads > 0 && g.random.below(8) == 0 {
        let cut = g.random.below(g.loop_reads) as usize;
        input.truncate(g.input.len() + cut);
        ending = "; input ends";
    }
    let limited = g.random.below(20) == 0;
    let max_steps = if limited {
        ending = "; step limit";
        steps * g.random.between(10, 90) as u64 / 100
    } else {
        steps * 2 + 10_000
    };
    let mut features = std::mem::take(&mut g.features);
    features.sort_unstable();
    let shape = format!(
        "{}{}{}{ending}",
        shapes.join(" then "),
        if features.is_empty() { "" } else { "; " },
        features.join(", ")
    );
    text.insert_str(0, &format!("| {shape}\n"));
    Some(CorpusProgram {
        source: text,
        input: input.join(" ") + "\n",
        max_steps,
        shape,
    })
}
