import HostProcess
import Protocol
import SceneModel

/// The scene tracks of a timeline drawing: spans, glyphs and their labels.
extension Drawing {
    package mutating func track(_ track: SceneTrack, top: Double, height: Double) {
        let tickTop = 2.0
        let tickHeight = 7.0
        let barTop = tickTop + tickHeight + 1
        let barHeight = height - barTop - 3
        let cy = barTop + barHeight / 2

        out += "<g class=\"track\" data-scene=\"\(escape(track.scene))\" transform=\"translate(0 \(n(top)))\">\n"
        let lane = track.index % 2 == 0 ? Palette.laneEven : Palette.laneOdd
        out += "<rect x=\"\(n(margin))\" y=\"0\" width=\"\(n(plotX + plotWidth - margin))\" height=\"\(n(height))\" "
        out += "fill=\"\(lane)\"/>\n"

        // The label, truncated to the label column; the full name and pids on hover.
        var pids = track.pids.map { "pid \($0)" }.joined(separator: ", ")
        if !pids.isEmpty { pids = " — worker " + pids }
        out += "<text x=\"\(n(margin + 4))\" y=\"\(n(cy + 4))\" fill=\"\(Palette.text)\">"
        out += "<title>\(escape("scene \(track.scene)\(pids)"))</title>"
        out += escape(truncated(track.scene, toWidth: labelWidth - 12, size: 12)) + "</text>\n"

        for worker in track.workers {
            var what = "worker" + (worker.pid.map { " pid \($0)" } ?? "")
            what += worker.exit.map { " (\($0.label))" } ?? " (running at the end of the trace)"
            span(worker.start, worker.end, top: barTop, height: barHeight, fill: Palette.worker, title: what)
        }
        // Spans narrower than 2 px (a brief interruption) are drawn 2 px wide, after the
        // others, so that they stay visible next to their long neighbours.
        let minimum = 2 / pixelsPerSecond
        for short in [false, true] {
            for state in track.states where (state.end - state.start < minimum) == short {
                guard let color = SVGTimeline.color(for: state.state) else { continue }
                span(state.start, state.end, top: barTop, height: barHeight, fill: color, title: state.state.rawValue)
            }
        }
        // A presentation is a band along the bottom of the bar.
        for presentation in track.presentations {
            span(
                presentation.start,
                presentation.end,
                top: barTop + barHeight - 4,
                height: 4,
                fill: Palette.presentation,
                title: "presented " + presentation.label
            )
        }
        for suspension in track.suspensions {
            let title = "suspended" + (suspension.pid.map { " (pid \($0))" } ?? "")
            span(
                suspension.start,
                suspension.end,
                top: barTop + 2,
                height: barHeight - 4,
                fill: "url(#suspended-hatch)",
                title: title
            )
        }

        // Callbacks closer than 2 px share a tick: separate ticks would pile up and only the
        // topmost could be hovered. A tick spans at most 6 px (a steady stream of callbacks
        // stays a row of ticks), and one of several is at least 2 px wide, to tell it apart.
        let bursts = track.callbackBursts(gap: 2 / pixelsPerSecond, maximumSpan: 6 / pixelsPerSecond)
        for burst in bursts {
            let left = x(burst.start) - 0.5
            let right = x(burst.end) + 0.5
            let tickWidth = max(right - left, burst.callbacks.count > 1 ? 2 : 1)
            let tickX = (left + right) / 2 - tickWidth / 2
            out += "<rect class=\"tick\" x=\"\(n(tickX))\" y=\"\(n(tickTop))\" width=\"\(n(tickWidth))\" "
            out += "height=\"\(n(tickHeight))\" fill=\"\(Palette.tick)\" "
            out += "stroke=\"#000000\" stroke-opacity=\"0\" stroke-width=\"2\">"
            out += "<title>\(escape(tickTitle(burst)))</title></rect>\n"
        }

        for error in track.errors {
            let px = x(error.time)
            let text = "refused \(error.op ?? "?"): \(error.message ?? "") @ \(formatTime(error.time))"
            out += "<g class=\"marker error\"><title>\(escape(text))</title>"
            errorGlyph(x: px, top: tickTop - 1)
            out += "</g>\n"
        }

        // Exits last: a red X stays on top of a marker it still overlaps.
        let offsets = glyphOffsets(track.processMarkers, shift: barHeight >= 20 ? 5 : 4.5)
        let ordered =
            track.processMarkers.indices.filter { track.processMarkers[$0].event != .exited }
            + track.processMarkers.indices.filter { track.processMarkers[$0].event == .exited }
        var row = LabelRow(bounds: plotX...(width - margin))
        for index in ordered {
            let marker = track.processMarkers[index]
            let px = x(marker.time)
            let glyphY = cy + offsets[index]
            row.block(center: px, halfWidth: Self.glyphHalfWidth(marker.event))
            out += "<g class=\"marker \(marker.event.rawValue)\">"
            out += "<title>\(escape("\(marker.detail) @ \(formatTime(marker.time))"))</title>"
            switch marker.event {
            case .spawned, .attached: spawnedGlyph(x: px, cy: glyphY)
            case .suspended: suspendedGlyph(x: px, cy: glyphY)
            case .resumed: resumedGlyph(x: px, cy: glyphY)
            case .exited: exitedGlyph(x: px, cy: glyphY)
            case .detached: detachedGlyph(x: px, cy: glyphY)
            }
            out += "</g>\n"
        }
        // Exit reasons last, over everything, each where it covers no marker (a respawn
        // right after a kill) and no other reason; when the full reason does not fit near
        // its X, the reason alone (`killed`), else none: the X's title still says it.
        let width = { (text: String) in self.textWidth(text, size: 10.5, bold: true) }
        for marker in track.processMarkers where marker.event == .exited {
            let reason = marker.reason?.rawValue ?? "exited"
            let texts = marker.label == reason ? [reason] : [marker.label, reason]
            guard
                let label = row.place(
                    texts,
                    beside: x(marker.time),
                    halfWidth: Self.glyphHalfWidth(.exited),
                    width: width
                )
            else { continue }
            out += "<text x=\"\(n(label.x))\" y=\"\(n(cy + 3.5))\" text-anchor=\"\(label.anchor.rawValue)\" "
            out += "font-size=\"10.5\" font-weight=\"bold\" fill=\"\(Palette.exitedText)\" stroke=\"#ffffff\" "
            out += "stroke-width=\"3\" stroke-opacity=\"0.85\" paint-order=\"stroke\" stroke-linejoin=\"round\">"
            out += "\(escape(label.text))</text>\n"
        }
        out += "</g>\n"
    }

