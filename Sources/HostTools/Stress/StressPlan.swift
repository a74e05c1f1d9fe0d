import HostProcess
import Protocol
import SceneModel

/// One thing a stress client does.
public enum StressAction: Sendable, Hashable {
    /// Send `operation` to scene number `scene` through the host's API. `id` numbers the
    /// request over the whole run (it also names pushed controllers and notification values,
    /// so the trace shows which request a callback came from).
    case request(id: Int, scene: Int, SceneOperation)
    /// SIGKILL a live worker from outside the host: the `pick`-th (modulo) of the scenes with
    /// a pid, in scene order, when the action runs.
    case kill(id: Int, pick: Int)

    /// The action's number in the run.
    public var id: Int {
        switch self {
        case .request(let id, _, _), .kill(let id, _): id
        }
    }
}

/// The operations of a stress run, generated from the seed before anything runs: one list,
/// dealt round-robin to the clients (action `i` goes to client `i % clients`).
public struct StressPlan: Sendable, Hashable {
    /// Each client's actions, in the order it sends them.
    public let clients: [[StressAction]]

    /// The relative weight of each kind of operation. Legal and illegal requests both
    /// come up often: the generator does not know the scenes' states. `discard` is left out
    /// (it ends a scene for good).
    package static let weights: [(kind: Kind, weight: Int)] = [
        (.connect, 12), (.connectBackground, 3), (.activate, 8), (.deactivate, 8), (.background, 9),
        (.foreground, 9), (.push, 8), (.pop, 7), (.resize, 5), (.memoryWarning, 4), (.notify, 7),
        (.beginBackgroundTask, 4), (.endBackgroundTask, 4), (.disconnect, 3), (.terminate, 2),
        (.present, 4), (.dismiss, 3), (.swipeDismiss, 2), (.swipeBack, 2),
        (.tap, 4), (.continueUserActivity, 2),
        (.connectAppBased, 2),
        (.addChild, 3), (.removeChild, 2),
        (.openURL, 4), (.openWindow, 4), (.closeWindow, 2),
        (.popToRoot, 3), (.quickAction, 2), (.openNotification, 2), (.remoteNotification, 2),
        (.connectInApp, 4),
    ]

    package enum Kind: Sendable {
        case connect, connectBackground, activate, deactivate, background, foreground, push, pop, resize
        case memoryWarning, notify, beginBackgroundTask, endBackgroundTask, disconnect, terminate
        case present, dismiss, swipeDismiss, swipeBack
        case tap, continueUserActivity
        /// An app without scene support (docs/LIFECYCLE.md §3d).
        case connectAppBased
        /// A child of the frontmost controller (LIFECYCLE.md §3a), and the removal of a recent one.
        case addChild, removeChild
        /// `openURL`: a connected scene gets `openURLContexts`, one without a worker connects
        /// with the URL, a suspended one is resumed first (docs/LIFECYCLE.md §3c).
        case openURL
        /// The default worker's `openWindow` notification: its app asks for a new window
        /// (`requestSceneSessionActivation`), a new scene `S<n>-<k>` with its own worker.
        case openWindow
        /// The default worker's `closeWindow` notification naming one of the first windows the
        /// scene's app opened (`requestSceneSessionDestruction`: discarded for good).
        case closeWindow
        /// The system's ways in (docs/LIFECYCLE.md §3f): each launches a scene with no worker
        /// or reaches a running one (from the background on its way to the foreground).
        case quickAction, openNotification, remoteNotification
        /// The stack pops to its root.
        case popToRoot
        /// A connect of a scene of an app whose scenes share one process (LIFECYCLE.md §4a):
        /// scenes pair up, `S0` and `S1` in `App0`, and so on.
        case connectInApp
    }

    /// Notification names: few, so that notifications queued while suspended get merged.
    package static let notificationNames = ["sync", "badge", "mail"]

