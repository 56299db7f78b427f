#!/usr/bin/env python3
"""Measures `chess2rs synth` on random machines and checks its games with
the language author's own interpreter. Not part of the build or of CI.

The machines are the synth bench's (golden/benches/synth.rs): 6 rules and
12 tape symbols, each value drawn from 0..=255 by the same linear
congruential generator, so the first 20 are the bench's set.

For each machine and each design asked for, the script runs
`chess2rs synth --design DESIGN` (release build) and records moves, bits
and time (synth itself plays every game back through its front end and
compares the machine). For the games of the last design it also runs the
game with `chess2rs interpret` and with the author's interpreter
(github.com/jamie-large/Chessoteric, fetched outside this repository: its
code is imported, not copied) on the same input, and compares the output
and the number of steps (one step = one iteration of its machine loop,
counted by wrapping its rules table; `chess2rs interpret --trace` prints
one unindented line a step).

    cargo build --release -p chess2rs
    git clone https://github.com/jamie-large/Chessoteric /tmp/chessoteric
    python3 scripts/synth_check.py --reference /tmp/chessoteric \\
        --count 200 --designs corner,best

Prints one line a machine, then a summary: median and mean moves per bit,
the slowest synthesis, and how many games the author's interpreter agreed
with.
"""

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

STEP_LIMIT = 20000
INPUT = "5\n" * 300

# Run by a separate Python: imports the author's interpreter, counts the
# iterations of its machine loop and stops it at the step limit.
REFERENCE_RUNNER = r"""
import json, runpy, sys
reference, game, limit = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path.insert(0, reference)
import Machine as machine_module

class Limit(Exception):
    pass

class Counting(dict):
    calls = 0
    def __contains__(self, key):
        Counting.calls += 1
        if Counting.calls > limit + 1:
            raise Limit()
        return dict.__contains__(self, key)

original = machine_module.Machine.run_machine

def counted(self):
    rules = sorted([list(key) + list(value) for key, value in self.rules.items()])
    sys.stderr.write("#MACHINE %s %s\n" % (json.dumps(rules), json.dumps(self.tape)))
    self.rules = Counting(self.rules)
    try:
        original(self)
        sys.stderr.write("#STEPS %d\n" % (Counting.calls - 1))
    except Limit:
        sys.stderr.write("#LIMIT\n")

machine_module.Machine.run_machine = counted
sys.argv = ["Chessoteric.py", game]
runpy.run_path(reference + "/Chessoteric.py", run_name="__main__")
"""


def machines(count):
    """The bench's random machines, as BTM listings."""
    state = 0x2545F4914F6CDD1D
    mask = (1 << 64) - 1

    def next_value():
        nonlocal state
        state = (state * 6364136223846793005 + 1442695040888963407) & mask
        return (state >> 33) % 256

    listings = []
    for _ in range(count):
        lines = ["1{:b}!".format(next_value()) for _ in range(30)]
        lines += ["1{:b}?".format(next_value()) for _ in range(12)]
        listings.append("\n".join(lines) + "\n")
    return listings


def synth(binary, listing_path, design, game_path):
    started = time.monotonic()
    result = subprocess.run(
        [binary, "synth", listing_path, "--design", design, "-o", game_path],
        capture_output=True,
        text=True,
    )
    seconds = time.monotonic() - started
    if result.returncode != 0:
        raise RuntimeError("synth failed: " + result.stderr)
    found = re.search(r"(\d+) moves \((\d+) plies, (\d+) annotated\) for (\d+) bits", result.stderr)
    moves, plies, annotated, bits = (int(g) for g in found.groups())
    return moves, bits, seconds


def ours(binary, game_path):
    result = subprocess.run(
        [binary, "interpret", game_path, "--trace", "--trace-limit", str(10 * STEP_LIMIT),
         "--max-steps", str(STEP_LIMIT)],
        input=INPUT,
        capture_output=True,
        text=True,
    )
    steps = sum(1 for line in result.stderr.splitlines() if line and not line.startswith(" "))
    limited = "step" in result.stderr.lower() and result.returncode != 0
    return result.stdout, ("limit" if limited else steps)


