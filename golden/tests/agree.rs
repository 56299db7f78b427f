//! Property: on random programs and random inputs, the interpreter and the
//! generated code agree — same output, same error (or none) — also when
//! `run` switches from one to the other at a random step.

use chess2rs::switch::{interpret_until, Interpreted};
use chess2rs_corpus::chc::CHESS_CODE_POLYNOMIAL;
use chess2rs_golden::RANDOM;
use chess2rs_runtime::Options;
use proptest::prelude::*;

fn outcome(
    result: Result<(), chess2rs_runtime::RuntimeError>,
    output: Vec<u8>,
) -> (Vec<u8>, Option<String>) {
    (output, result.err().map(|e| e.to_string()))
}

#[test]
fn enough_random_programs_compile() {
    for extension in ["icp", "chc", "btm", "fv"] {
        let count = RANDOM.iter().filter(|c| c.extension == extension).count();
        assert!(
            count >= 30,
            "only {count} random .{extension} programs compiled"
        );
    }
}

#[test]
fn enough_random_table_programs_compile() {
    // More than 1,000 lines: generated code runs them from tables.
    let count = RANDOM
        .iter()
        .filter(|case| case.extension == "chc" && case.source.lines().count() > 1_000)
        .count();
    assert!(
        count >= 30,
        "only {count} Chess Code table programs compiled"
    );
}

/// Random input: up to eight lines of small numbers, a letter's code, and
/// a token that is no number.
fn random_input() -> impl Strategy<Value = String> {
    let token = prop_oneof![
        Just("0".to_string()),
        Just("1".to_string()),
        Just("-2".to_string()),
        Just("65".to_string()),
        Just("x".to_string()),
        (-5i64..5).prop_map(|n| n.to_string())
    ];
    prop::collection::vec(token, 0..8).prop_map(|lines| lines.join("\n"))
}

/// A step limit long enough for counting loops and scans to run many
/// passes, or short.
fn random_limit() -> impl Strategy<Value = u64> {
    prop_oneof![0u64..400, 400u64..5000]
}

/// The checked program of a random case.
fn checked(case: &chess2rs_golden::RandomCase) -> chess2rs::Program {
    let language = chess2rs::Language::from_extension(case.extension).unwrap();
    let source = chess2rs::Source::new(format!("random.{}", case.extension), case.source);
    chess2rs::check(&source, language)
        .expect("compiled at build time")
        .program
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn interpreter_and_generated_code_agree(
        which in any::<prop::sample::Index>(),
        input in random_input(),
        limit in random_limit(),
    ) {
        let case = which.get(RANDOM);
        let options = Options::with_max_steps(limit);
        let program = checked(case);
        let mut interpreted = Vec::new();
        let interpreted = outcome(chess2rs::interpret(&program, input.as_bytes(), &mut interpreted, &options), interpreted);
        let mut compiled = Vec::new();
        let compiled = outcome((case.entry)(&mut input.as_bytes(), &mut compiled, &options), compiled);
        prop_assert_eq!(interpreted, compiled, "program:\n{}\ninput: {:?}", case.source, input);
    }

    /// `run`'s switch from the interpreter to the compiled program shows
    /// the user exactly what the interpreter alone would: the interpreter
    /// stopped at a random step (`chess2rs::switch`), then the compiled
    /// program run again from the start on the same input, its first
    /// `written` bytes skipped, print the same bytes and end with the same
    /// error as the interpreter run to its end.
    #[test]
    fn switching_at_any_step_prints_what_the_interpreter_prints(
        which in any::<prop::sample::Index>(),
        input in random_input(),
        limit in random_limit(),
        switch_at in prop_oneof![1u64..20, 1u64..5000],
    ) {
        let case = which.get(RANDOM);
        let options = Options::with_max_steps(limit);
        let program = checked(case);
        let mut whole = Vec::new();
        let whole_error = chess2rs::interpret(&program, input.as_bytes(), &mut whole, &options)
            .err()
            .map(|e| e.to_string());
        let mut shown = Vec::new();
        let mut steps = 0;
        let ended = interpret_until(&program, &mut input.as_bytes(), &mut shown, &options, || {
            steps += 1;
            steps == switch_at
        });
        match ended {
            Interpreted::Finished(result) => {
                prop_assert_eq!(&shown, &whole);
                prop_assert_eq!(result.err().map(|e| e.to_string()), whole_error);
            }
            Interpreted::Switched { consumed, written, .. } => {
                // What the interpreter consumed is where the input starts;
                // the compiled program reads it again, then the rest.
                prop_assert!(input.as_bytes().starts_with(&consumed));
                prop_assert_eq!(written, shown.len() as u64);
                let mut compiled = Vec::new();
                let compiled_error = (case.entry)(&mut input.as_bytes(), &mut compiled, &options)
                    .err()
                    .map(|e| e.to_string());
                prop_assert!(compiled.starts_with(&shown), "the compiled program's first bytes are the ones shown");
                shown.extend_from_slice(&compiled[shown.len()..]);
                prop_assert_eq!(&shown, &whole, "program:\n{}\ninput: {:?}", case.source, input);
                prop_assert_eq!(compiled_error, whole_error);
            }
        }
    }
}

