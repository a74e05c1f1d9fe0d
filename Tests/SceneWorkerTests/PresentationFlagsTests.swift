import Protocol
import Testing

@testable import SceneWorker

/// `isBeingPresented` and `isBeingDismissed` as app code reads them: on the controller UIKit
/// presents (a navigation controller the app wrapped its sheet in, not its root), and during
/// a swipe from its start.
@MainActor
@Suite struct PresentationFlagsTests {
    final class FlagViewController: UIViewController {
        required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
        let log: Log

        init(restorationIdentifier: String, log: Log) {
            self.log = log
            super.init(restorationIdentifier: restorationIdentifier)
        }

        /// The check apps write: the navigation controller's flag when there is one.
        private var presenting: Bool { navigationController?.isBeingPresented ?? isBeingPresented }
        private var dismissing: Bool { navigationController?.isBeingDismissed ?? isBeingDismissed }

        override func viewWillAppear(_ animated: Bool) { log.entries.append("willAppear presenting \(presenting)") }
        override func viewWillDisappear(_ animated: Bool) {
            log.entries.append("willDisappear dismissing \(dismissing) own \(isBeingDismissed)")
        }
        override func viewDidDisappear(_ animated: Bool) {
            log.entries.append("didDisappear dismissing \(dismissing) own \(isBeingDismissed)")
        }
    }

    @Test func aWrappedSheetsNavigationControllerIsTheOneBeingPresentedAndDismissed() throws {
        let h = Harness()
        let root = try h.connectedRoot()
        let log = Log()
        let sheet = UINavigationController(
            rootViewController: FlagViewController(restorationIdentifier: "Compose", log: log)
        )
        root.present(sheet, animated: true)
        #expect(log.entries == ["willAppear presenting true"])
        #expect(!sheet.isBeingPresented, "only during its appearance")
        log.entries.removeAll()
        h.send(.swipeDismiss(completes: true))
        #expect(log.entries == ["willDisappear dismissing true own false", "didDisappear dismissing true own false"])
    }

    @Test func aSwipedSheetIsBeingDismissedFromTheSwipesStartUntilItSpringsBack() throws {
        let log = Log()
        let h = Harness(
            app: WorkerApp(
                makeApplicationDelegate: { RecordingApplicationDelegate() },
                makeSceneDelegate: { RecordingSceneDelegate() },
                makeViewController: { FlagViewController(restorationIdentifier: $0, log: log) }
            )
        )
        h.connect()
        h.send(.present(viewController: "Sheet", style: .pageSheet))
        log.entries.removeAll()
        h.send(.swipeDismiss(completes: false))
        #expect(log.entries == ["willDisappear dismissing true own true", "willAppear presenting false"])
        log.entries.removeAll()
        h.send(.swipeDismiss(completes: true))
        #expect(log.entries == ["willDisappear dismissing true own true", "didDisappear dismissing true own true"])
    }
}
