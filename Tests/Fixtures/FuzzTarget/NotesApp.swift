// swift-format-ignore-file
//
// An app with lifecycle bugs planted on request, written as iOS developers write UIKit, for
// hostctl fuzz to find (FuzzTests). `draft`: a sent message's draft comes back, because
// the scene's userActivity is never cleared. `count`: the tap count is saved only in
// viewWillDisappear, so a kill from the foreground loses it. `background-task`: the
// upload's background task is never ended, not even when it expires. `timer`: the "checking
// for new messages" ticker is stopped only when its screen disappears, so it keeps firing
// in the background. No flag: the app as it should be. `editable` (beside a bug or alone):
// the list starts with three messages and has an Edit button, and its rows can be dragged
// into another order, which the app saves.

import UIKit

enum Bug: String {
    case none, draft, count, backgroundTask = "background-task", timer

    /// The first argument that names a bug (`draft`, or `--bug draft`).
    static let planted: Bug = CommandLine.arguments.dropFirst().lazy.compactMap { Bug(rawValue: $0) }.first ?? .none
}

/// Whether the list can be edited (`editable` among the arguments).
let editable = CommandLine.arguments.dropFirst().contains("editable")

@MainActor
final class AppState {
    static let shared = AppState()
    /// What an editable list starts with, before anything was saved.
    static let firstMessages = ["Lunch?", "Running late", "See you"]
    var messages: [String] = editable ? AppState.firstMessages : []
    var count = 0
    var draft: String?
    var editing = false

    /// What the scene saves: everything the user would expect back.
    func activity() -> NSUserActivity {
        let activity = NSUserActivity(activityType: "com.example.messages.state")
        var info: [String: Any] = ["messages": messages, "count": count, "editing": editing]
        if let draft { info["draft"] = draft }
        activity.userInfo = info
        return activity
    }

    func restore(from activity: NSUserActivity) {
        messages = activity.userInfo?["messages"] as? [String] ?? []
        count = activity.userInfo?["count"] as? Int ?? 0
        draft = activity.userInfo?["draft"] as? String
        editing = activity.userInfo?["editing"] as? Bool ?? false
    }
}

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession, options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        return UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    }
}

class SceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    private var uploadTask: UIBackgroundTaskIdentifier = .invalid

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options connectionOptions: UIScene.ConnectionOptions) {
        guard let activity = session.stateRestorationActivity else { return }
        AppState.shared.restore(from: activity)
        scene.userActivity = activity
        if let draft = AppState.shared.draft {
            let compose = ComposeViewController()
            compose.restoredDraft = draft
            (window?.rootViewController as? UINavigationController)?.pushViewController(compose, animated: false)
        }
    }

    func sceneDidEnterBackground(_ scene: UIScene) {
        // Upload what changed; the system gives the app a little time to finish. (An upload
        // still running from the last trip to the background carries on.)
        guard uploadTask == .invalid else { return }
        uploadTask = UIApplication.shared.beginBackgroundTask(withName: "upload") { [weak self] in
            guard Bug.planted != .backgroundTask else { return }  // the bug: the task is never ended
            self?.finishUpload()
        }
        guard Bug.planted != .backgroundTask else { return }
        // The upload is handed to the system's transfer service: done before the scene is.
        finishUpload()
    }

    func finishUpload() {
        guard uploadTask != .invalid else { return }
        UIApplication.shared.endBackgroundTask(uploadTask)
        uploadTask = .invalid
    }

    func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? {
        return scene.userActivity
    }
}

