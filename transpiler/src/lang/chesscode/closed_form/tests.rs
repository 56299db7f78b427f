//! Unit tests of the loop analysis: which loops have a counting or
//! polynomial closed form, of what degree, and which places a pass watches.

use super::super::lowered;
use super::*;

/// The first top-level loop of `text`.
fn first_loop(text: &str) -> Loop {
    lowered(text)
        .body
        .into_iter()
        .find_map(|statement| match statement {
            Stmt::Loop(body) => Some(body),
            Stmt::Step(_) => None,
        })
        .expect("a loop")
}

fn degree(text: &str) -> Option<(usize, bool)> {
    polynomial(&first_loop(text)).map(|p| (p.degree, p.warmup))
}

#[test]
fn invariant_addends_are_counting_loops() {
    let body = first_loop("1/2 1/2\nb1+\nc1xh1+\nb1=R+\n");
    assert!(matches!(closed_form(&body), Some(ClosedForm::Counting(_))));
}

#[test]
fn induction_variables_raise_the_degree() {
    // A counter: 1; its sum: 2; the sum of that: 3.
    assert_eq!(degree("1/2 1/2\nb1+\nb1=R+\n"), Some((1, false)));
    assert_eq!(degree("1/2 1/2\nb1+\nc1xb1+\nb1=R+\n"), Some((2, false)));
    assert_eq!(
        degree("1/2 1/2\nb1+\nc1xb1+\nd1xc1+\nb1=R+\n"),
        Some((3, false))
    );
    // An assignment copies a degree without raising it; the fit starts
    // after the first pass, where the assigned place is on the pattern.
    assert_eq!(
        degree("1/2 1/2\nb1+\nc1xb1\nd1xc1+\nb1=R+\n"),
        Some((2, true))
    );
}

#[test]
fn nests_with_moving_or_reset_bounds() {
    // The inner loop's end moves on by a constant: its trip count stays,
    // each outer pass adds an amount linear in the pass number to c2.
    let moving = "1/2 1/2\nKh2+\n1/2 1/2\nb1+\nc2xb1+\nb1=K+\na1+\na1=R+\n";
    assert_eq!(degree(moving), Some((2, true)));
    // A triangle: the inner loop runs up to the outer counter.
    let triangle = "1/2 1/2\na1+\nb1xh5\nKa1\n1/2 1/2\nb1+\ne1xb1+\nb1=K+\na1=R+\n";
    assert_eq!(degree(triangle), Some((3, true)));
    // An inner loop may copy into a place nothing else in it touches.
    let copying = "1/2 1/2\na1+\nb1xh5\nKa1\n1/2 1/2\nb1+\nc1xb1\ne1xb1+\nb1=K+\na1=R+\n";
    assert_eq!(degree(copying), Some((3, true)));
}

#[test]
fn what_is_not_polynomial() {
    // Doubling, mutual growth, input, output, a mode change.
    for text in [
        "1/2 1/2\nb1+\nc1xc1+\nb1=R+\n",
        "1/2 1/2\nb1+\nc1xd1+\nd1xc1+\nb1=R+\n",
        "1/2 1/2\nb1#\nb1=R+\n",
        "1/2 1/2\nb1+\nb1\nb1=R+\n",
        "1/2 1/2\nb1+\nO-O\nb1=R+\n",
    ] {
        assert_eq!(closed_form(&first_loop(text)), None, "{text}");
    }
    // Inner loops that end on equality, on their counter meeting
    // itself, with a counter moving by an amount the outer loop
    // changes, or holding a loop.
    for text in [
        "1/2 1/2\n1/2 1/2\nb1+\nb1=K\na1+\na1=R+\n",
        "1/2 1/2\n1/2 1/2\nb1+\nb1xb1=K+\na1+\na1=R+\n",
        "1/2 1/2\n1/2 1/2\nb1xa1+\nb1=K+\na1+\na1=R+\n",
        "1/2 1/2\n1/2 1/2\n1/2 1/2\nc1+\nc1=Q+\nb1+\nb1=K+\na1+\na1=R+\n",
        // Assignments to a place the inner loop also adds to or reads.
        "1/2 1/2\n1/2 1/2\nb1+\nc1xb1\nc1+\nb1=K+\na1+\na1=R+\n",
        "1/2 1/2\n1/2 1/2\nb1+\nc1xb1\nd1xc1+\nb1=K+\na1+\na1=R+\n",
    ] {
        assert_eq!(polynomial(&first_loop(text)), None, "{text}");
    }
}

#[test]
fn inner_loops_with_two_bounds_watch_the_gap_to_each() {
    // b1 counts to K or c1, whichever it meets: the gap to each, at
    // the first check (b1 + 1 - bound) and at the end, in one apart
    // group per bound, the two groups a pair.
    let nest = polynomial(&first_loop("1/2 1/2\n1/2 1/2\nb1+\nb1xc1=K+\na1+\na1=R+\n"))
        .expect("polynomial");
    let apart: Vec<u16> = nest
        .roles
        .iter()
        .filter_map(|role| match role {
            Role::Apart(group) => Some(*group),
            _ => None,
        })
        .collect();
    assert_eq!(apart, [0, 1, 0, 1]);
    let gaps: Vec<(usize, bool)> = nest
        .ops
        .iter()
        .filter_map(|op| match op {
            PureOp::WatchGap { slot, plus, .. } => Some((*slot, plus.is_empty())),
            _ => None,
        })
        .collect();
    let count = nest
        .ops
        .iter()
        .find_map(|op| match op {
            PureOp::Inner(inner) => Some(inner.count_slot),
            _ => None,
        })
        .expect("an inner loop");
    // Before the inner loop: one pass ahead; after it: as they are.
    assert!(gaps[..2].iter().all(|&(slot, now)| slot < count && !now));
    assert!(gaps[2..].iter().all(|&(slot, now)| slot > count && now));
    // The pass count follows either bound: a triangle bounded by the
    // outer counter keeps its degree.
    let triangle = "1/2 1/2\na1+\nb1xh5\nKa1\n1/2 1/2\nb1+\ne1xb1+\nb1xh8=K+\na1=R+\n";
    assert_eq!(degree(triangle), Some((3, true)));
}

#[test]
fn watched_values_cover_sums_inner_loops_and_the_condition() {
    let nest = polynomial(&first_loop(
        "1/2 1/2\nKh2+\n1/2 1/2\nb1+\nc2xb1+\nb1=K+\na1+\na1=R+\n",
    ))
    .expect("polynomial");
    let names: Vec<String> = nest
        .state
        .iter()
        .map(|place| match place {
            Place::Cell(cell) => cell.name(),
            Place::Var(var) => format!("{var:?}"),
        })
        .collect();
    assert_eq!(names, ["King", "b1", "c2", "a1"]);
    // K's sum; b1 and c2 at the inner loop's entry; the amounts it adds
    // (1, b1 before and after); its pass count; b1 and c2 at its end;
    // a1's sum; the compared a1 and R.
    let roles = &nest.roles;
    assert_eq!(roles.iter().filter(|r| **r == Role::Positive).count(), 1);
    assert_eq!(
        roles.iter().filter(|r| matches!(r, Role::Sign(_))).count(),
        3
    );
    assert_eq!(nest.fixed_steps, 4);
    assert!(nest.exit.negated);
}
