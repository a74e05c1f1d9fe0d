import HostProcess
import Protocol
import SceneModel

/// Draws a trace as a self-contained SVG picture: one horizontal track per scene with its
/// activation states as coloured spans, worker processes, suspensions, process markers and
/// callback ticks, under a time axis and a legend. Hovering a tick, span or marker shows
/// what it is (an SVG `<title>`). Callbacks within about 2 px of each other share one tick
/// whose title lists them all, one a line: `16.053 ms viewDidLoad (Root)`.
///
/// Each scene's track is `<g class="track" data-scene="NAME">`. The host-wide events
/// (`started`, `quit`, …) get a `host` row above the tracks and faint dashed lines through them.
///
/// ```swift
/// let svg = SVGTimeline.render(host.trace.history)   // write to timeline.svg
/// ```
public enum SVGTimeline {
    /// Sizes of the picture.
    public struct Options: Sendable, Hashable {
        /// The width of the plot area (the tracks, without the labels) when the trace is short
        /// enough to fit it at `minimumPixelsPerMillisecond`.
        public var plotWidth: Double
        /// Longer traces widen the plot so that each millisecond gets at least this many
        /// pixels (bursts of callbacks stay visible)…
        public var minimumPixelsPerMillisecond: Double
        /// …up to this width; beyond it, the trace is squeezed to fit.
        public var maximumPlotWidth: Double
        /// The height of one scene's track; nil adapts it to the number of scenes (34 px for
        /// up to 8 scenes, else 26 px: the picture grows taller, labels never overlap).
        public var trackHeight: Double?
        /// The heading; nil for `scenehost timeline`.
        public var title: String?

        public init(
            plotWidth: Double = 1000,
            minimumPixelsPerMillisecond: Double = 2,
            maximumPlotWidth: Double = 10_000,
            trackHeight: Double? = nil,
            title: String? = nil
        ) {
            self.plotWidth = plotWidth
            self.minimumPixelsPerMillisecond = minimumPixelsPerMillisecond
            self.maximumPlotWidth = maximumPlotWidth
            self.trackHeight = trackHeight
            self.title = title
        }
    }

    /// The colours of the activation states (`nil`: not drawn; the worker bar shows through).
    public static func color(for state: ActivationState) -> String? {
        switch state {
        case .foregroundActive: Palette.active
        case .foregroundInactive: Palette.inactive
        case .background: Palette.background
        case .unattached: nil
        }
    }

    /// The SVG document of `events` (a trace, in order).
    public static func render(_ events: [TraceEvent], options: Options = Options()) -> String {
        render(SceneTracks(events: events), options: options)
    }

    /// The SVG document of already split tracks.
    public static func render(_ tracks: SceneTracks, options: Options = Options()) -> String {
        var drawing = Drawing(tracks: tracks, options: options)
        return drawing.document()
    }
}

enum Palette {
    package static let active = "#2e9e4f"
    package static let inactive = "#f2a900"
    package static let background = "#4a78c2"
    package static let suspendedBase = "#2c4f8c"
    package static let suspendedStripe = "#14294f"
    package static let worker = "#d3d7dd"
    package static let presentation = "#8e44ad"
    package static let laneEven = "#f7f8fa"
    package static let laneOdd = "#eef0f4"
    package static let tick = "#3c4043"
    package static let exited = "#d32f2f"
    package static let exitedText = "#b71c1c"
    package static let marker = "#17305c"
    package static let error = "#e8710a"
    package static let text = "#202124"
    package static let muted = "#5f6368"
    package static let grid = "#dadce0"
}

/// One rendering: the layout numbers and the output being built.
struct Drawing {
    package let tracks: SceneTracks
    package let options: Options
    package typealias Options = SVGTimeline.Options

    package let margin = 16.0
    package let labelWidth: Double
    package let plotX: Double
    package let plotWidth: Double
    package let pixelsPerSecond: Double
    package let width: Double
    package var out = ""

