#!/usr/bin/env python3
"""Steady-state speed of `chess2rs build` executables (programs linking the
runtime rlib) against the runtime inlined into one file (issue 36).

For every program of the criterion benchmarks (golden/benches/programs/,
with the inputs and step limits of golden/benches/compiled_vs_interpreted.rs)
and a sample of the four random-program corpora, this builds two
executables:

  (a) inlined: `chess2rs --standalone PROG > p.rs; rustc --edition 2021
      -C codegen-units=1 -C panic=abort -C strip=symbols -C opt-level=3 p.rs`
      (how `run`/`build` compiled programs before the runtime rlib);
  (b) rlib: `chess2rs build PROG -o EXE` with an empty CHESS2RS_CACHE_DIR;

checks that both print the same stdout with the same exit code, then times
whole-process runs alternating a and b (b first in every other round, so
load from other processes hits both alike) and runs `chess2rs interpret`
once. It prints Markdown tables: median wall milliseconds, the ratio of the
medians (rlib / inlined; > 1 is slower), the ratio of the minima, the ratio
of median CPU time (user + sys, less sensitive to other processes), and
the interpreter's time. Rows where rlib is more than 5 % slower (median
wall or CPU ratio) are marked `SLOWER` (with --callgrind, `more Ir` when
rlib executes more than 5 % more instructions). Runs shorter than about 2 ms are
dominated by process start (marked `short`) and left out of the corpus
summaries' "heavy" geometric mean.

Run from anywhere (the repository is this script's parent directory):

  cargo build --release -p chess2rs
  cargo build -p chess2rs-golden --example corpus    # the corpus dumper
  python3 scripts/steady_state.py                     # everything
  python3 scripts/steady_state.py --only icp_multiply,tm_counter --rounds 21
  python3 scripts/steady_state.py --no-corpus         # benchmarks only
  python3 scripts/steady_state.py --corpus-only --corpus-step 20
  python3 scripts/steady_state.py --only chc_sum --callgrind   # + Ir counts

Options: --rounds N (default 11) and --corpus-rounds N (default 7) timed
runs a way; --corpus-step K samples corpus programs 0, K, 2K, ... (default
10, the programs `cargo test --workspace` builds); --corpus LIST picks the
corpora (chc,btm,icp,fv); --corpus-dir DIR keeps the dumped corpus
programs (reused when present); --keep DIR keeps the built executables;
--callgrind also counts instructions of one run each way under
`valgrind --tool=callgrind` (deterministic; slow); --no-interpret skips the
interpreter. CHESS2RS_BIN=PATH uses another chess2rs executable.

Corpus programs are written by the golden crate's `corpus` example
(`corpus dump EXT INDEX DIR`, see golden/examples/corpus.rs), run from
target/debug/examples/corpus if built, else through `cargo run`; each is run
with its own input and step limit as tests/corpus.rs runs it.

Inputs are the benchmarks' own: every benchmark program already runs for
tens to hundreds of milliseconds a process, long enough for whole-process
timing, so none is scaled up.
"""

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# CHESS2RS_BIN picks another chess2rs (say, one built in another target dir).
CHESS2RS = os.environ.get("CHESS2RS_BIN") or os.path.join(REPO, "target", "release", "chess2rs")
PROGRAMS = os.path.join(REPO, "golden", "benches", "programs")
RUSTC_FLAGS = [
    "--edition", "2021", "-C", "codegen-units=1", "-C", "panic=abort",
    "-C", "strip=symbols", "-C", "opt-level=3",
]
SHORT_MS = 2.0
LIMIT = 1.05
# Programs per corpus (golden/corpus/src/lib.rs: CORPORA).
CORPUS_LEN = {"chc": 200, "btm": 200, "icp": 200, "fv": 300}


def running_sum_input():
    """finvara_riders' running sums: 8,000 numbers and the sentinel 0."""
    return " ".join(str(i * 7919 % 1000 + 1) for i in range(8000)) + " 0\n"


