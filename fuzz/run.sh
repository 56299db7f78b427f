#!/usr/bin/env bash
# Runs the fuzz targets for a bounded time each, seeded from golden/ and
# examples/, saves new crash inputs under fuzz/crashes/<target>/ and prints
# what each run reached. Usage: fuzz/run.sh [SECONDS] [TARGET...]
# (default 600 seconds; targets icp chc pgn btm fv agree). Needs cargo-afl:
#   cargo install cargo-afl && cargo afl config --build
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(icp chc pgn btm fv agree)
cargo afl build --release
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1
for target in "${targets[@]}"; do
    work="work/$target"
    mkdir -p "$work/in" "crashes/$target"
    if [ "$target" = agree ]; then
        # Seeds: each of the first 512 programs (index, little-endian), a
        # step limit of 2,000 and a few lines of input (see src/agree.rs).
        byte() { printf "\\$(printf '%03o' "$1")"; }
        for i in $(seq 0 511); do
            { byte $((i % 256)); byte $((i / 256)); byte 208; byte 7; } >"$work/in/$i"
            printf '3\n-1\n0\n72\nhello\n' >>"$work/in/$i"
        done
    else
        # Seeds: every program of this language in golden/ and examples/.
        find ../golden ../examples -name "*.$target" -size -64k -exec cp {} "$work/in/" \;
    fi
    [ -n "$(ls -A "$work/in")" ] || echo x > "$work/in/empty"
    cargo afl fuzz -V "$seconds" -i "$work/in" -o "$work/out" "target/release/$target" >"$work/log" 2>&1 || true
    for crash in "$work"/out/default/crashes/id:*; do
        [ -e "$crash" ] && cp "$crash" "crashes/$target/$(basename "$crash" | tr ':,' '__')"
    done
    stats="$work/out/default/fuzzer_stats"
    if [ -f "$stats" ]; then
        get() { sed -n "s/^$1 *: //p" "$stats"; }
        echo "$target: $(get execs_done) executions ($(get execs_per_sec)/s), corpus $(get corpus_count), coverage $(get bitmap_cvg), edges $(get edges_found)/$(get total_edges), crashes $(get saved_crashes), hangs $(get saved_hangs)"
    else
        echo "$target: no statistics (see fuzz/$work/log)"
    fi
done
