//! Finding golden cases on disk. Shared by `build.rs` (which compiles every
//! case into this crate) and the test (which runs them).

use std::path::{Path, PathBuf};

/// Extensions of program files; anything else in a language directory is
/// an expectation file (`.in`, `.out`, `.code`, `.steps`, `.err`).
pub const PROGRAM_EXTENSIONS: [&str; 5] = ["icp", "chc", "pgn", "btm", "fv"];

/// One golden program and its expectation files.
#[derive(Clone, Debug)]
pub struct CaseFiles {
    /// Path relative to the golden directory, with `/` separators, e.g.
    /// `infchesspro/beer.icp`. Also the source name in diagnostics.
    pub name: String,
    /// The program file.
    pub path: PathBuf,
}

impl CaseFiles {
    /// The expectation file with `suffix` appended (`.in`, `.out`, ...).
    pub fn sibling(&self, suffix: &str) -> PathBuf {
        let mut os = self.path.clone().into_os_string();
        os.push(suffix);
        PathBuf::from(os)
    }

    /// A Rust identifier unique to this case.
    pub fn ident(&self) -> String {
        let mut ident = String::from("case_");
        for c in self.name.chars() {
            ident.push(if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            });
        }
        ident
    }
}

/// Every program under `root/<language>/`, sorted by name.
pub fn discover(root: &Path) -> Vec<CaseFiles> {
    let mut cases = Vec::new();
    let Ok(dirs) = std::fs::read_dir(root) else {
        return cases;
    };
    for dir in dirs.flatten() {
        let dir_path = dir.path();
        if !dir_path.is_dir() {
            continue;
        }
        let Ok(files) = std::fs::read_dir(&dir_path) else {
            continue;
        };
        for file in files.flatten() {
            let path = file.path();
            let is_program = path
                .extension()
                .and_then(|e| e.to_str())
                .is_some_and(|e| PROGRAM_EXTENSIONS.contains(&e));
            if !is_program {
                continue;
            }
            let name = format!(
                "{}/{}",
                dir.file_name().to_string_lossy(),
                file.file_name().to_string_lossy()
            );
            cases.push(CaseFiles { name, path });
        }
    }
    cases.sort_by(|a, b| a.name.cmp(&b.name));
    cases
}
