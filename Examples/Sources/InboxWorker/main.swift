import SceneWorker

WorkerRuntime.run(
    WorkerApp(
        makeApplicationDelegate: { InboxAppDelegate() },
        makeSceneDelegate: { InboxSceneDelegate() },
        makeViewController: { name, payload in
            if name == "List" { return ItemListViewController(restorationIdentifier: name) }
            if name == "Detail", case .int(let id)? = payload?["id"] { return ItemDetailViewController(itemID: id) }
            return UIViewController(restorationIdentifier: name)
        }
    )
)
