//! The build cache of `run` and `build`, and `chess2rs cache` (`path`,
//! `list`, `clean`).
//!
//! The cache is a directory of entries, each named by the first 32 hex
//! digits of its key and holding one artifact: a program's executable
//! `program` (keyed by `toolchain::program_key`), or the runtime library
//! `libchess2rs_runtime.rlib` that programs link (keyed by
//! `Toolchain::runtime_key`, built once per toolchain and flags). Beside
//! it: `ARTIFACT.sha256`, the artifact's sum, written after it (its
//! modification time records the entry's last use); the Rust source rustc
//! built (`program.rs`, `runtime.rs`); and `entry.txt`, what the entry is
//! (its kind, and the program's name and language), for `cache list`.
//! `toolchains/` remembers rustc identities (see `toolchain`).

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use sha2::{Digest, Sha256};

use super::args::{CacheAction, CacheArgs};
use super::output::to_stdout;
use super::{CliResult, Failure};

/// What a cache entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// A program's executable.
    Executable,
    /// The runtime library programs link.
    Runtime,
}

impl Kind {
    /// The artifact's file name in an entry.
    pub(super) fn artifact(self) -> String {
        match self {
            Kind::Executable => format!("program{}", std::env::consts::EXE_SUFFIX),
            Kind::Runtime => "libchess2rs_runtime.rlib".to_string(),
        }
    }

    /// The word `cache list` shows and `entry.txt` begins with.
    fn label(self) -> &'static str {
        match self {
            Kind::Executable => "executable",
            Kind::Runtime => "runtime",
        }
    }
}

/// The name of the file saying what an entry is.
const ENTRY_FILE: &str = "entry.txt";

/// One entry's place in the cache: its directory, artifact and sum file.
pub(super) struct Slot {
    /// The entry's directory.
    pub(super) dir: PathBuf,
    /// The artifact (executable or library).
    pub(super) artifact: PathBuf,
    /// The artifact's SHA-256, in hex.
    sum: PathBuf,
    kind: Kind,
}

impl Slot {
    /// The entry of `key` (64 hex digits) for a `kind` artifact in `cache`.
    pub(super) fn new(cache: &Path, key: &str, kind: Kind) -> Slot {
        let dir = cache.join(&key[..32.min(key.len())]);
        let name = kind.artifact();
        Slot {
            artifact: dir.join(&name),
            sum: dir.join(format!("{name}.sha256")),
            dir,
            kind,
        }
    }

    /// Whether the artifact is there and matches its recorded sum.
    pub(super) fn is_intact(&self) -> bool {
        match (
            std::fs::read(&self.artifact),
            std::fs::read_to_string(&self.sum),
        ) {
            (Ok(bytes), Ok(sum)) => hex(&Sha256::digest(&bytes)) == sum.trim(),
            _ => false,
        }
    }

    /// Records that the entry was used now (best effort: a read-only
    /// cache still runs).
    pub(super) fn mark_used(&self) {
        if let Ok(file) = std::fs::OpenOptions::new().append(true).open(&self.sum) {
            let _ = file.set_modified(SystemTime::now());
        }
    }

    /// Makes the entry count as missing (its artifact turned out not to
    /// work), so that it is built again.
    pub(super) fn invalidate(&self) {
        let _ = std::fs::remove_file(&self.sum);
    }