    package init(tracks: SceneTracks, options: Options) {
        self.tracks = tracks
        self.options = options
        let longest = max(tracks.tracks.map(\.scene.count).max() ?? 0, 4)
        labelWidth = min(max(Double(longest) * 7.2 + 20, 64), 220)
        plotX = margin + labelWidth
        let milliseconds = tracks.duration * 1000
        var perMillisecond = max(options.plotWidth / milliseconds, options.minimumPixelsPerMillisecond)
        if perMillisecond * milliseconds > options.maximumPlotWidth {
            perMillisecond = options.maximumPlotWidth / milliseconds
        }
        pixelsPerSecond = perMillisecond * 1000
        plotWidth = (milliseconds * perMillisecond).rounded(.up)
        width = (plotX + plotWidth + 120).rounded(.up)
    }

    package func x(_ time: Double) -> Double {
        plotX + (time - tracks.startTime) * pixelsPerSecond
    }

    // MARK: Document

    package mutating func document() -> String {
        let trackHeight = max(options.trackHeight ?? (tracks.tracks.count <= 8 ? 34 : 26), 16)
        let header = headerHeight()
        let hostRow = tracks.hostEvents.isEmpty ? 0.0 : 22.0
        let tracksTop = header + 30 + hostRow
        let tracksBottom = tracksTop + Double(tracks.tracks.count) * trackHeight
        let bottomAxis = tracks.tracks.count > 12
        let height = (tracksBottom + (bottomAxis ? 30 : 8) + margin).rounded(.up)

        out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(n(width))\" height=\"\(n(height))\" "
        out += "viewBox=\"0 0 \(n(width)) \(n(height))\" "
        out += "font-family=\"Helvetica, Arial, 'DejaVu Sans', sans-serif\" font-size=\"12\">\n"
        out += "<title>\(escape(titleText))</title>\n"
        out += "<defs>\n"
        out += "<pattern id=\"suspended-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        out += "patternTransform=\"rotate(45)\">"
        out += "<rect width=\"6\" height=\"6\" fill=\"\(Palette.suspendedBase)\"/>"
        out += "<rect width=\"2.5\" height=\"6\" fill=\"\(Palette.suspendedStripe)\"/></pattern>\n"
        out += "<style>.tick:hover,.marker:hover,.span:hover{opacity:.55}</style>\n"
        out += "</defs>\n"
        out += "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"

        heading()
        legend()
        axis(labelsAt: header + 16, gridFrom: header + 22, gridTo: tracksBottom)
        if bottomAxis { axisLabels(at: tracksBottom + 18) }
        if !tracks.hostEvents.isEmpty {
            hostLane(top: header + 28, linesTo: tracksBottom)
        }
        for track in tracks.tracks {
            self.track(track, top: tracksTop + Double(track.index) * trackHeight, height: trackHeight)
        }
        out += "</svg>\n"
        return out
    }

    package var titleText: String {
        let scenes = tracks.tracks.count
        let summary =
            "\(scenes) scene\(scenes == 1 ? "" : "s") · \(tracks.eventCount) events · "
            + formatDuration(tracks.endTime - tracks.startTime)
        return (options.title ?? "scenehost timeline") + " — " + summary
    }

    // MARK: Heading and legend

    package struct LegendItem {
        package var label: String
        package var swatch: Swatch
        package enum Swatch {
            case fill(String)
            case hatch, tick, spawned, suspended, resumed, exited, detached, error
        }
    }

