//! Scratch directories for the integration tests, in the temporary
//! directory Cargo gives them.

use std::path::{Path, PathBuf};

/// The directory `path` (relative) in Cargo's temporary directory for
/// integration tests, emptied first.
pub fn scratch(path: impl AsRef<Path>) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(path);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
