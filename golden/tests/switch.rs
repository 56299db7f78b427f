//! Property: `run`'s switch from the interpreter to the compiled program
//! shows the user exactly what the interpreter alone would. On random
//! programs, random inputs, random step limits and a random step of the
//! switch, the interpreter stopped there (`chess2rs::switch`) plus the
//! compiled program run again from the start on the same input, its first
//! `written` bytes skipped, print the same bytes and end with the same
//! error as the interpreter run to its end.

use chess2rs::switch::{interpret_until, Interpreted};
use chess2rs_golden::RANDOM;
use chess2rs_runtime::Options;
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn switching_at_any_step_prints_what_the_interpreter_prints(
        which in any::<prop::sample::Index>(),
        input in prop::collection::vec(prop_oneof![Just("0".to_string()), Just("1".to_string()), Just("-2".to_string()), Just("65".to_string()), Just("x".to_string()), (-5i64..5).prop_map(|n| n.to_string())], 0..8),
        limit in prop_oneof![0u64..400, 400u64..5000],
        switch_at in prop_oneof![1u64..20, 1u64..5000],
    ) {
        let case = which.get(RANDOM);
        let input = input.join("\n");
        let options = Options::with_max_steps(limit);
        let language = chess2rs::Language::from_extension(case.extension).unwrap();
        let source = chess2rs::Source::new(format!("random.{}", case.extension), case.source);
        let program = chess2rs::check(&source, language).expect("compiled at build time").program;
        let mut whole = Vec::new();
        let whole_error = chess2rs::interpret(&program, input.as_bytes(), &mut whole, &options)
            .err()
            .map(|e| e.to_string());
        let mut shown = Vec::new();
        let ended = interpret_until(&program, &mut input.as_bytes(), &mut shown, &options, |steps| {
            steps == switch_at
        });
        match ended {
            Interpreted::Finished { result, .. } => {
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
