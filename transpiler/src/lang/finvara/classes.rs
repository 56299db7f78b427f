//! Move classes: how a piece type attacks, read from its notation the way
//! fairy-chess engines read Betza notation — as leapers, riders and their
//! compounds — so that the check rule tests it by comparing offsets and
//! walking lines instead of searching its automaton.
//!
//! A notation has a class ([`AttackLine`]s, in notation order) when every way it
//! can capture is one line of equal leaps from the piece's square:
//! - `(a,b|dirs)`: a leap by each vector;
//! - `A B` where A and B are single leaps (or sequences of them): one
//!   *bent* leap by the sum, landing on A's square on the way (which must
//!   be empty), for every choice of A's and B's vectors;
//! - `X*` where X is a set of (possibly bent) single leaps without rank
//!   conditions: a rider along each ("the same way each time" keeps the
//!   vector and the bends), so `[(1,0)(1,0)]*` rides in 12 directions;
//! - `{A,B,…}`, `[A]`, `"s"`: the union of the parts' lines;
//! - `c(A)`: A's lines (an attack ends capturing anyway); `m(A)`: none;
//! - `r(A,b)`, `r!(A,b)` around a class without rank conditions: its lines,
//!   available from the ranks b (or the others);
//! - `p` (anywhere in a sequence): nothing (promotion never changes where
//!   a path lands), so `(1,0|^)p` attacks like `(1,0|^)`.
//!
//! Anything else — a rider followed or preceded by another part, `x`,
//! crooked riders, nested repetitions, a repetition of a rider or of a rank
//! test, a rank test after the first leap, more than [`MAX_LINES`] lines —
//! has no class, and its attacks are searched.

use std::collections::HashMap;

use chess2rs_runtime::__private::fv::{self, Bend, Ray};

use super::automaton::{leap_vectors, rank_range};
use super::syntax::{Atom, Item, Repeat, Seq};

/// The most lines a class may have: more (e.g. five knight leaps in a row,
/// 32,768 ways) and the attack test would try more lines than a search
/// visits squares.
pub const MAX_LINES: usize = 256;

/// A line a piece attacks along: its [`Ray`] (without its bends' place in
/// the automaton's table, which [`pack`] assigns) and the landings inside
/// each leap, as offsets from where the leap starts (owner's view).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttackLine {
    /// Direction, repetitions, rank condition, crooked rider.
    pub ray: Ray,
    /// Intermediate landings per leap (empty: a straight leap).
    pub bends: Vec<Bend>,
    /// The path takes (`x`) where it stands at the end of the line, so a
    /// leap that goes on from there lands on an enemy piece first.
    pub takes_at_end: bool,
    /// The path has not left the piece's square (only promotions so far):
    /// a sequence goes on from there as if it were not there, and it
    /// attacks nothing by itself.
    pub stays: bool,
}

impl AttackLine {
    fn straight(ray: Ray) -> AttackLine {
        AttackLine {
            ray,
            bends: Vec::new(),
            takes_at_end: false,
            stays: false,
        }
    }

    /// The path that has not moved.
    fn stay() -> AttackLine {
        AttackLine {
            stays: true,
            ..AttackLine::straight(Ray::leap(0, 0))
        }
    }

    /// A single leap that chains into a bent one: no rider, no crooked
    /// rider's leap.
    fn single(&self) -> bool {
        self.ray.max == 1 && self.ray.crooked == 0
    }

    /// Whether the line lands on a piece it takes before its end.
    fn takes_on_the_way(&self) -> bool {
        self.bends.iter().any(|bend| bend.capture)
    }

    /// This single leap, then `next` from where it lands: one bent leap.
    fn then(&self, next: &AttackLine) -> AttackLine {
        let (forward, right) = (self.ray.forward, self.ray.right);
        let mut bends = self.bends.clone();
        bends.push(Bend {
            forward,
            right,
            capture: self.takes_at_end,
        });
        bends.extend(next.bends.iter().map(|bend| Bend {
            forward: bend.forward + forward,
            right: bend.right + right,
            ..*bend
        }));
        AttackLine {
            ray: Ray {
                forward: forward + next.ray.forward,
                right: right + next.ray.right,
                ..self.ray
            },
            bends,
            takes_at_end: next.takes_at_end,
            stays: false,
        }
    }