class MessagesViewController: UIViewController, UITableViewDataSource, UITableViewDelegate {
    let tableView = UITableView()
    let countLabel = UILabel()
    let tickerLabel = UILabel()
    private var ticker: Timer?
    private var observers: [NSObjectProtocol] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Messages"
        tableView.dataSource = self
        tableView.delegate = self
        view.addSubview(tableView)
        countLabel.accessibilityIdentifier = "count"
        view.addSubview(countLabel)
        tickerLabel.accessibilityIdentifier = "ticker.transient"
        view.addSubview(tickerLabel)
        if Bug.planted != .timer {
            // The ticker runs only while the app is on screen.
            observers.append(NotificationCenter.default.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: .main) { [weak self] _ in
                MainActor.assumeIsolated { self?.stopTicker() }
            })
            observers.append(NotificationCenter.default.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: .main) { [weak self] _ in
                MainActor.assumeIsolated {
                    guard let self, self.navigationController?.topViewController === self else { return }
                    self.startTicker()
                }
            })
        }
        let tap = UIButton(type: .system, primaryAction: UIAction(title: "Tap") { [weak self] _ in
            AppState.shared.count += 1
            self?.showCount()
            if Bug.planted != .count { self?.save() }
        })
        view.addSubview(tap)
        navigationItem.rightBarButtonItem = UIBarButtonItem(systemItem: .compose, primaryAction: UIAction { [weak self] _ in
            self?.navigationController?.pushViewController(ComposeViewController(), animated: true)
        })
        if editable {
            navigationItem.leftBarButtonItem = editButtonItem
            if AppState.shared.editing { setEditing(true, animated: false) }
        }
    }

    override func setEditing(_ editing: Bool, animated: Bool) {
        super.setEditing(editing, animated: animated)
        tableView.setEditing(editing, animated: animated)
        AppState.shared.editing = editing
        save()
    }

    override func viewWillAppear(_ animated: Bool) {
        super.viewWillAppear(animated)
        showCount()
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        startTicker()
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        stopTicker()
        save()
    }

    func startTicker() {
        guard ticker == nil else { return }
        ticker = Timer.scheduledTimer(withTimeInterval: 0.03, repeats: true) { [weak self] _ in
            MainActor.assumeIsolated {
                guard let self else { return }
                let dots = ((self.tickerLabel.text?.count ?? 0) + 1) % 4
                self.tickerLabel.text = String(repeating: ".", count: dots)
            }
        }
    }

    func stopTicker() {
        ticker?.invalidate()
        ticker = nil
    }

    func showCount() {
        countLabel.text = "Tapped \(AppState.shared.count) times"
    }

    func save() {
        view.window?.windowScene?.userActivity = AppState.shared.activity()
    }

    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        return AppState.shared.messages.count
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = UITableViewCell(style: .default, reuseIdentifier: nil)
        cell.textLabel?.text = AppState.shared.messages[indexPath.row]
        return cell
    }

    func tableView(_ tableView: UITableView, commit editingStyle: UITableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        guard editingStyle == .delete else { return }
        AppState.shared.messages.remove(at: indexPath.row)
        tableView.deleteRows(at: [indexPath], with: .automatic)
        save()
    }

    func tableView(_ tableView: UITableView, canMoveRowAt indexPath: IndexPath) -> Bool {
        return editable
    }

    func tableView(_ tableView: UITableView, moveRowAt sourceIndexPath: IndexPath, to destinationIndexPath: IndexPath) {
        let message = AppState.shared.messages.remove(at: sourceIndexPath.row)
        AppState.shared.messages.insert(message, at: destinationIndexPath.row)
        save()
    }
}

class ComposeViewController: UIViewController {
    let bodyField = UITextField()
    var restoredDraft: String?

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "New Message"
        bodyField.accessibilityIdentifier = "body"
        bodyField.text = restoredDraft ?? ""
        bodyField.addAction(UIAction { [weak self] _ in self?.saveDraft() }, for: .editingChanged)
        view.addSubview(bodyField)
        navigationItem.rightBarButtonItem = UIBarButtonItem(title: "Send", image: nil, primaryAction: UIAction { [weak self] _ in
            self?.send()
        }, menu: nil)
        AppState.shared.draft = bodyField.text
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        saveDraft()
    }

    override func viewWillDisappear(_ animated: Bool) {
        super.viewWillDisappear(animated)
        // Backing out of the message discards it.
        if isMovingFromParent, AppState.shared.draft != nil {
            AppState.shared.draft = nil
            view.window?.windowScene?.userActivity = AppState.shared.activity()
        }
    }

    func saveDraft() {
        AppState.shared.draft = bodyField.text ?? ""
        view.window?.windowScene?.userActivity = AppState.shared.activity()
    }

    func send() {
        AppState.shared.messages.append(bodyField.text ?? "")
        AppState.shared.draft = nil
        if Bug.planted != .draft {
            view.window?.windowScene?.userActivity = AppState.shared.activity()
        }
        navigationController?.popViewController(animated: true)
    }
}
