import Protocol
import Testing

@testable import SceneWorker

/// A container controller as apps write one: it embeds its children in `viewDidLoad`.
@MainActor
final class EmbeddingViewController: UIViewController {
    var childNames: [String] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        for name in childNames {
            addChild(UIViewController(restorationIdentifier: name))
        }
    }
}

/// A child added in `viewDidLoad` of a controller that is not frontmost in the foreground yet
/// (the root at launch, a controller a deep link loads below its top) waits for it, and is
/// added, as the app's `addChild`, right after the request or change that makes it frontmost
/// in the foreground (LIFECYCLE.md §3b).
@MainActor
@Suite struct WaitingChildTests {
    private func harness(_ children: [String: [String]]) -> Harness {
        Harness(
            app: WorkerApp(
                makeApplicationDelegate: { RecordingApplicationDelegate() },
                makeSceneDelegate: { RecordingSceneDelegate() },
                makeViewController: { name in
                    let controller = EmbeddingViewController(restorationIdentifier: name)
                    controller.childNames = children[name] ?? []
                    return controller
                }
            )
        )
    }

    private func added(_ name: String) -> [String] {
        ["change addChild \(name)"]
            + [
                "willMoveToParent", "loadView", "viewDidLoad", "viewWillAppear", "viewIsAppearing",
                "viewWillLayoutSubviews", "viewDidLayoutSubviews", "viewDidAppear", "didMoveToParent",
            ].map { "\(name).\($0)@app" }
    }

    private func navigation(_ h: Harness) -> NavigationController {
        h.session.scene!.window.navigationStack
    }

    @Test func theRootsChildrenAreAddedRightAfterALaunchIntoTheForeground() {
        let h = harness(["Root": ["List", "Map"]])
        let output = h.connect()
        let reply = output.firstIndex(of: "reply 1")
        #expect(reply != nil)
        #expect(Array(output[(reply ?? 0)...]) == ["reply 1"] + added("List") + added("Map"))
        #expect(!output.contains("Root.viewDidAppear") || output.firstIndex(of: "Root.viewDidAppear")! < reply!)
        #expect(navigation(h).viewControllers[0].children.map(\.restorationIdentifier) == ["List", "Map"])
    }

    @Test func aRootLaunchedIntoTheBackgroundTakesItsChildrenWhenItComesForward() {
        let h = harness(["Root": ["List"]])
        #expect(!h.connect(background: true).contains { $0.hasPrefix("change") })
        #expect(navigation(h).viewControllers[0].children.isEmpty)
        let output = h.send(.enterForeground)
        #expect(Array(output.suffix(from: output.firstIndex(of: "reply 2") ?? 0)) == ["reply 2"] + added("List"))
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
        #expect(h.send(.pop).suffix(added("Search").count) == ArraySlice(added("Search")))
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
        #expect(!h.send(.popToRoot).contains { $0.hasPrefix("change") || $0.hasPrefix("Search") })
        #expect(h.session.waitingChildren.isEmpty)
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
}
