import Protocol
import Testing

@testable import SceneWorker

/// A delegate of the swipe-back recognizer that answers as told.
@MainActor
private final class GestureGate: UIGestureRecognizerDelegate {
    var begins: Bool
    init(begins: Bool) { self.begins = begins }
    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { begins }
}

/// A scene delegate that puts a `UINavigationController` on `Root` in a window of its own
/// (or, `plain`, `Root` alone).
@MainActor
private final class NavigationSceneDelegate: UIResponder, UIWindowSceneDelegate {
    var window: UIWindow?
    var plain = false

    func scene(_ scene: UIScene, willConnectTo session: UISceneSession, options: UIScene.ConnectionOptions) {
        guard let windowScene = scene as? UIWindowScene else { return }
        let window = UIWindow(windowScene: windowScene)
        let root = UIViewController(restorationIdentifier: "Root")
        window.rootViewController = plain ? root : UINavigationController(rootViewController: root)
        self.window = window
        window.makeKeyAndVisible()
    }
}

/// The host's `swipeBack` is UIKit's interactive pop gesture: where that gesture does not
/// begin on a device, the request fails in the worker, nothing reported and nothing changed.
@MainActor @Suite struct SwipeBackGestureTests {
    /// A scene on a navigation controller's `Root` with `Detail` pushed over it, and its stack.
    private func pushed(implicit: Bool = false) throws -> (Harness, NavigationController, UIViewController) {
        let h = Harness(
            app: WorkerApp(
                makeApplicationDelegate: { LoggingApplicationDelegate(log: Log()) },
                makeSceneDelegate: {
                    let delegate = NavigationSceneDelegate()
                    delegate.plain = implicit
                    return delegate
                },
                makeViewController: { UIViewController(restorationIdentifier: $0) }
            )
        )
        h.connect()
        h.send(.push(viewController: "Detail"))
        let stack = try #require(h.session.scene?.window.navigationStack)
        #expect(stack.isImplicit == implicit)
        let top = try #require(stack.topViewController)
        #expect(top.restorationIdentifier == "Detail")
        return (h, stack, top)
    }

    private func expectRefused(_ h: Harness, _ stack: NavigationController, because reason: String) {
        let id = h.nextID
        #expect(h.send(.swipeBack(completes: true)) == ["failure \(id) operationFailed"])
        #expect(h.lastError?.message.contains(reason) == true, "\(String(describing: h.lastError))")
        #expect(stack.viewControllers.map(\.restorationIdentifier) == ["Root", "Detail"], "nothing changed")
    }

    @Test func aHiddenBackButtonStopsTheSwipe() throws {
        let (h, stack, top) = try pushed()
        top.navigationItem.setHidesBackButton(true, animated: true)
        expectRefused(h, stack, because: "Detail hides its back button")
        top.navigationItem.hidesBackButton = false
        #expect(h.send(.swipeBack(completes: false)).first == "Detail.viewWillDisappear", "a cancelled swipe")
        #expect(h.send(.swipeBack(completes: true)).first == "Detail.viewWillDisappear")
        #expect(stack.viewControllers.count == 1)
    }

    /// A leading item in the back button's place stops the swipe, one beside it does not.
    @Test func aLeadingItemInTheBackButtonsPlaceStopsTheSwipe() throws {
        let (h, stack, top) = try pushed()
        top.navigationItem.leftBarButtonItem = UIBarButtonItem(
            title: "Cancel",
            image: nil,
            primaryAction: nil,
            menu: nil
        )
        expectRefused(h, stack, because: "leading bar button item replaces its back button")
        top.navigationItem.leftItemsSupplementBackButton = true
        #expect(h.send(.swipeBack(completes: true)).first == "Detail.viewWillDisappear")
    }

    @Test func aHiddenBarOrADisabledRecognizerStopsTheSwipe() throws {
        let (h, stack, _) = try pushed()
        stack.setNavigationBarHidden(true, animated: false)
        expectRefused(h, stack, because: "the navigation bar is hidden")
        stack.setNavigationBarHidden(false, animated: false)
        stack.interactivePopGestureRecognizer?.isEnabled = false
        expectRefused(h, stack, because: "interactivePopGestureRecognizer is disabled")
    }

    /// A delegate replaces the navigation controller's rules: its answer decides, a nil
    /// delegate lets every swipe begin (the well-known way to keep it with a custom back
    /// button), and the delegate read first, put back, brings the rules back.
    @Test func theRecognizersDelegateDecides() throws {
        let (h, stack, top) = try pushed()
        top.navigationItem.hidesBackButton = true
        let saved = stack.interactivePopGestureRecognizer?.delegate
        #expect(saved != nil)
        let gate = GestureGate(begins: false)
        stack.interactivePopGestureRecognizer?.delegate = gate
        expectRefused(h, stack, because: "delegate says it should not begin")
        gate.begins = true
        #expect(h.send(.swipeBack(completes: false)).first == "Detail.viewWillDisappear")
        stack.interactivePopGestureRecognizer?.delegate = nil
        #expect(h.send(.swipeBack(completes: false)).first == "Detail.viewWillDisappear")
        stack.interactivePopGestureRecognizer?.delegate = saved
        expectRefused(h, stack, because: "Detail hides its back button")
    }

    /// A plain root's stack is the runtime's, with no recognizer the app could reach: its
    /// swipe back is never refused.
    @Test func aPlainRootsStackIsNeverRefused() throws {
        let (h, stack, top) = try pushed(implicit: true)
        top.navigationItem.hidesBackButton = true
        #expect(h.send(.swipeBack(completes: true)).first == "Detail.viewWillDisappear")
        #expect(stack.viewControllers.count == 1)
    }
}
