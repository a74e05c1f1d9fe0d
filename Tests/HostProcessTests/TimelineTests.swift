import Glibc
import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

// The SVG timeline, the Perfetto export and the per-scene tracks they share, on traces
// built by hand; plus `hostctl timeline`'s exit codes.

// MARK: - Tracks

@Suite struct TimelineTests {
    @Test func tracksFollowTheTrace() throws {
        let events = MultiSceneTrace.scenes(threeScenes)
        let tracks = SceneTracks(events: events)
        #expect(tracks.tracks.map(\.scene) == threeScenes)
        #expect(tracks.hostEvents.map { $0.name } == ["started", "quit"])
        #expect(tracks.startTime == 0)
        #expect(tracks.endTime == 0.4)
        #expect(tracks.eventCount == events.count)

        let notes = try #require(tracks.track(for: "Notes"))
        let noteEvents = events.filter { $0.scene == "Notes" }
        #expect(notes.states.map(\.state) == noteEvents.filter { $0.kind == .state }.compactMap(\.to))
        #expect(notes.callbacks.map(\.name) == noteEvents.filter { $0.kind == .callback }.compactMap(\.name))
        #expect(notes.processMarkers.map(\.event) == [.spawned, .suspended, .resumed, .exited])
        #expect(notes.errors.count == 1)

        // Each state lasts until the next one; the last (unattached) stays open to the end.
        for (span, following) in zip(notes.states, notes.states.dropFirst()) {
            #expect(span.end == following.start)
            #expect(!span.isOpen)
        }
        let last = try #require(notes.states.last)
        #expect(last.state == .unattached && last.isOpen && last.end == 0.4)

        #expect(notes.workers.count == 1)
        let worker = notes.workers[0]
        #expect(worker.pid == 1001)
        #expect(worker.exit?.reason == .killed)
        #expect(worker.exit?.label == "killed SIGKILL")
        #expect(worker.start < worker.end)

        let suspended = notes.processMarkers[1].time
        let resumed = notes.processMarkers[2].time
        #expect(notes.suspensions == [SuspensionSpan(pid: 1001, start: suspended, end: resumed, isOpen: false)])
        #expect(notes.callbacks[5].label == "viewDidLoad (Root)")
    }

