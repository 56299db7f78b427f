//! The Rust toolchain `run` and `build` call: which rustc, who it is
//! (remembered, so that a cache hit starts no process), its flags, and
//! the keys of what it builds.
//!
//! rustc's identity is its `rustc -vV` text. Asking costs a process (about
//! 35 ms through rustup's proxy), so the answer is remembered in the cache
//! under a fingerprint of what decides it: the rustc file's path, size,
//! modification time and inode, and for rustup's proxy also what rustup
//! chooses a toolchain by (`RUSTUP_TOOLCHAIN`, its settings file, the
//! nearest `rust-toolchain` file, every installed toolchain's rustc).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;

use sha2::{Digest, Sha256};

use super::cache::hex;
use super::{CliResult, Failure};

/// A working rustc and who it is.
pub(super) struct Toolchain {
    /// The command (`$RUSTC`, else `rustc`).
    rustc: OsString,
    /// Its `-vV` text.
    identity: Vec<u8>,
    /// Where that text is remembered, if it could be fingerprinted.
    memo: Option<PathBuf>,
}

impl Toolchain {
    /// The toolchain of `$RUSTC` (else `rustc` on the `PATH`), its identity
    /// remembered in `cache`.
    pub(super) fn find(cache: &Path) -> CliResult<Toolchain> {
        let rustc = std::env::var_os("RUSTC")
            .filter(|value| !value.is_empty())
            .unwrap_or_else(|| "rustc".into());
        let memo = fingerprint(&rustc).map(|print| {
            cache
                .join("toolchains")
                .join(format!("{}.txt", &print[..32]))
        });
        if let Some(identity) = memo.as_ref().and_then(|memo| std::fs::read(memo).ok()) {
            if is_version_text(&identity) {
                return Ok(Toolchain {
                    rustc,
                    identity,
                    memo,
                });
            }
        }
        let identity = ask_identity(&rustc)?;
        if let Some(memo) = &memo {
            remember(memo, &identity);
        }
        Ok(Toolchain {
            rustc,
            identity,
            memo,
        })
    }

    /// Forgets the remembered identity (rustc turned out to be another one
    /// than remembered: it refused the runtime library built for it).
    pub(super) fn forget(&self) {
        if let Some(memo) = &self.memo {
            let _ = std::fs::remove_file(memo);
        }
    }

    /// A command running this rustc, in a process group of its own (on
    /// Unix), so that a stopped build can end rustc's linker with it
    /// (`interrupt` signals the whole group).
    pub(super) fn command(&self) -> Command {
        let mut command = Command::new(&self.rustc);
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        command
    }

    /// rustc's release line (`rustc 1.95.0 (59807616e 2026-04-14)`).
    pub(super) fn release(&self) -> String {
        String::from_utf8_lossy(&self.identity)
            .lines()
            .next()
            .unwrap_or("rustc")
            .trim()
            .to_string()
    }

    /// The key of the runtime library built with `flags`: the runtime's
    /// sources and version, rustc's identity and the flags.
    pub(super) fn runtime_key(&self, flags: &[String]) -> String {
        let mut key = KeyHasher::new("chess2rs-runtime rlib");
        key.part(env!("CARGO_PKG_VERSION").as_bytes());
        for (name, text) in chess2rs_runtime::SOURCES {
            key.part(name.as_bytes());
            key.part(text.as_bytes());
        }
        key.part(&self.identity);
        key.part(flags.join(" ").as_bytes());
        key.finish()
    }
}

/// A program's key: what determines its executable — the program's text,
/// its language and the name compiled in, this chess2rs (version and the
/// hash of its sources), and the runtime's key (rustc, flags, runtime
/// sources). Computed without generating any code.
pub(super) fn program_key(
    runtime_key: &str,
    language_extension: &str,
    name_in_code: &str,
    text: &str,
) -> String {
    let mut key = KeyHasher::new("chess2rs program executable");
    key.part(env!("CARGO_PKG_VERSION").as_bytes());
    key.part(env!("CHESS2RS_SOURCE_HASH").as_bytes());
    key.part(runtime_key.as_bytes());
    key.part(language_extension.as_bytes());
    key.part(name_in_code.as_bytes());
    key.part(text.as_bytes());
    key.finish()
}

/// SHA-256 over length-prefixed parts (so that no two lists of parts give
/// the same bytes), in lower-case hex.
struct KeyHasher(Sha256);

impl KeyHasher {
    fn new(what: &str) -> KeyHasher {
        let mut hasher = KeyHasher(Sha256::new());
        hasher.part(what.as_bytes());
        hasher
    }

    fn part(&mut self, bytes: &[u8]) {
        self.0.update((bytes.len() as u64).to_le_bytes());
        self.0.update(bytes);
    }

    fn finish(self) -> String {
        hex(&self.0.finalize())
    }
}

