//! Closed forms of loops, found by induction-variable analysis (as
//! LLVM's scalar evolution does).
//!
//! - **Counting loops** ([`counting`]): the body only adds loop-invariant
//!   amounts to cells and variables (the analogue of Brainfuck's multiply
//!   and move loops). Every pass changes each place by the same sum, so
//!   the values after k passes, the pass at which the condition ends the
//!   loop and the first pass with an overflow have closed forms in
//!   constant time (runtime `chc::skip`).
//! - **Polynomial loops** ([`polynomial`]): the body adds constants and
//!   places that are themselves induction variables, assigns, and may hold
//!   inner loops that end on a counter reaching a bound; every value is
//!   then a polynomial in the pass number whose degree the analysis here
//!   bounds (a counter: 1, the sum of a counter: 2, a nest whose inner
//!   trip count grows with the outer counter: more). Generated code gives
//!   the pass as a pure function; the runtime (`chc::skip_passes`,
//!   `chc::run_to_end`) fits the polynomials from a few passes and skips
//!   exactly up to the loop's last pass, the step limit or the first
//!   overflow, whichever comes first.

use chess2rs_runtime::__private::chc::{Exit, Role};
use std::collections::BTreeMap;

use chess2rs_runtime::__private::chc::MAX_DEGREE;

use super::ir::{Cell, Condition, Loop, Op, Stmt, Var};

/// A cell or a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// A cell.
    Cell(Cell),
    /// A variable.
    Var(Var),
}

/// One addition of a pass: 1 (`C+`) or a place the loop does not change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Addend {
    /// `C+`.
    One,
    /// `CxD+`, `VxC+`, `VC+`.
    Place(Place),
}

/// A counting loop's summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counting {
    /// Steps of one pass: the body's lines and the condition.
    pub steps_per_pass: u64,
    /// Each changed place (in order of first change) and what a pass adds
    /// to it, in order.
    pub changed: Vec<(Place, Vec<Addend>)>,
}

impl Counting {
    /// Whether a pass changes `place`.
    pub fn changes(&self, place: Place) -> bool {
        self.changed.iter().any(|(p, _)| *p == place)
    }
}

/// The summary of `body` if it is a counting loop: its body is commands
/// only, each an addition (or a label, which does nothing), and no place
/// that is added to is also added from.
pub fn counting(body: &Loop) -> Option<Counting> {
    let mut changed: Vec<(Place, Vec<Addend>)> = Vec::new();
    let mut read = Vec::new();
    for statement in &body.body {
        let Stmt::Step(step) = statement else {
            return None;
        };
        let (to, addend) = match step.op {
            Op::Label => continue,
            Op::Increment(c) => (Place::Cell(c), Addend::One),
            Op::AddCell(to, from) => (Place::Cell(to), Addend::Place(Place::Cell(from))),
            Op::CellAddVar(v, c) => (Place::Cell(c), Addend::Place(Place::Var(v))),
            Op::VarAddCell(v, c) => (Place::Var(v), Addend::Place(Place::Cell(c))),
            _ => return None,
        };
        if let Addend::Place(from) = addend {
            read.push(from);
        }
        match changed.iter_mut().find(|(p, _)| *p == to) {
            Some((_, adds)) => adds.push(addend),
            None => changed.push((to, vec![addend])),
        }
    }
    if read
        .iter()
        .any(|&from| changed.iter().any(|(p, _)| *p == from))
    {
        return None;
    }
    Some(Counting {
        steps_per_pass: body.body.len() as u64 + 1,
        changed,
    })
}

/// How a loop is skipped or run in closed form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClosedForm {
    /// Loop-invariant addends only: constant time, no fitting.
    Counting(Counting),
    /// Values polynomial in the pass number.
    Polynomial(Polynomial),
}

/// The closed form of `body`, if it has one: a counting loop, else a
/// polynomial one.
pub fn closed_form(body: &Loop) -> Option<ClosedForm> {
    match counting(body) {
        Some(counting) => Some(ClosedForm::Counting(counting)),
        None => polynomial(body).map(ClosedForm::Polynomial),
    }
}

