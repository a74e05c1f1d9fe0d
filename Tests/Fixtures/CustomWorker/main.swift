// The main test suite's own app on the worker runtime (HostProcessTests spawns it): a
// notes editor whose draft survives kills. Examples/ holds the worked example for users.

import Protocol
import SceneWorker

/// A notes editor whose draft survives kills through the scene session.
final class EditorViewController: ViewController {
    var draft = ""

    override func viewDidLoad() {
        draft = "loaded at \(title)"
    }

    override func didReceiveMemoryWarning() {
        draft = ""
    }
}

/// A list whose rows push the editor when tapped (the app navigating from a touch).
final class ListViewController: ViewController {
    override func touchesEnded(_ touches: Set<Touch>) {
        navigationController?.pushViewController(EditorViewController(title: "Editor"), animated: true)
    }
}

final class NotesAppDelegate: ApplicationDelegate {}

final class NotesSceneDelegate: SceneDelegate {
    private var restoredDraft: String?

    func scene(_ scene: Scene, willConnectTo session: SceneSession, options: Scene.ConnectionOptions) {
        if case .object(let state)? = options.restoration, case .string(let draft)? = state["draft"] {
            restoredDraft = draft
        }
        // A deep link at launch opens the editor over the root.
        let navigation = scene.window.rootViewController
        if options.url == "notes://editor", let root = navigation.viewControllers.first {
            navigation.setViewControllers([root, EditorViewController(title: "Editor")], animated: false)
        }
    }

    /// A deep link while connected pushes the editor.
    func scene(_ scene: Scene, openURLContexts contexts: Set<OpenURLContext>) {
        guard contexts.contains(OpenURLContext(url: "notes://editor")) else { return }
        scene.window.rootViewController.pushViewController(EditorViewController(title: "Editor"), animated: true)
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
            switch name {
            case "Editor": EditorViewController(title: name)
            case "List": ListViewController(title: name)
            default: ViewController(title: name)
            }
        }
    )
)
