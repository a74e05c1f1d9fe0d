import Protocol
import Testing

@testable import SceneWorker

/// Identity apart from the title, the push payload, UIKit's names and restoration places:
/// what a ported UIKit app relies on.
@MainActor
@Suite("Porting UIKit code")
struct UIKitPortingTests {
    final class ItemViewController: UIViewController {
        required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
        let itemID: Int
        init(itemID: Int) {
            self.itemID = itemID
            super.init(nibName: nil, bundle: nil)
        }
        override func viewDidLoad() { title = "Item \(itemID)" }
        override func awakeFromNib() {
            super.awakeFromNib()
            awoke += 1
        }
        var awoke = 0
        override func viewDidAppear(_ animated: Bool) {
            title = "Item \(itemID), seen"
            let activity = NSUserActivity(activityType: "viewing")
            activity.title = title
            activity.userInfo = ["itemID": itemID, "tags": ["a", "b"], "ratio": 0.5, "pinned": true]
            view.window?.windowScene?.userActivity = activity
        }
    }

    final class AppDelegate: UIResponder, UIApplicationDelegate {
        var log: Log?
        func application(
            _ application: UIApplication,
            didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?
        ) -> Bool {
            log?.entries.append("didFinishLaunching(\(launchOptions == nil ? "nil" : "options"))")
            return true
        }
    }

    final class SceneDelegate: UIResponder, UIWindowSceneDelegate {
        var window: UIWindow?
        var log: Log?

        func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options: UIScene.ConnectionOptions) {
            log?.entries.append("window set: \(window === scene.window)")
            if let activity = session.stateRestorationActivity, let id = activity.userInfo?["itemID"] as? Int {
                log?.entries.append("restoring \(activity.activityType) \(activity.title ?? "-") \(id)")
                window?.navigationStack.pushViewController(ItemViewController(itemID: id), animated: false)
            }
        }

        func stateRestorationActivity(for scene: UIScene) -> NSUserActivity? { scene.userActivity }
    }

    static func app(_ log: Log) -> WorkerApp {
        WorkerApp(
            makeApplicationDelegate: {
                let delegate = AppDelegate()
                delegate.log = log
                return delegate
            },
            makeSceneDelegate: {
                let delegate = SceneDelegate()
                delegate.log = log
                return delegate
            },
            makeViewController: { name, payload in
                var json: [UInt8] = []
                if let payload { JSONWriter.write(payload, into: &json) }
                log.entries.append("make \(name) \(payload == nil ? "nil" : String(decoding: json, as: UTF8.self))")
                if name == "ItemViewController", case .int(let id)? = payload?["id"] {
                    return ItemViewController(itemID: id)
                }
                return UIViewController(restorationIdentifier: name)
            }
        )
    }

    static let saved: JSONValue = [
        "activityType": "viewing", "title": "Item 42, seen",
        "userInfo": ["itemID": 42, "tags": ["a", "b"], "ratio": 0.5, "pinned": true],
    ]

    @Test func theIdentityIsApartFromTheTitleAndDefaultsToTheClassName() {
        let controller = ItemViewController(itemID: 3)
        #expect(controller.restorationIdentifier == "ItemViewController")
        #expect(controller.title == nil)
        controller.title = "anything"
        #expect(controller.restorationIdentifier == "ItemViewController")
        #expect(UIViewController().restorationIdentifier == "UIViewController")
        #expect(UIViewController(nibName: "Main", bundle: nil).restorationIdentifier == "Main")
    }

    @Test func aPushsPayloadReachesTheFactoryAndTheTraceNamesTheIdentity() {
        let log = Log()
        let h = Harness(app: Self.app(log))
        h.connect()
        let pushed = h.send(.push(viewController: "ItemViewController", payload: ["id": 42]))
        #expect(pushed == push("ItemViewController", over: "Root") + ["reply 2"])
        #expect(log.entries.contains("make ItemViewController {\"id\":42}"))
        #expect(h.session.scene?.window.navigationStack.topViewController?.title == "Item 42, seen")
        #expect(log.entries.contains("didFinishLaunching(nil)"))
        #expect(log.entries.contains("window set: true"))
    }

    @Test func theSceneSavesItsUserActivityAndANewProcessReadsItFromTheSession() {
        let h = Harness(app: Self.app(Log()))
        h.connect()
        h.send(.push(viewController: "ItemViewController", payload: ["id": 42]))
        #expect(h.send(.enterBackground).last == "reply 3")
        #expect(h.lastResult == Self.saved)

        let log = Log()
        let next = Harness(app: Self.app(log))
        let connect = next.connect(reconnect: true, restoration: Self.saved)
        #expect(log.entries.contains("restoring viewing Item 42, seen 42"))
        // The push inside willConnectTo only adds to the stack: reported as a rebuilt stack,
        // and the pushed controller appears first.
        #expect(connect.contains("change setStack Root,ItemViewController"))
        #expect(connect.contains("ItemViewController.viewDidAppear"))
        #expect(!connect.contains("Root.viewDidAppear"))
    }

    @Test func anActivityRoundTripsThroughJSONAndLeavesOutWhatIsNoPropertyList() {
        struct Opaque {}
        let activity = UserActivity(activityType: "t")
        activity.userInfo = ["n": 1, "opaque": Opaque(), "nested": ["k": [1, 2]] as [String: Any]]
        activity.addUserInfoEntries(from: ["s": "x"])
        #expect(activity.jsonValue == ["activityType": "t", "userInfo": ["n": 1, "nested": ["k": [1, 2]], "s": "x"]])
        let back = UserActivity(jsonValue: activity.jsonValue)
        #expect(back?.activityType == "t")
        #expect(back?.userInfo?["n"] as? Int == 1)
        #expect(back?.userInfo?["s"] as? String == "x")
        #expect(UserActivity(jsonValue: ["stack": ["Root"]]) == nil)
    }

    @Test func aTableControllerAsksItsDataSourceAndATapSelects() {
        final class List: UITableViewController {
            var selected: [IndexPath] = []
            override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 3 }
            override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
                let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
                cell.textLabel?.text = "row \(indexPath.row)"
                return cell
            }
            override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
                selected.append(indexPath)
            }
        }
        let list = List()
        list.tableView.register(UITableViewCell.self, forCellReuseIdentifier: "Cell")
        #expect(list.restorationIdentifier == "List")
        #expect(list.tableView.visibleCells.map { $0.textLabel?.text } == ["row 0", "row 1", "row 2"])
        list.tableView.selectRowAsTapped(at: IndexPath(row: 2, section: 0))
        list.tableView.selectRowAsTapped(at: IndexPath(row: 9, section: 0))
        #expect(list.selected == [IndexPath(row: 2, section: 0)])
    }

    /// Every table method a `UITableViewController` subclass overrides is the one UIKit asks:
    /// the header's title, the veto before a selection, the deselection of the row before.
    @Test func aTableViewControllersOverridesAreCalled() {
        final class List: UITableViewController {
            var log: [String] = []
            override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int { 3 }
            override func tableView(_ tableView: UITableView, titleForHeaderInSection section: Int) -> String? {
                "Inbox"
            }
            override func tableView(_ tableView: UITableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
                indexPath.row == 1 ? nil : indexPath
            }
            override func tableView(_ tableView: UITableView, didSelectRowAt indexPath: IndexPath) {
                log.append("select \(indexPath.row)")
            }
            override func tableView(_ tableView: UITableView, didDeselectRowAt indexPath: IndexPath) {
                log.append("deselect \(indexPath.row)")
            }
        }
        let list = List()
        #expect(list.tableView.dataSource?.tableView(list.tableView, titleForHeaderInSection: 0) == "Inbox")
        #expect(list.tableView.selectRowAsTapped(at: IndexPath(row: 0, section: 0)))
        #expect(list.tableView.selectRowAsTapped(at: IndexPath(row: 1, section: 0)), "turned away, not missing")
        #expect(list.tableView.indexPathForSelectedRow == IndexPath(row: 0, section: 0))
        list.tableView.selectRowAsTapped(at: IndexPath(row: 2, section: 0))
        #expect(list.log == ["select 0", "deselect 0", "select 2"])
    }
}

