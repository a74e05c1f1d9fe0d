import Protocol
import Testing

@testable import SceneWorker

/// Drives a `WorkerSession` without any process or I/O and renders what it says compactly:
/// `didFinishLaunching`, `Root.viewDidLoad`, `reply 3`, `failure 3 illegalTransition`, `ready`;
/// an app change as `change push Detail` and its callbacks as `Detail.viewDidLoad@app`.
@MainActor
final class Harness {
    let session: WorkerSession
    private(set) var nextID = 1
    /// The last reply's result.
    private(set) var lastResult: JSONValue?
    /// The last failure's error.
    private(set) var lastError: ProtocolError?

    init(app: WorkerApp = .recording, handshake: Bool = true) {
        session = WorkerSession(app: app, pid: 4242)
        if handshake {
            session.handle(.hello(protocolVersion: ProtocolVersion.current))
            let ready = session.takeOutput()
            precondition(ready == [.ready(protocolVersion: ProtocolVersion.current, pid: 4242)])
        }
    }

    /// A harness whose scene delegate is `delegate` (app code acting on its own, as
    /// `ScriptedSceneDelegate`), and whose app makes plain controllers.
    convenience init(sceneDelegate delegate: any UISceneDelegate) {
        self.init(
            app: WorkerApp(
                makeApplicationDelegate: { RecordingApplicationDelegate() },
                makeSceneDelegate: { delegate },
                makeViewController: { UIViewController(restorationIdentifier: $0) }
            )
        )
    }

    /// A harness whose app makes every controller with `make` (and logs its delegates'
    /// callbacks to a log of its own).
    convenience init(makingControllers make: @escaping @MainActor (String) -> UIViewController) {
        let log = Log()
        self.init(
            app: WorkerApp(
                makeApplicationDelegate: { LoggingApplicationDelegate(log: log) },
                makeSceneDelegate: { LoggingSceneDelegate(log: log) },
                makeViewController: make
            )
        )
    }

    /// Sends `operation` as the next request and returns what the worker said.
    @discardableResult
    func send(_ operation: WorkerOperation) -> [String] {
        let id = nextID
        nextID += 1
        session.handle(.request(id: id, operation))
        return render(session.takeOutput())
    }

    /// The raw messages of the next request.
    func sendRaw(_ operation: WorkerOperation) -> [WorkerMessage] {
        let id = nextID
        nextID += 1
        session.handle(.request(id: id, operation))
        return session.takeOutput()
    }

    /// Connects the scene (to the foreground, on `Root`) and returns its root controller.
    func connectedRoot() throws -> UIViewController {
        connect()
        return try #require(session.scene?.window.navigationStack.topViewController, "no root")
    }

    @discardableResult
    func connect(
        background: Bool = false,
        root: String = "Root",
        reconnect: Bool = false,
        restoration: JSONValue? = nil
    ) -> [String] {
        send(
            .connect(
                ConnectOptions(
                    session: "A",
                    background: background,
                    root: root,
                    reconnect: reconnect,
                    restoration: restoration
                )
            )
        )
    }

    /// The id the previous request had.
    var lastID: Int { nextID - 1 }

    func render(_ messages: [WorkerMessage]) -> [String] {
        messages.map { message in
            switch message {
            case .ready:
                return "ready"
            case .callback(let event):
                let suffix = event.origin == .app ? "@app" : ""
                if let vc = event.viewController {
                    return "\(vc).\(event.name)\(suffix)"
                }
                return event.name.rawValue + suffix
            case .change(let change):
                switch change {
                case .push(let viewController): return "change push \(viewController)"
                case .setStack(let stack): return "change setStack \(stack.joined(separator: ","))"
                case .replaceStack(let kept, let below, let viewController):
                    let added = below.isEmpty ? "" : " " + below.joined(separator: ",") + " +"
                    return
                        "change replaceStack [\(kept.map(String.init).joined(separator: ","))]\(added) \(viewController)"
                case .setTabs(let tabs, let selected):
                    return "change setTabs \(tabs.joined(separator: ",")) \(selected)"
                case .present(let viewController, let style): return "change present \(viewController) \(style)"
                case .selectTab(let index): return "change selectTab \(index)"
                case .popTo(let index): return "change popTo \(index)"
                case .addChild(let viewController): return "change addChild \(viewController)"
                case .removeChild(let viewController): return "change removeChild \(viewController)"
                case .pop, .popToRoot, .beginBackgroundTask, .endBackgroundTask, .dismiss,
                    .requestSceneSessionActivation,
                    .requestSceneSessionDestruction:
                    return "change \(change.name)"
                }
            case .reply(let id, let result):
                lastResult = result
                return "reply \(id)"
            case .failure(let id, let error):
                lastError = error
                return "failure \(id.map(String.init) ?? "nil") \(error.code)"
            }
        }
    }
}

/// A log shared between a test and the app it runs.
@MainActor
final class Log {
    var entries: [String] = []
}

/// The callbacks of the first appearance of `top`.
func firstAppearance(_ top: String = "Root") -> [String] {
    [
        "\(top).viewWillAppear", "\(top).viewIsAppearing",
        "\(top).viewWillLayoutSubviews", "\(top).viewDidLayoutSubviews", "sceneWillEnterForeground",
        "sceneDidBecomeActive", "\(top).viewDidAppear",
    ]
}

/// The callbacks of pushing `pushed` over `top`.
func push(_ pushed: String, over top: String) -> [String] {
    [
        "\(pushed).loadView", "\(pushed).viewDidLoad", "\(top).viewWillDisappear", "\(pushed).viewWillAppear",
        "\(pushed).viewIsAppearing", "\(pushed).viewWillLayoutSubviews", "\(pushed).viewDidLayoutSubviews",
        "\(top).viewDidDisappear",
        "\(pushed).viewDidAppear",
    ]
}

/// What the app's own `addChild` of `name` reports, rendered: the change, then the child's
/// whole add-child transition, as the app's.
func appAddedChild(_ name: String) -> [String] {
    ["change addChild \(name)"]
        + [
            "willMoveToParent", "loadView", "viewDidLoad", "viewWillAppear", "viewIsAppearing",
            "viewWillLayoutSubviews", "viewDidLayoutSubviews", "viewDidAppear", "didMoveToParent",
        ].map { "\(name).\($0)@app" }
}
