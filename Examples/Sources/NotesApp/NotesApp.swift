// swift-format-ignore-file
import UIKit

struct Item {
    var title: String
}

@MainActor
final class ItemStore {
    static let shared = ItemStore()
    var items = [Item(title: "Milk"), Item(title: "Bread"), Item(title: "Coffee")]
}

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    var backgroundObserver: NSObjectProtocol?
    private(set) var backgroundEntries = 0

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        backgroundObserver = NotificationCenter.default.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { [weak self] _ in
            MainActor.assumeIsolated {
                self?.backgroundEntries += 1
                print("entered the background \(self?.backgroundEntries ?? 0) times")
            }
        }
        return true
    }

    func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession, options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        return UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    }
}

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    static let editingItem = "com.example.Notes.editingItem"

    var window: UIWindow?

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let navigationController = window?.rootViewController as? UINavigationController else { return }
        if let activity = session.stateRestorationActivity, activity.activityType == SceneDelegate.editingItem,
           let index = activity.userInfo?["index"] as? Int, ItemStore.shared.items.indices.contains(index) {
            let detail = DetailViewController(index: index)
            detail.restoredDraft = activity.userInfo?["draft"] as? String
            navigationController.pushViewController(detail, animated: false)
        }
    }

    func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
        return scene.userActivity
    }
}

class ItemsViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    let tableView = UITableView(frame: .zero, style: .plain)

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Items"
        tableView.dataSource = self
        tableView.delegate = self
        tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Cell")
        view.backgroundColor = .systemBackground
        tableView.translatesAutoresizingMaskIntoConstraints = false
        view.addSubview(tableView)
        NSLayoutConstraint.activate([
            tableView.topAnchor.constraint(equalTo: view.topAnchor),
            tableView.bottomAnchor.constraint(equalTo: view.bottomAnchor),
            tableView.leadingAnchor.constraint(equalTo: view.leadingAnchor),
            tableView.trailingAnchor.constraint(equalTo: view.trailingAnchor),
        ])
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        tableView.reloadData()
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        view.window?.windowScene?.userActivity = nil
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        return ItemStore.shared.items.count
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        var content = cell.defaultContentConfiguration()
        content.text = ItemStore.shared.items[indexPath.row].title
        cell.contentConfiguration = content
        return cell
    }

    func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
        navigationController?.pushViewController(DetailViewController(index: indexPath.row), animated: true)
    }

    func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        if editingStyle == .delete {
            ItemStore.shared.items.remove(at: indexPath.row)
            tableView.deleteRows(at: [indexPath], with: .automatic)
        }
    }
}

class DetailViewController: UIViewController {
    let index: Int
    let titleField = UITextField()
    var restoredDraft: String?
    private var autosaveTimer: Timer?
    private var lifecycleObservers: [NSObjectProtocol] = []

    init(index: Int) {
        self.index = index
        super.init(nibName: nil, bundle: nil)
    }

    required init?(coder: NSCoder) {
        fatalError("init(coder:) has not been implemented")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = ItemStore.shared.items[index].title
        titleField.accessibilityIdentifier = "title"
        titleField.placeholder = "Title"
        titleField.text = restoredDraft ?? ItemStore.shared.items[index].title
        titleField.borderStyle = .roundedRect
        titleField.font = .preferredFont(forTextStyle: .title2)
        titleField.translatesAutoresizingMaskIntoConstraints = false
        view.backgroundColor = .systemBackground
        view.addSubview(titleField)
        NSLayoutConstraint.activate([
            titleField.leadingAnchor.constraint(equalTo: view.layoutMarginsGuide.leadingAnchor),
            titleField.trailingAnchor.constraint(equalTo: view.layoutMarginsGuide.trailingAnchor),
            titleField.topAnchor.constraint(equalTo: view.safeAreaLayoutGuide.topAnchor, constant: 20),
        ])
        navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Save", image: nil, primaryAction: UIAction { [weak self] _ in
            self?.save()
        }, menu: nil)
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        startAutosave()
        updateActivity()
        // The autosave runs only while the app is in front: a suspended app's timer would
        // fire late, on resume, in the background.
        lifecycleObservers = [
            NotificationCenter.default.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { [weak self] _ in
                MainActor.assumeIsolated { self?.stopAutosave() }
            },
            NotificationCenter.default.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main) { [weak self] _ in
                MainActor.assumeIsolated { self?.startAutosave() }
            },
        ]
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        lifecycleObservers.forEach(NotificationCenter.default.removeObserver)
        lifecycleObservers = []
        stopAutosave()
    }

    func startAutosave() {
        guard autosaveTimer == nil else { return }
        autosaveTimer = Timer.scheduledTimer(withTimeInterval: 1, repeats: true) { [weak self] _ in
            MainActor.assumeIsolated { self?.updateActivity() }
        }
    }

    func stopAutosave() {
        autosaveTimer?.invalidate()
        autosaveTimer = nil
    }

    func updateActivity() {
        let activity = NSUserActivity(activityType: SceneDelegate.editingItem)
        activity.userInfo = ["index": index, "draft": titleField.text ?? ""]
        view.window?.windowScene?.userActivity = activity
    }

    private func save() {
        ItemStore.shared.items[index].title = titleField.text ?? ""
        navigationController?.popViewController(animated: true)
    }
}
