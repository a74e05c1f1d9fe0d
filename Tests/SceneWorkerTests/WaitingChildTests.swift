import Protocol
import Testing

@testable import SceneWorker

/// A container controller as apps write one: it embeds its children in `viewDidLoad`.
@MainActor
final class EmbeddingViewController: UIViewController {
    var childNames: [String] = []
    /// Pushed from `viewDidAppear`, as an onboarding flow might.
    var pushesOnAppear: String?
    /// The children it made.
    var made: [UIViewController] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        for name in childNames {
            let child = UIViewController(restorationIdentifier: name)
            made.append(child)
            addChild(child)
        }
    }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        if let name = pushesOnAppear {
            pushesOnAppear = nil
            navigationController?.pushViewController(UIViewController(restorationIdentifier: name), animated: true)
        }
    }
}

/// A child added in `viewDidLoad` of a controller that is not frontmost in the foreground yet
/// (the root at launch, a controller a deep link loads below its top) waits for it, and is
/// added, as the app's `addChild`, right after the request or change that makes it frontmost
/// in the foreground (LIFECYCLE.md §3b).
@MainActor
@Suite struct WaitingChildTests {
    private func harness(_ children: [String: [String]], pushesOnAppear: String? = nil) -> Harness {
        Harness(
            app: WorkerApp(
                makeApplicationDelegate: { RecordingApplicationDelegate() },
                makeSceneDelegate: { RecordingSceneDelegate() },
                makeViewController: { name in
                    let controller = EmbeddingViewController(restorationIdentifier: name)
                    controller.childNames = children[name] ?? []
                    if name == "Root" { controller.pushesOnAppear = pushesOnAppear }
                    return controller
                }
            )
        )
    }

    private func navigation(_ h: Harness) -> NavigationController {
        h.session.scene!.window.navigationStack
    }

    @Test func theRootsChildrenAreAddedRightAfterALaunchIntoTheForeground() throws {
        let h = harness(["Root": ["List", "Map"]])
        let output = h.connect()
        let reply = try #require(output.firstIndex(of: "reply 1"))
        #expect(Array(output[reply...]) == ["reply 1"] + appAddedChild("List") + appAddedChild("Map"))
        #expect(navigation(h).viewControllers[0].children.map(\.restorationIdentifier) == ["List", "Map"])
    }

    /// They were asked for first: a push the root's `viewDidAppear` asks for runs after them,
    /// so the root is still frontmost when they join.
    @Test func theyJoinAheadOfAChangeTheParentAskedForSince() throws {
        let h = harness(["Root": ["List"]], pushesOnAppear: "Onboarding")
        let output = h.connect()
        let reply = try #require(output.firstIndex(of: "reply 1"))
        let after = Array(output[reply...])
        #expect(Array(after.prefix(1 + appAddedChild("List").count)) == ["reply 1"] + appAddedChild("List"))
        #expect(after.contains("change push Onboarding"))
        #expect(navigation(h).viewControllers[0].children.map(\.restorationIdentifier) == ["List"])
        #expect(navigation(h).viewControllers.map(\.restorationIdentifier) == ["Root", "Onboarding"])
    }