def countdown_input(n):
    return f"{n}\n"


# (file, input, step limit or None): golden/benches/compiled_vs_interpreted.rs
BENCHES = [
    ("icp_counter.icp", "", None),
    ("icp_multiply.icp", "447 447 199809", 1_000_399),
    ("icp_king_walk.icp", "", 300_158),
    ("chc_sum.chc", "10000000", None),
    ("chc_nested.chc", "1000 10000", None),
    ("chc_triangle.chc", "10000 1000", 40_040_004),
    ("tm_sweep.btm", "", 10_246_401),
    ("tm_counter.btm", "", 44_040_192),
    ("tm_counter_low_end.btm", "", 8_388_606),
    ("tm_counter_21_bits.btm", "", 8_388_584),
    ("fv_truth.fv", "1", 300_000),
    ("fv_riders_stationary.fv", running_sum_input(), 152_011),
    ("fv_riders_moving.fv", running_sum_input(), 152_011),
    ("fv_riders_compound.fv", countdown_input(16_667), 150_003),
    ("fv_riders_big_board.fv", countdown_input(10_714), 149_993),
]


class Case:
    def __init__(self, name, program, input_path, max_steps, corpus=None):
        self.name = name
        self.program = program
        self.input_path = input_path
        self.max_steps = max_steps
        self.corpus = corpus
        self.result = None


def check_call(cmd, **kw):
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, **kw)
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{proc.stderr.decode(errors='replace')}")
    return proc


def build(case, work, cache):
    """Builds (a) and (b) for `case`; returns their paths."""
    stem = os.path.join(work, case.name)
    rs = stem + ".rs"
    with open(rs, "wb") as out:
        out.write(check_call([CHESS2RS, "--standalone", case.program]).stdout)
    inlined = stem + ".inlined"
    check_call(["rustc", *RUSTC_FLAGS, rs, "-o", inlined])
    rlib = stem + ".rlib_exe"
    env = dict(os.environ, CHESS2RS_CACHE_DIR=cache)
    check_call([CHESS2RS, "build", "-q", case.program, "-o", rlib], env=env)
    return inlined, rlib


def limit_args(case):
    return [] if case.max_steps is None else ["--max-steps", str(case.max_steps)]


def run_once(cmd, input_path, capture=False):
    """Runs `cmd` on the input; returns (wall s, cpu s, exit code, stdout)."""
    with open(input_path, "rb") as stdin:
        start = time.perf_counter()
        proc = subprocess.Popen(
            cmd, stdin=stdin,
            stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
            stderr=subprocess.DEVNULL)
        out = proc.stdout.read() if capture else b""
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        if capture:
            proc.stdout.close()
    return wall, usage.ru_utime + usage.ru_stime, proc.returncode, out