    package var legendItems: [LegendItem] {
        var items: [LegendItem] = [
            LegendItem(label: "foregroundActive", swatch: .fill(Palette.active)),
            LegendItem(label: "foregroundInactive", swatch: .fill(Palette.inactive)),
            LegendItem(label: "background", swatch: .fill(Palette.background)),
            LegendItem(label: "suspended", swatch: .hatch),
            LegendItem(label: "worker running, unattached", swatch: .fill(Palette.worker)),
            LegendItem(label: "callbacks (hover for names)", swatch: .tick),
            LegendItem(label: "spawned", swatch: .spawned),
            LegendItem(label: "suspend", swatch: .suspended),
            LegendItem(label: "resume", swatch: .resumed),
            LegendItem(label: "exited (reason)", swatch: .exited),
        ]
        if tracks.tracks.contains(where: { $0.processMarkers.contains { $0.event == .detached } }) {
            items.append(LegendItem(label: "left its app's process", swatch: .detached))
        }
        if tracks.tracks.contains(where: { !$0.presentations.isEmpty }) {
            items.append(LegendItem(label: "presented controller", swatch: .fill(Palette.presentation)))
        }
        if tracks.tracks.contains(where: { !$0.errors.isEmpty }) {
            items.append(LegendItem(label: "refused operation", swatch: .error))
        }
        return items
    }

    /// Legend rows, each a list of (item, x offset).
    package func legendRows() -> [[(LegendItem, Double)]] {
        var rows: [[(LegendItem, Double)]] = [[]]
        var x = margin
        for item in legendItems {
            let itemWidth = 22 + textWidth(item.label, size: 11) + 18
            if x + itemWidth > width - margin, !(rows[rows.count - 1].isEmpty) {
                rows.append([])
                x = margin
            }
            rows[rows.count - 1].append((item, x))
            x += itemWidth
        }
        return rows
    }

    package func headerHeight() -> Double {
        // Title line, then the legend rows.
        36 + Double(legendRows().count) * 20
    }

    package mutating func heading() {
        out += "<text x=\"\(n(margin))\" y=\"24\" font-size=\"15\" font-weight=\"bold\" fill=\"\(Palette.text)\">"
        out += escape(options.title ?? "scenehost timeline")
        let scenes = tracks.tracks.count
        out += "<tspan font-size=\"12\" font-weight=\"normal\" fill=\"\(Palette.muted)\" dx=\"10\">"
        out += "\(scenes) scene\(scenes == 1 ? "" : "s") · \(tracks.eventCount) events · "
        out += escape(formatDuration(tracks.endTime - tracks.startTime)) + "</tspan></text>\n"
    }

    package mutating func legend() {
        out += "<g class=\"legend\" font-size=\"11\" fill=\"\(Palette.text)\">\n"
        for (row, items) in legendRows().enumerated() {
            let y = 36 + Double(row) * 20
            for (item, x) in items {
                let cy = y + 6
                switch item.swatch {
                case .fill(let color):
                    out += "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"16\" height=\"12\" fill=\"\(color)\"/>"
                case .hatch:
                    out +=
                        "<rect x=\"\(n(x))\" y=\"\(n(y))\" width=\"16\" height=\"12\" fill=\"url(#suspended-hatch)\"/>"
                case .tick:
                    out +=
                        "<rect x=\"\(n(x + 7.5))\" y=\"\(n(y))\" width=\"1.2\" height=\"12\" fill=\"\(Palette.tick)\"/>"
                case .spawned:
                    spawnedGlyph(x: x + 8, cy: cy)
                case .suspended:
                    suspendedGlyph(x: x + 8, cy: cy)
                case .resumed:
                    resumedGlyph(x: x + 8, cy: cy)
                case .exited:
                    exitedGlyph(x: x + 8, cy: cy)
                case .detached:
                    detachedGlyph(x: x + 8, cy: cy)
                case .error:
                    errorGlyph(x: x + 8, top: y + 1)
                }
                out += "<text x=\"\(n(x + 22))\" y=\"\(n(y + 10))\">\(escape(item.label))</text>\n"
            }
        }
        out += "</g>\n"
    }

    // MARK: Axis

