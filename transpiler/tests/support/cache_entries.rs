//! What the entries of a build cache hold, for the tests of what builds
//! leave behind (a stopped or failed build leaves neither its work
//! directory nor an executable).

use std::path::{Path, PathBuf};

/// The items (files or directories) in the entries of `cache` whose names
/// `wanted` accepts (none if there is no cache).
pub fn items_in_entries(cache: &Path, wanted: impl Fn(&str) -> bool) -> Vec<PathBuf> {
    std::fs::read_dir(cache)
        .into_iter()
        .flatten()
        .flatten()
        .flat_map(|entry| std::fs::read_dir(entry.path()).into_iter().flatten())
        .flatten()
        .map(|item| item.path())
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(&wanted)
        })
        .collect()
}

/// The build directories (`build.PID`, where a build works) in the
/// entries of `cache`.
pub fn build_directories(cache: &Path) -> Vec<PathBuf> {
    items_in_entries(cache, |name| name.starts_with("build."))
}
