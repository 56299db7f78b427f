//! The agreement fuzz target's body (`fuzz/src/agree.rs`) in `cargo
//! test`: every saved crash input of the target (`fuzz/crashes/agree/`)
//! passes, and a sweep runs every program it chooses among once.

#[path = "../../fuzz/src/agree.rs"]
mod agree;

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn saved_agreement_crashes_pass_and_every_program_agrees_once() {
    let crashes = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/crashes/agree");
    for input in std::fs::read_dir(&crashes).into_iter().flatten().flatten() {
        if input.file_name() == ".gitkeep" {
            continue;
        }
        let data = std::fs::read(input.path()).unwrap();
        agree::agree(&data);
    }
    // Each program once, with input for those that read, under a limit
    // that lets short ones finish and stops long ones.
    let mut ran = BTreeSet::new();
    for index in 0u16..1024 {
        let mut data = index.to_le_bytes().to_vec();
        data.extend_from_slice(&2_000u16.to_le_bytes());
        data.extend_from_slice(b"3\n-1\n0\n72\nhello\n");
        ran.extend(agree::agree(&data));
    }
    assert!(ran.len() > 250, "only {} programs: {ran:?}", ran.len());
    assert!(ran.iter().any(|name| name.ends_with(".pgn")));
}
