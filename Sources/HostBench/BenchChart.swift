import Glibc

/// `hostctl bench --svg FILE`: a hand-written SVG line chart of the scaling curve against the
/// number of live scenes (logarithmic x axis): round trip on one scene (median and p99) on a
/// linear axis from 0, and memory (worker PSS and USS, host growth per scene) on a logarithmic
/// one. The memory axis is logarithmic because the 1-scene PSS (a lone worker carries half of
/// every page it shares with the host) is five times the rest, and a linear axis to 5000 KiB
/// flattened the host's 26-350 KiB per scene onto the x axis.
///
/// Every value label goes through a small placement pass (`Canvas.valueLabel`): it stays at its
/// point but moves (over or under it, a little to the side, then further out with a leader
/// line) until it keeps clear of every other label, the data points and the y axis.
package enum BenchChart {
    /// What the chart draws at one size. Plain numbers rather than `BenchHost.ScalePoint`, so a
    /// published run (BENCHMARKS.md) can be drawn again, and tested, without measuring anything.
    package struct Figures: Sendable {
        package var scenes: Int
        /// Round trip on one scene, µs.
        package var roundTripMedian: Double
        package var roundTripP99: Double
        /// Medians over the live workers, KiB.
        package var workerPSS: Double
        package var workerUSS: Double
        /// Host RSS growth divided by the number of scenes, KiB.
        package var hostPerScene: Double

        package init(
            scenes: Int,
            roundTripMedian: Double,
            roundTripP99: Double,
            workerPSS: Double,
            workerUSS: Double,
            hostPerScene: Double
        ) {
            self.scenes = scenes
            self.roundTripMedian = roundTripMedian
            self.roundTripP99 = roundTripP99
            self.workerPSS = workerPSS
            self.workerUSS = workerUSS
            self.hostPerScene = hostPerScene
        }
    }

    package struct Series {
        package var label: String
        package var color: String
        package var dashed: Bool
        package var points: [(x: Double, y: Double)]
    }

    package static func svg(_ points: [BenchHost.ScalePoint], subtitle: String) -> String {
        svg(
            figures: points.map {
                Figures(
                    scenes: $0.scenes,
                    roundTripMedian: $0.roundTrip.median,
                    roundTripP99: $0.roundTrip.p99,
                    workerPSS: $0.workerPSS.median,
                    workerUSS: $0.workerUSS.median,
                    hostPerScene: $0.hostPerScene
                )
            },
            subtitle: subtitle
        )
    }

    package static func svg(figures: [Figures], subtitle: String) -> String {
        let sorted = figures.sorted { $0.scenes < $1.scenes }
        let xs = sorted.map { Double($0.scenes) }
        let latency = [
            Series(
                label: "round trip p50",
                color: "#1f77b4",
                dashed: false,
                points: sorted.map { (Double($0.scenes), $0.roundTripMedian) }
            ),
            Series(
                label: "round trip p99",
                color: "#1f77b4",
                dashed: true,
                points: sorted.map { (Double($0.scenes), $0.roundTripP99) }
            ),
        ]
        let memory = [
            Series(
                label: "worker PSS p50",
                color: "#d62728",
                dashed: false,
                points: sorted.map { (Double($0.scenes), $0.workerPSS) }
            ),
            Series(
                label: "worker private (USS) p50",
                color: "#d62728",
                dashed: true,
                points: sorted.map { (Double($0.scenes), $0.workerUSS) }
            ),
            // One scene's share would be the host's fixed cost, not a per-scene one.
            Series(
                label: "host RSS growth per scene",
                color: "#2ca02c",
                dashed: false,
                points: sorted.filter { $0.scenes >= 10 }.map { (Double($0.scenes), $0.hostPerScene) }
            ),
        ]
        // The target: round trip with many live scenes within 1.5× of one scene.
        let reference = sorted.first.map { $0.roundTripMedian * 1.5 }
        let width = 960.0
        let height = 466.0
        var canvas = Canvas(width: width)
        canvas.text(
            x: width / 2,
            y: 28,
            "scenehost: cost as live scenes grow",
            size: 18,
            anchor: .middle,
            weight: "bold"
        )
        canvas.text(x: width / 2, y: 48, subtitle, size: 12, anchor: .middle, color: "#555")
        panel(
            &canvas,
            id: "round-trip",
            x: 70,
            y: 80,
            width: 370,
            height: 260,
            title: "round trip on one scene (µs)",
            xs: xs,
            series: latency,
            unit: "µs",
            scale: .linear,
            guide: reference.map { ($0, "1.5× of 1 scene (target)") }
        )
        panel(
            &canvas,
            id: "memory",
            x: 560,
            y: 80,
            width: 370,
            height: 260,
            title: "memory per scene (KiB, log scale)",
            xs: xs,
            series: memory,
            unit: "KiB",
            scale: .logarithmic
        )
        // The 1-scene PSS is real but is not a per-worker cost: say why it stands out.
        canvas.text(
            x: width / 2,
            y: 454,
            "PSS at 1 scene: the lone worker carries half of every page it shares with the host (the same binary); "
                + "USS is a worker's private memory.",
            size: 10,
            anchor: .middle,
            color: "#555"
        )
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(fmt(width))" height="\(fmt(height))" \
            viewBox="0 0 \(fmt(width)) \(fmt(height))" font-family="Helvetica, Arial, sans-serif">
            <rect width="100%" height="100%" fill="white"/>
            \(canvas.body)</svg>

            """
    }

    package enum Scale { case linear, logarithmic }

    /// One chart in a `<g id=…>`: y grid, log-x ticks at the measured sizes, polylines, point
    /// markers, a legend under the plot, then the value labels (placed around everything
    /// else, and drawn over the lines), and the frame on top.
    static func panel(
        _ canvas: inout Canvas,
        id: String,
        x: Double,
        y: Double,
        width: Double,
        height: Double,
        title: String,
        xs: [Double],
        series: [Series],
        unit: String,
        scale: Scale,
        guide: (value: Double, label: String)? = nil
    ) {
        let axis = YAxis(
            scale: scale,
            values: series.flatMap { $0.points.map(\.y) } + [guide?.value].compactMap { $0 },
            top: y,
            bottom: y + height
        )
        let xMin = log10(max(1, xs.min() ?? 1))
        let xMax = max(xMin + 1, log10(max(1, xs.max() ?? 10)))
        func px(_ value: Double) -> Double {
            x + (log10(max(1, value)) - xMin) / (xMax - xMin) * width
        }
        let drawn = series.map { line in line.points.filter { $0.y.isFinite } }
        // The markers first, so that the target's label (placed before the series are drawn)
        // keeps off them too.
        for points in drawn {
            for point in points { canvas.reserve(Box(around: (px(point.x), axis.py(point.y)), radius: markerRadius)) }
        }
        // And the y axis: a label across it would be cut by it (or cut it, with its halo).
        canvas.reserve(Box(minX: x - 0.5, minY: y, maxX: x + 0.5, maxY: y + height))

        canvas.body += "<g id=\"\(id)\">\n"
        canvas.text(x: x + width / 2, y: y - 12, title, size: 14, anchor: .middle, weight: "bold")
        // Grid and y labels.
        for tick in axis.ticks {
            let lineY = axis.py(tick.value)
            let stroke = tick.major ? "#e5e5e5" : "#f2f2f2"
            canvas.body +=
                "<line x1=\"\(fmt(x))\" y1=\"\(fmt(lineY))\" x2=\"\(fmt(x + width))\" y2=\"\(fmt(lineY))\" stroke=\"\(stroke)\"/>\n"
            canvas.text(x: x - 8, y: lineY + 4, BenchFormat.compact(tick.value), size: 11, anchor: .end, color: "#333")
        }
        if let guide, guide.value.isFinite {
            let lineY = axis.py(guide.value)
            canvas.body +=
                "<line x1=\"\(fmt(x))\" y1=\"\(fmt(lineY))\" x2=\"\(fmt(x + width))\" y2=\"\(fmt(lineY))\" stroke=\"#999\" stroke-dasharray=\"2 3\"/>\n"
            // At the right end above the line if that is clear of the data, else below it, else
            // at the left end; as far from the line as a value label is from its point, so
            // that a point on the line cannot block both sides.
            let candidates = [
                Candidate(x: x + width - 4, y: lineY - 9, anchor: .end),
                Candidate(x: x + width - 4, y: lineY + 16, anchor: .end),
                Candidate(x: x + 8, y: lineY - 9, anchor: .start),
                Candidate(x: x + 8, y: lineY + 16, anchor: .start),
            ]
            canvas.place(guide.label, candidates: candidates, size: 10, color: "#777", top: y, bottom: y + height)
        }
        // X ticks at the measured sizes.
        for value in xs {
            let lineX = px(value)
            canvas.body +=
                "<line x1=\"\(fmt(lineX))\" y1=\"\(fmt(y + height))\" x2=\"\(fmt(lineX))\" y2=\"\(fmt(y + height + 5))\" stroke=\"#333\"/>\n"
            canvas.text(x: lineX, y: y + height + 18, String(Int(value)), size: 11, anchor: .middle, color: "#333")
        }
        canvas.text(
            x: x + width / 2,
            y: y + height + 36,
            "live scenes (log scale)",
            size: 12,
            anchor: .middle,
            color: "#333"
        )
        // Series and legend.
        for (index, line) in series.enumerated() {
            let dash = line.dashed ? " stroke-dasharray=\"6 4\"" : ""
            // A value a log axis cannot show (0 or less) is left out of the line and drawn as
            // an open marker on the floor, with its real value as its label.
            let coordinates = drawn[index].filter { axis.canShow($0.y) }
                .map { "\(fmt(px($0.x))),\(fmt(axis.py($0.y)))" }.joined(separator: " ")
            canvas.body +=
                "<polyline points=\"\(coordinates)\" fill=\"none\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dash)/>\n"
            for point in drawn[index] {
                let fill = axis.canShow(point.y) ? "fill=\"\(line.color)\"" : "fill=\"white\" stroke=\"\(line.color)\""
                canvas.body +=
                    "<circle cx=\"\(fmt(px(point.x)))\" cy=\"\(fmt(axis.py(point.y)))\" r=\"\(fmt(markerRadius))\" \(fill)/>\n"
            }
            let legendY = y + height + 58 + Double(index) * 16
            canvas.body +=
                "<line x1=\"\(fmt(x))\" y1=\"\(fmt(legendY - 4))\" x2=\"\(fmt(x + 24))\" y2=\"\(fmt(legendY - 4))\" stroke=\"\(line.color)\" stroke-width=\"2\"\(dash)/>\n"
            canvas.text(x: x + 30, y: legendY, "\(line.label) (\(unit))", size: 12, anchor: .start, color: "#333")
        }
        // Value labels: dashed series prefer below their points, solid ones above, so that a
        // pair of lines (p50 under p99, USS under PSS) reads in order; the placement moves
        // them when that spot is taken.
        for (index, line) in series.enumerated() {
            for point in drawn[index] {
                canvas.valueLabel(
                    BenchFormat.number(point.y),
                    at: (px(point.x), axis.py(point.y)),
                    above: !line.dashed,
                    color: line.color,
                    top: y - 6,
                    bottom: y + height - 1
                )
            }
        }
        // The axes last: a label's halo may not cut them.
        canvas.body +=
            "<polyline points=\"\(fmt(x)),\(fmt(y)) \(fmt(x)),\(fmt(y + height)) \(fmt(x + width)),\(fmt(y + height))\" fill=\"none\" stroke=\"#333\"/>\n"
        canvas.body += "</g>\n"
    }

    static let markerRadius = 3.5

    /// The y axis of one panel: linear from 0 to a round number, or logarithmic between two
    /// 1-2-5 values around the data.
    package struct YAxis {
        package var scale: Scale
        package var low: Double
        package var high: Double
        package var top: Double
        package var bottom: Double

        package init(scale: Scale, values: [Double], top: Double, bottom: Double) {
            self.scale = scale
            self.top = top
            self.bottom = bottom
            switch scale {
            case .linear:
                low = 0
                high = BenchChart.niceCeiling(
                    (values.filter(\.isFinite).max() ?? 1) * 1.1,
                    factors: [1, 2, 2.5, 5, 10]
                )
            case .logarithmic:
                let positive = values.filter { $0.isFinite && $0 > 0 }
                // 15 % of headroom at both ends keeps the extreme points and their labels
                // off the frame.
                low = BenchChart.niceFloor((positive.min() ?? 1) / 1.15)
                high = BenchChart.niceCeiling((positive.max() ?? 10) * 1.15, factors: [1, 2, 5, 10])
            }
        }

        package func canShow(_ value: Double) -> Bool {
            scale == .linear || value > 0
        }

        package func py(_ value: Double) -> Double {
            switch scale {
            case .linear:
                return bottom - value / high * (bottom - top)
            case .logarithmic:
                let clamped = max(value, low)
                return bottom - (log10(clamped) - log10(low)) / (log10(high) - log10(low)) * (bottom - top)
            }
        }

        /// Quarters of a linear axis; 1, 2 and 5 of each decade on a logarithmic one (past
        /// three and a half decades the labels would crowd: decades only, and both ends).
        package var ticks: [(value: Double, major: Bool)] {
            switch scale {
            case .linear:
                return (0...4).map { (high * Double($0) / 4, true) }
            case .logarithmic:
                let decadesOnly = log10(high) - log10(low) > 3.5
                func near(_ a: Double, _ b: Double) -> Bool { abs(a / b - 1) < 1e-4 }
                var ticks: [(value: Double, major: Bool)] = []
                var power = pow(10, floor(log10(low)))
                while power <= high * 1.0001 {
                    for factor in [1.0, 2.0, 5.0] {
                        let value = factor * power
                        guard value >= low * 0.9999 && value <= high * 1.0001 else { continue }
                        if factor == 1 || !decadesOnly || near(value, low) || near(value, high) {
                            ticks.append((value, factor == 1))
                        }
                    }
                    power *= 10
                }
                return ticks
            }
        }
    }

    package static func write(_ svg: String, to path: String) -> Bool {
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
