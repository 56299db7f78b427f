//! Property: on random programs and random inputs, the interpreter and the
//! generated code agree — same output, same error (or none).

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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn interpreter_and_generated_code_agree(
        which in any::<prop::sample::Index>(),
        input in prop::collection::vec(prop_oneof![Just("0".to_string()), Just("1".to_string()), Just("-2".to_string()), Just("65".to_string()), Just("x".to_string()), (-5i64..5).prop_map(|n| n.to_string())], 0..8),
        // Long enough for counting loops and scans to run many passes.
        limit in prop_oneof![0u64..400, 400u64..5000],
    ) {
        let case = which.get(RANDOM);
        let input = input.join("\n");
        let options = Options::with_max_steps(limit);
        let language = chess2rs::Language::from_extension(case.extension).unwrap();
        let source = chess2rs::Source::new(format!("random.{}", case.extension), case.source);
        let program = chess2rs::check(&source, language).expect("compiled at build time").program;
        let mut interpreted = Vec::new();
        let interpreted = outcome(chess2rs::interpret(&program, input.as_bytes(), &mut interpreted, &options), interpreted);
        let mut compiled = Vec::new();
        let compiled = outcome((case.entry)(&mut input.as_bytes(), &mut compiled, &options), compiled);
        prop_assert_eq!(interpreted, compiled, "program:\n{}\ninput: {:?}", case.source, input);
    }
}
