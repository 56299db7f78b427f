//! Same-way paths by brute force.
//!
//! A second reference for repetitions nested in a `*`, much simpler than the
//! model (the other modules) and exhaustive on the family of notations it takes: the
//! mover moves `[A]*` (or `B**`), where A is a sequence of plain leaps (one
//! vector or an alternative of leaps), `x`, `c(..)`, `m(..)`, one `{A1,A2}`
//! of such sequences, and nested repetitions `B*` and ``B` `` whose body B
//! is a leap or an alternative of leaps (a crooked body one leap only, so
//! that its routes stay countable).
//!
//! Every round-1 way of A is listed in the spec's order as a flat list of
//! leaps (owner's vectors) and conditions: a nested `B*` is one vector of B
//! taken n times (n = 1 for every vector, then n = 2, … until the board
//! ends), a nested ``B` `` one vector per round (every route of one round,
//! then of two, …). Then each way is made once, then each way twice, three
//! times, … (each round from where the last one ended), and every path is
//! judged on the board on its own.
//!
//! The no-revisit rule (model doc) cuts nothing else in this family but
//! this: inside round 1, a crooked rider whose landings return to one of its
//! own earlier landings (or continue from the square where it started). A
//! nested `B*` moves in a straight line; later rounds of `A*` are
//! translations of round 1 by a non-zero vector (a zero one ends on FROM,
//! which no path may land on); no other point of A can be reached twice. The
//! facts the rule compares cannot differ there either (no `x` inside a
//! repetition of this family, and a crooked rider cannot go on from a hole
//! or an enemy). So the first legal path of the brute force is exactly the
//! first legal path of the spec.

use super::*;

/// A leap of a generated body: `(a,b|dirs)`.
pub(super) type BLeap = (i64, i64, &'static str);

/// An element of A in the brute-force family.
#[derive(Clone, Debug)]
pub(super) enum BEl {
    /// `(a,b)` or `{(a,b),(c,d)}`: one leap.
    Leaps(Vec<BLeap>),
    /// The body repeated the same way: `B*`.
    Star(Vec<BLeap>),
    /// A crooked rider over one leap: ``B` ``.
    Crook(BLeap),
    X,
    C(Box<BEl>),
    M(Box<BEl>),
    /// `{A1,A2}`.
    Alt(Vec<BEl>, Vec<BEl>),
}

/// One brute-force case: the mover's A, its value and colour, the board.
#[derive(Clone, Debug)]
pub(super) struct BCase {
    a: Vec<BEl>,
    /// A is one `B*`, written `B**`.
    double_star: bool,
    value: &'static str,
    white: bool,
    rows: usize,
    cols: usize,
    /// Per cell: 0 empty, 1 hole, 2 a white blocker, 3 a black blocker
    /// (bottom row first); the mover is placed on `from`.
    cells: Vec<(u8, bool)>,
    from: usize,
}

pub(super) fn print_body(body: &[BLeap], out: &mut String) {
    let leap = |&(a, b, dirs): &BLeap| {
        if dirs.is_empty() {
            format!("({a},{b})")
        } else {
            format!("({a},{b}|{dirs})")
        }
    };
    if body.len() == 1 {
        out.push_str(&leap(&body[0]));
    } else {
        let alts: Vec<String> = body.iter().map(leap).collect();
        write!(out, "{{{}}}", alts.join(",")).unwrap();
    }
}

pub(super) fn print_bels(els: &[BEl], out: &mut String) {
    for el in els {
        match el {
            BEl::Leaps(body) => print_body(body, out),
            BEl::Star(body) => {
                print_body(body, out);
                out.push('*');
            }
            BEl::Crook(leap) => {
                print_body(std::slice::from_ref(leap), out);
                out.push('`');
            }
            BEl::X => out.push('x'),
            BEl::C(inner) | BEl::M(inner) => {
                out.push_str(if matches!(el, BEl::C(_)) { "c(" } else { "m(" });
                print_bels(std::slice::from_ref(inner), out);
                out.push(')');
            }
            BEl::Alt(first, second) => {
                out.push('{');
                print_bels(first, out);
                out.push(',');
                print_bels(second, out);
                out.push('}');
            }
        }
    }
}

impl BCase {
    /// The mover's notation.
    pub(super) fn notation(&self) -> String {
        let mut out = String::new();
        match (&self.a[..], self.double_star) {
            ([BEl::Star(body)], true) => {
                print_body(body, &mut out);
                out.push_str("**");
            }
            _ => {
                out.push('[');
                print_bels(&self.a, &mut out);
                out.push_str("]*");
            }
        }
        out
    }

    /// The program: the mover `M`, blockers `P` (9) and `Q` (x) that cannot
    /// move, no royal piece (so the check rule never refuses a move).
    pub(super) fn text(&self) -> String {
        let mut text = format!("(M {}): {}\n(P 9):\n(Q x):\n", self.value, self.notation());
        let border = "+--".repeat(self.cols) + "+";
        for row in (0..self.rows).rev() {
            writeln!(text, "{border}").unwrap();
            text.push('|');
            for col in 0..self.cols {
                let square = row * self.cols + col;
                let cell = match self.cells[square] {
                    _ if square == self.from => {
                        format!("M{}", if self.white { 'W' } else { 'B' })
                    }
                    (0, _) => "  ".to_string(),
                    (1, _) => "##".to_string(),
                    (2, white) => format!("P{}", if white { 'W' } else { 'B' }),
                    (_, white) => format!("Q{}", if white { 'W' } else { 'B' }),
                };
                write!(text, "{cell}|").unwrap();
            }
            text.push('\n');
        }
        writeln!(text, "{border}").unwrap();
        text
    }

    /// The board in the model's cells (kinds: M 0, P 1, Q 2).
    pub(super) fn board(&self) -> Vec<MCell> {
        (0..self.rows * self.cols)
            .map(|square| match self.cells[square] {
                _ if square == self.from => MCell::Piece {
                    kind: 0,
                    white: self.white,
                },
                (0, _) => MCell::Empty,
                (1, _) => MCell::Hole,
                (what, white) => MCell::Piece {
                    kind: usize::from(what - 1),
                    white,
                },
            })
            .collect()
    }
}

/// A step of a brute-force path: a leap (owner's forward, right) with the
/// crooked no-hole mark, or a condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BOp {
    Leap { f: i64, r: i64, no_hole: bool },
    X,
    C,
    M,
}

