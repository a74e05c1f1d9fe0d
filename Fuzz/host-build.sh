# Sourced by Fuzz/run.sh and Fuzz/coverage.sh: builds the host's fuzz target, Fuzz/FuzzHost.swift
# in the module HostTools (so its package API, such as `JSONLinesVerification`, is visible),
# against Protocol, SceneModel and HostProcess built as modules of their own, as SwiftPM
# builds them, and CSceneHostSys compiled with clang and given a module map.
#
#   build_host_fuzzer BINARY BUILD_DIR CLANG_SANITIZE SWIFT_FLAG...

host_fuzzer_inputs() {
    find Sources/Protocol Sources/SceneModel Sources/HostProcess Sources/HostTools Sources/CSceneHostSys \
        Fuzz/FuzzHost.swift -type f | sort
}

build_host_fuzzer() {
    local binary=$1 build=$2 sanitize=$3
    shift 3
    local flags=("$@")
    local c_dir=Sources/CSceneHostSys
    mkdir -p "$build/c-module"
    local c_objects=() file
    for file in "$c_dir"/*.c; do
        clang "-fsanitize=$sanitize" -O1 -g -I "$c_dir/include" -c "$file" -o "$build/$(basename "$file" .c).o"
        c_objects+=("$build/$(basename "$file" .c).o")
    done
    printf 'module CSceneHostSys {\n    header "%s"\n    export *\n}\n' \
        "$PWD/$c_dir/include/CSceneHostSys.h" >"$build/c-module/module.modulemap"
    local includes=(-I "$build" -I "$build/c-module" -I "$c_dir/include")
    local module
    for module in Protocol SceneModel HostProcess; do
        local sources
        mapfile -t sources < <(find "Sources/$module" -name '*.swift' | sort)
        swiftc "${flags[@]}" -wmo -module-name "$module" "${includes[@]}" \
            -emit-module -emit-module-path "$build/$module.swiftmodule" \
            -c -o "$build/$module.o" "${sources[@]}"
    done
    local tools_sources
    mapfile -t tools_sources < <(find Sources/HostTools -name '*.swift' | sort)
    swiftc "${flags[@]}" -use-ld=lld -module-name HostTools "${includes[@]}" \
        -o "$binary" "${tools_sources[@]}" Fuzz/FuzzHost.swift \
        "$build/Protocol.o" "$build/SceneModel.o" "$build/HostProcess.o" "${c_objects[@]}" -ldispatch
}
