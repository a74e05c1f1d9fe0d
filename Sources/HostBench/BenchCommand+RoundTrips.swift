extension BenchCommand {
    /// The round-trip group in one placement (nil: unpinned): the two pipe echoes, the
    /// transition, and Node's IPC round trip as an outside reference. Pinned rows carry the
    /// placement as a suffix (`transition.same-cpu`); their floor is always the blocking echo
    /// of the same placement.
    package static func roundTrips(
        placement: BenchPlacement?,
        counts: Counts,
        into report: inout BenchReport
    ) async throws {
        let executable = BenchPaths.executable
        let suffix = placement.map { ".\($0.rawValue)" } ?? ""
        // The floors and the rows take turns, a share of each per round: this VM's scheduler
        // changes its mood (one CPU for both ends, or two) for seconds at a time, and a floor
        // measured in one mood against a row in the other compares moods, not code. Taking
        // turns, every figure sees the same mix of moods, and a burst of load from elsewhere
        // touches a share of each.
        let rounds = max(1, counts.roundTripRounds)
        var eventLoopCosts: [RoundTripCost] = []
        var blockingCosts: [RoundTripCost] = []
        var transitionCosts: [RoundTripCost] = []
        var inAppCosts: [RoundTripCost] = []
        for _ in 0..<rounds {
            eventLoopCosts.append(
                try await BenchFloors.eventLoopEcho(
                    executable: executable,
                    placement: placement,
                    warmup: counts.echoWarmup,
                    count: counts.echo / rounds
                )
            )
            if let blocking = await BenchFloors.blockingEcho(
                executable: executable,
                placement: placement,
                warmup: counts.echoWarmup,
                count: counts.echo / rounds
            ) {
                blockingCosts.append(blocking)
            }
            transitionCosts.append(
                try await BenchHost.transition(
                    placement: placement,
                    warmup: counts.transitionWarmup,
                    count: counts.transition / rounds
                )
            )
            inAppCosts.append(
                try await BenchHost.transition(
                    placement: placement,
                    warmup: counts.transitionWarmup,
                    count: counts.transition / rounds,
                    inApp: true
                )
            )
        }
        // Unpinned, the kernel chooses for each new child whether it runs on the host's CPU or
        // on the other (on this VM about half the time each) and keeps to it: an echo whose
        // child drew one CPU against a transition whose worker drew two compares draws (6 µs
        // against 35), not code. So every batch of round trips is filed under its draw (see
        // DrawLog), and the rows compare the round trips of the draw all of them met most (the
        // CPU figures are the rounds', whole: the CPU clocks are read once a round).
        var where_ = placement.map { "; host pinned to CPU 0, child to CPU \($0.childCPU)" } ?? ""
        var drawDetails: [String: Double] = [:]
        var compared: BenchPlacement?
        var blockingOtherDraw = false
        // Unpinned with no draw in common, the ratios compare draws: the rows are not judged.
        var judged = true
        if placement == nil {
            let series = [eventLoopCosts, transitionCosts, inAppCosts].map { RoundTripCost(merging: $0).draws }
            // A draw met for a batch or two is too few to judge on: a twentieth of the echo's.
            compared = BenchPlacement.mostMet(by: series, atLeast: max(DrawLog.batch, counts.echo / 20))
            if let draw = compared {
                let kept = { (costs: [RoundTripCost]) in costs.compactMap { $0.keeping(draw) } }
                eventLoopCosts = kept(eventLoopCosts)
                transitionCosts = kept(transitionCosts)
                inAppCosts = kept(inAppCosts)
                // The blocking echo has no say in the draw: where it never met it, its row
                // keeps every round trip and is no floor (it would compare draws).
                if !kept(blockingCosts).isEmpty {
                    blockingCosts = kept(blockingCosts)
                } else {
                    blockingOtherDraw = true
                }
                let shape = draw == .sameCPU ? "on one CPU" : "on two CPUs"
                let share = { (costs: [RoundTripCost], total: Int) in
                    let kept = costs.reduce(0) { $0 + $1.latencies.count }
                    return String(Int((100 * Double(kept) / Double(max(1, total))).rounded())) + " %"
                }
                where_ =
                    "; unpinned, compared where the kernel ran host and child \(shape) (that share of the "
                    + "round trips: echo \(share(eventLoopCosts, counts.echo)), transition "
                    + "\(share(transitionCosts, counts.transition)), in-app \(share(inAppCosts, counts.transition));"
                    + " CPU figures over those rounds whole)"
                drawDetails["unpinnedSameCPU"] = draw == .sameCPU ? 1 : 0
            } else {
                where_ =
                    "; unpinned, every round trip, not judged: no draw of the kernel's was met by every series"
                judged = false
            }
        }
        let eventLoopCost = RoundTripCost(merging: eventLoopCosts)
        let eventLoop = eventLoopCost.latencies
        let blocking = blockingCosts.isEmpty ? nil : Samples(merging: blockingCosts.map(\.latencies))
        let cost = RoundTripCost(merging: transitionCosts)
        let transitions = cost.latencies
        let inApp = RoundTripCost(merging: inAppCosts)

        var eventLoopRow = BenchRow(
            "pipe-echo.eventloop" + suffix,
            eventLoop,
            note: "200-byte line to hostctl bench-echo and back via ChildProcess + EventLoop + continuation" + where_
        )
        if let hostCPU = eventLoopCost.hostCPU, let childCPU = eventLoopCost.childCPU {
            addCPU(
                [("hostCPUUs", "host", hostCPU), ("childCPUUs", "child", childCPU)],
                to: &eventLoopRow,
                lead: "; CPU per round trip: "
            )
        }
        if placement != nil, let blocking {
            eventLoopRow.floor = blocking.median
            eventLoopRow.floorName = "pipe-echo.blocking" + suffix
            eventLoopRow.target = .ratioAtMost(1.5)
        }
        report.add(eventLoopRow)

        // Plain, the host sleeps in epoll_wait as the event-loop echo does: that echo is the
        // floor. Tuned for throughput, it polls, and must keep up with the blocking echo too.
        let plain = BenchHost.tuning == .plain
        var floor = eventLoop.median
        var floorName = "pipe-echo.eventloop" + suffix
        if let blocking {
            report.add(
                BenchRow(
                    "pipe-echo.blocking" + suffix,
                    blocking,
                    note: "the same line with blocking write/read on a dedicated thread"
                        + (blockingOtherDraw ? "; unpinned, every round trip: it never met the draw compared" : where_)
                )
            )
            // Pinned, the floor is the blocking echo by definition; unpinned, the faster echo
            // (of the draw compared).
            if !plain, placement != nil || (blocking.median < floor && !blockingOtherDraw) {
                floor = blocking.median
                floorName = "pipe-echo.blocking" + suffix
            }
        }
        var row = BenchRow(
            "transition" + suffix,
            transitions,
            floor: floor,
            floorName: floorName,
            target: judged ? .ratioAtMost(plain ? 1.5 : 2) : nil,
            note: "deactivate/activate alternating on one scene via SceneHandle; floor = " + floorName
                + "; vs pipe-echo.eventloop " + BenchFormat.number(transitions.median / eventLoop.median) + "×"
                + where_
        )
        row.details["eventLoopRatio"] = transitions.median / eventLoop.median
        row.details.merge(drawDetails) { $1 }
        var appRow = BenchRow(
            "transition.app" + suffix,
            inApp.latencies,
            floor: transitions.median,
            floorName: "transition" + suffix,
            target: judged ? .ratioAtMost(1.1) : nil,
            note: "the same with the scene's worker an app process carrying a second scene (every frame "
                + "tagged with its scene, LIFECYCLE.md §4a); floor = transition" + suffix + where_
        )
        // CPU per transition, user and system: the host's (all its threads) and the worker's,
        // and what each spends above its side of the event-loop echo (the same pipes and loop
        // with nothing on top): whose work there is to cut.
        if let hostCPU = cost.hostCPU, let workerCPU = cost.childCPU {
            addCPU(
                [("hostCPUUs", "host", hostCPU), ("workerCPUUs", "worker", workerCPU)],
                to: &row,
                lead: "; CPU per transition: "
            )
            if let echoHost = eventLoopCost.hostCPU, let echoChild = eventLoopCost.childCPU {
                addCPU(
                    [
                        ("hostCPUOverEchoUs", "host", hostCPU - echoHost),
                        ("workerCPUOverEchoUs", "worker", workerCPU - echoChild),
                    ],
                    to: &row,
                    lead: " (above the event-loop echo's: ",
                    trail: ")",
                    signed: true
                )
            }
        }

        if let hostCPU = inApp.hostCPU, let workerCPU = inApp.childCPU {
            addCPU(
                [("hostCPUUs", "host", hostCPU), ("workerCPUUs", "worker", workerCPU)],
                to: &appRow,
                lead: "; CPU per transition: "
            )
        }

        // Node's two processes draw their placement too: unpinned, its round trips of the
        // draw compared, where it met it.
        let nodeCost = await BenchNodeReference.roundTrips(
            placement: placement,
            warmup: counts.echoWarmup,
            count: counts.echo
        )
        var node = nodeCost?.latencies
        var nodeWhere = where_
        var nodeJudged = judged
        if let nodeCost, let compared {
            if let kept = nodeCost.keeping(compared) {
                node = kept.latencies
                nodeWhere =
                    "; unpinned, the round trips where the kernel ran both node processes "
                    + (compared == .sameCPU ? "on one CPU" : "on two CPUs")
            } else {
                nodeWhere = "; unpinned, every round trip, not judged: node's never met the draw ours are compared in"
                nodeJudged = false
            }
        }
        report.add(row)
        report.add(appRow)
        if let node {
            report.add(
                BenchRow(
                    "node-ipc" + suffix,
                    node,
                    note: "Node child_process.fork IPC round trip of a ~200-byte message (outside reference)"
                        + nodeWhere
                )
            )
            var versus = BenchRow(
                "transition-vs-node" + suffix,
                transitions,
                floor: node.median,
                floorName: "node-ipc" + suffix,
                target: nodeJudged ? .speedupAtLeast(plain && placement != .sameCPU ? 1.5 : 2) : nil,
                note: "our transition against Node's bare IPC round trip in the same placement"
                    + (nodeJudged ? "" : "; not judged: Node's processes never met the draw ours are compared in")
            )
            versus.details["nodeMedianUs"] = node.median
            report.add(versus)
        }
    }

    /// Records CPU figures (µs) in `row`: each under its JSON key in the details, and all in
    /// the note as `lead` + "label 1.23 µs, label 4.56 µs" + `trail` (`signed`: as differences).
    static func addCPU(
        _ figures: [(key: String, label: String, microseconds: Double)],
        to row: inout BenchRow,
        lead: String,
        trail: String = "",
        signed: Bool = false
    ) {
        var parts: [String] = []
        for figure in figures {
            row.details[figure.key] = figure.microseconds
            let value = signed ? BenchFormat.signed(figure.microseconds) : BenchFormat.number(figure.microseconds)
            parts.append(figure.label + " " + value + " µs")
        }
        row.note = (row.note ?? "") + lead + parts.joined(separator: ", ") + trail
    }
}