/// Whether `text` looks like `rustc -vV` output.
fn is_version_text(text: &[u8]) -> bool {
    text.starts_with(b"rustc ") && text.windows(9).any(|w| w == b"\nrelease:")
}

/// Runs `rustc -vV`: rustc's identity, or why it does not work.
fn ask_identity(rustc: &OsStr) -> CliResult<Vec<u8>> {
    let version = Command::new(rustc).arg("-vV").output().map_err(|e| {
        Failure::Message(format!(
            "cannot run rustc ({e}); `run` and `build` need a Rust toolchain — `interpret` does not"
        ))
    })?;
    if !version.status.success() || version.stdout.iter().all(u8::is_ascii_whitespace) {
        // A toolchain that does not work (rustup without a default, a
        // wrong RUSTC) is not a problem of the generated code.
        let stderr = String::from_utf8_lossy(&version.stderr);
        let said = stderr.lines().next().unwrap_or("").trim();
        return Err(Failure::Message(format!(
            "rustc does not work: `{} -vV` {}\n  = help: install a Rust toolchain (for example `rustup default stable`) or point RUSTC at one; `interpret` needs none",
            rustc.to_string_lossy(),
            if said.is_empty() { "printed no version".to_string() } else { format!("said: {said}") }
        )));
    }
    Ok(version.stdout)
}

/// Writes `identity` to `memo` (whole or not at all: through a temporary
/// file renamed into place); best effort.
fn remember(memo: &Path, identity: &[u8]) {
    let Some(dir) = memo.parent() else {
        return;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let partial = dir.join(format!(".{}.{}", std::process::id(), unique()));
    if std::fs::write(&partial, identity).is_ok() && std::fs::rename(&partial, memo).is_ok() {
        return;
    }
    let _ = std::fs::remove_file(&partial);
}

/// A number that differs between calls in one process.
fn unique() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

/// A fingerprint of what decides which rustc `rustc` runs, or `None` when
/// it cannot be told without running it (not found on the `PATH`).
fn fingerprint(rustc: &OsStr) -> Option<String> {
    let path = resolve(rustc)?;
    let mut print = KeyHasher::new("rustc fingerprint");
    print.part(path.as_os_str().as_encoded_bytes());
    file_stamp(&mut print, &path);
    if is_rustup_proxy(&path) {
        for variable in ["RUSTUP_TOOLCHAIN", "RUSTUP_HOME"] {
            let value = std::env::var_os(variable).unwrap_or_default();
            print.part(value.as_encoded_bytes());
        }
        let home = rustup_home()?;
        // The default toolchain and the per-directory overrides: with
        // overrides, the current directory decides too.
        let settings = std::fs::read(home.join("settings.toml")).unwrap_or_default();
        print.part(&settings);
        let cwd = std::env::current_dir().ok()?;
        if settings.windows(11).any(|w| w == b"[overrides]") {
            print.part(cwd.as_os_str().as_encoded_bytes());
        }
        // The nearest toolchain file of this directory or a parent.
        let toolchain_file = cwd.ancestors().find_map(|dir| {
            ["rust-toolchain", "rust-toolchain.toml"]
                .iter()
                .map(|name| dir.join(name))
                .find(|file| file.is_file())
        });
        if let Some(file) = toolchain_file {
            print.part(file.as_os_str().as_encoded_bytes());
            print.part(&std::fs::read(&file).unwrap_or_default());
        }
        // Every installed toolchain's rustc (an update replaces it).
        let mut toolchains: Vec<PathBuf> = std::fs::read_dir(home.join("toolchains"))
            .map(|listing| listing.flatten().map(|item| item.path()).collect())
            .unwrap_or_default();
        toolchains.sort();
        for toolchain in toolchains {
            print.part(toolchain.as_os_str().as_encoded_bytes());
            file_stamp(&mut print, &toolchain.join("bin").join("rustc"));
        }
    }
    Some(print.finish())
}

/// `rustc` as a path: itself if it names a directory, else the first
/// match on the `PATH`.
fn resolve(rustc: &OsStr) -> Option<PathBuf> {
    let given = Path::new(rustc);
    if given.components().count() > 1 {
        return given.is_file().then(|| given.to_path_buf());
    }
    let exe = format!(
        "{}{}",
        rustc.to_string_lossy(),
        std::env::consts::EXE_SUFFIX
    );
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(&exe))
        .find(|candidate| candidate.is_file())
}

/// Adds what changes when `file` is replaced: size, modification time and
/// (on Unix) device and inode, following symbolic links; a missing file
/// adds a mark of its own.
fn file_stamp(print: &mut KeyHasher, file: &Path) {
    let Ok(meta) = std::fs::metadata(file) else {
        print.part(b"missing");
        return;
    };
    print.part(&meta.len().to_le_bytes());
    let modified = meta
        .modified()
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |since| since.as_nanos());
    print.part(&modified.to_le_bytes());
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        print.part(&meta.dev().to_le_bytes());
        print.part(&meta.ino().to_le_bytes());
    }
}

