//! A real client: headless Neovim opens a program with an error through
//! the configuration `docs/editors.md` gives (and the syntax files it
//! says to copy): the diagnostic `chess2rs lsp` sends arrives in
//! `vim.diagnostic.get()` on the right line, and the keys the block maps
//! work — `K` opens a hover, `gd` goes to a jump's line, `\rn` renames a
//! label with its jumps, `\f` formats — and a label is coloured.
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
    // The syntax files, copied where the documentation says.
    let editors = Path::new(env!("CARGO_MANIFEST_DIR")).join("../editors/vim");
    for kind in ["syntax", "ftdetect"] {
        let into = dir.join("config/nvim").join(kind);
        std::fs::create_dir_all(&into).unwrap();
        for entry in std::fs::read_dir(editors.join(kind)).unwrap() {
            let path = entry.unwrap().path();
            std::fs::copy(&path, into.join(path.file_name().unwrap())).unwrap();
        }
    }
    // Line 3 jumps to a label no line has; line 2 is spaced badly.
    std::fs::write(
        dir.join("jump.icp"),
        "1. a=K0,0\n2.   \"hi\n3. a;0,1?9\n4. ^?1\n",
    )
    .unwrap();
    let report = dir.join("report.txt");
    let probe = format!(
        r#"lua << EOF
local lines = {{}}
local function say(line) table.insert(lines, line) end
local ok = vim.wait(15000, function() return #vim.diagnostic.get(0) > 0 end, 50)
for _, d in ipairs(vim.diagnostic.get(0)) do
  say(string.format("%d:%d:%s:%s", d.lnum, d.col, d.severity, d.message:gsub("\n", " | ")))
end
if not ok then say("timeout") end
local function press(keys)
  vim.api.nvim_feedkeys(vim.api.nvim_replace_termcodes(keys, true, false, true), "x", false)
end
local function floating()
  for _, window in ipairs(vim.api.nvim_list_wins()) do
    if vim.api.nvim_win_get_config(window).relative ~= "" then return window end
  end
end
vim.api.nvim_win_set_cursor(0, {{3, 3}})
press("K")
say("hover " .. tostring(vim.wait(10000, function() return floating() ~= nil end, 50)))
local window = floating()
if window then vim.api.nvim_win_close(window, true) end
vim.api.nvim_win_set_cursor(0, {{4, 5}})
press("gd")
vim.wait(10000, function() return vim.api.nvim_win_get_cursor(0)[1] == 1 end, 50)
say("definition " .. vim.api.nvim_win_get_cursor(0)[1])
vim.api.nvim_win_set_cursor(0, {{1, 0}})
-- The new name, as the user would type it at the prompt.
vim.ui.input = function(_, answer) answer("70") end
press("\\rn")
vim.wait(10000, function() return vim.fn.getline(4) == "4. ^?70" end, 50)
say("renamed " .. vim.fn.getline(1) .. " / " .. vim.fn.getline(4))
press("\\f")
vim.wait(10000, function() return vim.fn.getline(2) == '2. "hi' end, 50)
say("formatted " .. vim.fn.getline(2))
say("colour " .. vim.fn.synIDattr(vim.fn.synID(1, 1, 1), "name"))
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
        .env("XDG_CONFIG_HOME", dir.join("config"))
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
    for wanted in [
        "hover true",
        "definition 1",
        "renamed 70. a=K0,0 / 4. ^?70",
        "formatted 2. \"hi",
        "colour icpLabel",
    ] {
        assert!(
            report.lines().any(|line| line == wanted),
            "no `{wanted}` in {report:?}"
        );
    }
}
