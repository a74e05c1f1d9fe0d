/// A message from the host to a worker (one JSON object per line on the worker's stdin).
///
/// Wire form is flat: `{"op":"hello","protocol":1}`, `{"id":7,"op":"push","vc":"Detail"}`.
public enum HostCommand: Sendable, Hashable {
    /// The first frame the host writes: its protocol version, the lifecycle the host asks a
    /// worker that runs either kind for (`"lifecycle":"app"`; nil: none asked, the app's own
    /// choice), and whether it reads a reply folded into the callback frame before it
    /// (`"foldedReplies":true`, `CallbackEvent.reply`). `{"op":"hello","protocol":1}`
    case hello(protocolVersion: Int, lifecycle: LifecycleKind? = nil, foldedReplies: Bool = false)
    /// An operation the worker must carry out and acknowledge with a reply carrying `id`.
    case request(id: Int, WorkerOperation)
}

/// What the host asks a worker to do. Each runs the callbacks of LIFECYCLE.md in order.
public enum WorkerOperation: Sendable, Hashable {
    /// `{"op":"connect","session":"A","configuration":"Default","role":"windowApplication",
    ///   "background":false,"root":"Root","reconnect":false,"restoration":{...}}`
    /// (Indirect: its options are several times the size of every other case, and the host
    /// keeps and copies operations on every transition.)
    indirect case connect(ConnectOptions)
    /// `{"op":"activate"}`: foregroundInactive → foregroundActive.
    case activate
    /// `{"op":"deactivate"}`: foregroundActive → foregroundInactive.
    case deactivate
    /// `{"op":"background"}`: to background (resigning active first if needed).
    case enterBackground
    /// `{"op":"foreground"}`: background → foregroundActive.
    case enterForeground
    /// `{"op":"stateRestoration"}`: ask `stateRestorationActivity(for:)`; the reply's `result` is the answer.
    case stateRestoration
    /// `{"op":"disconnect"}`: `sceneDidDisconnect`, controllers deinit top first, then the worker exits 0.
    case disconnect
    /// `{"op":"terminate"}`: `sceneDidDisconnect`, `applicationWillTerminate`, then the worker exits 0.
    case terminate
    /// `{"op":"push","vc":"Detail","payload":{"id":42}}`: `payload` (optional, any JSON) goes to
    /// the app's controller factory with the name.
    case push(viewController: String, payload: JSONValue? = nil)
    /// `{"op":"pop"}`
    case pop
    /// `{"op":"resize","width":800,"height":600}`
    case resize(width: Int, height: Int)
    /// `{"op":"memoryWarning"}`
    case memoryWarning
    /// `{"op":"windowMemoryWarning"}`: the memory warning of an app process reaches one more of
    /// its windows: that scene's loaded controllers, and not the app delegate, which heard of
    /// it once with the first window's `memoryWarning` (real-ios-orders-3 c14).
    case windowMemoryWarning
    /// `{"op":"notify","name":"sync","value":3}`
    case notify(name: String, value: JSONValue)
    /// `{"op":"beginBackgroundTask"}`
    case beginBackgroundTask
    /// `{"op":"endBackgroundTask"}`
    case endBackgroundTask
    /// `{"op":"expireBackgroundTask"}`: run the expiration handler of the running background task.
    case expireBackgroundTask
    /// `{"op":"present","vc":"Compose","style":"pageSheet"}` (LIFECYCLE.md §3a); with
    /// `"modalInPresentation":true` the controller is `isModalInPresentation` (a swipe down
    /// only tells the delegate of the attempt).
    case present(viewController: String, style: PresentationStyle, modalInPresentation: Bool = false)
    /// `{"op":"popToRoot"}`: the stack pops to its root (the middle controllers get no
    /// appearance callbacks).
    case popToRoot
    /// `{"op":"dismiss"}`: dismiss the presented controller (programmatic).
    case dismiss
    /// `{"op":"swipeDismiss","completes":true}`: the user swipes the sheet down.
    case swipeDismiss(completes: Bool)
    /// `{"op":"swipeBack","completes":false}`: the user swipes back (interactive pop).
    case swipeBack(completes: Bool)
    /// `{"op":"tap"}`: `touchesBegan`, `touchesEnded` to the frontmost controller.
    case tap
    /// `{"op":"openURL","url":"notes://7"}`: `scene(_:openURLContexts:)` (a foreground scene).
    case openURL(url: String)
    /// `{"op":"continueUserActivity","activityType":"com.example.edit","userInfo":{...}}`:
    /// `scene(_:continue:)` (a foreground scene).
    case continueUserActivity(activityType: String, userInfo: JSONValue?)
    /// `{"op":"quickAction","type":"com.example.new","userInfo":{...}}`: a home-screen quick
    /// action for a running scene (`windowScene(_:performActionFor:completionHandler:)`).
    case quickAction(type: String, userInfo: JSONValue?)
    /// `{"op":"openNotification","actionIdentifier":"…","userInfo":{...}}`: the user tapped a
    /// notification (`userNotificationCenter(_:didReceive:withCompletionHandler:)`).
    case openNotification(actionIdentifier: String, userInfo: JSONValue?)
    /// `{"op":"remoteNotification","userInfo":{...}}`: a silent push
    /// (`application(_:didReceiveRemoteNotification:fetchCompletionHandler:)`).
    case remoteNotification(userInfo: JSONValue?)
    /// `{"op":"didDiscardSceneSessions","sessions":["A"]}`: sessions of the app discarded
    /// elsewhere (`application(_:didDiscardSceneSessions:)`).
    case didDiscardSceneSessions(sessions: [String])
    /// `{"op":"selectTab","index":1}`: the tab bar root selects tab `index` (LIFECYCLE.md §3a).
    case selectTab(index: Int)
    /// `{"op":"addChild","vc":"Player"}`: the frontmost controller adds a child (LIFECYCLE.md §3a).
    case addChild(viewController: String)
    /// `{"op":"removeChild","vc":"Player"}`: the frontmost controller removes its child.
    case removeChild(viewController: String)
    /// `{"op":"selectRow","section":0,"row":2}`, `typeText`, `tapControl`, `alertAction`, `swipeRow`, `moveRow`: what a
    /// user does on the frontmost screen (`UserAction`), traced as a `userAction` callback.
    case user(UserAction)
    /// `{"op":"inspect"}`: the reply's result is the visible tree (`VisibleTree`). No callback.
    case inspect