/// A partial round 1: where it stands and what it did.
#[derive(Clone, Debug)]
pub(super) struct BWay {
    at: (i64, i64),
    ops: Vec<BOp>,
}

/// The brute-force enumerator of one case.
pub(super) struct Brute<'c> {
    case: &'c BCase,
    from: (i64, i64),
    /// Round-1 ways listed so far; the case is given up past a bound.
    listed: usize,
}

/// The spec's vectors of `(a,b|dirs)`, (a,b), (a,−b), (−a,b), (−a,−b), (b,a),
/// (b,−a), (−b,a), (−b,−a) with duplicates and (0,0) left out, then the
/// direction filter (`^` forward, `v` backward, `>` right, `<` left).
pub(super) fn brute_vectors(&(a, b, dirs): &BLeap) -> Vec<(i64, i64)> {
    let mut out: Vec<(i64, i64)> = Vec::new();
    for (f, r) in leap_symmetries(a, b) {
        let kept = dirs.is_empty()
            || dirs.chars().any(|d| match d {
                '^' => f > 0,
                'v' => f < 0,
                '>' => r > 0,
                _ => r < 0,
            });
        if (f, r) != (0, 0) && kept && !out.contains(&(f, r)) {
            out.push((f, r));
        }
    }
    out
}

/// Every choice of one leap of a body: its alternatives left to right, each
/// alternative's vectors in order.
pub(super) fn body_vectors(body: &[BLeap]) -> Vec<(i64, i64)> {
    body.iter().flat_map(brute_vectors).collect()
}

/// Round-1 ways listed past this many: the case is skipped.
pub(super) const BRUTE_WAYS: usize = 20_000;

