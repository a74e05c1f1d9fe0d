import Protocol
import Testing

@testable import SceneWorker

/// An app's own changes obey every limit a client's request obeys (SceneLimits): an
/// over-limit change fails in the app's API, and nothing is sent or changed.
@MainActor
@Suite struct AppChangeLimitTests {
    private func navigation(_ h: Harness) -> NavigationController {
        h.session.scene!.window.navigationStack
    }

    @Test func anAppPushOfAnOverlongNameIsRefusedAndNothingChanges() {
        let h = Harness()
        h.connect()
        _ = h.session.takeOutput()
        let long = String(repeating: "x", count: 400 * 1024)
        navigation(h).pushViewController(UIViewController(restorationIdentifier: long), animated: true)
        #expect(h.session.takeOutput().isEmpty, "no change, no callback")
        #expect(navigation(h).viewControllers.map(\.restorationIdentifier) == ["Root"])
        // The longest name a client may push is the longest the app may.
        let longest = String(repeating: "y", count: SceneLimits.maximumViewControllerNameBytes - 2)
        navigation(h).pushViewController(UIViewController(restorationIdentifier: longest), animated: true)
        #expect(navigation(h).viewControllers.last?.restorationIdentifier == longest)
    }

    @Test func anAppPushPastTheStackLimitIsRefused() {
        let h = Harness()
        h.connect()
        for index in 1..<SceneLimits.maximumStackDepth {
            navigation(h).pushViewController(UIViewController(restorationIdentifier: "V\(index)"), animated: false)
            _ = h.session.takeOutput()
            h.session.beginMainQueueTurn()  // each push its own turn: the per-turn budget is not what is tested
        }
        #expect(navigation(h).viewControllers.count == SceneLimits.maximumStackDepth)
        navigation(h).pushViewController(UIViewController(restorationIdentifier: "OneTooMany"), animated: false)
        #expect(h.session.takeOutput().isEmpty)
        #expect(navigation(h).viewControllers.count == SceneLimits.maximumStackDepth)
    }

    /// A name past the limit a client's names obey (`SceneLimits.maximumViewControllerNameBytes`).
    private static let overlongName = String(repeating: "x", count: SceneLimits.maximumViewControllerNameBytes + 1)

    /// A harness whose scene delegate runs `onWillConnect` in `willConnectTo`.
    private func harness(onWillConnect: @escaping (Scene) -> Void) -> Harness {
        let delegate = ScriptedSceneDelegate()
        delegate.onWillConnect = onWillConnect
        return Harness(sceneDelegate: delegate)
    }

    @Test func anAppStackDeeperThanTheLimitIsRefusedAndNothingChanges() {
        let h = harness { scene in
            let navigationController = scene.window.navigationStack
            let root = navigationController.viewControllers[0]
            let deeper = (1...SceneLimits.maximumStackDepth).map { UIViewController(restorationIdentifier: "V\($0)") }
            navigationController.setViewControllers([root] + deeper, animated: false)
        }
        #expect(!h.connect().contains { $0.hasPrefix("change") }, "no change sent")
        #expect(navigation(h).viewControllers.map(\.restorationIdentifier) == ["Root"])
    }

    @Test func anAppStackWithAnOverlongNameIsRefusedAndNothingChanges() {
        let h = harness { scene in
            let navigationController = scene.window.navigationStack
            let root = navigationController.viewControllers[0]
            let long = UIViewController(restorationIdentifier: Self.overlongName)
            navigationController.setViewControllers([root, long], animated: false)
        }
        #expect(!h.connect().contains { $0.hasPrefix("change") }, "no change sent")
        #expect(navigation(h).viewControllers.map(\.restorationIdentifier) == ["Root"])
    }

    @Test func anAppPresentationOfAnOverlongNameIsRefusedAndNothingChanges() {
        let h = Harness()
        h.connect()
        _ = h.session.takeOutput()
        let root = navigation(h).viewControllers[0]
        var completed = false
        root.present(UIViewController(restorationIdentifier: Self.overlongName), animated: true) { completed = true }
        #expect(h.session.takeOutput().isEmpty, "no change, no callback")
        #expect(root.presentedViewController == nil)
        #expect(!completed)
    }

    @Test func anAppChildOfAnOverlongNameIsRefusedAndNothingChanges() {
        let h = Harness()
        h.connect()
        _ = h.session.takeOutput()
        let root = navigation(h).viewControllers[0]
        let child = UIViewController(restorationIdentifier: Self.overlongName)
        root.addChild(child)
        #expect(h.session.takeOutput().isEmpty, "no change, no callback")
        #expect(root.children.isEmpty)
        #expect(child.parent == nil && !child.isViewLoaded)
    }

