import HostBench
import Testing

/// `hostctl bench --markdown`: BENCHMARKS.md's table, the throughput tuning's twin of each
/// row beside it.
@Suite struct BenchReportMarkdownTests {
    private func report(_ rows: [BenchRow]) -> BenchReport {
        var report = BenchReport(
            quick: false,
            debugBuild: false,
            staticStdlib: true,
            linking: "static executable",
            cores: 2,
            descriptorLimit: 1024
        )
        for row in rows { report.add(row) }
        return report
    }

    @Test func eachRowStandsBesideItsThroughputTwin() {
        let rows = [
            BenchRow("pipe-echo.eventloop", Samples([3.4])),
            BenchRow(
                "transition",
                Samples([5.6]),
                floor: 3.4,
                floorName: "pipe-echo.eventloop",
                target: .ratioAtMost(1.5)
            ),
            BenchRow("codec.request", unit: .nanoseconds, Samples([92]), floor: 4392, target: .speedupAtLeast(10)),
            BenchRow("pipe-echo.eventloop.throughput", Samples([3.0])),
            BenchRow("transition.throughput", Samples([5.0]), floor: 3.0, target: .ratioAtMost(2)),
            BenchRow("throughput.8.throughput", unit: .perSecond, Samples([175_900]), target: .medianAtLeast(150_000)),
            BenchRow("scale.4000.connect-all", Samples([2_940_000]), target: .medianAtMost(4_000_000)),
        ]
        let lines = report(rows).markdown.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            lines == [
                "| benchmark | plain: target | median | p99 | ratio | throughput: target | median | p99 | ratio |",
                "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |",
                "| `pipe-echo.eventloop` |  | 3.40 µs | 3.40 µs |  |  | 3.00 µs | 3.00 µs |  |",
                "| `transition` | ≤ 1.50× floor | 5.60 µs | 5.60 µs | 1.65× **MISS** | ≤ 2× floor | 5.00 µs | 5.00 µs | 1.67× pass |",
                "| `codec.request` | ≥ 10× faster | 92.0 ns | 92.0 ns | 47.7× pass |  |  |  |  |",
                "| `scale.4000.connect-all` | p50 ≤ 4 s | 2.94 s | 2.94 s | pass |  |  |  |  |",
                "",
            ]
        )
        // A row measured under `throughput` alone keeps no line of its own.
        #expect(!report(rows).markdown.contains("throughput.8"))
    }

    @Test func oneTuningGivesOneSetOfColumns() {
        let text = report([BenchRow("transition", Samples([5.6]), floor: 3.4, target: .ratioAtMost(1.5))]).markdown
        #expect(
            text == """
                | benchmark | target | median | p99 | ratio |
                | --- | --- | ---: | ---: | ---: |
                | `transition` | ≤ 1.50× floor | 5.60 µs | 5.60 µs | 1.65× **MISS** |

                """
        )
    }
}
