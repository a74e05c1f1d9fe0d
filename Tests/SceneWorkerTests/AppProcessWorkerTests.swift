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

    @Test func twoScenesShareOneLaunchAndTheAppSeesBoth() throws {
        let primary = WorkerSession(app: .recording, pid: 4242)
        primary.handle(.hello(protocolVersion: ProtocolVersion.current))
        _ = primary.takeOutput()
        let process = WorkerAppProcess(primary: primary)
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
        let primary = WorkerSession(app: .recording, pid: 4242)
        primary.handle(.hello(protocolVersion: ProtocolVersion.current))
        _ = primary.takeOutput()
        let process = WorkerAppProcess(primary: primary)
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
