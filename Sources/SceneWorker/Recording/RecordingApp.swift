import Protocol

#if canImport(Glibc)
import Glibc
#endif

/// What the default app does beyond recording (`hostctl worker` options).
public struct RecordingOptions: Sendable, Hashable {
    /// Begin a background task in every `sceneDidEnterBackground` (the classic pattern),
    /// ended by the notification `finishUpload` or by its expiration handler.
    public var beginsBackgroundTaskOnEnterBackground = false
    /// The root is the storyboard's initial controller (`WorkerApp.rootFromStoryboard`).
    public var rootFromStoryboard = false
    /// Report UIKit's lifecycle notifications as an app on the `UIKit` module does (with no
    /// observers: there is no notification center without Foundation).
    public var postsLifecycleNotifications = false

    /// The defaults: record only.
    public init(beginsBackgroundTaskOnEnterBackground: Bool = false) {
        self.beginsBackgroundTaskOnEnterBackground = beginsBackgroundTaskOnEnterBackground
    }
}

extension WorkerApp {
    /// The default app `hostctl worker` runs: delegates and view controllers that do nothing
    /// but exist (the runtime reports every callback), any controller name accepted.
    ///
    /// It also acts on its own the way real apps do (docs/LIFECYCLE.md §3b):
    /// - the notification `openDetail` makes it push a controller named by the notification's
    ///   value when that is a non-empty string, else `Detail`; `closeDetail` makes it pop,
    ///   `closeAll` pop to the root, `closeTo` pop to the controller at the value's index
    ///   (`popToViewController`); `replaceTop` and `startOver` replace the top, or the whole
    ///   stack, with a controller the value names, else `Home` (`setViewControllers`);
    ///   `deepLink` sets the stack to the root and new controllers named by the value (an
    ///   array of non-empty strings), else `List` and `Detail`;
    ///   `openDetailLater` pushes `Detail` from a main-actor task, after the reply or after
    ///   the value's milliseconds;
    /// - connecting with a saved state whose `stack` has more than the root, it rebuilds the
    ///   whole stack in `willConnectTo` with `setViewControllers` (when the saved root is the
    ///   root it connects with);
    /// - the notification `openWindow` makes it ask for a new window
    ///   (`requestSceneSessionActivation`; a string value names a session to bring forward
    ///   instead); `closeWindow` makes it close its own window for good (or the session a
    ///   string value names) with `requestSceneSessionDestruction`;
    /// - the notification `exit` makes it end its process with `exit()` in the handler (an
    ///   integer value from 0 to 255 is the status);
    /// - with `beginsBackgroundTaskOnEnterBackground` it begins a background task in
    ///   `sceneDidEnterBackground` and ends it on the notification `finishUpload` (or when
    ///   the task expires).
    ///
    /// Its `stateRestorationActivity(for:)` answers an object that shows a restore worked:
    /// `{"stack":["Root","Detail"],"size":{"width":390,"height":844},"notifications":2,
    /// "restoredFrom":{…}}` — the stack's titles root first, the window size, how many
    /// notifications this process received, and the restoration state the scene connected
    /// with (absent when it had none; its own `restoredFrom` is dropped so the state does not
    /// grow with every reconnect).
    public static let recording = recording(RecordingOptions())

    /// The default app with `options`.
    public static func recording(_ options: RecordingOptions) -> WorkerApp {
        var app = WorkerApp(
            makeApplicationDelegate: { RecordingApplicationDelegate() },
            makeSceneDelegate: { RecordingSceneDelegate(options: options) },
            makeViewController: { name in UIViewController(restorationIdentifier: name) }
        )
        app.rootFromStoryboard = options.rootFromStoryboard
        if options.postsLifecycleNotifications { app.lifecycleNotificationPoster = { _ in } }
        return app
    }
}

/// The recording app's delegate: the defaults, and, when it runs app-based
/// (docs/LIFECYCLE.md §3d), app-level state restoration that shows a restore worked: it saves
/// `{"backgroundEntries":2,"restoredFrom":{…}}` — how often this process entered the
/// background, and the state it was restored from (absent when none; its own `restoredFrom`
/// dropped so the state does not grow with every launch).
@MainActor
final class RecordingApplicationDelegate: ApplicationDelegate {
    private(set) var restoredFrom: [String: JSONValue]?
    private(set) var backgroundEntries = 0