    @Test func openSpansEndWithTheTrace() {
        let events = [
            TraceEvent(seq: 1, time: 0.001, kind: .process, scene: "A", processEvent: .spawned, pid: 7),
            TraceEvent(seq: 2, time: 0.002, kind: .callback, scene: "A", name: "sceneDidEnterBackground"),
            TraceEvent(seq: 3, time: 0.003, kind: .state, scene: "A", from: .unattached, to: .background),
            TraceEvent(seq: 4, time: 0.010, kind: .process, scene: "A", processEvent: .suspended, pid: 7),
            TraceEvent(seq: 5, time: 0.020, kind: .host, name: "stopped"),
        ]
        let track = SceneTracks(events: events).tracks[0]
        #expect(
            track.states == [
                StateSpan(state: .background, previous: .unattached, start: 0.003, end: 0.020, seq: 3, isOpen: true)
            ]
        )
        #expect(track.workers.count == 1 && track.workers[0].isOpen && track.workers[0].end == 0.020)
        #expect(track.suspensions == [SuspensionSpan(pid: 7, start: 0.010, end: 0.020, isOpen: true)])
    }

    @Test func emptyTraceHasNoTracks() {
        let tracks = SceneTracks(events: [])
        #expect(tracks.tracks.isEmpty)
        #expect(tracks.duration > 0)
        #expect(XMLCheck.problem(in: SVGTimeline.render([])) == nil)
    }

    /// Times near Double's limits (a hand-made trace `verify` accepts) are drawn, with the
    /// start as the only tick: they hung the axis's tick step, or trapped converting a tick.
    @Test(.timeLimit(.minutes(1)), arguments: [[0, 1e307], [-1e306, 0.5], [1e300, 1e300], [-1e307, 1e307]])
    func timesNearDoublesLimitsAreDrawn(times: [Double]) {
        let events = times.enumerated().map { index, time in
            TraceEvent(
                seq: index + 1,
                time: time,
                kind: .callback,
                scene: "A",
                name: "viewDidLoad",
                viewController: "Root"
            )
        }
        let svg = SVGTimeline.render(events)
        #expect(XMLCheck.problem(in: svg) == nil)
        #expect(!svg.contains("nan") && !svg.contains("inf"))
    }

    // MARK: SVG

    @Test func svgOfThreeScenesIsWellFormedWithOneTrackPerScene() throws {
        let events = MultiSceneTrace.scenes(threeScenes)
        let svg = SVGTimeline.render(events)
        #expect(XMLCheck.problem(in: svg) == nil)
        #expect(svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\""))

        let groups = trackGroups(svg)
        #expect(groups.map(\.scene) == threeScenes)
        for (scene, group) in groups {
            let sceneEvents = events.filter { $0.scene == scene }
            // Ticks name their callbacks on hover (bursts share a tick: see tickMerging…).
            #expect(occurrences(of: "class=\"tick\"", in: group) >= 1)
            #expect(group.contains(" ms viewDidLoad (Root)\n"))
            #expect(group.contains(" ms didReceiveNotification sync"))
            // One marker per process event; the exit says why.
            #expect(occurrences(of: "class=\"marker spawned\"", in: group) == 1)
            #expect(occurrences(of: "class=\"marker suspended\"", in: group) == 1)
            #expect(occurrences(of: "class=\"marker resumed\"", in: group) == 1)
            #expect(occurrences(of: "class=\"marker exited\"", in: group) == 1)
            #expect(group.contains("killed SIGKILL"))
            #expect(group.contains("url(#suspended-hatch)"))
            #expect(occurrences(of: "class=\"marker error\"", in: group) == 1)
            // A span per state other than unattached, plus the worker and the suspension.
            let drawnStates = sceneEvents.filter { $0.kind == .state && $0.to != .unattached }.count
            #expect(occurrences(of: "class=\"span\"", in: group) == drawnStates + 2)
        }
        for state in ["foregroundActive", "foregroundInactive", "background", "suspended"] {
            #expect(svg.contains(">\(state)</text>"), "legend names \(state)")
        }
        #expect(svg.contains(">quit</text>"))
    }

    @Test func svgWithFiftyScenesGrowsTallerAndKeepsLabelsApart() throws {
        let svg = SVGTimeline.render(MultiSceneTrace.scenes(fiftyScenes))
        #expect(XMLCheck.problem(in: svg) == nil)
        let groups = trackGroups(svg)
        #expect(groups.map(\.scene) == fiftyScenes)

        // Tracks stacked without overlap: each starts at least 16 px below the previous one.
        let tops = groups.map { group -> Double in
            let start = group.text.range(of: "translate(0 ")!.upperBound
            return Double(group.text[start...].prefix { $0 != ")" })!
        }
        for (top, below) in zip(tops, tops.dropFirst()) { #expect(below - top >= 16) }
        let height = try #require(Double(attribute("height", of: svg)))
        #expect(height >= tops.last! + 16)
        let width = try #require(Double(attribute("width", of: svg)))
        #expect(width >= 600 && width <= 20_000)
    }

    @Test func svgEscapesSceneNames() {
        let name = #"<b>&"quoted" 'scene'"#
        let events = [
            TraceEvent(seq: 1, time: 0.001, kind: .process, scene: name, processEvent: .spawned, pid: 3),
            TraceEvent(seq: 2, time: 0.002, kind: .callback, scene: name, name: "didFinishLaunching"),
            TraceEvent(
                seq: 3,
                time: 0.003,
                kind: .process,
                scene: name,
                processEvent: .exited,
                pid: 3,
                reason: .crashed,
                signal: "SEGV"
            ),
        ]
        let svg = SVGTimeline.render(events)
        #expect(XMLCheck.problem(in: svg) == nil)
        #expect(svg.contains(#"data-scene="&lt;b&gt;&amp;&quot;quoted&quot; &apos;scene&apos;""#))
        #expect(svg.contains("crashed SIGSEGV"))
    }

    // MARK: Callback ticks

    @Test func callbackBurstsSplitAtGapsAndStayShort() throws {
        func callback(_ seq: Int, _ time: Double) -> TraceEvent {
            TraceEvent(seq: seq, time: time, kind: .callback, scene: "A", name: "c\(seq)")
        }
        let times = [0.001, 0.0011, 0.0012, 0.003, 0.0031, 0.010, 0.0101, 0.0102, 0.0103, 0.0104]
        let events = times.enumerated().map { callback($0.offset + 1, $0.element) }
        let track = try #require(SceneTracks(events: events).track(for: "A"))

        // Within 0.5 ms of the previous one: three bursts, in order, every callback once.
        let bursts = track.callbackBursts(gap: 0.0005, maximumSpan: 0.001)
        #expect(bursts.map { $0.callbacks.map(\.seq) } == [[1, 2, 3], [4, 5], [6, 7, 8, 9, 10]])
        #expect(bursts[0].start == 0.001 && bursts[0].end == 0.0012)
        // A burst lasts at most `maximumSpan`, however closely its callbacks follow each other.
        let short = track.callbackBursts(gap: 0.0005, maximumSpan: 0.00025)
        #expect(short.map { $0.callbacks.map(\.seq) } == [[1, 2, 3], [4, 5], [6, 7, 8], [9, 10]])
        // No gap: a tick per callback, as before.
        #expect(track.callbackBursts(gap: 0, maximumSpan: 0).count == times.count)
    }

    /// Bursts of callbacks (a connect runs a dozen within a millisecond) share a tick whose
    /// title lists them all, so every callback can be found by hovering; the ticks left
    /// do not overlap.
    @Test(arguments: [threeScenes, fiftyScenes])
    func tickMergingKeepsEveryCallbackReachable(_ scenes: [String]) throws {
        let events = MultiSceneTrace.scenes(scenes)
        let svg = SVGTimeline.render(events)
        #expect(XMLCheck.problem(in: svg) == nil)
        var tickCount = 0
        for (scene, group) in trackGroups(svg) {
            let callbacks = events.filter { $0.scene == scene && $0.kind == .callback }
            let ticks = ticks(in: group)
            tickCount += ticks.count
            // Every callback of the scene, in order, with its time to the microsecond.
            let lines = ticks.flatMap(\.lines)
            #expect(lines.map(\.label) == callbacks.map { CallbackTick($0).label }, "\(scene)")
            for (line, callback) in zip(lines, callbacks) {
                #expect((line.milliseconds - callback.time * 1000).magnitude < 0.0006, "\(scene): \(line)")
            }
            for (tick, next) in zip(ticks, ticks.dropFirst()) {
                #expect(tick.x + tick.width <= next.x, "\(scene): ticks overlap at \(tick.x)")
            }
        }
        // The launch burst of each scene is one tick: far fewer ticks than callbacks.
        #expect(tickCount * 2 < events.filter { $0.kind == .callback }.count)
    }

    @Test func aLongBurstIsListedUpToACap() throws {
        var events = [TraceEvent(seq: 1, time: 0.001, kind: .process, scene: "A", processEvent: .spawned, pid: 7)]
        for index in 0..<100 {
            events.append(
                TraceEvent(
                    seq: events.count + 1,
                    time: 0.002 + Double(index) * 1e-6,
                    kind: .callback,
                    scene: "A",
                    name: "didReceiveNotification",
                    notification: "n\(index)"
                )
            )
        }
        events.append(TraceEvent(seq: events.count + 1, time: 0.2, kind: .host, name: "stopped"))
        let svg = SVGTimeline.render(events)
        let ticks = ticks(in: trackGroups(svg)[0].text)
        #expect(ticks.count == 1)
        let lines = try #require(ticks.first).lines
        #expect(lines.count == 41)
        #expect(lines.first?.label == "didReceiveNotification n0")
        #expect(lines[39].label == "didReceiveNotification n39")
        #expect(svg.contains("didReceiveNotification n39\n… and 60 more</title>"))
    }

    // MARK: Labels
}