    /// Whether the board tests of this line see what a search sees: a
    /// line that takes a piece on the way must never land on that square
    /// again (the search would find it empty) nor on its own square.
    fn landings_distinct(&self) -> bool {
        if !self.takes_on_the_way() {
            return true;
        }
        let mut landings: Vec<(i32, i32)> = self
            .bends
            .iter()
            .map(|bend| (bend.forward, bend.right))
            .collect();
        landings.push((0, 0));
        landings.push((self.ray.forward, self.ray.right));
        let count = landings.len();
        landings.sort_unstable();
        landings.dedup();
        landings.len() == count
    }
}

/// `more` added to `lines`, its crooked riders renumbered after those of
/// `lines` so that each keeps its own leaps.
fn union(lines: &mut Vec<AttackLine>, more: Vec<AttackLine>) {
    let after = lines.iter().map(|line| line.ray.crooked).max().unwrap_or(0);
    lines.extend(more.into_iter().map(|mut line| {
        if line.ray.crooked != 0 {
            line.ray.crooked += after;
        }
        line
    }));
}

/// The rays of `lines` for an automaton, and its bends table
/// ([`fv::Automaton::bends`]).
pub fn pack(lines: &[AttackLine]) -> (Vec<Ray>, Vec<Bend>) {
    let mut table = Vec::new();
    let rays = lines
        .iter()
        // A path that stays on the piece's square captures nothing.
        .filter(|line| !line.stays)
        .map(|line| {
            let first = table.len() as u32;
            table.extend_from_slice(&line.bends);
            line.ray.bent(first, line.bends.len() as u32)
        })
        .collect();
    (rays, table)
}

/// What classifying needs besides the notation.
pub struct ClassContext<'a> {
    /// The classes of the piece types classified so far, by symbol (for
    /// `"s"`; references are acyclic and classified first).
    pub classes: &'a HashMap<String, Option<Vec<AttackLine>>>,
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
}

/// The lines along which a piece with `notation` attacks, in notation
/// order, or `None` when some capturing path is not such a line.
pub fn attack_lines(notation: &Seq, context: &ClassContext) -> Option<Vec<AttackLine>> {
    if notation.is_empty() {
        // The piece cannot move: no line, not even one that stays (so a
        // sequence with `"s"` of it has none either).
        return Some(Vec::new());
    }
    seq(notation, context).filter(|lines| lines.len() <= MAX_LINES)
}

fn seq(items: &[Item], context: &ClassContext) -> Option<Vec<AttackLine>> {
    let mut lines = vec![AttackLine::stay()];
    for item in items {
        if item.repeats.is_empty() && matches!(item.atom, Atom::CaptureHere) {
            // Before any leap of this sequence the path may stand anywhere
            // (inside a group): leave that to the search.
            if lines.iter().any(|line| line.stays) {
                return None;
            }
            lines.iter_mut().for_each(|line| line.takes_at_end = true);
            continue;
        }
        let next = self::item(item, context)?;
        if lines.len().saturating_mul(next.len()) > MAX_LINES {
            return None;
        }
        let mut chained = Vec::new();
        for before in &lines {
            for after in &next {
                chained.push(chain(before, after)?);
            }
        }
        // Back on its own square, which the piece itself blocks.
        chained.retain(|line| line.stays || (line.ray.forward, line.ray.right) != (0, 0));
        if !chained.iter().all(AttackLine::landings_distinct) {
            return None;
        }
        lines = chained;
    }
    Some(lines)
}

/// `before`, then `after` from where it ends: `None` when that is not one
/// line of leaps (a rider followed by more, a rank test after a leap).
fn chain(before: &AttackLine, after: &AttackLine) -> Option<AttackLine> {
    if before.stays {
        // Nothing moved: `after` starts on the piece's square, where a rank
        // test of `before` stands too.
        return match (before.ray.ranks, after.ray.ranks) {
            (Some(_), Some(_)) => None,
            (Some(ranks), None) => Some(AttackLine {
                ray: Ray {
                    ranks: Some(ranks),
                    ..after.ray
                },
                ..after.clone()
            }),
            (None, _) => Some(after.clone()),
        };
    }
    if after.stays {
        return after.ray.ranks.is_none().then(|| before.clone());
    }
    // Only single leaps chain into one bent leap; a rank test must stand
    // where the whole leap starts.
    (before.single() && after.single() && after.ray.ranks.is_none()).then(|| before.then(after))
}

