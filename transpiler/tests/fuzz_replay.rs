//! Replays every saved fuzz crash (`fuzz/crashes/<target>/*`) through the
//! code the fuzz targets run, so that a crash once found stays fixed.

#[path = "../../fuzz/src/lib.rs"]
mod fuzz_body;

use std::path::Path;

#[test]
fn every_saved_crash_input_now_passes() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/crashes");
    let mut replayed = 0;
    for target in std::fs::read_dir(&root).unwrap().flatten() {
        let name = target.file_name().to_string_lossy().into_owned();
        let Some(language) = fuzz_body::language_of(&name) else {
            continue;
        };
        for input in std::fs::read_dir(target.path()).unwrap().flatten() {
            let data = std::fs::read(input.path()).unwrap();
            let path = input.path().display().to_string();
            let outcome = std::panic::catch_unwind(|| fuzz_body::exercise(language, &data));
            assert!(outcome.is_ok(), "{path} panics again");
            replayed += 1;
        }
    }
    // The regression inputs of issue 12 are there, so the test is not
    // vacuous.
    assert!(
        replayed >= 5,
        "only {replayed} inputs found in {}",
        root.display()
    );
}
