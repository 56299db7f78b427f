//! Build caches that already hold the runtime library, for the tests of
//! `run` and `build` that are not about building it.
//!
//! Every fresh cache makes `chess2rs` compile the runtime library before
//! its first program (3-4 s of CPU unoptimised, about 10 s optimised).
//! Tests that start from an empty cache for another reason (to count
//! entries, or the program builds) get a copy of the runtime's entry from
//! a cache the tests share, where it is built once for all test binaries
//! (and again only when chess2rs, rustc or the flags change). Tests about
//! building the runtime (`tests/cache.rs`: concurrent first runs, another
//! rustc, a damaged library) start from an empty cache as before.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::time::{Duration, SystemTime};

/// The runtime library's file in its cache entry.
const LIBRARY: &str = "libchess2rs_runtime.rlib";

/// Puts the runtime library that `chess2rs` with `CHESS2RS_OPT_LEVEL` at
/// `opt_level` ("0", or "3" as without the variable) links its programs
/// against into `cache` (created if need be): a copy of its entry, its sum
/// written last and marked used now, as a build would leave it.
pub fn seed(cache: &Path, opt_level: &str) {
    let shared = shared_entry(opt_level);
    let entry = cache.join(shared.file_name().unwrap());
    std::fs::create_dir_all(&entry).unwrap();
    let sum = format!("{LIBRARY}.sha256");
    let mut files: Vec<PathBuf> = std::fs::read_dir(shared)
        .unwrap()
        .flatten()
        .filter(|item| item.file_type().is_ok_and(|kind| kind.is_file()))
        .map(|item| item.path())
        .collect();
    files.sort_by_key(|file| file.file_name().unwrap() == sum.as_str());
    for file in files {
        std::fs::copy(&file, entry.join(file.file_name().unwrap())).unwrap();
    }
}

/// A fresh cache directory at `dir` (emptied first) holding the runtime
/// library of `opt_level` ([`seed`]).
pub fn seeded(dir: &Path, opt_level: &str) -> PathBuf {
    let _ = std::fs::remove_dir_all(dir);
    seed(dir, opt_level);
    dir.to_path_buf()
}

/// The runtime's entry in the shared cache of `opt_level`, found (or
/// built) once per test binary.
fn shared_entry(opt_level: &str) -> &'static Path {
    static LEVELS: [(&str, OnceLock<PathBuf>); 2] =
        [("0", OnceLock::new()), ("3", OnceLock::new())];
    let (_, entry) = LEVELS
        .iter()
        .find(|(level, _)| *level == opt_level)
        .unwrap_or_else(|| panic!("no shared runtime for opt-level {opt_level}"));
    entry.get_or_init(|| build_shared(opt_level))
}

/// Builds a program never built before with the shared cache of
/// `opt_level`, which builds the runtime there if it is not yet, and
/// returns the runtime entry that build used (the one used last). The
/// program entries are removed, and so are runtime entries unused for a
/// day (of an older chess2rs or another rustc). Test binaries that run at
/// the same time take turns (a lock file).
fn build_shared(opt_level: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("shared-runtime")
        .join(format!("opt-level-{opt_level}"));
    std::fs::create_dir_all(&dir).unwrap();
    let lock = std::fs::File::create(dir.join("lock")).unwrap();
    lock.lock().unwrap();
    let cache = dir.join("cache");
    let stamp = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let program = dir.join("probe.icp");
    std::fs::write(&program, format!("1. \"{stamp} {}\n", std::process::id())).unwrap();
    let built = Command::new(env!("CARGO_BIN_EXE_chess2rs"))
        .arg("build")
        .arg("--quiet")
        .arg(&program)
        .arg("-o")
        .arg(dir.join("probe"))
        .env("CHESS2RS_CACHE_DIR", &cache)
        .env("CHESS2RS_OPT_LEVEL", opt_level)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "building the shared runtime: {}",
        String::from_utf8_lossy(&built.stderr)
    );
    let last_used = |entry: &Path| {
        std::fs::metadata(entry.join(format!("{LIBRARY}.sha256")))
            .and_then(|meta| meta.modified())
            .ok()
    };
    let program_file = format!("program{}", std::env::consts::EXE_SUFFIX);
    let mut runtimes: Vec<PathBuf> = Vec::new();
    for item in std::fs::read_dir(&cache).unwrap().flatten() {
        let entry = item.path();
        if entry.join(LIBRARY).is_file() {
            runtimes.push(entry);
        } else if entry.join(&program_file).is_file() {
            let _ = std::fs::remove_dir_all(&entry);
        }
    }
    runtimes.sort_by_key(|entry| last_used(entry));
    let used = runtimes.pop().expect("the build left a runtime entry");
    let day_ago = SystemTime::now() - Duration::from_secs(86_400);
    for other in runtimes {
        if last_used(&other).is_none_or(|time| time < day_ago) {
            let _ = std::fs::remove_dir_all(other);
        }
    }
    used
}
