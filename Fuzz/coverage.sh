#!/usr/bin/env bash
# Source coverage of a fuzz target's corpus: builds the target as Fuzz/run.sh does, but with
# -profile-generate -profile-coverage-mapping instead of ASan, runs every input of the
# corpus once (-runs=0) and prints llvm-cov's report for the files the target is about.
#
#   Fuzz/coverage.sh [protocol|host]
#
# The corpus is the one Fuzz/run.sh grew ($FUZZ_OUT/corpus or $FUZZ_OUT/corpus-host, default
# FUZZ_OUT=.build-fuzz) plus the seeds. `llvm-cov show BINARY -instr-profile=PROFDATA FILE`
# with the two paths it prints shows the lines no input reached.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${1:-protocol}
out=${FUZZ_OUT:-.build-fuzz}
build="$out/coverage-$target"
mkdir -p "$build/c-module"
# The toolchain's own llvm-profdata and llvm-cov: another LLVM may not read its profiles.
tools=$(dirname "$(readlink -f "$(command -v swiftc)")")
swift_flags=(-sanitize=fuzzer -profile-generate -profile-coverage-mapping
    -parse-as-library -swift-version 6 -O -g -package-name scenehost -module-cache-path "$out/module-cache")
binary="$build/fuzz-$target"
mapfile -t protocol_sources < <(find Sources/Protocol -name '*.swift' | sort)

case $target in
protocol)
    corpora=("$out/corpus" Fuzz/corpus)
    files=(Sources/Protocol/Framing/FrameDecoder.swift Sources/Protocol/JSON/JSONParser.swift
        Sources/Protocol/JSON/JSONWriter.swift Sources/Protocol/Wire/WireCodec.swift)
    swiftc "${swift_flags[@]}" -use-ld=lld -module-name Protocol \
        -o "$binary" "${protocol_sources[@]}" Fuzz/FuzzProtocol.swift
    ;;
host)
    corpora=("$out/corpus-host" Fuzz/corpus-host)
    files=(Sources/HostTools/Control/ControlMessage.swift Sources/HostTools/Scenario/ScenarioParser.swift
        Sources/HostTools/Scenario/Scenario+StepJSON.swift Sources/SceneModel/Trace/TraceEvent+JSON.swift
        Sources/SceneModel/Model/TraceVerifier.swift Sources/HostTools/Timeline/TraceVerifier+JSONLines.swift
        Sources/SceneModel/Model/SceneTraceChecker.swift Sources/SceneModel/Model/AtomProgress.swift
        Sources/Protocol/Model/LifecycleAtom.swift Sources/Protocol/Model/ExpectedStep.swift
        Sources/SceneModel/Model/ExpectedStep+TraceEvent.swift)
    source Fuzz/host-build.sh
    build_host_fuzzer "$binary" "$build" fuzzer-no-link "${swift_flags[@]}"
    ;;
*)
    echo "usage: Fuzz/coverage.sh [protocol|host]" >&2
    exit 2
    ;;
esac

mkdir -p "${corpora[0]}"
rm -f "$build"/*.profraw
SWIFT_BACKTRACE=enable=no LLVM_PROFILE_FILE="$build/corpus.profraw" "$binary" -runs=0 "${corpora[@]}" 2>&1 | tail -1
"$tools/llvm-profdata" merge -o "$build/corpus.profdata" "$build/corpus.profraw"
"$tools/llvm-cov" report "$binary" -instr-profile="$build/corpus.profdata" "${files[@]}"
echo "binary: $binary"
echo "profile: $build/corpus.profdata"