    /// Tick spacing in seconds: 1, 2 or 5 times a power of ten, about 100 px apart.
    package var tickStep: Double {
        let raw = 100 / pixelsPerSecond
        // Times near Double's limits (a hand-made trace) leave no finite step: no ticks.
        guard raw.isFinite, raw > 0 else { return .infinity }
        var decade = 1e-6
        while decade * 10 <= raw { decade *= 10 }
        for multiple in [1.0, 2, 5, 10] where decade * multiple >= raw {
            return decade * multiple
        }
        return decade * 10
    }

    /// Tick times from the start of the axis to its end.
    package var tickTimes: [Double] {
        let step = tickStep
        let first = (tracks.startTime / step).rounded(.up)
        let last = (tracks.endTime / step + 1e-9).rounded(.down)
        // A tick every 100 pixels or so: a count beyond that, or an index no Int holds, comes
        // from times too large to tell apart (a hand-made trace), which get the start alone.
        guard step.isFinite, first <= last, last - first <= 10_000, first.magnitude < 1e15, last.magnitude < 1e15
        else { return [tracks.startTime] }
        return (Int(first)...Int(last)).map { Double($0) * step }
    }

    package var usesSeconds: Bool { tracks.endTime >= 2 }

    package func tickLabel(_ time: Double) -> String {
        let step = usesSeconds ? tickStep : tickStep * 1000
        let value = usesSeconds ? time : time * 1000
        var decimals = 0
        var scaled = step
        while decimals < 6, (scaled - scaled.rounded()).magnitude > 1e-6 * max(1, scaled) {
            decimals += 1
            scaled *= 10
        }
        return fixed(value, decimals) + (usesSeconds ? " s" : " ms")
    }

    package mutating func axis(labelsAt y: Double, gridFrom top: Double, gridTo bottom: Double) {
        out += "<g class=\"axis\" font-size=\"11\" fill=\"\(Palette.muted)\">\n"
        out += "<line x1=\"\(n(plotX))\" y1=\"\(n(top))\" x2=\"\(n(plotX + plotWidth))\" y2=\"\(n(top))\" "
        out += "stroke=\"\(Palette.muted)\" stroke-width=\"1\"/>\n"
        for time in tickTimes {
            let px = x(time)
            out += "<line x1=\"\(n(px))\" y1=\"\(n(top - 4))\" x2=\"\(n(px))\" y2=\"\(n(bottom))\" "
            out += "stroke=\"\(Palette.grid)\" stroke-width=\"1\"/>"
            out += "<text x=\"\(n(px))\" y=\"\(n(y))\" text-anchor=\"middle\">\(tickLabel(time))</text>\n"
        }
        out += "</g>\n"
    }

    package mutating func axisLabels(at y: Double) {
        out += "<g class=\"axis\" font-size=\"11\" fill=\"\(Palette.muted)\">\n"
        for time in tickTimes {
            out += "<text x=\"\(n(x(time)))\" y=\"\(n(y))\" text-anchor=\"middle\">\(tickLabel(time))</text>\n"
        }
        out += "</g>\n"
    }

    // MARK: Host row