    /// A span at least a pixel wide, with its state and times on hover.
    package mutating func span(_ start: Double, _ end: Double, top: Double, height: Double, fill: String, title: String)
    {
        let left = x(start)
        let spanWidth = max(x(end) - left, 2)
        let text = "\(title): \(formatTime(start)) – \(formatTime(end)) (\(formatDuration(end - start)))"
        out +=
            "<rect class=\"span\" x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(spanWidth))\" height=\"\(n(height))\" "
        out += "fill=\"\(fill)\"><title>\(escape(text))</title></rect>\n"
    }

    /// How many callbacks a tick's title names before `… and N more`: enough for any
    /// connect or background burst, short enough for a tooltip to fit on the screen.
    package static let maximumTickLines = 40

    /// A tick's title: each callback on its own line with its time, in trace order.
    package func tickTitle(_ burst: CallbackBurst) -> String {
        var lines = burst.callbacks.prefix(Self.maximumTickLines).map { "\(formatMilliseconds($0.time)) \($0.label)" }
        let more = burst.callbacks.count - lines.count
        if more > 0 { lines.append("… and \(more) more") }
        return lines.joined(separator: "\n")
    }

    // MARK: Glyphs

    /// The vertical offset from the bar's middle of each of `markers` (in trace order). A
    /// marker whose glyph would hide most of the previous one's (a respawn half a millisecond
    /// after a kill, a resume right after a suspend) is drawn in the other half of the bar:
    /// the glyphs of such a run alternate above and below the middle by `shift`. Each stays
    /// at its own time; moving it sideways would misstate when it happened.
    package func glyphOffsets(_ markers: [ProcessMarker], shift: Double) -> [Double] {
        var offsets = [Double](repeating: 0, count: markers.count)
        for index in markers.indices.dropFirst() {
            let previous = markers[index - 1]
            let marker = markers[index]
            let reach = Self.glyphHalfWidth(previous.event) + Self.glyphHalfWidth(marker.event)
            // Glyphs touching by a pixel or two stay side by side on the middle line.
            guard (x(marker.time) - x(previous.time)).magnitude < reach - 2 else { continue }
            if offsets[index - 1] == 0 { offsets[index - 1] = -shift }
            offsets[index] = -offsets[index - 1]
        }
        return offsets
    }