/// The app's own pushes reach the same factory, payload included.
@MainActor
@Suite("Porting UIKit code: the storyboard")
struct UIStoryboardTests {
    @Test func anAppPushMakesItsControllerFromTheFactoryWithAPayload() {
        let log = Log()
        let delegate = ScriptedSceneDelegate()
        let app = UIKitPortingTests.app(log)
        let h = Harness(
            app: WorkerApp(
                makeApplicationDelegate: app.makeApplicationDelegate,
                makeSceneDelegate: { delegate },
                makeViewController: app.makeViewController
            )
        )
        delegate.onNotification = { scene, _ in
            let root = scene.window.navigationStack.viewControllers[0]
            let detail = root.storyboard?.instantiateViewController(
                withIdentifier: "ItemViewController",
                payload: ["id": 5]
            )
            if let detail { scene.window.navigationStack.pushViewController(detail, animated: true) }
        }
        h.connect()
        let said = h.send(.notify(name: "open", value: .null))
        #expect(log.entries.contains(#"make ItemViewController {"id":5}"#))
        #expect(said.contains("change push ItemViewController"))
        #expect(said.last == "ItemViewController.viewDidAppear@app")
        let item = h.session.scene?.window.navigationStack.topViewController as? UIKitPortingTests.ItemViewController
        #expect(item?.itemID == 5)
        // Made from the storyboard, it awoke from it once, before it was returned; the trace
        // has no awakeFromNib for it (only a storyboard root reports one).
        #expect(item?.awoke == 1)
        #expect(!said.contains { $0.contains("awakeFromNib") })
    }
}

/// Pushes inside `willConnectTo` are bounded like every other app change.
@MainActor
@Suite("Porting UIKit code: pushes while connecting")
struct PushWhileConnectingTests {
    @Test func pushesInsideWillConnectToStopAtTheAppChangeLimit() {
        let delegate = ScriptedSceneDelegate()
        delegate.onWillConnect = { scene in
            for index in 0..<(WorkerSession.maximumAppChangesPerTurn + 10) {
                scene.window.navigationStack.pushViewController(
                    UIViewController(restorationIdentifier: "D\(index)"),
                    animated: false
                )
            }
        }
        let h = Harness(sceneDelegate: delegate)
        let said = h.connect()
        #expect(said.filter { $0.hasPrefix("change setStack") }.count == WorkerSession.maximumAppChangesPerTurn)
        #expect(
            h.session.scene?.window.navigationStack.viewControllers.count == WorkerSession.maximumAppChangesPerTurn
                + 1
        )
        #expect(said.last == "reply 1")
    }
}
