#!/usr/bin/env bash
# Makes docs/images/neovim-diagnostics.png: Neovim (the configuration of
# docs/editors.md) showing `chess2rs lsp`'s diagnostics, captured from a
# tmux pane and photographed by headless Chromium. Run from the repository
# root after `cargo build`; needs nvim, tmux, python3 and chromium. A
# documentation tool, not part of the build or the tests.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d)"
trap 'tmux kill-session -t chess2rs-shot 2>/dev/null || true; rm -rf "$work"' EXIT
awk '/<!-- neovim-config/{found=1} found && /^```lua/{inside=1; next} inside && /^```/{exit} inside' \
    "$root/docs/editors.md" > "$work/init.lua"
cat >> "$work/init.lua" <<'LUA'
vim.o.number = true
vim.o.signcolumn = "yes"
vim.o.laststatus = 0
vim.o.ruler = false
LUA
cat > "$work/jump.icp" <<'ICP'
# Counts a white king along row 0 until a black rook stops it.
1. k=K0,0
2. r=r0,5
3. k;0,1?3!4
4. "stopped
5. %k
6. k;1,0?9
ICP
export PATH="$root/target/debug:$PATH"
tmux new-session -d -s chess2rs-shot -x 92 -y 14 \
    "cd '$work' && TERM=xterm-256color nvim -n -i NONE -u init.lua jump.icp"
sleep 4
tmux capture-pane -t chess2rs-shot -e -p > "$work/screen.ansi"
python3 - "$work/screen.ansi" "$work/screen.html" <<'PY'
import html, re, sys
BASE = ["#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
        "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff"]
def colour(n):
    if n < 16: return BASE[n]
    if n < 232:
        n -= 16; r, g, b = n // 36, (n // 6) % 6, n % 6
        level = lambda v: 0 if v == 0 else 55 + 40 * v
        return "#%02x%02x%02x" % (level(r), level(g), level(b))
    v = 8 + 10 * (n - 232); return "#%02x%02x%02x" % (v, v, v)
out = []
for line in open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n"):
    fg, bg, bold, spans = None, None, False, []
    for part in re.split(r"(\x1b\[[0-9;]*m)", line):
        if part.startswith("\x1b["):
            codes = [int(c) if c else 0 for c in part[2:-1].split(";")] or [0]
            i = 0
            while i < len(codes):
                c = codes[i]
                if c == 0: fg, bg, bold = None, None, False
                elif c == 1: bold = True
                elif c == 22: bold = False
                elif 30 <= c <= 37: fg = BASE[c - 30]
                elif 90 <= c <= 97: fg = BASE[c - 90 + 8]
                elif c == 39: fg = None
                elif 40 <= c <= 47: bg = BASE[c - 40]
                elif 100 <= c <= 107: bg = BASE[c - 100 + 8]
                elif c == 49: bg = None
                elif c in (38, 48) and i + 2 < len(codes) and codes[i + 1] == 5:
                    (fg if c == 38 else bg)
                    if c == 38: fg = colour(codes[i + 2])
                    else: bg = colour(codes[i + 2])
                    i += 2
                elif c in (38, 48) and i + 4 < len(codes) and codes[i + 1] == 2:
                    value = "#%02x%02x%02x" % tuple(codes[i + 2:i + 5])
                    if c == 38: fg = value
                    else: bg = value
                    i += 4
                i += 1
        elif part:
            style = "".join([f"color:{fg};" if fg else "", f"background:{bg};" if bg else "",
                             "font-weight:bold;" if bold else ""])
            spans.append(f'<span style="{style}">{html.escape(part)}</span>')
    out.append("".join(spans))
page = ("<!doctype html><meta charset=utf-8><body style='margin:0;background:#1e1e1e'>"
        "<pre style='margin:0;padding:12px;font:15px/1.35 \"DejaVu Sans Mono\",monospace;"
        "color:#e5e5e5;background:#1e1e1e'>" + "\n".join(out) + "</pre>")
open(sys.argv[2], "w", encoding="utf-8").write(page)
PY
mkdir -p "$root/docs/images"
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
    --window-size=900,300 --screenshot="$root/docs/images/neovim-diagnostics.png" \
    "file://$work/screen.html" 2>/dev/null
echo "wrote docs/images/neovim-diagnostics.png"