    package mutating func hostLane(top: Double, linesTo bottom: Double) {
        let cy = top + 9
        out += "<g class=\"host\">\n"
        out +=
            "<text x=\"\(n(margin + 4))\" y=\"\(n(cy + 4))\" fill=\"\(Palette.muted)\" font-style=\"italic\">host</text>\n"
        func name(_ event: TraceEvent) -> String {
            event.kind == .error ? "refused \(event.op ?? "?")" : (event.name ?? event.kind.rawValue)
        }
        // The diamonds first, so that no label lands on one (`quit` and `stopped` come
        // within a few pixels of each other).
        var row = LabelRow(bounds: plotX...(width - margin), gap: 5)
        for event in tracks.hostEvents { row.block(center: x(event.time), halfWidth: 5) }
        for event in tracks.hostEvents {
            let px = x(event.time)
            out += "<line x1=\"\(n(px))\" y1=\"\(n(cy + 5))\" x2=\"\(n(px))\" y2=\"\(n(bottom))\" "
            out += "stroke=\"\(Palette.muted)\" stroke-width=\"1\" stroke-dasharray=\"3 3\" opacity=\"0.5\"/>"
            // The title says the whole of an error (a damaged session file set aside, say).
            let detail = event.kind == .error ? event.message.map { ": \($0)" } ?? "" : ""
            out += "<g class=\"marker\"><title>\(escape("\(name(event))\(detail) @ \(formatTime(event.time))"))</title>"
            let color = event.kind == .error ? Palette.error : Palette.muted
            out +=
                "<path d=\"M\(n(px)) \(n(cy - 5))L\(n(px + 5)) \(n(cy))L\(n(px)) \(n(cy + 5))L\(n(px - 5)) \(n(cy))Z\" "
            out += "fill=\"\(color)\"/></g>\n"
        }
        // Labels over every marker, with a halo.
        let width = { (text: String) in self.textWidth(text, size: 11) }
        for event in tracks.hostEvents {
            guard let label = row.place([name(event)], beside: x(event.time), halfWidth: 5, width: width) else {
                continue
            }
            out += "<text x=\"\(n(label.x))\" y=\"\(n(cy + 4))\" text-anchor=\"\(label.anchor.rawValue)\" "
            out += "font-size=\"11\" fill=\"\(Palette.muted)\" stroke=\"#ffffff\" stroke-width=\"3\" "
            out += "paint-order=\"stroke\" stroke-linejoin=\"round\">\(escape(label.text))</text>\n"
        }
        out += "</g>\n"
    }
}

// MARK: - Formatting helpers

extension Drawing {
    /// A rough text width for layout (average glyph of a sans-serif font; bold glyphs are
    /// wider, and underestimating would let a label run into the marker after it).
    package func textWidth(_ text: String, size: Double, bold: Bool = false) -> Double {
        Double(text.count) * size * (bold ? 0.66 : 0.6)
    }

    /// A coordinate with at most two decimals, no trailing zeros.
    package func n(_ value: Double) -> String {
        let hundredths = Int((value.isFinite ? value * 100 : 0).rounded())
        let sign = hundredths < 0 ? "-" : ""
        let magnitude = hundredths.magnitude
        let whole = magnitude / 100
        let fraction = magnitude % 100
        if fraction == 0 { return "\(sign)\(whole)" }
        if fraction % 10 == 0 { return "\(sign)\(whole).\(fraction / 10)" }
        return "\(sign)\(whole).\(fraction < 10 ? "0" : "")\(fraction)"
    }

    /// `value` with exactly `decimals` decimals.
    package func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value.isFinite ? min(max(value, -1e12), 1e12) * scale : 0).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = scaled.magnitude
        let unit = UInt(scale)
        guard decimals > 0 else { return "\(sign)\(magnitude)" }
        let fraction = String(magnitude % unit)
        return "\(sign)\(magnitude / unit)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// Seconds with microseconds, as the trace writes them: `0.016053s`.
    package func formatTime(_ seconds: Double) -> String {
        fixed(seconds, 6) + "s"
    }

    /// Milliseconds with microseconds, for lists of callbacks: `16.053 ms`.
    package func formatMilliseconds(_ seconds: Double) -> String {
        fixed(seconds * 1000, 3) + " ms"
    }

    /// A duration: `0.250 ms`, `114.2 ms`, `2.35 s`.
    package func formatDuration(_ seconds: Double) -> String {
        let milliseconds = seconds * 1000
        if milliseconds < 10 { return fixed(milliseconds, 3) + " ms" }
        if milliseconds < 1000 { return fixed(milliseconds, 1) + " ms" }
        return fixed(seconds, 2) + " s"
    }

    /// XML text and attribute escaping.
    package func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                // XML 1.0 forbids most control characters, even escaped.
                if character.value < 0x20 && character != "\t" && character != "\n" && character != "\r" {
                    result += "\u{FFFD}"
                } else {
                    result.unicodeScalars.append(character)
                }
            }
        }
        return result
    }
}
