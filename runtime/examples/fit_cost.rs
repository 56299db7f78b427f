//! What a closed-form try of a Chess Code loop costs against running its
//! passes: `cargo run --release -p chess2rs-runtime --example fit_cost`.
//! The wait before a loop's first try (`SKIP_AFTER_STEPS` in
//! `runtime/src/chc/passes.rs`) should be about the cost of a try, in
//! steps; a step of compiled code costs about 0.25 ns.

use std::hint::black_box;
use std::sync::atomic::AtomicU64;
use std::time::Instant;

use chess2rs_runtime::__private::chc::{self, Exit, Role, Shape};
use chess2rs_runtime::__private::{Options, StepCounter};

/// Tries per measurement.
const TRIES: u32 = 200_000;

/// `f7xg1`, `f7xg1+`, `g1+`, loop while g1 differs from N and from e8
/// (corpus program 16): degree 1, a warm-up pass.
const COPY_LOOP: Shape = Shape {
    degree: 1,
    warmup: true,
    roles: &[Role::Value; 5],
    exit: Exit::unequal(2, 3, Some(4)),
};

/// `b1+`, `c1+`, `c2xb1+`, loop while b1 ≠ N: degree 2.
const TRIANGLE: Shape = Shape {
    degree: 2,
    warmup: false,
    roles: &[Role::Value; 5],
    exit: Exit::unequal(3, 4, None),
};

fn time(what: &str, mut f: impl FnMut()) {
    let start = Instant::now();
    for _ in 0..TRIES {
        f();
    }
    let ns = start.elapsed().as_nanos() as f64 / f64::from(TRIES);
    println!("{what}: {ns:.0} ns");
}

fn main() {
    let wait = AtomicU64::new(0);
    time("skip_passes, degree 1 with a copy", || {
        let mut steps = StepCounter::new(&Options::default());
        let mut state = [0, black_box(3)];
        let (knight, e8) = (black_box(260), black_box(1 << 40));
        chc::skip_passes(
            &mut steps,
            &wait,
            &COPY_LOOP,
            &mut state,
            |s, next, watch| {
                let &[_, g1] = s else { return None };
                let f7 = g1.checked_add(g1)?;
                let g1 = g1.checked_add(1)?;
                watch.copy_from_slice(&[f7, g1, g1, knight, e8]);
                next.copy_from_slice(&[f7, g1]);
                Some(4)
            },
        );
        black_box(state);
    });
    time("skip_passes, triangular sum", || {
        let mut steps = StepCounter::new(&Options::default());
        let mut state = [0, 0, black_box(0)];
        let n = black_box(1000);
        chc::skip_passes(
            &mut steps,
            &wait,
            &TRIANGLE,
            &mut state,
            |s, next, watch| {
                let b1 = s[0].checked_add(1)?;
                let c1 = s[1].checked_add(1)?;
                let c2 = s[2].checked_add(b1)?;
                watch.copy_from_slice(&[b1, c1, c2, b1, n]);
                next.copy_from_slice(&[b1, c1, c2]);
                Some(4)
            },
        );
        black_box(state);
    });
}
