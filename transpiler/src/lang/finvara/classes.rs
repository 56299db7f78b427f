//! Move classes: how a piece type attacks, read from its notation the way
//! fairy-chess engines read Betza notation — as leapers, riders and their
//! compounds — so that the check rule tests it by comparing offsets and
//! walking lines instead of searching its automaton.
//!
//! A notation has a class ([`fv::Ray`]s, in notation order) when every way
//! it can capture is one straight line from the piece's square:
//! - `(a,b|dirs)`: a leap by each vector;
//! - `X*` where X is a set of single leaps without rank conditions: a rider
//!   along each vector ("the same way each time" keeps the vector);
//! - `{A,B,…}`, `[A]`, `"s"`: the union of the parts' lines;
//! - `c(A)`: A's lines (an attack ends capturing anyway); `m(A)`: none;
//! - `r(A,b)`, `r!(A,b)` around a class without rank conditions: its lines,
//!   available from the ranks b (or the others);
//! - `p` (anywhere in a sequence): nothing (promotion never changes where
//!   a path lands), so `(1,0|^)p` attacks like `(1,0|^)`.
//!
//! Anything else — two moving parts in a row, `x`, crooked riders, nested
//! repetitions, a repetition of a rider or of a rank test — has no class,
//! and its attacks are searched.

use std::collections::HashMap;

use chess2rs_runtime::fv::{self, Ray};

use super::automaton::{leap_vectors, rank_range};
use super::syntax::{Atom, Item, Repeat, Seq};

/// What classifying needs besides the notation.
pub struct ClassContext<'a> {
    /// The classes of the piece types classified so far, by symbol (for
    /// `"s"`; references are acyclic and classified first).
    pub classes: &'a HashMap<String, Option<Vec<Ray>>>,
    /// Board rows.
    pub rows: u32,
    /// Board columns.
    pub cols: u32,
}

/// The lines along which a piece with `notation` attacks, in notation
/// order, or `None` when some capturing path is not such a line.
pub fn attack_rays(notation: &Seq, context: &ClassContext) -> Option<Vec<Ray>> {
    seq(notation, context)
}

fn seq(items: &[Item], context: &ClassContext) -> Option<Vec<Ray>> {
    let mut moving = items.iter().filter(|item| !is_promotion(item));
    match (moving.next(), moving.next()) {
        (None, _) => Some(Vec::new()),
        (Some(item), None) => self::item(item, context),
        _ => None,
    }
}

/// A bare `p`: it does not move the piece.
fn is_promotion(item: &Item) -> bool {
    item.repeats.is_empty() && matches!(item.atom, Atom::Promote(_))
}

fn item(item: &Item, context: &ClassContext) -> Option<Vec<Ray>> {
    match item.repeats[..] {
        [] => atom(&item.atom, context),
        [Repeat::Same] => {
            let leaps = atom(&item.atom, context)?;
            leaps
                .iter()
                .all(|ray| ray.max == 1 && ray.ranks.is_none())
                .then(|| {
                    leaps
                        .iter()
                        .map(|ray| Ray::rider(ray.forward, ray.right))
                        .collect()
                })
        }
        _ => None,
    }
}

fn atom(atom: &Atom, context: &ClassContext) -> Option<Vec<Ray>> {
    match atom {
        Atom::Leap { a, b, dirs } => Some(
            leap_vectors(*a, *b, *dirs, context.rows, context.cols)
                .into_iter()
                .map(|(forward, right)| Ray::leap(forward, right))
                .collect(),
        ),
        Atom::Any(alternatives) => {
            let mut rays = Vec::new();
            for alternative in alternatives {
                rays.extend(seq(alternative, context)?);
            }
            Some(rays)
        }
        Atom::Group(inner) | Atom::Capture(inner) => seq(inner, context),
        Atom::NoCapture(_) => Some(Vec::new()),
        Atom::Rank {
            seq: inner,
            ranks,
            negated,
        } => {
            let rays = seq(inner, context)?;
            if rays.iter().any(|ray| ray.ranks.is_some()) {
                return None;
            }
            let fv::RankRange { low, high, negated } = rank_range(*ranks, *negated, context.rows);
            Some(
                rays.into_iter()
                    .map(|ray| ray.on_ranks(low, high, negated))
                    .collect(),
            )
        }
        Atom::Like(symbol) => context.classes.get(&symbol.value).cloned().flatten(),
        Atom::CaptureHere => None,
        Atom::Promote(_) => Some(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::finvara::syntax;
    use crate::source::Source;
    use chess2rs_runtime::fv::UNBOUNDED;

    /// Whether `rays` never go farther than one leap.
    fn leaps_only(rays: &[Ray]) -> bool {
        rays.iter().all(|ray| ray.max == 1)
    }

    /// The classes of the pieces `pieces` (definition lines, each may refer
    /// to earlier ones) on an 8 × 8 board.
    fn classes(pieces: &str) -> Vec<Option<Vec<Ray>>> {
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
            let class = attack_rays(&piece.notation.value, &context);
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
            found[1],
            Some(vec![
                Ray::rider(1, 0),
                Ray::rider(-1, 0),
                Ray::rider(0, 1),
                Ray::rider(0, -1)
            ])
        );
        assert_eq!(found[2].as_ref().map(Vec::len), Some(8));
        let compound = found[3].clone().expect("compound");
        assert_eq!(compound.len(), 12);
        assert_eq!(
            compound[..4].iter().filter(|r| r.max == UNBOUNDED).count(),
            4
        );
        assert!(leaps_only(&compound[4..]));
        // A nightrider: the knight's leaps, repeated the same way.
        assert_eq!(
            found[4]
                .as_ref()
                .map(|rays| rays.iter().all(|r| r.max == UNBOUNDED)),
            Some(true)
        );
        assert_eq!(found[5], found[1]);
    }

    #[test]
    fn conditions_shape_the_lines_or_remove_them() {
        let found = classes(
            "(c 1): c((1,0)*)\n(m 1): m((1,0)*)\n(r 1): r((1,0|^),2)\n(s 1): r!((1,1)*,[1,2])\n\
             (p 1): (1,0|^)p->[c]\n(e 1): {m((1,0)),c((1,1))}",
        );
        assert_eq!(found[0].as_ref().map(Vec::len), Some(4));
        assert_eq!(found[1], Some(Vec::new()));
        assert_eq!(found[2], Some(vec![Ray::leap(1, 0).on_ranks(2, 2, false)]));
        let s = found[3].clone().expect("ranked rider");
        assert!(s.iter().all(|r| r.max == UNBOUNDED
            && r.ranks
                == Some(fv::RankRange {
                    low: 1,
                    high: 2,
                    negated: true
                })));
        assert_eq!(found[4], Some(vec![Ray::leap(1, 0)]));
        assert_eq!(found[5].as_ref().map(Vec::len), Some(4));
    }

    #[test]
    fn paths_that_are_not_straight_lines_have_no_class() {
        for notation in [
            "(1,0)(1,0)",
            "(1,0)`",
            "[(1,0)*]*",
            "[(1,0)(0,1)]*",
            "(1,0)x(1,0)",
            "[r((1,0),2)]*",
            "r(r((1,0),1),2)",
            "(1,0)**",
        ] {
            let found = classes(&format!("(a 1): {notation}"));
            assert_eq!(found[0], None, "{notation}");
        }
        // A reference to a piece without a class has none either.
        let found = classes("(a 1): (1,0)(1,0)\n(b 1): {\"a\",(1,1)}");
        assert_eq!(found[1], None);
    }
}
