import HostProcess

/// `kinds`: the view-controller transitions of LIFECYCLE.md §3a against a push.
extension BenchHost {
    /// One kind of navigation: two requests, the second undoing the first, so that the scene
    /// is back where it was and every kind is timed as a pair, like a push and its pop.
    package struct NavigationKind: Sendable {
        package var name: String
        package var note: String
        package var pair: @Sendable (SceneHandle) async throws -> Void
        /// Run on the scene whose worker posts UIKit's lifecycle notifications.
        package var postsNotifications = false
        /// The kind this one is compared with (nil: the push).
        package var floor: String? = nil
    }

    /// What is compared; the first (push, pop) is the floor of the others.
    package static let navigationKinds: [NavigationKind] = [
        NavigationKind(name: "kinds.push", note: "push Detail, pop") { scene in
            try await scene.push("Detail")
            try await scene.pop()
        },
        NavigationKind(name: "kinds.present-sheet", note: "present Sheet (pageSheet), dismiss") { scene in
            try await scene.present("Sheet", style: .pageSheet)
            try await scene.dismiss()
        },
        NavigationKind(name: "kinds.present-full", note: "present Modal (fullScreen), dismiss") { scene in
            try await scene.present("Modal", style: .fullScreen)
            try await scene.dismiss()
        },
        NavigationKind(name: "kinds.swipe-dismiss", note: "present Sheet, a completed swipe down") { scene in
            try await scene.present("Sheet", style: .pageSheet)
            try await scene.swipeDismiss(completes: true)
        },
        NavigationKind(name: "kinds.swipe-back", note: "push Detail, a completed swipe back") { scene in
            try await scene.push("Detail")
            try await scene.swipeBack(completes: true)
        },
        NavigationKind(name: "kinds.select-tab", note: "select tab 1, then tab 0 again") { scene in
            try await scene.selectTab(1)
            try await scene.selectTab(0)
        },
        NavigationKind(name: "kinds.child", note: "addChild Panel, removeChild Panel") { scene in
            try await scene.addChild("Panel")
            try await scene.removeChild("Panel")
        },
        NavigationKind(name: "kinds.resign-activate", note: "deactivate, activate") { scene in
            try await scene.deactivate()
            try await scene.activate()
        },
        NavigationKind(
            name: "kinds.notifications",
            note: "deactivate, activate, each with its two lifecycle notifications reported",
            pair: { scene in
                try await scene.deactivate()
                try await scene.activate()
            },
            postsNotifications: true,
            floor: "kinds.resign-activate"
        ),
    ]

