import Protocol
import Testing

@testable import SceneWorker

/// When a controller's `view` is there to read: a content controller's once it is shown (a
/// read before stops the app, which `UIKitAppEndToEndTests` checks through a real worker), a
/// container's at any time, and never unloaded.
@MainActor
@Suite struct ViewLoadingTests {
    @Test func aControllerNotShownHasNoViewToReadSafely() {
        let controller = UIViewController(restorationIdentifier: "Later")
        #expect(!controller.isViewLoaded)
        #expect(controller.viewIfLoaded == nil)
        #expect(!controller.isViewLoaded, "asking loads nothing")
    }

    /// `navigationController?.view.backgroundColor = …` from a content controller: the
    /// container's view is made on the read, empty, and nothing is reported (a container has
    /// no callbacks of its own here).
    @Test func aContainersViewIsThereOnTheFirstReadAndReportsNothing() {
        let h = Harness()
        h.connect()
        _ = h.session.takeOutput()
        let navigation = h.session.scene!.window.navigationStack
        let root = navigation.viewControllers[0]
        #expect(root.isViewLoaded)
        root.navigationController?.view.backgroundColor = .systemBackground
        #expect(navigation.isViewLoaded)
        #expect(navigation.view.backgroundColor == .systemBackground, "the same view on every read")
        let tabs = UITabBarController()
        tabs.view.tintColor = .systemOrange
        #expect(tabs.viewIfLoaded?.tintColor == .systemOrange)
        #expect(h.session.takeOutput().isEmpty)
    }

    @Test func settingNilKeepsTheView() {
        let h = Harness()
        h.connect()
        let root = h.session.scene!.window.navigationStack.viewControllers[0]
        let view = root.view
        root.view = nil
        #expect(root.isViewLoaded)
        #expect(root.view === view)
    }
}
