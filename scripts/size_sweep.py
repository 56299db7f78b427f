#!/usr/bin/env python3
"""Size sweep: how chess2rs's cost grows with the size of a program.

Generates programs of 10^3 ... 10^6 lines in every language (regular but
realistic: loops, jumps, moves, prints; for InfChessPro also a piece
name of its own every four lines, `icp_names`; for Chess Code also random nests
that read and print, `chc_nests`; for BTM also a random machine,
`btm_random`), then measures with /usr/bin/time
the wall time and peak memory of

  * `chess2rs check FILE`          (parse, check, lower)
  * `chess2rs FILE > /dev/null`    (emit the Rust program)
  * `chess2rs build FILE -o EXE`   (rustc -O; only up to --build-max lines)

and prints a Markdown table for docs/performance.md.

    cargo build --release -p chess2rs
    python3 scripts/size_sweep.py                       # check + emit
    python3 scripts/size_sweep.py --build-max 100000    # + rustc builds
    python3 scripts/size_sweep.py --write-only DIR      # only write the programs

The generators are also used by the regression tests' documentation: each
writes exactly `lines` non-blank lines (give or take a header).
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile


def repeated(lines, head, block):
    """A program's text: the lines of `head`, then those of `block(0)`,
    `block(1)`, ... until there are at least `lines`."""
    out = list(head)
    index = 0
    while len(out) < lines:
        out += block(index)
        index += 1
    return "\n".join(out) + "\n"


def icp(lines):
    """InfChessPro: blocks of four lines, a slide that jumps over a print,
    a count and a move back."""
    def block(index):
        label = 4 * index + 1
        return [f"{label}. x;0,1?{label + 2}", f'{label + 1}. "never printed',
                f"{label + 2}. %x", f"{label + 3}. x,0,0"]
    return repeated(lines, ["0. x=R0,0"], block)


def icp_names(lines):
    """InfChessPro with many names: blocks of four lines, each placing a
    piece of its own (`p0`, `p1`, ...: a quarter as many names as lines,
    so nearly every command is distinct), sliding it over a print and
    counting it."""
    def block(index):
        label = 4 * index + 1
        return [f"{label}. p{index}=R{index},0", f"{label + 1}. p{index};0,1?{label + 3}",
                f'{label + 2}. "never printed', f"{label + 3}. %p{index}"]
    return repeated(lines, [], block)


def chc(lines):
    """Chess Code: blocks of seven lines, a counting loop and a print."""
    return repeated(lines, [], lambda _: ["a1+", "Ra1", "Kxb1", "1/2 1/2", "b1+", "b1=R+", "b1"])


def chc_nests(lines):
    """Chess Code, a random program (fixed seed) of blocks, each resetting
    the cells it uses so every loop ends and no sum overflows: counting
    loops and sums of counters (which generated code skips in closed
    form), nests two and three deep whose outer loop prints (no closed
    form there), loops that read numbers and add them up, ASCII output,
    labels without a condition, two-cell and equality conditions. Reads
    numbers from standard input (any small ones: `yes 7 | head -n 100000`);
    its first comment line says how many."""
    rng = random.Random(36)
    # Constants: h1 = 3, h2 = 10, h3 = 100, h4 = 1000, h5 = 65 ("A"),
    # h6 = 10 (a newline), h7 = 32 (a space); a8 stays 0.
    out = ["h1+", "h1+", "h1+", "h2xh1+", "h2xh1+", "h2xh1+", "h2+",
           "Nh2", "1/2 1/2", "g8+", "h3xh2+", "g8=N+",
           "g8xa8", "Bh3", "1/2 1/2", "g8+", "h4xh2+", "g8=B+"]
    out += ["h5xh2+"] * 6 + ["h5xh1+", "h5+", "h5+", "h6xh2"]
    out += ["h7xh2+"] * 3 + ["h7+", "h7+"]
    reads = 0
    stray_labels = 0
    pool = [f"{f}{r}" for r in "1234567" for f in "abcdefg"] + [f"{f}8" for f in "bcdefg"]
    bounds = ["h1", "h2", "h2", "h3", "h3", "h4"]
    while len(out) < lines:
        x, y, z, w = rng.sample(pool, 4)
        kind = rng.choice("AAABBBCCDDEFGGH")
        if kind == "A":
            v, b = rng.choice("RNBQK"), rng.choice(bounds)
            body = [f"{x}+"] + [f"{y}x{rng.choice(['h1', 'h2', 'h3'])}+"
                                for _ in range(rng.randint(1, 3))]
            rng.shuffle(body)
            cond = f"{x}={v}+" if rng.random() < 0.7 else f"{x}xa8={v}+"
            out += [f"{x}xa8", f"{y}xa8", f"{v}{b}", "1/2 1/2"] + body + [cond, y]
        elif kind == "B":
            v, b = rng.choice("RNBQK"), rng.choice(bounds)
            out += [f"{x}xa8", f"{y}xa8", f"{z}xa8", f"{v}{b}", "1/2 1/2", f"{x}+",
                    f"{y}x{x}+", f"{z}x{y}+", f"{x}={v}+", z]
        elif kind == "C":
            v1, v2 = rng.sample("RNBQK", 2)
            out += [f"{x}xa8", f"{w}xa8", f"{v1}{rng.choice(bounds[:3])}", "1/2 1/2",
                    f"{x}+", f"{y}xa8", f"{v2}{rng.choice(bounds[:5])}", "1/2 1/2",
                    f"{y}+", f"{w}x{y}+", f"{y}={v2}+", w, "O-O", "h7", "O-O-O",
                    f"{x}={v1}+"]
        elif kind == "D":
            v, b = rng.choice("RNBQK"), rng.choice(bounds[:3])
            reads += {"h1": 3, "h2": 10, "h3": 100}[b]
            out += [f"{x}xa8", f"{z}xa8", f"{v}{b}", "1/2 1/2", f"{x}+", f"{y}#",
                    f"{z}x{y}+", f"{x}={v}+", z]
        elif kind == "E":
            out += ["O-O", "h5", "h6", "O-O-O"]
        elif kind == "F":
            # A label no condition goes back to stays open: check allows
            # 256 at once, as if they nested.
            stray = ["1/2 1/2"] if stray_labels < 200 else []
            stray_labels += len(stray)
            out += [f"{x}xa8", f"B{x}", "1/2 1/2", f"{x}+", f"{x}=B"] + stray
            out += [f"{x}x{x}", f"Bx{x}+", f"B{x}+", x]
        elif kind == "G":
            v1, v2, v3 = rng.sample("RNBQK", 3)
            out += [f"{x}xa8", f"{w}xa8", f"{v1}h1", "1/2 1/2", f"{x}+", f"{y}xa8",
                    f"{v2}h2", "1/2 1/2", f"{y}+", f"{z}xa8", f"{v3}{rng.choice(bounds[:4])}",
                    "1/2 1/2", f"{z}+", f"{w}x{z}+", f"{z}={v3}+", f"{y}={v2}+", w,
                    f"{x}={v1}+"]
        else:
            reads += 1
            out += [f"N{x}#", f"{y}xa8", f"Nx{y}+", f"Nx{y}+", y]
    header = f"| chc_nests: {len(out)} lines, reads {reads} numbers"
    return "\n".join([header] + out) + "\n"


def btm(lines):
    """BTM: rules (state s reads 0: write 1, go right, state s+1) for as
    many states as fit, from the start state 0 (which goes on to 3: states
    1 and 2 read and print); the machine walks right and halts."""
    out = []
    state = 0
    while len(out) + 5 <= max(lines, 5):
        following = 3 if state == 0 else state + 1
        for value in (state, 0, following, 1, 0):
            out.append("1" + format(value, "b") + "!")
        state = following
    return "\n".join(out) + "\n"


def btm_random(lines):
    """BTM: a random machine over as many states as fit (two rules each,
    for symbols 0 and 1: a random write and move, the next state random
    among all — a few keep their state — and rarely the output state 2),
    with a short random tape; it wanders until the step limit (run it with
    `--max-steps`)."""
    rng = random.Random(8)
    bits = lambda value: "1" + format(value, "b") + "!"
    states = [0] + list(range(3, 3 + max(lines - 40, 10) // 10))
    out = []
    for state in states:
        for symbol in (0, 1):
            roll = rng.randrange(20)
            if roll < 3:
                following = state
            elif roll == 3 and rng.randrange(50) == 0:
                following = 2
            else:
                following = rng.choice(states)
            for part in (state, symbol, following, rng.randrange(2), rng.randrange(2)):
                out.append(bits(part))
    out += ["1" + format(rng.randrange(2), "b") + "?" for _ in range(30)]
    return "\n".join(out[:lines]) + "\n"


def pgn(lines):
    """Chessoteric: a game of knights going back and forth, one move per
    line, no move annotated (an empty machine: it halts at once)."""
    moves = ["Nf3", "Nf6", "Ng1", "Ng8"]
    out = ['[Event "size sweep"]', ""]
    ply = 0
    while len(out) < lines:
        move = moves[ply % 4]
        if ply % 2 == 0:
            out.append(f"{ply // 2 + 1}. {move}")
        else:
            out.append(f"{ply // 2 + 1}... {move}")
        ply += 1
    out.append("1/2-1/2")
    return "\n".join(out) + "\n"


def fv(lines):
    """Finvara: two rooks going back and forth beside their kings."""
    head = [
        "(k):",
        "(r 0): (1,0)*",
        "",
        "+--+--+--+--+",
        "|rB|  |  |kB|",
        "+--+--+--+--+",
        "|  |  |  |  |",
        "+--+--+--+--+",
        "|rW|  |  |kW|",
        "+--+--+--+--+",
        "",
    ]
    out = []
    turn = 1
    while len(out) < lines:
        there = turn % 2 == 1
        a, b = ("1", "2") if there else ("2", "1")
        out.append(f"Turn {turn} W: r a{a} -> a{b}")
        out.append(f"Turn {turn} B: r c{a} -> c{b}")
        turn += 1
    return "\n".join(head + out) + "\n"


GENERATORS = {
    "icp": icp,
    "icp_names": icp_names,
    "chc": chc,
    "chc_nests": chc_nests,
    "btm": btm,
    "btm_random": btm_random,
    "pgn": pgn,
    "fv": fv,
}
# Generators whose name is not their file extension.
EXTENSIONS = {"icp_names": "icp", "chc_nests": "chc", "btm_random": "btm"}


def measure(cmd, stdout=subprocess.DEVNULL, timeout=3600):
    """Runs `cmd` under /usr/bin/time; returns (seconds, peak MB, exit code)."""
    with tempfile.NamedTemporaryFile("r") as report:
        full = ["/usr/bin/time", "-f", "%e %M", "-o", report.name] + cmd
        try:
            proc = subprocess.run(
                full, stdout=stdout, stderr=subprocess.DEVNULL, timeout=timeout
            )
            code = proc.returncode
        except subprocess.TimeoutExpired:
            return (float("inf"), float("nan"), "timeout")
        fields = report.read().split()
        return (float(fields[-2]), int(fields[-1]) / 1024, code)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chess2rs", default="target/release/chess2rs")
    parser.add_argument("--sizes", default="1000,10000,100000,1000000")
    parser.add_argument("--langs", default="icp,icp_names,chc,chc_nests,btm,btm_random,pgn,fv")
    parser.add_argument("--build-max", type=int, default=0)
    parser.add_argument("--write-only", metavar="DIR")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    langs = args.langs.split(",")
    workdir = args.write_only or tempfile.mkdtemp(prefix="chess2rs-sweep-")
    os.makedirs(workdir, exist_ok=True)
    if not args.write_only:
        print("| language | lines | check s | check MB | emit s | emit MB | build s | build MB |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for lang in langs:
        for size in sizes:
            extension = EXTENSIONS.get(lang, lang)
            name = f"sweep_{size}" if extension == lang else f"sweep_{size}_{lang}"
            path = os.path.join(workdir, f"{name}.{extension}")
            with open(path, "w") as f:
                f.write(GENERATORS[lang](size))
            if args.write_only:
                continue
            row = [lang, f"{size:,}"]
            for cmd in (["check", path], [path]):
                secs, mb, code = measure([args.chess2rs] + cmd)
                row += [f"{secs:.2f}" if code == 0 else f"exit {code}", f"{mb:.0f}"]
            if size <= args.build_max:
                exe = os.path.join(workdir, f"{name}_{lang}")
                secs, mb, code = measure([args.chess2rs, "build", path, "-o", exe])
                row += [f"{secs:.1f}" if code == 0 else f"exit {code}", f"{mb:.0f}"]
            else:
                row += ["", ""]
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
