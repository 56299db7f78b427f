//! The build cache of `run` and `build`, and `chess2rs cache` (`path`,
//! `list`, `clean`).
//!
//! The cache is a directory of entries, each named by the first 32 hex
//! digits of its key (the SHA-256 of the generated program, rustc's
//! version and the flags; see `build::cached_executable`) and holding the
//! executable `program`, `program.sha256` (the executable's sum, written
//! after it; its modification time records the entry's last use),
//! `program.rs` (the source rustc built) and `program.name` (the program
//! it was built for, for `cache list`).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};

use super::args::{CacheAction, CacheArgs};
use super::output::to_stdout;
use super::{CliResult, Failure};

/// The executable's file name in an entry.
pub(super) fn executable_name() -> String {
    format!("program{}", std::env::consts::EXE_SUFFIX)
}

/// The name of the sum file in an entry.
pub(super) const SUM_FILE: &str = "program.sha256";

/// The name of the file naming an entry's program.
pub(super) const NAME_FILE: &str = "program.name";

/// Where builds are cached: `$CHESS2RS_CACHE_DIR`, else
/// `$XDG_CACHE_HOME/chess2rs`, else `~/.cache/chess2rs`.
pub(super) fn cache_dir() -> PathBuf {
    // An empty variable counts as unset (not "the current directory").
    let set = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    if let Some(dir) = set("CHESS2RS_CACHE_DIR") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = set("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("chess2rs");
    }
    if let Some(home) = set("HOME") {
        return PathBuf::from(home).join(".cache").join("chess2rs");
    }
    std::env::temp_dir().join("chess2rs-cache")
}

/// Whether a cached executable is there and matches its recorded sum.
pub(super) fn is_intact(exe: &Path, sum_file: &Path) -> bool {
    match (std::fs::read(exe), std::fs::read_to_string(sum_file)) {
        (Ok(bytes), Ok(sum)) => hex(&Sha256::digest(&bytes)) == sum.trim(),
        _ => false,
    }
}

/// Records that the entry of `sum_file` was used now (best effort: a
/// read-only cache still runs).
pub(super) fn mark_used(sum_file: &Path) {
    if let Ok(file) = std::fs::OpenOptions::new().append(true).open(sum_file) {
        let _ = file.set_modified(SystemTime::now());
    }
}

/// Lower-case hexadecimal.
pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Removes the build directories (`build.PID`) in a cache entry whose
/// process is gone (killed or interrupted mid-build), where the system
/// shows processes in `/proc`.
pub(super) fn sweep_stale_builds(entry: &Path) {
    for (path, live) in builds(entry) {
        if !live {
            let _ = std::fs::remove_dir_all(path);
        }
    }
}

/// The build directories (`build.PID`) in an entry, each with whether its
/// process still runs (where the system cannot tell, every one counts as
/// running).
fn builds(entry: &Path) -> Vec<(PathBuf, bool)> {
    let Ok(listing) = std::fs::read_dir(entry) else {
        return Vec::new();
    };
    let can_tell = Path::new("/proc/self").is_dir();
    listing
        .flatten()
        .filter_map(|item| {
            let name = item.file_name();
            let pid = name.to_str()?.strip_prefix("build.")?.parse::<u32>().ok()?;
            let live = !can_tell || Path::new("/proc").join(pid.to_string()).exists();
            Some((item.path(), live))
        })
        .collect()
}

/// `chess2rs cache`.
pub(super) fn cache(args: &CacheArgs) -> CliResult<u8> {
    let dir = cache_dir();
    match args.action {
        CacheAction::Path => to_stdout(|out| writeln!(out, "{}", dir.display()))?,
        CacheAction::List => list(&dir)?,
        CacheAction::Clean { older_than } => clean(&dir, older_than)?,
    }
    Ok(0)
}

/// One cache entry as `cache list` and `cache clean` see it.
struct Entry {
    path: PathBuf,
    /// The program it was built for, as `NAME (LANGUAGE)`.
    program: String,
    /// Bytes of all its files.
    size: u64,
    /// When it was last used (built or run).
    used: SystemTime,
}

/// The entries of the cache at `dir`, most recently used first (none if
/// there is no cache yet).
fn entries(dir: &Path) -> CliResult<Vec<Entry>> {
    let listing = match std::fs::read_dir(dir) {
        Ok(listing) => listing,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(Failure::Message(format!(
                "cannot read the build cache `{}`: {e}",
                dir.display()
            )))
        }
    };
    let mut entries: Vec<Entry> = listing
        .flatten()
        .filter(|item| is_entry_name(&item.file_name().to_string_lossy()))
        .filter(|item| item.file_type().is_ok_and(|kind| kind.is_dir()))
        .map(|item| {
            let path = item.path();
            let used = std::fs::metadata(path.join(SUM_FILE))
                .or_else(|_| item.metadata())
                .and_then(|meta| meta.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            let program = std::fs::read_to_string(path.join(NAME_FILE))
                .map(|name| name.trim().to_string())
                .unwrap_or_else(|_| "(unknown program)".to_string());
            Entry {
                size: size_of(&path),
                path,
                program,
                used,
            }
        })
        .collect();
    entries.sort_by_key(|entry| std::cmp::Reverse(entry.used));
    Ok(entries)
}

