import Glibc
import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// The timeline's layout: tracks, ticks and labels that do not collide.
extension TimelineTests {
    /// A worker suspended, resumed, killed and respawned within a few milliseconds, as the
    /// demo's Notes scene is: the exit reason must not cover the spawn marker, no glyph may
    /// sit on another (close ones alternate above and below the middle of the bar), and the
    /// host row's labels may not cover its diamonds (`quit` and `stopped` come close).
    @Test(arguments: [0.0005, 0.002, 0.02, 0.045])
    func labelsCoverNoMarker(respawnDelay: Double) throws {
        var trace = MultiSceneTrace()
        trace.add(0.0001, TraceEvent(kind: .host, name: "started", pid: 1))
        for (index, scene) in ["Mail", "Notes"].enumerated() {
            let pid = Int32(100 + 10 * index)
            trace.add(0.001, TraceEvent(kind: .process, scene: scene, processEvent: .spawned, pid: pid))
            trace.add(0.002, TraceEvent(kind: .state, scene: scene, from: .unattached, to: .foregroundActive))
            trace.add(0.118, TraceEvent(kind: .process, scene: scene, processEvent: .suspended, pid: pid))
            trace.add(0.119, TraceEvent(kind: .process, scene: scene, processEvent: .resumed, pid: pid))
            trace.add(
                0.120,
                TraceEvent(
                    kind: .process,
                    scene: scene,
                    processEvent: .exited,
                    pid: pid,
                    reason: .killed,
                    signal: "KILL"
                )
            )
            trace.add(
                0.120 + respawnDelay,
                TraceEvent(kind: .process, scene: scene, processEvent: .spawned, pid: pid + 1)
            )
            trace.add(
                0.230,
                TraceEvent(
                    kind: .process,
                    scene: scene,
                    processEvent: .exited,
                    pid: pid + 1,
                    reason: .terminated,
                    status: 0
                )
            )
        }
        trace.add(0.2305, TraceEvent(kind: .host, name: "quit"))
        trace.add(0.2330, TraceEvent(kind: .host, name: "stopped"))
        let svg = SVGTimeline.render(trace.events)
        #expect(XMLCheck.problem(in: svg) == nil)

        for (scene, group) in trackGroups(svg) {
            let labels = textLabels(in: group).filter { $0.bold }
            #expect(labels.map(\.text).contains { $0.hasPrefix("killed") }, "\(scene): the kill is labelled")
            let markers = markerCentres(in: group)
            #expect(markers.count == 6)
            for label in labels {
                for marker in markers {
                    // Glyphs reach about 4 px either side of their time.
                    #expect(
                        !label.extent.overlaps((marker.x - 4)...(marker.x + 4)),
                        "\(scene): \(label.text) covers the marker at \(marker.x)"
                    )
                }
            }
            for (index, marker) in markers.enumerated() {
                for other in markers[(index + 1)...] {
                    let apart = (marker.x - other.x).magnitude >= 6 || (marker.y - other.y).magnitude >= 8
                    #expect(apart, "\(scene): glyphs on top of each other at \(marker) and \(other)")
                }
            }
            for (label, other) in zip(labels, labels.dropFirst()) {
                #expect(!label.extent.overlaps(other.extent), "\(scene): \(label.text) overlaps \(other.text)")
            }
        }

