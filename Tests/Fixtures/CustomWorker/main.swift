// The main test suite's own app on the worker runtime (HostProcessTests spawns it): a
// notes editor whose draft survives kills. Examples/ holds the worked example for users.

import Protocol
import SceneWorker

/// A notes editor whose draft survives kills through the scene session.
final class EditorViewController: UIViewController {
    var draft = ""

    override func viewDidLoad() {
        draft = "loaded at \(restorationIdentifier)"
    }

    override func didReceiveMemoryWarning() {
        draft = ""
    }
}

/// A list whose rows push the editor when tapped (the app navigating from a touch).
final class ListViewController: UIViewController {
    override func touchesEnded(_ touches: Set<Touch>) {
        navigationController?.pushViewController(EditorViewController(restorationIdentifier: "Editor"), animated: true)
    }
}

/// A tap opens a second window (a new scene) to compose a note.
final class OpenerViewController: UIViewController {
    override func touchesEnded(_ touches: Set<Touch>) {
        Application.shared.requestSceneSessionActivation(
            nil,
            userActivity: UserActivity(activityType: "compose", userInfo: .string("draft"))
        )
    }
}

/// A tap closes this window for good (its session is discarded).
final class CloserViewController: UIViewController {
    override func touchesEnded(_ touches: Set<Touch>) {
        guard let session = Application.shared.connectedScene?.session.persistentIdentifier else { return }
        Application.shared.requestSceneSessionDestruction(session)
    }
}

final class NotesAppDelegate: ApplicationDelegate {}

final class NotesSceneDelegate: UISceneDelegate {
    private var restoredDraft: String?

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {
        if case .object(let state)? = options.restoration, case .string(let draft)? = state["draft"] {
            restoredDraft = draft
        }
        // A deep link at launch opens the editor over the root.
        guard let navigation = scene.window.rootViewController as? NavigationController else { return }
        let compose = options.userActivity?.activityType == "compose"
        if options.url == "notes://editor" || compose, let root = navigation.viewControllers.first {
            navigation.setViewControllers(
                [root, EditorViewController(restorationIdentifier: "Editor")],
                animated: false
            )
        }
    }

    /// A deep link while connected pushes the editor.
    func scene(_ scene: Scene, openURLContexts contexts: Set<OpenURLContext>) {
        guard contexts.contains(where: { $0.absoluteString == "notes://editor" }) else { return }
        (scene.window.rootViewController as? NavigationController)?.pushViewController(
            EditorViewController(restorationIdentifier: "Editor"),
            animated: true
        )
    }

    func stateRestorationActivity(for scene: Scene) -> JSONValue? {
        let visible = (scene.window.rootViewController as? NavigationController)?.topViewController
        // Screens that save more than any frame carries: 2 MiB, or nested 70 levels.
        switch visible?.restorationIdentifier {
        case "Hoarder": return .object(["hoard": .string(String(repeating: "x", count: 2 << 20))])
        case "Deep": return (0..<70).reduce(JSONValue.null) { inner, _ in .array([inner]) }
        default: break
        }
        let top = visible as? EditorViewController
        return .object(["draft": .string(top?.draft ?? restoredDraft ?? "")])
    }
}

WorkerRuntime.run(
    WorkerApp(
        makeApplicationDelegate: { NotesAppDelegate() },
        makeSceneDelegate: { NotesSceneDelegate() },
        makeViewController: { name in
            switch name {
            case "Editor": EditorViewController(restorationIdentifier: name)
            case "List": ListViewController(restorationIdentifier: name)
            case "Opener": OpenerViewController(restorationIdentifier: name)
            case "Closer": CloserViewController(restorationIdentifier: name)
            // A factory mistake (a controller named after its class): the worker refuses a
            // launch with this root.
            case "Misnamed": UIViewController(restorationIdentifier: "MisnamedViewController")
            default: UIViewController(restorationIdentifier: name)
            }
        }
    )
)
