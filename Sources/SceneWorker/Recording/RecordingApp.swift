import Protocol

extension WorkerApp {
    /// The default app `hostctl worker` runs: delegates and view controllers that do nothing
    /// but exist (the runtime reports every callback), any controller name accepted.
    ///
    /// Its `stateRestorationActivity(for:)` answers an object that shows a restore worked:
    /// `{"stack":["Root","Detail"],"size":{"width":390,"height":844},"notifications":2,
    /// "restoredFrom":{…}}` — the stack's titles root first, the window size, how many
    /// notifications this process received, and the restoration state the scene connected
    /// with (absent when it had none; its own `restoredFrom` is dropped so the state does not
    /// grow with every reconnect).
    public static let recording = WorkerApp(
        makeApplicationDelegate: { RecordingApplicationDelegate() },
        makeSceneDelegate: { RecordingSceneDelegate() },
        makeViewController: { name in ViewController(title: name) }
    )
}

/// The recording app's delegate: the defaults.
@MainActor
final class RecordingApplicationDelegate: ApplicationDelegate {}

/// The recording app's scene delegate: remembers what it was restored from and counts
/// notifications, for `stateRestorationActivity(for:)`.
@MainActor
final class RecordingSceneDelegate: SceneDelegate {
    private(set) var restoredFrom: JSONValue?
    private(set) var notifications = 0

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {
        restoredFrom = options.restoration
    }

    func scene(_ scene: Scene, didReceiveNotification name: String, value: JSONValue) {
        notifications += 1
    }

    func stateRestorationActivity(for scene: Scene) -> JSONValue? {
        var state: [String: JSONValue] = [
            "stack": .array(scene.window.rootViewController.viewControllers.map { .string($0.title) }),
            "size": .object(["width": .int(scene.window.size.width), "height": .int(scene.window.size.height)]),
            "notifications": .int(notifications),
        ]
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
