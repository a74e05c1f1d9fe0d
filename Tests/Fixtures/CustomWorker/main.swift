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

final class NotesAppDelegate: ApplicationDelegate {}

final class NotesSceneDelegate: UISceneDelegate {
    private var restoredDraft: String?

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {
        if case .object(let state)? = options.restoration, case .string(let draft)? = state["draft"] {
            restoredDraft = draft
        }
    }

    func stateRestorationActivity(for scene: Scene) -> JSONValue? {
        let top = scene.window.rootViewController.topViewController as? EditorViewController
        return .object(["draft": .string(top?.draft ?? restoredDraft ?? "")])
    }
}

WorkerRuntime.run(
    WorkerApp(
        makeApplicationDelegate: { NotesAppDelegate() },
        makeSceneDelegate: { NotesSceneDelegate() },
        makeViewController: { name in
            name == "Editor"
                ? EditorViewController(restorationIdentifier: name) : UIViewController(restorationIdentifier: name)
        }
    )
)