    public init(options: StressOptions) {
        var generator = SeededGenerator(seed: options.seed)
        let clientCount = max(1, options.clients)
        var clients = [[StressAction]](repeating: [], count: clientCount)
        let steady: Set<Kind> = [
            .connect, .connectBackground, .disconnect, .terminate, .connectAppBased, .openWindow, .closeWindow,
            .connectInApp,
            // A URL (an activity, a quick action, a notification) relaunches a scene whose
            // worker ended (a background task past its limit, say).
            .openURL, .continueUserActivity, .quickAction, .openNotification,
        ]
        let weights = Self.weights.map { options.mix == .steady && steady.contains($0.kind) ? 0 : $0.weight }
        let connects = options.mix == .steady ? min(options.scenes, max(0, options.ops)) : 0
        for id in 0..<connects {
            clients[id % clientCount].append(.request(id: id, scene: id, .connect()))
        }
        for id in connects..<max(connects, options.ops) {
            // Every action draws the same number of values, so a kill rate changes which
            // actions are kills and nothing else.
            let isKill = generator.chance(options.killRate)
            let pick = generator.next(below: 1 << 30)
            let scene = generator.next(below: max(1, options.scenes))
            let kind = Self.weights[generator.weighted(weights)].kind
            let parameter = generator.next(below: 1 << 30)
            let action: StressAction =
                isKill
                ? .kill(id: id, pick: pick)
                : .request(id: id, scene: scene, Self.operation(kind, id: id, scene: scene, parameter: parameter))
            clients[id % clientCount].append(action)
        }
        self.clients = clients
    }

    package static func operation(_ kind: Kind, id: Int, scene: Int, parameter: Int) -> SceneOperation {
        switch kind {
        case .connect: .connect()
        case .connectBackground: .connect(background: true)
        case .activate: .activate
        case .deactivate: .deactivate
        case .background: .background
        case .foreground: .foreground
        case .push: .push(viewController: viewControllerName(request: id))
        case .pop: .pop
        // A new size every time (a worker refuses the size its window has, LIFECYCLE.md §3):
        // unique for the first 1.9 million ids, and never the launch size's height (844).
        case .resize: .resize(width: 320 + id % 1600, height: 900 + (id / 1600) % 1200)
        case .memoryWarning: .memoryWarning
        case .notify:
            .notify(name: notificationNames[parameter % notificationNames.count], value: .int(id))
        case .beginBackgroundTask: .beginBackgroundTask
        case .endBackgroundTask: .endBackgroundTask
        case .disconnect: .disconnect
        case .terminate: .terminate
        case .present:
            .present(
                viewController: presentedName(request: id),
                style: PresentationStyle.allCases[parameter % PresentationStyle.allCases.count],
                modalInPresentation: parameter % 5 == 0
            )
        case .dismiss: .dismiss
        case .swipeDismiss: .swipeDismiss(completes: parameter % 3 != 0)
        case .swipeBack: .swipeBack(completes: parameter % 3 != 0)
        case .tap: .tap
        case .continueUserActivity: .continueUserActivity(activityType: "edit", userInfo: .int(id))
        case .connectAppBased: .connect(launch: LaunchParameters(lifecycle: .app))
        case .addChild: .addChild(viewController: childName(request: id))
        // One of the last few requests' children: often there (or refused when it is not).
        case .removeChild: .removeChild(viewController: childName(request: max(0, id - 1 - parameter % 4)))
        case .openURL: .openURL(url: url(request: id))
        case .quickAction: .quickAction(type: "compose", userInfo: .int(id))
        case .openNotification: .openNotification(userInfo: .object(["id": .int(id)]))
        case .remoteNotification: .remoteNotification(userInfo: .object(["id": .int(id)]))
        case .popToRoot: .popToRoot
        // Scene-based, whatever the session's app was: an app process carries scenes.
        case .connectInApp: .connect(launch: LaunchParameters(lifecycle: .scene, app: "App\(scene / 2)"))
        // An integer value: a new window (the value is its user info), and the request's mark.
        case .openWindow: .notify(name: openWindow, value: .int(id))
        case .closeWindow:
            .notify(name: closeWindow, value: .string(openedWindowName(opener: scene, parameter % closedWindowChoices)))
        }
    }

    /// The child request `id` adds: unique, so its `loadView` names the request.
    public static func childName(request id: Int) -> String { "C\(id)" }

    /// The default worker's notifications that make its app open and close windows.
    package static let openWindow = "openWindow"
    package static let closeWindow = "closeWindow"
    /// A `closeWindow` names one of the first few windows its scene's app opened.
    package static let closedWindowChoices = 3

    /// The URL request `id` opens.
    public static func url(request id: Int) -> String { "stress://\(id)" }

    /// The `index`-th (from 0) window the app of scene number `opener` opened: the host names
    /// it after its opener (`S3-1`, `S3-2`, …).
    public static func openedWindowName(opener: Int, _ index: Int) -> String { "\(sceneName(opener))-\(index + 1)" }

    /// The controller request `id` presents: unique, so its `loadView` names the request.
    public static func presentedName(request id: Int) -> String { "M\(id)" }

    /// The identifier of scene number `index`.
    public static func sceneName(_ index: Int) -> String { "S\(index)" }

    /// The controller request `id` pushes: unique, so its `loadView` names the request.
    public static func viewControllerName(request id: Int) -> String { "V\(id)" }
}