    @Test func aRootLaunchedIntoTheBackgroundTakesItsChildrenWhenItComesForward() {
        let h = harness(["Root": ["List"]])
        #expect(!h.connect(background: true).contains { $0.hasPrefix("change") })
        #expect(navigation(h).viewControllers[0].children.isEmpty)
        let output = h.send(.enterForeground)
        #expect(
            Array(output.suffix(from: output.firstIndex(of: "reply 2") ?? 0)) == ["reply 2"] + appAddedChild("List")
        )
        #expect(navigation(h).viewControllers[0].children.map(\.restorationIdentifier) == ["List"])
    }

    @Test func aControllerADeepLinkLoadsBelowItsTopTakesItsChildrenWhenAPopRevealsIt() {
        let h = harness(["Inbox": ["Search"]])
        h.connect()
        let stack = navigation(h)
        let inbox = EmbeddingViewController(restorationIdentifier: "Inbox")
        inbox.childNames = ["Search"]
        stack.setViewControllers(
            [stack.viewControllers[0], inbox, UIViewController(restorationIdentifier: "Thread")],
            animated: true
        )
        #expect(!h.render(h.session.takeOutput()).contains { $0.hasPrefix("change addChild") })
        #expect(inbox.children.isEmpty)
        #expect(h.send(.pop).suffix(appAddedChild("Search").count) == ArraySlice(appAddedChild("Search")))
        #expect(inbox.children.map(\.restorationIdentifier) == ["Search"])
    }

    @Test func aParentPoppedBeforeItShowsTakesNoneAndNothingIsSent() {
        let h = harness([:])
        h.connect()
        let stack = navigation(h)
        do {
            let inbox = EmbeddingViewController(restorationIdentifier: "Inbox")
            inbox.childNames = ["Search"]
            stack.setViewControllers(
                [stack.viewControllers[0], inbox, UIViewController(restorationIdentifier: "Thread")],
                animated: true
            )
        }
        _ = h.session.takeOutput()
        #expect(h.session.waitingChildren.count == 1)
        // The parent's deinit comes inside the pop, as any popped controller's: the child
        // waiting for it holds it not.
        let output = h.send(.popToRoot)
        #expect(output.contains("Inbox.deinit") && output.last == "reply 2", "\(output)")
        #expect(!output.contains { $0.hasPrefix("change") })
        #expect(h.session.waitingChildren.isEmpty)
    }

    /// A parent that leaves its stack alive (the app keeps it) gives its children up: the
    /// view read early leaves its view, and the child is no longer being added.
    @Test func aParentThatLeavesItsStackGivesItsWaitingChildrenUp() {
        let h = harness([:])
        h.connect()
        let stack = navigation(h)
        let inbox = EmbeddingViewController(restorationIdentifier: "Inbox")
        let search = UIViewController(restorationIdentifier: "Search")
        stack.setViewControllers(
            [stack.viewControllers[0], inbox, UIViewController(restorationIdentifier: "Thread")],
            animated: true
        )
        // As if its viewDidLoad had run it: the add waits, the container adds the view.
        inbox.isLoadingView = true
        inbox.addChild(search)
        inbox.isLoadingView = false
        inbox.view.addSubview(search.view)
        #expect(search.isBeingAddedAsChild && inbox.view.subviews.count == 1)
        _ = h.session.takeOutput()
        stack.setViewControllers(
            [stack.viewControllers[0], UIViewController(restorationIdentifier: "Other")],
            animated: true
        )
        _ = h.session.takeOutput()
        h.session.runDeferredAppChanges()
        #expect(h.session.waitingChildren.isEmpty)
        #expect(!search.isBeingAddedAsChild && search.premadeView == nil && inbox.view.subviews.isEmpty)
    }

    @Test func whatAnAddChildRefusesIsRefusedWhileWaitingToo() {
        let names = ["List", "List", ""] + (1...SceneSnapshot.maximumChildren).map { "Kid\($0)" }
        let h = harness(["Root": names])
        let output = h.connect()
        let kids = output.filter { $0.hasPrefix("change addChild") }
        #expect(
            kids == ["change addChild List"] + (1..<SceneSnapshot.maximumChildren).map { "change addChild Kid\($0)" }
        )
        #expect(navigation(h).viewControllers[0].children.count == SceneSnapshot.maximumChildren)
    }

    /// `removeFromParent()` on a child whose add still waits calls it off: nothing is
    /// reported, then or later, whether it waited for its parent or for a request's reply.
    @Test func aChildRemovedBeforeItJoinsIsCalledOff() throws {
        let h = harness(["Root": ["List"]])
        h.connect(background: true)
        let root = try #require(navigation(h).viewControllers[0] as? EmbeddingViewController)
        let list = try #require(root.made.first)
        _ = list.view  // the container's read: the view it would load into
        list.removeFromParent()
        #expect(h.session.waitingChildren.isEmpty)
        #expect(!list.isBeingAddedAsChild && list.premadeView == nil)
        #expect(!h.send(.enterForeground).contains { $0.hasPrefix("change") })
        #expect(root.children.isEmpty)

        let delegate = ScriptedSceneDelegate()
        let kid = UIViewController(restorationIdentifier: "Kid")
        delegate.onNotification = { scene, _ in
            let top = scene.window.navigationStack.viewControllers[0]
            top.addChild(kid)
            kid.removeFromParent()
        }
        let other = Harness(sceneDelegate: delegate)
        other.connect()
        #expect(other.send(.notify(name: "swap", value: .null)) == ["didReceiveNotification", "reply 2"])
        #expect(!kid.isBeingAddedAsChild && kid.parent == nil)
    }
}