impl Brute<'_> {
    /// The square a leap from `at` lands on, if it is on the board and not
    /// FROM (which holds the mover: no path lands there).
    pub(super) fn land(&self, at: (i64, i64), (f, r): (i64, i64)) -> Option<(i64, i64)> {
        let (dr, dc) = if self.case.white { (f, r) } else { (-f, -r) };
        let to = (at.0 + dr, at.1 + dc);
        let on =
            to.0 >= 0 && to.1 >= 0 && to.0 < self.case.rows as i64 && to.1 < self.case.cols as i64;
        (on && to != self.from).then_some(to)
    }

    pub(super) fn leap(&self, way: &BWay, v: (i64, i64)) -> Option<BWay> {
        let at = self.land(way.at, v)?;
        let mut ops = way.ops.clone();
        ops.push(BOp::Leap {
            f: v.0,
            r: v.1,
            no_hole: false,
        });
        Some(BWay { at, ops })
    }

    pub(super) fn with(way: &BWay, op: BOp) -> BWay {
        let mut next = way.clone();
        next.ops.push(op);
        next
    }

    /// Every way `els` can go on from `way`, in notation order.
    pub(super) fn seq(&mut self, els: &[BEl], way: BWay) -> Result<Vec<BWay>, Budget> {
        let Some((first, rest)) = els.split_first() else {
            self.listed += 1;
            if self.listed > BRUTE_WAYS {
                return Err(Budget);
            }
            return Ok(vec![way]);
        };
        let mut out = Vec::new();
        for next in self.el(first, way)? {
            out.extend(self.seq(rest, next)?);
        }
        Ok(out)
    }

    pub(super) fn el(&mut self, el: &BEl, way: BWay) -> Result<Vec<BWay>, Budget> {
        let mut out = Vec::new();
        match el {
            BEl::Leaps(body) => {
                out.extend(
                    body_vectors(body)
                        .into_iter()
                        .filter_map(|v| self.leap(&way, v)),
                );
            }
            BEl::X => out.push(Self::with(&way, BOp::X)),
            BEl::C(inner) => out = self.el(inner, Self::with(&way, BOp::C))?,
            BEl::M(inner) => out = self.el(inner, Self::with(&way, BOp::M))?,
            BEl::Alt(first, second) => {
                out = self.seq(first, way.clone())?;
                out.extend(self.seq(second, way)?);
            }
            // One vector n times: n = 1 for every vector, then n = 2, …
            BEl::Star(body) => {
                let mut lines: Vec<BWay> = vec![way; body_vectors(body).len()];
                let mut any = true;
                while any {
                    any = false;
                    for (line, v) in lines.iter_mut().zip(body_vectors(body)) {
                        if let Some(next) = self.leap(line, v) {
                            out.push(next.clone());
                            *line = next;
                            any = true;
                        }
                    }
                }
            }
            // Every route of one round, then of two, …: the routes found
            // depth first, in that order within each number of rounds.
            BEl::Crook(leap) => {
                let vectors = brute_vectors(leap);
                self.crook(&vectors, way.at, &mut Vec::new(), way, &mut out)?;
                out.sort_by_key(|route| route.ops.len());
            }
        }
        Ok(out)
    }

    /// The rounds of a crooked rider that entered on `entry` and has landed
    /// on `seen`: each round any vector, found depth first ("stop" before
    /// "once more"; [`Brute::el`] sorts them fewest rounds first); no
    /// landing on one of its own earlier landings, and none goes on from
    /// `entry` again (the no-revisit rule).
    pub(super) fn crook(
        &mut self,
        vectors: &[(i64, i64)],
        entry: (i64, i64),
        seen: &mut Vec<(i64, i64)>,
        way: BWay,
        out: &mut Vec<BWay>,
    ) -> Result<(), Budget> {
        for &v in vectors {
            let Some(next) = self.leap(&way, v) else {
                continue;
            };
            if seen.contains(&next.at) {
                continue;
            }
            out.push(next.clone());
            if out.len() > BRUTE_WAYS {
                return Err(Budget);
            }
            if next.at == entry {
                continue;
            }
            // Once more: this landing is not the crooked rider's last.
            let mut more = next.clone();
            if let Some(BOp::Leap { no_hole, .. }) = more.ops.last_mut() {
                *no_hole = true;
            }
            seen.push(next.at);
            self.crook(vectors, entry, seen, more, out)?;
            seen.pop();
        }
        Ok(())
    }

    /// Every path of `A*` in notation order: each round-1 way, then each
    /// made twice, three times, … (fewer rounds first), as landings
    /// `(square, no_hole)` and conditions.
    pub(super) fn paths(&mut self) -> Result<Vec<Vec<BStep>>, Budget> {
        let start = BWay {
            at: self.from,
            ops: Vec::new(),
        };
        let ways = self.seq(&self.case.a.clone(), start)?;
        // Per way, its paths of 1, 2, … rounds.
        let mut by_way = Vec::new();
        for way in ways {
            let mut paths = Vec::new();
            let mut path = Vec::new();
            let mut at = self.from;
            'rounds: loop {
                for op in &way.ops {
                    match *op {
                        BOp::Leap { f, r, no_hole } => {
                            let Some(to) = self.land(at, (f, r)) else {
                                break 'rounds;
                            };
                            at = to;
                            let square = (to.0 as usize) * self.case.cols + to.1 as usize;
                            path.push(BStep::Land { square, no_hole });
                        }
                        BOp::X => path.push(BStep::X),
                        BOp::C => path.push(BStep::C),
                        BOp::M => path.push(BStep::M),
                    }
                }
                paths.push(path.clone());
                if paths.len() > BRUTE_WAYS {
                    return Err(Budget);
                }
                if way.at == self.from {
                    // No leap at all (a leap back to FROM is never made): a
                    // later round would start where round 1 did, which the
                    // no-revisit rule cuts.
                    break;
                }
            }
            by_way.push(paths);
        }
        let most = by_way.iter().map(Vec::len).max().unwrap_or(0);
        let mut paths = Vec::new();
        for rounds in 0..most {
            for way in &by_way {
                paths.extend(way.get(rounds).cloned());
                if paths.len() > BRUTE_WAYS {
                    return Err(Budget);
                }
            }
        }
        Ok(paths)
    }
}

