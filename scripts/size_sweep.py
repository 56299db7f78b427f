#!/usr/bin/env python3
"""Size sweep: how chess2rs's cost grows with the size of a program.

Generates programs of 10^3 ... 10^6 lines in every language (regular but
realistic: loops, jumps, moves, prints), then measures with /usr/bin/time
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
import subprocess
import sys
import tempfile


def icp(lines):
    """InfChessPro: blocks of four lines, a slide that jumps over a print,
    a count and a move back."""
    out = ["0. x=R0,0"]
    label = 1
    while len(out) < lines:
        out.append(f"{label}. x;0,1?{label + 2}")
        out.append(f'{label + 1}. "never printed')
        out.append(f"{label + 2}. %x")
        out.append(f"{label + 3}. x,0,0")
        label += 4
    return "\n".join(out) + "\n"


def chc(lines):
    """Chess Code: blocks of seven lines, a counting loop and a print."""
    out = []
    while len(out) < lines:
        out += ["a1+", "Ra1", "Kxb1", "1/2 1/2", "b1+", "b1=R+", "b1"]
    return "\n".join(out) + "\n"


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


GENERATORS = {"icp": icp, "chc": chc, "btm": btm, "pgn": pgn, "fv": fv}


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
    parser.add_argument("--langs", default="icp,chc,btm,pgn,fv")
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
            path = os.path.join(workdir, f"sweep_{size}.{lang}")
            with open(path, "w") as f:
                f.write(GENERATORS[lang](size))
            if args.write_only:
                continue
            row = [lang, f"{size:,}"]
            for cmd in (["check", path], [path]):
                secs, mb, code = measure([args.chess2rs] + cmd)
                row += [f"{secs:.2f}" if code == 0 else f"exit {code}", f"{mb:.0f}"]
            if size <= args.build_max:
                exe = os.path.join(workdir, f"sweep_{size}_{lang}")
                secs, mb, code = measure([args.chess2rs, "build", path, "-o", exe])
                row += [f"{secs:.1f}" if code == 0 else f"exit {code}", f"{mb:.0f}"]
            else:
                row += ["", ""]
            print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    sys.exit(main())
