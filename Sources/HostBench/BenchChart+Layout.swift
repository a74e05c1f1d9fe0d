import Glibc

/// The chart's layout: label placement that keeps labels apart, and the SVG canvas it draws on.
extension BenchChart {
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
    struct Canvas {
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
        static func corridor(from point: (x: Double, y: Double), to box: Box) -> Box {
            if box.minY > point.y {
                return Box(minX: point.x - 0.5, minY: point.y + markerRadius, maxX: point.x + 0.5, maxY: box.minY)
            }
            return Box(minX: point.x - 0.5, minY: box.maxY, maxX: point.x + 0.5, maxY: point.y - markerRadius)
        }
    }

    static func text(
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

    static func escape(_ text: String) -> String {
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

    static func fmt(_ value: Double) -> String {
        BenchFormat.fixed(value, decimals: 1)
    }

    /// The least of `factors` times a power of ten that is at least `value`.
    static func niceCeiling(_ value: Double, factors: [Double]) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for factor in factors where factor * power >= value * 0.9999 {
            return factor * power
        }
        return 10 * power
    }

    /// The greatest 1, 2 or 5 times a power of ten that is at most `value`.
    static func niceFloor(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return 1 }
        let power = pow(10, floor(log10(value)))
        for factor in [5.0, 2.0, 1.0] where factor * power <= value * 1.0001 {
            return factor * power
        }
        return power
    }

    /// Writes `svg` to `path`; false on failure.
}