/// A step of a complete path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum BStep {
    Land { square: usize, no_hole: bool },
    X,
    C,
    M,
}

/// The spec's "Legal paths" and "A valid move" for one path on the board
/// before the move (an enemy taken with `x` is gone for the rest of the
/// path): `None` if illegal, else TO and the outcome.
pub(super) fn brute_judge(
    case: &BCase,
    board: &[MCell],
    path: &[BStep],
) -> Option<(usize, Outcome)> {
    let white = case.white;
    // What the path sees: (square, what it holds now).
    let mut seen = board.to_vec();
    let (mut must_capture, mut no_capture, mut captures) = (false, false, false);
    // The landing the path stands on, and whether it holds an enemy not
    // yet taken / taken by `x` there.
    let mut here: Option<usize> = None;
    let (mut enemy_here, mut taken_here) = (false, false);
    for step in path {
        match *step {
            BStep::Land { square, no_hole } => {
                // Only `x` or the end may follow an enemy landing.
                if enemy_here {
                    return None;
                }
                match seen[square] {
                    MCell::Piece { white: w, .. } if w == white => return None,
                    MCell::Piece { .. } => {
                        enemy_here = true;
                        captures = true;
                    }
                    MCell::Hole if no_hole => return None,
                    _ => {}
                }
                here = Some(square);
                taken_here = false;
            }
            BStep::X => {
                let square = here?;
                if enemy_here {
                    seen[square] = MCell::Empty;
                    enemy_here = false;
                    taken_here = true;
                } else if !taken_here {
                    return None;
                }
            }
            BStep::C => must_capture = true,
            BStep::M => no_capture = true,
        }
    }
    let to = here?;
    if (must_capture && !(enemy_here || taken_here)) || (no_capture && captures) {
        return None;
    }
    // The move: the mover leaves FROM, falls into the first hole, takes
    // with `x` and at the end.
    let mut cells = board.to_vec();
    cells[case.from] = MCell::Empty;
    let mut stacks = [Vec::new(), Vec::new()];
    let mut output = String::new();
    let mut error = None;
    let cols = case.cols;
    let value = |kind: usize, square: usize| match (kind, case.value) {
        (0, " x") | (2, _) => (square % cols) as i64 + 1,
        (0, " y") => (square / cols) as i64 + 1,
        (0, v) => v.trim().parse().unwrap(),
        _ => 9,
    };
    let mut input = vec![100i64, 101, 102, 103].into_iter();
    let mut fell = false;
    let mut last = None;
    for step in path {
        match *step {
            BStep::Land { square, .. } => {
                if cells[square] == MCell::Hole {
                    fell = true;
                    let stack = &mut stacks[usize::from(!white)];
                    let v = value(0, square);
                    if let Err(e) = stack_action(stack, white, v, &mut input, &mut output) {
                        error = Some(e);
                    }
                    break;
                }
                last = Some(square);
            }
            BStep::X => {
                let square = last.unwrap();
                if let MCell::Piece { kind, white: w } = cells[square] {
                    stacks[usize::from(!w)].push(value(kind, square));
                    cells[square] = MCell::Empty;
                }
            }
            _ => {}
        }
    }
    if !fell {
        if let MCell::Piece { kind, white: w } = cells[to] {
            stacks[usize::from(!w)].push(value(kind, to));
        }
        cells[to] = MCell::Piece { kind: 0, white };
    }
    let outcome = Outcome {
        valid: true,
        cells,
        stacks,
        output,
        error,
        lost: true,
    };
    Some((to, outcome))
}

/// The brute force's outcome of `FROM -> to` for every `to`: the first
/// legal path's (no royal piece: the check rule allows everything).
pub(super) fn brute_outcomes(case: &BCase) -> Result<HashMap<usize, Outcome>, Budget> {
    let from = (
        (case.from / case.cols) as i64,
        (case.from % case.cols) as i64,
    );
    let mut brute = Brute {
        case,
        from,
        listed: 0,
    };
    let board = case.board();
    let mut first = HashMap::new();
    for path in brute.paths()? {
        if let Some((to, outcome)) = brute_judge(case, &board, &path) {
            first.entry(to).or_insert(outcome);
        }
    }
    Ok(first)
}

