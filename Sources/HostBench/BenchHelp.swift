/// `hostctl bench --help`.

package enum BenchHelp {
    package static let text = """
        hostctl bench [--quick] [--json | --markdown] [--only NAME[,NAME...]] [--placement P]
                      [--tuning T] [--svg FILE]

        Measures the host, each figure as median and p99 over many repetitions, next to a
        floor measured in the same run (the same bytes or the same spawn without the scene
        host on top), with the ratio and the project's target. Build it for release, as a
        static executable with the request path laid out together (every worker is this
        binary; a static one starts ~2.5x faster), from the checkout:
          scripts/build-release && .build/release/hostctl bench

          --quick        small counts and few repetitions (a smoke test in seconds)
          --json         one JSON object on stdout instead of the table
          --markdown     the table as BENCHMARKS.md shows it: one line per benchmark, the
                         throughput tuning's figures beside the plain ones
          --only NAME    run only these benchmarks (comma-separated)
          --placement P  round-trip rows pinned by CPU as well as unpinned: both (default),
                         same-cpu (host and child on CPU 0), split-cpu (host on CPU 0,
                         child on CPU 1) or none; this VM's scheduler switches between the two
                         moods on its own, so each pinned run shows one of them reliably
          --tuning T     both (default): transition, kinds, connect and throughput run once
                         per HostTuning setting, side by side (the throughput setting's rows
                         end in .throughput); plain or throughput: that one only. Plain, the
                         transition's floor is pipe-echo.eventloop (≤ 1.5×); tuned for
                         throughput, the loop polls for answers and its floor is the faster
                         echo (≤ 2×)
          --svg FILE     also draw the scale curve (round trip, memory vs live scenes) as SVG

        Benchmarks:
          codec        encode+decode of a callback and a request vs Foundation JSON (≥ 10×)
          transition   deactivate/activate round trip on one scene vs a pipe echo (plain
                       ≤ 1.5×, throughput ≤ 2×), unpinned and in each placement, with Node's
                       fork IPC round trip (when node is on PATH) as an outside reference
                       (ours ≥ 2× faster; plain, ≥ 1.5× off the same CPU);
                       each row's note and JSON details (hostCPUUs, workerCPUUs) give the
                       CPU per transition of the host and of the worker, and what each
                       spends above its side of the event-loop echo (hostCPUOverEchoUs,
                       workerCPUOverEchoUs; the echo's row: hostCPUUs, childCPUUs):
                       whose work to cut; transition.app: the same scene in an app
                       process carrying a second scene (≤ 1.1× of transition);
                       unpinned, the kernel puts each child on the host's CPU or the other
                       by chance: the rows compare the round trips where it chose the same
                       (details.unpinnedSameCPU: 1 one CPU, 0 two), and have no target
                       where it never did
          kinds        each view-controller transition of LIFECYCLE.md §3a (present and
                       dismiss, swipes, tab switch, child add and remove) against a push and
                       its pop, timed in pairs (≤ 1.1×: not slower than a push),
                       unpinned and in each placement; kinds.notifications: deactivate,
                       activate with UIKit's lifecycle notifications against without; each
                       row's note and details give the CPU per pair (hostCPUUs, workerCPUUs)
          connect      a new scene to foregroundActive vs spawning to a bare ready line: with
                       the host's default prewarming (≤ 1.1×) and without it (connect.cold,
                       p50 ≤ 5 ms); connect.in-app: a new scene of a running app, in its
                       process, no spawn (≤ 0.5× of spawn-ready)
          kill         SIGKILL from outside until the exited trace event arrives
          throughput   transitions/s with 1, 8 and 64 scenes driven concurrently (≥ 150k
                       with 8 and 64), next to throughput-floor.N: as many bench-echo
                       children driven by one thread with epoll, no host; the note says
                       when the saturated loop kept a CPU to itself (throughput tuning only)
          memory       idle worker PSS (≤ 1 MiB) and host memory per scene
          suspend      background until suspended, then foreground again
          terminate    terminating 100 running scenes at once
          scale        10, 100, 1000, 4000 live scenes: connect (4000 in ≤ 4 s), round trip
                       (≤ 1.2× of 1 at 4000; unpinned and in each placement), memory
                       (≤ 16 KiB host per scene)

        Exit status 0 even when a target is missed (the table says MISS); 3 on a failure.
        The descriptor limit is raised to the hard limit (4,000 scenes need ~16,000).

        EXAMPLES
          hostctl bench --only transition,codec
          hostctl bench --json > bench.json
          hostctl bench --svg docs/bench-scaling.svg
        """
}
