import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// Requests the host accepts never make it kill its own healthy worker (issue 13 item 19),
/// and what waits for a suspended worker is bounded (item 4).
@Suite struct RequestLimitTests {
    /// The length of a string value whose `didReceiveNotification` echo is exactly `frame` bytes.
    static func longestFittingString(name: String, frame: Int) -> Int {
        var echo: [UInt8] = []
        WorkerMessage.callback(CallbackEvent(.didReceiveNotification, notification: name, value: .string("")))
            .encode(into: &echo)
        return frame - echo.count
    }

    static func isTooLarge(_ error: any Error, op: String) -> Bool {
        guard case .requestTooLarge(_, let refusedOp, _)? = error as? HostError else { return false }
        return refusedOp == op
    }

    @Test func aNotificationWhoseEchoWouldPassTheFrameLimitIsRefusedAndTheWorkerLives() async throws {
        try await withSceneHost(configuration: TestWorker.payloadConfiguration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let pid = try #require(await scene.status().pid)
            let fitting = Self.longestFittingString(name: "n", frame: 1 << 20)

            // The largest value whose echo fits is delivered, and the worker lives on.
            try await scene.notify("n", value: .string(String(repeating: "x", count: fitting)))
            // One byte more would be echoed in a frame over 1 MiB: refused, through either entry.
            let tooLarge = JSONValue.string(String(repeating: "x", count: fitting + 1))
            await #expect { try await scene.notify("n", value: tooLarge) } throws: { Self.isTooLarge($0, op: "notify") }
            await #expect {
                try await host.perform(.notify(name: "n", value: tooLarge), on: "A")
            } throws: {
                Self.isTooLarge($0, op: "notify")
            }
            // On a scene that does not exist yet, it creates none.
            await #expect {
                try await host.perform(.notify(name: "n", value: tooLarge), on: "B")
            } throws: {
                Self.isTooLarge($0, op: "notify")
            }
            #expect(await host.statuses().map(\.scene) == ["A"])

