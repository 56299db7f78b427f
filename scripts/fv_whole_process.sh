#!/usr/bin/env bash
# Whole-process timing of golden/benches/programs/fv_riders_stationary.fv
# (the running sum with two rook riders, benchmark `finvara_riders`):
# the executable `chess2rs build` makes, and `chess2rs interpret`, on the
# same 8,000 numbers as the benchmark (i * 7919 mod 1000 + 1 for i from 0,
# then the sentinel 0). Process start, reading the input and writing the
# output are included, unlike in criterion's numbers.
#
#     scripts/fv_whole_process.sh            # 10 runs each (RUNS=N to change)
#
# Checks both outputs against the expected running sums first. Times with
# hyperfine, installed if missing (apt-get install -y hyperfine); without
# it, 5 runs timed with `date +%s%N`. Prints the median of each in ms
# (and, with hyperfine, the mean CPU time).
set -euo pipefail

cd "$(dirname "$0")/.."
runs="${RUNS:-10}"
program=golden/benches/programs/fv_riders_stationary.fv
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "building the chess2rs CLI (release)" >&2
cargo build --release --quiet -p chess2rs --features cli
cli=target/release/chess2rs
"$cli" build "$program" -o "$work/exe"

# The input and the expected output (the running sums).
awk 'BEGIN {
    sum = 0
    for (i = 0; i < 8000; i++) {
        n = (i * 7919) % 1000 + 1
        sum += n
        printf "%d ", n > "'"$work"'/input"
        printf "%d\n", sum > "'"$work"'/expected"
    }
    print 0 > "'"$work"'/input"
}'
[[ "$(tail -n 1 "$work/expected")" == 4004000 ]]

"$work/exe" < "$work/input" > "$work/out.compiled"
cmp "$work/out.compiled" "$work/expected"
"$cli" interpret "$program" < "$work/input" > "$work/out.interpreted"
cmp "$work/out.interpreted" "$work/expected"
echo "outputs checked: 8000 running sums, the last 4004000" >&2

if ! command -v hyperfine > /dev/null; then
    apt-get install -y hyperfine > /dev/null 2>&1 || true
fi

compiled_cmd="$work/exe < $work/input > /dev/null"
interpreted_cmd="$cli interpret $program < $work/input > /dev/null"

# Median wall time of a shell command, in ms (three decimals); with
# hyperfine also the mean CPU time (user + system), which a busy machine
# disturbs less.
median_ms() {
    local command="$1"
    if command -v hyperfine > /dev/null; then
        hyperfine --style none --warmup 1 --runs "$runs" \
            --export-csv "$work/times.csv" "$command" > /dev/null
        # CSV columns: command,mean,stddev,median,user,system,min,max (seconds)
        awk -F, 'NR == 2 {
            printf "%.3f ms (CPU user+sys mean %.3f ms)\n", $(NF - 4) * 1000, ($(NF - 3) + $(NF - 2)) * 1000
        }' "$work/times.csv"
    else
        local times=() start end
        for _ in 1 2 3 4 5; do
            start="$(date +%s%N)"
            bash -c "$command"
            end="$(date +%s%N)"
            times+=("$(((end - start) / 1000))")
        done
        printf '%s\n' "${times[@]}" | sort -n | awk 'NR == 3 { printf "%.3f ms\n", $1 / 1000 }'
    fi
}

if command -v hyperfine > /dev/null; then
    echo "timing with hyperfine, $runs runs each" >&2
else
    echo "hyperfine unavailable: timing 5 runs each with date" >&2
fi
echo "fv_riders_stationary, whole process, 8000 numbers (152011 lines):"
echo "  chess2rs build executable: median $(median_ms "$compiled_cmd")"
echo "  chess2rs interpret:        median $(median_ms "$interpreted_cmd")"