// MARK: - Helpers

/// The `<g class="track" data-scene="…">` groups of an SVG, each with its text up to the next track.
func trackGroups(_ svg: String) -> [(scene: String, text: Substring)] {
    let marker = "<g class=\"track\" data-scene=\""
    var groups: [(String, Substring)] = []
    var rest = svg[...]
    while let start = rest.range(of: marker) {
        let after = rest[start.upperBound...]
        let scene = String(after.prefix { $0 != "\"" })
        let end = after.range(of: marker)?.lowerBound ?? after.endIndex
        groups.append((scene, rest[start.lowerBound..<end]))
        rest = rest[end...]
    }
    return groups
}

/// A callback tick of an SVG: its left edge, its width and the lines of its title.
struct Tick {
    var x: Double
    var width: Double
    var lines: [(milliseconds: Double, label: String)]
}

/// The `<rect class="tick">` elements of `text`, in document order.
func ticks(in text: some StringProtocol) -> [Tick] {
    elements(in: text, from: "<rect class=\"tick\"", to: "</rect>").map { element in
        let title = unescape(String(element.split(separator: "<title>", maxSplits: 1)[1].prefix { $0 != "<" }))
        let lines = title.split(separator: "\n").map { line -> (Double, String) in
            guard let unit = line.range(of: " ms ") else { return (.nan, String(line)) }
            return (Double(line[..<unit.lowerBound]) ?? .nan, String(line[unit.upperBound...]))
        }
        return Tick(x: number("x", in: element), width: number("width", in: element), lines: lines)
    }
}

