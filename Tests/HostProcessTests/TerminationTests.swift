import Glibc
import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

/// LIFECYCLE.md §4–6 end to end: kills, crashes, terminate, suspension, background tasks,
/// watchdogs, memory pressure and queued notifications, each with real workers.
@Suite struct TerminationTests {
    private func exitEvent(_ host: SceneHost, _ scene: String) -> TraceEvent? {
        host.trace.history.last { $0.scene == scene && $0.processEvent == .exited }
    }

    @Test func aCrashRecordsItsStatus() async throws {
        try await withSceneHost(configuration: TestWorker.configuration(["--crash-in", "viewDidLoad"])) { host in
            await #expect(throws: HostError.self) { try await host.scene("A").connect() }
            let exit = try #require(exitEvent(host, "A"))
            #expect(exit.reason == .crashed)
            #expect(exit.status == 70)
        }
    }

    @Test func killWithAnySignalIsSeenWithoutCallback() async throws {
        // A kill with a signal other than SIGKILL waits for the death at most the terminate
        // limit: here the limit of "a kill seen", since a sanitized worker in the full suite
        // has once taken over the usual 10 s to be seen dead after SIGTERM.
        var configuration = TestWorker.configuration()
        configuration.terminateLimit = TestLimit.event
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let other = try host.scene("B")
            try await other.connect()
            let mark = host.lastSeq
            try await scene.kill(signal: SIGTERM)
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "process exited killed", "state foregroundActive>unattached",
                ]
            )
            #expect(exitEvent(host, "A")?.signal == "TERM")
            #expect(await other.status().activation == .foregroundActive)
        }
    }

    @Test func aWorkerIgnoringSIGTERMSurvivesItAndStillTerminates() async throws {
        var configuration = TestWorker.configuration(["--ignore-sigterm"])
        // Both the SIGTERM's grace and the terminate's bound: long enough for a sanitized
        // worker's own exit in the full suite (over 2 s has been seen), which must be seen
        // as `terminated`, not cut short as `terminate-timeout`.
        configuration.terminateLimit = .seconds(10)
        let host = try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.kill(signal: SIGTERM)
            #expect(await scene.status().process == .running)
            try await scene.terminate()
            #expect(exitEvent(host, "A")?.reason == .terminated)
            return host
        }
        #expect(host.livingWorkerPids().isEmpty)
        #expect(host.verifyTrace() == nil)
    }

    @Test func terminateRunsDisconnectThenWillTerminate() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let mark = host.lastSeq
            try await scene.terminate()
            #expect(
                host.compactEvents(of: "A", after: mark) == [
                    "cb sceneWillResignActive", "state foregroundActive>foregroundInactive",
                    "cb sceneDidEnterBackground", "state foregroundInactive>background",
                    "cb stateRestorationActivity",
                    "cb sceneDidDisconnect", "state background>unattached",
                    "cb applicationWillTerminate",
                    "process exited terminated",
                ]
            )
        }
    }

    @Test func aWorkerThatHangsInWillTerminateIsKilledAtTheLimit() async throws {
        var configuration = TestWorker.configuration(["--hang-in", "applicationWillTerminate"])
        configuration.terminateLimit = .milliseconds(200)
        try await withSceneHost(configuration: configuration) { host in
            try await host.scene("A").connect()
            try await host.scene("A").terminate()
            #expect(exitEvent(host, "A")?.reason == .terminateTimeout)
        }
    }

    @Test func suspensionStopsTheWorkerAndTerminateKillsItSilently() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            let pid = try #require(await scene.status().pid)
            #expect(processState(pid) == "T")
            let mark = host.lastSeq
            try await scene.terminate()
            #expect(
                host.compactEvents(of: "A", after: mark) == ["process exited killed", "state background>unattached"]
            )
        }
    }

    @Test func queuedNotificationsAreMergedAndDeliveredFirstOnResume() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect(background: true)
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            try await scene.notify("sync", value: .int(1))
            try await scene.notify("mail", value: .string("hello"))
            try await scene.notify("sync", value: .int(2))
            let mark = host.lastSeq
            try await scene.foreground()
            let events = host.trace.history.filter { $0.scene == "A" && $0.seq > mark }
            #expect(events.first?.processEvent == .resumed)
            let notifications = events.filter { $0.name == "didReceiveNotification" }
            #expect(notifications.map(\.notification) == ["sync", "mail"])
            #expect(notifications.map(\.value) == [.int(2), .string("hello")])
            let firstForeground = try #require(events.firstIndex { $0.name == "viewWillAppear" })
            let lastNotification = try #require(events.lastIndex { $0.name == "didReceiveNotification" })
            #expect(lastNotification < firstForeground)
        }
    }

    @Test func anUnendedBackgroundTaskExpiresThenKillsTheWorker() async throws {
        // Launched into the background with a suspension far away, the task begins in the
        // background: its limit races nothing, however loaded the machine is.
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .seconds(600)
        // However late a loaded machine fires the expiration, the kill comes its lead after
        // the handler's request came back (LIFECYCLE.md §4), never in the same turn.
        configuration.backgroundTaskLimit = .seconds(3)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect(background: true)
            try await scene.beginBackgroundTask()
            try await scene.waitFor(process: .terminated, timeout: TestLimit.event)
            let names = host.trace.history.filter { $0.scene == "A" }.compactMap(\.name)
            #expect(names.contains("backgroundTaskExpiration"))
            #expect(!host.trace.history.contains { $0.scene == "A" && $0.processEvent == .suspended })
            #expect(exitEvent(host, "A")?.reason == .backgroundTaskTimeout)
        }
    }

    @Test func anEndedBackgroundTaskLetsTheWorkerSuspend() async throws {
        var configuration = TestWorker.configuration()
        // The task ends by request, not by racing its limit (a loaded sanitizer run has taken
        // 0.74 s from begin to end).
        configuration.backgroundTaskLimit = .seconds(600)
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.beginBackgroundTask()
            try await scene.background()
            try await scene.endBackgroundTask()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
        }
    }

    @Test func launchAndTransitionWatchdogs() async throws {
        var configuration = TestWorker.configuration(["--hang-in", "viewDidLoad"])
        configuration.launchLimit = .milliseconds(300)
        try await withSceneHost(configuration: configuration) { host in
            await #expect(throws: HostError.self) { try await host.scene("A").connect() }
            #expect(exitEvent(host, "A")?.reason == .watchdog)
        }

        var slow = TestWorker.configuration()
        slow.transitionLimit = .milliseconds(300)
        try await withSceneHost(configuration: slow) { host in
            let scene = try host.scene("B")
            try await scene.connect(worker: [TestWorker.hostctl, "worker", "--hang-in", "sceneWillResignActive"])
            await #expect(throws: HostError.self) { try await scene.deactivate() }
            #expect(exitEvent(host, "B")?.reason == .watchdog)
        }
    }

    @Test func memoryPressureKillsSuspendedFirstThenWarns() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            try await host.scene("Suspended").connect(background: true)
            try await host.scene("Suspended").waitFor(process: .suspended, timeout: TestLimit.event)
            try await host.scene("Active").connect()
            await host.memoryPressure()
            #expect(exitEvent(host, "Suspended")?.reason == .jetsam)
            #expect(
                host.compactEvents(of: "Suspended").filter { $0.hasPrefix("cb") }.last == "cb stateRestorationActivity"
            )
            let active = host.compactEvents(of: "Active")
            #expect(active.suffix(2) == ["cb applicationDidReceiveMemoryWarning", "cb didReceiveMemoryWarning Root"])
        }
    }

    /// Jetsam kills the suspended scene that frees the most first (LIFECYCLE.md §4): with
    /// the limit between the two, killing the large one is enough, and the small one lives.
    @Test func memoryPressureKillsTheLargestSuspendedSceneFirst() async throws {
        // A plain worker's tree, measured first: under a sanitizer its shadow memory makes it
        // several times what it is in a plain build.
        let smallBytes = try await withSceneHost(configuration: TestWorker.configuration()) { host in
            try await host.scene("Probe").connect(background: true)
            try await host.scene("Probe").waitFor(process: .suspended, timeout: TestLimit.event)
            return await host.controlRows().first?.residentBytes ?? 0
        }
        #expect(smallBytes > 0)
        var configuration = TestWorker.configuration()
        // Above the small worker's tree (or the two together), below the large one's.
        configuration.memoryLimitBytes = smallBytes + ProcessTreeMemoryTests.helperBytes / 2
        configuration.memoryCheckInterval = .seconds(3600)  // only the explicit request below acts
        try await withSceneHost(configuration: configuration) { host in
            try await host.scene("Large").connect(background: true, worker: ProcessTreeMemoryTests.launcher)
            try await host.scene("Small").connect(background: true)
            try await host.scene("Large").waitFor(process: .suspended, timeout: TestLimit.event)
            try await host.scene("Small").waitFor(process: .suspended, timeout: TestLimit.event)
            let sizes = await host.controlRows().map { "\($0.scene): \(($0.residentBytes ?? 0) >> 20) MiB" }
            await host.memoryPressure()
            let kills = host.trace.history.filter { $0.processEvent == .exited }.map { $0.scene ?? "" }
            #expect(kills == ["Large"], "\(sizes)")
            #expect(exitEvent(host, "Large")?.reason == .jetsam)
            #expect(try await host.scene("Small").status().process == .suspended)
        }
    }

    @Test func overTheMemoryLimitRunningWorkersAreKilledActiveLast() async throws {
        var configuration = TestWorker.configuration()
        configuration.memoryLimitBytes = 1
        configuration.memoryCheckInterval = .seconds(3600)  // only the explicit request below acts
        configuration.backgroundTaskLimit = .seconds(60)  // the kill must come from the memory limit
        try await withSceneHost(configuration: configuration) { host in
            try await host.scene("Active").connect()
            try await host.scene("Inactive").connect()
            try await host.scene("Inactive").deactivate()
            try await host.scene("Background").connect()
            try await host.scene("Background").beginBackgroundTask()
            try await host.scene("Background").background()
            await host.memoryPressure()
            let kills = host.trace.history.filter { $0.processEvent == .exited }.map { $0.scene ?? "" }
            #expect(kills == ["Background", "Inactive", "Active"])
            #expect(host.trace.history.filter { $0.processEvent == .exited }.allSatisfy { $0.reason == .jetsam })
        }
    }

    @Test func sessionsSurviveAHostRestartAndOfflineDiscardsAreReported() async throws {
        let directory = makeTemporaryDirectory()
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: directory)) { first in
            try await first.scene("A").connect()
            try await first.scene("A").push("Detail")
            try await first.scene("A").background()
            try await first.scene("B").connect(background: true)
        }

        try SessionStore(directory: directory).markDiscarded("B")
        try await withSceneHost(configuration: TestWorker.configuration(stateDirectory: directory)) { second in
            // Outside the macro: see "Closures in macro arguments" in TestSupport.swift.
            let reported = second.trace.history.contains { $0.scene == "B" && $0.name == "didDiscardSceneSessions" }
            #expect(reported)
            #expect(second.sessions.session("B") == nil)
            try await second.scene("A").connect()
            let willConnect = second.trace.history.first { $0.scene == "A" && $0.name == "willConnectTo" }
            guard case .object(let restoration)? = willConnect?.restoration else {
                Issue.record("no restoration state after the restart")
                return
            }
            #expect(restoration["stack"] == .array([.string("Root"), .string("Detail")]))
            #expect(!second.trace.history.contains { $0.scene == "A" && $0.name == "configurationForConnecting" })
            try await second.scene("A").discard()
            #expect(second.sessions.session("A") == nil)
            await #expect(throws: HostError.self) { try await second.scene("A").activate() }
        }
    }
}

/// The state letter of /proc/PID/stat (`R`, `S`, `T` for stopped, …).
func processState(_ pid: Int32) -> String? {
    guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
    defer { fclose(file) }
    var buffer = [CChar](repeating: 0, count: 512)
    guard fgets(&buffer, 512, file) != nil else { return nil }
    let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard let close = line.lastIndex(of: ")") else { return nil }
    return line[line.index(close, offsetBy: 2)...].first.map(String.init)
}

/// A fresh directory under /tmp.
func makeTemporaryDirectory() -> String {
    var template = Array("/tmp/scenehost-test-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { buffer in
        String(cString: mkdtemp(buffer.baseAddress!))
    }
}
