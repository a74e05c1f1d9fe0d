import Protocol
import Testing

@testable import SceneWorker

/// A child that builds its view in `viewDidLoad`, as most controllers do.
@MainActor
final class ChartViewController: UIViewController {
    override func viewDidLoad() {
        super.viewDidLoad()
        let label = UILabel()
        label.text = "Chart"
        view.addSubview(label)
    }
}

/// A child whose own `loadView` makes its view.
@MainActor
final class MapViewController: UIViewController {
    final class MapView: View {}

    override func loadView() {
        view = MapView()
    }
}

/// A container written as Apple's documentation writes one: `addChild(_:)`, the child's view
/// added to its own, `didMove(toParent:)`, all in `viewDidLoad`.
@MainActor
final class DashboardViewController: UIViewController {
    var made: [UIViewController] = []

    override func viewDidLoad() {
        super.viewDidLoad()
        let header = UILabel()
        header.text = "Dashboard"
        view.addSubview(header)
        for child in [
            ChartViewController(restorationIdentifier: "Chart"), MapViewController(restorationIdentifier: "Map"),
        ] {
            addChild(child)
            view.addSubview(child.view)
            child.didMove(toParent: self)
            made.append(child)
        }
    }
}

/// Apple's container pattern runs as written: the child's `view`, read right after
/// `addChild(_:)` while the add waits for its transition, is the view the child loads into
/// (LIFECYCLE.md §3b), and the visible tree lists each view once.
@MainActor
@Suite struct ContainerViewPatternTests {
    private func harness() -> Harness {
        Harness(
            app: WorkerApp(
                makeApplicationDelegate: { RecordingApplicationDelegate() },
                makeSceneDelegate: { RecordingSceneDelegate() },
                makeViewController: { name in
                    name.hasPrefix("Dashboard")
                        ? DashboardViewController(restorationIdentifier: name)
                        : UIViewController(restorationIdentifier: name)
                }
            )
        )
    }

    private func checkDashboard(_ dashboard: DashboardViewController) {
        #expect(dashboard.children.map(\.restorationIdentifier) == ["Chart", "Map"])
        let subviews = dashboard.view.subviews
        #expect(subviews.count == 3)
        // The chart's view is the one the container added, and holds what its viewDidLoad built.
        #expect(subviews.count == 3 && subviews[1] === dashboard.made[0].loadedView)
        #expect((dashboard.made[0].view.subviews.first as? UILabel)?.text == "Chart")
        // The map's own view took the place of the one read before it loaded.
        #expect(subviews.count == 3 && subviews[2] === dashboard.made[1].loadedView)
        #expect(dashboard.made[1].view is MapViewController.MapView)
        #expect(dashboard.made.allSatisfy { $0.premadeView == nil && !$0.isBeingAddedAsChild })
    }

    @Test func aPushedContainerAddsItsChildrenRightAfterThePush() throws {
        let h = harness()
        h.connect()
        let output = h.send(.push(viewController: "Dashboard"))
        let reply = try #require(output.firstIndex(of: "reply 2"))
        #expect(Array(output[reply...]) == ["reply 2"] + appAddedChild("Chart") + appAddedChild("Map"))
        let dashboard = try #require(
            h.session.scene?.window.navigationStack.topViewController as? DashboardViewController
        )
        checkDashboard(dashboard)
        // Each view once: the chart's label under the chart, not under the dashboard too.
        let tree = VisibleTree.controller(dashboard)
        #expect(tree["views"] == .array([.object(["label": "Dashboard"])]))
        #expect(tree["children"]?[0]?["views"] == .array([.object(["label": "Chart"])]))
        #expect(WorkerSession.views(in: dashboard).compactMap { ($0 as? UILabel)?.text } == ["Dashboard", "Chart"])
        // Removed from its parent with its view left in the parent's, the chart's label is
        // still on screen: the parent's now.
        dashboard.made[0].removeFromParent()
        _ = h.session.takeOutput()
        #expect(dashboard.children.map(\.restorationIdentifier) == ["Map"])
        #expect(VisibleTree.controller(dashboard)["views"] == [["label": "Dashboard"], ["label": "Chart"]])
    }

    @Test func aContainerRootAddsItsChildrenRightAfterTheLaunch() throws {
        let h = harness()
        let output = h.connect(root: "Dashboard")
        let reply = try #require(output.firstIndex(of: "reply 1"))
        #expect(Array(output[reply...]) == ["reply 1"] + appAddedChild("Chart") + appAddedChild("Map"))
        let dashboard = try #require(
            h.session.scene?.window.navigationStack.topViewController as? DashboardViewController
        )
        checkDashboard(dashboard)
    }

    /// A child's view arranged in a stack view before it loaded: an override's own view is
    /// arranged in its place.
    @Test func anOverridesViewTakesTheEarlyViewsPlaceInAStackView() throws {
        let delegate = ScriptedSceneDelegate()
        let stack = UIStackView()
        let map = MapViewController(restorationIdentifier: "Map")
        delegate.onNotification = { scene, _ in
            // Inside a request: the add waits for its reply, and the view is read before.
            let root = scene.window.navigationStack.viewControllers[0]
            root.addChild(map)
            stack.addArrangedSubview(map.view)
            root.view.addSubview(stack)
        }
        let h = Harness(sceneDelegate: delegate)
        let root = try h.connectedRoot()
        let output = h.send(.notify(name: "embed", value: .null))
        #expect(output.contains("change addChild Map"))
        #expect(root.children.first === map)
        #expect(stack.arrangedSubviews.count == 1 && stack.arrangedSubviews.first === map.loadedView)
        #expect(stack.subviews.count == 1)
        #expect(map.loadedView is MapViewController.MapView)
    }
}
