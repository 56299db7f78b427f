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

/// What a case expects, read from its expectation files.
#[derive(Clone, Debug)]
pub struct Expected {
    /// Standard input (`.in`, default empty).
    pub input: Vec<u8>,
    /// Exact standard output (`.out`, default empty).
    pub stdout: String,
    /// Exit code (`.code`, default 0).
    pub code: i32,
    /// Step limit (`.steps`, default none).
    pub max_steps: Option<u64>,
    /// Lines standard error must contain (`.err`).
    pub stderr_contains: Vec<String>,
}

impl CaseFiles {
    /// Reads the expectation files; a malformed `.code` or `.steps` is an
    /// error naming the file.
    pub fn expected(&self) -> Result<Expected, String> {
        let read = |suffix: &str| std::fs::read_to_string(self.sibling(suffix)).ok();
        let number = |suffix: &str| -> Result<Option<u64>, String> {
            read(suffix)
                .map(|text| {
                    text.trim()
                        .parse::<u64>()
                        .map_err(|e| format!("{}{suffix}: {e}", self.name))
                })
                .transpose()
        };
        Ok(Expected {
            input: std::fs::read(self.sibling(".in")).unwrap_or_default(),
            stdout: read(".out").unwrap_or_default(),
            code: number(".code")?.unwrap_or(0) as i32,
            max_steps: number(".steps")?,
            stderr_contains: read(".err")
                .map(|text| {
                    text.lines()
                        .filter(|l| !l.trim().is_empty())
                        .map(str::to_string)
                        .collect()
                })
                .unwrap_or_default(),
        })
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