/// A loop whose values are polynomials in its pass number, as generated
/// code gives it to the runtime: one pass as a pure function of the
/// changed places.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Polynomial {
    /// A bound on the degree of every value, watched value and step count.
    pub degree: usize,
    /// Whether the first pass is off the pattern and the fit starts after
    /// it: in a loop holding inner loops the first inner trip count depends
    /// on the values before the loop, and a place the loop assigns starts
    /// it with a value from before the loop.
    pub warmup: bool,
    /// The places the loop changes: the pass function's state.
    pub state: Vec<Place>,
    /// What one pass does, in order.
    pub ops: Vec<PureOp>,
    /// What each watched value must satisfy, by slot.
    pub roles: Vec<Role>,
    /// The watched slots of the compared values at the end of a pass.
    pub exit: Exit,
    /// Steps of one pass besides the passes of inner loops: the body's
    /// lines (an inner loop's label included) and the condition.
    pub fixed_steps: u64,
}

/// One operation of a pure pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PureOp {
    /// `to += addend`, checked.
    Add {
        /// The place added to.
        to: Place,
        /// What is added.
        addend: Addend,
    },
    /// `to = from`.
    Assign {
        /// The place assigned.
        to: Place,
        /// The place whose value it takes.
        from: Place,
    },
    /// `watch[slot] = value` (a place's current value, or 1).
    Watch {
        /// The watched slot.
        slot: usize,
        /// What it watches.
        value: Addend,
    },
    /// `watch[slot] = from - to + Σ plus - Σ minus`, checked: the gap
    /// between an inner loop's counter and one of its two bounds, now or
    /// after one more pass of it.
    WatchGap {
        /// The watched slot.
        slot: usize,
        /// The counter.
        from: Place,
        /// The bound.
        to: Place,
        /// What a pass of the inner loop adds to the counter.
        plus: Vec<Addend>,
        /// What a pass of the inner loop adds to the bound.
        minus: Vec<Addend>,
    },
    /// An inner loop (after its label) run to its end in closed form.
    Inner(Inner),
}

/// An inner loop of a polynomial loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inner {
    /// Its label's line.
    pub label_line: u32,
    /// Its condition.
    pub condition: Condition,
    /// How it runs to its end.
    pub closed: Box<ClosedForm>,
    /// The slot that watches its pass count (at least 1).
    pub count_slot: usize,
}

/// The polynomial closed form of `body`, if its values are polynomials of
/// bounded degree in the pass number: its body holds only additions,
/// assignments, labels and inner loops that end when a counter moving by
/// a loop-wide constant reaches a bound (see [`inner_loop_fits`]).
pub fn polynomial(body: &Loop) -> Option<Polynomial> {
    let changed = changed_places(&body.body);
    let mut warmup = false;
    for statement in &body.body {
        match statement {
            Stmt::Step(step) => {
                if let Some(PureOp::Assign { .. }) = pure_op(step.op)? {
                    warmup = true;
                }
            }
            Stmt::Loop(inner) => {
                if !inner_loop_fits(inner, &changed) {
                    return None;
                }
                warmup = true;
            }
        }
    }
    let analysis = analyse(&body.body, &Degrees::default(), 1)?;
    let mut plan = Plan::default();
    for statement in &body.body {
        match statement {
            Stmt::Step(step) => match pure_op(step.op)? {
                None => {}
                Some(op @ PureOp::Add { to, .. }) => {
                    plan.ops.push(op);
                    plan.watch(Addend::Place(to), Role::Value);
                }
                Some(op) => plan.ops.push(op),
            },
            Stmt::Loop(inner) => plan.inner(inner)?,
        }
    }
    let condition = body.condition;
    let exit = Exit {
        cell: plan.watch(Addend::Place(Place::Cell(condition.cell)), Role::Value),
        var: plan.watch(Addend::Place(Place::Var(condition.var)), Role::Value),
        also: condition
            .also
            .map(|also| plan.watch(Addend::Place(Place::Cell(also)), Role::Value)),
        negated: condition.negated,
    };
    Some(Polynomial {
        degree: analysis.peak as usize,
        warmup,
        state: changed,
        ops: plan.ops,
        roles: plan.roles,
        exit,
        fixed_steps: statement_count(&body.body) + 1,
    })
}