/// A `<text>` of an SVG with its extent as the renderer estimates it (bold 0.66 em a glyph,
/// else 0.6 em: what it keeps clear of markers).
struct TextLabel {
    var text: String
    var bold: Bool
    var extent: ClosedRange<Double>
}

func textLabels(in text: some StringProtocol) -> [TextLabel] {
    elements(in: text, from: "<text ", to: "</text>").map { element in
        let content = unescape(String(element[element.range(of: ">")!.upperBound...].prefix { $0 != "<" }))
        let bold = element.contains("font-weight=\"bold\"")
        let size = element.contains("font-size=\"") ? number("font-size", in: element) : 12
        let width = Double(content.count) * size * (bold ? 0.66 : 0.6)
        let x = number("x", in: element)
        let extent = element.contains("text-anchor=\"end\"") ? (x - width)...x : x...(x + width)
        return TextLabel(text: content, bold: bold, extent: extent)
    }
}

/// The centres of the process markers' glyphs of a track.
func markerCentres(in track: some StringProtocol) -> [(x: Double, y: Double)] {
    elements(in: track, from: "<g class=\"marker ", to: "</g>").compactMap { element -> (Double, Double)? in
        if element.contains("class=\"marker error\"") { return nil }
        if element.contains("<circle") { return (number("cx", in: element), number("cy", in: element)) }
        if let move = element.range(of: "<path d=\"M") {
            // ✕ starts at (x-4, y-4), ▶ at (x-3, y-5).
            let start = element[move.upperBound...].prefix { $0 != "L" }.split(separator: " ").compactMap { Double($0) }
            return element.contains("marker exited") ? (start[0] + 4, start[1] + 4) : (start[0] + 3, start[1] + 5)
        }
        return (number("x", in: element) + 4.5, number("y", in: element) + 4.5)  // ⏸: a 9 px square
    }
}

/// The centres of the host row's diamonds (`M x y-5 L …`).
func diamondCentres(in host: some StringProtocol) -> [Double] {
    elements(in: host, from: "<g class=\"marker\"", to: "</g>").map { element in
        let path = element[element.range(of: "<path d=\"M")!.upperBound...]
        return Double(path.prefix { $0 != " " })!
    }
}

/// Each element of `text` from `opening` (its start tag's beginning) to the first `closing`
/// after it (the elements looked for do not nest).
func elements(in text: some StringProtocol, from opening: String, to closing: String) -> [Substring] {
    var found: [Substring] = []
    var rest = Substring(text)
    while let start = rest.range(of: opening), let end = rest[start.upperBound...].range(of: closing) {
        found.append(rest[start.lowerBound..<end.upperBound])
        rest = rest[end.upperBound...]
    }
    return found
}

/// The value of the number attribute `name` of an element.
func number(_ name: String, in element: some StringProtocol) -> Double {
    guard let start = element.range(of: " \(name)=\"") else { return .nan }
    return Double(element[start.upperBound...].prefix { $0 != "\"" }) ?? .nan
}

func unescape(_ text: String) -> String {
    text.replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
        .replacing("&apos;", with: "'").replacing("&amp;", with: "&")
}

func occurrences(of needle: String, in text: some StringProtocol) -> Int {
    var count = 0
    var rest = Substring(text)
    while let range = rest.range(of: needle) {
        count += 1
        rest = rest[range.upperBound...]
    }
    return count
}

