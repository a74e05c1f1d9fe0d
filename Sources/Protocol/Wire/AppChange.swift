/// A change the app made from its own code (LIFECYCLE.md §3b), reported by the worker
/// before the callbacks it ran for it.
///
/// Wire form (a `WorkerMessage` of type `change`): `{"type":"change","op":"push","vc":"Detail"}`,
/// `{"type":"change","op":"pop"}`, `{"type":"change","op":"beginBackgroundTask"}`,
/// `{"type":"change","op":"setStack","stack":["Root","List","Detail"]}`.
public enum AppChange: Sendable, Hashable {
    /// The app pushed a view controller onto its navigation stack.
    case push(viewController: String)
    /// The app popped the top view controller.
    case pop
    /// The app popped its stack to the root (`popToRootViewController(animated:)`,
    /// real-ios-orders-3 c22). `{"type":"change","op":"popToRoot"}`
    case popToRoot
    /// The app popped its stack to the controller at `index` (0: the root, which the worker
    /// reports as `popToRoot`), one below the top at most (`popToViewController(_:animated:)`:
    /// `popToRoot`'s callbacks, to that controller). `{"type":"change","op":"popTo","index":1}`
    case popTo(index: Int)
    /// The app began a background task (`Application.beginBackgroundTask`).
    case beginBackgroundTask
    /// The app ended its background task (`Application.endBackgroundTask`).
    case endBackgroundTask
    /// The navigation stack the app rebuilt (in willConnectTo, from restored state), root first.
    case setStack([String])
    /// The app replaced its shown stack (`setViewControllers(_:animated:)` on a scene on
    /// screen) with the controllers at `kept` of the stack (their indices, in order), the new
    /// controllers `below` (bottom first, often none) and the new controller `viewController`
    /// on top; the others go (LIFECYCLE.md §3b).
    /// `{"type":"change","op":"replaceStack","kept":[0],"vc":"Home"}`,
    /// `{"type":"change","op":"replaceStack","kept":[0],"below":["List"],"vc":"Detail"}`
    case replaceStack(kept: [Int], below: [String] = [], viewController: String)
    /// The tab bar root the app made in willConnectTo (a window's `rootViewController` a
    /// `UITabBarController`): its tabs' roots in tab order and the selected tab.
    /// `{"type":"change","op":"setTabs","tabs":["List","Settings"],"selected":0}`
    case setTabs([String], selected: Int)
    /// The app presented a controller over its stack (`present(_:animated:completion:)`,
    /// LIFECYCLE.md §3a). `{"type":"change","op":"present","vc":"Compose","style":"pageSheet"}`
    case present(viewController: String, style: PresentationStyle)
    /// The app dismissed the presented controller (`dismiss(animated:completion:)`).
    case dismiss
    /// The app asked for a scene (`Application.requestSceneSessionActivation`): the session
    /// `session` (nil: a new one), brought forward with the user activity, if any
    /// (`{"type":"change","op":"requestSceneSessionActivation","session":"A","activityType":"edit","userInfo":{...}}`).
    case requestSceneSessionActivation(session: String?, activityType: String?, userInfo: JSONValue?)
    /// The app asked for the scene `session` to be closed and its session discarded
    /// (`Application.requestSceneSessionDestruction`).
    case requestSceneSessionDestruction(session: String)
    /// The app selected a tab of its tab bar root (`TabBarController.selectedIndex`,
    /// LIFECYCLE.md §3a). `{"type":"change","op":"selectTab","index":1}`
    case selectTab(index: Int)
    /// The app added a child to its frontmost controller (`addChild(_:)` then
    /// `didMove(toParent:)`, LIFECYCLE.md §3a). `{"type":"change","op":"addChild","vc":"Player"}`
    case addChild(viewController: String)
    /// The app removed a child of its frontmost controller (`willMove(toParent: nil)` then
    /// `removeFromParent()`). `{"type":"change","op":"removeChild","vc":"Player"}`
    case removeChild(viewController: String)

    /// The `op` string on the wire.
    public var name: String {
        switch self {
        case .push: "push"
        case .pop: "pop"
        case .popToRoot: "popToRoot"
        case .popTo: "popTo"
        case .beginBackgroundTask: "beginBackgroundTask"
        case .endBackgroundTask: "endBackgroundTask"
        case .setStack: "setStack"
        case .replaceStack: "replaceStack"
        case .setTabs: "setTabs"
        case .present: "present"
        case .dismiss: "dismiss"
        case .requestSceneSessionActivation: "requestSceneSessionActivation"
        case .requestSceneSessionDestruction: "requestSceneSessionDestruction"
        case .selectTab: "selectTab"
        case .addChild: "addChild"
        case .removeChild: "removeChild"
        }
    }
}

/// Who caused a callback: absent for the host's requests, `app` for a change the app made.
public enum CallbackOrigin: String, Sendable, Hashable {
    /// The callback ran for an `AppChange` (wire: `"origin":"app"`).
    case app
}
