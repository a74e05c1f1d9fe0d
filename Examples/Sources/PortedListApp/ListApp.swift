// swift-format-ignore-file
import SceneWorker

struct Item {
    let id: Int
    let name: String
    let notes: String

    static let all = [
        Item(id: 1, name: "Milk", notes: "Two litres, semi-skimmed"),
        Item(id: 2, name: "Bread", notes: "Sourdough from the corner bakery"),
        Item(id: 3, name: "Coffee", notes: "Whole beans, medium roast"),
        Item(id: 42, name: "Towel", notes: "Never travel without one"),
    ]
}

class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        return true
    }

    func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession, options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        return UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    }
}

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    static let viewingItem = "com.example.ListApp.viewingItem"

    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        // The storyboard made the window: a navigation controller with the list as its root.
        guard let navigationController = window?.rootViewController as? UINavigationController else { return }
        if let activity = session.stateRestorationActivity, activity.activityType == SceneDelegate.viewingItem,
           let itemID = activity.userInfo?["itemID"] as? Int,
           let item = Item.all.first(where: { $0.id == itemID }) {
            navigationController.pushViewController(DetailViewController(item: item), animated: false)
        }
    }

    func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
        return scene.userActivity
    }
}

class ListViewController: UITableViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Groceries"
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Cell")
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        view.window?.windowScene?.userActivity = nil
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        return Item.all.count
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = Item.all[indexPath.row].name
        return cell
    }

    override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        let detail = DetailViewController(item: Item.all[indexPath.row])
        navigationController?.pushViewController(detail, animated: true)
    }
}

class DetailViewController: UIViewController {
    let item: Item
    private(set) var notes = ""

    init(item: Item) {
        self.item = item
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = item.name
        notes = item.notes
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        let activity = NSUserActivity(activityType: SceneDelegate.viewingItem)
        activity.title = item.name
        activity.userInfo = ["itemID": item.id]
        view.window?.windowScene?.userActivity = activity
    }
}
