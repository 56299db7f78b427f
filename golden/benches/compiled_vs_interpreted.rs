//! The same programs run by generated code and by the interpreter.
//! Programs live in `benches/programs/`; `build.rs` compiles them with
//! `chess2rs::compile` into `chess2rs_golden::bench_programs`.

use std::cell::Cell;
use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use chess2rs_golden::bench_programs;
use chess2rs_runtime::{ErrorKind, Options};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn checked(file: &str) -> chess2rs::Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("benches/programs")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let source = chess2rs::Source::new(file, text);
    let language = chess2rs::Language::from_path(&path).unwrap();
    chess2rs::check(&source, language).unwrap().program
}

/// A compiled entry function, instantiated for the benchmarks.
type Entry = fn(&[u8], &mut Vec<u8>, &Options) -> Result<(), chess2rs_runtime::RuntimeError>;

/// The [`Entry`] of `bench_programs::NAME` (a generic function, so a
/// closure instantiates it).
macro_rules! entry {
    ($name:ident) => {
        |input, output, options| bench_programs::$name(input, output, options)
    };
}

/// A program run by its generated code and by the interpreter, each on
/// `input` with `options` and checked to print `expected` (when given).
struct Both<'a> {
    /// The benchmark group's name.
    group: &'a str,
    /// The file in `benches/programs/`.
    file: &'a str,
    /// The file compiled by `build.rs`.
    compiled: Entry,
    input: &'a [u8],
    expected: Option<&'a [u8]>,
    options: Options,
}

/// The group of `both`: `compiled`, then `hand_written` (the same work in
/// plain Rust) if there is one, then `interpreted`.
fn bench_both(c: &mut Criterion, both: &Both, hand_written: Option<&dyn Fn()>) {
    let program = checked(both.file);
    let (input, options) = (both.input, &both.options);
    let check = |out: &[u8]| {
        if let Some(expected) = both.expected {
            assert_eq!(out, expected);
        }
    };
    let mut group = c.benchmark_group(both.group);
    group.sample_size(10);
    group.bench_function("compiled", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            (both.compiled)(input, &mut out, options).unwrap();
            check(&out);
        })
    });
    if let Some(hand_written) = hand_written {
        group.bench_function("hand_written", |b| b.iter(hand_written));
    }
    group.bench_function("interpreted", |b| {
        b.iter(|| {
            let mut out = Vec::new();
            chess2rs::interpret(&program, input, &mut out, options).unwrap();
            check(&out);
        })
    });
    group.finish();
}

/// Asserts that `compiled` on `input` fails within `steps` steps (so that
/// a run with one step more proves the count).
fn fails_within(compiled: Entry, input: &[u8], steps: u64) {
    assert!(compiled(input, &mut Vec::new(), &Options::with_max_steps(steps)).is_err());
}

fn icp_counter(c: &mut Criterion) {
    let both = Both {
        group: "icp_counter_1000x1000",
        file: "icp_counter.icp",
        compiled: entry!(icp_counter),
        input: b"",
        expected: Some(b"1\ncounted to 1000000\n"),
        options: Options::default(),
    };
    bench_both(c, &both, None);
}

/// `icp_multiply.icp` on 447 * 447: 1,000,399 executed lines (the step
/// limit proves it: one step fewer fails), nearly all rook steps with a
/// king on the board.
fn icp_multiply(c: &mut Criterion) {
    let both = Both {
        group: "icp_multiply_1M_lines",
        file: "icp_multiply.icp",
        compiled: entry!(icp_multiply),
        input: b"447 447 199809",
        expected: Some(b"product ok\n"),
        options: Options::with_max_steps(1_000_399),
    };
    fails_within(both.compiled, both.input, 1_000_398);
    bench_both(c, &both, None);
}

