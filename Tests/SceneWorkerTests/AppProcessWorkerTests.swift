import Protocol
import Testing

@testable import SceneWorker

/// A worker carrying two scenes of one app (tagged frames, LIFECYCLE.md §4a), without I/O:
/// one launch, each scene its own session on the one application, and UIKit's app-wide view
/// of them.
@MainActor
@Suite struct AppProcessWorkerTests {
    /// Hands a tagged request to the process and returns the scene's callbacks' names.
    static func send(_ process: WorkerAppProcess, scene: String, id: Int, _ operation: WorkerOperation) -> [String] {
        var plain: [UInt8] = []
        HostCommand.request(id: id, operation).encode(into: &plain)
        var tagged: [UInt8] = []
        SceneTag.append(Array(plain.dropLast()), scene: scene, to: &tagged)
        tagged.withUnsafeBytes { bytes in
            let split = SceneTag.split(bytes)!
            process.handleFrame(scene: split.scene, body: split.body)
        }
        let session = process.session(scene)!
        return session.takeOutput().compactMap { message in
            if case .callback(let event) = message { return event.name.rawValue }
            if case .reply(_, let result) = message, result == WorkerOperation.detachedReply { return "detached" }
            return nil
        }
    }

    /// A worker process of `app` past its handshake: its first session, and the process.
    static func appProcess(_ app: WorkerApp = .recording) -> (primary: WorkerSession, process: WorkerAppProcess) {
        let primary = WorkerSession(app: app, pid: 4242)
        primary.handle(.hello(protocolVersion: ProtocolVersion.current))
        _ = primary.takeOutput()
        return (primary, WorkerAppProcess(primary: primary))
    }

    @Test func twoScenesShareOneLaunchAndTheAppSeesBoth() throws {
        let (primary, process) = AppProcessWorkerTests.appProcess()
        let first = Self.send(process, scene: "A", id: 1, .connect(ConnectOptions(session: "A")))
        #expect(first.prefix(2) == ["willFinishLaunching", "didFinishLaunching"])
        let second = Self.send(process, scene: "B", id: 1, .connect(ConnectOptions(session: "B")))
        #expect(second.first == "configurationForConnecting" && !second.contains("didFinishLaunching"))
        let application = primary.application
        #expect(application.connectedScenes.count == 2)
        #expect(application.applicationState == .active)
        _ = Self.send(process, scene: "B", id: 2, .enterBackground)
        #expect(application.applicationState == .active)  // A is still in front
        // A background task is the scene's: B's does not stop A from beginning its own.
        _ = Self.send(process, scene: "B", id: 3, .beginBackgroundTask)
        #expect(Self.send(process, scene: "A", id: 2, .beginBackgroundTask) == ["beginBackgroundTask"])
        // A memory warning for the app once, and a window's without the app delegate.
        #expect(Self.send(process, scene: "B", id: 4, .windowMemoryWarning) == ["didReceiveMemoryWarning"])
        // B leaves; A terminates the app alone.
        _ = Self.send(process, scene: "B", id: 5, .endBackgroundTask)
        #expect(Self.send(process, scene: "B", id: 6, .disconnect).last == "detached")
        process.drain(into: OutputWriter(fileDescriptor: -1))
        #expect(application.connectedScenes.count == 1)
        #expect(process.exitStatus == nil)
    }

    /// A scene that left the process lets go of its session; a stack the app still holds
    /// then reaches no session (its link died with the session, `SessionLink`).
    @Test func aStackKeptAfterItsSceneLeftReachesNoSession() throws {
        let (_, process) = AppProcessWorkerTests.appProcess()
        _ = Self.send(process, scene: "A", id: 1, .connect(ConnectOptions(session: "A")))
        _ = Self.send(process, scene: "B", id: 1, .connect(ConnectOptions(session: "B")))
        weak let leaving = process.session("B")
        let kept = try #require(leaving?.scene?.window.navigationStack)
        #expect(kept.changeHandler === leaving)
        _ = Self.send(process, scene: "B", id: 2, .enterBackground)
        #expect(Self.send(process, scene: "B", id: 3, .disconnect).last == "detached")
        process.drain(into: OutputWriter(fileDescriptor: -1))
        #expect(leaving == nil, "the session of a scene that left lives on")
        #expect(kept.changeHandler == nil)
    }
}