/// Whether a directory name is an entry's: 32 lower-case hex digits.
fn is_entry_name(name: &str) -> bool {
    name.len() == 32 && name.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// The bytes of the files under `path`.
fn size_of(path: &Path) -> u64 {
    let Ok(listing) = std::fs::read_dir(path) else {
        return 0;
    };
    listing
        .flatten()
        .map(|item| match item.file_type() {
            Ok(kind) if kind.is_dir() => size_of(&item.path()),
            _ => item.metadata().map(|meta| meta.len()).unwrap_or(0),
        })
        .sum()
}

/// `cache list`: one line per entry (most recently used first), then the
/// total.
fn list(dir: &Path) -> CliResult<()> {
    let entries = entries(dir)?;
    let now = SystemTime::now();
    let mut text = String::new();
    if entries.is_empty() {
        text.push_str(&format!("no cached programs in {}\n", dir.display()));
    } else {
        text.push_str(&format!(
            "{:<12}  {:>9}  {:<14}  PROGRAM\n",
            "ENTRY", "SIZE", "LAST USED"
        ));
        for entry in &entries {
            let key = entry.path.file_name().unwrap_or_default().to_string_lossy();
            text.push_str(&format!(
                "{:<12}  {:>9}  {:<14}  {}\n",
                &key[..12.min(key.len())],
                human_size(entry.size),
                age(now.duration_since(entry.used).unwrap_or_default()),
                entry.program
            ));
        }
        let total: u64 = entries.iter().map(|entry| entry.size).sum();
        text.push_str(&format!(
            "{} in {}\n",
            counted(entries.len(), total),
            dir.display()
        ));
    }
    to_stdout(|out| out.write_all(text.as_bytes()))
}

/// `cache clean`: removes every entry, or those unused for more than
/// `older_than` days; an entry being built by a running process stays.
fn clean(dir: &Path, older_than: Option<u64>) -> CliResult<()> {
    let now = SystemTime::now();
    let cutoff = older_than.map(|days| Duration::from_secs(days.saturating_mul(24 * 60 * 60)));
    let mut removed = 0;
    let mut freed = 0;
    let mut busy = 0;
    for entry in entries(dir)? {
        let unused = now.duration_since(entry.used).unwrap_or_default();
        if cutoff.is_some_and(|cutoff| unused <= cutoff) {
            continue;
        }
        if builds(&entry.path).iter().any(|(_, live)| *live) {
            busy += 1;
            continue;
        }
        std::fs::remove_dir_all(&entry.path).map_err(|e| {
            Failure::Message(format!("cannot remove `{}`: {e}", entry.path.display()))
        })?;
        removed += 1;
        freed += entry.size;
    }
    let mut text = format!(
        "removed {} from {}\n",
        counted(removed, freed),
        dir.display()
    );
    if busy > 0 {
        text.push_str(&format!(
            "kept {busy} entr{} being built by a running chess2rs\n",
            if busy == 1 { "y" } else { "ies" }
        ));
    }
    to_stdout(|out| out.write_all(text.as_bytes()))
}

/// `N entries (SIZE)`.
fn counted(entries: usize, bytes: u64) -> String {
    format!(
        "{entries} entr{} ({})",
        if entries == 1 { "y" } else { "ies" },
        human_size(bytes)
    )
}

/// A size in bytes, KiB, MiB or GiB, one decimal above bytes.
fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 3] = ["KiB", "MiB", "GiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    format!("{value:.1} {}", UNITS[unit])
}

/// How long ago, in the largest whole unit.
fn age(elapsed: Duration) -> String {
    let seconds = elapsed.as_secs();
    let (count, unit) = match seconds {
        0..=59 => return "just now".to_string(),
        60..=3599 => (seconds / 60, "minute"),
        3600..=86_399 => (seconds / 3600, "hour"),
        _ => (seconds / 86_400, "day"),
    };
    format!("{count} {unit}{} ago", if count == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_ages_read_as_people_say_them() {
        assert_eq!(human_size(0), "0 B");
        assert_eq!(human_size(1023), "1023 B");
        assert_eq!(human_size(1536), "1.5 KiB");
        assert_eq!(human_size(5 << 20), "5.0 MiB");
        assert_eq!(human_size(3 << 40), "3072.0 GiB");
        assert_eq!(age(Duration::from_secs(5)), "just now");
        assert_eq!(age(Duration::from_secs(60)), "1 minute ago");
        assert_eq!(age(Duration::from_secs(7200)), "2 hours ago");
        assert_eq!(age(Duration::from_secs(86_400 * 40)), "40 days ago");
        assert_eq!(counted(1, 2048), "1 entry (2.0 KiB)");
        assert_eq!(counted(2, 0), "2 entries (0 B)");
    }

    #[test]
    fn only_key_named_directories_are_entries() {
        assert!(is_entry_name("0123456789abcdef0123456789abcdef"));
        assert!(!is_entry_name("0123456789abcdef0123456789abcde"));
        assert!(!is_entry_name("0123456789ABCDEF0123456789abcdef"));
        assert!(!is_entry_name("build.123"));
    }
}
