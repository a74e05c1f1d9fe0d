import Protocol
import Testing

@testable import SceneWorker

/// A controller that notes, in each appearance callback, whether its view (and a subview of
/// it) is in a window: what app code reads as "is this screen showing".
@MainActor
private final class WindowWatchingController: UIViewController {
    let label = UILabel()
    let field = UITextField()
    var log: [String] = []
    /// Makes `field` first responder in `viewWillAppear`, as apps that bring the keyboard up
    /// with a push do.
    var focusesOnAppear = false
    /// Makes `field` first responder in `viewDidLoad`, where its view is in no window yet.
    var focusesOnLoad = false
    /// Views of other trees (a child controller's) the test added to this controller's.
    var embedded: [UIView] = []

    private func note(_ callback: String) {
        let inWindow = view.window != nil
        // A subview, and a child's view added to this tree, are in the window exactly when
        // the controller's view is: the whole tree enters and leaves at once.
        #expect(inWindow == (label.window != nil), "\(callback)")
        #expect(embedded.allSatisfy { ($0.window != nil) == inWindow }, "\(callback)")
        log.append("\(callback) \(inWindow ? "window" : "nil")")
    }

    override func viewDidLoad() {
        view.addSubview(label)
        view.addSubview(field)
        note("viewDidLoad")
        if focusesOnLoad { field.becomeFirstResponder() }
    }
    override func viewWillAppear(_ animated: Bool) {
        note("viewWillAppear")
        if focusesOnAppear { field.becomeFirstResponder() }
    }
    override func viewIsAppearing(_ animated: Bool) { note("viewIsAppearing") }
    override func viewDidAppear(_ animated: Bool) { note("viewDidAppear") }
    override func viewWillDisappear(_ animated: Bool) { note("viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { note("viewDidDisappear") }
}

/// `view.window`, as on a device: set from `viewIsAppearing` until `viewDidDisappear`, so nil
/// for a controller that is not showing (under a push, under a full-screen presentation).
@MainActor @Suite struct ViewWindowTests {
    private func connected() throws -> (Harness, WindowWatchingController) {
        let h = Harness(makingControllers: { WindowWatchingController(restorationIdentifier: $0) })
        let root = try #require(try h.connectedRoot() as? WindowWatchingController)
        return (h, root)
    }

    @Test func theWindowIsSetFromViewIsAppearingUntilViewDidDisappear() throws {
        let (h, root) = try connected()
        #expect(
            root.log == [
                "viewDidLoad nil", "viewWillAppear nil", "viewIsAppearing window", "viewDidAppear window",
            ]
        )
        #expect(root.view.window === h.session.scene?.window)
        root.log = []
        h.send(.push(viewController: "Detail"))
        let detail = try #require(
            h.session.scene?.window.navigationStack.topViewController as? WindowWatchingController
        )
        #expect(root.log == ["viewWillDisappear window", "viewDidDisappear nil"])
        #expect(root.view.window == nil && root.label.window == nil, "a controller under a push is not showing")
        #expect(!root.field.becomeFirstResponder(), "nor can its field take the keyboard")
        #expect(detail.view.window != nil)
        root.log = []
        h.send(.pop)
        #expect(root.log == ["viewWillAppear nil", "viewIsAppearing window", "viewDidAppear window"])
        #expect(detail.view.window == nil)
    }

    /// A page sheet leaves its presenter in the window (it gets no disappearance); a
    /// full-screen presentation takes it out.
    @Test func onlyAFullScreenPresentationTakesThePresenterOutOfTheWindow() throws {
        let (h, root) = try connected()
        h.send(.present(viewController: "Sheet", style: .pageSheet))
        #expect(root.view.window != nil, "under a page sheet, the presenter still shows")
        h.send(.dismiss)
        h.send(.present(viewController: "Cover", style: .fullScreen))
        #expect(root.view.window == nil)
        h.send(.dismiss)
        #expect(root.view.window != nil)
    }

    /// The tab left is out of the window; the tab selected is in it.
    @Test func onlyTheSelectedTabIsInTheWindow() throws {
        let h = Harness(makingControllers: { WindowWatchingController(restorationIdentifier: $0) })
        var options = ConnectOptions(session: "A", root: "First")
        options.tabs = ["First", "Second"]
        h.send(.connect(options))
        let window = try #require(h.session.scene?.window)
        let first = try #require(window.navigationStack.topViewController as? WindowWatchingController)
        #expect(first.view.window === window)
        h.send(.selectTab(index: 1))
        let second = try #require(window.navigationStack.topViewController as? WindowWatchingController)
        #expect(second !== first)
        #expect(first.view.window == nil && second.view.window === window)
        #expect(first.log.suffix(2) == ["viewWillDisappear window", "viewDidDisappear nil"])
    }

