import Glibc
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// Scenes of one app in one worker process (`connect`'s `app`), against real default workers,
/// in real iOS's order (real-ios-orders-3 c13–c15): launched once, a memory warning to the app
/// once then to every window, a disconnect that leaves the process running, suspension only
/// when every window may be suspended, and one `applicationWillTerminate`.
@Suite struct AppProcessTests {
    static func configuration() -> HostConfiguration {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .milliseconds(20)
        return configuration
    }

    static let mail = LaunchParameters(app: "Mail")

    /// `scene`'s events after `seq`, as `PresentationOrderTests` writes them.
    static func events(_ host: SceneHost, _ scene: String, after seq: Int = 0) -> [String] {
        host.trace.history.filter { $0.seq > seq && $0.scene == scene }.map(\.compact)
    }

    /// `verify` rejects the trace with any two of `scene`'s callbacks after `seq` swapped (the
    /// order of each new grammar is checked, not only its events); returns how many swaps.
    @discardableResult
    static func swapsAreRejected(
        _ host: SceneHost,
        _ scene: String,
        after seq: Int,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        let history = host.trace.history
        let callbacks = history.indices.filter {
            history[$0].seq > seq && history[$0].scene == scene && history[$0].kind == .callback
        }
        var swaps = 0
        for (n, i) in callbacks.enumerated() {
            for j in callbacks[(n + 1)...] where history[i].compact != history[j].compact {
                var swapped = history
                swapped[i] = history[j]
                swapped[i].seq = history[i].seq
                swapped[j] = history[i]
                swapped[j].seq = history[j].seq
                swaps += 1
                #expect(
                    firstViolation(swapped) != nil,
                    "swap of \(history[i].compact) and \(history[j].compact) accepted",
                    sourceLocation: sourceLocation
                )
            }
        }
        #expect(swaps > 0, sourceLocation: sourceLocation)
        return swaps
    }

    static func count(_ host: SceneHost, _ name: String) -> Int {
        host.trace.history.filter { $0.kind == .callback && $0.name == name }.count
    }

    /// c13: the second window connects inside the running process: no second launch, the new
    /// session configured, then connected and brought forward; at the end one
    /// `applicationWillTerminate` for the process, after the other window left.
    @Test func aSecondWindowConnectsInTheRunningProcessAndTheAppTerminatesOnce() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let a = try host.scene("A")
            let b = try host.scene("B")
            try await a.connect(launch: Self.mail)
            let mark = host.lastSeq
            try await b.connect(launch: Self.mail)
            let pid = try #require(await a.status().pid)
            #expect(await b.status().pid == pid)
            #expect(await b.status().app == "Mail")
            #expect(
                Self.events(host, "B", after: mark) == [
                    "process attached", "cb configurationForConnecting", "cb willConnectTo", "cb loadView Root",
                    "cb viewDidLoad Root", "cb viewWillAppear Root", "cb viewIsAppearing Root",
                    "cb viewWillLayoutSubviews Root", "cb viewDidLayoutSubviews Root", "cb sceneWillEnterForeground",
                    "state unattached>foregroundInactive", "cb sceneDidBecomeActive",
                    "state foregroundInactive>foregroundActive", "cb viewDidAppear Root",
                ]
            )
            #expect(host.trace.history.filter { $0.processEvent == .spawned }.count == 1)
            Self.swapsAreRejected(host, "B", after: mark)
            #expect(Self.count(host, "didFinishLaunching") == 1)
            let beforeTerminate = host.lastSeq
            try await a.terminate()
            #expect(Self.count(host, "applicationWillTerminate") == 1)
            #expect(
                Self.events(host, "B", after: beforeTerminate).suffix(4) == [
                    "cb sceneDidDisconnect", "state background>unattached", "cb deinit Root", "process detached",
                ]
            )
            #expect(
                Self.events(host, "A", after: beforeTerminate).suffix(3) == [
                    "state background>unattached", "cb applicationWillTerminate", "process exited terminated",
                ]
            )
            // B left before A's terminate began.
            let bLeft = try #require(host.trace.history.last { $0.scene == "B" && $0.processEvent == .detached }?.seq)
            let aDisconnected = try #require(
                host.trace.history.last { $0.scene == "A" && $0.name == "sceneDidDisconnect" }?.seq
            )
            #expect(bLeft < aDisconnected)
            Self.swapsAreRejected(host, "A", after: beforeTerminate)
            Self.swapsAreRejected(host, "B", after: beforeTerminate)
            #expect(host.verifyTrace() == nil)
        }
    }

    /// c14: one `applicationDidReceiveMemoryWarning`, then every loaded controller of every window.
    @Test func aMemoryWarningReachesTheAppOnceThenEveryWindow() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let (a, b) = try await Self.twoMailWindows(on: host)
            try await b.push("Detail")
            let mark = host.lastSeq
            try await a.memoryWarning()
            let warnings = host.trace.history.filter { $0.seq > mark }.map { "\($0.scene ?? "-") \($0.compact)" }
            #expect(
                warnings == [
                    "A cb applicationDidReceiveMemoryWarning", "A cb didReceiveMemoryWarning Root",
                    "B cb didReceiveMemoryWarning Root", "B cb didReceiveMemoryWarning Detail",
                ]
            )
            Self.swapsAreRejected(host, "A", after: mark)
            Self.swapsAreRejected(host, "B", after: mark)
            #expect(host.verifyTrace() == nil)
        }
    }

    /// Memory pressure warns an app once, however many windows it has (c14): one
    /// `applicationDidReceiveMemoryWarning`, each window's controllers once.
    @Test func memoryPressureWarnsAnAppOnce() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            _ = try await Self.twoMailWindows(on: host)
            let mark = host.lastSeq
            await host.memoryPressure()
            let warnings = host.trace.history.filter { $0.seq > mark && $0.kind == .callback }
                .map { "\($0.scene ?? "-") \($0.compact)" }
            #expect(warnings.filter { $0.hasSuffix("applicationDidReceiveMemoryWarning") }.count == 1, "\(warnings)")
            #expect(warnings.filter { $0.hasSuffix("didReceiveMemoryWarning Root") }.count == 2, "\(warnings)")
            #expect(host.verifyTrace() == nil)
        }
    }

    /// A window's background task ended by a main-queue block after another window's request
    /// ran (A's `sceneDidEnterBackground` begins a save and ends it a second later; B gets a
    /// memory warning meanwhile) is A's task, ended as A's change: it was looked for in the
    /// window of the last request, B, which has none, and A's task ran on to its limit.
    @Test func aTaskEndedBetweenTheHostsFramesIsItsWindows() async throws {
        var configuration = Self.configuration()
        configuration.worker = [TestWorker.uikitApp]
        configuration.workerEnvironment = ["ASYNC_SAVE": "1"]
        // Far off: the task must end by the app's call, not at its limit.
        configuration.backgroundTaskLimit = .seconds(60)
        try await withSceneHost(configuration: configuration) { host in
            let (a, b) = try await Self.twoMailWindows(on: host)
            // Before the background: on a loaded machine the save may end before B is asked
            // (the test then sees the plain case, never a false failure).
            let mark = host.lastSeq
            try await a.background()
            try await b.notify("ping", value: .null)
            let ended = try await host.trace.firstEvent(fromSeq: mark + 1, "A's save ended") {
                $0.name == CallbackName.endBackgroundTask.rawValue
            }
            #expect(ended.scene == "A" && ended.origin == "app", "\(ended.compact)")
            #expect(await a.status().hasBackgroundTask == false)
            #expect(host.verifyTrace() == nil)
        }
    }

    /// The trace's processes as an app's windows share them: a window attaches only to a live
    /// process a scene of the trace spawned, and the process is suspended only with every other
    /// window of it in the background. Each window's own checker sees neither.
    @Test func theVerifierChecksWhatTheWindowsOfAProcessShare() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let (a, _) = try await Self.twoMailWindows(on: host)
            try await a.background()
            let history = host.trace.history
            #expect(host.verifyTrace() == nil)
            func firstViolation(_ events: [TraceEvent]) -> LifecycleViolation? {
                var verifier = TraceVerifier()
                return events.lazy.compactMap { verifier.check($0) }.first
            }
            // B attaches to a pid no scene spawned.
            let forged = history.map { event in
                var event = event
                if event.scene == "B", event.processEvent == .attached { event.pid = 4242 }
                return event
            }
            #expect(firstViolation(forged)?.expected.contains("pid 4242 is none") == true)
            // A recorded suspended while B, in the same process, is in front.
            let pid = try #require(await a.status().pid)
            let last = try #require(history.last)
            var stopped = TraceEvent(time: last.time, kind: .process, scene: "A", processEvent: .suspended, pid: pid)
            stopped.seq = last.seq + 1
            let violation = firstViolation(history + [stopped])
            #expect(violation?.expected.contains("(B is foregroundActive)") == true, "\(String(describing: violation))")
        }
    }

    /// c15: a background window disconnects and the process runs on (no terminate, no exit);
    /// reopened, it connects in that process with its restoration state, with neither a launch
    /// nor `configurationForConnecting`.
    @Test func aDisconnectedWindowReconnectsInTheRunningProcess() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let (a, b) = try await Self.twoMailWindows(on: host)
            try await b.push("Detail")
            try await b.background()
            let pid = try #require(await a.status().pid)
            let mark = host.lastSeq
            try await b.disconnect()
            #expect(
                Self.events(host, "B", after: mark) == [
                    "cb sceneDidDisconnect", "state background>unattached", "cb deinit Detail", "cb deinit Root",
                    "process detached",
                ]
            )
            #expect(await b.status().process == .terminated && Glibc.kill(pid, 0) == 0)
            let reconnect = host.lastSeq
            try await b.connect(launch: Self.mail)
            let events = Self.events(host, "B", after: reconnect)
            #expect(Array(events.prefix(2)) == ["process attached", "cb willConnectTo"])
            #expect(!events.contains("cb configurationForConnecting") && !events.contains("cb didFinishLaunching"))
            let restored = host.trace.history.last { $0.scene == "B" && $0.name == "willConnectTo" }?.restoration
            #expect(restored != nil)
            #expect(await b.status().stack == ["Root", "Detail"])
            #expect(Self.count(host, "applicationWillTerminate") == 0)
            Self.swapsAreRejected(host, "B", after: mark)
            #expect(host.verifyTrace() == nil)
        }
    }

    /// Mail's windows A in front and B in the background, B still running (five of its
    /// Windows A and B of Mail, connected (B in A's process).
    static func twoMailWindows(on host: SceneHost) async throws -> (SceneHandle, SceneHandle) {
        let a = try host.scene("A")
        let b = try host.scene("B")
        try await a.connect(launch: mail)
        try await b.connect(launch: mail)
        return (a, b)
    }

    /// suspend delays came and went: the stop waits for A).
    static func mailWithWindowBWaiting(on host: SceneHost) async throws -> (SceneHandle, SceneHandle) {
        let (a, b) = try await twoMailWindows(on: host)
        try await b.background()
        await #expect(throws: HostError.self) {
            try await b.waitFor(process: .suspended, timeout: .milliseconds(100))
        }
        return (a, b)
    }

    /// A background window of an app with a window in the foreground is not suspended; once
    /// every window is in the background the process is, for all of them, and a window brought
    /// forward resumes the process for all of them.
    @Test func theProcessIsSuspendedOnlyWhenEveryWindowMayBe() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let (a, b) = try await Self.mailWithWindowBWaiting(on: host)
            try await a.background()
            try await a.waitFor(process: .suspended, timeout: TestLimit.event)
            try await b.waitFor(process: .suspended, timeout: TestLimit.event)
            let mark = host.lastSeq
            try await a.foreground()
            let resumed = host.trace.history.filter { $0.seq > mark && $0.processEvent == .resumed }.compactMap(\.scene)
            #expect(Set(resumed) == ["A", "B"])
            #expect(await b.status().process == .running)
            #expect(host.verifyTrace() == nil)
        }
    }

    /// A window that waited for the app's front window to suspend the process with it is
    /// suspended once that window disconnects instead (the property tests found it waiting on).
    @Test func aWindowThatWaitedIsSuspendedWhenTheOtherLeaves() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let (a, b) = try await Self.mailWithWindowBWaiting(on: host)
            try await a.disconnect()
            try await b.waitFor(process: .suspended, timeout: TestLimit.event)
            #expect(host.verifyTrace() == nil)
        }
    }

    /// A kill of the app's process ends every window of it, each with the kill's reason.
    @Test func aKillEndsEveryWindowOfTheApp() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let (a, b) = try await Self.twoMailWindows(on: host)
            try await a.kill()
            try await b.waitFor(process: .terminated, timeout: TestLimit.event)
            let exits = host.trace.history.filter { $0.processEvent == .exited }
            #expect(exits.map(\.scene) == ["A", "B"] && exits.allSatisfy { $0.reason == .killed })
            #expect(host.verifyTrace() == nil)
        }
    }

    /// A session belongs to its app: after a host restart, a connect that names no app joins
    /// the app's process all the same (the session stored the app, as it stores its worker).
    @Test func aStoredSessionJoinsItsAppAfterAHostRestart() async throws {
        var configuration = Self.configuration()
        configuration.stateDirectory = try makePrivateDirectory()
        try await withSceneHost(configuration: configuration) { first in
            try await first.scene("A").connect(launch: Self.mail)
            try await first.scene("B").connect(launch: Self.mail)
        }
        try await withSceneHost(configuration: configuration) { restarted in
            let a = try restarted.scene("A")
            let b = try restarted.scene("B")
            try await a.connect()
            try await b.connect()
            let (first, second) = (await a.status(), await b.status())
            #expect(first.app == "Mail" && second.app == "Mail" && first.pid == second.pid)
            #expect(restarted.trace.history.filter { $0.processEvent == .attached }.compactMap(\.scene) == ["B"])
            #expect(restarted.verifyTrace() == nil)
        }
    }

    /// A process with no window left is suspended after the delay, as an app in the
    /// background with nothing to finish; a window reconnecting resumes it, and the host's
    /// quit ends it even while it is stopped.
    @Test func aProcessWithNoWindowLeftIsSuspendedAndResumedForTheNextWindow() async throws {
        var pid: Int32 = 0
        try await withSceneHost(configuration: Self.configuration()) { host in
            let a = try host.scene("A")
            try await a.connect(launch: Self.mail)
            let worker = try #require(await a.status().pid)
            pid = worker
            try await a.background()
            try await a.disconnect()
            try await Self.waitUntilStopped(worker)
            try await a.connect(launch: Self.mail)
            let status = await a.status()
            #expect(status.pid == worker && status.activation == .foregroundActive)
            #expect(ProcessStateProbe.state(of: worker) != "T")
            try await a.background()
            try await a.disconnect()
            try await Self.waitUntilStopped(worker)
        }
        #expect(Glibc.kill(pid, 0) != 0)
    }

    /// Waits until `pid` is stopped (`T` in /proc, which tells no one: it is looked at).
    static func waitUntilStopped(_ pid: Int32) async throws {
        try await lookedAt("process \(pid) stopped", within: TestLimit.event) {
            ProcessStateProbe.state(of: pid) == "T"
        }
    }

    /// A configuration whose terminate limit never ends a test's hang: the test ends it (a
    /// whole test takes over 20 s under CI's load, so the limit is far beyond that).
    static func patientConfiguration() -> HostConfiguration {
        var configuration = Self.configuration()
        configuration.terminateLimit = .seconds(120)
        return configuration
    }

    /// Connects `a` in Mail with a worker stuck in `applicationWillTerminate`, and terminates
    /// it: its process takes no more scenes, and ends only when killed. Returns the
    /// terminate's task once `a` is in that callback.
    static func terminateIntoAHang(_ host: SceneHost, _ a: SceneHandle) async throws -> Task<Void, Never> {
        try await a.connect(
            worker: [TestWorker.hostctl, "worker", "--hang-in", "applicationWillTerminate"],
            launch: Self.mail
        )
        let termination = Task { _ = try? await a.terminate() }
        _ = try await host.trace.firstEvent("\(a.identifier) in applicationWillTerminate") {
            $0.scene == a.identifier && $0.name == CallbackName.applicationWillTerminate.rawValue
        }
        return termination
    }

    /// Waits until `count` scenes wait for Mail's process. Nothing is recorded while a scene
    /// waits (the trace says what happened to a process, and none did yet): the registry is
    /// looked at.
    static func waitUntilWaiting(_ host: SceneHost, count: Int) async throws {
        try await lookedAt("\(count) scenes waiting for Mail's process", within: TestLimit.event) {
            host.context.apps.waitingCount("Mail") >= count
        }
    }

    /// A in Mail terminating into a hang, and B launching into Mail, waiting for A's process
    /// to end: A's pid, its terminate's task and B's connect's.
    static func bWaitsForTheEndOfA(
        _ host: SceneHost
    ) async throws -> (ending: Int32, termination: Task<Void, Never>, launch: Task<Void, any Error>) {
        let a = try host.scene("A")
        let b = try host.scene("B")
        let termination = try await Self.terminateIntoAHang(host, a)
        let ending = try #require(await a.status().pid)
        let launch = Task { try await b.connect(launch: Self.mail) }
        try await Self.waitUntilWaiting(host, count: 1)
        return (ending, termination, launch)
    }

    /// A window that launches while its app's process ends (its last window terminating it,
    /// the app stuck in `applicationWillTerminate`) does not join that process: it waits for
    /// its death and starts the app's next process.
    @Test func aWindowLaunchedWhileTheAppTerminatesStartsTheAppsNextProcess() async throws {
        try await withSceneHost(configuration: Self.patientConfiguration()) { host in
            let (ending, termination, launch) = try await Self.bWaitsForTheEndOfA(host)
            try await host.scene("A").kill()
            await termination.value
            try await launch.value
            let status = try await host.scene("B").status()
            #expect(status.pid != ending && status.activation == .foregroundActive)
            let aExit = try #require(host.trace.history.first { $0.scene == "A" && $0.processEvent == .exited })
            let bStart = try #require(host.trace.history.first { $0.scene == "B" && $0.kind == .process })
            #expect(bStart.processEvent == .spawned && bStart.seq > aExit.seq)
            #expect(host.verifyTrace() == nil)
        }
    }

    /// The host quits while a window waits for its app's ending process: the window's launch
    /// fails at once with the quit, and it starts no process.
    @Test func aQuitWhileAWindowWaitsForTheAppsEndStartsNoProcess() async throws {
        let host = try SceneHost(configuration: Self.patientConfiguration())
        let (ending, termination, launch) = try await Self.bWaitsForTheEndOfA(host)
        let quit = Task { await host.quit() }
        await #expect(throws: HostError.shuttingDown) { try await launch.value }
        // What the quit waits for: A's hung process (the test's own, killed from outside).
        Glibc.kill(ending, SIGKILL)
        await quit.value
        await termination.value
        #expect(!host.trace.history.contains { $0.scene == "B" && $0.processEvent != nil })
        #expect(host.livingWorkerPids().isEmpty)
    }

    /// A window killed (or terminated: it is still launching) while it waits for its app's
    /// ending process fails at once, as a killed launch, and starts or joins no process (its
    /// SIGKILL would end the others): the other window waiting starts the app's next process
    /// and runs on.
    @Test(arguments: [SceneOperation.kill(signal: SIGKILL), .terminate])
    func aWindowEndedWhileItWaitsForTheAppsEndLeavesTheNextProcessAlone(_ end: SceneOperation) async throws {
        try await withSceneHost(configuration: Self.patientConfiguration()) { host in
            let (_, termination, launchB) = try await Self.bWaitsForTheEndOfA(host)
            let b = try host.scene("B")
            let c = try host.scene("C")
            let launchC = Task { try await c.connect(launch: Self.mail) }
            try await Self.waitUntilWaiting(host, count: 2)
            try await b.perform(end)
            await #expect(throws: HostError.workerExited(scene: "B", op: "connect", reason: .killed)) {
                try await launchB.value
            }
            #expect(host.context.apps.waitingCount("Mail") == 1)
            try await host.scene("A").kill()
            await termination.value
            try await launchC.value
            let status = await c.status()
            let pid = try #require(status.pid)
            #expect(status.activation == .foregroundActive && Glibc.kill(pid, 0) == 0)
            #expect(await b.status().pid == nil)
            #expect(!host.trace.history.contains { $0.scene == "B" && $0.processEvent != nil })
            #expect(host.verifyTrace() == nil)
        }
    }

    /// A signal the app's process survives (SIGTERM, ignored) does not end it: a window that
    /// launches afterwards joins it.
    @Test func aProcessThatSurvivesASignalTakesTheNextWindow() async throws {
        var configuration = Self.configuration()
        configuration.terminateLimit = .milliseconds(200)
        try await withSceneHost(configuration: configuration) { host in
            let a = try host.scene("A")
            let b = try host.scene("B")
            try await a.connect(worker: [TestWorker.hostctl, "worker", "--ignore-sigterm"], launch: Self.mail)
            let pid = try #require(await a.status().pid)
            try await a.kill(signal: SIGTERM)
            try await within(TestLimit.event, "B joins the process that survived SIGTERM") {
                try await b.connect(launch: Self.mail)
            }
            #expect(await b.status().pid == pid)
        }
    }

    /// A terminate of a suspended app (every window suspended with its process) ends it as
    /// a terminate ends a suspended app (§4: SIGKILLed, silently), every window with it, and
    /// the terminate asked succeeds.
    @Test func aTerminateOfASuspendedAppEndsEveryWindow() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let (a, b) = try await Self.twoMailWindows(on: host)
            try await a.background()
            try await b.background()
            try await a.waitFor(process: .suspended, timeout: TestLimit.event)
            try await b.waitFor(process: .suspended, timeout: TestLimit.event)
            let mark = host.lastSeq
            try await a.terminate()
            let exits = host.trace.history.filter { $0.seq > mark && $0.processEvent == .exited }
            #expect(Set(exits.compactMap(\.scene)) == ["A", "B"])
            #expect(!host.trace.history.contains { $0.seq > mark && $0.kind == .error })
            #expect(host.verifyTrace() == nil)
        }
    }

    /// Processes left without a window are kept up to `maximumIdleAppProcesses`: one more,
    /// and the one left longest ago is killed, as the system reclaims a suspended app; its app
    /// then starts a new process, while another app's window joins the process kept.
    @Test func processesLeftWithoutAWindowAreKeptUpToTheLimit() async throws {
        var configuration = Self.configuration()
        configuration.maximumIdleAppProcesses = 2
        try await withSceneHost(configuration: configuration) { host in
            var pids: [Int32] = []
            for index in 0..<3 {
                let scene = try host.scene("S\(index)")
                try await scene.connect(launch: LaunchParameters(app: "App\(index)"))
                pids.append(try #require(await scene.status().pid))
                try await scene.background()
                try await scene.disconnect()
            }
            let first = pids[0]
            try await lookedAt("the first app's process reclaimed", within: TestLimit.event) {
                Glibc.kill(first, 0) != 0
            }
            #expect(Glibc.kill(pids[1], 0) == 0 && Glibc.kill(pids[2], 0) == 0)
            let again = try host.scene("S0")
            try await again.connect(launch: LaunchParameters(app: "App0"))
            let renewed = try #require(await again.status().pid)
            #expect(renewed != first)
            let joining = try host.scene("S1")
            try await joining.connect(launch: LaunchParameters(app: "App1"))
            #expect(await joining.status().pid == pids[1])
            // Left again, each goes to the back of the line: S2's process, left longest ago,
            // is the one reclaimed when a third is left.
            for scene in [again, joining] {
                try await scene.background()
                try await scene.disconnect()
            }
            let third = pids[2]
            try await lookedAt("the third app's process reclaimed", within: TestLimit.event) {
                Glibc.kill(third, 0) != 0
            }
            #expect(Glibc.kill(renewed, 0) == 0 && Glibc.kill(pids[1], 0) == 0)
            // The host's trace names each reclaimed process, in order; the trace stays valid.
            let reclaimed = host.trace.history.filter { $0.kind == .host && $0.name == TraceEvent.appReclaimedName }
            #expect(reclaimed.map(\.app) == ["App0", "App2"])
            #expect(reclaimed.map(\.pid) == [first, third])
            #expect(reclaimed.allSatisfy { $0.scene == nil })
            #expect(host.verifyTrace() == nil)
        }
    }

    /// A process with no window left (each disconnected) runs until the host quits, and then ends.
    @Test func aProcessWithNoWindowLeftEndsWithTheHost() async throws {
        var pid: Int32 = 0
        try await withSceneHost(configuration: Self.configuration()) { host in
            let a = try host.scene("A")
            try await a.connect(launch: Self.mail)
            pid = try #require(await a.status().pid)
            try await a.background()
            try await a.disconnect()
            #expect(Glibc.kill(pid, 0) == 0)
        }
        #expect(Glibc.kill(pid, 0) != 0)
    }

    /// Two clients terminate both windows of an app at once: the app terminates once (one
    /// `applicationWillTerminate`, one exit), and both requests succeed, though each window's
    /// own turn finds it ended by the other's terminate (it used to be refused, "the scene has
    /// no worker"). Several rounds: the fan-outs interleave either way.
    @Test func twoWindowsTerminatedAtOnceEndTheAppOnceAndBothSucceed() async throws {
        for _ in 0..<5 {
            try await withSceneHost(configuration: Self.configuration()) { host in
                let (a, b) = try await Self.twoMailWindows(on: host)
                async let endA: Void = a.terminate()
                async let endB: Void = b.terminate()
                try await endA
                try await endB
                #expect(await a.status().process == .terminated)
                #expect(await b.status().process == .terminated)
                #expect(Self.count(host, "applicationWillTerminate") == 1)
                #expect(host.trace.history.filter { $0.processEvent == .exited }.count == 1)
                #expect(!host.trace.history.contains { $0.kind == .error }, "a refusal was recorded")
                #expect(host.verifyTrace() == nil)
            }
        }
    }

    /// A terminate of a window whose app was terminated before it was asked is refused, as a
    /// terminate of any window with no worker.
    @Test func aTerminateOfAWindowTheAppsEndAlreadyClosedIsRefused() async throws {
        try await withSceneHost(configuration: Self.configuration()) { host in
            let (a, b) = try await Self.twoMailWindows(on: host)
            try await a.terminate()
            await #expect(throws: HostError.self) { try await b.terminate() }
            #expect(host.trace.history.last { $0.scene == "B" }?.kind == .error)
        }
    }
}
