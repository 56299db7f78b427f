#!/usr/bin/env python3
"""How long `chess2rs run` takes to start (issues 36 and 37), side by side
with `chess2rs interpret`, for every example in examples/ and a sample of the
random-program corpora (and the criterion benchmark programs with
--benchmarks):

  * interpret      `chess2rs interpret PROG` (median of --rounds runs)
  * hit            `chess2rs run PROG` with its executable cached (median)
  * cold compiled  `chess2rs run --tier compiled PROG`, the program not in
                   the cache but the runtime library built (median of
                   --cold-rounds): rustc's time plus the compiled run
  * cold auto      `chess2rs run PROG` (the default tier), same cache state:
                   interpreting at once while rustc compiles, switching to
                   the compiled program if it is ready first

Each cold run starts from a cache holding only the runtime library (the
program's entry is removed), as after an edit. Wall-clock milliseconds on
whatever machine runs it; the outputs of the four ways are checked to be
equal.

  cargo build --release -p chess2rs
  cargo build -p chess2rs-golden --example corpus     # the corpus dumper
  python3 scripts/run_timing.py                       # examples + corpora
  python3 scripts/run_timing.py --no-corpus --rounds 9
  python3 scripts/run_timing.py --benchmarks --no-examples --no-corpus
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import steady_state  # noqa: E402  (the benchmark inputs and the corpus dumper)

REPO = steady_state.REPO
CHESS2RS = os.environ.get("CHESS2RS_BIN", os.path.join(REPO, "target", "release", "chess2rs"))
EXTENSIONS = ("icp", "chc", "pgn", "btm", "fv")


def timed(cmd, input_path, env):
    """Runs `cmd` with stdin from `input_path`; (seconds, stdout, code)."""
    with open(input_path or os.devnull, "rb") as stdin:
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdin=stdin, capture_output=True, env=env, cwd=REPO)
        return time.perf_counter() - start, proc.stdout, proc.returncode


def forget_programs(cache):
    """Removes every program entry, keeping the runtime library."""
    for entry in os.listdir(cache):
        path = os.path.join(cache, entry)
        if os.path.exists(os.path.join(path, "program")):
            shutil.rmtree(path, ignore_errors=True)


def wait_for_background_builds(cache, limit=60.0):
    """Waits until no `run` background build works in the cache."""
    deadline = time.time() + limit
    while time.time() < deadline:
        busy = any(
            name.startswith("build.")
            for entry in os.listdir(cache)
            if os.path.isdir(os.path.join(cache, entry))
            for name in os.listdir(os.path.join(cache, entry))
        )
        if not busy:
            return
        time.sleep(0.05)


def measure(case, cache, args, env):
    limits = [] if case.max_steps is None else ["--max-steps", str(case.max_steps)]
    interpret = [CHESS2RS, "interpret", *limits, case.program]
    run = [CHESS2RS, "run", "-q", *limits, case.program]
    compiled = [CHESS2RS, "run", "-q", "--tier", "compiled", *limits, case.program]
    results = {}
    outputs = set()
    for name, cmd, rounds, cold in [
        ("cold compiled", compiled, args.cold_rounds, True),
        ("cold auto", run, args.cold_rounds, True),
        ("hit", run, args.rounds, False),
        ("interpret", interpret, args.rounds, False),
    ]:
        times = []
        for _ in range(rounds):
            if cold:
                wait_for_background_builds(cache)
                forget_programs(cache)
            elif name == "hit":
                # Make sure it is cached (the auto run may have stopped its build).
                timed(compiled, case.input_path, env)
            seconds, stdout, code = timed(cmd, case.input_path, env)
            times.append(seconds)
            outputs.add((stdout, code))
        results[name] = statistics.median(times) * 1000
    if len(outputs) != 1:
        print(f"warning: {case.name}: the ways disagree", file=sys.stderr)
    return results


def examples():
    cases = []
    directory = os.path.join(REPO, "examples")
    for file in sorted(os.listdir(directory)):
        if file.rsplit(".", 1)[-1] in EXTENSIONS:
            program = os.path.join(directory, file)
            input_path = program + ".in" if os.path.exists(program + ".in") else None
            cases.append(steady_state.Case(file, program, input_path, None))
    return cases


def benchmarks(work):
    cases = []
    for file, text, steps in steady_state.BENCHES:
        input_path = os.path.join(work, file + ".in")
        with open(input_path, "w") as f:
            f.write(text)
        program = os.path.join(steady_state.PROGRAMS, file)
        cases.append(steady_state.Case(file, program, input_path, steps))
    return cases


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--cold-rounds", type=int, default=3)
    p.add_argument("--no-examples", action="store_true")
    p.add_argument("--benchmarks", action="store_true")
    steady_state.add_corpus_arguments(p, step=40)
    args = p.parse_args()
    if not os.path.exists(CHESS2RS):
        sys.exit("build chess2rs first: cargo build --release -p chess2rs")
    temp = tempfile.mkdtemp(prefix="run_timing.")
    cache = os.path.join(temp, "cache")
    env = dict(os.environ, CHESS2RS_CACHE_DIR=cache)
    env.pop("CHESS2RS_OPT_LEVEL", None)
    cases = [] if args.no_examples else examples()
    if args.benchmarks:
        cases += benchmarks(temp)
    if not args.no_corpus:
        cases += steady_state.corpus_cases(args, args.corpus_dir or os.path.join(temp, "corpus"))
    # The runtime library, once (not part of any row).
    started = time.perf_counter()
    hello = os.path.join(temp, "hello.icp")
    with open(hello, "w") as f:
        f.write('1. "hello\n')
    subprocess.run([CHESS2RS, "run", "-q", "--tier", "compiled", hello], env=env, check=True,
                   capture_output=True)
    print(f"runtime library built in {time.perf_counter() - started:.1f} s\n")
    print("| program | interpret ms | hit ms | cold compiled ms | cold auto ms |")
    print("|---|---:|---:|---:|---:|")
    for case in cases:
        r = measure(case, cache, args, env)
        print(f"| {case.name} | {r['interpret']:.1f} | {r['hit']:.1f} | "
              f"{r['cold compiled']:.0f} | {r['cold auto']:.1f} |", flush=True)
    wait_for_background_builds(cache)
    shutil.rmtree(temp, ignore_errors=True)


if __name__ == "__main__":
    main()
