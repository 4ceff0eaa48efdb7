#!/usr/bin/env bash
# Runs a program with --bamboo-trace into a fresh directory, then checks the OTF2 archive its
# job wrote with otf2_check (the second reader, otf2/otf2_read.hpp).
#
#   check_otf2_trace.sh OTF2_CHECK -- COMMAND [ARG]...
set -u
check=$1
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
"$@" --bamboo-trace "$dir/trace.json"
status=$?
[ "$status" -eq 0 ] || { echo "FAIL: the program exited with $status"; exit 1; }
"$check" "$dir/trace.json.otf2/traces.otf2"