/// The pure operation of a command, `Some(None)` for one that does
/// nothing (a label, a copy onto itself), `None` for one a polynomial loop
/// cannot hold (input, output, a change of output mode).
fn pure_op(op: Op) -> Option<Option<PureOp>> {
    let add = |to, addend| Some(Some(PureOp::Add { to, addend }));
    let assign = |to, from| Some(Some(PureOp::Assign { to, from }));
    match op {
        Op::Label => Some(None),
        Op::Copy(to, from) if to == from => Some(None),
        Op::Increment(c) => add(Place::Cell(c), Addend::One),
        Op::AddCell(to, from) => add(Place::Cell(to), Addend::Place(Place::Cell(from))),
        Op::CellAddVar(v, c) => add(Place::Cell(c), Addend::Place(Place::Var(v))),
        Op::VarAddCell(v, c) => add(Place::Var(v), Addend::Place(Place::Cell(c))),
        Op::Copy(to, from) => assign(Place::Cell(to), Place::Cell(from)),
        Op::VarFromCell(v, c) => assign(Place::Var(v), Place::Cell(c)),
        Op::CellFromVar(v, c) => assign(Place::Cell(c), Place::Var(v)),
        Op::Output(_) | Op::Input(_) | Op::VarInput(..) | Op::AsciiMode | Op::RawMode => None,
    }
}

/// Whether an inner loop can run in closed form inside a polynomial loop
/// whose body changes `outer_changed`: it holds only additions, labels and
/// assignments to places nothing else in it touches (they cannot overflow
/// and only their last value counts), has a closed form of its own, and
/// loops back while its cell differs from its variable (and from its
/// second cell, if any), the compared places moving apart by the same
/// amount every pass of every run (constants and places the outer loop
/// leaves alone), so it ends with the cell equal to a bound after a pass
/// count that is a polynomial too while the same bound is met (which the
/// runtime checks: see `Plan::gaps`).
fn inner_loop_fits(inner: &Loop, outer_changed: &[Place]) -> bool {
    let condition = inner.condition;
    if !condition.negated || condition.also == Some(condition.cell) {
        return false;
    }
    let compared = compared_places(condition);
    let mut ops = Vec::new();
    for statement in &inner.body {
        match statement {
            Stmt::Loop(_) => return false,
            Stmt::Step(step) => match pure_op(step.op) {
                Some(Some(op)) => ops.push(op),
                Some(None) => {}
                None => return false,
            },
        }
    }
    // Places an assignment may not write: those compared, added to or read.
    let touched: Vec<Place> = ops
        .iter()
        .flat_map(|op| match *op {
            PureOp::Add {
                to,
                addend: Addend::Place(from),
            } => vec![to, from],
            PureOp::Add {
                to,
                addend: Addend::One,
            } => vec![to],
            PureOp::Assign { from, .. } => vec![from],
            PureOp::Watch { .. } | PureOp::WatchGap { .. } | PureOp::Inner(_) => Vec::new(),
        })
        .chain(compared.iter().copied())
        .collect();
    let assigned = |place: Place| {
        ops.iter()
            .filter(|op| matches!(op, PureOp::Assign { to, .. } if *to == place))
            .count()
    };
    ops.iter().all(|op| match *op {
        PureOp::Add { to, addend } => {
            !compared.contains(&to)
                || match addend {
                    Addend::One => true,
                    Addend::Place(from) => !outer_changed.contains(&from),
                }
        }
        PureOp::Assign { to, .. } => !touched.contains(&to) && assigned(to) == 1,
        PureOp::Watch { .. } | PureOp::WatchGap { .. } | PureOp::Inner(_) => false,
    }) && closed_form(inner).is_some()
}

/// The places a loop's condition compares: its cell, its variable and its
/// second cell if any.
fn compared_places(condition: Condition) -> Vec<Place> {
    let mut compared = vec![Place::Cell(condition.cell), Place::Var(condition.var)];
    compared.extend(condition.also.map(Place::Cell));
    compared
}

/// The bounds an inner loop's counter (its condition's cell) may meet:
/// its variable and its second cell if any.
fn bounds(condition: Condition) -> Vec<Place> {
    compared_places(condition).split_off(1)
}