    func applicationDidEnterBackground(_ application: Application) {
        backgroundEntries += 1
    }

    func application(_ application: Application, shouldSaveSecureApplicationState coder: NSCoder) -> Bool {
        coder.encode(.int(backgroundEntries), forKey: "backgroundEntries")
        if var previous = restoredFrom {
            previous.removeValue(forKey: "restoredFrom")
            coder.encode(.object(previous), forKey: "restoredFrom")
        }
        return true
    }

    func application(_ application: Application, shouldRestoreSecureApplicationState coder: NSCoder) -> Bool {
        restoredFrom = coder.values
        return true
    }
}

/// The recording app's scene delegate: remembers what it was restored from and counts
/// notifications, for `stateRestorationActivity(for:)`; rebuilds its saved stack, navigates
/// on `openDetail`/`closeDetail` and runs an "upload" background task if asked to.
@MainActor
final class RecordingSceneDelegate: UISceneDelegate {
    /// The notification that makes the app push (its value, a string, names the controller).
    static let openDetail = "openDetail"
    /// The notification that makes the app pop.
    static let closeDetail = "closeDetail"
    /// The notification that makes the app pop to its root (`popToRootViewController`).
    static let closeAll = "closeAll"
    /// The notification that makes the app pop to the controller at the value's index of its
    /// stack (`popToViewController`).
    static let closeTo = "closeTo"
    /// The notification that makes the app replace the top of its stack with a new controller
    /// named by the value (a non-empty string, else `Home`) with `setViewControllers`.
    static let replaceTop = "replaceTop"
    /// The notification that makes the app replace its whole stack with a new controller
    /// named by the value (a non-empty string, else `Home`), as after a login.
    static let startOver = "startOver"
    /// The notification that makes the app set its stack to its root and new controllers
    /// named by the value (an array of non-empty strings, else `List` and `Detail`), as a
    /// deep link does.
    static let deepLink = "deepLink"
    /// The notification that makes the app push `Detail` later, from a main-actor task (as
    /// app code that awaits something does): at once after the notification's reply, or
    /// after the value's milliseconds when it is a positive integer (at most a minute).
    static let openDetailLater = "openDetailLater"
    /// The notification that makes the app open a window (`requestSceneSessionActivation`;
    /// a string value names the session to bring forward, else a new one).
    static let openWindow = "openWindow"
    /// The notification that makes the app close a window for good
    /// (`requestSceneSessionDestruction`: its own, or the session a string value names).
    static let closeWindow = "closeWindow"
    /// The notification that ends the background task begun on entering the background.
    static let finishUpload = "finishUpload"
    /// The notification that makes the app present a page sheet (its value, a string, names
    /// the controller), or a full-screen one when the name is prefixed with `fullScreen:`,
    /// from the frontmost controller (over a sheet already up, a sheet on a sheet).
    static let openSheet = "openSheet"
    /// The notification that makes the frontmost presented controller dismiss itself.
    static let closeSheet = "closeSheet"
    /// The notification that makes the stack's top controller dismiss every presented one
    /// (UIKit dismisses every controller presented above the one called).
    static let closeAllSheets = "closeAllSheets"
    /// The notification that makes the app select a tab of its tab bar root (an integer
    /// value: the index) through `TabBarController.selectedIndex`.
    static let selectTab = "selectTab"
    /// The notification that makes the frontmost controller add a child (a string value names
    /// it) with `addChild(_:)` and `didMove(toParent:)` (LIFECYCLE.md §3a).
    static let addChild = "addChild"
    /// The notification that makes the frontmost controller's child (named by a string value)
    /// leave with `willMove(toParent: nil)` and `removeFromParent()`.
    static let removeChild = "removeChild"
    /// The notification that makes the app end its process with `exit()`, in the handler
    /// (an integer value from 0 to 255: the status, else 0), as app code that gives up does.
    static let exit = "exit"

    let options: RecordingOptions
    private(set) var restoredFrom: JSONValue?
    private(set) var notifications = 0
    private var upload = BackgroundTaskIdentifier.invalid
    /// A restored presentation, shown once the scene is active.
    private var pendingPresentation: UIViewController?
    /// A restored tab selection, made once the scene is active (before the presentation).
    private var pendingTab: Int?
    /// Restored children of the frontmost controller, added once the scene is active (after
    /// the presentation).
    private var pendingChildren: [String] = []