    /// A `dismiss` that dismisses three presented controllers is three changes: with 62 made
    /// in the turn already it would be the 65th, so it is refused, nothing changed and no
    /// completion run; in a new turn it runs.
    @Test func aDismissOfSeveralCountsEachDismissalAgainstTheTurnsBudget() {
        let h = Harness()
        h.connect()
        let root = navigation(h).viewControllers[0]
        var presenter = root
        for name in ["A", "B", "C"] {
            let presented = UIViewController(restorationIdentifier: name)
            presenter.present(presented, animated: true)
            presenter = presented
            h.session.beginMainQueueTurn()
        }
        _ = h.session.takeOutput()
        for index in 0..<31 {
            let child = UIViewController(restorationIdentifier: "Kid\(index)")
            presenter.addChild(child)
            child.removeFromParent()
        }
        #expect(h.render(h.session.takeOutput()).filter { $0.hasPrefix("change") }.count == 62)
        var completed = false
        root.dismiss(animated: true) { completed = true }
        #expect(h.session.takeOutput().isEmpty, "no change, no callback")
        #expect(navigation(h).presentedChain.map(\.restorationIdentifier) == ["A", "B", "C"])
        #expect(!completed)
        h.session.beginMainQueueTurn()
        root.dismiss(animated: true) { completed = true }
        #expect(
            h.render(h.session.takeOutput()).filter { $0.hasPrefix("change") }
                == Array(repeating: "change dismiss", count: 3)
        )
        #expect(navigation(h).presentedChain.isEmpty)
        #expect(completed)
    }

    @Test func anActivationWhoseUserInfoCouldNotBeForwardedFailsAtTheChange() {
        let h = Harness()
        h.connect()
        _ = h.session.takeOutput()
        var deep: [AnyHashable: Any] = ["leaf": 1]
        for _ in 0..<SceneLimits.maximumUserInfoDepth { deep = ["inner": deep] }
        let activity = UserActivity(activityType: "compose")
        activity.userInfo = deep
        var failure: SceneRequestError?
        Application.shared.requestSceneSessionActivation(nil, userActivity: activity) { failure = $0 }
        #expect(failure?.description.contains("deeper") == true)
        #expect(h.session.takeOutput().isEmpty, "nothing is sent")

        let big = UserActivity(activityType: "compose")
        big.userInfo = ["text": String(repeating: "z", count: FrameLimits.defaultMaximumFrameSize)]
        failure = nil
        Application.shared.requestSceneSessionActivation(nil, userActivity: big) { failure = $0 }
        #expect(failure?.description.contains("frame limit") == true)
        #expect(h.session.takeOutput().isEmpty)

        // Just within the limits: accepted and sent.
        let fine = UserActivity(activityType: "compose")
        fine.userInfo = ["text": "draft"]
        Application.shared.requestSceneSessionActivation(nil, userActivity: fine) { _ in Issue.record("refused") }
        #expect(h.session.takeOutput().count == 1)
    }

    @Test func theVisibleTreeFitsAFrameWhateverTheAppShows() {
        let h = Harness()
        h.connect()
        let root = navigation(h).viewControllers[0]
        for _ in 0..<2000 {
            let label = UILabel()
            label.text = String(repeating: "w", count: 10_000)
            root.view.addSubview(label)
        }
        let tree = VisibleTree.bounded(h.session.scene, state: .foregroundActive)
        var bytes: [UInt8] = []
        JSONWriter.write(tree, into: &bytes)
        #expect(bytes.count <= VisibleTree.maximumTreeBytes)
        guard case .array(let stack)? = tree["stack"], case .array(let views)? = stack.first?["views"] else {
            Issue.record("no views in \(tree)")
            return
        }
        #expect(views.count == VisibleTree.maximumViews)
        #expect(
            views.first?["label"] == .string(String(repeating: "w", count: VisibleTree.maximumTextCharacters) + "…")
        )
        #expect(tree["truncated"] == nil)

        // A table of long rows, each cut, still passes the tree's budget: the controllers alone.
        for label in root.view.subviews { label.removeFromSuperview() }
        let rows = LongRows()
        let table = UITableView()
        table.dataSource = rows
        root.view.addSubview(table)
        let outline = VisibleTree.bounded(h.session.scene, state: .foregroundActive)
        bytes = []
        JSONWriter.write(outline, into: &bytes)
        #expect(bytes.count <= VisibleTree.maximumTreeBytes)
        let isOutline = outline["truncated"] == true && outline["stack"] == [["vc": "Root"]]
        #expect(isOutline, "not the outline: \(bytes.count) bytes")
    }
}

/// A thousand rows of long text and long detail.
@MainActor
private final class LongRows: UITableViewDataSource {
    func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        UITableView.maximumVisibleRows
    }

    func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = UITableViewCell(style: .subtitle, reuseIdentifier: nil)
        cell.textLabel?.text = String(repeating: "t", count: 1000)
        cell.detailTextLabel?.text = String(repeating: "d", count: 1000)
        return cell
    }
}