    /// Each kind's pair, `count` times after `warmup`, on one scene whose root is a tab bar
    /// (two tabs) so that every kind applies. The kinds take turns within each repetition, so
    /// that whatever the machine does meanwhile weighs on all of them alike.
    /// `placement`: the worker is pinned to its CPU (the caller pins the host). Unpinned, the
    /// kinds on the notifying worker are compared with those on the other, whose draws of the
    /// kernel's (see `DrawLog`) may differ: a repetition counts only if both workers kept one
    /// draw, the same, throughout it; `unpinnedNote` says how many did. Too few did: the
    /// two workers are not `comparable`, and the rows that compare them are not judged.
    package static func navigationKinds(
        placement: BenchPlacement? = nil,
        warmup: Int,
        count: Int
    ) async throws -> (results: [KindResult], unpinnedNote: String, comparable: Bool) {
        var configuration = configuration()
        // Full within the warm-up, as a long-running host's history is (see `transition`):
        // each kind then pays for the events it records as such a host does, by evicting old
        // ones, not by growing a new host's heap (a page fault every dozen events, which
        // weighed on the kinds that record more, the notifications above all).
        configuration.traceHistoryLimitBytes = 128 << 10
        let host = try SceneHost(configuration: configuration)
        let scene = try host.scene("K")
        try await scene.connect(launch: LaunchParameters(tabs: ["Root", "Second"]))
        if let placement, let pid = await scene.status().pid { _ = placement.pinChild(pid) }
        // The worker of a UIKit app posts the lifecycle notifications: the same worker, told to,
        // with the same root, so that its pair differs from its floor's by the notifications alone.
        let notifying = try host.scene("N")
        try await notifying.connect(
            worker: [BenchPaths.executable, "worker", "--lifecycle-notifications"],
            launch: LaunchParameters(tabs: ["Root", "Second"])
        )
        if let placement, let pid = await notifying.status().pid { _ = placement.pinChild(pid) }
        let kinds = navigationKinds
        let workerPIDs = (plain: await scene.status().pid, notifying: await notifying.status().pid)
        let workers = placement == nil ? [workerPIDs.plain, workerPIDs.notifying] : []
        let (samples, kept, cpu) = try await withTaskExecutorPreference(host.taskExecutor) {
            var samples = [Samples](repeating: Samples(), count: kinds.count)
            // CPU per pair, summed over the repetitions timed (read outside the timed span).
            var cpu = [KindCPU](repeating: KindCPU(), count: kinds.count)
            // Unpinned: each repetition's figures, under the draw both workers kept throughout
            // it (nil: they differed, or one moved).
            var repetitions: [(draw: BenchPlacement?, figures: [Double])] = []
            var drawsBefore = draws(of: workers)
            for index in 0..<(warmup + count) {
                var repetition = [Double](repeating: 0, count: kinds.count)
                // Each repetition starts one kind further on, so that every kind, push included,
                // runs after every other equally often: what a pair leaves behind (a release,
                // a deinit, a colder cache) weighs on all of them alike, not on its neighbour.
                for step in 0..<kinds.count {
                    let position = (index + step) % kinds.count
                    let notifies = kinds[position].postsNotifications
                    let worker = notifies ? workerPIDs.notifying : workerPIDs.plain
                    let hostBefore = BenchCPUClock.host()
                    let workerBefore = worker.flatMap(BenchCPUClock.process)
                    let start = BenchClock.now()
                    try await kinds[position].pair(notifies ? notifying : scene)
                    repetition[position] = BenchClock.microseconds(from: start, to: BenchClock.now())
                    if index >= warmup {
                        cpu[position].add(
                            host: (hostBefore, BenchCPUClock.host()),
                            worker: (workerBefore, worker.flatMap(BenchCPUClock.process))
                        )
                    }
                }
                let drawsAfter = draws(of: workers)
                defer { drawsBefore = drawsAfter }
                guard index >= warmup else { continue }
                for position in kinds.indices { samples[position].append(repetition[position]) }
                let oneDraw = drawsAfter == drawsBefore && Set(drawsAfter).count == 1
                repetitions.append((oneDraw ? drawsAfter.first ?? nil : nil, repetition))
            }
            // The draw both kept most often; too few such repetitions to compare on: every
            // repetition, and the note says so.
            let common = BenchPlacement.allCases.max { draw, other in
                repetitions.count { $0.draw == draw } < repetitions.count { $0.draw == other }
            }
            let kept = repetitions.filter { $0.draw != nil && $0.draw == common }
            guard !workers.isEmpty, kept.count * 4 >= count else { return (samples, nil as Int?, cpu) }
            var keptSamples = [Samples](repeating: Samples(), count: kinds.count)
            for repetition in kept {
                for position in kinds.indices { keptSamples[position].append(repetition.figures[position]) }
            }
            return (keptSamples, kept.count, cpu)
        }
        await host.quit()
        let note =
            workers.isEmpty
            ? ""
            : kept.map {
                "; unpinned, the \($0) of \(count) repetitions in which the kernel kept both workers in the same draw"
            }
                ?? "; unpinned, every repetition: the kernel seldom kept both workers in one draw, so the "
                + "notifying worker's pair is not judged against the other's"
        let results = kinds.indices.map { position in
            KindResult(
                kind: kinds[position],
                samples: samples[position],
                hostCPU: cpu[position].host.perPair,
                workerCPU: cpu[position].worker.perPair
            )
        }
        return (results, note, workers.isEmpty || kept != nil)
    }

    /// One kind's pairs: their latencies, and the CPU per pair of the host (all its threads)
    /// and of the worker, in microseconds (nil when a CPU clock could not be read).
    package struct KindResult: Sendable {
        package var kind: NavigationKind
        package var samples: Samples
        package var hostCPU: Double?
        package var workerCPU: Double?
    }

    /// CPU summed over a kind's timed pairs, per side.
    private struct KindCPU {
        struct Sum {
            var nanoseconds: UInt64 = 0
            var pairs = 0
            var isValid = true
            var perPair: Double? { isValid && pairs > 0 ? Double(nanoseconds) / 1000 / Double(pairs) : nil }

            mutating func add(_ reading: (before: UInt64?, after: UInt64?)) {
                guard let before = reading.before, let after = reading.after, after >= before else {
                    isValid = false
                    return
                }
                nanoseconds += after - before
                pairs += 1
            }
        }
        var host = Sum()
        var worker = Sum()

        mutating func add(host: (UInt64?, UInt64?), worker: (UInt64?, UInt64?)) {
            self.host.add(host)
            self.worker.add(worker)
        }
    }

    /// Each worker's draw as it is now: on the calling thread's CPU or another.
    private static func draws(of workers: [Int32?]) -> [BenchPlacement?] {
        workers.map { $0.flatMap(BenchPlacement.observed(child:)) }
    }
}
