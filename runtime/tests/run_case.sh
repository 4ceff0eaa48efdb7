#!/usr/bin/env bash
# Runs one integration case and checks what it did.
#
#   run_case.sh [--exit 0|nonzero|N] [--match REGEX]... [--no-match REGEX]...
#               [--within SECONDS] -- COMMAND [ARG]...
#
# --exit      the exit status required (default 0)
# --match     an extended regex that stdout+stderr must contain (one line)
# --no-match  an extended regex they must not contain
# --within    the command is killed, and the case fails, after this many seconds (default 60)
set -u
expect_exit=0 within=60
matches=() no_matches=()
while [ $# -gt 0 ]; do
    case "$1" in
        --exit) expect_exit=$2; shift 2 ;;
        --match) matches+=("$2"); shift 2 ;;
        --no-match) no_matches+=("$2"); shift 2 ;;
        --within) within=$2; shift 2 ;;
        --) shift; break ;;
        *) echo "run_case.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done

output=$(mktemp)
trap 'rm -f "$output"' EXIT
start=$(date +%s%N)
timeout --kill-after=5 "$within" "$@" >"$output" 2>&1
status=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
cat "$output"
echo "-- exit status $status after ${elapsed_ms} ms"

failed=0
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
    echo "FAIL: still running after ${within}s" ; failed=1
elif [ "$expect_exit" = nonzero ]; then
    [ "$status" -ne 0 ] || { echo "FAIL: exit status 0, expected non-zero"; failed=1; }
elif [ "$status" -ne "$expect_exit" ]; then
    echo "FAIL: exit status $status, expected $expect_exit"; failed=1
fi
for pattern in ${matches[@]+"${matches[@]}"}; do
    grep -Eq -- "$pattern" "$output" || { echo "FAIL: no line matches: $pattern"; failed=1; }
done
for pattern in ${no_matches[@]+"${no_matches[@]}"}; do
    grep -Eq -- "$pattern" "$output" && { echo "FAIL: a line matches: $pattern"; failed=1; }
done
exit $failed
