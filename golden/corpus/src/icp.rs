//! InfChessPro programs: random ones of every command form
//! ([`infchesspro`]), and the corpus ([`infchesspro_corpus`]): loop nests
//! of pieces walking along lines.
//!
//! Every loop is closed by a *counter*, a piece that steps along its own
//! line once a pass (`c;0,1?BODY`, or `c;0,1!OUT` then `^?BODY`) until a
//! piece of its colour blocks it; an inner counter goes back to its start
//! at every entry (sliders in one move, `c,ROW,COL`; kings and knights
//! step back until another wall stops them). The innermost body walks
//! pieces (kings, queens, rooks, bishops, knights, of either colour) along
//! lines until they are blocked — or, for kings, until the next square is
//! attacked by an enemy rook — and brings them back, with prints,
//! counts, failing moves and forward jumps in between. Each piece has its
//! own region of the board, far from the others (sometimes near the `i64`
//! edge), so moves only meet the pieces they were meant to; kings far
//! away make every move pass the check test. Walls come from input now
//! and then. Since every jump back follows a counter's step towards a
//! piece that never moves, every program ends: after its nest, or — a
//! few on purpose — on a coordinate leaving the `i64` range or at the step
//! limit.

use crate::{corpus_random, step_limit, CorpusProgram, Random};

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

/// A jump target: a line by its index in the program.
type Target = usize;

/// A numbered line before its label is known.
struct Line {
    command: String,
    success: Option<Target>,
    failure: Option<Target>,
}

/// A piece moving along a line from its origin.
#[derive(Clone)]
struct Mover {
    name: String,
    /// The piece letter (lowercase: black).
    piece: char,
    origin: (i64, i64),
    step: (i64, i64),
    /// Successful steps before it is blocked.
    distance: i64,
}

impl Mover {
    fn slides(&self) -> bool {
        matches!(self.piece.to_ascii_uppercase(), 'Q' | 'R' | 'B')
    }

    fn at(&self, k: i64) -> (i64, i64) {
        (
            self.origin.0 + k * self.step.0,
            self.origin.1 + k * self.step.1,
        )
    }
}

struct Program<'a> {
    random: &'a mut Random,
    lines: Vec<Line>,
    input: Vec<i64>,
    regions: i64,
    features: Vec<&'static str>,
    /// Roughly how many lines run.
    steps: f64,
}

