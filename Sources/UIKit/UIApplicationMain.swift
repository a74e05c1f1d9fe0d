import Protocol

extension UIApplicationDelegate where Self: UIResponder {
    /// `@main` on the app delegate, as in Xcode's template: runs the worker with this
    /// delegate class. What Info.plist and Main.storyboard say, the runtime finds by name in
    /// the delegate's module: the scene delegate is the class `SceneDelegate` (unless the
    /// configuration names a `delegateClass`), and each controller the host names
    /// (`connect --root ListViewController`, `push … --vc DetailViewController`) is made the
    /// storyboard way, with `init?(coder:)`, carrying that name as its restoration
    /// identifier. The host's default root, `Root`, is the class `ViewController` (the
    /// template's initial controller) when there is one.
    public static func main() {
        UIKitWorker.run(applicationDelegateClass: Self.self)
    }
}

/// UIKit's `UIApplicationMain` for a `main.swift`: runs the worker with the app delegate
/// class named `delegateClassName` (`NSStringFromClass(AppDelegate.self)`). Never returns.
@MainActor
public func UIApplicationMain(
    _ argc: Int32,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ principalClassName: String?,
    _ delegateClassName: String?
) -> Int32 {
    guard let name = delegateClassName, let delegateClass = _typeByName(name) as? UIResponder.Type,
        delegateClass is any UIApplicationDelegate.Type
    else {
        let message =
            "UIApplicationMain: no app delegate class \(delegateClassName ?? "nil"); pass NSStringFromClass(AppDelegate.self)\n"
        FileHandle.standardError.write(Data(message.utf8))
        exit(2)
    }
    UIKitWorker.run(applicationDelegateClass: delegateClass)
}

/// The worker an app on the UIKit module runs.
@MainActor
enum UIKitWorker {
    static func run(applicationDelegateClass: UIResponder.Type) -> Never {
        let typeName = String(reflecting: applicationDelegateClass)
        let module = String(typeName.prefix { $0 != "." })
        var app = WorkerApp(
            makeApplicationDelegate: {
                // Checked by the callers: `Self: UIApplicationDelegate`, or the cast above.
                applicationDelegateClass.init() as! any UIApplicationDelegate
            },
            makeSceneDelegate: {
                let sceneDelegateClass = _typeByName("\(module).SceneDelegate") as? UIResponder.Type
                if let delegate = sceneDelegateClass?.init() as? any UISceneDelegate { return delegate }
                warnOfTemplateSceneDelegate(module: module)
                return TemplateSceneDelegate()
            },
            makeViewController: { name, _ in
                storyboardController(named: name, module: module)
            }
        )
        app.rootFromStoryboard = true
        app.runLoopTurn = { MainRunLoop.turn() }
        app.lifecycleNotificationPoster = { LifecycleNotificationPoster.post($0) }
        UITextField.shouldChangeCharacters = { TextFieldChanges.ask($0, count: $1, replacement: $2) }
        WorkerRuntime.run(app)
    }

    private static var warnedOfTemplateSceneDelegate = false

    /// Says once, on stderr, that none of the app's scene code runs: no class of its is the
    /// scene delegate (an Info.plist's `UISceneDelegateClassName` is not read on Linux).
    private static func warnOfTemplateSceneDelegate(module: String) {
        guard !warnedOfTemplateSceneDelegate else { return }
        warnedOfTemplateSceneDelegate = true
        let message =
            "scenehost worker: no class \(module).SceneDelegate (a UIResponder that adopts UIWindowSceneDelegate) "
            + "and no delegateClass in the scene's configuration: a template scene delegate runs, none of your "
            + "scene code. Name your class SceneDelegate, or set delegateClass in "
            + "application(_:configurationForConnecting:options:)\n"
        FileHandle.standardError.write(Data(message.utf8))
    }

    /// The controller of class `name` in `module` made with `init?(coder:)`, identified as
    /// `name`; for `Root`, the class `ViewController`; else a plain controller named `name`.
    static func storyboardController(named name: String, module: String) -> UIViewController {
        let coder = NSCoder(values: ["UIRestorationIdentifier": .string(name)])
        let className = name == "Root" && _typeByName("\(module).Root") == nil ? "ViewController" : name
        if let type = _typeByName("\(module).\(className)") as? UIViewController.Type,
            let controller = type.init(coder: coder)
        {
            return controller
        }
        return UIViewController(restorationIdentifier: name)
    }
}

/// The scene delegate of an app without a `SceneDelegate` class: a window, nothing else.
@MainActor
final class TemplateSceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
}