pub(super) fn brute_leap() -> impl Strategy<Value = BLeap> {
    (
        prop::sample::select(vec![(1, 0), (1, 1), (0, 1), (2, 1), (1, 2), (2, 0)]),
        prop::sample::select(vec!["", "", "", "^", ">", "v<", "^>"]),
    )
        .prop_map(|((a, b), dirs)| (a, b, dirs))
}

/// A crooked body: short leaps only (a crooked knight has too many routes
/// to list even on 5×5).
pub(super) fn brute_crooked_leap() -> impl Strategy<Value = BLeap> {
    (
        prop::sample::select(vec![(1, 0), (1, 1), (2, 0)]),
        prop::sample::select(vec!["", "", "^", ">", "v<", "^>"]),
    )
        .prop_map(|((a, b), dirs)| (a, b, dirs))
}

pub(super) fn brute_el() -> BoxedStrategy<BEl> {
    let body = prop::collection::vec(brute_leap(), 1..=2).boxed();
    prop_oneof![
        8 => body.clone().prop_map(BEl::Leaps),
        8 => body.clone().prop_map(BEl::Star),
        5 => brute_crooked_leap().prop_map(BEl::Crook),
        1 => Just(BEl::X),
        1 => body.clone().prop_map(|b| BEl::C(Box::new(BEl::Star(b)))),
        1 => body.prop_map(|b| BEl::M(Box::new(BEl::Leaps(b)))),
    ]
    .boxed()
}

pub(super) fn crooks(els: &[BEl]) -> usize {
    els.iter()
        .map(|el| match el {
            BEl::Crook(_) => 1,
            BEl::C(inner) | BEl::M(inner) => crooks(std::slice::from_ref(inner)),
            BEl::Alt(a, b) => crooks(a) + crooks(b),
            _ => 0,
        })
        .sum()
}

pub(super) fn brute_case() -> impl Strategy<Value = BCase> {
    let seq = prop::collection::vec(brute_el(), 1..=2);
    let a = prop_oneof![
        4 => prop::collection::vec(brute_el(), 1..=3),
        1 => (seq.clone(), seq, prop::collection::vec(brute_el(), 0..=1)).prop_map(
            |(first, second, after)| {
                let mut a = vec![BEl::Alt(first, second)];
                a.extend(after);
                a
            }
        ),
    ]
    .prop_filter("more than one crooked rider", |a| crooks(a) <= 1);
    (
        a,
        any::<bool>(),
        prop::sample::select(vec![" 3", " 4", " 0", " 9", " x", " y", " 5"]),
        any::<bool>(),
        3usize..=5,
        4usize..=5,
    )
        .prop_flat_map(|(a, double_star, value, white, rows, cols)| {
            let cell = prop_oneof![
                12 => Just((0u8, false)),
                2 => Just((1u8, false)),
                1 => (2u8..=3, any::<bool>()),
            ];
            (
                Just((a, double_star, value, white, rows, cols)),
                prop::collection::vec(cell, rows * cols),
                0..rows * cols,
            )
        })
        .prop_map(
            |((a, double_star, value, white, rows, cols), cells, from)| BCase {
                a,
                double_star,
                value,
                white,
                rows,
                cols,
                cells,
                from,
            },
        )
}

