#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs libFuzzer harnesses one after another; fails if any finds a crash, leak or hang.
#   run-fuzz.sh SECONDS HARNESS...          each harness runs SECONDS
#   run-fuzz.sh --total SECONDS HARNESS...  SECONDS shared among them (at least 1 each)
# A harness build/fuzz/NAME starts from the seeds in tests/fuzz/corpus/NAME (read only) and
# the corpus it grew before (build/fuzz/corpus/NAME), with tests/fuzz/NAME.dict if there is
# one. Its log is build/fuzz/NAME.log; a crashing input is saved as build/fuzz/NAME-crash-*.
set -u
total=0
if [ "${1:-}" = --total ]; then total=1; shift; fi
secs=$1
shift
[ "$total" = 1 ] && secs=$((secs / $#)) && [ "$secs" -lt 1 ] && secs=1
pass=0
fail=0
for h in "$@"; do
    name=$(basename "$h")
    dir=$(dirname "$h")
    mkdir -p "$dir/corpus/$name"
    set -- -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$dir/$name-"
    [ -f "tests/fuzz/$name.dict" ] && set -- "$@" -dict="tests/fuzz/$name.dict"
    set -- "$@" "$dir/corpus/$name"
    [ -d "tests/fuzz/corpus/$name" ] && set -- "$@" "tests/fuzz/corpus/$name"
    if "$h" "$@" >"$dir/$name.log" 2>&1; then
        pass=$((pass + 1))
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/$name.log")
        echo "fuzz: $name: ${runs:-?} inputs in ${secs} s, no findings"
    else
        fail=$((fail + 1))
        tail -n 40 "$dir/$name.log" >&2
        echo "FAILED: $name (log: $dir/$name.log)" >&2
    fi
done
echo "fuzz harnesses: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