/// Runs a Chess Code program from its tables (what generated code holds
/// for a program of more than 1,000 lines), in this process.
fn run_tables(
    program: &chess2rs::Program,
    input: &str,
    options: &Options,
) -> (Vec<u8>, Option<String>) {
    let chess2rs::Program::ChessCode(program) = program else {
        unreachable!("a Chess Code program");
    };
    let tables = chess2rs::lang::chesscode::table::Tables::of(program);
    let mut output = Vec::new();
    let source = chess2rs_runtime::SourceMap::EMPTY;
    let result = chess2rs_runtime::__private::run_program(
        input.as_bytes(),
        &mut output,
        options,
        &source,
        |io, steps| tables.run(io, steps),
    );
    outcome(result, output)
}

/// The random Chess Code programs of every size.
fn chess_code_programs() -> Vec<&'static chess2rs_golden::RandomCase> {
    RANDOM
        .iter()
        .filter(|case| case.extension == "chc")
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    /// Every random Chess Code program, however small, run from the tables
    /// generated code would hold for it, gives what the interpreter gives.
    #[test]
    fn tables_agree_with_the_interpreter(
        which in any::<prop::sample::Index>(),
        input in random_input(),
        limit in prop_oneof![4 => random_limit(), 1 => 0u64..200_000],
    ) {
        let programs = chess_code_programs();
        let case = which.get(&programs);
        let options = Options::with_max_steps(limit);
        let program = checked(case);
        let mut interpreted = Vec::new();
        let interpreted = outcome(chess2rs::interpret(&program, input.as_bytes(), &mut interpreted, &options), interpreted);
        let tables = run_tables(&program, &input, &options);
        prop_assert_eq!(interpreted, tables, "program:\n{}\ninput: {:?}", case.source, input);
    }
}

/// The random Chess Code programs of polynomial loops.
fn polynomial_programs() -> Vec<&'static chess2rs_golden::RandomCase> {
    RANDOM
        .iter()
        .filter(|case| case.source.starts_with(CHESS_CODE_POLYNOMIAL))
        .collect()
}

#[test]
fn enough_polynomial_loop_programs_compile() {
    let count = polynomial_programs().len();
    assert!(
        count >= 30,
        "only {count} polynomial-loop programs compiled"
    );
}

/// Inputs for the polynomial-loop programs: three numbers that make
/// their loops end, never end or overflow on a late pass.
fn polynomial_input() -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(
        prop_oneof![0i64..4, 1i64..400, -3i64..0, Just(i64::MAX / 3)],
        3,
    )
}

/// The polynomial-loop program `which` on `input` under `limit` steps:
/// the same output, error and line interpreted and compiled.
fn closed_forms_agree(
    which: prop::sample::Index,
    input: &[i64],
    limit: u64,
) -> Result<(), TestCaseError> {
    let programs = polynomial_programs();
    let case = which.get(&programs);
    let input = input
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let options = Options::with_max_steps(limit);
    let source = chess2rs::Source::new("random.chc", case.source);
    let program = chess2rs::check(&source, chess2rs::Language::ChessCode)
        .expect("compiled at build time")
        .program;
    let mut interpreted = Vec::new();
    let interpreted = outcome(
        chess2rs::interpret(&program, input.as_bytes(), &mut interpreted, &options),
        interpreted,
    );
    let mut compiled = Vec::new();
    let compiled = outcome(
        (case.entry)(&mut input.as_bytes(), &mut compiled, &options),
        compiled,
    );
    let tables = run_tables(&program, &input, &options);
    prop_assert_eq!(
        &interpreted,
        &compiled,
        "program:\n{}\ninput: {:?}",
        case.source,
        input
    );
    prop_assert_eq!(
        &interpreted,
        &tables,
        "tables; program:\n{}\ninput: {:?}",
        case.source,
        input
    );
    Ok(())
}

// Loops that generated code skips in closed form, under step limits large
// enough to fall anywhere inside them (or none), on inputs that make them
// end, never end or overflow on a late pass: the same output, error and
// line (the limit pins the step: a skip that counted one step wrong fails
// at some limit). Two tests of 300 cases, without and with a limit (one
// of 600 cases drew each half the time), which the test threads run side
// by side: each runs the debug interpreter for up to millions of steps.
proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Without a limit a program may run forever: the interpreter stops at
    /// 3 million steps, and generated code must stop at the same step.
    #[test]
    fn closed_forms_agree_with_the_interpreter_without_a_limit(
        which in any::<prop::sample::Index>(),
        input in polynomial_input(),
    ) {
        closed_forms_agree(which, &input, 3_000_000)?;
    }

    #[test]
    fn closed_forms_agree_with_the_interpreter_under_a_limit(
        which in any::<prop::sample::Index>(),
        input in polynomial_input(),
        limit in 0u64..2_000_000,
    ) {
        closed_forms_agree(which, &input, limit)?;
    }
}