    init(options: RecordingOptions = RecordingOptions()) {
        self.options = options
    }

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {
        restoredFrom = options.restoration
        restoreStack(of: scene, from: options.restoration)
        restorePresentation(of: scene, from: options.restoration)
        if case .object(let state)? = options.restoration, case .int(let tab)? = state["selectedTab"], tab > 0 {
            pendingTab = tab
        }
        if case .object(let state)? = options.restoration, case .array(let children)? = state["children"] {
            pendingChildren = children.compactMap {
                if case .string(let name) = $0, !name.isEmpty { name } else { nil }
            }
        }
    }

    /// `{"presented":{"vc":"Compose","style":"pageSheet"},…}`: presented again over the
    /// restored stack once the scene first becomes active (presenting needs the foreground;
    /// it runs right after the connect, as an app change).
    private func restorePresentation(of scene: Scene, from restoration: JSONValue?) {
        guard case .object(let state)? = restoration, case .object(let presented)? = state["presented"],
            case .string(let name)? = presented["vc"], !name.isEmpty,
            case .string(let styleName)? = presented["style"], let style = ModalPresentationStyle(rawValue: styleName)
        else { return }
        let controller = UIViewController(restorationIdentifier: name)
        controller.modalPresentationStyle = style
        pendingPresentation = controller
    }

    func sceneDidBecomeActive(_ scene: Scene) {
        // A selected tab shows another stack: the saved children were the old frontmost's.
        if pendingTab != nil { pendingChildren = [] }
        if let tab = pendingTab {
            // `{"selectedTab":1,…}`: selected again, as an app change (the tab shows its root).
            pendingTab = nil
            scene.window.tabBarController?.selectedIndex = tab
        }
        let presentation = pendingPresentation
        pendingPresentation = nil
        if let controller = presentation {
            scene.window.navigationStack.topViewController?.present(controller, animated: false)
        }
        // `{"children":["Player"],…}`: added again to the frontmost controller, as app changes.
        let children = pendingChildren
        pendingChildren = []
        guard !children.isEmpty, let parent = presentation ?? scene.window.navigationStack.topViewController else {
            return
        }
        for name in children {
            let child = UIViewController(restorationIdentifier: name)
            parent.addChild(child)
            child.didMove(toParent: parent)
        }
    }

    /// `{"stack":["Root","List","Detail"],…}`: the saved stack, root first.
    private func restoreStack(of scene: Scene, from restoration: JSONValue?) {
        guard case .object(let state)? = restoration, case .array(let saved)? = state["stack"], saved.count > 1
        else { return }
        let navigationController = scene.window.navigationStack
        guard let root = navigationController.viewControllers.first, saved.first == .string(root.restorationIdentifier)
        else {
            return
        }
        var stack = [root]
        for entry in saved.dropFirst() {
            guard case .string(let name) = entry, !name.isEmpty else { return }
            stack.append(UIViewController(restorationIdentifier: name))
        }
        navigationController.setViewControllers(stack, animated: false)
    }

