//! Counting loops: loops whose body only adds loop-invariant amounts to
//! cells and variables (the analogue of Brainfuck's multiply and move
//! loops). Every pass changes each place by the same sum, so the values
//! after k passes, the pass at which the condition ends the loop, and the
//! first pass with an overflow all have closed forms; generated code skips
//! the passes before any of those (and within the step limit) at once and
//! runs the rest normally (runtime `chc::skip`).

use super::ir::{Cell, Loop, Op, Stmt, Var};

/// A cell or a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