    /// How far a process marker's glyph reaches either side of its time, halo included.
    package static func glyphHalfWidth(_ event: TraceEvent.ProcessEvent) -> Double {
        switch event {
        case .spawned, .attached: 4.5
        case .suspended: 5
        case .resumed: 5.5
        case .exited, .detached: 6
        }
    }

    package mutating func spawnedGlyph(x: Double, cy: Double) {
        out +=
            "<circle cx=\"\(n(x))\" cy=\"\(n(cy))\" r=\"3.5\" fill=\"#ffffff\" stroke=\"\(Palette.text)\" stroke-width=\"1.5\"/>"
    }

    package mutating func suspendedGlyph(x: Double, cy: Double) {
        out +=
            "<rect x=\"\(n(x - 4.5))\" y=\"\(n(cy - 4.5))\" width=\"9\" height=\"9\" rx=\"1.5\" fill=\"\(Palette.marker)\" "
        out += "stroke=\"#ffffff\" stroke-width=\"1\"/>"
        out += "<rect x=\"\(n(x - 2.5))\" y=\"\(n(cy - 2.5))\" width=\"1.8\" height=\"5\" fill=\"#ffffff\"/>"
        out += "<rect x=\"\(n(x + 0.7))\" y=\"\(n(cy - 2.5))\" width=\"1.8\" height=\"5\" fill=\"#ffffff\"/>"
    }

    package mutating func resumedGlyph(x: Double, cy: Double) {
        out += "<path d=\"M\(n(x - 3)) \(n(cy - 5))L\(n(x + 5)) \(n(cy))L\(n(x - 3)) \(n(cy + 5))Z\" "
        out += "fill=\"\(Palette.marker)\" stroke=\"#ffffff\" stroke-width=\"1\" stroke-linejoin=\"round\"/>"
    }

    package mutating func exitedGlyph(x: Double, cy: Double) {
        let d = "M\(n(x - 4)) \(n(cy - 4))L\(n(x + 4)) \(n(cy + 4))M\(n(x + 4)) \(n(cy - 4))L\(n(x - 4)) \(n(cy + 4))"
        out += "<path d=\"\(d)\" stroke=\"#ffffff\" stroke-width=\"4.5\" stroke-linecap=\"round\"/>"
        out += "<path d=\"\(d)\" stroke=\"\(Palette.exited)\" stroke-width=\"2.5\" stroke-linecap=\"round\"/>"
    }

    /// The scene left its app's process, which runs on: a hollow circle, the spawn's mark
    /// emptied, not an exit's X (no process ended).
    package mutating func detachedGlyph(x: Double, cy: Double) {
        out +=
            "<circle cx=\"\(n(x))\" cy=\"\(n(cy))\" r=\"4\" fill=\"none\" stroke=\"\(Palette.muted)\" stroke-width=\"1.5\" "
        out += "stroke-dasharray=\"2 1.5\"/>"
    }

    package mutating func errorGlyph(x: Double, top: Double) {
        out +=
            "<path d=\"M\(n(x - 4.5)) \(n(top))L\(n(x + 4.5)) \(n(top))L\(n(x)) \(n(top + 8))Z\" fill=\"\(Palette.error)\"/>"
    }

    // MARK: Text

    package func truncated(_ text: String, toWidth available: Double, size: Double) -> String {
        guard textWidth(text, size: size) > available else { return text }
        var characters = Array(text)
        while !characters.isEmpty, textWidth(String(characters) + "…", size: size) > available {
            characters.removeLast()
        }
        return String(characters) + "…"
    }
}
