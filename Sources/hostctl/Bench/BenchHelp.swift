extension Help {
    static let bench = """
        hostctl bench [--quick] [--json] [--only NAME[,NAME...]] [--svg FILE]

        Measures the host, each figure as median and p99 over many repetitions, next to a
        floor measured in the same run (the same bytes or the same spawn without the scene
        host on top), with the ratio and the project's target. Build it for release first:
          swift build -c release --static-swift-stdlib && .build/release/hostctl bench

          --quick        small counts and few repetitions (a smoke test in seconds)
          --json         one JSON object on stdout instead of the table
          --only NAME    run only these benchmarks (comma-separated)
          --svg FILE     also draw the scale curve (round trip, memory vs live scenes) as SVG

        Benchmarks:
          codec        encode+decode of a callback and a request vs Foundation JSON (≥ 10×)
          transition   deactivate/activate round trip on one scene vs a pipe echo (≤ 2×)
          connect      spawn to foregroundActive vs spawning to a bare ready line (p50 ≤ 5 ms)
          kill         SIGKILL from outside until the exited trace event arrives
          throughput   transitions/s with 1, 8 and 64 scenes driven concurrently
          memory       idle worker PSS (≤ 1 MiB) and host memory per scene
          suspend      background until suspended, then foreground again
          terminate    terminating 100 running scenes at once
          scale        10, 100, 1000 live scenes: connect, round trip (≤ 1.5× of 1), memory

        Exit status 0 even when a target is missed (the table says MISS); 3 on a failure.
        The descriptor limit is raised to the hard limit (1,000 scenes need ~4,000).

        EXAMPLES
          hostctl bench --only transition,codec
          hostctl bench --json > bench.json
          hostctl bench --svg docs/bench-scaling.svg
        """
}
