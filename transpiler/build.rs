//! Gives the crate `CHESS2RS_SOURCE_HASH`: a hash of its own sources, part
//! of the build cache's key (`run`, `build`), so that a chess2rs whose code
//! generation changed never reuses an executable built by another one,
//! even at the same version number.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

fn main() {
    println!("cargo:rerun-if-changed=src");
    let mut files = Vec::new();
    collect(Path::new("src"), &mut files);
    files.sort();
    // SipHash with fixed keys: the same sources give the same hash.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    for file in &files {
        file.to_string_lossy().hash(&mut hasher);
        std::fs::read(file).unwrap_or_default().hash(&mut hasher);
    }
    println!(
        "cargo:rustc-env=CHESS2RS_SOURCE_HASH={:016x}",
        hasher.finish()
    );
}

/// Every file under `dir`, recursively.
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(listing) = std::fs::read_dir(dir) else {
        return;
    };
    for item in listing.flatten() {
        let path = item.path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}