fn item(item: &Item, context: &ClassContext) -> Option<Vec<AttackLine>> {
    let repeatable = |line: &AttackLine| {
        line.stays
            || line.single()
                && line.ray.ranks.is_none()
                && !line.takes_on_the_way()
                && !line.takes_at_end
    };
    let repeated = |make: &dyn Fn(AttackLine) -> AttackLine| -> Option<Vec<AttackLine>> {
        let leaps = atom(&item.atom, context)?;
        if !leaps.iter().all(repeatable) {
            return None;
        }
        // A way that stays, repeated, does what it does once (its rank
        // test included: it tests the same square each time).
        let (stays, moves): (Vec<AttackLine>, Vec<AttackLine>) =
            leaps.into_iter().partition(|line| line.stays);
        let mut lines: Vec<AttackLine> = moves.into_iter().map(make).collect();
        for line in stays {
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
        Some(lines)
    };
    match item.repeats[..] {
        [] => atom(&item.atom, context),
        // The same way each time: a rider.
        [Repeat::Same] => repeated(&|line| AttackLine {
            ray: Ray::rider(line.ray.forward, line.ray.right),
            ..line
        }),
        // Each leap any of them: one crooked rider.
        [Repeat::Any] => repeated(&|line| AttackLine {
            ray: line.ray.of_crooked(1),
            ..line
        }),
        _ => None,
    }
}

fn atom(atom: &Atom, context: &ClassContext) -> Option<Vec<AttackLine>> {
    match atom {
        Atom::Leap { a, b, dirs } => {
            let vectors = leap_vectors(*a, *b, *dirs, context.rows, context.cols);
            // `(0,0)` lands where the path stands: leave it to the search.
            if vectors.contains(&(0, 0)) {
                return None;
            }
            Some(
                vectors
                    .into_iter()
                    .map(|(forward, right)| AttackLine::straight(Ray::leap(forward, right)))
                    .collect(),
            )
        }
        Atom::Any(alternatives) => {
            let mut lines = Vec::new();
            for alternative in alternatives {
                union(&mut lines, seq(alternative, context)?);
            }
            Some(lines)
        }
        Atom::Group(inner) | Atom::Capture(inner) => seq(inner, context),
        Atom::NoCapture(_) => Some(Vec::new()),
        Atom::Rank {
            seq: inner,
            ranks,
            negated,
        } => {
            let outer = rank_range(*ranks, *negated, context.rows);
            // Both tests stand where the piece starts: a line is available
            // on the ranks that pass both, as runs of consecutive ranks
            // (one line each). Lines on the same run stay together, so a
            // crooked rider's leaps keep one rider.
            let mut runs: Vec<((i64, i64), Vec<AttackLine>)> = Vec::new();
            for line in seq(inner, context)? {
                let passes =
                    |rank: i64| outer.admits(rank) && line.ray.ranks.is_none_or(|r| r.admits(rank));
                for run in rank_runs(context.rows, passes) {
                    let (low, high) = run;
                    let ray = if low == 1 && high == i64::from(context.rows) {
                        fv::Ray {
                            ranks: None,
                            ..line.ray
                        }
                    } else {
                        line.ray.on_ranks(low, high, false)
                    };
                    let ranked = AttackLine {
                        ray,
                        ..line.clone()
                    };
                    match runs.iter_mut().find(|(r, _)| *r == run) {
                        Some((_, lines)) => lines.push(ranked),
                        None => runs.push((run, vec![ranked])),
                    }
                }
            }
            let mut lines = Vec::new();
            for (_, group) in runs {
                union(&mut lines, group);
            }
            Some(lines)
        }
        Atom::Like(symbol) => context.classes.get(&symbol.value).cloned().flatten(),
        Atom::CaptureHere => None,
        Atom::Promote(_) => Some(vec![AttackLine::stay()]),
    }
}

/// The runs `low..=high` of consecutive owner's ranks (1 to `rows`) that
/// `passes`.
fn rank_runs(rows: u32, passes: impl Fn(i64) -> bool) -> Vec<(i64, i64)> {
    let mut runs: Vec<(i64, i64)> = Vec::new();
    for rank in 1..=i64::from(rows) {
        if !passes(rank) {
            continue;
        }
        match runs.last_mut() {
            Some((_, high)) if *high == rank - 1 => *high = rank,
            _ => runs.push((rank, rank)),
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::finvara::syntax;
    use crate::source::Source;
    use chess2rs_runtime::__private::fv::UNBOUNDED;

    /// Whether `lines` never go farther than one leap.
    fn leaps_only(lines: &[AttackLine]) -> bool {
        lines.iter().all(|line| line.ray.max == 1)
    }

    /// The rays of `lines` (without bends).
    fn rays(lines: &[AttackLine]) -> Vec<Ray> {
        lines.iter().map(|line| line.ray).collect()
    }

    /// The classes of the pieces `pieces` (definition lines, each may refer
    /// to earlier ones) on an 8 × 8 board.
    fn classes(pieces: &str) -> Vec<Option<Vec<AttackLine>>> {
        let text = format!("{pieces}\n+--+\n|  |\n+--+\n");
        let source = Source::new("test.fv", text);
        let program = syntax::parse(&source).expect("parses");
        let mut known = HashMap::new();
        let mut out = Vec::new();
        for piece in &program.pieces {
            let context = ClassContext {
                classes: &known,
                rows: 8,
                cols: 8,
            };
            let class = attack_lines(&piece.notation.value, &context);
            known.insert(piece.symbol.value.clone(), class.clone());
            out.push(class);
        }
        out
    }

    #[test]
    fn leapers_riders_and_compounds_have_classes() {
        let found = classes(
            "(n 1): (1,2)\n(r 1): (1,0)*\n(q 1): {(1,0)*,(1,1)*}\n(c 1): {(1,0)*,(1,2)}\n\
             (a 1): \"n\"*\n(w 1): [(1,0)]*",
        );
        let n = found[0].clone().expect("knight");
        assert_eq!(n.len(), 8);
        assert!(leaps_only(&n));
        assert_eq!(
            found[1].as_deref().map(rays),
            Some(vec![
                Ray::rider(1, 0),
                Ray::rider(-1, 0),
                Ray::rider(0, 1),
                Ray::rider(0, -1)
            ])
        );
        assert!(found[1].iter().flatten().all(|line| line.bends.is_empty()));
        assert_eq!(found[2].as_ref().map(Vec::len), Some(8));
        let compound = found[3].clone().expect("compound");
        assert_eq!(compound.len(), 12);
        assert_eq!(
            compound[..4]
                .iter()
                .filter(|line| line.ray.max == UNBOUNDED)
                .count(),
            4
        );
        assert!(leaps_only(&compound[4..]));
        // A nightrider: the knight's leaps, repeated the same way.
        assert_eq!(
            found[4]
                .as_ref()
                .map(|lines| lines.iter().all(|line| line.ray.max == UNBOUNDED)),
            Some(true)
        );
        assert_eq!(found[5], found[1]);
    }

    #[test]
    fn moving_like_a_piece_that_cannot_move_is_no_path_at_all() {
        // `"k"` of an empty notation has no path, so neither has a
        // sequence with it: no line, not the step after it.
        let found = classes(
            "(k):\n(g 1): \"k\"(0,1|>)\n(d 1): \"k\"p\n(f 1): {\"k\",(0,1|>)}\n(h 1): \"g\"*",
        );
        assert_eq!(found[0], Some(Vec::new()));
        assert_eq!(found[1], Some(Vec::new()));
        assert_eq!(found[2], Some(Vec::new()));
        assert_eq!(found[3].as_deref().map(rays), Some(vec![Ray::leap(0, 1)]));
        assert_eq!(found[4], Some(Vec::new()));
    }

    #[test]
    fn conditions_shape_the_lines_or_remove_them() {
        let found = classes(
            "(c 1): c((1,0)*)\n(m 1): m((1,0)*)\n(r 1): r((1,0|^),2)\n(s 1): r!((1,1)*,[1,2])\n\
             (p 1): (1,0|^)p->[c]\n(e 1): {m((1,0)),c((1,1))}\n(f 1): m((1,0))(1,0)",
        );
        assert_eq!(found[0].as_ref().map(Vec::len), Some(4));
        assert_eq!(found[1], Some(Vec::new()));
        assert_eq!(
            found[2].as_deref().map(rays),
            Some(vec![Ray::leap(1, 0).on_ranks(2, 2, false)])
        );
        let s = found[3].clone().expect("ranked rider");
        assert!(s.iter().all(|line| line.ray.max == UNBOUNDED
            && line.ray.ranks
                == Some(fv::RankRange {
                    low: 3,
                    high: 8,
                    negated: false
                })));
        assert_eq!(found[4].as_deref().map(rays), Some(vec![Ray::leap(1, 0)]));
        assert_eq!(found[5].as_ref().map(Vec::len), Some(4));
        // A move that may not capture, then a leap: no attack at all.
        assert_eq!(found[6], Some(Vec::new()));
    }

    #[test]
    fn sequences_of_leaps_are_bent_lines() {
        let found = classes(
            "(b 1): [(1,0)(1,0)]*\n(g 1): (1,0|^)(1,1|^>)\n(h 1): r((1,0|^),2)(1,0|^)\n\
             (s 1): [(1,1)(1,1)(1,1)]*",
        );
        // Two orthogonal steps repeated the same way: 16 choices, of which
        // the 4 that step back where they started are no line.
        let b = found[0].clone().expect("bent rider");
        assert_eq!(b.len(), 12);
        assert!(b.iter().all(|line| line.ray.max == UNBOUNDED));
        let up_right = b
            .iter()
            .find(|line| {
                line.ray.forward == 1 && line.ray.right == 1 && line.bends == [Bend::new(1, 0)]
            })
            .expect("up, then right");
        assert_eq!(up_right.ray.ranks, None);
        assert!(b
            .iter()
            .any(|line| (line.ray.forward, line.ray.right, &line.bends[..])
                == (2, 0, &[Bend::new(1, 0)][..])));
        // A step forward, then a diagonal with a forward or a rightward
        // component (`|^>` keeps the union): three bent leaps.
        let bent = |forward, right| AttackLine {
            ray: Ray::leap(forward, right),
            bends: vec![Bend::new(1, 0)],
            takes_at_end: false,
            stays: false,
        };
        assert_eq!(found[1], Some(vec![bent(2, 1), bent(2, -1), bent(0, 1)]));
        // The rank test stands where the whole leap starts.
        assert_eq!(
            found[2].as_deref().map(rays),
            Some(vec![Ray::leap(2, 0).on_ranks(2, 2, false)])
        );
        // Three diagonal steps each way: 64 choices, less the 16 whose
        // second step lands back on the piece's own square (the piece
        // itself blocks them).
        let s = found[3].clone().expect("bent rider");
        assert_eq!(s.len(), 48);
        assert!(s.iter().all(|line| line.bends.len() == 2));
        // The table gives each line its landings.
        let (packed, table) = pack(&b);
        assert_eq!(table.len(), 12);
        assert!(packed
            .iter()
            .zip(&b)
            .all(|(ray, line)| ray.bends_in(&table) == &line.bends[..]));
    }

    #[test]
    fn captures_on_the_way_and_crooked_riders_have_classes() {
        let found = classes(
            "(x 1): (1,0|^)x(1,1|^)\n(t 1): (1,0|^)*x\n(c 1): {(1,1)`,(2,0)}\n\
             (d 1): {\"c\",(1,0|^)`}\n(r 1): r((1,0)`,2)",
        );
        // A step forward onto an enemy piece, which it takes, then a
        // forward diagonal.
        let taking = |right| AttackLine {
            ray: Ray::leap(2, right),
            bends: vec![Bend::taking(1, 0)],
            takes_at_end: false,
            stays: false,
        };
        assert_eq!(found[0], Some(vec![taking(1), taking(-1)]));
        // `x` at the end takes the attacked piece anyway: a plain rider.
        assert_eq!(found[1].as_deref().map(rays), Some(vec![Ray::rider(1, 0)]));
        // A crooked diagonal stepper and a leaper.
        let c = found[2].clone().expect("crooked rider and leaper");
        assert_eq!(c.len(), 8);
        assert!(c[..4].iter().all(|line| line.ray.crooked == 1));
        assert!(c[4..].iter().all(|line| line.ray.crooked == 0));
        // Two crooked riders in one piece keep their own leaps.
        let d = found[3].clone().expect("two crooked riders");
        assert_eq!(
            d.iter().map(|line| line.ray.crooked).collect::<Vec<_>>(),
            [1, 1, 1, 1, 0, 0, 0, 0, 2]
        );
        // A rank test around a crooked rider stands where it starts.
        let r = found[4].clone().expect("ranked crooked rider");
        assert!(r
            .iter()
            .all(|line| line.ray.crooked == 1 && line.ray.ranks.is_some()));
    }

    #[test]
    fn promotions_stay_on_the_square_and_the_path_goes_on_from_there() {
        let found = classes("(a 1): [p](1,0)\n(b 1): {p,(1,1)}*\n(c 1): p\n(d 1): r([p],2)(1,0|^)");
        let moving = |lines: &[AttackLine]| -> Vec<Ray> {
            lines
                .iter()
                .filter(|line| !line.stays)
                .map(|line| line.ray)
                .collect()
        };
        assert_eq!(found[0].as_deref().map(moving).map(|r| r.len()), Some(4));
        let b = found[1].clone().expect("rider or stay");
        assert_eq!(moving(&b).len(), 4);
        assert!(b.iter().any(|line| line.stays));
        // Staying captures nothing: packed, no line is left.
        assert_eq!(pack(&found[2].clone().expect("stays")).0, Vec::new());
        assert_eq!(
            found[3].as_deref().map(moving),
            Some(vec![Ray::leap(1, 0).on_ranks(2, 2, false)])
        );
    }

    #[test]
    fn nested_rank_tests_keep_the_ranks_that_pass_both() {
        let found = classes(
            "(a 1): r(r((1,0),1),2)\n(b 1): r!(r((1,0|^),[2,6]),4)\n(c 1): r!(r((1,1)`,[1,3]),2)\n\
             (d 1): r!(r!((1,0|^),0),-9)",
        );
        // Rank 1 and rank 2: never.
        assert_eq!(found[0], Some(Vec::new()));
        // Ranks 2-6 but not 4: two runs, one line each.
        assert_eq!(
            found[1].as_deref().map(rays),
            Some(vec![
                Ray::leap(1, 0).on_ranks(2, 3, false),
                Ray::leap(1, 0).on_ranks(5, 6, false)
            ])
        );
        // A crooked rider on ranks 1 and 3: two riders of four leaps each.
        let c = found[2].clone().expect("crooked rider on two runs");
        assert_eq!(
            c.iter().map(|line| line.ray.crooked).collect::<Vec<_>>(),
            [1, 1, 1, 1, 2, 2, 2, 2]
        );
        // Every rank passes both: no test left.
        assert_eq!(found[3].as_deref().map(rays), Some(vec![Ray::leap(1, 0)]));
    }

    #[test]
    fn paths_that_are_not_lines_of_equal_leaps_have_no_class() {
        for notation in [
            "(1,0)*(1,0)",
            "(1,0)(1,0)*",
            "[(1,0)*]`",
            "[(1,0)`]*",
            "[(1,0)*]*",
            "(1,0)`(1,0)",
            "[(1,0)x(1,0)]*",
            "[(1,0)x(1,0)]`",
            "[(1,0)x]*",
            // Back over the square it took on: the search sees it empty.
            "(1,0|^)x(1,0|^)(1,0|v)",
            "(1,0)[x(1,0)]",
            "[r((1,0),2)]*",
            "(1,0)r((1,0),2)",
            "(1,0)**",
            // 8^5 = 32,768 ways: more lines than a class may have.
            "[(1,2)(1,2)(1,2)(1,2)(1,2)]*",
        ] {
            let found = classes(&format!("(a 1): {notation}"));
            assert_eq!(found[0], None, "{notation}");
        }
        // A reference to a piece without a class has none either.
        let found = classes("(a 1): (1,0)*(1,0)\n(b 1): {\"a\",(1,1)}");
        assert_eq!(found[1], None);
    }
}