/// The value of the root element's `name` attribute.
func attribute(_ name: String, of svg: String) -> String {
    let root = svg[svg.range(of: "<svg ")!.upperBound...]
    let start = root.range(of: " \(name)=\"")!.upperBound
    return String(root[start...].prefix { $0 != "\"" })
}

/// A minimal XML well-formedness check: tags balance with one root, attribute values are
/// quoted, `&` starts an entity, no `<` inside text or attribute values.
enum XMLCheck {
    static func problem(in document: String) -> String? {
        let text = Array(document.unicodeScalars)
        var stack: [String] = []
        var roots = 0
        var index = 0
        func entityOK(at position: Int) -> Bool {
            let rest = String(String.UnicodeScalarView(text[position..<min(position + 8, text.count)]))
            return ["&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#"].contains { rest.hasPrefix($0) }
        }
        while index < text.count {
            let character = text[index]
            if character == "&" && !entityOK(at: index) { return "bare & at \(index)" }
            if character == ">" && stack.isEmpty && roots > 0 { return "text after the root at \(index)" }
            guard character == "<" else {
                index += 1
                continue
            }
            // Find the end of the tag, honouring quotes.
            var end = index + 1
            var quote: Unicode.Scalar?
            while end < text.count {
                let c = text[end]
                if let open = quote {
                    if c == open {
                        quote = nil
                    } else if c == "<" {
                        return "< inside an attribute at \(end)"
                    } else if c == "&" && !entityOK(at: end) {
                        return "bare & in an attribute at \(end)"
                    }
                } else if c == "\"" || c == "'" {
                    quote = c
                } else if c == ">" {
                    break
                } else if c == "<" {
                    return "< inside a tag at \(end)"
                }
                end += 1
            }
            guard end < text.count else { return "unterminated tag at \(index)" }
            let tag = String(String.UnicodeScalarView(text[(index + 1)..<end]))
            index = end + 1
            if tag.hasPrefix("?") {
                guard tag.hasSuffix("?") else { return "bad processing instruction" }
                continue
            }
            if tag.hasPrefix("!--") { continue }
            if tag.hasPrefix("/") {
                let name = String(tag.dropFirst())
                guard stack.popLast() == name else { return "</\(name)> closes \(stack.last ?? "nothing")" }
                continue
            }
            let name = String(tag.prefix { $0 != " " && $0 != "/" && $0 != "\n" })
            guard let first = name.first, first.isLetter else { return "bad tag name \"\(name)\"" }
            if stack.isEmpty {
                roots += 1
                if roots > 1 { return "more than one root element" }
            }
            if !tag.hasSuffix("/") { stack.append(name) }
        }
        if let open = stack.last { return "<\(open)> never closed" }
        return roots == 1 ? nil : "no root element"
    }
}

// MARK: Files and processes

/// Files, directories and `hostctl` runs for the CLI test.
enum TimelineTestIO {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/timeline-test-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        return String(cString: path!)
    }

    static func removeTree(_ directory: String) {
        guard let handle = opendir(directory) else { return }
        while let entry = readdir(handle) {
            let name = directoryEntryName(entry)
            if name != "." && name != ".." { unlink(directory + "/" + name) }
        }
        closedir(handle)
        rmdir(directory)
    }

    static func writeFile(_ path: String, _ bytes: [UInt8]) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(descriptor >= 0)
        bytes.withUnsafeBytes { _ = write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
    }

    static func readFile(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs the built `hostctl` with `arguments`; stdout and stderr through files.
    static func hostctl(_ arguments: [String]) -> (status: Int32, stdout: String, stderr: String) {
        let directory = TimelineTestIO.temporaryDirectory()
        defer { TimelineTestIO.removeTree(directory) }
        let outPath = directory + "/out"
        let errPath = directory + "/err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = [TestWorker.hostctl] + arguments
        var pointers: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        var environment: [UnsafeMutablePointer<CChar>?] = [nil]
        var pid: pid_t = 0
        guard posix_spawn(&pid, argv[0], &actions, nil, &pointers, &environment) == 0 else {
            return (-1, "", "cannot spawn \(argv[0])")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
        return (exitStatus, TimelineTestIO.readFile(outPath), TimelineTestIO.readFile(errPath))
    }
}