def expected_machine(listing):
    """The machine a BTM listing builds, as the reference stores it: rules
    as [state, read, next, write, direction] (a later rule for the same
    state and symbol replacing the earlier; the direction 0 or 1, as synth
    writes it; none for states 1 and 2), and the tape."""
    parts, tape = [], []
    for line in listing.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        bits = line.rstrip("!?")[1:]
        suffix = line[len(bits) + 1:]
        # `!!` and `??` append their bits to the current value.
        values = parts if "!" in suffix else tape
        if len(suffix) == 2:
            values[-1] += bits
        else:
            values.append(bits)
    parts = [int(bits, 2) if bits else 0 for bits in parts]
    tape = [int(bits, 2) if bits else 0 for bits in tape]
    rules = {}
    for start in range(0, len(parts) - len(parts) % 5, 5):
        state, read, following, write, direction = parts[start:start + 5]
        rules[(state, read)] = [state, read, following, write, direction % 2]
    # Rules for the input and output states are never used: synth leaves
    # them out.
    rules = {key: rule for key, rule in rules.items() if key[0] not in (1, 2)}
    return sorted(rules.values()), tape


def theirs(reference, game_path):
    """The reference's output, steps (or "limit"), an error if it failed,
    and the machine it built from the game."""
    result = subprocess.run(
        [sys.executable, "-c", REFERENCE_RUNNER, reference, game_path, str(STEP_LIMIT)],
        input=INPUT,
        capture_output=True,
        text=True,
    )
    machine = re.search(r"#MACHINE (.*) (\[.*\])$", result.stderr, re.M)
    machine = machine and (json.loads(machine.group(1)), json.loads(machine.group(2)))
    if "#LIMIT" in result.stderr:
        return result.stdout, "limit", None, machine
    found = re.search(r"#STEPS (\d+)", result.stderr)
    if not found:
        return result.stdout, None, result.stderr.strip().splitlines()[-1:], machine
    return result.stdout, int(found.group(1)), None, machine


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default="target/release/chess2rs")
    parser.add_argument("--reference", help="the author's interpreter (a checkout)")
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--designs", default="corner,best")
    parser.add_argument("--listing", action="append", default=[],
                        help="a BTM listing to check before the random machines (repeatable)")
    args = parser.parse_args()
    designs = args.designs.split(",")
    stats = {design: [] for design in designs}
    agreed, disagreed = 0, []
    with tempfile.TemporaryDirectory() as directory:
        named = []
        for path in args.listing:
            with open(path) as f:
                named.append((os.path.basename(path), f.read()))
        named += [("%3d" % number, listing) for number, listing in enumerate(machines(args.count))]
        for number, (name, listing) in enumerate(named):
            listing_path = os.path.join(directory, "m%d.btm" % number)
            with open(listing_path, "w") as f:
                f.write(listing)
            line = [name]
            game_path = None
            for design in designs:
                game_path = os.path.join(directory, "m%d-%s.pgn" % (number, design))
                moves, bits, seconds = synth(args.binary, listing_path, design, game_path)
                stats[design].append((moves / bits, seconds, moves, bits))
                line.append("%s %d moves / %d bits = %.3f in %.2f s" % (design, moves, bits, moves / bits, seconds))
            if args.reference:
                output, steps = ours(args.binary, game_path)
                ref_output, ref_steps, error, machine = theirs(args.reference, game_path)
                if machine != expected_machine(listing):
                    error = "its machine differs from the listing's: %s" % (machine,)
                    ref_steps = None
                if (output, steps) == (ref_output, ref_steps):
                    agreed += 1
                    line.append("reference agrees (%s steps)" % steps)
                else:
                    disagreed.append(name.strip())
                    line.append("REFERENCE DIFFERS: ours %r/%s, theirs %r/%s %s"
                                % (output[:40], steps, ref_output[:40], ref_steps, error or ""))
            print("; ".join(line), flush=True)
    for design, rows in stats.items():
        ratios = [row[0] for row in rows]
        print("%s: median %.3f moves per bit (mean %.3f, min %.3f, max %.3f); "
              "slowest %.2f s, mean %.2f s; %d moves for %d bits"
              % (design, statistics.median(ratios), statistics.mean(ratios), min(ratios),
                 max(ratios), max(row[1] for row in rows), statistics.mean(row[1] for row in rows),
                 sum(row[2] for row in rows), sum(row[3] for row in rows)))
    if args.reference:
        print("author's interpreter: %d agree, %d differ %s" % (agreed, len(disagreed), disagreed))


if __name__ == "__main__":
    main()