/// What a brute-force case showed.
#[derive(Debug)]
pub(super) enum BVerdict {
    /// Compared: how many TO squares the brute force reaches.
    Agree(usize),
    Skipped(&'static str),
    /// The model differs from the brute force (the model's fault).
    Model(String),
    /// The engine differs (with the brute force and the model agreeing).
    Engine(String),
}

/// Compares, for every TO on the board, the brute force's first legal path
/// with the model's move and with the engine's (`Game::try_move`, and
/// `Game::try_paths` with the compiler's list where it lists the paths).
pub(super) fn run_brute_case(case: &BCase) -> BVerdict {
    let case = case.clone();
    std::thread::Builder::new()
        .stack_size(1 << 30)
        .spawn(move || run_brute_case_here(&case))
        .unwrap()
        .join()
        .unwrap()
}

pub(super) fn run_brute_case_here(case: &BCase) -> BVerdict {
    let text = case.text();
    let Ok(expected) = brute_outcomes(case) else {
        return BVerdict::Skipped("too many round-1 ways");
    };
    let with_line = format!("{text}Turn 1 W: P a1 -> a1\n");
    let source = Source::new("same_way.fv", with_line.clone());
    let tree = syntax::parse(&source).unwrap();
    let program = match finvara::Stages::front_end(&source) {
        Ok((program, _)) => program,
        Err(_) => return BVerdict::Skipped("compile error"),
    };
    let model = Model::new(&tree);
    let board = model.board(&tree);
    assert_eq!(board, case.board(), "{text}");
    let name = |sq: usize| finvara::ir::square_name(case.cols as u32, sq as u32);
    let mover = (case.white, 0, case.from);
    let brute = |to: usize| {
        expected.get(&to).cloned().unwrap_or_else(|| Outcome {
            valid: false,
            cells: board.clone(),
            stacks: [Vec::new(), Vec::new()],
            output: String::new(),
            error: None,
            lost: true,
        })
    };
    // No royal piece: `lost` is always true; the engine does not say so
    // after a runtime error.
    let same = |to: usize, other: &Outcome| {
        let mut other = other.clone();
        other.lost = true;
        other == brute(to)
    };
    let report = |to: usize, who: &str, other: &Outcome| {
        format!(
            "{text}move: {} M {} -> {}\nbrute force: {}\n{who}: {}",
            if case.white { "W" } else { "B" },
            name(case.from),
            name(to),
            show_as(&brute(to), case.cols, &["M", "P", "Q"]),
            show_as(other, case.cols, &["M", "P", "Q"]),
        )
    };
    // The model on every TO first, then the engine.
    for to in 0..case.rows * case.cols {
        let mut runner = Runner::new(&model, 200_000);
        let mut input = vec![100i64, 101, 102, 103].into_iter();
        match runner.play(&board, mover, to, None, &mut input) {
            Ok(outcome) if !same(to, &outcome) => {
                return BVerdict::Model(report(to, "model", &outcome));
            }
            Ok(_) => {}
            Err(Budget) => return BVerdict::Skipped("model budget"),
        }
    }
    for to in 0..case.rows * case.cols {
        let actual = engine_outcome(&program, mover, to, None, INPUT);
        if !same(to, &actual) {
            return BVerdict::Engine(report(to, "engine (try_move)", &actual));
        }
        // The move as a move line, compiled (the slow part): every TO the
        // brute force reaches, and every fourth of the others.
        if !expected.contains_key(&to) && to % 4 != case.from % 4 {
            continue;
        }
        let line = format!("M {} -> {}", name(case.from), name(to));
        let moves = if case.white {
            format!("Turn 1 W: {line}\n")
        } else {
            format!("Turn 1 W: P a1 -> a1\nTurn 1 B: {line}\n")
        };
        let lined_text = format!("{text}{moves}");
        let Ok((lined, _)) = finvara::Stages::front_end(&Source::new("same_way.fv", lined_text))
        else {
            return BVerdict::Engine(format!("{text}the move line {line} does not compile"));
        };
        if let finvara::ir::Action::Move {
            paths: Some(listed),
            ..
        } = &lined.lines.last().unwrap().action
        {
            let actual = engine_outcome_with(&lined, mover, to, None, INPUT, Some(listed));
            if !same(to, &actual) {
                return BVerdict::Engine(report(to, "engine (try_paths, listed)", &actual));
            }
        }
    }
    BVerdict::Agree(expected.len())
}

proptest! {
    #![proptest_config(Config {
        cases: std::env::var("MODEL_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(64),
        max_global_rejects: 10_000,
        max_shrink_iters: 500,
        ..Config::default()
    })]

    /// Nested repetitions against the brute force: the model, then the
    /// engine, on every TO of small boards.
    #[test]
    fn same_way_paths_agree_with_brute_force(case in brute_case()) {
        match run_brute_case(&case) {
            BVerdict::Agree(_) => {}
            BVerdict::Skipped(why) => prop_assume!(false, "{}", why),
            BVerdict::Model(report) => prop_assert!(false, "the model differs:\n{}", report),
            BVerdict::Engine(report) => prop_assert!(false, "the engine differs:\n{}", report),
        }
    }
}

