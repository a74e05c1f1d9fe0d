/// The report as BENCHMARKS.md's table (`hostctl bench --markdown`): one line per benchmark,
/// the `plain` figures on the left and, when the run measured both tunings, the `throughput`
/// figures of the same row (its `.throughput` twin) on the right.
extension BenchReport {
    package var markdown: String {
        let suffix = ".throughput"
        let byName = Dictionary(rows.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        let paired = rows.contains { $0.name.hasSuffix(suffix) }
        var lines: [String] = []
        if paired {
            lines.append(
                "| benchmark | plain: target | median | p99 | ratio | throughput: target | median | p99 | ratio |"
            )
            lines.append("| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
        } else {
            lines.append("| benchmark | target | median | p99 | ratio |")
            lines.append("| --- | --- | ---: | ---: | ---: |")
        }
        for row in rows where !row.name.hasSuffix(suffix) {
            var cells = ["`\(row.name)`"] + Self.markdownCells(row)
            if paired {
                cells += byName[row.name + suffix].map(Self.markdownCells) ?? ["", "", "", ""]
            }
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Target, median, p99, and the ratio with its verdict (a miss in bold).
    private static func markdownCells(_ row: BenchRow) -> [String] {
        let verdict = row.verdict.map { $0 == "MISS" ? "**MISS**" : $0 }
        let ratio = [row.ratio.map { BenchFormat.number($0) + "×" }, verdict].compactMap { $0 }.joined(separator: " ")
        return [
            row.target.map { row.targetText($0) } ?? "",
            BenchFormat.value(row.median, row.unit),
            BenchFormat.value(row.p99, row.unit),
            ratio,
        ]
    }
}