    func scene(_ scene: Scene, didReceiveNotification name: String, value: JSONValue) {
        notifications += 1
        let navigationController = scene.window.navigationStack
        switch name {
        case Self.openDetail:
            var restorationIdentifier = "Detail"
            if case .string(let named) = value, !named.isEmpty { restorationIdentifier = named }
            navigationController.pushViewController(
                UIViewController(restorationIdentifier: restorationIdentifier),
                animated: true
            )
        case Self.closeDetail:
            navigationController.popViewController(animated: true)
        case Self.exit:
            var status: Int32 = 0
            if case .int(let value) = value, (0...255).contains(value) { status = Int32(value) }
            Glibc.exit(status)
        case Self.closeAll:
            navigationController.popToRootViewController(animated: true)
        case Self.closeTo:
            if case .int(let index) = value, navigationController.viewControllers.indices.contains(index) {
                let target = navigationController.viewControllers[index]
                navigationController.popToViewController(target, animated: true)
            }
        case Self.replaceTop, Self.startOver:
            var restorationIdentifier = "Home"
            if case .string(let named) = value, !named.isEmpty { restorationIdentifier = named }
            let kept = name == Self.startOver ? [] : Array(navigationController.viewControllers.dropLast())
            navigationController.setViewControllers(
                kept + [UIViewController(restorationIdentifier: restorationIdentifier)],
                animated: true
            )
        case Self.deepLink:
            var names = ["List", "Detail"]
            if case .array(let items) = value, !items.isEmpty {
                let named = items.compactMap { item in
                    if case .string(let name) = item, !name.isEmpty { name } else { nil }
                }
                if named.count == items.count { names = named }
            }
            guard let root = navigationController.viewControllers.first else { return }
            navigationController.setViewControllers(
                [root] + names.map { UIViewController(restorationIdentifier: $0) },
                animated: true
            )
        case Self.openDetailLater:
            var milliseconds = 0
            if case .int(let value) = value { milliseconds = max(0, min(value, 60_000)) }
            Task { @MainActor in
                if milliseconds > 0 { try? await Task.sleep(for: .milliseconds(milliseconds)) }
                navigationController.pushViewController(
                    UIViewController(restorationIdentifier: "Detail"),
                    animated: true
                )
            }
        case Self.finishUpload:
            endUpload()
        case Self.openSheet:
            var title = "Sheet"
            if case .string(let named) = value, !named.isEmpty { title = named }
            let fullScreen = title.hasPrefix("fullScreen:")
            let sheet = UIViewController(
                restorationIdentifier: fullScreen ? String(title.dropFirst("fullScreen:".count)) : title
            )
            sheet.modalPresentationStyle = fullScreen ? .fullScreen : .pageSheet
            navigationController.visibleViewController?.present(sheet, animated: true)
        case Self.closeSheet:
            navigationController.visibleViewController?.dismiss(animated: true)
        case Self.closeAllSheets:
            navigationController.topViewController?.dismiss(animated: true)
        case Self.selectTab:
            guard case .int(let index) = value else { break }
            scene.window.tabBarController?.selectedIndex = index
        case Self.addChild, Self.removeChild:
            guard case .string(let child) = value, let frontmost = navigationController.visibleViewController else {
                break
            }
            if name == Self.addChild {
                let added = UIViewController(restorationIdentifier: child)
                frontmost.addChild(added)
                added.didMove(toParent: frontmost)
            } else if let existing = frontmost.children.first(where: { $0.restorationIdentifier == child }) {
                existing.willMove(toParent: nil)
                existing.removeFromParent()
            }
        case Self.openWindow:
            // A string value names an existing session to bring forward; else a new window.
            var session: String?
            if case .string(let named) = value, !named.isEmpty { session = named }
            Application.shared.requestSceneSessionActivation(
                session,
                userActivity: UserActivity(activityType: Self.openWindow, userInfo: value)
            )
        case Self.closeWindow:
            var session = scene.session.persistentIdentifier
            if case .string(let named) = value, !named.isEmpty { session = named }
            Application.shared.requestSceneSessionDestruction(session)
        default:
            break
        }
    }

    func sceneDidEnterBackground(_ scene: Scene) {
        guard options.beginsBackgroundTaskOnEnterBackground, upload == .invalid else { return }
        upload = Application.shared.beginBackgroundTask(withName: "upload") { [weak self] in
            self?.endUpload()
        }
    }

    private func endUpload() {
        guard upload != .invalid else { return }
        Application.shared.endBackgroundTask(upload)
        upload = .invalid
    }

    func stateRestorationActivity(for scene: Scene) -> JSONValue? {
        var state: [String: JSONValue] = [
            "stack": .array(scene.window.navigationStack.viewControllers.map { .string($0.restorationIdentifier) }),
            "size": .object(["width": .int(scene.window.size.width), "height": .int(scene.window.size.height)]),
            "notifications": .int(notifications),
        ]
        if let tabBarController = scene.window.tabBarController {
            state["selectedTab"] = .int(tabBarController.selectedIndex)
        }
        let frontmost = scene.window.navigationStack.visibleViewController
        if let children = frontmost?.children, !children.isEmpty {
            state["children"] = .array(children.map { .string($0.restorationIdentifier) })
        }
        if let presented = scene.window.navigationStack.presentedViewController {
            state["presented"] = .object([
                "vc": .string(presented.restorationIdentifier),
                "style": .string(presented.modalPresentationStyle.rawValue),
            ])
        }
        switch restoredFrom {
        case .object(var previous)?:
            previous.removeValue(forKey: "restoredFrom")
            state["restoredFrom"] = .object(previous)
        case let previous?:
            state["restoredFrom"] = previous
        case nil:
            break
        }
        return .object(state)
    }
}
