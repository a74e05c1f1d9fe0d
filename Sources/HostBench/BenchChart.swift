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
    private static func panel(
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

    private static let markerRadius = 3.5

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

    package enum Anchor: String { case start, middle, end }

    /// Where a label may go; `leader` when it is far enough from its point to need a line to it.
    package struct Candidate {
        package var x: Double
        package var y: Double
        package var anchor: Anchor
        package var leader = false
    }

    /// The room a piece of text (or a marker) takes. Text is taken as 0.6 em a character
    /// (Helvetica's digits are 0.56 em, DejaVu Sans's 0.64: `Canvas.margin` absorbs the
    /// difference), from 0.8 em above the baseline to 0.2 em below it.
    package struct Box {
        package var minX: Double
        package var minY: Double
        package var maxX: Double
        package var maxY: Double

        package init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
            self.minX = minX
            self.minY = minY
            self.maxX = maxX
            self.maxY = maxY
        }

        package init(text: String, x: Double, y: Double, size: Double, anchor: Anchor) {
            let width = 0.6 * size * Double(text.count)
            switch anchor {
            case .start: minX = x
            case .middle: minX = x - width / 2
            case .end: minX = x - width
            }
            maxX = minX + width
            minY = y - 0.8 * size
            maxY = y + 0.2 * size
        }

        package init(around center: (x: Double, y: Double), radius: Double) {
            self.init(
                minX: center.x - radius,
                minY: center.y - radius,
                maxX: center.x + radius,
                maxY: center.y + radius
            )
        }

        package func overlaps(_ other: Box, margin: Double) -> Bool {
            minX < other.maxX + margin && other.minX < maxX + margin
                && minY < other.maxY + margin && other.minY < maxY + margin
        }
    }

    /// The SVG body being written, and the room its text and markers take.
    private struct Canvas {
        /// The image's width: a label may not run off either side.
        package var width: Double
        package var body = ""
        package var taken: [Box] = []
        /// The clearance kept between a placed label and anything else.
        package static let margin = 2.0

        package mutating func reserve(_ box: Box) {
            taken.append(box)
        }

        /// Text that stays where it is put: titles, ticks, legend.
        package mutating func text(
            x: Double,
            y: Double,
            _ content: String,
            size: Int,
            anchor: Anchor,
            color: String = "#000",
            weight: String = "normal"
        ) {
            taken.append(Box(text: content, x: x, y: y, size: Double(size), anchor: anchor))
            body += BenchChart.text(x: x, y: y, content, size: size, anchor: anchor, color: color, weight: weight)
        }

        /// Writes `content` at the first of `candidates` whose box lies between `top` and
        /// `bottom`, inside the image, and keeps `margin` from everything taken so far (and, for a candidate that
        /// needs a leader line to `point`, whose leader crosses nothing); at the first
        /// candidate when none does, since a label on top of another beats a missing value.
        package mutating func place(
            _ content: String,
            candidates: [Candidate],
            size: Int,
            color: String,
            top: Double,
            bottom: Double,
            point: (x: Double, y: Double)? = nil
        ) {
            func box(_ candidate: Candidate) -> Box {
                Box(text: content, x: candidate.x, y: candidate.y, size: Double(size), anchor: candidate.anchor)
            }
            let chosen =
                candidates.first { candidate in
                    let box = box(candidate)
                    guard box.minY >= top, box.maxY <= bottom, box.minX >= 0, box.maxX <= width else { return false }
                    guard !taken.contains(where: { $0.overlaps(box, margin: Self.margin) }) else { return false }
                    if candidate.leader, let point {
                        let corridor = Self.corridor(from: point, to: box)
                        return !taken.contains { $0.overlaps(corridor, margin: 0) }
                    }
                    return true
                } ?? candidates[0]
            let placed = box(chosen)
            if chosen.leader, let point {
                // Moved off its usual spot: a thin line says which point the label belongs to.
                let edge =
                    placed.minY > point.y
                    ? (point.y + markerRadius, placed.minY) : (point.y - markerRadius, placed.maxY)
                body +=
                    "<line x1=\"\(fmt(point.x))\" y1=\"\(fmt(edge.0))\" x2=\"\(fmt(point.x))\" y2=\"\(fmt(edge.1))\" stroke=\"\(color)\" stroke-width=\"0.75\"/>\n"
            }
            taken.append(placed)
            // A white halo keeps the digits readable where a line runs behind them.
            body += BenchChart.text(
                x: chosen.x,
                y: chosen.y,
                content,
                size: size,
                anchor: chosen.anchor,
                color: color,
                halo: true
            )
        }

        /// A point's value over or under it, in this order: centred on the preferred side,
        /// then on the other; shifted right, then left, on either side (what the first column
        /// needs to keep off the y axis and its labels); centred and 2 px further out each time, up
        /// to 20 px; beside the point, on its line; further out still, up to 60 px. The moves
        /// further out get a leader line, and a leader may not cross another label (so a
        /// column of three labels on one point needs the spots beside it).
        package mutating func valueLabel(
            _ content: String,
            at point: (x: Double, y: Double),
            above: Bool,
            color: String,
            top: Double,
            bottom: Double
        ) {
            // Baselines 9 px over the point and 16 px under it leave 3.5 px between the 10 px
            // text and the marker either way, and room for a label beside the point between
            // the two (10 px and twice the margin).
            func baseline(above: Bool, further: Double = 0) -> Double {
                above ? point.y - 9 - further : point.y + 16 + further
            }
            var candidates: [Candidate] = []
            for anchor in [Anchor.middle, .start, .end] {
                // Shifted to start (or end) 3 px past the point's centre: over the point's
                // corner, and clear of the y axis when the point is on it.
                let x = anchor == .start ? point.x + 3 : anchor == .end ? point.x - 3 : point.x
                for side in [above, !above] {
                    candidates.append(Candidate(x: x, y: baseline(above: side), anchor: anchor))
                }
            }
            func further(_ steps: ClosedRange<Int>) {
                for step in steps {
                    for side in [above, !above] {
                        candidates.append(
                            Candidate(
                                x: point.x,
                                y: baseline(above: side, further: Double(step) * 2),
                                anchor: .middle,
                                leader: true
                            )
                        )
                    }
                }
            }
            further(1...10)
            // Baseline 3.5 px under the point centres the digits on it.
            candidates.append(Candidate(x: point.x + 7, y: point.y + 3.5, anchor: .start))
            candidates.append(Candidate(x: point.x - 7, y: point.y + 3.5, anchor: .end))
            further(11...30)
            place(content, candidates: candidates, size: 10, color: color, top: top, bottom: bottom, point: point)
        }

        /// The thin vertical strip a leader line from `point` to `box` takes, outside the
        /// point's own marker.
        private static func corridor(from point: (x: Double, y: Double), to box: Box) -> Box {
            if box.minY > point.y {
                return Box(minX: point.x - 0.5, minY: point.y + markerRadius, maxX: point.x + 0.5, maxY: box.minY)
            }
            return Box(minX: point.x - 0.5, minY: box.maxY, maxX: point.x + 0.5, maxY: point.y - markerRadius)
        }
    }

    private static func text(
        x: Double,
        y: Double,
        _ content: String,
        size: Int,
        anchor: Anchor,
        color: String = "#000",
        weight: String = "normal",
        halo: Bool = false
    ) -> String {
        let paint = halo ? " stroke=\"white\" stroke-width=\"3\" stroke-linejoin=\"round\" paint-order=\"stroke\"" : ""
        return
            "<text x=\"\(fmt(x))\" y=\"\(fmt(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor.rawValue)\" fill=\"\(color)\" font-weight=\"\(weight)\"\(paint)>\(escape(content))</text>\n"
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

    /// The least of `factors` times a power of ten that is at least `value`.
    private static func niceCeiling(_ value: Double, factors: [Double]) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for factor in factors where factor * power >= value * 0.9999 {
            return factor * power
        }
        return 10 * power
    }

    /// The greatest 1, 2 or 5 times a power of ten that is at most `value`.
    private static func niceFloor(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for factor in [5.0, 2.0, 1.0] where factor * power <= value * 1.0001 {
            return factor * power
        }
        return power
    }

    /// Writes `svg` to `path`; false on failure.
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
