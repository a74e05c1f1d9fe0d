#!/usr/bin/env bash
# Builds the libFuzzer target for the protocol (Sources/Protocol + Fuzz/FuzzProtocol.swift,
# compiled into one module with -sanitize=fuzzer,address; not part of Package.swift) and runs
# it for a bounded time.
#
#   Fuzz/run.sh [SECONDS] [extra libFuzzer flags...]
#
# SECONDS defaults to 60. Extra flags go to libFuzzer, e.g. `Fuzz/run.sh 600 -runs=10000000`
# or `-jobs=2`. New inputs go to $FUZZ_OUT/corpus (default .build-fuzz/corpus), never into
# the seed corpus Fuzz/corpus; a crash, leak or oversized allocation leaves its input in
# $FUZZ_OUT as crash-*, leak-* or oom-*/malloc-limit artifacts and makes the script fail.
# Reproduce one with: .build-fuzz/fuzz-protocol ARTIFACT
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
if [[ $# -gt 0 ]]; then shift; fi
out=${FUZZ_OUT:-.build-fuzz}
mkdir -p "$out/corpus"
binary="$out/fuzz-protocol"

mapfile -t sources < <(find Sources/Protocol -name '*.swift' | sort)
if [[ ! -x "$binary" || -n "$(find "${sources[@]}" Fuzz/FuzzProtocol.swift -newer "$binary" 2>/dev/null)" ]]; then
    echo "== building $binary"
    swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -use-ld=lld \
        -module-name Protocol -module-cache-path "$out/module-cache" \
        -o "$binary" "${sources[@]}" Fuzz/FuzzProtocol.swift
fi

echo "== fuzzing for ${seconds}s"
# Let libFuzzer report crashes itself (the Swift backtracer fights with ASan's handlers).
export SWIFT_BACKTRACE=enable=no
# -malloc_limit_mb: no single allocation may exceed 64 MiB (inputs are at most 8 KiB, so
# anything near that is an unbounded allocation); -rss_limit_mb bounds the whole process.
"$binary" \
    -max_total_time="$seconds" \
    -rss_limit_mb=2048 \
    -malloc_limit_mb=64 \
    -max_len=8192 \
    -timeout=10 \
    -dict=Fuzz/protocol.dict \
    -artifact_prefix="$out/" \
    -print_final_stats=1 \
    "$@" \
    "$out/corpus" Fuzz/corpus
