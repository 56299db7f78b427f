//! A real client: headless Neovim opens a program with an error through
//! the configuration `docs/editors.md` gives, and the diagnostic `chess2rs
//! lsp` sends arrives in `vim.diagnostic.get()` on the right line.
//!
//! `.ci/run` installs Neovim (Debian's `neovim`) and sets
//! CHESS2RS_REQUIRE_NVIM=1, so there the test cannot pass without it;
//! elsewhere a machine without `nvim` skips it, saying so.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/required_tool.rs"]
mod required_tool;
#[path = "support/scratch.rs"]
mod scratch;
use required_tool::required;
use scratch::scratch;

/// The Lua block of `docs/editors.md` that the Neovim section gives.
fn documented_config() -> String {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/editors.md"))
            .unwrap();
    let after_marker = doc
        .split("<!-- neovim-config")
        .nth(1)
        .expect("docs/editors.md marks the Neovim configuration");
    let block = after_marker
        .split("```lua\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("a ```lua block after the marker");
    block.to_string()
}

fn nvim_available() -> bool {
    Command::new("nvim")
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

#[test]
fn neovim_shows_the_servers_diagnostic_through_the_documented_config() {
    let nvim = nvim_available().then_some("nvim");
    if required(nvim, "nvim", "neovim", "CHESS2RS_REQUIRE_NVIM").is_none() {
        return;
    }
    let dir = scratch("neovim");
    std::fs::write(dir.join("init.lua"), documented_config()).unwrap();
    // Line 3 jumps to a label no line has.
    std::fs::write(dir.join("jump.icp"), "1. a=K0,0\n2. \"hi\n3. a;0,1?9\n").unwrap();
    let report = dir.join("report.txt");
    let probe = format!(
        r#"lua << EOF
local ok = vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local lines = {{}}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(lines, string.format("%d:%d:%s:%s", d.lnum, d.col, d.severity, d.message:gsub("\n", " | ")))
end
if not ok then table.insert(lines, "timeout") end
vim.fn.writefile(lines, "{}")
EOF"#,
        report.display()
    );
    std::fs::write(dir.join("probe.vim"), probe).unwrap();
    // `chess2rs` on the PATH, as the configuration starts it.
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_chess2rs"));
    let path = std::env::join_paths(std::iter::once(exe.parent().unwrap().to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    let status = Command::new("nvim")
        .current_dir(&dir)
        .env("PATH", path)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .args([
            "--headless",
            "-n",
            "-i",
            "NONE",
            "-u",
            "init.lua",
            "jump.icp",
        ])
        .args(["-c", "source probe.vim", "-c", "qall!"])
        .status()
        .unwrap();
    assert!(status.success(), "nvim: {status}");
    let report = std::fs::read_to_string(&report).unwrap();
    let first = report.lines().next().unwrap_or_default();
    // 0-based line 2 (the file's line 3), column 8 (`?9`), severity 1
    // (error), the message `chess2rs check` gives.
    assert!(
        first.starts_with("2:8:1:no line is labelled 9"),
        "Neovim saw: {report:?}"
    );
}