/// `icp_king_walk.icp`: a king walking 999 squares along a row and back
/// 150 times, the walls and a counting rook deciding where it turns and
/// when it stops: 300,158 executed lines (the step limit proves it: one
/// step fewer fails), nearly all king steps with their check test.
fn icp_king_walk(c: &mut Criterion) {
    let both = Both {
        group: "icp_king_walk_300k_steps",
        file: "icp_king_walk.icp",
        compiled: entry!(icp_king_walk),
        input: b"",
        expected: Some(b"walked 150 round trips\n"),
        options: Options::with_max_steps(300_158),
    };
    fails_within(both.compiled, both.input, 300_157);
    bench_both(c, &both, None);
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
    let both = Both {
        group: "chc_sum_10M_iterations",
        file: "chc_sum.chc",
        compiled: entry!(chc_sum),
        input: b"10000000",
        expected: Some(b"50000005000000"),
        options: Options::default(),
    };
    let hand_written = || {
        let n = std::hint::black_box(10_000_000);
        assert_eq!(sum_by_hand(n), Some(50_000_005_000_000));
    };
    bench_both(c, &both, Some(&hand_written));
}

/// Two nested counting loops, 1,000 × 10,000 = 10^7 inner passes
/// (3 × 10^7 steps in the inner loop).
fn chc_nested(c: &mut Criterion) {
    let both = Both {
        group: "chc_nested_10M_inner_passes",
        file: "chc_nested.chc",
        compiled: entry!(chc_nested),
        input: b"1000 10000",
        expected: Some(b"10000000"),
        options: Options::default(),
    };
    bench_both(c, &both, None);
}

/// What `chc_triangle.chc` computes, written by hand with the same checked
/// arithmetic: `outer` passes, each running the inner loop `inner` more
/// times and adding its counter to the sum.
fn triangle_by_hand(outer: i64, inner: i64) -> Option<i64> {
    let (mut passes, mut end, mut counter, mut count, mut sum) = (0i64, 0i64, 0i64, 0i64, 0i64);
    loop {
        end = end.checked_add(inner)?;
        loop {
            counter = counter.checked_add(1)?;
            count = count.checked_add(1)?;
            sum = sum.checked_add(counter)?;
            if counter == end {
                break;
            }
        }
        passes = passes.checked_add(1)?;
        if passes == outer {
            return Some(sum);
        }
    }
}

/// Triangular sums in nested loops: 10^4 outer × 10^3 inner passes whose
/// inner loop adds its counter to a sum (40,040,004 steps: the step limit
/// proves it).
fn chc_triangle(c: &mut Criterion) {
    let both = Both {
        group: "chc_triangle_10k_x_1k",
        file: "chc_triangle.chc",
        compiled: entry!(chc_triangle),
        input: b"10000 1000",
        expected: Some(b"50000005000000"),
        options: Options::with_max_steps(40_040_004),
    };
    fails_within(both.compiled, both.input, 40_040_003);
    let hand_written = || {
        let (outer, inner) = std::hint::black_box((10_000, 1_000));
        assert_eq!(triangle_by_hand(outer, inner), Some(50_000_005_000_000));
    };
    bench_both(c, &both, Some(&hand_written));
}

/// A Turing machine that halts after exactly `steps` steps, compiled and
/// interpreted. The step limit proves the count: one step fewer fails.
fn tm_bench(c: &mut Criterion, group: &str, file: &str, steps: u64, compiled: Entry) {
    let program = checked(file);
    fails_within(compiled, b"", steps - 1);
    let short = Options::with_max_steps(steps - 1);
    assert!(chess2rs::interpret(&program, &b""[..], &mut Vec::new(), &short).is_err());
    let both = Both {
        group,
        file,
        compiled,
        input: b"",
        expected: None,
        options: Options::with_max_steps(steps),
    };
    bench_both(c, &both, None);
}

/// Turing machines that halt after exactly so many steps ([`tm_bench`]):
///
/// - `tm_sweep_10M_steps` sweeps over a growing run of 1s: 10,246,401
///   steps (counted by simulating the machine; halting, finding no rule,
///   is not a step).
/// - `tm_counter_20_bits`, a 20-bit binary counter that walks the whole
///   number each increment: 44,040,192 steps (2^20 increments of 42;
///   derived in the program).
/// - `tm_counter_low_end_21_bits`, a 21-bit binary counter that stays at
///   its low end: 8,388,606 steps, about 4 an increment, so scans are
///   short.
fn tm_machines(c: &mut Criterion) {
    let machines: [(&str, &str, u64, Entry); 3] = [
        (
            "tm_sweep_10M_steps",
            "tm_sweep.btm",
            10_246_401,
            entry!(tm_sweep),
        ),
        (
            "tm_counter_20_bits",
            "tm_counter.btm",
            44_040_192,
            entry!(tm_counter),
        ),
        (
            "tm_counter_low_end_21_bits",
            "tm_counter_low_end.btm",
            8_388_606,
            entry!(tm_counter_low_end),
        ),
    ];
    for (group, file, steps, compiled) in machines {
        tm_bench(c, group, file, steps, compiled);
    }
}

