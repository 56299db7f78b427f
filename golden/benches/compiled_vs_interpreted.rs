//! The same programs run by generated code and by the interpreter.
//! Programs live in `benches/programs/`; `build.rs` compiles them with
//! `chess2rs::compile` into `chess2rs_golden::bench_programs`.

use std::path::Path;

use chess2rs_golden::bench_programs;
use chess2rs_runtime::Options;
use criterion::{criterion_group, criterion_main, Criterion};

fn checked(file: &str) -> chess2rs::Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/programs")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let source = chess2rs::Source::new(file, text);
    let language = chess2rs::Language::from_path(&path).unwrap();
    chess2rs::check(&source, language).unwrap().program
}

fn icp_counter(c: &mut Criterion) {
    let program = checked("icp_counter.icp");
    let options = Options::default();
    let mut group = c.benchmark_group("icp_counter_1000x1000");
    group.sample_size(10);
    group.bench_function("compiled", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            bench_programs::icp_counter(&b""[..], &mut out, &options).unwrap();
            assert_eq!(out, b"1\ncounted to 1000000\n");
        })
    });
    group.bench_function("interpreted", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            chess2rs::interpret(&program, &b""[..], &mut out, &options).unwrap();
            assert_eq!(out, b"1\ncounted to 1000000\n");
        })
    });
    group.finish();
}

/// `icp_multiply.icp` on 447 * 447: 1,000,399 executed lines (the step
/// limit proves it: one step fewer fails), nearly all rook steps with a
/// king on the board.
fn icp_multiply(c: &mut Criterion) {
    let program = checked("icp_multiply.icp");
    let input = b"447 447 199809";
    let exact = Options::with_max_steps(1_000_399);
    let mut out = Vec::new();
    assert!(bench_programs::icp_multiply(
        &input[..],
        &mut out,
        &Options::with_max_steps(1_000_398)
    )
    .is_err());
    let mut group = c.benchmark_group("icp_multiply_1M_lines");
    group.sample_size(10);
    group.bench_function("compiled", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            bench_programs::icp_multiply(&input[..], &mut out, &exact).unwrap();
            assert_eq!(out, b"product ok\n");
        })
    });
    group.bench_function("interpreted", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            chess2rs::interpret(&program, &input[..], &mut out, &exact).unwrap();
            assert_eq!(out, b"product ok\n");
        })
    });
    group.finish();
}

/// What `chc_sum.chc` computes, written by hand with the same checked
/// arithmetic (an overflow is an error there too).
fn sum_by_hand(n: i64) -> Option<i64> {
    let (mut counter, mut sum) = (0i64, 0i64);
    loop {
        counter = counter.checked_add(1)?;
        sum = sum.checked_add(counter)?;
        if counter == n {
            return Some(sum);
        }
    }
}

fn chc_sum(c: &mut Criterion) {
    let program = checked("chc_sum.chc");
    let options = Options::default();
    let input = b"10000000";
    let expected = b"50000005000000";
    let mut group = c.benchmark_group("chc_sum_10M_iterations");
    group.sample_size(10);
    group.bench_function("compiled", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            bench_programs::chc_sum(&input[..], &mut out, &options).unwrap();
            assert_eq!(out, expected);
        })
    });
    group.bench_function("hand_written", |b| {
        b.iter(|| {
            let n = std::hint::black_box(10_000_000);
            assert_eq!(sum_by_hand(n), Some(50_000_005_000_000));
        })
    });
    group.bench_function("interpreted", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            chess2rs::interpret(&program, &input[..], &mut out, &options).unwrap();
            assert_eq!(out, expected);
        })
    });
    group.finish();
}

/// Two nested counting loops, 1,000 × 10,000 = 10^7 inner passes
/// (3 × 10^7 steps in the inner loop).
fn chc_nested(c: &mut Criterion) {
    let program = checked("chc_nested.chc");
    let options = Options::default();
    let input = b"1000 10000";
    let expected = b"10000000";
    let mut group = c.benchmark_group("chc_nested_10M_inner_passes");
    group.sample_size(10);
    group.bench_function("compiled", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            bench_programs::chc_nested(&input[..], &mut out, &options).unwrap();
            assert_eq!(out, expected);
        })
    });
    group.bench_function("interpreted", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            chess2rs::interpret(&program, &input[..], &mut out, &options).unwrap();
            assert_eq!(out, expected);
        })
    });
    group.finish();
}

/// A compiled entry function, instantiated for the benchmarks.
type Entry = fn(&[u8], &mut Vec<u8>, &Options) -> Result<(), chess2rs_runtime::RuntimeError>;

/// A Turing machine that halts after exactly `steps` steps, compiled and
/// interpreted. The step limit proves the count: one step fewer fails.
fn tm_bench(c: &mut Criterion, group: &str, file: &str, steps: u64, compiled: Entry) {
    let program = checked(file);
    let exact = Options::with_max_steps(steps);
    let short = Options::with_max_steps(steps - 1);
    assert!(compiled(&b""[..], &mut Vec::new(), &short).is_err());
    assert!(chess2rs::interpret(&program, &b""[..], &mut Vec::new(), &short).is_err());
    let mut group = c.benchmark_group(group);
    group.sample_size(10);
    group.bench_function("compiled", |b| {
        b.iter(|| compiled(&b""[..], &mut Vec::new(), &exact).unwrap())
    });
    group.bench_function("interpreted", |b| {
        b.iter(|| chess2rs::interpret(&program, &b""[..], &mut Vec::new(), &exact).unwrap())
    });
    group.finish();
}

/// Sweeps over a growing run of 1s: 10,246,401 steps (counted by
/// simulating the machine; halting, finding no rule, is not a step).
fn tm_sweep(c: &mut Criterion) {
    tm_bench(
        c,
        "tm_sweep_10M_steps",
        "tm_sweep.btm",
        10_246_401,
        |i, o, opt| bench_programs::tm_sweep(i, o, opt),
    );
}

/// A 20-bit binary counter that walks the whole number each increment:
/// 44,040,192 steps (2^20 increments of 42; derived in the program).
fn tm_counter(c: &mut Criterion) {
    tm_bench(
        c,
        "tm_counter_20_bits",
        "tm_counter.btm",
        44_040_192,
        |i, o, opt| bench_programs::tm_counter(i, o, opt),
    );
}

/// A 21-bit binary counter that stays at its low end: 8,388,606 steps,
/// about 4 an increment, so scans are short.
fn tm_counter_low_end(c: &mut Criterion) {
    tm_bench(
        c,
        "tm_counter_low_end_21_bits",
        "tm_counter_low_end.btm",
        8_388_606,
        |i, o, opt| bench_programs::tm_counter_low_end(i, o, opt),
    );
}

/// The truth-machine on input 1 for 300,000 move lines (99,999 prints),
/// stopped by the step limit.
fn fv_truth(c: &mut Criterion) {
    let program = checked("fv_truth.fv");
    let options = Options::with_max_steps(300_000);
    let mut group = c.benchmark_group("fv_truth_300k_lines");
    group.sample_size(10);
    group.bench_function("compiled", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            assert!(bench_programs::fv_truth(&b"1"[..], &mut out, &options).is_err());
            assert_eq!(out.len(), 2 * 99_999);
        })
    });
    group.bench_function("interpreted", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            assert!(chess2rs::interpret(&program, &b"1"[..], &mut out, &options).is_err());
            assert_eq!(out.len(), 2 * 99_999);
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    icp_counter,
    icp_multiply,
    chc_sum,
    chc_nested,
    tm_sweep,
    tm_counter,
    tm_counter_low_end,
    fv_truth
);
criterion_main!(benches);
