import Glibc

/// `hostctl bench --svg FILE`: a hand-written SVG line chart of the scaling curve — round
/// trip on one scene (median and p99) and memory (worker PSS, host growth per scene)
/// against the number of live scenes, on a logarithmic x axis.
enum BenchChart {
    struct Series {
        var label: String
        var color: String
        var dashed: Bool
        var points: [(x: Double, y: Double)]
    }

    static func svg(_ points: [BenchHost.ScalePoint], subtitle: String) -> String {
        let sorted = points.sorted { $0.scenes < $1.scenes }
        let xs = sorted.map { Double($0.scenes) }
        let latency = [
            Series(label: "round trip p50", color: "#1f77b4", dashed: false,
                   points: sorted.map { (Double($0.scenes), $0.roundTrip.median) }),
            Series(label: "round trip p99", color: "#1f77b4", dashed: true,
                   points: sorted.map { (Double($0.scenes), $0.roundTrip.p99) }),
        ]
        let memory = [
            Series(label: "worker PSS p50", color: "#d62728", dashed: false,
                   points: sorted.map { (Double($0.scenes), $0.workerPSS.median) }),
            Series(label: "worker private (USS) p50", color: "#d62728", dashed: true,
                   points: sorted.map { (Double($0.scenes), $0.workerUSS.median) }),
            // One scene's share would be the host's fixed cost, not a per-scene one.
            Series(label: "host RSS growth per scene", color: "#2ca02c", dashed: false,
                   points: sorted.filter { $0.scenes >= 10 }.map { (Double($0.scenes), $0.hostPerScene) }),
        ]
        // The target: round trip with many live scenes within 1.5× of one scene.
        let reference = sorted.first.map { $0.roundTrip.median * 1.5 }
        let width = 960.0
        let height = 450.0
        var body = ""
        body += text(x: width / 2, y: 28, "scenehost: cost as live scenes grow", size: 18, anchor: "middle", weight: "bold")
        body += text(x: width / 2, y: 48, subtitle, size: 12, anchor: "middle", color: "#555")
        body += panel(
            x: 70, y: 80, width: 370, height: 260, title: "round trip on one scene (µs)",
            xs: xs, series: latency, unit: "µs",
            guide: reference.map { ($0, "1.5× of 1 scene (target)") })
        body += panel(
            x: 560, y: 80, width: 370, height: 260, title: "memory (KiB)",
            xs: xs, series: memory, unit: "KiB")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(fmt(width))" height="\(fmt(height))" \
            viewBox="0 0 \(fmt(width)) \(fmt(height))" font-family="Helvetica, Arial, sans-serif">
            <rect width="100%" height="100%" fill="white"/>
            \(body)</svg>

            """
    }

    /// One chart: frame, log-x ticks at the measured sizes, linear y from 0, polylines,
    /// point markers with values, and a legend under the plot.
    private static func panel(
        x: Double, y: Double, width: Double, height: Double, title: String,
        xs: [Double], series: [Series], unit: String, guide: (value: Double, label: String)? = nil
    ) -> String {
        let finite = (series.flatMap { $0.points.map(\.y) } + [guide?.value ?? 0]).filter { $0.isFinite }
        let yMax = niceCeiling((finite.max() ?? 1) * 1.1)
        let xMin = log10(max(1, xs.min() ?? 1))
        let xMax = max(xMin + 1, log10(max(1, xs.max() ?? 10)))
        func px(_ value: Double) -> Double {
            x + (log10(max(1, value)) - xMin) / (xMax - xMin) * width
        }
        func py(_ value: Double) -> Double {
            y + height - value / yMax * height
        }
        var out = ""
        out += text(x: x + width / 2, y: y - 12, title, size: 14, anchor: "middle", weight: "bold")
        // Grid and y labels.
        for step in 0...4 {
            let value = yMax * Double(step) / 4
            let lineY = py(value)
            out += "<line x1=\"\(fmt(x))\" y1=\"\(fmt(lineY))\" x2=\"\(fmt(x + width))\" y2=\"\(fmt(lineY))\" stroke=\"#e5e5e5\"/>\n"
            out += text(x: x - 8, y: lineY + 4, BenchFormat.compact(value), size: 11, anchor: "end", color: "#333")
        }
        if let guide, guide.value.isFinite {
            let lineY = py(guide.value)
            out += "<line x1=\"\(fmt(x))\" y1=\"\(fmt(lineY))\" x2=\"\(fmt(x + width))\" y2=\"\(fmt(lineY))\" stroke=\"#999\" stroke-dasharray=\"2 3\"/>\n"
            out += text(x: x + width - 4, y: lineY - 5, guide.label, size: 10, anchor: "end", color: "#777")
        }
        // X ticks at the measured sizes.
        for value in xs {
            let lineX = px(value)
            out += "<line x1=\"\(fmt(lineX))\" y1=\"\(fmt(y + height))\" x2=\"\(fmt(lineX))\" y2=\"\(fmt(y + height + 5))\" stroke=\"#333\"/>\n"
            out += text(x: lineX, y: y + height + 18, String(Int(value)), size: 11, anchor: "middle", color: "#333")
        }
        out += text(x: x + width / 2, y: y + height + 36, "live scenes (log scale)", size: 12, anchor: "middle", color: "#333")
        // Axes.
        out += "<polyline points=\"\(fmt(x)),\(fmt(y)) \(fmt(x)),\(fmt(y + height)) \(fmt(x + width)),\(fmt(y + height))\" fill=\"none\" stroke=\"#333\"/>\n"
        // Series.
        for (index, line) in series.enumerated() {
            let points = line.points.filter { $0.y.isFinite }
            let coordinates = points.map { "\(fmt(px($0.x))),\(fmt(py($0.y)))" }.joined(separator: " ")
            let dash = line.dashed ? " stroke-dasharray=\"6 4\"" : ""
            out += "<polyline points=\"\(coordinates)\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dash)/>\n"
            for point in points {
                out += "<circle cx=\"\(fmt(px(point.x)))\" cy=\"\(fmt(py(point.y)))\" r=\"3.5\" fill=\"\(line.color)\"/>\n"
                // Dashed series label below their points, solid ones above, so pairs stay readable.
                out += text(
                    x: px(point.x), y: py(point.y) + (line.dashed ? 15 : -8), BenchFormat.number(point.y), size: 10,
                    anchor: "middle", color: line.color)
            }
            // Legend.
            let legendY = y + height + 58 + Double(index) * 16
            out += "<line x1=\"\(fmt(x))\" y1=\"\(fmt(legendY - 4))\" x2=\"\(fmt(x + 24))\" y2=\"\(fmt(legendY - 4))\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dash)/>\n"
            out += text(x: x + 30, y: legendY, "\(line.label) (\(unit))", size: 12, anchor: "start", color: "#333")
        }
        return out
    }

    private static func text(
        x: Double, y: Double, _ content: String, size: Int, anchor: String,
        color: String = "#000", weight: String = "normal"
    ) -> String {
        "<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor)\" fill=\"\(color)\" font-weight=\"\(weight)\">\(escape(content))</text>\n"
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            default: out.append(character)
            }
        }
        return out
    }

    private static func fmt(_ value: Double) -> String {
        BenchFormat.fixed(value, decimals: 1)
    }

    /// 1, 2, 2.5 or 5 times a power of ten, at least `value`.
    private static func niceCeiling(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for factor in [1.0, 2.0, 2.5, 5.0, 10.0] where factor * power >= value {
            return factor * power
        }
        return 10 * power
    }

    /// Writes `svg` to `path`; false on failure.
    static func write(_ svg: String, to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        let bytes = Array(svg.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}
