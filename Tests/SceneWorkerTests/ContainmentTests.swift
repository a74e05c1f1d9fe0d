import Protocol
import Testing

@testable import SceneWorker

/// A controller that notes the containment calls its overrides get.
@MainActor
final class ContainedViewController: UIViewController {
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    let log: Log

    init(restorationIdentifier: String, log: Log) {
        self.log = log
        super.init(restorationIdentifier: restorationIdentifier)
    }

    override func willMove(toParent parent: UIViewController?) {
        log.entries.append("\(restorationIdentifier).willMove(\(parent?.restorationIdentifier ?? "nil"))")
    }
    override func didMove(toParent parent: UIViewController?) {
        log.entries.append("\(restorationIdentifier).didMove(\(parent?.restorationIdentifier ?? "nil"))")
    }
}

/// The worker side of LIFECYCLE.md §3a's containment: UIKit's shapes (`children`, `parent`,
/// `willMove`/`didMove` with the parent), forwarding, the app's own calls as changes, the
/// worker's refusals, and the wire.
@MainActor
@Suite struct WorkerContainmentTests {
    static func app(log: Log) -> WorkerApp {
        WorkerApp(
            makeApplicationDelegate: { RecordingApplicationDelegate() },
            makeSceneDelegate: { RecordingSceneDelegate() },
            makeViewController: { name in
                name.hasPrefix("Kid")
                    ? ContainedViewController(restorationIdentifier: name, log: log)
                    : UIViewController(restorationIdentifier: name)
            }
        )
    }

    @Test func theHostAddsAndRemovesAChildWithItsParent() {
        let log = Log()
        let h = Harness(app: Self.app(log: log))
        h.connect()
        #expect(
            h.send(.addChild(viewController: "Kid")) == [
                "Kid.willMoveToParent", "Kid.loadView", "Kid.viewDidLoad", "Kid.viewWillAppear",
                "Kid.viewIsAppearing", "Kid.viewWillLayoutSubviews", "Kid.viewDidLayoutSubviews", "Kid.viewDidAppear",
                "Kid.didMoveToParent", "reply 2",
            ]
        )
        #expect(log.entries == ["Kid.willMove(Root)", "Kid.didMove(Root)"])
        let root = h.session.scene?.window.navigationStack.topViewController
        #expect(root?.children.map(\.restorationIdentifier) == ["Kid"])
        #expect(root?.children.first?.parent === root)
        // A second child of that name, and the removal of a stranger, are refused.
        #expect(h.send(.addChild(viewController: "Kid")) == ["failure 3 illegalTransition"])
        #expect(h.send(.removeChild(viewController: "Other")) == ["failure 4 illegalTransition"])
        #expect(
            h.send(.push(viewController: "Detail")) == [
                "Detail.loadView", "Detail.viewDidLoad", "Root.viewWillDisappear", "Kid.viewWillDisappear",
                "Detail.viewWillAppear", "Detail.viewIsAppearing", "Detail.viewWillLayoutSubviews",
                "Detail.viewDidLayoutSubviews", "Root.viewDidDisappear", "Kid.viewDidDisappear",
                "Detail.viewDidAppear", "reply 5",
            ]
        )
        // Detail is frontmost: Root's child is not its.
        #expect(h.send(.removeChild(viewController: "Kid")) == ["failure 6 illegalTransition"])
        h.send(.pop)
        log.entries.removeAll()
        #expect(
            h.send(.removeChild(viewController: "Kid")) == [
                "Kid.willMoveToParent", "Kid.viewWillDisappear", "Kid.viewDidDisappear", "Kid.didMoveToParent",
                "Kid.deinit", "reply 8",
            ]
        )
        #expect(log.entries == ["Kid.willMove(nil)", "Kid.didMove(nil)"])
        #expect(root?.children.isEmpty == true)
    }

    @Test func theAppAddsAndRemovesAChildItself() throws {
        let h = Harness()
        let root = try h.connectedRoot()
        let log = Log()
        var child: UIViewController? = ContainedViewController(restorationIdentifier: "Player", log: log)
        root.addChild(child!)
        #expect(
            h.render(h.session.takeOutput()) == [
                "change addChild Player", "Player.willMoveToParent@app", "Player.loadView@app",
                "Player.viewDidLoad@app", "Player.viewWillAppear@app", "Player.viewIsAppearing@app",
                "Player.viewWillLayoutSubviews@app", "Player.viewDidLayoutSubviews@app", "Player.viewDidAppear@app",
                "Player.didMoveToParent@app",
            ]
        )
        // UIKit's `addChild` calls `willMove(toParent:)` and leaves `didMove(toParent:)` to the
        // app's code: that call runs the override once, unreported (its event came with the
        // transition).
        #expect(log.entries == ["Player.willMove(Root)"])
        child?.didMove(toParent: root)
        #expect(log.entries == ["Player.willMove(Root)", "Player.didMove(Root)"])
        #expect(h.session.takeOutput().isEmpty)
        // The same controller again, or one whose view loaded already, is ignored.
        root.addChild(child!)
        let loaded = UIViewController(restorationIdentifier: "Loaded")
        loaded.runLoadViewIfNeeded()
        root.addChild(loaded)
        #expect(h.session.takeOutput().isEmpty)
        log.entries.removeAll()
        child?.willMove(toParent: nil)
        child?.removeFromParent()
        child = nil
        // The app's `willMove(toParent: nil)` ran the override; `removeFromParent()` calls
        // `didMove(toParent: nil)` itself.
        #expect(log.entries == ["Player.willMove(nil)", "Player.didMove(nil)"])
        #expect(
            h.render(h.session.takeOutput()) == [
                "change removeChild Player", "Player.willMoveToParent@app", "Player.viewWillDisappear@app",
                "Player.viewDidDisappear@app", "Player.didMoveToParent@app", "Player.deinit@app",
            ]
        )
        #expect(root.children.isEmpty)
    }

    @Test func containmentRequestsRoundTripOnTheWire() throws {
        for operation: WorkerOperation in [.addChild(viewController: "P"), .removeChild(viewController: "P")] {
            var bytes: [UInt8] = []
            HostCommand.request(id: 9, operation).encode(into: &bytes)
            #expect(try HostCommand(frame: Array(bytes.dropLast())) == .request(id: 9, operation))
        }
        for change: AppChange in [.addChild(viewController: "P"), .removeChild(viewController: "P")] {
            var bytes: [UInt8] = []
            WorkerMessage.change(change).encode(into: &bytes)
            #expect(try WorkerMessage(frame: Array(bytes.dropLast())) == .change(change))
        }
        let empty = Array(#"{"id":1,"op":"addChild","vc":""}"#.utf8)
        #expect(throws: ProtocolError.self) { try HostCommand(frame: empty) }
    }
}
