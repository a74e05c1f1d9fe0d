import Protocol
import Testing

@testable import SceneWorker

/// A controller that notes the presentation API's calls, and is its own sheet's delegate.
@MainActor
final class SheetViewController: UIViewController, AdaptivePresentationControllerDelegate {
    required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
    let log: Log

    init(restorationIdentifier: String, log: Log, modal: Bool) {
        self.log = log
        super.init(restorationIdentifier: restorationIdentifier)
        isModalInPresentation = modal
        presentationController?.delegate = self
    }

    override func viewIsAppearing(_ animated: Bool) { log.entries.append("\(restorationIdentifier).viewIsAppearing") }
    override func traitCollectionDidChange(_ previousTraitCollection: TraitCollection?) {
        let traits = traitCollection
        log.entries.append(
            "\(restorationIdentifier).traits(\(traits.horizontalSizeClass)/\(traits.verticalSizeClass), previous \(previousTraitCollection == nil ? "nil" : "set"))"
        )
    }
    func presentationControllerWillDismiss(_ presentationController: PresentationController) {
        log.entries.append(
            "\(restorationIdentifier).willDismiss(\(presentationController.presentedViewController?.restorationIdentifier ?? "-"))"
        )
    }
    func presentationControllerDidDismiss(_ presentationController: PresentationController) {
        log.entries.append("\(restorationIdentifier).didDismiss")
    }
    func presentationControllerDidAttemptToDismiss(_ presentationController: PresentationController) {
        log.entries.append("\(restorationIdentifier).didAttemptToDismiss")
    }
}

/// The worker side of LIFECYCLE.md §3a: UIKit's shapes for app code, the swipe on a sheet
/// that is modal in presentation, and the worker's own refusals.
@MainActor
@Suite struct PresentationTests {
    static func app(log: Log) -> WorkerApp {
        WorkerApp(
            makeApplicationDelegate: { RecordingApplicationDelegate() },
            makeSceneDelegate: { RecordingSceneDelegate() },
            makeViewController: { name in
                name == "Root" || name.hasPrefix("Sheet")
                    ? SheetViewController(restorationIdentifier: name, log: log, modal: name == "SheetModal")
                    : UIViewController(restorationIdentifier: name)
            }
        )
    }

    @Test func aModalInPresentationSheetOnlyHearsTheAttempt() {
        let log = Log()
        let h = Harness(app: Self.app(log: log))
        h.connect()
        h.send(.present(viewController: "SheetModal", style: .pageSheet))
        log.entries.removeAll()
        #expect(
            h.send(.swipeDismiss(completes: true)) == [
                "SheetModal.presentationControllerDidAttemptToDismiss", "reply 3",
            ]
        )
        #expect(h.lastResult == .bool(false))
        #expect(log.entries == ["SheetModal.didAttemptToDismiss"])
        let navigation = h.session.scene?.window.navigationStack
        #expect(navigation?.presentedViewController?.restorationIdentifier == "SheetModal")
        #expect(navigation?.topViewController?.presentedViewController?.restorationIdentifier == "SheetModal")
        #expect(navigation?.presentedViewController?.presentingViewController?.restorationIdentifier == "Root")
        // A programmatic dismissal still works, without delegate callbacks.
        #expect(
            h.send(.dismiss) == [
                "SheetModal.viewWillDisappear", "SheetModal.viewDidDisappear", "SheetModal.deinit", "reply 4",
            ]
        )
        #expect(log.entries == ["SheetModal.didAttemptToDismiss"])
        #expect(navigation?.presentedViewController == nil)
        #expect(navigation?.topViewController?.presentedViewController == nil)
    }

    @Test func theDelegateHearsACompletedSwipe() {
        let log = Log()
        let h = Harness(app: Self.app(log: log))
        h.connect()
        h.send(.present(viewController: "Sheet", style: .pageSheet))
        log.entries.removeAll()
        h.send(.swipeDismiss(completes: true))
        #expect(h.lastResult == .bool(true))
        #expect(log.entries == ["Sheet.willDismiss(Sheet)", "Sheet.didDismiss"])
        #expect(h.session.scene?.window.navigationStack.presentedViewController == nil)
    }

    /// A presented controller's view is in its presenter's window, as on iOS: app code that
    /// saves through `view.window?.windowScene` works from a sheet too.
    @Test func aPresentedControllersViewIsInTheScenesWindowUntilItIsDismissed() throws {
        let h = Harness(app: Self.app(log: Log()))
        h.connect()
        h.send(.present(viewController: "Sheet", style: .pageSheet))
        let window = try #require(h.session.scene?.window)
        let sheet = try #require(window.navigationStack.presentedViewController)
        #expect(sheet.view.window === window)
        h.send(.dismiss)
        #expect(sheet.view.window == nil)
    }

    @Test func viewIsAppearingAndTheFirstTraitsReachTheOverrides() {
        let log = Log()
        let h = Harness(app: Self.app(log: log))
        h.connect()
        // No trait change on the first appearance: the predicted traits came true (c26).
        #expect(log.entries == ["Root.viewIsAppearing"])
        #expect(
            h.session.scene?.window.navigationStack.topViewController?.traitCollection.horizontalSizeClass
                == .compact
        )
        log.entries.removeAll()
        h.send(.present(viewController: "Sheet", style: .fullScreen))
        #expect(log.entries == ["Sheet.viewIsAppearing"])
        #expect(
            h.session.scene?.window.navigationStack.presentedViewController?.modalPresentationStyle == .fullScreen
        )
    }

    @Test func theWorkerRefusesWhatTheModelRefuses() {
        let h = Harness()
        h.connect()
        #expect(h.send(.dismiss) == ["failure 2 illegalTransition"])
        #expect(h.send(.swipeBack(completes: true)) == ["failure 3 illegalTransition"])
        h.send(.present(viewController: "Modal", style: .fullScreen))
        #expect(h.send(.swipeDismiss(completes: true)) == ["failure 5 illegalTransition"])
        #expect(h.send(.push(viewController: "Detail")) == ["failure 6 illegalTransition"])
        // The presented controller presents another (real-ios-orders-3 c23); the first stays.
        #expect(h.send(.present(viewController: "Other", style: .pageSheet)).last == "reply 7")
        let navigation = h.session.scene?.window.navigationStack
        #expect(navigation?.presentedViewController?.restorationIdentifier == "Modal")
        #expect(navigation?.presentedChain.map(\.restorationIdentifier) == ["Modal", "Other"])
        #expect(h.session.scene?.window.navigationStack.viewControllers.count == 1)
    }

    @Test func presentRequestsRoundTripOnTheWire() throws {
        let operations: [WorkerOperation] = [
            .present(viewController: "Sheet", style: .pageSheet), .present(viewController: "M", style: .fullScreen),
            .dismiss, .swipeDismiss(completes: false), .swipeBack(completes: true),
        ]
        for operation in operations {
            var bytes: [UInt8] = []
            HostCommand.request(id: 9, operation).encode(into: &bytes)
            #expect(try HostCommand(frame: Array(bytes.dropLast())) == .request(id: 9, operation))
        }
        let unknown = Array(#"{"id":1,"op":"present","vc":"A","style":"popover"}"#.utf8)
        #expect(throws: ProtocolError.self) { try HostCommand(frame: unknown) }
    }
}

