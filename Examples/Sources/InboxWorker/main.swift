import SceneWorker

WorkerRuntime.run(
    WorkerApp(
        makeApplicationDelegate: { InboxAppDelegate() },
        makeSceneDelegate: { InboxSceneDelegate() },
        makeViewController: { name in
            if name == "List" { return ItemListViewController(title: name) }
            if let id = ItemDetailViewController.itemID(inName: name) {
                return ItemDetailViewController(title: name, itemID: id)
            }
            return UIViewController(title: name)
        }
    )
)
