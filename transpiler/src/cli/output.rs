//! Where the command's results go: stdout, or the path given with `-o`.
//!
//! Every write is checked: an error is reported ("writing the output: No
//! space left on device") and the command fails, except a closed pipe
//! (`chess2rs prog.icp | head`), which simply ends the output. A path is
//! written the way shells and coreutils write: a regular file (or a new
//! one) is replaced atomically, through a temporary file next to it; a
//! symbolic link keeps pointing where it did and its target is replaced;
//! a FIFO, a terminal or another device is opened and written.

use std::fs::{File, OpenOptions, Permissions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use super::{CliResult, Failure};

/// Writes what `write` produces to stdout, buffered.
pub(super) fn to_stdout(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> CliResult<()> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    match write(&mut out).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(error) => {
            // Whatever is left in the buffer cannot be written either.
            let _ = out.into_parts();
            stdout_failure(&error)
        }
    }
}

/// `Ok` for a closed pipe, else the error of a failed write to stdout.
pub(super) fn stdout_failure(error: &io::Error) -> CliResult<()> {
    if error.kind() == io::ErrorKind::BrokenPipe {
        return Ok(());
    }
    Err(Failure::Message(format!(
        "writing the output: {}",
        error_text(error)
    )))
}

/// An I/O error's message without the "(os error N)" that follows it.
pub(super) fn error_text(error: &io::Error) -> String {
    let text = error.to_string();
    match text.rfind(" (os error ") {
        Some(at) if text.ends_with(')') => text[..at].to_string(),
        _ => text,
    }
}

/// Writes an output file: refuses a path that is one of the `inputs`
/// (the user's program must never be overwritten); writes a FIFO or a
/// device in place; otherwise has `write` fill a temporary file next to
/// the file the path names (through symbolic links), gives it
/// `permissions` if any, and renames it into place — so the file holds
/// either its old contents or the whole new output.
pub(super) fn write_output(
    path: &Path,
    inputs: &[&Path],
    permissions: Option<Permissions>,
    write: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> CliResult<()> {
    refuse_inputs(path, inputs)?;
    let failed = |error: io::Error| {
        Failure::Message(format!(
            "cannot write `{}`: {}",
            path.display(),
            error_text(&error)
        ))
    };
    let target = link_target(path).map_err(failed)?;
    if is_special(&target) {
        let file = OpenOptions::new()
            .write(true)
            .open(&target)
            .map_err(failed)?;
        let mut out = BufWriter::new(file);
        return write(&mut out).and_then(|()| out.flush()).map_err(failed);
    }
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let temp = target.with_file_name(format!(".{name}.chess2rs-{}.tmp", std::process::id()));
    let written = File::create(&temp)
        .and_then(|file| {
            let mut out = BufWriter::new(file);
            write(&mut out)?;
            out.flush()
        })
        .and_then(|()| match permissions {
            Some(permissions) => std::fs::set_permissions(&temp, permissions),
            None => Ok(()),
        })
        .and_then(|()| std::fs::rename(&temp, &target));
    written.map_err(|error| {
        let _ = std::fs::remove_file(&temp);
        failed(error)
    })
}

/// The path a chain of symbolic links at `path` ends at (`path` itself if
/// it is not a link; the missing file a dangling link names).
fn link_target(path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    // As many links as the kernel follows before ELOOP.
    for _ in 0..40 {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(parent) if next.is_relative() => parent.join(next),
                    _ => next,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Whether `path` exists and is neither a regular file nor a directory: a
/// FIFO, a device or a socket, which is written in place.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|meta| !meta.is_file() && !meta.is_dir())
}

/// An error if `path` is one of the `inputs`.
pub(super) fn refuse_inputs(path: &Path, inputs: &[&Path]) -> CliResult<()> {
    match inputs.iter().find(|input| same_file(path, input)) {
        Some(input) => Err(Failure::Message(format!(
            "refusing to write `{}`: it is the program `{}` itself; choose another -o",
            path.display(),
            input.display()
        ))),
        None => Ok(()),
    }
}

/// Whether `a` and `b` name the same existing file (through links, `..`
/// or another spelling).
pub(super) fn same_file(a: &Path, b: &Path) -> bool {
    if b == Path::new("-") {
        return false;
    }
    let (Ok(meta_a), Ok(meta_b)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta_a.dev() == meta_b.dev() && meta_a.ino() == meta_b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (meta_a, meta_b);
        match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_texts_drop_the_os_error_number() {
        let full = io::Error::from_raw_os_error(28);
        assert_eq!(error_text(&full), "No space left on device");
        assert_eq!(error_text(&io::Error::other("plain")), "plain");
    }

    #[test]
    fn links_are_followed_to_their_target() {
        let dir = std::env::temp_dir().join(format!("chess2rs-links-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let target = dir.join("target.rs");
        assert_eq!(link_target(&target).expect("no link"), target);
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("target.rs", dir.join("one")).expect("link");
            std::os::unix::fs::symlink(dir.join("one"), dir.join("two")).expect("link");
            assert_eq!(link_target(&dir.join("two")).expect("chain"), target);
            std::os::unix::fs::symlink("loop", dir.join("loop")).expect("link");
            assert!(link_target(&dir.join("loop")).is_err());
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
