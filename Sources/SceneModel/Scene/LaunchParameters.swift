import Protocol

/// What a `connect` launches the scene's worker with besides `background` and `root`
/// (docs/LIFECYCLE.md §3c): the URL it is opened with and the window size
/// it launches at. A restart after a death reuses the last connect's.
public struct LaunchParameters: Sendable, Hashable {
    /// The URL the scene is opened with (`connect … "url"`).
    public var url: String?
    /// The window size it launches at (`"width"`, `"height"`: both or neither); nil: the
    /// worker's default. The first layout happens at this size, with no `viewWillTransition`.
    public var width: Int?
    public var height: Int?
    /// The user activity it is opened with (a scene another scene asked for, §3c).
    public var activityType: String?
    public var userInfo: JSONValue?
    /// The lifecycle asked of a worker that runs either kind (`connect … "lifecycle"`,
    /// docs/LIFECYCLE.md §3d); nil: the app's own (scene-based for the default worker). The
    /// worker's `ready` declares the one it follows.
    public var lifecycle: LifecycleKind?
    /// The roots of a tab bar root's tabs (`"tabs"`, LIFECYCLE.md §3a), first one selected;
    /// nil: the root is one navigation stack.
    public var tabs: [String]?
    /// The window's interface style (`"style"`); nil: light.
    public var style: InterfaceStyle?
    /// What the system opens the scene for (§3f), in its connection options: a quick action's
    /// shortcut item (`{"type":…,"userInfo":…}`) or a tapped notification's response
    /// (`{"actionIdentifier":…,"userInfo":…}`). Not kept for a restart.
    public var shortcutItem: JSONValue?
    public var notificationResponse: JSONValue?
    /// A silent push the app is launched for, with no scene connected (c20). Not kept for a restart.
    public var remoteNotification: JSONValue?
    /// The app the scene belongs to (`connect … "app"`): scenes of one app share one worker
    /// process, as an iOS app's windows share one process (real-ios-orders-3 c13–c15). nil:
    /// the scene has a worker process of its own (the default).
    public var app: String?

    /// Launch parameters; all nil: a plain launch.
    public init(
        url: String? = nil,
        width: Int? = nil,
        height: Int? = nil,
        activityType: String? = nil,
        userInfo: JSONValue? = nil,
        lifecycle: LifecycleKind? = nil,
        tabs: [String]? = nil,
        style: InterfaceStyle? = nil,
        app: String? = nil
    ) {
        self.app = app
        self.style = style
        self.url = url
        self.width = width
        self.height = height
        self.activityType = activityType
        self.userInfo = userInfo
        self.lifecycle = lifecycle
        self.tabs = tabs
    }

    /// Why these parameters cannot launch anything, or nil.
    package var refusal: String? {
        if (width == nil) != (height == nil) { return "connect needs both \"width\" and \"height\", or neither" }
        if let width, let height, width <= 0 || height <= 0 { return "connect needs a positive width and height" }
        if url?.isEmpty == true { return "connect needs a non-empty \"url\"" }
        if let app, !SceneSession.isValidIdentifier(app) {
            return "connect needs \"app\" to be a name as a scene's is (letters, digits, '.', '-', '_'; at most 64)"
        }
        if app != nil, lifecycle == .app {
            return "an app process carries scenes: \"app\" needs the scene-based lifecycle"
        }
        if let tabs {
            if tabs.isEmpty || tabs.contains(where: \.isEmpty) {
                return "connect needs \"tabs\" to be a non-empty list of non-empty names"
            }
            if tabs.count > Self.maximumTabs { return "connect takes at most \(Self.maximumTabs) tabs" }
        }
        return nil
    }

    /// What the worker's `willConnectTo` echoes of these parameters (its `value`): the URL, the
    /// activity, the shortcut item, the notification response; `{}` for a plain launch.
    package var echoedValue: JSONValue {
        var options = ConnectOptions(session: "")
        apply(to: &options)
        return options.connectionValue ?? .object([:])
    }

    /// Adds these parameters to a worker's `connect`.
    package func apply(to options: inout ConnectOptions) {
        options.url = url
        options.width = width
        options.height = height
        options.activityType = activityType
        options.userInfo = userInfo
        options.tabs = tabs
        options.style = style
        options.shortcutItem = shortcutItem
        options.notificationResponse = notificationResponse
        options.remoteNotification = remoteNotification
        // The first tab's root is the scene's root: the one that loads at launch.
        if let first = tabs?.first { options.root = first }
    }

    /// The most tabs a tab bar root may have.
    public static let maximumTabs = SceneLimits.maximumTabs
}