        let hostStart = try #require(svg.range(of: "<g class=\"host\">"))
        let hostEnd = try #require(svg.range(of: "<g class=\"track\"", range: hostStart.upperBound..<svg.endIndex))
        let hostGroup = svg[hostStart.lowerBound..<hostEnd.lowerBound]
        let diamonds = diamondCentres(in: hostGroup)
        let hostLabels = textLabels(in: hostGroup).filter { $0.text != "host" }
        #expect(hostLabels.map(\.text).sorted() == ["quit", "started", "stopped"])
        for label in hostLabels {
            for diamond in diamonds {
                // Clear of each diamond, with room to breathe (not cramped against it).
                let clearance = min(
                    (label.extent.lowerBound - diamond).magnitude,
                    (label.extent.upperBound - diamond).magnitude
                )
                #expect(!label.extent.contains(diamond) && clearance >= 9, "\(label.text) by the diamond at \(diamond)")
            }
        }
    }

    @Test func axisLabelsSuitTheDuration() {
        // A quarter of a second: millisecond labels. A minute: second labels, width capped.
        let short = SVGTimeline.render(MultiSceneTrace.scenes(threeScenes))
        #expect(short.contains(">100 ms</text>"))
        var long = MultiSceneTrace.scenes(["A"])
        long.append(TraceEvent(seq: long.count + 1, time: 60, kind: .host, name: "stopped"))
        let svg = SVGTimeline.render(long)
        #expect(XMLCheck.problem(in: svg) == nil)
        #expect(svg.contains(" s</text>"))
        #expect(!svg.contains(" ms</text>"))
        #expect(Double(attribute("width", of: svg))! <= SVGTimeline.Options().maximumPlotWidth + 400)
    }

    @Test func xmlCheckCatchesBrokenDocuments() {
        #expect(XMLCheck.problem(in: "<svg><g><rect/></g></svg>") == nil)
        #expect(XMLCheck.problem(in: "<svg><g><rect></g></svg>") != nil)
        #expect(XMLCheck.problem(in: "<svg><g></svg>") != nil)
        #expect(XMLCheck.problem(in: "<svg a=\"x<y\"/>") != nil)
        #expect(XMLCheck.problem(in: "<svg>a & b</svg>") != nil)
        #expect(XMLCheck.problem(in: "<svg/><svg/>") != nil)
    }

    // MARK: Perfetto

    @Test func perfettoExportMatchesTheTraceOneToOne() throws {
        let events = MultiSceneTrace.scenes(threeScenes)
        let document = try JSONParser.parse(PerfettoExport.render(events))
        guard case .object(let root) = document, case .array(let traceEvents)? = root["traceEvents"] else {
            Issue.record("not {\"traceEvents\": [...]}")
            return
        }
        #expect(root["displayTimeUnit"] == .string("ms"))
        let all = traceEvents.compactMap { value -> [String: JSONValue]? in
            guard case .object(let fields) = value else { return nil }
            return fields
        }
        #expect(all.count == traceEvents.count)

        // One trace process per scene, named by a process_name metadata event.
        var pidOfScene: [String: JSONValue] = [:]
        for event in all where event["ph"] == .string("M") && event["name"] == .string("process_name") {
            if case .object(let args)? = event["args"], case .string(let name)? = args["name"] {
                pidOfScene[name] = event["pid"]
            }
        }
        #expect(Set(pidOfScene.keys) == Set(threeScenes + ["host"]))
        #expect(Set(pidOfScene.values).count == 4)

        for scene in threeScenes {
            let pid = pidOfScene[scene]
            let mine = all.filter { $0["pid"] == pid }
            let sceneEvents = events.filter { $0.scene == scene }

            let callbacks = mine.filter { $0["cat"] == .string("callback") }
            let expectedCallbacks = sceneEvents.filter { $0.kind == .callback }
            #expect(callbacks.map { $0["name"] } == expectedCallbacks.map { .string($0.name!) })
            for (exported, original) in zip(callbacks, expectedCallbacks) {
                #expect(exported["ph"] == .string("i") && exported["s"] == .string("t"))
                #expect(exported["tid"] == .int(PerfettoExport.callbackThreadID))
                #expect(exported["ts"] == .int(Int((original.time * 1e6).rounded())))
                guard case .object(let args)? = exported["args"] else {
                    Issue.record("no args")
                    continue
                }
                #expect(args["vc"] == original.viewController.map { .string($0) })
                #expect(args["seq"] == .int(original.seq))
            }

            let states = mine.filter { $0["cat"] == .string("state") }
            let expectedStates = sceneEvents.filter { $0.kind == .state }
            #expect(states.map { $0["name"] } == expectedStates.map { .string($0.to!.rawValue) })
            for state in states {
                #expect(state["ph"] == .string("X") && state["tid"] == .int(PerfettoExport.stateThreadID))
                guard case .int(let duration)? = state["dur"] else {
                    Issue.record("no dur")
                    continue
                }
                #expect(duration >= 0)
            }

            let processes = mine.filter { $0["cat"] == .string("process") }
            let expectedProcesses = sceneEvents.filter { $0.kind == .process }
            #expect(processes.map { $0["name"] } == expectedProcesses.map { .string($0.processEvent!.rawValue) })
            let exit = try #require(processes.last)
            guard case .object(let exitArgs)? = exit["args"] else {
                Issue.record("no exit args")
                continue
            }
            #expect(exitArgs["reason"] == .string("killed"))
            #expect(exitArgs["signal"] == .string("KILL"))
            #expect(exitArgs["pid"] == .int(Int(expectedProcesses[0].pid!)))

            #expect(mine.filter { $0["cat"] == .string("error") }.count == 1)
            #expect(mine.filter { $0["cat"] == .string("suspension") }.count == 1)
        }
    }

    @Test func perfettoExportOfFiftyScenesParses() throws {
        let events = MultiSceneTrace.scenes(fiftyScenes)
        guard case .object(let root) = try JSONParser.parse(PerfettoExport.render(events)),
            case .array(let traceEvents)? = root["traceEvents"]
        else {
            Issue.record("not an object with traceEvents")
            return
        }
        let names = traceEvents.filter {
            guard case .object(let fields) = $0 else { return false }
            return fields["name"] == .string("process_name")
        }
        #expect(names.count == 51)
        let callbacks = traceEvents.filter {
            guard case .object(let fields) = $0 else { return false }
            return fields["cat"] == .string("callback")
        }
        #expect(callbacks.count == events.filter { $0.kind == .callback }.count)
    }

    // MARK: Reading traces

    @Test func decodingATraceNamesTheBadLine() throws {
        var bytes: [UInt8] = []
        for event in MultiSceneTrace.scenes(["A"]).prefix(3) { event.appendJSONLine(to: &bytes) }
        #expect(try TraceEvent.events(jsonLines: bytes).count == 3)
        #expect(try TraceEvent.events(jsonLines: Array(bytes.dropLast())).count == 3)  // no final newline

        let broken = bytes + Array(#"{"seq":4,"t":0.1,"type":"callback","scene":"A"}"#.utf8) + [10]
        #expect(throws: TraceLineError(line: 4, problem: .missingField("name"))) {
            try TraceEvent.events(jsonLines: broken)
        }
        // A blank line is skipped, not malformed.
        #expect(try TraceEvent.events(jsonLines: bytes + [10] + bytes).count == 6)
        do {
            _ = try TraceEvent.events(jsonLines: Array("{\"seq\":1}\nnot json\n".utf8))
            Issue.record("decoded garbage")
        } catch {
            #expect(error.line == 1)
            #expect(error.description.hasPrefix("line 1: "))
        }
    }

    // MARK: hostctl timeline

    @Test func hostctlTimelineWritesBothFormatsAndReportsErrors() throws {
        let directory = TimelineTestIO.temporaryDirectory()
        defer { TimelineTestIO.removeTree(directory) }
        let trace = directory + "/trace.jsonl"
        var bytes: [UInt8] = []
        for event in MultiSceneTrace.scenes(threeScenes) { event.appendJSONLine(to: &bytes) }
        TimelineTestIO.writeFile(trace, bytes)

        let svg = TimelineTestIO.hostctl(["timeline", trace, "-o", directory + "/t.svg"])
        #expect(svg.status == 0, "\(svg.stderr)")
        #expect(XMLCheck.problem(in: TimelineTestIO.readFile(directory + "/t.svg")) == nil)

        let json = TimelineTestIO.hostctl(["timeline", trace, "--format", "perfetto", "-o", directory + "/t.json"])
        #expect(json.status == 0, "\(json.stderr)")
        #expect(throws: Never.self) { try JSONParser.parse(Array(TimelineTestIO.readFile(directory + "/t.json").utf8)) }

        let toStdout = TimelineTestIO.hostctl(["timeline", trace, "-o", "-"])
        #expect(toStdout.status == 0 && toStdout.stdout.hasPrefix("<?xml"))

        let help = TimelineTestIO.hostctl(["timeline", "--help"])
        #expect(help.status == 0 && help.stdout.contains("--format"))

        for bad in [
            ["timeline"], ["timeline", trace, "--format", "png"], ["timeline", trace, "--bogus"],
            ["timeline", trace, "-o"], ["timeline", trace, "extra"],
        ] {
            let result = TimelineTestIO.hostctl(bad)
            #expect(result.status == 2, "\(bad)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(bad): \(result.stderr)")
        }

        // A file named that cannot be opened is a usage error, as for run and verify.
        let missing = TimelineTestIO.hostctl(["timeline", directory + "/nope.jsonl"])
        #expect(missing.status == 2)

        let broken = directory + "/broken.jsonl"
        TimelineTestIO.writeFile(broken, Array(bytes.prefix { $0 != 10 }) + [10] + Array("{\"seq\":2}\n".utf8))
        let malformed = TimelineTestIO.hostctl(["timeline", broken])
        #expect(malformed.status == 3)
        #expect(malformed.stderr.contains("line 2"), "\(malformed.stderr)")
        #expect(malformed.stderr.split(separator: "\n").count == 1)
    }

    /// `hostctl demo --timeline` draws the run it just made: one track per scene of the
    /// trace, every callback reachable in a tick's title.
    @Test func hostctlDemoWritesItsTimeline() async throws {
        let directory = TimelineTestIO.temporaryDirectory()
        defer { TimelineTestIO.removeTree(directory) }
        let tracePath = directory + "/demo.jsonl"
        let svgPath = directory + "/demo.svg"
        let demo = try await CommandLineTests.run(["demo", "--trace", tracePath, "--timeline", svgPath])
        #expect(demo.exit == .exited(status: 0), "\(demo.stderr)")
        #expect(demo.stdout.contains("timeline written to \(svgPath)"))

        let svg = TimelineTestIO.readFile(svgPath)
        #expect(svg.hasPrefix("<?xml"))
        #expect(XMLCheck.problem(in: svg) == nil)
        let events = try TraceEvent.events(jsonLines: Array(TimelineTestIO.readFile(tracePath).utf8))
        var scenes: [String] = []
        for scene in events.compactMap(\.scene) where !scenes.contains(scene) { scenes.append(scene) }
        #expect(scenes == ["Mail", "Notes", "Music", "Clock", "Mail-1"])
        let groups = trackGroups(svg)
        #expect(groups.map(\.scene) == scenes)
        for (scene, group) in groups {
            let callbacks = events.filter { $0.scene == scene && $0.kind == .callback }
            #expect(!callbacks.isEmpty)
            let listed = ticks(in: group).flatMap(\.lines).map(\.label)
            #expect(listed == callbacks.map { CallbackTick($0).label }, "\(scene)")
            // A scene's worker starts, or the scene joins its app's running process (Mail-1).
            let spawns = events.filter { $0.scene == scene && $0.processEvent == .spawned }.count
            let joins = events.filter { $0.scene == scene && $0.processEvent == .attached }.count
            #expect(spawns + joins >= 1, "\(scene)")
            #expect(occurrences(of: "class=\"marker spawned\"", in: group) == spawns, "\(scene)")
            #expect(occurrences(of: "class=\"marker attached\"", in: group) == joins, "\(scene)")
        }
        #expect(svg.contains(">quit</text>"))
    }
}
