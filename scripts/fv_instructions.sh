#!/usr/bin/env bash
# Instructions executed (valgrind's callgrind) by the four `finvara_riders`
# benchmark programs and the truth-machine, compiled (`chess2rs
# --standalone` built by `rustc -O`) and interpreted (`chess2rs
# interpret`), on the benchmarks' inputs. Unlike times, instruction counts
# do not change when other processes keep the machine busy, so they compare
# versions of chess2rs on a shared machine. Whole processes: start-up,
# reading the input and writing the output are included.
#
#     scripts/fv_instructions.sh
#
# Prints a Markdown table: program, executed lines, instructions per line
# compiled and interpreted, and their ratio.
set -euo pipefail

cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "valgrind is needed (apt-get install -y valgrind)" >&2; exit 2; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

cargo build --release --quiet -p chess2rs --features cli
cli="$PWD/target/release/chess2rs"

# The benchmark's inputs: 8,000 numbers (i * 7919 mod 1000 + 1) then 0 for
# the running sums; N for the countdowns; 1 for the truth-machine.
awk 'BEGIN { for (i = 0; i < 8000; i++) printf "%d ", (i * 7919) % 1000 + 1; print 0 }' > "$work/sum.in"
echo 16667 > "$work/compound.in"
echo 10714 > "$work/big.in"
echo 1 > "$work/truth.in"

instructions() {
    # A run stopped by its step limit exits with 1: still counted.
    { valgrind --tool=callgrind --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null || true; } \
        | sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}

echo "| program | lines | compiled (instructions a line) | interpreted | interpreted ÷ compiled |"
echo "|---|---|---|---|---|"
# name, program, input, executed lines, extra arguments
while read -r name file input lines args; do
    program="golden/benches/programs/$file"
    "$cli" --standalone "$program" -o "$work/$name.rs"
    rustc -O "$work/$name.rs" -o "$work/$name" 2>/dev/null
    # shellcheck disable=SC2086
    compiled=$(instructions "$work/$name" $args < "$work/$input")
    # shellcheck disable=SC2086
    interpreted=$(instructions "$cli" interpret $args "$program" < "$work/$input")
    awk -v n="$name" -v l="$lines" -v c="$compiled" -v i="$interpreted" 'BEGIN {
        printf "| %s | %d | %.0f | %.0f | %.1f× |\n", n, l, c / l, i / l, i / c
    }'
done <<'EOF'
stationary fv_riders_stationary.fv sum.in 152011
moving fv_riders_moving.fv sum.in 152011
compound fv_riders_compound.fv compound.in 150003
big_board fv_riders_big_board.fv big.in 149993
truth fv_truth.fv truth.in 300000 --max-steps=300000
EOF