impl Program<'_> {
    fn note(&mut self, feature: &'static str) {
        if !self.features.contains(&feature) {
            self.features.push(feature);
        }
    }

    fn line(&mut self, command: String) -> Target {
        self.lines.push(Line {
            command,
            success: None,
            failure: None,
        });
        self.lines.len() - 1
    }

    /// A region of the board no other piece comes near.
    fn region(&mut self) -> (i64, i64) {
        self.regions += 1;
        let spacing = 10_000_000;
        let base = match self.random.below(10) {
            0 => 4_000_000_000_000_000_000,
            1 => -4_000_000_000_000_000_000,
            2 => 1_000_000_000_000,
            _ => 0,
        };
        (
            base + self.regions * spacing + self.random.between(-50, 50),
            base - self.regions * spacing + self.random.between(-50, 50),
        )
    }

    /// Places a piece, its coordinates sometimes read from input.
    fn place(&mut self, name: &str, piece: char, square: (i64, i64)) {
        if self.random.below(8) == 0 {
            self.input.push(square.0);
            self.input.push(square.1);
            self.line(format!("{name}={piece}*,*"));
            self.note("walls from input");
        } else {
            self.line(format!("{name}={piece}{},{}", square.0, square.1));
        }
    }

    /// A mover of one of `pieces` with a wall after `distance` steps (and
    /// one behind its start if it cannot slide back).
    fn mover(&mut self, pieces: &[char], distance: i64, name: String) -> Mover {
        let white = self.random.below(3) != 0;
        let letter = *self.random.pick(pieces);
        let piece = if white {
            letter
        } else {
            letter.to_ascii_lowercase()
        };
        let straight = [(0, 1), (0, -1), (1, 0), (-1, 0)];
        let diagonal = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
        let knight = [(1, 2), (2, 1), (-1, 2), (2, -1), (-2, -1), (-1, -2)];
        let step = match letter {
            'R' => *self.random.pick(&straight),
            'B' => *self.random.pick(&diagonal),
            'N' => *self.random.pick(&knight),
            _ if self.random.below(2) == 0 => *self.random.pick(&straight),
            _ => *self.random.pick(&diagonal),
        };
        let mover = Mover {
            name,
            piece,
            origin: self.region(),
            step,
            distance,
        };
        let wall = if white { 'P' } else { 'p' };
        let wall_name = format!("wall{}", self.regions);
        self.place(&mover.name, piece, mover.origin);
        if letter == 'K' && self.random.below(3) == 0 {
            // Stopped by an attacked square; a wall further on in case.
            let (r, c) = mover.at(distance + 1);
            let enemy = if white { 'r' } else { 'R' };
            // Beside the line past that square: the rook's row and column
            // meet the walk nowhere before it.
            let rook = if step.1 == 0 {
                (r, c + 5)
            } else if step.0 == 0 {
                (r + 5, c)
            } else {
                (r + 5 * step.0, c)
            };
            self.place(&format!("guard{}", self.regions), enemy, rook);
            self.place(&wall_name, wall, mover.at(distance + 3));
            self.note("kings stopped by attacks");
        } else {
            self.place(&wall_name, wall, mover.at(distance + 1));
        }
        if !mover.slides() {
            self.place(&wall_name, wall, mover.at(-1));
        }
        mover
    }

    /// Moves `mover` back to its origin from wherever it is on its line.
    fn bring_back(&mut self, mover: &Mover) -> f64 {
        if mover.slides() {
            self.line(format!(
                "{},{},{}",
                mover.name, mover.origin.0, mover.origin.1
            ));
            1.0
        } else {
            let back = self.line(format!(
                "{};{},{}",
                mover.name, -mover.step.0, -mover.step.1
            ));
            self.lines[back].success = Some(back);
            mover.distance as f64 + 1.0
        }
    }

    /// Lines that do little: nothing, a failing move, a failing
    /// placement, a skip; prints when the line runs at most 20,000 times.
    fn filler(&mut self, runs: f64, names: &[String]) -> f64 {
        let mut cost = 0.0;
        for _ in 0..self.random.between(0, 2) {
            cost += 1.0;
            match self.random.below(6) {
                0 => {
                    self.line("^".to_string());
                }
                1 => {
                    let (r, c) = (self.random.between(-9, 9), self.random.between(-9, 9));
                    let l = self.line(format!("{r},{c},{},{}", r + 1, c));
                    self.lines[l].failure = Some(l + 1);
                    self.note("failing moves");
                }
                2 if runs <= 20_000.0 => {
                    let name = self.random.pick(names).clone();
                    self.line(format!("%{name}"));
                    self.note("counts");
                }
                3 if runs <= 20_000.0 => {
                    let word = *self.random.pick(&["tick", "pass done", "* ? !", "é"]);
                    self.line(format!("\"{word}"));
                    self.note("prints");
                }
                4 => {
                    // A jump over the next line.
                    let l = self.line("^".to_string());
                    self.lines[l].success = Some(l + 2);
                    self.line("\"skipped".to_string());
                    self.note("forward jumps");
                }
                _ => {
                    // Placed the first time, refused after.
                    self.line("extra=P0,0".to_string());
                }
            }
        }
        cost
    }

    /// Loop level `level` of a nest with these counter distances (the
    /// innermost body when `level` is past them), run `runs` times in
    /// all; returns the lines it runs per run, roughly.
    fn nest(&mut self, level: usize, counters: &[Mover], walkers: &[Mover], runs: f64) -> f64 {
        let names: Vec<String> = counters
            .iter()
            .chain(walkers)
            .map(|m| m.name.clone())
            .collect();
        let Some(counter) = counters.get(level) else {
            let mut cost = self.filler(runs, &names);
            for walker in walkers {
                let walk = self.line(format!(
                    "{};{},{}",
                    walker.name, walker.step.0, walker.step.1
                ));
                self.lines[walk].success = Some(walk);
                cost += walker.distance as f64 + 1.0;
                cost += self.filler(runs, &names);
                cost += self.bring_back(walker);
            }
            return cost;
        };
        let mut cost = 0.0;
        if level > 0 {
            cost += self.bring_back(counter);
        }
        let passes = counter.distance as f64 + 1.0;
        let body = self.lines.len();
        let mut inner = self.filler(runs * passes, &names);
        inner += self.nest(level + 1, counters, walkers, runs * passes);
        let step = format!("{};{},{}", counter.name, counter.step.0, counter.step.1);
        if self.random.below(3) == 0 {
            let out = self.line(step);
            let back = self.line("^".to_string());
            self.lines[out].failure = Some(back + 1);
            self.lines[back].success = Some(body);
            inner += 2.0;
        } else {
            let l = self.line(step);
            self.lines[l].success = Some(body);
            inner += 1.0;
        }
        cost + inner * passes
    }
}

