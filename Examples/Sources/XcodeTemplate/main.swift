import SceneWorker

// What the template's @main, Main.storyboard and Info.plist say: the delegates' classes and
// the storyboard's initial controller.
WorkerRuntime.run(
    WorkerApp(
        makeApplicationDelegate: { AppDelegate() },
        makeSceneDelegate: { SceneDelegate() },
        makeViewController: { name in
            name == "ViewController" ? ViewController() : UIViewController(restorationIdentifier: name)
        }
    )
)
