import Protocol
import Testing

@testable import SceneWorker

/// What a controller sees as it appears (LIFECYCLE.md §2; Apple documents `viewIsAppearing` so): its window's
/// traits and the size it lays out at are set before `viewWillAppear`, so `viewIsAppearing`
/// sees them up to date, however it appears; a navigation controller's root is moving to its
/// parent on the stack's first appearance, as a pushed controller is.
@MainActor
@Suite struct AppearanceTraitsTests {
    final class NotingViewController: UIViewController {
        required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
        let log: Log

        init(restorationIdentifier: String, log: Log) {
            self.log = log
            super.init(restorationIdentifier: restorationIdentifier)
        }

        private func note(_ callback: String) {
            let traits = traitCollection
            log.entries.append(
                "\(restorationIdentifier).\(callback) \(traits.userInterfaceStyle) \(traits.horizontalSizeClass) "
                    + "\(view.size) moving \(isMovingToParent)"
            )
        }
        override func viewWillAppear(_ animated: Bool) { note("viewWillAppear") }
        override func viewIsAppearing(_ animated: Bool) { note("viewIsAppearing") }
    }

    static func app(log: Log) -> WorkerApp {
        WorkerApp(
            makeApplicationDelegate: { RecordingApplicationDelegate() },
            makeSceneDelegate: { RecordingSceneDelegate() },
            makeViewController: { NotingViewController(restorationIdentifier: $0, log: log) }
        )
    }

    /// A dark, wide window (regular width): every way in sees dark, regular and the window's size.
    @Test func everyAppearanceSeesTheWindowsTraitsAndSize() {
        let log = Log()
        let h = Harness(app: Self.app(log: log))
        var options = ConnectOptions(session: "A", root: "Root")
        (options.width, options.height, options.style) = (1024, 768, .dark)
        h.send(.connect(options))
        let seen = "dark regular 1024x768"
        #expect(
            log.entries == ["Root.viewWillAppear \(seen) moving true", "Root.viewIsAppearing \(seen) moving true"]
        )
        log.entries.removeAll()
        h.send(.push(viewController: "Detail"))
        #expect(
            log.entries == ["Detail.viewWillAppear \(seen) moving true", "Detail.viewIsAppearing \(seen) moving true"]
        )
        log.entries.removeAll()
        h.send(.present(viewController: "Sheet", style: .fullScreen))
        #expect(log.entries.first == "Sheet.viewWillAppear \(seen) moving false", "\(log.entries)")
        log.entries.removeAll()
        h.send(.addChild(viewController: "Child"))
        #expect(log.entries.first == "Child.viewWillAppear \(seen) moving true", "\(log.entries)")
    }

    @Test func aTabSeenForTheFirstTimeSeesTheWindowsTraits() {
        let log = Log()
        let h = Harness(app: Self.app(log: log))
        var options = ConnectOptions(session: "A", root: "First")
        (options.width, options.height, options.style, options.tabs) = (1024, 768, .dark, ["First", "Second"])
        h.send(.connect(options))
        log.entries.removeAll()
        h.send(.selectTab(index: 1))
        #expect(log.entries.first == "Second.viewWillAppear dark regular 1024x768 moving true", "\(log.entries)")
    }

    /// A navigation controller's root appears moving to its parent, as UIKit's does (the host's
    /// root is one: it is pushed onto); a plain root, the app's window's own, does not.
    @Test func aNavigationControllersRootIsMovingToItsParentOnTheFirstAppearance() {
        let log = Log()
        WindowInCodeTests.SceneDelegate.makeRoot = { [NotingViewController(restorationIdentifier: "Items", log: log)] }
        defer { WindowInCodeTests.SceneDelegate.makeRoot = nil }
        let h = Harness(app: WindowInCodeTests.app())
        h.connect()
        #expect(log.entries.first?.hasSuffix("moving true") == true, "\(log.entries)")
        #expect(h.session.scene?.window.navigationStack.topViewController?.isMovingToParent == false, "only during it")

        let plainLog = Log()
        _ = WindowInCodeTests.connect(root: { NotingViewController(restorationIdentifier: "Plain", log: plainLog) })
        #expect(plainLog.entries.first?.hasSuffix("moving false") == true, "\(plainLog.entries)")
    }
}