/// The places statements change (at any depth), in order of first change.
pub fn changed_places(statements: &[Stmt]) -> Vec<Place> {
    fn collect(statements: &[Stmt], changed: &mut Vec<Place>) {
        for statement in statements {
            let written: &[Place] = match statement {
                Stmt::Loop(inner) => {
                    collect(&inner.body, changed);
                    &[]
                }
                Stmt::Step(step) => match step.op {
                    Op::Increment(c) | Op::AddCell(c, _) | Op::Copy(c, _) | Op::Input(c) => {
                        &[Place::Cell(c)]
                    }
                    Op::CellAddVar(_, c) | Op::CellFromVar(_, c) => &[Place::Cell(c)],
                    Op::VarAddCell(v, _) | Op::VarFromCell(v, _) => &[Place::Var(v)],
                    Op::VarInput(v, c) => &[Place::Var(v), Place::Cell(c)],
                    Op::Output(_) | Op::AsciiMode | Op::RawMode | Op::Label => &[],
                },
            };
            for &place in written {
                if !changed.contains(&place) {
                    changed.push(place);
                }
            }
        }
    }
    let mut changed = Vec::new();
    collect(statements, &mut changed);
    changed
}

/// Source lines executed once per pass by statements, not counting inner
/// loops' passes (their labels count).
fn statement_count(statements: &[Stmt]) -> u64 {
    statements.len() as u64
}

/// The pure pass under construction: its operations and watched slots.
#[derive(Default)]
struct Plan {
    ops: Vec<PureOp>,
    roles: Vec<Role>,
    /// Sign groups used so far.
    groups: u16,
    /// Pairs of `Apart` groups used so far.
    pairs: u16,
}

impl Plan {
    /// Watches `value` in a new slot.
    fn watch(&mut self, value: Addend, role: Role) -> usize {
        let slot = self.roles.len();
        self.roles.push(role);
        self.ops.push(PureOp::Watch { slot, value });
        slot
    }

    /// An inner loop: its changed places watched before and after, the
    /// amounts it adds to each place in one sign group (so each place
    /// moves one way inside it, between the watched ends), its pass count;
    /// with two bounds, the counter's gaps to each at its first and last
    /// check, so one bound is never met and the pass count follows the
    /// other.
    fn inner(&mut self, inner: &Loop) -> Option<()> {
        let changed = changed_places(&inner.body);
        let mut addends: Vec<(Place, Addend)> = Vec::new();
        for statement in &inner.body {
            if let Stmt::Step(step) = statement {
                if let Some(Some(PureOp::Add { to, addend })) = pure_op(step.op) {
                    addends.push((to, addend));
                }
            }
        }
        let group_of = |place: Place| changed.iter().position(|&p| p == place).map(|g| g as u16);
        let first_group = self.groups;
        self.groups += changed.len() as u16;
        for &place in &changed {
            self.watch(Addend::Place(place), Role::Inside);
        }
        let mut after = Vec::new();
        for &(to, addend) in &addends {
            let role = Role::Sign(first_group + group_of(to)?);
            self.watch(addend, role);
            if let Addend::Place(from) = addend {
                if changed.contains(&from) {
                    after.push((addend, role));
                }
            }
        }
        let gaps = self.gaps(inner, &addends)?;
        for gap in &gaps {
            self.gap(gap, true);
        }
        let count_slot = self.roles.len();
        self.roles.push(Role::Positive);
        self.ops.push(PureOp::Inner(Inner {
            label_line: inner.label_line,
            condition: inner.condition,
            closed: Box::new(closed_form(inner)?),
            count_slot,
        }));
        for (addend, role) in after {
            self.watch(addend, role);
        }
        for gap in &gaps {
            self.gap(gap, false);
        }
        for &place in &changed {
            self.watch(Addend::Place(place), Role::Inside);
        }
        Some(())
    }

    /// For an inner loop with two bounds, a gap per bound in its own
    /// `Apart` group of a new pair (empty with one bound); `None` if the
    /// groups run out.
    fn gaps(&mut self, inner: &Loop, addends: &[(Place, Addend)]) -> Option<Vec<Gap>> {
        let condition = inner.condition;
        if condition.also.is_none() {
            return Some(Vec::new());
        }
        let pair = self.pairs;
        if pair >= 64 {
            return None;
        }
        self.pairs += 1;
        let counter = Place::Cell(condition.cell);
        let adds_to = |place: Place| -> Vec<Addend> {
            addends
                .iter()
                .filter(|(to, _)| *to == place)
                .map(|&(_, addend)| addend)
                .collect()
        };
        let gaps = bounds(condition)
            .into_iter()
            .enumerate()
            .map(|(k, bound)| Gap {
                group: 2 * pair + k as u16,
                counter,
                bound,
                plus: adds_to(counter),
                minus: adds_to(bound),
            })
            .collect();
        Some(gaps)
    }

