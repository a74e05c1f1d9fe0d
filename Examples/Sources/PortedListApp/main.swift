import SceneWorker

// What Main.storyboard and Info.plist say in the UIKit app: the delegates' classes, and the
// controllers the host asks for by name (the storyboard's root; a pushed item's detail).
WorkerRuntime.run(
    WorkerApp(
        makeApplicationDelegate: { AppDelegate() },
        makeSceneDelegate: { SceneDelegate() },
        makeViewController: { name, payload in
            guard name == "DetailViewController", case .int(let id)? = payload?["id"],
                let item = Item.all.first(where: { $0.id == id })
            else { return ListViewController() }
            return DetailViewController(item: item)
        }
    )
)