/// App code presents and dismisses with UIKit's calls: reported as changes, with the
/// completion run once the transition ran; illegal calls are ignored.
@MainActor
@Suite struct AppPresentationCallTests {
    @Test func presentAndDismissFromAppCode() throws {
        let h = Harness()
        let root = try h.connectedRoot()
        let sheet = UIViewController(restorationIdentifier: "Compose")
        sheet.modalPresentationStyle = .fullScreen
        var completions: [String] = []
        root.present(sheet, animated: true) { completions.append("presented") }
        #expect(
            h.render(h.session.takeOutput()) == [
                "change present Compose fullScreen", "Compose.loadView@app", "Compose.viewDidLoad@app",
                "Root.viewWillDisappear@app", "Compose.viewWillAppear@app", "Compose.viewIsAppearing@app",
                "Compose.viewWillLayoutSubviews@app", "Compose.viewDidLayoutSubviews@app",
                "Compose.viewDidAppear@app", "Root.viewDidDisappear@app",
            ]
        )
        #expect(completions == ["presented"])
        // A second presentation is refused in the app's API: nothing happens.
        root.present(UIViewController(restorationIdentifier: "Other"), animated: true) { completions.append("other") }
        #expect(h.session.takeOutput().isEmpty)
        #expect(completions == ["presented"])
        sheet.dismiss(animated: true) { completions.append("dismissed") }
        #expect(
            h.render(h.session.takeOutput()) == [
                "change dismiss", "Compose.viewWillDisappear@app", "Root.viewWillAppear@app",
                "Root.viewIsAppearing@app", "Compose.viewDidDisappear@app", "Root.viewDidAppear@app",
            ]
        )
        #expect(completions == ["presented", "dismissed"])
        #expect(h.session.scene?.window.navigationStack.presentedViewController == nil)
        // The test keeps `sheet`: its deinit comes when the test lets it go.
    }

    /// `dismiss` on a controller lower in a chain of presentations dismisses every one above
    /// it, one dismissal each, the top first (UIKit: "its immediate child view controller and
    /// all view controllers above that child"); on the last presented one, that one; on a
    /// controller of the stack, all of them. The completion runs after the last.
    @Test func aDismissLowerInAChainDismissesEveryControllerAboveIt() throws {
        let h = Harness()
        let root = try h.connectedRoot()
        weak var first: UIViewController?
        weak var second: UIViewController?
        weak var third: UIViewController?
        do {
            let sheets = ["First", "Second", "Third"].map { UIViewController(restorationIdentifier: $0) }
            root.present(sheets[0], animated: true)
            sheets[0].present(sheets[1], animated: true)
            sheets[1].present(sheets[2], animated: true)
            (first, second, third) = (sheets[0], sheets[1], sheets[2])
        }
        _ = h.session.takeOutput()
        var completions: [String] = []
        first?.dismiss(animated: true) { completions.append("above First") }
        #expect(
            h.render(h.session.takeOutput()) == [
                "change dismiss", "Third.viewWillDisappear@app", "Third.viewDidDisappear@app", "Third.deinit@app",
                "change dismiss", "Second.viewWillDisappear@app", "Second.viewDidDisappear@app",
                "Second.deinit@app",
            ]
        )
        #expect(completions == ["above First"])
        #expect(first != nil && second == nil && third == nil)
        // The last presented one dismisses itself.
        first?.dismiss(animated: true) { completions.append("First") }
        #expect(
            h.render(h.session.takeOutput()) == [
                "change dismiss", "First.viewWillDisappear@app", "First.viewDidDisappear@app", "First.deinit@app",
            ]
        )
        #expect(completions == ["above First", "First"])

        // From the stack, over full-screen presentations: each one, the top first, uncovering
        // the one below it.
        do {
            let covers = ["Cover", "Inner"].map { UIViewController(restorationIdentifier: $0) }
            for cover in covers { cover.modalPresentationStyle = .fullScreen }
            root.present(covers[0], animated: true)
            covers[0].present(covers[1], animated: true)
        }
        _ = h.session.takeOutput()
        root.dismiss(animated: true) { completions.append("all") }
        #expect(
            h.render(h.session.takeOutput()) == [
                "change dismiss", "Inner.viewWillDisappear@app", "Cover.viewWillAppear@app",
                "Cover.viewIsAppearing@app", "Inner.viewDidDisappear@app", "Cover.viewDidAppear@app",
                "Inner.deinit@app",
                "change dismiss", "Cover.viewWillDisappear@app", "Root.viewWillAppear@app",
                "Root.viewIsAppearing@app", "Cover.viewDidDisappear@app", "Root.viewDidAppear@app",
                "Cover.deinit@app",
            ]
        )
        #expect(completions.last == "all")
        #expect(h.session.scene?.window.navigationStack.presentedViewController == nil)
    }

    /// A child's `dismiss` is its parent's: a child of the stack's top dismisses every sheet,
    /// a child of a sheet dismisses that sheet (and goes with it).
    @Test func aChildDismissesAsItsParent() throws {
        let h = Harness()
        let root = try h.connectedRoot()
        let rootChild = UIViewController(restorationIdentifier: "Badge")
        root.addChild(rootChild)
        rootChild.didMove(toParent: root)
        weak var sheetChild: UIViewController?
        do {
            let sheet = UIViewController(restorationIdentifier: "Sheet")
            root.present(sheet, animated: true)
            let child = UIViewController(restorationIdentifier: "Footer")
            sheet.addChild(child)
            child.didMove(toParent: sheet)
            sheetChild = child
        }
        _ = h.session.takeOutput()
        sheetChild?.dismiss(animated: true)
        #expect(
            h.render(h.session.takeOutput()) == [
                "change dismiss", "Sheet.viewWillDisappear@app", "Footer.viewWillDisappear@app",
                "Sheet.viewDidDisappear@app", "Footer.viewDidDisappear@app", "Sheet.deinit@app",
                "Footer.deinit@app",
            ]
        )
        #expect(sheetChild == nil)
        root.present(UIViewController(restorationIdentifier: "Other"), animated: true)
        _ = h.session.takeOutput()
        rootChild.dismiss(animated: true)
        #expect(h.render(h.session.takeOutput()).first == "change dismiss")
        #expect(h.session.scene?.window.navigationStack.presentedViewController == nil)
        // A child presents as its parent does, over the frontmost controller.
        rootChild.present(UIViewController(restorationIdentifier: "FromChild"), animated: true)
        #expect(h.render(h.session.takeOutput()).first == "change present FromChild pageSheet")
        #expect(h.session.scene?.window.navigationStack.presentedViewController?.restorationIdentifier == "FromChild")
    }

    /// A navigation controller presented with its root alone (a compose sheet with its bar
    /// buttons): its root is the presented controller, in the navigation controller's style;
    /// it dismisses from its navigation controller, and both go, the root's deinit reported.
    @Test func aPresentedNavigationControllerPresentsItsRoot() throws {
        let h = Harness()
        let root = try h.connectedRoot()
        weak var compose: UIViewController?
        weak var sheet: UINavigationController?
        do {
            let controller = UIViewController(restorationIdentifier: "Compose")
            let navigationController = UINavigationController(rootViewController: controller)
            navigationController.modalPresentationStyle = .fullScreen
            compose = controller
            sheet = navigationController
            root.present(navigationController, animated: true)
        }
        #expect(
            h.render(h.session.takeOutput()).prefix(2) == ["change present Compose fullScreen", "Compose.loadView@app"]
        )
        #expect(compose?.navigationController === sheet)
        #expect(compose?.tabBarController == nil && compose?.splitViewController == nil)
        #expect(h.session.scene?.window.navigationStack.presentedViewController === compose)
        // The model has no stack in a sheet: a push there is refused, nothing changed.
        sheet?.pushViewController(UIViewController(restorationIdentifier: "Detail"), animated: true)
        #expect(h.session.takeOutput().isEmpty)
        #expect(sheet?.viewControllers.count == 1)
        sheet?.dismiss(animated: true)
        let dismissal = h.render(h.session.takeOutput())
        #expect(dismissal.first == "change dismiss")
        #expect(dismissal.last == "Compose.deinit@app")
        #expect(compose == nil && sheet == nil)
    }

    /// A presented navigation controller the app keeps may be presented again; a presentation
    /// refused changes nothing of it or its root; the sheet's delegate and modality may be set
    /// on the navigation controller, as UIKit presents it.
    @Test func aKeptNavigationControllerIsPresentedAgainAndReadsThrough() throws {
        let h = Harness()
        let root = try h.connectedRoot()
        let compose = UIViewController(restorationIdentifier: "Compose")
        let sheet = UINavigationController(rootViewController: compose)
        sheet.modalPresentationStyle = .fullScreen
        // Refused (the scene is in the background): nothing changes.
        _ = h.send(.enterBackground)
        root.present(sheet, animated: true)
        #expect(compose.modalPresentationStyle == .pageSheet)
        _ = h.send(.enterForeground)
        _ = h.session.takeOutput()
        for _ in 0..<2 {
            root.present(sheet, animated: true)
            #expect(h.render(h.session.takeOutput()).first == "change present Compose fullScreen")
            sheet.dismiss(animated: true)
            #expect(h.render(h.session.takeOutput()).first == "change dismiss")
        }
        // A modal sheet: the swipe only reaches the navigation controller's delegate's attempt.
        sheet.modalPresentationStyle = .pageSheet
        sheet.isModalInPresentation = true
        let delegate = SheetDelegate()
        sheet.presentationController?.delegate = delegate
        root.present(sheet, animated: true)
        _ = h.session.takeOutput()
        #expect(h.send(.swipeDismiss(completes: true)).contains("Compose.presentationControllerDidAttemptToDismiss"))
        #expect(delegate.attempts == 1)
    }

    final class SheetDelegate: UIAdaptivePresentationControllerDelegate {
        var attempts = 0
        var keepsTheSheet = false
        var asked: [String] = []
        func presentationControllerShouldDismiss(_ presentationController: UIPresentationController) -> Bool {
            asked.append("should")
            return !keepsTheSheet
        }
        func presentationControllerDidAttemptToDismiss(_ presentationController: UIPresentationController) {
            attempts += 1
        }
    }

    /// A delegate of the app's own (not a controller) that says the sheet should not go keeps
    /// it, as `isModalInPresentation` does: the attempt alone, the reply `false`; one that
    /// says it should is asked first, and the sheet goes.
    @Test func aDelegateThatSaysTheSheetShouldNotDismissKeepsIt() throws {
        let h = Harness()
        let root = try h.connectedRoot()
        let delegate = SheetDelegate()
        delegate.keepsTheSheet = true
        let sheet = UIViewController(restorationIdentifier: "Sheet")
        sheet.presentationController?.delegate = delegate
        root.present(sheet, animated: true)
        _ = h.session.takeOutput()
        let messages = h.sendRaw(.swipeDismiss(completes: true))
        let kept = h.render(messages)
        #expect(kept.contains("Sheet.presentationControllerDidAttemptToDismiss"), "\(kept)")
        #expect(!kept.contains { $0.contains("WillDismiss") || $0.contains("viewWillDisappear") }, "\(kept)")
        guard case .reply(_, let result)? = messages.last else {
            Issue.record("no reply: \(kept)")
            return
        }
        #expect(result == .bool(false), "the sheet stayed")
        #expect(delegate.attempts == 1 && delegate.asked == ["should"])
        delegate.keepsTheSheet = false
        let gone = h.send(.swipeDismiss(completes: true))
        #expect(gone.contains("Sheet.presentationControllerDidDismiss"), "\(gone)")
        #expect(delegate.asked == ["should", "should"])
    }
}