            // Nothing happened to the worker.
            let status = await scene.status()
            #expect(status.pid == pid && status.process == .running && status.activation == .foregroundActive)
            #expect(!host.trace.history.contains { $0.processEvent == .exited })
            #expect(host.trace.history.filter { $0.name == CallbackName.didReceiveNotification.rawValue }.count == 1)
        }
    }

    @Test func viewControllerNamesAndTheStackAreBoundedSoTheRestorationStateFits() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            let longest = String(repeating: "v", count: RequestLimits.maximumViewControllerNameBytes - 2)
            await #expect { try await scene.connect(root: longest + "v") } throws: {
                Self.isTooLarge($0, op: "connect")
            }
            #expect(await scene.status().process == .none)
            try await scene.connect(root: longest)

            // A name over the limit, also once escaped (a control character takes 6 bytes).
            await #expect { try await scene.push(longest + "v") } throws: { Self.isTooLarge($0, op: "push") }
            let escaped = String(repeating: "\u{1}", count: 50)
            await #expect { try await scene.push(escaped) } throws: { Self.isTooLarge($0, op: "push") }
            // Up to the deepest stack, with the longest names; one more is refused.
            for _ in 1..<SceneLifecycle.maximumStackDepth { try await scene.push(longest) }
            await #expect {
                try await scene.push("One")
            } throws: { error in
                guard case .refused(_, "push", let reason)? = error as? HostError else { return false }
                return reason == "the navigation stack is at its limit of 256 view controllers"
            }
            let pid = try #require(await scene.status().pid)
            #expect(await scene.status().stack.count == SceneLifecycle.maximumStackDepth)

            // The restoration state of that stack is stored; the worker was not killed for it.
            try await scene.background()
            let restoration = try #require(host.sessions.session("A")?.restoration)
            var bytes: [UInt8] = []
            JSONWriter.write(restoration, into: &bytes)
            #expect(bytes.count > SceneLifecycle.maximumStackDepth * (longest.utf8.count + 3))
            #expect(bytes.count < 1 << 19)
            try await scene.foreground()
            #expect(await scene.status().pid == pid)
            #expect(!host.trace.history.contains { $0.processEvent == .exited })
        }
    }

    // MARK: A user activity's userInfo (issue 35, item 7)

    /// The length of the `userInfo` string (`{"text":…}`) whose activity's larger frame (the
    /// request or the worker's echo) is exactly at `frame` bytes, or just under.
    static func longestFittingUserInfo(activityType: String, frame: Int) -> Int {
        func bytes(_ count: Int) -> Int {
            SceneLimits.continueUserActivityFrameBytes(
                activityType: activityType,
                userInfo: .object(["text": .string(String(repeating: "u", count: count))])
            )
        }
        var (low, high) = (0, frame)
        while low < high {
            let middle = (low + high + 1) / 2
            if bytes(middle) <= frame { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// An activity just under the size limit is accepted by a running worker (in the
    /// foreground, or suspended and woken by it) and no reply or echo of the worker's passes
    /// the frame limit: the worker lives through all of it. One byte more is refused at the
    /// request, and so is the same activity where it would launch a worker.
    @Test func aUserActivityJustUnderTheLimitNeverMakesAWorkersFramePassTheLimit() async throws {
        let configuration = TestWorker.payloadConfiguration()
        let frame = RequestLimits.frameLimit(configuration)
        let fitting = Self.longestFittingUserInfo(activityType: "t", frame: frame)
        let userInfo = JSONValue.object(["text": .string(String(repeating: "u", count: fitting))])
        let tooLarge = JSONValue.object(["text": .string(String(repeating: "u", count: fitting + 1))])
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.continueUserActivity("t", userInfo: userInfo)
            await #expect {
                try await scene.continueUserActivity("t", userInfo: tooLarge)
            } throws: {
                Self.isTooLarge($0, op: "continueUserActivity")
            }
            try await scene.background()
            try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
            try await scene.continueUserActivity("t", userInfo: userInfo)
            #expect(await scene.status().activation == .foregroundActive)
            // A scene without a worker would be launched with it, in a connect frame that
            // also holds the restoration state: refused at the request, and nothing launched.
            let unlaunched = try host.scene("B")
            await #expect {
                try await unlaunched.continueUserActivity("t", userInfo: userInfo)
            } throws: {
                Self.isTooLarge($0, op: "continueUserActivity")
            }
            #expect(!host.trace.history.contains { $0.scene == "B" && $0.processEvent == .spawned })
            try await scene.disconnect()

            #expect(!host.trace.history.contains { $0.processEvent == .exited && $0.reason != .disconnected })
            let echoes = host.trace.history.filter { $0.name == CallbackName.continueUserActivity.rawValue }
            #expect(echoes.count == 2, "\(echoes.map(\.compact))")
            #expect(host.verifyTrace() == nil)
        }
    }

    // MARK: A suspended worker's queue (item 4)

    static func suspendedScene(_ host: SceneHost) async throws -> SceneHandle {
        let scene = try host.scene("A")
        try await scene.connect()
        try await scene.background()
        try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
        return scene
    }

    static func isQueueFull(_ error: any Error) -> Bool {
        guard case .refused(_, "notify", let reason)? = error as? HostError else { return false }
        return reason.hasPrefix("the worker is suspended and ")
    }

    static func delivered(_ host: SceneHost) -> [String] {
        host.trace.history.filter { $0.name == CallbackName.didReceiveNotification.rawValue }.compactMap(\.notification)
    }

    @Test func aSuspendedWorkersQueueHoldsAtMost64Names() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try await Self.suspendedScene(host)
            let limit = SceneLifecycle.maximumQueuedNotifications
            for index in 0..<limit { try await scene.notify("n\(index)", value: .int(index)) }
            await #expect { try await scene.notify("one-more", value: .int(0)) } throws: { Self.isQueueFull($0) }
            // A name already queued only replaces its value: still accepted.
            try await scene.notify("n0", value: .string("latest"))
            #expect(await scene.status().process == .suspended)

            try await scene.foreground()
            #expect(Self.delivered(host) == (0..<limit).map { "n\($0)" })
            let first = host.trace.history.first { $0.notification == "n0" }
            #expect(first?.value == .string("latest"))
        }
    }

    @Test func aSuspendedWorkersQueueHoldsAtMostItsByteLimit() async throws {
        try await withSceneHost(configuration: TestWorker.payloadConfiguration()) { host in
            let scene = try await Self.suspendedScene(host)
            let large = JSONValue.string(String(repeating: "x", count: 900 << 10))
            let fitting = SceneLifecycle.maximumQueuedNotificationBytes / large.estimatedSize
            #expect(fitting >= 2 && fitting < SceneLifecycle.maximumQueuedNotifications)
            for index in 0..<fitting { try await scene.notify("n\(index)", value: large) }
            await #expect { try await scene.notify("one-more", value: large) } throws: { Self.isQueueFull($0) }
            // Replacing a small value with a large one is measured too, and refused whole: the
            // small value stays queued.
            try await scene.notify("small", value: .int(1))
            await #expect { try await scene.notify("small", value: large) } throws: { Self.isQueueFull($0) }
            try await scene.notify("small", value: .int(2))
            // Replacing a large value with a small one frees its room.
            try await scene.notify("n0", value: .int(0))
            try await scene.notify("after", value: .int(3))

            try await scene.foreground()
            #expect(Self.delivered(host) == (0..<fitting).map { "n\($0)" } + ["small", "after"])
            #expect(host.trace.history.last { $0.notification == "small" }?.value == .int(2))
            #expect(host.trace.history.first { $0.notification == "n0" }?.value == .int(0))
        }
    }

    /// A client cannot send the host's own fan-outs to an app's other windows: they hide a
    /// refusal (a window with no worker hears nothing), which a client's request must not.
    @Test(arguments: [SceneOperation.windowTerminate, .windowMemoryWarning])
    func theHostsOwnWindowFanOutsAreRefusedToClients(_ op: SceneOperation) async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            do {
                try await scene.perform(op)
                Issue.record("\(op) was not refused")
            } catch HostError.refused(_, let name, let reason) {
                #expect(name == op.name)
                #expect(reason.contains("ask \(op.name) of any of the app's windows"), "\(reason)")
            }
            #expect(await scene.status().process == ProcessState.none, "a refused request started a worker")
            #expect(!host.trace.history.contains { $0.scene == "A" }, "a refused request was recorded")
        }
    }
}

/// A URL the host hands a worker is one an app can read as a Foundation `URL`.
@Suite struct URLRequestTests {
    @Test func aURLThatIsNoURLIsRefusedBeforeAnythingIsSent() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let before = host.trace.history.count
            await #expect {
                try await scene.openURL("notes://an item")
            } throws: { error in
                guard case .invalidParameter("A", "openURL", let reason)? = error as? HostError else { return false }
                return reason.contains(#""notes://an item" is no URL"#) && reason.contains("%20")
            }
            // Nothing was sent: no callback, the scene as it was; the next URL is delivered.
            #expect(host.trace.history.count == before)
            #expect(await scene.status().activation == .foregroundActive)
            try await scene.openURL("notes://an%20item")
            #expect(host.trace.history.contains { $0.name == CallbackName.openURLContexts.rawValue })

            // A launch with one is refused as well, and starts no worker.
            let other = try host.scene("B")
            await #expect {
                try await other.connect(launch: LaunchParameters(url: "no scheme"))
            } throws: { error in
                guard case .invalidParameter("B", "connect", _)? = error as? HostError else { return false }
                return (error as? HostError)?.code == .invalidParameters
            }
            #expect(!host.trace.history.contains { $0.scene == "B" })
        }
    }
}
