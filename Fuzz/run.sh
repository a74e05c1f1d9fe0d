#!/usr/bin/env bash
# Builds a libFuzzer target (with -sanitize=fuzzer,address; not part of Package.swift) and
# runs it for a bounded time.
#
#   Fuzz/run.sh [protocol|host] [SECONDS] [extra libFuzzer flags...]
#
# protocol (the default): the frame decoder, JSON parser and wire codec, Sources/Protocol +
#   Fuzz/FuzzProtocol.swift compiled into one module; seeds Fuzz/corpus, dictionary
#   Fuzz/protocol.dict.
# host: the control-socket request decoder, the scenario parser and the trace line parser
#   and verifier, Sources/HostTools + Fuzz/FuzzHost.swift compiled into one module against
#   Protocol, SceneModel and HostProcess (modules of their own) and Sources/CSceneHostSys
#   (clang), as Fuzz/host-build.sh says; seeds Fuzz/corpus-host, dictionary Fuzz/host.dict.
#   The first input byte picks the parser.
#
# SECONDS defaults to 60. Extra flags go to libFuzzer, e.g. `Fuzz/run.sh 600 -runs=10000000`
# or `Fuzz/run.sh host 600 -jobs=2`. New inputs go to $FUZZ_OUT/corpus (protocol) or
# $FUZZ_OUT/corpus-host (host), default FUZZ_OUT=.build-fuzz, never into the seed corpus; a
# crash, leak or oversized allocation leaves its input in $FUZZ_OUT as crash-*, leak-* or
# oom-*/malloc-limit artifacts and makes the script fail.
# Reproduce one with: .build-fuzz/fuzz-protocol ARTIFACT (or .build-fuzz/fuzz-host ARTIFACT)
set -euo pipefail
cd "$(dirname "$0")/.."

target=protocol
if [[ $# -gt 0 && ( $1 == protocol || $1 == host ) ]]; then
    target=$1
    shift
fi
seconds=${1:-60}
if [[ $# -gt 0 ]]; then shift; fi
out=${FUZZ_OUT:-.build-fuzz}
swift_flags=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -O -g -package-name scenehost
    -module-cache-path "$out/module-cache")

# Rebuilds $binary when it is missing or older than any of the given inputs.
stale() {
    [[ ! -x "$binary" || -n "$(find "$@" -newer "$binary" 2>/dev/null)" ]]
}

case $target in
protocol)
    binary="$out/fuzz-protocol"
    corpus="$out/corpus"
    seeds=Fuzz/corpus
    dict=Fuzz/protocol.dict
    mkdir -p "$corpus"
    mapfile -t sources < <(find Sources/Protocol -name '*.swift' | sort)
    if stale "${sources[@]}" Fuzz/FuzzProtocol.swift; then
        echo "== building $binary"
        swiftc "${swift_flags[@]}" -use-ld=lld -module-name Protocol \
            -o "$binary" "${sources[@]}" Fuzz/FuzzProtocol.swift
    fi
    ;;
host)
    binary="$out/fuzz-host"
    corpus="$out/corpus-host"
    seeds=Fuzz/corpus-host
    dict=Fuzz/host.dict
    mkdir -p "$corpus"
    source Fuzz/host-build.sh
    mapfile -t inputs < <(host_fuzzer_inputs)
    if stale "${inputs[@]}"; then
        echo "== building $binary"
        build_host_fuzzer "$binary" "$out/host-build" fuzzer-no-link,address "${swift_flags[@]}"
    fi
    ;;
esac

echo "== fuzzing $target for ${seconds}s"
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
    -dict="$dict" \
    -artifact_prefix="$out/" \
    -print_final_stats=1 \
    "$@" \
    "$corpus" "$seeds"