    /// What a worker that carries several scenes of one app (`SceneTag`) answers a
    /// `disconnect` or `terminate` with when the scene leaves and the process runs on.
    public static let detachedReply: JSONValue = .string("detached")

    /// The `op` string on the wire.
    public var name: String {
        switch self {
        case .connect: "connect"
        case .activate: "activate"
        case .deactivate: "deactivate"
        case .enterBackground: "background"
        case .enterForeground: "foreground"
        case .stateRestoration: "stateRestoration"
        case .disconnect: "disconnect"
        case .terminate: "terminate"
        case .push: "push"
        case .pop: "pop"
        case .resize: "resize"
        case .memoryWarning: "memoryWarning"
        case .windowMemoryWarning: "windowMemoryWarning"
        case .notify: "notify"
        case .beginBackgroundTask: "beginBackgroundTask"
        case .endBackgroundTask: "endBackgroundTask"
        case .expireBackgroundTask: "expireBackgroundTask"
        case .present: "present"
        case .dismiss: "dismiss"
        case .swipeDismiss: "swipeDismiss"
        case .swipeBack: "swipeBack"
        case .tap: "tap"
        case .openURL: "openURL"
        case .continueUserActivity: "continueUserActivity"
        case .quickAction: "quickAction"
        case .openNotification: "openNotification"
        case .remoteNotification: "remoteNotification"
        case .popToRoot: "popToRoot"
        case .didDiscardSceneSessions: "didDiscardSceneSessions"
        case .selectTab: "selectTab"
        case .addChild: "addChild"
        case .removeChild: "removeChild"
        case .user(let action): action.name
        case .inspect: "inspect"
        }
    }
}

/// Parameters of `connect`.
public struct ConnectOptions: Sendable, Hashable {
    /// The session's persistent identifier.
    public var session: String
    /// The configuration name (`UISceneConfiguration.name`).
    public var configuration: String
    /// The session role (`UISceneSession.Role`).
    public var role: String
    /// Connect straight to background (system-requested launch).
    public var background: Bool
    /// The root view controller's name.
    public var root: String
    /// Whether the session existed before (skips `configurationForConnecting`).
    public var reconnect: Bool
    /// The session's stored restoration state, if any.
    public var restoration: JSONValue?
    /// The URL the scene is opened with (`"url"`, omitted when none).
    public var url: String?
    /// The window width the scene launches at (`"width"`); nil: the default. The first
    /// layout happens at the launch size, with no `viewWillTransition`.
    public var width: Int?
    /// The window height the scene launches at (`"height"`); nil: the default.
    public var height: Int?
    /// Sessions of the app discarded while no worker of it ran (`"discardedSessions"`,
    /// omitted when none): reported right after `didFinishLaunching`.
    public var discardedSessions: [String]?
    /// The user activity the scene is opened with (`"activityType"`, `"userInfo"`; omitted
    /// when none): a scene another scene asked for.
    public var activityType: String?
    public var userInfo: JSONValue?
    /// The roots of a tab bar root's tabs, in tab order (`"tabs"`, omitted for a scene whose
    /// root is one navigation stack): each tab is its own stack, the first one selected.
    public var tabs: [String]?
    /// The window's interface style (`"style"`, omitted when light).
    public var style: InterfaceStyle?
    /// The home-screen quick action the scene is opened with (`"shortcutItem"`:
    /// `{"type":…,"userInfo":…}`, omitted when none): `connectionOptions.shortcutItem`.
    public var shortcutItem: JSONValue?
    /// The tapped notification the scene is opened with (`"notificationResponse"`:
    /// `{"actionIdentifier":…,"userInfo":…}`, omitted when none):
    /// `connectionOptions.notificationResponse`.
    public var notificationResponse: JSONValue?
    /// A silent push the app is launched for (`"remoteNotification"`: its `userInfo`, omitted
    /// when none): the app launches into the background with no scene connected.
    public var remoteNotification: JSONValue?

    public init(
        session: String,
        configuration: String = "Default Configuration",
        role: String = "windowApplication",
        background: Bool = false,
        root: String = "Root",
        reconnect: Bool = false,
        restoration: JSONValue? = nil,
        url: String? = nil,
        width: Int? = nil,
        height: Int? = nil,
        discardedSessions: [String]? = nil,
        activityType: String? = nil,
        userInfo: JSONValue? = nil,
        tabs: [String]? = nil,
        style: InterfaceStyle? = nil,
        shortcutItem: JSONValue? = nil,
        notificationResponse: JSONValue? = nil,
        remoteNotification: JSONValue? = nil
    ) {
        self.style = style
        self.shortcutItem = shortcutItem
        self.notificationResponse = notificationResponse
        self.remoteNotification = remoteNotification
        self.session = session
        self.configuration = configuration
        self.role = role
        self.background = background
        self.root = root
        self.reconnect = reconnect
        self.restoration = restoration
        self.url = url
        self.width = width
        self.height = height
        self.discardedSessions = discardedSessions
        self.activityType = activityType
        self.userInfo = userInfo
        self.tabs = tabs
    }
}
