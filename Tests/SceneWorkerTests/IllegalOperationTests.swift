import Protocol
import Testing

@testable import SceneWorker

@MainActor
@Suite("Operations illegal in the worker's state are refused with no callback")
struct IllegalOperationTests {
    /// Sends `operation`, expects one `illegalTransition` failure and an unchanged state.
    private func expectRefused(
        _ h: Harness,
        _ operation: WorkerOperation,
        code: ProtocolError.Code = .illegalTransition,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let before = h.session.state
        let said = h.send(operation)
        #expect(said == ["failure \(h.lastID) \(code)"], "\(operation.name)", sourceLocation: sourceLocation)
        #expect(h.session.state == before, sourceLocation: sourceLocation)
        #expect(h.session.exitStatus == nil, sourceLocation: sourceLocation)
    }

    @Test func beforeConnect() {
        let h = Harness()
        for operation: WorkerOperation in [
            .activate, .deactivate, .enterBackground, .enterForeground, .stateRestoration, .disconnect, .terminate,
            .push(viewController: "Detail"), .pop, .resize(width: 10, height: 10), .memoryWarning,
            .notify(name: "n", value: .null), .beginBackgroundTask, .endBackgroundTask, .expireBackgroundTask,
        ] {
            expectRefused(h, operation)
        }
    }

    @Test func inForegroundActive() {
        let h = Harness()
        h.connect()
        expectRefused(h, .connect(ConnectOptions(session: "A")))
        expectRefused(h, .activate)
        expectRefused(h, .enterForeground)
        // Asked only of a background scene (entering background asks it in its own atom).
        expectRefused(h, .stateRestoration)
        expectRefused(h, .pop)
        expectRefused(h, .disconnect)
        expectRefused(h, .terminate)
        expectRefused(h, .endBackgroundTask)
        expectRefused(h, .expireBackgroundTask)
        expectRefused(h, .resize(width: 0, height: 600), code: .invalidParameters)
        #expect(h.lastError?.message == "cannot resize to 0x600: sizes must be positive")
    }

    /// A size change is a change to a new size (LIFECYCLE.md §3): the size the window has is
    /// refused, with no callback (the `expectRefused` check), and the window keeps its size.
    @Test func aResizeToTheCurrentSizeIsRefused() {
        let h = Harness()
        h.connect()
        let size = h.session.scene?.window.size
        #expect(size == Size(width: 390, height: 844))
        expectRefused(h, .resize(width: 390, height: 844), code: .invalidParameters)
        #expect(
            h.lastError?.message
                == "cannot resize to 390x844: the window already has that size (a size change needs a new size)"
        )
        #expect(h.session.scene?.window.size == size)
        // A new size, and back: each a change.
        #expect(h.send(.resize(width: 800, height: 600)).last == "reply \(h.lastID)")
        #expect(h.send(.resize(width: 390, height: 844)).last == "reply \(h.lastID)")
    }

    @Test func popAtRootMessage() {
        let h = Harness()
        h.connect()
        h.send(.pop)
        #expect(h.lastError?.message == "cannot pop: cannot pop the root view controller")
    }

    @Test func inForegroundInactive() {
        let h = Harness()
        h.connect()
        h.send(.deactivate)
        expectRefused(h, .deactivate)
        expectRefused(h, .enterForeground)
        expectRefused(h, .disconnect)
    }

    @Test func inBackground() {
        let h = Harness()
        h.connect()
        h.send(.push(viewController: "Detail"))
        h.send(.enterBackground)
        expectRefused(h, .activate)
        expectRefused(h, .deactivate)
        expectRefused(h, .enterBackground)
        expectRefused(h, .push(viewController: "More"))
        expectRefused(h, .pop)
        expectRefused(h, .resize(width: 800, height: 600))
        #expect(
            h.lastError?.message == "cannot resize: the scene is background, not foregroundActive or foregroundInactive"
        )
        expectRefused(h, .connect(ConnectOptions(session: "A")))
    }

    @Test func backgroundTasksOneAtATime() {
        let h = Harness()
        h.connect(background: true)
        h.send(.beginBackgroundTask)
        expectRefused(h, .beginBackgroundTask)
        h.send(.expireBackgroundTask)
        expectRefused(h, .expireBackgroundTask)
        h.send(.endBackgroundTask)
        expectRefused(h, .endBackgroundTask)
    }

    @Test func controllerWithTheWrongTitleFailsTheOperation() {
        let app = WorkerApp(
            makeApplicationDelegate: { RecordingApplicationDelegate() },
            makeSceneDelegate: { RecordingSceneDelegate() },
            makeViewController: { name in UIViewController(restorationIdentifier: name == "Bad" ? "Other" : name) }
        )
        let h = Harness(app: app)
        h.connect()
        #expect(h.send(.push(viewController: "Bad")) == ["failure 2 operationFailed"])
        #expect(h.session.scene?.window.navigationStack.viewControllers.count == 1)
        // And at connect: nothing runs at all.
        let b = Harness(app: app)
        #expect(b.connect(root: "Bad") == ["failure 1 operationFailed"])
        #expect(b.session.state == .unattached)
    }
}

@MainActor
@Suite("Handshake")
struct HandshakeTests {
    @Test func helloGetsReady() {
        let session = WorkerSession(app: .recording, pid: 77)
        session.handle(.hello(protocolVersion: ProtocolVersion.current))
        #expect(session.takeOutput() == [.ready(protocolVersion: ProtocolVersion.current, pid: 77)])
        #expect(session.phase == .running)
    }

    @Test func versionMismatchFailsAndExits2() {
        let session = WorkerSession(app: .recording, pid: 77)
        session.handle(.hello(protocolVersion: 99))
        #expect(
            session.takeOutput() == [
                .failure(
                    id: nil,
                    ProtocolError(
                        .versionMismatch,
                        "protocol version mismatch: host speaks 99, worker speaks \(ProtocolVersion.current)"
                    )
                )
            ]
        )
        #expect(session.exitStatus == 2)
        // Nothing after that.
        session.handle(.hello(protocolVersion: ProtocolVersion.current))
        #expect(session.takeOutput() == [])
    }

    @Test func aRequestBeforeHelloFailsAndExits2() {
        let session = WorkerSession(app: .recording, pid: 77)
        session.handle(.request(id: 1, .connect(ConnectOptions(session: "A"))))
        let output = session.takeOutput()
        #expect(output.count == 1)
        guard case .failure(nil, let error)? = output.first else {
            Issue.record("expected a failure without id, got \(output)")
            return
        }
        #expect(error.code == .invalidMessage)
        #expect(session.exitStatus == 2)
    }

    @Test func anOversizedFirstFrameFailsTheHandshake() {
        let session = WorkerSession(app: .recording, pid: 77)
        session.handleOversizedFrame(length: 2_000_000)
        guard case .failure(nil, let error)? = session.takeOutput().first else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.code == .invalidMessage)
        #expect(session.exitStatus == 2)
    }

    @Test func aSecondHelloIsRefusedButTheWorkerCarriesOn() {
        let h = Harness()
        h.session.handle(.hello(protocolVersion: ProtocolVersion.current))
        #expect(h.render(h.session.takeOutput()) == ["failure nil invalidMessage"])
        #expect(h.session.exitStatus == nil)
    }

    @Test func anOversizedFrameLaterIsReportedAndTheWorkerCarriesOn() {
        let h = Harness()
        h.session.handleOversizedFrame(length: 2_000_000)
        #expect(h.render(h.session.takeOutput()) == ["failure nil frameTooLarge"])
        #expect(h.session.exitStatus == nil)
        #expect(h.connect().last == "reply 1")
    }
}