def callgrind_ir(cmd, input_path, work):
    out = os.path.join(work, "callgrind.out")
    with open(input_path, "rb") as stdin:
        proc = subprocess.run(
            ["valgrind", "--tool=callgrind", "--dump-instr=no",
             f"--callgrind-out-file={out}", *cmd],
            stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    match = re.search(rb"Collected : (\d+)", proc.stderr)
    return int(match.group(1)) if match else None


def measure(case, exes, rounds, args, work):
    inlined, rlib = exes
    a_cmd = [inlined, *limit_args(case)]
    b_cmd = [rlib, *limit_args(case)]
    _, _, a_code, a_out = run_once(a_cmd, case.input_path, capture=True)
    _, _, b_code, b_out = run_once(b_cmd, case.input_path, capture=True)
    if (a_code, a_out) != (b_code, b_out):
        sys.exit(f"{case.name}: inlined and rlib differ (exit {a_code} vs {b_code}, "
                 f"{len(a_out)} vs {len(b_out)} bytes of stdout)")
    times = {"a": [], "b": [], "ca": [], "cb": []}
    for r in range(rounds):
        order = [("a", a_cmd), ("b", b_cmd)]
        if r % 2:
            order.reverse()
        for key, cmd in order:
            wall, cpu, _, _ = run_once(cmd, case.input_path)
            times[key].append(wall * 1e3)
            times["c" + key].append(cpu * 1e3)
    interp = None
    if not args.no_interpret:
        cmd = [CHESS2RS, "interpret", case.program, *limit_args(case)]
        wall, _, code, out = run_once(cmd, case.input_path, capture=True)
        if (code, out) != (a_code, a_out):
            sys.exit(f"{case.name}: the interpreter differs (exit {code} vs {a_code})")
        interp = wall * 1e3
    ir = None
    if args.callgrind:
        ir = (callgrind_ir(a_cmd, case.input_path, work),
              callgrind_ir(b_cmd, case.input_path, work))
    med = {k: statistics.median(v) for k, v in times.items()}
    case.result = {
        "a": med["a"], "b": med["b"],
        "ratio": med["b"] / med["a"],
        "min_ratio": min(times["b"]) / min(times["a"]),
        "cpu_ratio": med["cb"] / med["ca"] if med["ca"] > 0 else float("nan"),
        "interp": interp, "ir": ir, "code": a_code,
    }
    return case.result


def flag(r):
    notes = []
    if max(r["ratio"], r["cpu_ratio"]) > LIMIT:
        notes.append("**SLOWER**")
    ir = r["ir"]
    if ir and ir[0] and ir[1] and ir[1] / ir[0] > LIMIT:
        notes.append("**more Ir**")
    if r["a"] < SHORT_MS:
        notes.append("short")
    return " ".join(notes)


def header(callgrind):
    cols = "| program | inlined ms | rlib ms | ratio | min ratio | cpu ratio | interpret ms |"
    sep = "|---|---:|---:|---:|---:|---:|---:|"
    if callgrind:
        cols += " Ir ratio |"
        sep += "---:|"
    return cols + " note |\n" + sep + "---|"


def row(case, callgrind):
    r = case.result
    interp = "-" if r["interp"] is None else f"{r['interp']:.1f}"
    line = (f"| {case.name} | {r['a']:.2f} | {r['b']:.2f} | {r['ratio']:.3f} | "
            f"{r['min_ratio']:.3f} | {r['cpu_ratio']:.3f} | {interp} |")
    if callgrind:
        ir = r["ir"]
        line += f" {ir[1] / ir[0]:.4f} |" if ir and ir[0] and ir[1] else " - |"
    return line + f" {flag(r)} |"


def geomean(values):
    values = list(values)
    if not values:
        return float("nan")
    return statistics.geometric_mean(values)


def corpus_dumper():
    built = os.path.join(REPO, "target", "debug", "examples", "corpus")
    if os.path.exists(built):
        return [built]
    return ["cargo", "run", "-q", "-p", "chess2rs-golden", "--example", "corpus", "--"]


def add_corpus_arguments(parser, step):
    """The options that choose corpus programs (read by `corpus_cases`):
    which corpora, every `step`-th program from an offset, and where the
    dumped programs are kept."""
    parser.add_argument("--no-corpus", action="store_true")
    parser.add_argument("--corpus", default="chc,btm,icp,fv")
    parser.add_argument("--corpus-step", type=int, default=step)
    parser.add_argument("--corpus-offset", type=int, default=0)
    parser.add_argument("--corpus-dir")


def corpus_cases(args, directory):
    os.makedirs(directory, exist_ok=True)
    cases = []
    for ext in args.corpus.split(","):
        for index in range(args.corpus_offset, CORPUS_LEN[ext], args.corpus_step):
            name = f"{ext}_corpus_{index}"
            program = os.path.join(directory, f"{name}.{ext}")
            steps_file = program + ".max_steps"
            if not os.path.exists(steps_file):
                out = check_call([*corpus_dumper(), "dump", ext, str(index), directory])
                steps = re.search(rb"--max-steps (\d+)", out.stdout).group(1).decode()
                with open(steps_file, "w") as f:
                    f.write(steps)
            with open(steps_file) as f:
                max_steps = int(f.read())
            cases.append(Case(name, program, program + ".in", max_steps, corpus=ext))
    return cases


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=11)
    p.add_argument("--corpus-rounds", type=int, default=7)
    p.add_argument("--only", help="comma-separated program names (benchmark stems or "
                   "corpus names such as chc_corpus_10)")
    p.add_argument("--corpus-only", action="store_true")
    add_corpus_arguments(p, step=10)
    p.add_argument("--keep")
    p.add_argument("--callgrind", action="store_true")
    p.add_argument("--no-interpret", action="store_true")
    p.add_argument("--worst", type=int, default=5, help="worst corpus rows listed")
    args = p.parse_args()
    if not os.path.exists(CHESS2RS):
        sys.exit("build chess2rs first: cargo build --release -p chess2rs")

    temp = tempfile.mkdtemp(prefix="steady_state.")
    work = args.keep or os.path.join(temp, "exe")
    os.makedirs(work, exist_ok=True)
    cache = os.path.join(temp, "cache")
    os.makedirs(cache)
    try:
        cases = []
        if not args.corpus_only:
            for file, text, steps in BENCHES:
                name = os.path.splitext(file)[0]
                input_path = os.path.join(temp, name + ".in")
                with open(input_path, "w") as f:
                    f.write(text)
                cases.append(Case(name, os.path.join(PROGRAMS, file), input_path, steps))
        if not args.no_corpus:
            cases += corpus_cases(args, args.corpus_dir or os.path.join(temp, "corpus"))
        if args.only:
            wanted = set(args.only.split(","))
            cases = [c for c in cases if c.name in wanted]
        for n, case in enumerate(cases, 1):
            exes = build(case, work, cache)
            rounds = args.corpus_rounds if case.corpus else args.rounds
            r = measure(case, exes, rounds, args, work)
            ir = f", Ir {r['ir'][1] / r['ir'][0]:.4f}" if r["ir"] and all(r["ir"]) else ""
            print(f"[{n}/{len(cases)}] {case.name}: {r['a']:.2f} ms vs {r['b']:.2f} ms "
                  f"({r['ratio']:.3f}, cpu {r['cpu_ratio']:.3f}{ir}) {flag(r)}",
                  file=sys.stderr, flush=True)
        print_report(cases, args)
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def print_report(cases, args):
    benches = [c for c in cases if c.corpus is None]
    if benches:
        print("## Criterion benchmark programs\n")
        print(header(args.callgrind))
        for c in benches:
            print(row(c, args.callgrind))
        print()
    corpus = [c for c in cases if c.corpus is not None]
    if not corpus:
        return
    print("## Random-program corpora (sample)\n")
    print("| corpus | programs | heavy (>= 2 ms) | geomean ratio | heavy geomean | "
          "geomean cpu ratio | worst ratio (heavy) |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for ext in args.corpus.split(","):
        these = [c for c in corpus if c.corpus == ext]
        if not these:
            continue
        heavy = [c for c in these if c.result["a"] >= SHORT_MS]
        worst = max(heavy or these, key=lambda c: c.result["ratio"])
        print(f"| {ext} | {len(these)} | {len(heavy)} | "
              f"{geomean(c.result['ratio'] for c in these):.3f} | "
              f"{geomean(c.result['ratio'] for c in heavy):.3f} | "
              f"{geomean(c.result['cpu_ratio'] for c in these):.3f} | "
              f"{worst.result['ratio']:.3f} ({worst.name}) |")
    print()
    worst = sorted(corpus, key=lambda c: -c.result["ratio"])[: args.worst]
    flagged = [c for c in corpus if flag(c.result).startswith("**") and c not in worst]
    print("Worst corpus rows, and every other row marked slower:\n")
    print(header(args.callgrind))
    for c in worst + flagged:
        print(row(c, args.callgrind))


if __name__ == "__main__":
    main()