    /// Watches a gap: before the inner loop (`first`) as it will be at its
    /// first check, else as it is at its end.
    fn gap(&mut self, gap: &Gap, first: bool) {
        let slot = self.roles.len();
        self.roles.push(Role::Apart(gap.group));
        let (plus, minus) = if first {
            (gap.plus.clone(), gap.minus.clone())
        } else {
            (Vec::new(), Vec::new())
        };
        self.ops.push(PureOp::WatchGap {
            slot,
            from: gap.counter,
            to: gap.bound,
            plus,
            minus,
        });
    }
}

/// The gap between an inner loop's counter and one of its two bounds.
struct Gap {
    /// Its `Apart` group.
    group: u16,
    /// The counter (the condition's cell).
    counter: Place,
    /// The bound.
    bound: Place,
    /// What a pass adds to the counter.
    plus: Vec<Addend>,
    /// What a pass adds to the bound.
    minus: Vec<Addend>,
}

/// Degrees, in a pass number, of places' values (absent: 0).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Degrees(BTreeMap<Place, u32>);

impl Degrees {
    fn get(&self, place: Place) -> u32 {
        self.0.get(&place).copied().unwrap_or(0)
    }

    fn of(&self, addend: Addend) -> u32 {
        match addend {
            Addend::One => 0,
            Addend::Place(place) => self.get(place),
        }
    }

    fn set(&mut self, place: Place, degree: u32) {
        self.0.insert(place, degree);
    }

    fn raise(&mut self, place: Place, degree: u32) {
        let entry = self.0.entry(place).or_insert(0);
        *entry = (*entry).max(degree);
    }

    fn raise_all(&mut self, other: &Degrees) {
        for (&place, &degree) in &other.0 {
            self.raise(place, degree);
        }
    }

    fn max(&self) -> u32 {
        self.0.values().copied().max().unwrap_or(0)
    }
}

/// What the degree analysis of a loop found.
struct Analysis {
    /// The degree of each place's total change over a run of the loop
    /// (places it only adds to).
    change: Degrees,
    /// The highest degree of any value at any point, of a pass count or
    /// of a pass's steps.
    peak: u32,
}

/// The degrees of a loop's values in the pass number of the outermost
/// loop analysed, given the degrees `entry` of the values it starts with
/// and the degree `weight` of its own pass count (1 for the outermost
/// loop, whose pass count is its pass number). A fixed point: degrees at
/// the start of a pass are raised until one more pass raises none; `None`
/// if they pass [`MAX_DEGREE`] (a place that doubles grows exponentially).
fn analyse(body: &[Stmt], entry: &Degrees, weight: u32) -> Option<Analysis> {
    let mut start = entry.clone();
    let mut peaks = entry.clone();
    loop {
        let pass = walk(body, &start, &peaks)?;
        let mut next = entry.clone();
        for (&place, &degree) in &pass.end.0 {
            if pass.assigned.contains(&place) {
                next.raise(place, degree);
            } else if let Some(&added) = pass.added.0.get(&place) {
                next.raise(place, added + weight);
            }
        }
        let mut next_peaks = peaks.clone();
        next_peaks.raise_all(&pass.peaks);
        next_peaks.raise_all(&next);
        if next.max() as usize > MAX_DEGREE || pass.seen as usize > MAX_DEGREE {
            return None;
        }
        if next == start && next_peaks == peaks {
            let mut change = Degrees::default();
            for (&place, &added) in &pass.added.0 {
                if !pass.assigned.contains(&place) {
                    change.set(place, added + weight);
                }
            }
            return Some(Analysis {
                change,
                peak: pass.seen.max(next_peaks.max()),
            });
        }
        start = next;
        peaks = next_peaks;
    }
}

/// One pass of the degree analysis.
struct PassDegrees {
    /// Degrees at the end of the pass.
    end: Degrees,
    /// For places not assigned in the pass: the highest degree of an
    /// amount added to them.
    added: Degrees,
    /// Places assigned in the pass.
    assigned: Vec<Place>,
    /// The highest degree of each place at any point.
    peaks: Degrees,
    /// The highest degree of anything seen (values, pass counts, steps).
    seen: u32,
}