/// A fixed-seed run of the brute-force comparison: most cases compared,
/// most of them reaching several squares, and no disagreement (the model's
/// counted apart from the engine's).
#[test]
fn same_way_brute_force_cases_are_compared() {
    let mut runner = TestRunner::new_with_rng(
        Config::default(),
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let strategy = brute_case();
    let (mut compared, mut reached, mut skipped) = (0, 0, HashMap::new());
    let (mut model, mut engine) = (Vec::new(), Vec::new());
    for _ in 0..150 {
        let case = strategy.new_tree(&mut runner).unwrap().current();
        if std::env::var_os("MODEL_DEBUG").is_some() {
            eprintln!("CASE\n{}", case.text());
        }
        let start = std::time::Instant::now();
        let verdict = run_brute_case(&case);
        if std::env::var_os("MODEL_DEBUG").is_some() {
            eprintln!("{:?} {verdict:?}", start.elapsed());
        }
        match verdict {
            BVerdict::Agree(n) => {
                compared += 1;
                reached += n;
            }
            BVerdict::Skipped(why) => *skipped.entry(why).or_insert(0) += 1,
            BVerdict::Model(report) => model.push(report),
            BVerdict::Engine(report) => engine.push(report),
        }
    }
    eprintln!(
        "brute force: {compared} agree ({reached} TO squares reached), {} model and {} engine \
         disagreements, skipped {skipped:?}",
        model.len(),
        engine.len()
    );
    assert!(model.is_empty(), "the model differs:\n{}", model[0]);
    assert!(
        engine.is_empty(),
        "the engine differs on {} of {} cases; the first:\n{}",
        engine.len(),
        compared + engine.len(),
        engine[0]
    );
    assert!(compared >= 130, "only {compared} of 150 cases compared");
}

/// `[(1,0)*]*`: a rider of rides. Each round of the outer `*` repeats round
/// 1 exactly — the inner rider's vector *and* how far it went — so the piece
/// stays on one line, like a rook: from a1 it reaches a3 (one step right,
/// twice; or two steps right, once) and c1, but not c2 (two steps up and
/// then one right would be two different ways).
#[test]
fn rider_of_riders_keeps_one_line() {
    let case = BCase {
        a: vec![BEl::Star(vec![(1, 0, "")])],
        double_star: false,
        value: " 3",
        white: true,
        rows: 5,
        cols: 5,
        cells: vec![(0, false); 25],
        from: 0,
    };
    assert_eq!(case.notation(), "[(1,0)*]*");
    let text = format!("{}Turn 1 W: P a1 -> a1\n", case.text());
    let source = Source::new("rook.fv", text.clone());
    let (program, _) = finvara::Stages::front_end(&source).unwrap();
    let tree = syntax::parse(&source).unwrap();
    let model = Model::new(&tree);
    let board = model.board(&tree);
    let name = |sq: usize| finvara::ir::square_name(5, sq as u32);
    let brute = brute_outcomes(&case).unwrap();
    let (mut by_brute, mut by_model, mut by_engine) = (Vec::new(), Vec::new(), Vec::new());
    for to in 1..25 {
        if brute.contains_key(&to) {
            by_brute.push(name(to));
        }
        let mut runner = Runner::new(&model, LIMIT);
        let mut input = vec![100i64].into_iter();
        if runner
            .play(&board, (true, 0, 0), to, None, &mut input)
            .unwrap()
            .valid
        {
            by_model.push(name(to));
        }
        if engine_outcome(&program, (true, 0, 0), to, None, INPUT).valid {
            by_engine.push(name(to));
        }
    }
    let line = ["a2", "a3", "a4", "a5", "b1", "c1", "d1", "e1"];
    assert_eq!(by_brute, line);
    assert_eq!(by_model, line);
    // The engine: a1 -> c2 must be invalid; a3 and c1 valid.
    assert!(
        !by_engine.contains(&"c2".to_string()),
        "the engine lets [(1,0)*]* go a1 -> c2 (two steps up, then one right: not the \
         same way); it reaches {by_engine:?}"
    );
    assert!(by_engine.contains(&"a3".to_string()) && by_engine.contains(&"c1".to_string()));
    assert_eq!(by_engine, line);
    // The compiler lists no path for the move line a1 -> c2.
    let lined = text.replace("Turn 1 W: P a1 -> a1", "Turn 1 W: M a1 -> c2");
    let (lined, _) = finvara::Stages::front_end(&Source::new("rook.fv", lined)).unwrap();
    if let finvara::ir::Action::Move {
        paths: Some(listed),
        ..
    } = &lined.lines.last().unwrap().action
    {
        let listed: Vec<Vec<String>> = listed
            .iter()
            .map(|p| p.steps.iter().map(|s| name(s.square as usize)).collect())
            .collect();
        assert!(listed.is_empty(), "the compiler lists a1 -> c2: {listed:?}");
    }
}

#[test]
fn model_rider_of_riders_paths() {
    // Fewer outer rounds first, then fewer inner ones, then the inner
    // rider's vector (up, down, right, left): c1 is reached twice (two
    // steps, one round; one step, two rounds), and nothing leaves the
    // line.
    let text = "(R 3): [(1,0)*]*
+--+--+--+
|  |  |  |
+--+--+--+
|  |  |  |
+--+--+--+
|RW|  |  |
+--+--+--+
";
    assert_eq!(
        model_paths(text, "a1"),
        ["b1", "a2", "b1 c1", "a2 a3", "b1 c1", "a2 a3"]
    );
    // `(1,0)**` is the same piece written without the group.
    assert_eq!(
        model_paths(&text.replace("[(1,0)*]*", "(1,0)**"), "a1"),
        ["b1", "a2", "b1 c1", "a2 a3", "b1 c1", "a2 a3"]
    );
    // A crooked rider inside a `*` (up or right): round 2 repeats round 1's
    // whole route. One outer round first, its routes fewest crooked rounds
    // first (up before right within a count: every route from a1 to each
    // square of the board); then two outer rounds, each route of round 1
    // repeated where that stays on the board: b1 then c1 (up, twice); a2
    // then a3; b1 b2 then c2 c3 (up and right, twice); a2 b2 then b3 c3. A
    // round 2 that went another route (b1 then b2: up, then right) is not
    // listed as two rounds — b1 b2 is there once, as one round of up and
    // right.
    let text = text.replace("[(1,0)*]*", "[(1,0|^>)`]*");
    assert_eq!(
        model_paths(&text, "a1"),
        [
            "b1",
            "a2",
            "b1 c1",
            "b1 b2",
            "a2 b2",
            "a2 a3",
            "b1 c1 c2",
            "b1 b2 c2",
            "b1 b2 b3",
            "a2 b2 c2",
            "a2 b2 b3",
            "a2 a3 b3",
            "b1 c1 c2 c3",
            "b1 b2 c2 c3",
            "b1 b2 b3 c3",
            "a2 b2 c2 c3",
            "a2 b2 b3 c3",
            "a2 a3 b3 c3",
            "b1 c1",
            "a2 a3",
            "b1 b2 c2 c3",
            "a2 b2 b3 c3"
        ]
    );
}

/// A `*` over any number of ways is a valid piece: `[(1,2)(1,2)(1,2)(1,2)
/// (1,2)]*` has 8^5 = 32,768 (the way is recorded as the path goes, not
/// listed beforehand). One round can end a knight's move away: b3 from a1
/// (the first such round in notation order lands on b3, c5, then back).
#[test]
fn star_over_many_ways_is_a_valid_piece() {
    let text = "(K):
(a 1): [(1,2)(1,2)(1,2)(1,2)(1,2)]*
+--+--+--+--+--+--+
|  |  |  |  |  |KB|
+--+--+--+--+--+--+
|  |  |  |  |  |  |
+--+--+--+--+--+--+
|  |  |  |  |  |  |
+--+--+--+--+--+--+
|  |  |  |  |  |  |
+--+--+--+--+--+--+
|  |  |  |  |  |  |
+--+--+--+--+--+--+
|aW|  |  |  |  |KW|
+--+--+--+--+--+--+
";
    let source = Source::new("ways.fv", text);
    if let Err(errors) = finvara::Stages::front_end(&source) {
        panic!(
            "a `*` over 32,768 ways is refused: {}",
            errors.render(&source)
        );
    }
    let (model, engine) = both(text, "a1", "b3", None);
    assert!(model.valid);
    assert_eq!(model, engine);
}

/// Debugging aid: the model's chosen path for `MODEL_FILE`'s last piece on
/// FROM (`MODEL_FROM`, a square index) to `MODEL_TO` with promotion target
/// `MODEL_PROMOTE` (a piece index).
#[test]
#[ignore]
fn model_debug_chosen_path() {
    let text = std::fs::read_to_string(std::env::var("MODEL_FILE").unwrap()).unwrap();
    let get = |name: &str| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse::<usize>().ok())
    };
    let source = Source::new("debug.fv", text);
    let tree = syntax::parse(&source).unwrap();
    let model = Model::new(&tree);
    let board = model.board(&tree);
    let mut steps = 0;
    let from = get("MODEL_FROM").unwrap();
    let MCell::Piece { kind, white } = board[from] else {
        panic!("no piece")
    };
    let mut search = Search::new(
        &model,
        &board,
        &mut steps,
        LIMIT,
        (white, kind, from),
        Goal::Move {
            to: get("MODEL_TO").unwrap(),
            promote: get("MODEL_PROMOTE"),
        },
    );
    search.run().unwrap();
    let found = search.found.take().map(|(p, _, e)| (p.lands, e));
    eprintln!("{found:?}");
}
