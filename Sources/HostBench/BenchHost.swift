import Glibc
import HostProcess
import Protocol

/// The benchmarks that drive a real `SceneHost` through its public API, with real workers
/// (this hostctl in worker mode).
package enum BenchHost {
    /// The tuning of the hosts the bench starts now (`--tuning`; each setting is a pass).
    @TaskLocal package static var tuning: HostTuning = .plain

    /// Generous limits: a watchdog must never fire because the machine is busy.
    package static func configuration(suspendDelay: Duration = .seconds(3600)) -> HostConfiguration {
        var configuration = HostConfiguration(worker: [BenchPaths.executable, "worker"])
        configuration.tuning = tuning
        configuration.suspendDelay = suspendDelay
        configuration.launchLimit = .seconds(120)
        configuration.transitionLimit = .seconds(30)
        configuration.terminateLimit = .seconds(30)
        // A long-running host's history is full: each event it records evicts old ones, and
        // its heap stays the size it is. 4 MiB gets there within the first rounds. (Still
        // growing, the history cost the loop page faults and mprotect(2) calls, 9% of its time
        // in `throughput.64`, a cost no host pays for long.)
        configuration.traceHistoryLimitBytes = 4 << 20
        return configuration
    }

    /// Alternating `deactivate`/`activate` on a scene in `foregroundActive`, one sample per
    /// transition (each is one request round trip). Leaves the scene in `foregroundActive`.
    package static func roundTrips(_ scene: SceneHandle, warmup: Int, count: Int) async throws -> Samples {
        var samples = Samples()
        samples.reserveCapacity(count)
        var total = warmup + count
        if total % 2 == 1 { total += 1 }
        for index in 0..<total {
            let start = BenchClock.now()
            if index % 2 == 0 {
                try await scene.deactivate()
            } else {
                try await scene.activate()
            }
            let end = BenchClock.now()
            if index >= warmup && samples.count < count {
                samples.append(BenchClock.microseconds(from: start, to: end))
            }
        }
        return samples
    }

    /// Connects every scene, at most `parallelism` at a time; one latency per scene.
    package static func connectAll(_ scenes: [SceneHandle], parallelism: Int) async throws -> Samples {
        try await withThrowingTaskGroup(of: Double.self) { group in
            var samples = Samples()
            var next = 0
            func start(_ scene: SceneHandle) {
                group.addTask { try await measure { try await scene.connect() } }
            }
            while next < min(parallelism, scenes.count) {
                start(scenes[next])
                next += 1
            }
            while let latency = try await group.next() {
                samples.append(latency)
                if next < scenes.count {
                    start(scenes[next])
                    next += 1
                }
            }
            return samples
        }
    }

    /// The PSS and the private memory (USS), in KiB, of each scene's live worker.
    package static func workerMemory(_ scenes: [SceneHandle]) async -> (pss: Samples, uss: Samples) {
        var pss = Samples()
        var uss = Samples()
        for scene in scenes {
            guard let pid = await scene.status().pid else { continue }
            if let value = BenchEnvironment.proportionalSetKiB(of: pid) { pss.append(value) }
            if let value = BenchEnvironment.privateKiB(of: pid) { uss.append(value) }
        }
        return (pss, uss)
    }

    // MARK: Benchmarks

    /// `transition`: one scene, `deactivate`/`activate` alternating; the latencies, and the
    /// CPU per transition of the host and of the worker, which says whose work to cut.
    /// `inApp`: the scene shares its worker with a second scene of its app (in the background),
    /// so every frame carries its scene (an app process, LIFECYCLE.md §4a).
    package static func transition(
        placement: BenchPlacement? = nil,
        warmup: Int,
        count: Int,
        inApp: Bool = false
    ) async throws -> RoundTripCost {
        var configuration = configuration()
        // Full before the warm-up ends (two events a transition, a few hundred bytes each), as
        // a long-running host's is: with 4 MiB, the whole run grew the heap, a page fault
        // every dozen events, which only a new host pays.
        configuration.traceHistoryLimitBytes = 128 << 10
        let host = try SceneHost(configuration: configuration)
        let scene = try host.scene("T")
        try await scene.connect(launch: LaunchParameters(app: inApp ? "Bench" : nil))
        if inApp { try await host.scene("T2").connect(background: true, launch: LaunchParameters(app: "Bench")) }
        let pid = await scene.status().pid
        if let placement, let pid { _ = placement.pinChild(pid) }
        // The CPU of the measured round trips alone (`roundTrips` runs an even number of each):
        // a round of the round-trip group warms up a host of its own.
        let (meter, samples, log) = try await withTaskExecutorPreference(host.taskExecutor) {
            _ = try await roundTrips(scene, warmup: 0, count: warmup)
            let meter = CPUMeter(child: pid)
            var samples = Samples()
            var log = DrawLog(child: pid, placement: placement)
            // In batches (of an even count: deactivate and activate alternate), each filed
            // under the kernel's draw when unpinned.
            while samples.count < count {
                let batch = try await roundTrips(scene, warmup: 0, count: min(DrawLog.batch, count - samples.count))
                log.add(batch)
                samples.append(contentsOf: batch)
            }
            return (meter, samples, log)
        }
        let cost = meter.cost(samples, runs: (count + 1) / 2 * 2, draws: log.draws)
        await host.quit()
        return cost
    }

    /// `connect`: a new scene to `foregroundActive` acknowledged, one at a time; each is
    /// killed (untimed) before the next.
    ///
    /// `prewarmed`: with the host's default prewarming, each connect comes 10 ms (untimed)
    /// after the kill before it, as launches a person makes come apart, so that the worker the
    /// last launch's take started has finished starting. Without it, every connect spawns.
    package static func connect(warmup: Int, count: Int, prewarmed: Bool) async throws -> Samples {
        var configuration = configuration()
        if !prewarmed { configuration.prewarmedWorkers = 0 }
        let host = try SceneHost(configuration: configuration)
        var samples = Samples()
        for index in 0..<(warmup + count) {
            if prewarmed { try await Task.sleep(for: .milliseconds(10)) }
            let scene = try host.scene("C\(index)")
            let latency = try await measure { try await scene.connect() }
            if index >= warmup { samples.append(latency) }
            try await scene.kill(signal: SIGKILL)
        }
        await host.quit()
        return samples
    }

    /// `connect.in-app`: a new scene of a running app to `foregroundActive` acknowledged: it
    /// connects in the app's process, no spawn. Each is sent to the background and
    /// disconnected (untimed) before the next; the process runs on.
    package static func connectInApp(warmup: Int, count: Int) async throws -> Samples {
        let host = try SceneHost(configuration: configuration())
        let app = LaunchParameters(app: "Bench")
        try await host.scene("First").connect(launch: app)
        var samples = Samples()
        for index in 0..<(warmup + count) {
            let scene = try host.scene("W\(index)")
            let latency = try await measure { try await scene.connect(launch: app) }
            if index >= warmup { samples.append(latency) }
            try await scene.background()
            try await scene.disconnect()
        }
        await host.quit()
        return samples
    }

    /// `kill`: SIGKILL from outside the host until the `exited` trace event reaches a subscriber.
    package static func kill(warmup: Int, count: Int) async throws -> Samples {
        // Without prewarming: the worker each connect's end starts ahead would be starting
        // (a millisecond of CPU on a two-core machine) beside the kill that follows at once.
        var configuration = configuration()
        configuration.prewarmedWorkers = 0
        let host = try SceneHost(configuration: configuration)
        var events = host.trace.events(fromSeq: Int.max).makeAsyncIterator()
        var samples = Samples()
        for index in 0..<(warmup + count) {
            let name = "K\(index)"
            let scene = try host.scene(name)
            try await scene.connect()
            guard let pid = await scene.status().pid else { throw BenchFailure("scene \(name) has no worker") }
            let start = BenchClock.now()
            _ = Glibc.kill(pid, SIGKILL)
            while let event = await events.next() {
                if event.scene == name, event.processEvent == .exited { break }
            }
            let end = BenchClock.now()
            if index >= warmup { samples.append(BenchClock.microseconds(from: start, to: end)) }
        }
        await host.quit()
        return samples
    }

    /// `throughput.N`: N tasks each alternating transitions on its own scene; transitions/s
    /// per round, plus every transition's latency.
    /// `beforeRounds`: runs before each count's timed rounds (its floor, measured next to it:
    /// this machine's speed changes from one minute to the next).
    package static func throughput(
        counts: [Int],
        rounds: Int,
        transitionsPerRound: Int,
        beforeRounds: (Int) async -> Void = { _ in }
    ) async throws -> [(scenes: Int, rate: Samples, latency: Samples, reservedCPU: Int32?)] {
        let host = try SceneHost(configuration: configuration())
        var scenes: [SceneHandle] = []
        var results: [(scenes: Int, rate: Samples, latency: Samples, reservedCPU: Int32?)] = []
        for count in counts {
            var added: [SceneHandle] = []
            while scenes.count + added.count < count {
                added.append(try host.scene("P\(scenes.count + added.count)"))
            }
            _ = try await connectAll(added, parallelism: 16)
            scenes += added
            let active = Array(scenes.prefix(count))
            let perScene = transitionsPerScene(count: count, perRound: transitionsPerRound)
            await beforeRounds(count)
            // One untimed round to warm every scene up.
            _ = try await drive(active, transitions: 2)
            var rate = Samples()
            var latency = Samples()
            for _ in 0..<rounds {
                let start = BenchClock.now()
                let latencies = try await drive(active, transitions: perScene, on: host.taskExecutor)
                let seconds = Double(BenchClock.now() - start) / 1e9
                rate.append(Double(count * perScene) / seconds)
                latency.append(contentsOf: latencies)
            }
            results.append((count, rate, latency, EventLoop.shared.reservedLoopCPU))
        }
        await host.quit()
        return results
    }

    /// Each scene's share of a round of `throughput.N`: even, so a scene ends a round in the
    /// state it began it in.
    package static func transitionsPerScene(count: Int, perRound: Int) -> Int {
        let share = max(2, perRound / count)
        return share % 2 == 1 ? share + 1 : share
    }

    private static func drive(
        _ scenes: [SceneHandle],
        transitions: Int,
        on executor: (any TaskExecutor)? = nil
    ) async throws -> Samples {
        try await withThrowingTaskGroup(of: Samples.self) { group in
            for scene in scenes {
                group.addTask(executorPreference: executor) {
                    try await roundTrips(scene, warmup: 0, count: transitions)
                }
            }
            var all = Samples()
            while let samples = try await group.next() { all.append(contentsOf: samples) }
            return all
        }
    }

    /// `memory`: `count` idle scenes in `foregroundActive`: each worker's PSS, and the host's
    /// RSS growth divided by the number of scenes.
    package static func memory(
        count: Int
    ) async throws -> (workerPSS: Samples, workerUSS: Samples, hostPerScene: Double) {
        BenchEnvironment.trimHeap()
        let before = BenchEnvironment.hostResidentKiB() ?? .nan
        let host = try SceneHost(configuration: configuration())
        let scenes = try (0..<count).map { try host.scene("M\($0)") }
        _ = try await connectAll(scenes, parallelism: 16)
        try await Task.sleep(for: .milliseconds(100))
        let after = BenchEnvironment.hostResidentKiB() ?? .nan
        let memory = await workerMemory(scenes)
        await host.quit()
        return (memory.pss, memory.uss, (after - before) / Double(count))
    }

    /// `suspend-resume`: `background` until the worker is stopped (suspend delay 0), then
    /// `foreground` back to `foregroundActive`.
    package static func suspendResume(
        warmup: Int,
        count: Int
    ) async throws -> (cycle: Samples, suspend: Samples, resume: Samples) {
        let host = try SceneHost(configuration: configuration(suspendDelay: .zero))
        let scene = try host.scene("S")
        try await scene.connect()
        var cycle = Samples()
        var suspend = Samples()
        var resume = Samples()
        for index in 0..<(warmup + count) {
            let start = BenchClock.now()
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: .seconds(30))
            let suspended = BenchClock.now()
            try await scene.foreground()
            let end = BenchClock.now()
            if index >= warmup {
                cycle.append(BenchClock.microseconds(from: start, to: end))
                suspend.append(BenchClock.microseconds(from: start, to: suspended))
                resume.append(BenchClock.microseconds(from: suspended, to: end))
            }
        }
        await host.quit()
        return (cycle, suspend, resume)
    }

    /// `terminate`: wall time to terminate `scenes` running scenes at once, `rounds` times.
    package static func terminate(scenes count: Int, rounds: Int) async throws -> Samples {
        let host = try SceneHost(configuration: configuration())
        var samples = Samples()
        for round in 0..<rounds {
            let scenes = try (0..<count).map { try host.scene("X\(round).\($0)") }
            _ = try await connectAll(scenes, parallelism: 16)
            let wall = try await measure {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for scene in scenes { group.addTask { try await scene.terminate() } }
                    try await group.waitForAll()
                }
            }
            samples.append(wall)
        }
        await host.quit()
        return samples
    }

    /// One size of the scaling curve.
    package struct ScalePoint: Sendable {
        package var scenes: Int
        package var connect: Samples
        package var connectBatch: Double
        package var roundTrip: Samples
        /// The same round trips with the host and that scene's worker pinned, per placement.
        package var pinnedRoundTrips: [BenchPlacement: Samples] = [:]
        package var workerPSS: Samples
        package var workerUSS: Samples
        package var hostPerScene: Double
        package var quit: Double
    }

    /// `scale.N`: N live scenes: the batch connect, round trips on one of them (unpinned, then
    /// in each of `placements`: the host and that scene's worker pinned), memory.
    package static func scale(
        scenes count: Int,
        warmup: Int,
        roundTrips trips: Int,
        placements: [BenchPlacement] = []
    ) async throws -> ScalePoint {
        BenchEnvironment.trimHeap()
        let before = BenchEnvironment.hostResidentKiB() ?? .nan
        let host = try SceneHost(configuration: configuration())
        let scenes = try (0..<count).map { try host.scene("N\($0)") }
        let batchStart = BenchClock.now()
        let connect = try await connectAll(scenes, parallelism: 32)
        let batch = BenchClock.microseconds(from: batchStart, to: BenchClock.now())
        let roundTrip = try await roundTrips(scenes[0], warmup: warmup, count: trips)
        var pinned: [BenchPlacement: Samples] = [:]
        if let pid = await scenes[0].status().pid {
            // A placement is ours to make: the loop keeps no CPU of its own meanwhile.
            await EventLoop.shared.setCPUReservation(allowed: false)
            do {
                for placement in placements where placement.isAvailable && BenchPlacement.pinHost() {
                    defer { BenchPlacement.unpinHost() }
                    guard placement.pinChild(pid) else { continue }
                    pinned[placement] = try await roundTrips(scenes[0], warmup: warmup, count: trips)
                }
            } catch {
                await EventLoop.shared.setCPUReservation(allowed: true)
                throw error
            }
            await EventLoop.shared.setCPUReservation(allowed: true)
        }
        let after = BenchEnvironment.hostResidentKiB() ?? .nan
        let memory = await workerMemory(scenes)
        let quit = await measure { await host.quit() }
        return ScalePoint(
            scenes: count,
            connect: connect,
            connectBatch: batch,
            roundTrip: roundTrip,
            pinnedRoundTrips: pinned,
            workerPSS: memory.pss,
            workerUSS: memory.uss,
            hostPerScene: (after - before) / Double(count),
            quit: quit
        )
    }
}