/// What `tm_counter_21_bits.btm` does, written by hand: the same tape of
/// `i64` cells (start marker 5, `bits` bits lowest first, end marker 6),
/// each increment a carry sweep right and a scan back left. Returns the
/// steps the machine takes (a step per cell moved, as it counts them).
fn counter_by_hand(bits: usize) -> u64 {
    let mut tape = vec![0i64; bits + 2];
    tape[0] = 5;
    tape[bits + 1] = 6;
    let (mut head, mut steps) = (1, 1u64);
    loop {
        while tape[head] == 1 {
            tape[head] = 0;
            head += 1;
            steps += 1;
        }
        if tape[head] != 0 {
            return steps;
        }
        tape[head] = 1;
        head -= 1;
        steps += 1;
        while matches!(tape[head], 0 | 1) {
            head -= 1;
            steps += 1;
        }
        head += 1;
        steps += 1;
    }
}

/// The 21-bit counter of issue 22: a carry sweep right over the 1s, then a
/// scan left back to the start marker; 8,388,584 steps (derived in the
/// program), about 4 an increment in 3 states, so most steps change state.
fn tm_counter_21_bits(c: &mut Criterion) {
    assert_eq!(counter_by_hand(21), 8_388_584);
    tm_bench(
        c,
        "tm_counter_21_bits",
        "tm_counter_21_bits.btm",
        8_388_584,
        entry!(tm_counter_21_bits),
    );
    let mut group = c.benchmark_group("tm_counter_21_bits");
    group.sample_size(10);
    group.bench_function("hand_written", |b| {
        b.iter(|| assert_eq!(counter_by_hand(std::hint::black_box(21)), 8_388_584))
    });
    group.finish();
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

/// A program of the `finvara_riders` group: its input, the exact output it
/// must print, and exactly how many lines it executes.
struct RidersCase {
    /// The benchmark's name in the group.
    name: &'static str,
    /// The file in `benches/programs/`.
    file: &'static str,
    /// The file compiled by `build.rs` (`bench_programs::<stem>`).
    compiled: Entry,
    /// Standard input.
    input: Vec<u8>,
    /// Standard output, exactly.
    expected: Vec<u8>,
    /// Executed move lines, `checks turn` lines included.
    lines: u64,
}

/// The running sums' input, 8,000 numbers from 1 to 1,000 (`i * 7919 mod
/// 1000 + 1`: each value 8 times) and the sentinel 0, and their output:
/// the 8,000 running sums, the last 4,004,000.
fn running_sum_io() -> (Vec<u8>, Vec<u8>) {
    let (mut input, mut output, mut sum) = (String::new(), String::new(), 0u64);
    for i in 0..8_000u64 {
        let number = i * 7_919 % 1_000 + 1;
        sum += number;
        write!(input, "{number} ").unwrap();
        writeln!(output, "{sum}").unwrap();
    }
    input.push_str("0\n");
    assert_eq!(sum, 4_004_000);
    (input.into_bytes(), output.into_bytes())
}

/// A countdown's input, `n`, and its output: `n`, `n - 1`, ..., 0.
fn countdown_io(n: u64) -> (Vec<u8>, Vec<u8>) {
    let mut output = String::new();
    for count in (0..=n).rev() {
        writeln!(output, "{count}").unwrap();
    }
    (format!("{n}\n").into_bytes(), output.into_bytes())
}

/// Finvara with riders on the board, whose attacks the check rule and the
/// losing test (run after every line) have to follow: about 150,000
/// executed lines each, compiled and interpreted, with throughput in
/// executed lines (elements) so that criterion reports lines per second.
/// Each line count is exact, proven both ways by the step limit (N lines
/// run to the end with the expected output, N - 1 stop at the limit):
///
/// - `stationary`: `fv_riders_stationary.fv`, running sums of 8,000
///   numbers on a 12x8 board (12 columns, 8 rows) with two rook riders
///   that never move and never attack a king; 19 lines a number, 2 before
///   the loop and 9 for the final 0: 152,011 lines.
/// - `moving`: `fv_riders_moving.fv`, the same sums while Black's rook
///   rides along its rank three times a pass: 152,011 lines.
/// - `compound`: `fv_riders_compound.fv`, a countdown from 16,667 (9 lines
///   a pass, 9 N in all) with a queen, a rook-knight and a knight standing
///   near the kings, their lines blocked: 150,003 lines.
/// - `big_board`: `fv_riders_big_board.fv`, a countdown from 10,714 on a
///   64x64 board with 535 holes while a queen rider rides a triangle (14
///   lines a pass, 14 N - 3 in all): 149,993 lines.
fn finvara_riders(c: &mut Criterion) {
    let (sum_input, sum_output) = running_sum_io();
    let (compound_input, compound_output) = countdown_io(16_667);
    let (big_input, big_output) = countdown_io(10_714);
    let cases = [
        RidersCase {
            name: "stationary",
            file: "fv_riders_stationary.fv",
            compiled: entry!(fv_riders_stationary),
            input: sum_input.clone(),
            expected: sum_output.clone(),
            lines: 152_011,
        },
        RidersCase {
            name: "moving",
            file: "fv_riders_moving.fv",
            compiled: entry!(fv_riders_moving),
            input: sum_input,
            expected: sum_output,
            lines: 152_011,
        },
        RidersCase {
            name: "compound",
            file: "fv_riders_compound.fv",
            compiled: entry!(fv_riders_compound),
            input: compound_input,
            expected: compound_output,
            lines: 150_003,
        },
        RidersCase {
            name: "big_board",
            file: "fv_riders_big_board.fv",
            compiled: entry!(fv_riders_big_board),
            input: big_input,
            expected: big_output,
            lines: 149_993,
        },
    ];
    let mut group = c.benchmark_group("finvara_riders");
    group.sample_size(10);
    // Today one run takes up to about 1.5 s (big_board): ten samples need
    // more than criterion's default 5 s.
    group.measurement_time(Duration::from_secs(15));
    for case in &cases {
        let program = checked(case.file);
        let (compiled, input, expected) = (case.compiled, &case.input[..], &case.expected[..]);
        let interpreted = |options: &Options, out: &mut Vec<u8>| {
            chess2rs::interpret(&program, input, out, options)
        };
        let exact = Options::with_max_steps(case.lines);
        let fewer = case.lines - 1;
        let short = Options::with_max_steps(fewer);
        // Proven when the first of the two benchmarks runs, not when a
        // filter leaves both out.
        let proven = Cell::new(false);
        let prove = || {
            if proven.replace(true) {
                return;
            }
            let (mut by_compiled, mut by_interpreter) = (Vec::new(), Vec::new());
            compiled(input, &mut by_compiled, &exact).unwrap();
            interpreted(&exact, &mut by_interpreter).unwrap();
            assert_eq!(by_compiled, expected, "{} compiled", case.name);
            assert_eq!(by_interpreter, expected, "{} interpreted", case.name);
            for (way, result) in [
                ("compiled", compiled(input, &mut Vec::new(), &short)),
                ("interpreted", interpreted(&short, &mut Vec::new())),
            ] {
                match result {
                    Err(error) => assert!(
                        matches!(error.kind, ErrorKind::StepLimit { limit } if limit == fewer),
                        "{} {way} with one step fewer: {error:?}",
                        case.name
                    ),
                    Ok(()) => panic!("{} {way} ran in fewer than {} lines", case.name, case.lines),
                }
            }
        };
        group.throughput(Throughput::Elements(case.lines));
        group.bench_function(BenchmarkId::new(case.name, "compiled"), |b| {
            prove();
            b.iter(|| {
                let mut out = Vec::new();
                compiled(input, &mut out, &exact).unwrap();
                assert_eq!(out, expected);
            })
        });
        group.bench_function(BenchmarkId::new(case.name, "interpreted"), |b| {
            prove();
            b.iter(|| {
                let mut out = Vec::new();
                interpreted(&exact, &mut out).unwrap();
                assert_eq!(out, expected);
            })
        });
    }
    group.finish();
}

criterion_group!(
    benches,
    icp_counter,
    icp_multiply,
    icp_king_walk,
    chc_sum,
    chc_nested,
    chc_triangle,
    tm_machines,
    tm_counter_21_bits,
    fv_truth,
    finvara_riders
);
criterion_main!(benches);
