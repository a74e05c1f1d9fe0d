import CLISupport
import Glibc
import HostProcess
import HostTools

/// `hostctl bench [--quick] [--json | --markdown] [--only NAME[,NAME…]] [--placement P] [--tuning T] [--svg FILE]`
package enum BenchCommand {
    /// The benchmark groups, in run order. `--only` takes these names (or a row name).
    package enum Group: String, CaseIterable, Sendable {
        case codec, transition, kinds, connect, kill, throughput, memory, suspend, terminate, scale

        /// Whether its figures depend on `HostTuning`: such a group runs once per setting.
        package var dependsOnTuning: Bool {
            switch self {
            case .transition, .kinds, .connect, .throughput: true
            case .codec, .kill, .memory, .suspend, .terminate, .scale: false
            }
        }
    }

    /// Row-name prefixes that are not a group's own name.
    private static let aliases: [String: Group] = [
        "pipe-echo": .transition, "spawn-ready": .connect, "suspend-resume": .suspend, "throughput-floor": .throughput,
    ]

    /// How many repetitions of what: the full run, or `--quick` (a smoke test in seconds).
    package struct Counts: Sendable {
        package var codecBatches: Int, codecIterations: Int
        package var echoWarmup: Int, echo: Int
        package var transitionWarmup: Int, transition: Int
        /// Rounds the round-trip group's floors and rows take turns in (`roundTrips`).
        package var roundTripRounds: Int
        package var kindsWarmup: Int, kinds: Int
        package var spawnWarmup: Int, spawn: Int
        package var killWarmup: Int, kill: Int
        package var throughputScenes: [Int], throughputRounds: Int, throughputTransitions: Int
        package var memoryScenes: Int
        package var suspendWarmup: Int, suspend: Int
        package var terminateScenes: Int, terminateRounds: Int
        package var scaleSizes: [Int], scaleWarmup: Int, scaleRoundTrips: Int

        package static let full = Counts(
            codecBatches: 50,
            codecIterations: 2000,
            echoWarmup: 300,
            echo: 3000,
            transitionWarmup: 400,
            transition: 4000,
            roundTripRounds: 6,
            kindsWarmup: 50,
            kinds: 1000,
            spawnWarmup: 10,
            spawn: 200,
            killWarmup: 10,
            kill: 200,
            throughputScenes: [1, 8, 64],
            throughputRounds: 7,
            throughputTransitions: 4000,
            memoryScenes: 100,
            suspendWarmup: 10,
            suspend: 200,
            terminateScenes: 100,
            terminateRounds: 5,
            scaleSizes: [1, 10, 100, 1000, 4000],
            scaleWarmup: 200,
            scaleRoundTrips: 2000
        )

        package static let quick = Counts(
            codecBatches: 10,
            codecIterations: 300,
            echoWarmup: 20,
            echo: 200,
            transitionWarmup: 20,
            transition: 200,
            roundTripRounds: 1,
            kindsWarmup: 5,
            kinds: 50,
            spawnWarmup: 2,
            spawn: 10,
            killWarmup: 2,
            kill: 10,
            throughputScenes: [1, 8, 64],
            throughputRounds: 2,
            throughputTransitions: 256,
            memoryScenes: 10,
            suspendWarmup: 2,
            suspend: 10,
            terminateScenes: 10,
            terminateRounds: 2,
            scaleSizes: [1, 10, 100],
            scaleWarmup: 10,
            scaleRoundTrips: 100
        )
    }

    package static func run(_ arguments: inout Arguments) async throws -> ExitCode {
        if arguments.wantsHelp {
            print(BenchHelp.text)
            return .success
        }
        let quick = try arguments.flag("--quick")
        let json = try arguments.flag("--json")
        let markdown = try arguments.flag("--markdown")
        let svgPath = try arguments.option("--svg")
        let placements = try parsePlacement(try arguments.option("--placement") ?? "both")
        let tunings = try parseTunings(try arguments.option("--tuning") ?? "both")
        var groups = Set(Group.allCases)
        if let only = try arguments.option("--only") {
            groups = try parseOnly(only)
        }
        try arguments.finish()
        if json && markdown {
            throw UsageError("hostctl bench: --json and --markdown are two outputs; pick one")
        }
        if svgPath != nil && !groups.contains(.scale) {
            throw UsageError("hostctl bench: --svg draws the scale benchmark; add scale to --only")
        }

        if BenchEnvironment.isDebugBuild {
            printError(
                "hostctl bench: warning: this is a debug build; the figures mean little "
                    + "(\(BenchEnvironment.recommendedBuild))"
            )
        }
        var report = BenchReport(
            quick: quick,
            debugBuild: BenchEnvironment.isDebugBuild,
            staticStdlib: BenchEnvironment.isStaticStdlib,
            linking: BenchEnvironment.linking,
            cores: BenchEnvironment.cores,
            descriptorLimit: ProcessResources.raiseDescriptorLimit()
        )
        let counts = quick ? Counts.quick : Counts.full
        var scalePoints: [BenchHost.ScalePoint] = []
        do {
            for group in Group.allCases where groups.contains(group) {
                // The groups whose figures the tuning moves run once per setting, side by
                // side; the others once, plain (or as --tuning says).
                for tuning in group.dependsOnTuning ? tunings : [tunings[0]] {
                    progress("\(group.rawValue)\(tunings.count > 1 && group.dependsOnTuning ? ", \(tuning)" : "")…")
                    let firstRow = report.rows.count
                    try await BenchHost.$tuning.withValue(tuning) {
                        try await run(
                            group,
                            counts: counts,
                            placements: placements,
                            into: &report,
                            scalePoints: &scalePoints
                        )
                    }
                    if tuning == .throughput { report.suffixRows(from: firstRow, with: ".throughput") }
                }
            }
        } catch {
            printError("hostctl bench: \(error)")
            return .runtimeFailure
        }

        if let svgPath {
            let subtitle =
                "\(report.debugBuild ? "debug" : "release"), \(report.linking), "
                + "\(report.cores) cores; round trip = deactivate or activate through SceneHandle"
            guard BenchChart.write(BenchChart.svg(scalePoints, subtitle: subtitle), to: svgPath) else {
                printError("hostctl bench: cannot write \(svgPath): \(String(cString: strerror(errno)))")
                return .runtimeFailure
            }
        }
        if json {
            print(report.jsonText)
        } else if markdown {
            print(report.markdown, terminator: "")
        } else {
            print(
                "hostctl bench: \(report.debugBuild ? "DEBUG" : "release") build, "
                    + "\(report.linking), \(report.cores) cores"
                    + (quick ? ", --quick" : "") + "\n"
            )
            print(report.table, terminator: "")
            if let svgPath { print("\nchart written to \(svgPath)") }
        }
        return .success
    }

    /// `--tuning`: plain, throughput or both (plain first).
    package static func parseTunings(_ text: String) throws(UsageError) -> [HostTuning] {
        if text == "both" { return [.plain, .throughput] }
        guard let tuning = HostTuning(rawValue: text) else {
            throw UsageError("hostctl bench: --tuning takes plain, throughput or both, not \"\(text.prefix(64))\"")
        }
        return [tuning]
    }

    package static func parsePlacement(_ text: String) throws(UsageError) -> [BenchPlacement] {
        switch text {
        case "both": return BenchPlacement.allCases
        case "none": return []
        default:
            guard let placement = BenchPlacement(rawValue: text) else {
                throw UsageError(
                    "hostctl bench: unknown placement \"\(text)\" (placements: both, same-cpu, split-cpu, none)"
                )
            }
            return [placement]
        }
    }

    /// Runs `body` unpinned first (whatever the scheduler does), then once per placement with
    /// the host pinned to CPU 0; a placement whose CPUs are not both usable is skipped, with a
    /// line saying so.
    private static func inEachPlacement(
        _ placements: [BenchPlacement],
        _ name: String,
        _ body: (BenchPlacement?) async throws -> Void
    ) async throws {
        try await body(nil)
        // A placement is ours to make: the loop keeps no CPU of its own meanwhile.
        await EventLoop.shared.setCPUReservation(allowed: false)
        do {
            for placement in placements {
                guard placement.isAvailable, BenchPlacement.pinHost() else {
                    progress("placement \(placement.rawValue) skipped: CPUs 0 and 1 are not both usable here")
                    continue
                }
                defer { BenchPlacement.unpinHost() }
                progress("\(name), \(placement.rawValue)…")
                try await body(placement)
            }
        } catch {
            await EventLoop.shared.setCPUReservation(allowed: true)
            throw error
        }
        await EventLoop.shared.setCPUReservation(allowed: true)
    }

    package static func parseOnly(_ text: String) throws(UsageError) -> Set<Group> {
        var groups = Set<Group>()
        for item in text.split(separator: ",").map(String.init) {
            let head = String(item.split(separator: ".", maxSplits: 1).first ?? "")
            if let group = Group(rawValue: item) ?? Group(rawValue: head) ?? aliases[head] {
                groups.insert(group)
            } else {
                let names = Group.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("hostctl bench: unknown benchmark \"\(item)\" (benchmarks: \(names))")
            }
        }
        guard !groups.isEmpty else { throw UsageError("hostctl bench: --only needs a benchmark name") }
        return groups
    }

    private static func progress(_ message: String) {
        printError("bench: \(message)")
    }

    private static func run(
        _ group: Group,
        counts: Counts,
        placements: [BenchPlacement],
        into report: inout BenchReport,
        scalePoints: inout [BenchHost.ScalePoint]
    ) async throws {
        let executable = BenchPaths.executable
        switch group {
        case .codec:
            let ours = BenchCodec.ours(batches: counts.codecBatches, iterations: counts.codecIterations)
            let foundation = await BenchCodec.foundation(
                batches: counts.codecBatches,
                iterations: counts.codecIterations
            )
            for (name, samples, message) in [
                ("codec.callback", ours.callback, #"{"type":"callback","name":"viewDidAppear","vc":"Detail"}"#),
                ("codec.request", ours.request, #"{"id":42,"op":"push","vc":"Detail"}"#),
            ] {
                var row = BenchRow(
                    name,
                    unit: .nanoseconds,
                    samples,
                    floorName: "Foundation JSONEncoder + JSONDecoder",
                    target: .speedupAtLeast(10)
                )
                switch foundation {
                case .success(let figures):
                    let reference = name == "codec.callback" ? figures.callback : figures.request
                    row.floor = reference.median
                    row.details["foundationP99"] = reference.p99
                    row.note =
                        "encode + decode of \(message); floor column = Foundation on an equivalent Codable struct"
                case .failure(let failure):
                    row.note = failure.description
                }
                report.add(row)
            }

        case .transition:
            try await inEachPlacement(placements, "transition") { placement in
                try await roundTrips(placement: placement, counts: counts, into: &report)
            }

        case .kinds:
            // A pair's round trips meet the VM's moods as a transition's do.
            try await inEachPlacement(placements, "kinds") { placement in
                try await kinds(placement: placement, counts: counts, into: &report)
            }

        case .connect:
            let ready = try await BenchFloors.spawnReady(
                executable: executable,
                warmup: counts.spawnWarmup,
                count: counts.spawn
            )
            report.add(
                BenchRow(
                    "spawn-ready",
                    ready,
                    note: "spawn hostctl bench-ready via ChildProcess + EventLoop until its line"
                )
            )
            var staticNote = ""
            if !BenchEnvironment.isStaticExecutable {
                staticNote =
                    "; the figures assume a static executable (\(BenchEnvironment.recommendedBuild)): "
                    + "this one is \(report.linking), and its workers start slower"
            }
            let connect = try await BenchHost.connect(
                warmup: counts.spawnWarmup,
                count: counts.spawn,
                prewarmed: true
            )
            report.add(
                BenchRow(
                    "connect",
                    connect,
                    floor: ready.median,
                    floorName: "spawn-ready",
                    target: .ratioAtMost(1.1),
                    note: "a new scene to foregroundActive acknowledged, the host prewarming as it does by "
                        + "default (the launch takes a worker started ahead); floor = spawn-ready" + staticNote
                )
            )
            let inApp = try await BenchHost.connectInApp(warmup: counts.spawnWarmup, count: counts.spawn)
            report.add(
                BenchRow(
                    "connect.in-app",
                    inApp,
                    floor: ready.median,
                    floorName: "spawn-ready",
                    target: .ratioAtMost(0.5),
                    note: "a new scene of a running app to foregroundActive acknowledged: it connects in the "
                        + "app's process (LIFECYCLE.md §4a), no spawn; floor = spawn-ready"
                )
            )
            let cold = try await BenchHost.connect(
                warmup: counts.spawnWarmup,
                count: counts.spawn,
                prewarmed: false
            )
            report.add(
                BenchRow(
                    "connect.cold",
                    cold,
                    floor: ready.median,
                    floorName: "spawn-ready",
                    target: .medianAtMost(5000),
                    note: "the same with prewarming off (prewarmedWorkers = 0): spawn to foregroundActive "
                        + "acknowledged; floor = spawn-ready" + staticNote
                )
            )

        case .kill:
            let raw = try await BenchFloors.rawKill(
                executable: executable,
                warmup: counts.killWarmup,
                count: counts.kill
            )
            report.add(
                BenchRow(
                    "kill.raw",
                    raw,
                    note: "SIGKILL of a watched bench-echo child until the event loop reports the exit"
                )
            )
            let kill = try await BenchHost.kill(warmup: counts.killWarmup, count: counts.kill)
            report.add(
                BenchRow(
                    "kill",
                    kill,
                    floor: raw.median,
                    floorName: "kill.raw",
                    note: "SIGKILL of a worker from outside until the exited trace event reaches a subscriber"
                )
            )

        case .throughput:
            var floors: [Int: Samples] = [:]
            let results = try await BenchHost.throughput(
                counts: counts.throughputScenes,
                rounds: counts.throughputRounds,
                transitionsPerRound: counts.throughputTransitions
            ) { scenes in
                let perChild = BenchHost.transitionsPerScene(count: scenes, perRound: counts.throughputTransitions)
                guard
                    let floor = await BenchThroughputFloor.rate(
                        executable: executable,
                        children: scenes,
                        rounds: counts.throughputRounds,
                        perChild: perChild
                    )
                else {
                    progress("throughput-floor.\(scenes): could not spawn or drive the echo children; no floor")
                    return
                }
                floors[scenes] = floor
                report.add(
                    BenchRow(
                        "throughput-floor.\(scenes)",
                        unit: .perSecond,
                        floor,
                        note: "round trips/s of a 200-byte line through \(scenes) bench-echo "
                            + (scenes == 1 ? "child" : "children")
                            + ", driven by one thread with its own epoll set: no host"
                    )
                )
            }
            for result in results {
                var row = BenchRow(
                    "throughput.\(result.scenes)",
                    unit: .perSecond,
                    result.rate,
                    floor: floors[result.scenes]?.median,
                    floorName: floors[result.scenes] == nil ? nil : "throughput-floor.\(result.scenes)",
                    // The rate target is the throughput setting's; plain reports its rate beside it.
                    target: result.scenes > 1 && BenchHost.tuning == .throughput ? .medianAtLeast(150_000) : nil,
                    note: "transitions/s, \(result.scenes) concurrent scene(s)"
                        + (floors[result.scenes] == nil ? "" : " (ratio: ours ÷ floor, higher is better)")
                        + "; per-transition latency p50 "
                        + BenchFormat.value(result.latency.median, .microseconds) + ", p99 "
                        + BenchFormat.value(result.latency.p99, .microseconds)
                        + (result.reservedCPU.map { "; the loop kept CPU \($0) to itself (saturated)" } ?? "")
                )
                row.details["latencyMedianUs"] = result.latency.median
                if let cpu = result.reservedCPU { row.details["loopReservedCPU"] = Double(cpu) }
                row.details["latencyP99Us"] = result.latency.p99
                report.add(row)
            }

        case .memory:
            let memory = try await BenchHost.memory(count: counts.memoryScenes)
            var pss = BenchRow(
                "memory.worker-pss",
                unit: .kibibytes,
                memory.workerPSS,
                target: .medianAtMost(1024),
                note: "PSS of each idle worker (foregroundActive) with \(counts.memoryScenes) live; private (USS) p50 "
                    + BenchFormat.value(memory.workerUSS.median, .kibibytes)
            )
            pss.details["ussMedianKiB"] = memory.workerUSS.median
            pss.details["ussP99KiB"] = memory.workerUSS.p99
            report.add(pss)
            report.add(
                BenchRow(
                    "memory.host-per-scene",
                    unit: .kibibytes,
                    Samples([memory.hostPerScene]),
                    note: "host RSS growth / \(counts.memoryScenes) scenes"
                )
            )

        case .suspend:
            let result = try await BenchHost.suspendResume(warmup: counts.suspendWarmup, count: counts.suspend)
            var row = BenchRow(
                "suspend-resume",
                result.cycle,
                note: "background until SIGSTOPped (suspend delay 0), then foreground to foregroundActive; "
                    + "suspend p50 " + BenchFormat.value(result.suspend.median, .microseconds)
                    + ", resume p50 " + BenchFormat.value(result.resume.median, .microseconds)
            )
            row.details["suspendMedianUs"] = result.suspend.median
            row.details["suspendP99Us"] = result.suspend.p99
            row.details["resumeMedianUs"] = result.resume.median
            row.details["resumeP99Us"] = result.resume.p99
            report.add(row)

        case .terminate:
            let samples = try await BenchHost.terminate(
                scenes: counts.terminateScenes,
                rounds: counts.terminateRounds
            )
            var row = BenchRow(
                "terminate",
                samples,
                note:
                    "terminate \(counts.terminateScenes) running scenes at once (wall time, \(counts.terminateRounds) rounds)"
            )
            row.details["scenes"] = Double(counts.terminateScenes)
            report.add(row)

        case .scale:
            var base: Double?
            var pinnedBase: [BenchPlacement: Double] = [:]
            for size in counts.scaleSizes {
                progress("scale \(size)…")
                let point = try await BenchHost.scale(
                    scenes: size,
                    warmup: counts.scaleWarmup,
                    roundTrips: counts.scaleRoundTrips,
                    placements: placements
                )
                scalePoints.append(point)
                if base == nil { base = point.roundTrip.median }
                for (placement, samples) in point.pinnedRoundTrips where pinnedBase[placement] == nil {
                    pinnedBase[placement] = samples.median
                }
                var connect = BenchRow(
                    "scale.\(size).connect",
                    point.connect,
                    note: "\(size) scenes connected, 32 at a time, in "
                        + BenchFormat.value(point.connectBatch, .microseconds) + " (per-scene latency shown)"
                )
                connect.details["batchUs"] = point.connectBatch
                connect.details["quitUs"] = point.quit
                report.add(connect)
                var roundTrip = BenchRow(
                    "scale.\(size).roundtrip",
                    point.roundTrip,
                    floor: base,
                    floorName: "scale.\(counts.scaleSizes[0]).roundtrip"
                )
                if size >= 4000 {
                    roundTrip.target = .ratioAtMost(1.2)
                } else if size >= 1000 {
                    roundTrip.target = .ratioAtMost(1.5)
                }
                report.add(roundTrip)
                // Pinned, as the transition rows: the unpinned ratio compares whatever moods the
                // two round trips happened to meet.
                for placement in placements {
                    guard let samples = point.pinnedRoundTrips[placement] else { continue }
                    var pinned = BenchRow(
                        "scale.\(size).roundtrip.\(placement.rawValue)",
                        samples,
                        floor: pinnedBase[placement],
                        floorName: "scale.\(counts.scaleSizes[0]).roundtrip.\(placement.rawValue)",
                        note: "host pinned to CPU 0, the scene's worker to CPU \(placement.childCPU)"
                    )
                    pinned.target = roundTrip.target
                    report.add(pinned)
                }
                if size >= 4000 {
                    report.add(
                        BenchRow(
                            "scale.\(size).connect-all",
                            Samples([point.connectBatch]),
                            target: .medianAtMost(4_000_000),
                            note: "wall time until all \(size) scenes are foregroundActive"
                        )
                    )
                }
                var pss = BenchRow("scale.\(size).worker-pss", unit: .kibibytes, point.workerPSS)
                pss.details["ussMedianKiB"] = point.workerUSS.median
                report.add(pss)
                var hostPerScene = BenchRow(
                    "scale.\(size).host-per-scene",
                    unit: .kibibytes,
                    Samples([point.hostPerScene])
                )
                if size >= 1000 { hostPerScene.target = .medianAtMost(16) }
                report.add(hostPerScene)
            }
        }
    }
}