/// Walks one pass from degrees `start`; `peaks` (each place's highest
/// degree anywhere, from the previous round) bounds inner trip counts.
fn walk(body: &[Stmt], start: &Degrees, peaks: &Degrees) -> Option<PassDegrees> {
    let mut pass = PassDegrees {
        end: start.clone(),
        added: Degrees::default(),
        assigned: Vec::new(),
        peaks: start.clone(),
        seen: start.max(),
    };
    for (index, statement) in body.iter().enumerate() {
        match statement {
            Stmt::Step(step) => match pure_op(step.op)? {
                None | Some(PureOp::Watch { .. } | PureOp::WatchGap { .. } | PureOp::Inner(_)) => {}
                Some(PureOp::Add { to, addend }) => {
                    let degree = pass.end.of(addend);
                    pass.end.raise(to, degree);
                    if !pass.assigned.contains(&to) {
                        pass.added.raise(to, degree);
                    }
                }
                Some(PureOp::Assign { to, from }) => {
                    pass.end.set(to, pass.end.get(from));
                    pass.assigned.push(to);
                }
            },
            Stmt::Loop(inner) => {
                let trips = trip_degree(body, index, inner, peaks);
                let analysis = analyse(&inner.body, &pass.end, trips)?;
                for (&place, &change) in &analysis.change.0 {
                    pass.end.raise(place, change);
                    if !pass.assigned.contains(&place) {
                        pass.added.raise(place, change);
                    }
                }
                pass.seen = pass.seen.max(analysis.peak).max(trips);
            }
        }
        pass.peaks.raise_all(&pass.end);
    }
    pass.seen = pass.seen.max(pass.peaks.max());
    Some(pass)
}

/// The degree of an inner loop's pass count, from each place's highest
/// degree `peaks`: with two bounds, the pass count follows one of them
/// (the other is never met, which the runtime checks), either one.
fn trip_degree(body: &[Stmt], index: usize, inner: &Loop, peaks: &Degrees) -> u32 {
    let counter = Place::Cell(inner.condition.cell);
    bounds(inner.condition)
        .into_iter()
        .map(|bound| trip_degree_to(body, index, [counter, bound], peaks))
        .max()
        .unwrap_or(0)
}

/// The degree of the pass count of the inner loop at `body[index]` when
/// it ends on the `compared` counter and bound being equal: at its next
/// entry their difference is what the statements between changed (around
/// the outer loop from the inner loop's end to its start).
fn trip_degree_to(body: &[Stmt], index: usize, compared: [Place; 2], peaks: &Degrees) -> u32 {
    /// What happened to a compared place since the inner loop ended.
    #[derive(Clone, Copy)]
    enum Since {
        /// Only additions, of at most this degree.
        Added(u32),
        /// Assigned (or changed in another loop): a value of this degree.
        Replaced(u32),
    }
    let mut since = [Since::Added(0); 2];
    let around = body[index + 1..].iter().chain(&body[..index]);
    for statement in around {
        for (place, since) in compared.iter().zip(since.iter_mut()) {
            match statement {
                Stmt::Step(step) => match pure_op(step.op) {
                    Some(Some(PureOp::Add { to, addend })) if to == *place => {
                        *since = match *since {
                            Since::Added(d) => Since::Added(d.max(peaks.of(addend))),
                            Since::Replaced(d) => Since::Replaced(d.max(peaks.of(addend))),
                        };
                    }
                    Some(Some(PureOp::Assign { to, from })) if to == *place => {
                        *since = Since::Replaced(peaks.get(from));
                    }
                    _ => {}
                },
                Stmt::Loop(other) => {
                    if changed_places(&other.body).contains(place) {
                        *since = Since::Replaced(peaks.get(*place));
                    }
                }
            }
        }
    }
    match since {
        [Since::Added(a), Since::Added(b)] => a.max(b),
        _ => compared
            .iter()
            .zip(since)
            .map(|(&place, since)| match since {
                Since::Added(d) => d.max(peaks.get(place)),
                Since::Replaced(d) => d,
            })
            .max()
            .unwrap_or(0),
    }
}

#[cfg(test)]
mod tests;
