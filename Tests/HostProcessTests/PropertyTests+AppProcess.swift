import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// Model-based tests of an app's scenes in one process (LIFECYCLE.md §4a): three scenes that
/// connect in one app take random steps, kills included, against real workers, each scene's
/// own oracle and the app-level rules of `SpecAppProcess` (written apart from the host). After
/// every step the host's status and the trace agree with the oracles, and every scene whose
/// worker is alive in the app runs in the one process.
extension PropertyTests {
    static let appScenes = ["A", "B", "C"]
    static let appSeeds: [UInt64] = Array(1...16)
    static let appStepsPerSeed = 50

    @Test func appProcessesFollowTheModel() async throws {
        let failures = await Self.failures(of: Self.appSeeds, width: 3) { await Self.checkAppSeed($0) }
        for failure in failures { Issue.record("\(failure)") }
    }

    /// The seeds share a process, suspend it together, resume it for one another and die
    /// together: each of those happens in some seed.
    @Test func theAppSeedsShareSuspendResumeAndKillTheProcess() {
        var shared = 0
        var continued = 0
        var diedTogether = 0
        var sharedSuspensions = 0
        for seed in Self.appSeeds {
            var app = SpecAppProcess()
            for step in Self.generateInApp(seed: seed, count: Self.appStepsPerSeed) where app.allows(step) {
                let outcome = app.apply(step)
                continued += outcome.continued.count
                diedTogether += outcome.died.count
                if app.processMates(of: step.scene).count > 1 { shared += 1 }
                let due = app.dueForSuspension
                if due.count > 1 { sharedSuspensions += 1 }
                for scene in due { app.suspended(scene) }
            }
        }
        #expect(
            shared >= 150 && continued >= 6 && diedTogether >= 20 && sharedSuspensions >= 3,
            "shared \(shared), continued \(continued), died together \(diedTogether), suspended together \(sharedSuspensions)"
        )
    }

    /// A step of `randomStep`'s, each connect naming the app (one asking for the app-based
    /// lifecycle is then refused).
    static func appStep(_ generator: inout SeededGenerator, index: Int) -> Step {
        let step = randomStep(&generator, index: index, scenes: appScenes)
        guard case .op(let scene, .connect(let background, let root, let worker, var launch)) = step else {
            return step
        }
        launch.app = "App"
        return .op(scene: scene, .connect(background: background, root: root, worker: worker, launch: launch))
    }

    /// Three steps in four drawn among the legal ones; notifications for a suspended scene
    /// now and then, to be held and delivered when a sibling resumes the process.
    static func generateInApp(seed: UInt64, count: Int) -> [Step] {
        var generator = SeededGenerator(seed: seed &* 31 &+ 1009)
        var app = SpecAppProcess()
        var steps: [Step] = []
        for index in 0..<count {
            let legalOnly = generator.chance(0.75)
            var step = appStep(&generator, index: index)
            for _ in 0..<20 where legalOnly && !app.allows(step) { step = appStep(&generator, index: index) }
            if let suspended = appScenes.first(where: { app.oracle($0).place == .suspended }), generator.chance(0.3) {
                step = .op(scene: suspended, .notify(name: index % 3 == 0 ? "mail" : "sync", value: .int(index)))
            }
            steps.append(step)
            if app.allows(step) { _ = app.apply(step) }
            for scene in app.dueForSuspension { app.suspended(scene) }
        }
        return steps
    }

    static func checkAppSeed(_ seed: UInt64) async -> String? {
        await checkSeed(seed, steps: generateInApp(seed: seed, count: appStepsPerSeed), runner: { await runInApp($0) })
    }

    /// Runs `steps` on a fresh host; the first disagreement, if any.
    static func runInApp(_ steps: [Step]) async -> Failure? {
        var app = SpecAppProcess()
        return await runSteps(steps) { step, host, verifier, verifiedCount in
            try await runInApp(step, on: host, app: &app)
            try compare(
                host: host,
                scenes: appScenes,
                oracles: app.scenes,
                verifier: &verifier,
                verifiedCount: &verifiedCount
            )
            for scene in appScenes { try await compare(scene, host: host, oracle: app.oracle(scene)) }
            try await compareProcesses(host: host, app: app)
        }
    }

    static func runInApp(_ step: Step, on host: SceneHost, app: inout SpecAppProcess) async throws {
        let mark = host.lastSeq
        let scene = step.scene
        let handle = try host.scene(scene)
        switch step {
        case .crash:
            guard app.allows(step) else { return }
            guard let pid = await handle.status().pid else {
                throw Failure(step: 0, message: "the host has no pid for a live worker")
            }
            guard Glibc.kill(pid, SIGKILL) == 0 else {
                throw Failure(step: 0, message: "kill(\(pid), SIGKILL) failed: errno \(errno)")
            }
        case .op(_, let op):
            let legal = app.allows(step)
            try await perform(op, on: handle, legal: legal, in: app.oracle(scene))
            guard legal else { return }
        }
        let outcome = app.apply(step)
        // A kill reaches every scene of the process: each is terminated until its next launch.
        for dead in outcome.died + (step.isCrash ? [scene] : []) {
            do {
                try await host.scene(dead).waitFor(process: .terminated, timeout: TestLimit.event)
            } catch {
                throw Failure(step: 0, message: "the oracle expects \(dead)'s worker to die with the process: \(error)")
            }
        }
        // The trace's `resumed`, not the status: an idle scene is suspended again after the
        // delay, possibly before a look at its status.
        for continued in outcome.continued {
            do {
                _ = try await host.trace.firstEvent(fromSeq: mark + 1, "\(continued) resumed") {
                    $0.scene == continued && $0.processEvent == .resumed
                }
            } catch {
                throw Failure(
                    step: 0,
                    message: "the oracle expects \(continued) to run again with the process: \(error)"
                )
            }
        }
        for (receiver, expected) in outcome.delivered {
            let delivered =
                receiver == scene
                ? notifications(of: receiver, in: host.trace.history.filter { $0.seq > mark })
                : try await awaitNotifications(of: receiver, count: expected.count, on: host, since: mark)
            if delivered != expected {
                throw Failure(
                    step: 0,
                    message: "\(receiver) was delivered \(delivered), the oracle expects \(expected)"
                )
            }
        }
        for due in app.dueForSuspension {
            do {
                try await host.scene(due).waitFor(process: .suspended, timeout: TestLimit.event)
            } catch {
                throw Failure(
                    step: 0,
                    message: "the oracle expects \(due) suspended (its app's process idle): \(error)"
                )
            }
            app.suspended(due)
        }
    }

    static func notifications(of scene: String, in events: [TraceEvent]) -> [String] {
        events.filter { $0.scene == scene && $0.name == CallbackName.didReceiveNotification.rawValue }
            .map { "\($0.notification ?? "?")=\($0.value?.jsonText ?? "?")" }
    }

    /// A sibling's held notifications arrive after the step returned: waits for `count` of
    /// them (fewer if they never come, for the comparison to say so).
    static func awaitNotifications(
        of scene: String,
        count: Int,
        on host: SceneHost,
        since mark: Int
    ) async throws
        -> [String]
    {
        var next = mark + 1
        for _ in 0..<count {
            guard
                let event = try? await host.trace.firstEvent(
                    fromSeq: next,
                    "\(scene)'s notification",
                    where: {
                        $0.scene == scene && $0.name == CallbackName.didReceiveNotification.rawValue
                    }
                )
            else { break }
            next = event.seq + 1
        }
        return notifications(of: scene, in: host.trace.history.filter { $0.seq > mark && $0.seq < next })
    }

    /// Every scene alive in the app runs in the one process; any other in one of its own.
    static func compareProcesses(host: SceneHost, app: SpecAppProcess) async throws {
        var pids: [String: Int32] = [:]
        for scene in appScenes {
            if let pid = await (try host.scene(scene)).status().pid, app.oracle(scene).states.process.isAlive {
                pids[scene] = pid
            }
        }
        for scene in pids.keys {
            let mates = app.processMates(of: scene)
            let same = pids.filter { $0.value == pids[scene] }.keys.sorted()
            if same != mates {
                throw Failure(
                    step: 0,
                    message: "\(scene)'s process carries \(same), the oracle expects \(mates)"
                )
            }
        }
    }
}

extension PropertyTests.Step {
    var isCrash: Bool {
        if case .crash = self { true } else { false }
    }
}