    /// A fresh directory for one build of this entry, `build.PID` inside
    /// it (rustc puts its intermediate files beside its output, so two
    /// processes building the same entry at once each work apart); stale
    /// ones of processes that are gone are removed first.
    pub(super) fn work_dir(&self) -> CliResult<PathBuf> {
        std::fs::create_dir_all(&self.dir).map_err(|e| {
            Failure::Message(format!(
                "cannot create the build cache `{}`: {e}",
                self.dir.display()
            ))
        })?;
        sweep_stale_builds(&self.dir);
        let work = self.dir.join(format!("build.{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work)
            .map_err(|e| Failure::Message(format!("cannot create `{}`: {e}", work.display())))?;
        Ok(work)
    }

    /// Moves the artifact `built` (in `work`, from [`Slot::work_dir`]) into
    /// the entry, its sum after it (so that a reader who finds a sum finds
    /// the artifact it describes, or a newer, equal one), with the source
    /// `source` it was built from and `description` for `cache list`; then
    /// removes `work`.
    pub(super) fn store(
        &self,
        work: &Path,
        built: &Path,
        source: &Path,
        description: &str,
    ) -> CliResult<()> {
        let stored = std::fs::read(built)
            .map(|bytes| hex(&Sha256::digest(&bytes)))
            .and_then(|sum| {
                let partial_sum = work.join("artifact.sha256");
                std::fs::write(&partial_sum, sum)?;
                std::fs::rename(built, &self.artifact)?;
                std::fs::rename(&partial_sum, &self.sum)
            });
        if let Err(e) = stored {
            let _ = std::fs::remove_dir_all(work);
            return Err(Failure::Message(format!(
                "cannot store `{}` in the build cache: {e}",
                self.artifact.display()
            )));
        }
        // The source stays beside the artifact, for anyone curious.
        if let Some(name) = source.file_name() {
            let _ = std::fs::rename(source, self.dir.join(name));
        }
        let _ = std::fs::write(
            self.dir.join(ENTRY_FILE),
            format!("{}\n{description}\n", self.kind.label()),
        );
        let _ = std::fs::remove_dir_all(work);
        Ok(())
    }
}

/// The cache directory for `run` and `build`, which execute what they
/// find in it: made if missing (private to the user), and refused, as ssh
/// refuses a key directory (`StrictModes`), if anyone but the user could
/// have put something there: it belongs to another user or is writable by
/// its group or others, or a directory above it belongs to another user
/// (but root) or is writable by all without the sticky bit (`/tmp` has
/// it).
pub(super) fn trusted_cache_dir() -> CliResult<PathBuf> {
    let dir = cache_dir();
    if !dir.exists() {
        let mut builder = std::fs::DirBuilder::new();
        builder.recursive(true);
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        builder.create(&dir).map_err(|e| {
            Failure::Message(format!(
                "cannot create the build cache `{}`: {e}",
                dir.display()
            ))
        })?;
    }
    #[cfg(unix)]
    check_private(&dir)?;
    Ok(dir)
}

/// [`trusted_cache_dir`]'s test of `dir` and the directories above it.
#[cfg(unix)]
fn check_private(dir: &Path) -> CliResult<()> {
    use std::os::unix::fs::MetadataExt;
    let user = rustix::process::geteuid().as_raw();
    let absolute = std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf());
    for (depth, at) in absolute.ancestors().enumerate() {
        let Ok(metadata) = std::fs::metadata(at) else {
            continue;
        };
        let mode = metadata.mode();
        let owner_ok = metadata.uid() == user || (depth > 0 && metadata.uid() == 0);
        // The cache itself must be the user's alone; a directory above it
        // may be shared with the user's group (a umask of 002 makes them
        // so), and with everyone if only owners may rename in it (sticky).
        let writable_by_others = match depth {
            0 => mode & 0o022 != 0,
            _ => mode & 0o002 != 0 && mode & 0o1000 == 0,
        };
        if owner_ok && !writable_by_others {
            continue;
        }
        let what = if depth == 0 {
            "the build cache".to_string()
        } else {
            format!("`{}`, above the build cache,", at.display())
        };
        let why = if owner_ok {
            format!("is writable by other users (mode {:04o})", mode & 0o7777)
        } else {
            format!("belongs to another user (uid {})", metadata.uid())
        };
        return Err(Failure::Message(format!(
            "{what} {why}: chess2rs runs the executables it caches, so it does not use `{}`; \
             make it yours alone (`chmod go-w`) or choose another with CHESS2RS_CACHE_DIR",
            dir.display()
        )));
    }
    Ok(())
}

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

/// Lower-case hexadecimal.
pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Removes the build directories (`build.PID`) in a cache entry whose
/// process is gone (killed or interrupted mid-build), where the system
/// shows processes in `/proc`.
fn sweep_stale_builds(entry: &Path) {
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
    /// `executable` or `runtime`.
    kind: String,
    /// What it was built for: `NAME (LANGUAGE)` of a program, the runtime's
    /// version and rustc of a runtime.
    what: String,
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
            let description = std::fs::read_to_string(path.join(ENTRY_FILE)).unwrap_or_default();
            let mut lines = description.lines();
            let kind = lines.next().unwrap_or("").trim().to_string();
            let what = lines.next().unwrap_or("").trim().to_string();
            let (kind, what) = if kind.is_empty() {
                (
                    "unknown".to_string(),
                    "(being built, or from another version)".to_string(),
                )
            } else {
                (kind, what)
            };
            // The sum's time is the last use; an entry without one (being
            // built) counts from its directory's.
            let used = [Kind::Executable, Kind::Runtime]
                .iter()
                .find_map(|artifact| {
                    std::fs::metadata(path.join(format!("{}.sha256", artifact.artifact()))).ok()
                })
                .map_or_else(|| item.metadata(), Ok)
                .and_then(|meta| meta.modified())
                .unwrap_or(SystemTime::UNIX_EPOCH);
            Entry {
                size: size_of(&path),
                path,
                kind,
                what,
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
        text.push_str(&format!(
            "no cached programs or runtime in {}\n",
            dir.display()
        ));
    } else {
        text.push_str(&format!(
            "{:<12}  {:<10}  {:>9}  {:<14}  PROGRAM\n",
            "ENTRY", "KIND", "SIZE", "LAST USED"
        ));
        for entry in &entries {
            let key = entry.path.file_name().unwrap_or_default().to_string_lossy();
            text.push_str(&format!(
                "{:<12}  {:<10}  {:>9}  {:<14}  {}\n",
                &key[..12.min(key.len())],
                entry.kind,
                human_size(entry.size),
                age(now.duration_since(entry.used).unwrap_or_default()),
                entry.what
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
    if older_than.is_none() {
        // The remembered rustc identities go with everything else.
        let _ = std::fs::remove_dir_all(dir.join("toolchains"));
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