/// Whether `path` is rustup's proxy: a link to `rustup`, or the same file
/// as the `rustup` beside it.
fn is_rustup_proxy(path: &Path) -> bool {
    let rustup_name = format!("rustup{}", std::env::consts::EXE_SUFFIX);
    if let Ok(target) = std::fs::canonicalize(path) {
        if target.file_name() == Some(OsStr::new(&rustup_name)) {
            return true;
        }
    }
    let Some(sibling) = path.parent().map(|dir| dir.join(&rustup_name)) else {
        return false;
    };
    match (std::fs::metadata(path), std::fs::metadata(&sibling)) {
        (Ok(proxy), Ok(rustup)) => same_file(&proxy, &rustup),
        _ => false,
    }
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    a.len() == b.len()
}

/// rustup's home: `$RUSTUP_HOME`, else `~/.rustup`.
fn rustup_home() -> Option<PathBuf> {
    let set = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty());
    set("RUSTUP_HOME")
        .map(PathBuf::from)
        .or_else(|| set("HOME").map(|home| PathBuf::from(home).join(".rustup")))
        .or_else(|| set("USERPROFILE").map(|home| PathBuf::from(home).join(".rustup")))
}

/// rustc's flags: optimised (`opt-level` 3, or `$CHESS2RS_OPT_LEVEL` — 0
/// builds about three times faster, for quick tries and the test suite).
pub(super) fn rustc_flags() -> CliResult<Vec<String>> {
    let level = match std::env::var("CHESS2RS_OPT_LEVEL") {
        Ok(level) if ["0", "1", "2", "3", "s", "z"].contains(&level.as_str()) => level,
        Ok(level) => {
            return Err(Failure::Message(format!(
                "CHESS2RS_OPT_LEVEL is `{level}`; it takes 0, 1, 2, 3, s or z"
            )))
        }
        Err(_) => "3".to_string(),
    };
    let mut flags: Vec<String> = RUSTC_FLAGS.iter().map(|f| f.to_string()).collect();
    flags.push("-C".into());
    flags.push(format!("opt-level={level}"));
    Ok(flags)
}

/// The flags of every build, the runtime library's and the programs'.
const RUSTC_FLAGS: &[&str] = &[
    "--edition",
    "2021",
    "-C",
    "codegen-units=1",
    "-C",
    "panic=abort",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn toolchain(identity: &str) -> Toolchain {
        Toolchain {
            rustc: "rustc".into(),
            identity: identity.as_bytes().to_vec(),
            memo: None,
        }
    }

    #[test]
    fn every_input_of_a_key_changes_it() {
        let flags = vec!["-C".to_string(), "opt-level=3".to_string()];
        let old = toolchain("rustc 1.95.0\nrelease: 1.95.0\n");
        let new = toolchain("rustc 1.96.0\nrelease: 1.96.0\n");
        let runtime = old.runtime_key(&flags);
        assert_eq!(runtime, old.runtime_key(&flags), "keys are stable");
        assert_ne!(runtime, new.runtime_key(&flags), "another rustc");
        assert_ne!(
            runtime,
            old.runtime_key(&["-C".into(), "opt-level=0".into()]),
            "other flags"
        );
        let program = program_key(&runtime, "icp", "program.icp", "1. \"hi\n");
        assert_eq!(program.len(), 64);
        for other in [
            program_key(&new.runtime_key(&flags), "icp", "program.icp", "1. \"hi\n"),
            program_key(&runtime, "chc", "program.icp", "1. \"hi\n"),
            program_key(&runtime, "icp", "other.icp", "1. \"hi\n"),
            program_key(&runtime, "icp", "program.icp", "1. \"ho\n"),
            // Parts are length-prefixed: moving a byte between them counts.
            program_key(&runtime, "icp", "program.icp1", ". \"hi\n"),
        ] {
            assert_ne!(program, other);
        }
    }

    #[test]
    fn version_texts_are_recognised() {
        assert!(is_version_text(
            b"rustc 1.95.0 (59807616e 2026-04-14)\nbinary: rustc\nrelease: 1.95.0\n"
        ));
        assert!(!is_version_text(b""));
        assert!(!is_version_text(b"rustc 1.95.0 (truncated"));
    }

    #[test]
    fn a_rustc_not_on_the_path_has_no_fingerprint() {
        assert_eq!(fingerprint(OsStr::new("no-such-rustc-anywhere")), None);
        assert_eq!(fingerprint(OsStr::new("/no/such/dir/rustc")), None);
    }
}