    /// A restored stack loads every controller in it, but only the top one appears: the
    /// ones below are in no window, and their fields cannot take the keyboard.
    @Test func aRestoredControllerBelowTheTopIsInNoWindow() throws {
        // The recording app's scene delegate rebuilds the stack it saved.
        let h = Harness(
            app: WorkerApp(
                makeApplicationDelegate: { RecordingApplicationDelegate() },
                makeSceneDelegate: { RecordingSceneDelegate() },
                makeViewController: { WindowWatchingController(restorationIdentifier: $0) }
            )
        )
        let saved: JSONValue = .object(["stack": .array([.string("Root"), .string("Detail")])])
        h.connect(reconnect: true, restoration: saved)
        let stack = try #require(h.session.scene?.window.navigationStack)
        let root = try #require(stack.viewControllers.first as? WindowWatchingController)
        let detail = try #require(stack.topViewController)
        #expect(root !== detail && root.isViewLoaded)
        #expect(root.view.window == nil && detail.view.window != nil)
        #expect(!root.field.becomeFirstResponder())
    }

    /// A swipe back the user lets go of: the top controller appears again without ever
    /// having left the window, and the one below, shown for a moment, leaves it again.
    @Test func aCancelledSwipeBackKeepsTheTopInTheWindow() throws {
        let (h, root) = try connected()
        h.send(.push(viewController: "Detail"))
        let detail = try #require(
            h.session.scene?.window.navigationStack.topViewController as? WindowWatchingController
        )
        detail.log = []
        root.log = []
        h.send(.swipeBack(completes: false))
        #expect(detail.log.contains("viewWillAppear window"), "\(detail.log)")
        #expect(!detail.log.contains { $0.hasSuffix(" nil") }, "\(detail.log)")
        #expect(detail.view.window != nil && root.view.window == nil)
        #expect(root.log.last == "viewDidDisappear nil", "\(root.log)")
    }

    /// A child's view added to its parent's tree leaves the window with the parent's, before
    /// the parent's `viewDidDisappear` runs (`note` checks it in every callback).
    @Test func aChildsViewInItsParentsTreeLeavesWithIt() throws {
        let (h, root) = try connected()
        h.send(.addChild(viewController: "Child"))
        let child = try #require(root.children.first)
        root.view.addSubview(child.view)
        root.embedded = [child.view]
        #expect(child.view.window != nil)
        root.log = []
        h.send(.push(viewController: "Detail"))
        #expect(root.log == ["viewWillDisappear window", "viewDidDisappear nil"])
        #expect(child.view.window == nil)
    }

    /// A view of no controller's tree is in no window.
    @Test func aViewOutsideEveryShownTreeHasNoWindow() throws {
        let (_, root) = try connected()
        #expect(UIView().window == nil)
        let box = UIView()
        root.view.addSubview(box)
        #expect(box.window != nil, "added to a showing tree")
        box.removeFromSuperview()
        #expect(box.window == nil)
    }

    /// `becomeFirstResponder()` in `viewWillAppear`, before the view is in the window, takes
    /// the keyboard: on a device it comes up with the push. In `viewDidLoad` it fails: the
    /// view is in no window yet, nor about to be.
    @Test(arguments: [true, false]) func aFieldFocusedBeforeItsViewIsInTheWindow(inViewWillAppear: Bool) throws {
        let h = Harness(makingControllers: {
            let controller = WindowWatchingController(restorationIdentifier: $0)
            controller.focusesOnAppear = inViewWillAppear && $0 == "Detail"
            controller.focusesOnLoad = !inViewWillAppear && $0 == "Detail"
            return controller
        })
        _ = try h.connectedRoot()
        h.send(.push(viewController: "Detail"))
        let detail = try #require(
            h.session.scene?.window.navigationStack.topViewController as? WindowWatchingController
        )
        #expect(detail.field.isFirstResponder == inViewWillAppear && detail.field.isEditing == inViewWillAppear)
        #expect(detail.log.starts(with: ["viewDidLoad nil", "viewWillAppear nil"]))
    }
}
