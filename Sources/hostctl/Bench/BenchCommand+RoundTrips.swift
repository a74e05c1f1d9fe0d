extension BenchCommand {
    /// The round-trip group in one placement (nil: unpinned): the two pipe echoes, the
    /// transition, and Node's IPC round trip as an outside reference. Pinned rows carry the
    /// placement as a suffix (`transition.same-cpu`); their floor is always the blocking echo
    /// of the same placement.
    static func roundTrips(placement: BenchPlacement?, counts: Counts, into report: inout BenchReport) async throws {
        let executable = BenchPaths.executable
        let suffix = placement.map { ".\($0.rawValue)" } ?? ""
        // Each floor is measured before and after the transitions; the run with the lower
        // median counts, so a burst of load from elsewhere cannot inflate a floor.
        func echoFloors() async throws -> (eventLoop: Samples, blocking: Samples?) {
            let eventLoop = try await BenchFloors.eventLoopEcho(
                executable: executable,
                placement: placement,
                warmup: counts.echoWarmup,
                count: counts.echo
            )
            let blocking = await BenchFloors.blockingEcho(
                executable: executable,
                placement: placement,
                warmup: counts.echoWarmup,
                count: counts.echo
            )
            return (eventLoop, blocking)
        }
        func lower(_ first: Samples?, _ second: Samples?) -> Samples? {
            guard let first else { return second }
            guard let second else { return first }
            return second.median < first.median ? second : first
        }
        let before = try await echoFloors()
        let cost = try await BenchHost.transition(
            placement: placement,
            warmup: counts.transitionWarmup,
            count: counts.transition
        )
        let transitions = cost.latencies
        let after = try await echoFloors()
        let eventLoop = lower(before.eventLoop, after.eventLoop) ?? before.eventLoop
        let blocking = lower(before.blocking, after.blocking)
        let where_ = placement.map { "; host pinned to CPU 0, child to CPU \($0.childCPU)" } ?? ""

        var eventLoopRow = BenchRow(
            "pipe-echo.eventloop" + suffix,
            eventLoop,
            note: "200-byte line to hostctl bench-echo and back via ChildProcess + EventLoop + continuation" + where_
        )
        if placement != nil, let blocking {
            eventLoopRow.floor = blocking.median
            eventLoopRow.floorName = "pipe-echo.blocking" + suffix
            eventLoopRow.target = .ratioAtMost(1.5)
        }
        report.add(eventLoopRow)

        var floor = eventLoop.median
        var floorName = "pipe-echo.eventloop" + suffix
        if let blocking {
            report.add(
                BenchRow(
                    "pipe-echo.blocking" + suffix,
                    blocking,
                    note: "the same line with blocking write/read on a dedicated thread" + where_
                )
            )
            // Pinned, the floor is the blocking echo by definition; unpinned, the faster echo.
            if placement != nil || blocking.median < floor {
                floor = blocking.median
                floorName = "pipe-echo.blocking" + suffix
            }
        }
        var row = BenchRow(
            "transition" + suffix,
            transitions,
            floor: floor,
            floorName: floorName,
            target: .ratioAtMost(2),
            note: "deactivate/activate alternating on one scene via SceneHandle; floor = " + floorName
                + "; vs pipe-echo.eventloop " + BenchFormat.number(transitions.median / eventLoop.median) + "×"
                + where_
        )
        row.details["eventLoopRatio"] = transitions.median / eventLoop.median
        // CPU per transition, user and system: the host's (all its threads) and the worker's.
        if let hostCPU = cost.hostCPU, let workerCPU = cost.workerCPU {
            row.details["hostCPUUs"] = hostCPU
            row.details["workerCPUUs"] = workerCPU
            row.note =
                (row.note ?? "") + "; CPU per transition: host " + BenchFormat.number(hostCPU) + " µs, worker "
                + BenchFormat.number(workerCPU) + " µs"
        }

        let node = await BenchNodeReference.roundTrips(
            placement: placement,
            warmup: counts.echoWarmup,
            count: counts.echo
        )
        report.add(row)
        if let node {
            report.add(
                BenchRow(
                    "node-ipc" + suffix,
                    node,
                    note: "Node child_process.fork IPC round trip of a ~200-byte message (outside reference)" + where_
                )
            )
            var versus = BenchRow(
                "transition-vs-node" + suffix,
                transitions,
                floor: node.median,
                floorName: "node-ipc" + suffix,
                target: .speedupAtLeast(2),
                note: "our transition against Node's bare IPC round trip in the same placement"
            )
            versus.details["nodeMedianUs"] = node.median
            report.add(versus)
        }
    }
}