/// The application of an app process is one for its scenes (LIFECYCLE.md §4a): its state is
/// theirs together, and its notifications follow that state, not each scene's.
@MainActor
@Suite struct AppProcessApplicationStateTests {
    /// Notes the application's state as `willConnectTo` runs.
    final class StateNotingSceneDelegate: UISceneDelegate {
        nonisolated(unsafe) static var seen: [Application.State] = []
        func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {
            Self.seen.append(Application.shared.applicationState)
        }
    }

    final class Posted: @unchecked Sendable {
        var names: [String] = []
    }

    @Test func theApplicationsNotificationsFollowItsScenesTogether() throws {
        let posted = Posted()
        var app = WorkerApp.recording
        app.makeSceneDelegate = { StateNotingSceneDelegate() }
        app.lifecycleNotificationPoster = { name in
            if name.rawValue.hasPrefix("UIApplication") { posted.names.append(name.rawValue) }
        }
        StateNotingSceneDelegate.seen = []
        let (_, process) = AppProcessWorkerTests.appProcess(app)
        _ = AppProcessWorkerTests.send(process, scene: "A", id: 1, .connect(ConnectOptions(session: "A")))
        #expect(
            posted.names == [
                "UIApplicationDidFinishLaunchingNotification", "UIApplicationWillEnterForegroundNotification",
                "UIApplicationDidBecomeActiveNotification",
            ]
        )
        posted.names = []
        // B comes forward while A is active: the application was in front and active already.
        _ = AppProcessWorkerTests.send(process, scene: "B", id: 1, .connect(ConnectOptions(session: "B")))
        #expect(posted.names.isEmpty, "\(posted.names)")
        #expect(StateNotingSceneDelegate.seen == [.inactive, .active], "B connects to an active application")
        // B goes: A is still in front and active.
        _ = AppProcessWorkerTests.send(process, scene: "B", id: 2, .enterBackground)
        #expect(posted.names.isEmpty, "\(posted.names)")
        // A goes too: the application resigns and enters the background with it.
        _ = AppProcessWorkerTests.send(process, scene: "A", id: 2, .enterBackground)
        #expect(
            posted.names == [
                "UIApplicationWillResignActiveNotification", "UIApplicationDidEnterBackgroundNotification",
            ]
        )
        // A window that connects into the background leaves no foreground: nothing is posted.
        posted.names = []
        _ = AppProcessWorkerTests.send(
            process,
            scene: "C",
            id: 1,
            .connect(ConnectOptions(session: "C", background: true))
        )
        #expect(posted.names.isEmpty, "\(posted.names)")
    }

    /// Once the scene that ran last has disconnected, the application's state is the others'
    /// at once, not a state of no scene until another frame comes.
    @Test func theStateAfterAScenesDisconnectIsTheOthers() throws {
        let (primary, process) = AppProcessWorkerTests.appProcess()
        _ = AppProcessWorkerTests.send(process, scene: "A", id: 1, .connect(ConnectOptions(session: "A")))
        _ = AppProcessWorkerTests.send(process, scene: "B", id: 1, .connect(ConnectOptions(session: "B")))
        _ = AppProcessWorkerTests.send(process, scene: "A", id: 2, .enterBackground)
        #expect(AppProcessWorkerTests.send(process, scene: "A", id: 3, .disconnect).last == "detached")
        process.drain(into: OutputWriter(fileDescriptor: -1))
        #expect(primary.application.applicationState == .active, "B is active")
    }
}