/// InfChessPro corpus program `index`.
pub fn infchesspro_corpus(index: usize) -> CorpusProgram {
    let mut random = corpus_random(0x001C_FC4E_5500, index);
    // 2 x 10^4 to 10^6 lines, spread evenly in log.
    let budget = 2e4 * 50f64.powf(random.below(1000) as f64 / 1000.0);
    let mut p = Program {
        random: &mut random,
        lines: Vec::new(),
        input: Vec::new(),
        regions: 0,
        features: Vec::new(),
        steps: 0.0,
    };
    let depth = *p.random.pick(&[1usize, 1, 2, 2, 2, 3]);
    let walkers = *p.random.pick(&[1usize, 1, 2]);
    let mut names = vec![
        "k", "walker", "x", "q", "r7", "b_2", "n", "c", "lap", "step",
    ];
    for i in (1..names.len()).rev() {
        names.swap(i, p.random.below(i as u64 + 1) as usize);
    }
    // Walk lengths first; the counters share what is left of the budget.
    let mut walk_lines = 0.0;
    let mut walker_list = Vec::new();
    for (w, name) in names.iter().enumerate().take(walkers) {
        let distance = (3.0 * 300f64.powf(p.random.below(1000) as f64 / 1000.0)) as i64;
        let mover = p.mover(&['K', 'Q', 'R', 'B', 'N'], distance, format!("{name}{w}"));
        walk_lines += distance as f64 * if mover.slides() { 1.0 } else { 2.0 } + 3.0;
        walker_list.push(mover);
    }
    let body_runs = (budget / walk_lines).max(2.0);
    let mut counter_list = Vec::new();
    for level in 0..depth {
        let share = body_runs.powf(1.0 / depth as f64);
        let distance = (share * (0.5 + p.random.below(1000) as f64 / 1000.0)).max(1.0) as i64;
        let name = format!("{}{}", names[walkers + level], level);
        counter_list.push(p.mover(&['K', 'R', 'Q', 'B', 'N'], distance, name));
    }
    let kings = p.random.below(10);
    if kings < 7 {
        let square = p.region();
        p.line(format!("king={}{},{}", 'K', square.0, square.1));
        p.note("a king far away");
    }
    if kings < 3 {
        let square = p.region();
        p.line(format!("king={}{},{}", 'k', square.0, square.1));
    }
    let runs = p.nest(0, &counter_list, &walker_list, 1.0);
    p.steps += runs;
    let overflow = p.random.below(25) == 0;
    if overflow {
        let edge = p.random.between(100, 5_000);
        p.line(format!("edge=R0,{}", i64::MAX - edge));
        let walk = p.line("edge;0,1".to_string());
        p.lines[walk].success = Some(walk);
        p.note("coordinate overflow");
        p.steps += edge as f64;
    }
    for m in counter_list.iter().chain(&walker_list) {
        if p.random.below(2) == 0 {
            p.line(format!("%{}", m.name));
        }
    }
    p.line("\"done".to_string());
    let mut label = p.random.between(0, 10);
    let mut labels = Vec::new();
    for _ in 0..p.lines.len() {
        labels.push(label);
        label += *p.random.pick(&[1, 1, 1, 2, 10]);
    }
    let mut shape = format!(
        "{depth} counters ({}) around {} walks ({})",
        counter_list
            .iter()
            .map(|m| format!("{} {}", m.piece, m.distance))
            .collect::<Vec<_>>()
            .join(", "),
        walkers,
        walker_list
            .iter()
            .map(|m| format!("{} {}", m.piece, m.distance))
            .collect::<Vec<_>>()
            .join(", ")
    );
    let mut features = std::mem::take(&mut p.features);
    features.sort_unstable();
    if !features.is_empty() {
        shape.push_str("; ");
        shape.push_str(&features.join(", "));
    }
    let mut text = format!("# InfChessPro corpus program {index}: {shape}\n");
    for (i, line) in p.lines.iter().enumerate() {
        text.push_str(&format!("{}. {}", labels[i], line.command));
        if let Some(t) = line.success {
            text.push_str(&format!("?{}", labels[t]));
        }
        if let Some(t) = line.failure {
            text.push_str(&format!("!{}", labels[t]));
        }
        text.push('\n');
    }
    let steps = p.steps + p.lines.len() as f64;
    let input: Vec<String> = p.input.iter().map(i64::to_string).collect();
    let max_steps = step_limit(&mut random, steps, (3.0, 100_000), &mut shape);
    CorpusProgram {
        source: text,
        input: input.join("\n") + "\n",
        max_steps,
        shape,
    }
}
