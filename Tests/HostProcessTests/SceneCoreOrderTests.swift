import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// End to end, real workers: replies, callbacks and deaths reach a scene in one order.
@Suite struct SceneCoreOrderTests {
    /// Issue 12's wedge: a worker that dies at once (its hello write may find the pipe closed
    /// before its death is seen), then `connect` again at once. The death must be known before
    /// the first connect fails, so the second is judged against an unattached scene.
    @Test func aWorkerThatDiesAtOnceNeverWedgesTheScene() async throws {
        let host = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            for round in 1...200 {
                do {
                    try await scene.connect(worker: ["/bin/true"])
                    Issue.record("round \(round): connect with /bin/true succeeded")
                } catch HostError.workerExited(_, "connect", .crashed, _) {
                } catch {
                    Issue.record("round \(round): connect with /bin/true failed with \(error)")
                }
                try await scene.connect()
                #expect(await scene.status().activation == .foregroundActive)
                try await scene.kill()
            }
            return host
        }
        let spawned = host.trace.history.filter { $0.processEvent == .spawned }.compactMap(\.pid)
        let exited = Set(host.trace.history.filter { $0.processEvent == .exited }.compactMap(\.pid))
        #expect(spawned.count == 400)
        #expect(spawned.allSatisfy { exited.contains($0) })
        #expect(host.verifyTrace() == nil)
        #expect(!host.trace.history.contains { $0.kind == .error && $0.op == "protocol" })
    }

    /// Issue 13 item 24: a kill acts at once; the transition in flight fails with the death
    /// instead of holding the kill until its watchdog.
    @Test func aKillDoesNotWaitBehindAHungTransition() async throws {
        var configuration = TestWorker.configuration(["--hang-in", "viewWillDisappear"])
        configuration.transitionLimit = .seconds(600)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let events = host.trace.events(fromSeq: host.lastSeq + 1)
            let push = Task { try await scene.push("Detail") }
            // The push is in the worker, hung in Root's viewWillDisappear.
            for await event in events where event.name == CallbackName.viewWillDisappear.rawValue { break }
            let start = ContinuousClock.now
            try await scene.kill()
            await #expect {
                try await push.value
            } throws: { error in
                guard case HostError.workerExited("A", "push", .killed, let detail) = error else { return false }
                return detail.signal == "KILL"
            }
            #expect(ContinuousClock.now - start < .seconds(60))
            #expect(await scene.status().activation == .unattached)
        }
    }

    /// Issue 13 item 21: a signal other than SIGKILL leaves a suspended worker stopped: no
    /// SIGCONT behind the trace's back; the signal is delivered when the scene resumes.
    @Test func aSignalToASuspendedSceneKeepsItStopped() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            let pid = try #require(await scene.status().pid)
            try await scene.kill(signal: SIGWINCH)
            #expect(await scene.status().process == .suspended)
            #expect(ProcessStateProbe.state(of: pid) == "T")
            try await scene.foreground()
            #expect(await scene.status().process == .running)
        }
    }
}

/// The one-letter state of a process in /proc/PID/stat (`T`: stopped).
enum ProcessStateProbe {
    static func state(of pid: Int32) -> String? {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0, let close = buffer[..<count].lastIndex(of: UInt8(ascii: ")")), close + 2 < count else {
            return nil
        }
        return String(UnicodeScalar(buffer[close + 2]))
    }
}

/// LIFECYCLE.md §4 with real processes: a worker still launching is killed silently by a
/// terminate or the host's quit, at once, not after its launch or at the quit's deadline.
@Suite struct LaunchingTerminationTests {
    private static func configuration() -> HostConfiguration {
        var configuration = TestWorker.configuration()
        // Longer than the tests wait: a terminate or quit that waited for either would fail.
        configuration.terminateLimit = .seconds(90)
        configuration.launchLimit = .seconds(90)
        return configuration
    }

    /// Scene L of `host`, launching, and its connect.
    private static func launching(in host: SceneHost) async throws -> (SceneHandle, Task<Void, any Error>) {
        let scene = try host.scene("L")
        // A program that never says ready: it stays launching.
        let connect = Task { try await scene.connect(worker: ["/bin/sleep", "100"]) }
        // A spawn: under a sanitizer, with the suite spawning around it, one has taken longer
        // than an event's limit.
        try await scene.waitFor(process: .launching, timeout: TestLimit.launch)
        return (scene, connect)
    }

    private static func checkSilentKill(_ host: SceneHost) {
        let exited = host.trace.history.filter { $0.scene == "L" && $0.processEvent == .exited }
        #expect(exited.map(\.reason) == [.killed])
        #expect(exited.first?.silent == true)
        #expect(!host.trace.history.contains { $0.scene == "L" && $0.kind == .callback })
    }

    @Test func aTerminateKillsALaunchingWorkerAtOnce() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let (scene, connect) = try await Self.launching(in: host)
            // An event's limit: at once, not at the 90 s limits, even under a sanitizer with the
            // suite around it (a quit there has been seen to take 20 s).
            #expect(await finishes(within: TestLimit.event) { try? await scene.terminate() })
            #expect(await connect.result.isFailure)
            Self.checkSilentKill(host)
        }
    }

    @Test func aQuitKillsALaunchingWorkerAtOnce() async throws {
        let host = try SceneHost(configuration: Self.configuration())
        let (_, connect) = try await Self.launching(in: host)
        #expect(await finishes(within: TestLimit.event) { await host.quit() })
        #expect(await connect.result.isFailure)
        Self.checkSilentKill(host)
        #expect(!host.trace.history.contains { $0.kind == .error && $0.scene == "L" }, "a stray refusal")
        #expect(host.verifyTrace() == nil)
    }
}

extension Result {
    fileprivate var isFailure: Bool {
        if case .failure = self { return true }
        return false
    }
}
