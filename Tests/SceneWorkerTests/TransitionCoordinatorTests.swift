import Protocol
import Testing

@testable import SceneWorker

/// `coordinator.animate(alongsideTransition:completion:)` as UIKit runs it: both blocks after
/// every `viewWillTransition(to:with:)`, once the new size is applied and laid out.
@MainActor
@Suite struct TransitionCoordinatorTests {
    final class RotatingViewController: UIViewController {
        required init?(coder: NSCoder) { fatalError("init(coder:) has not been implemented") }
        let log: Log

        init(restorationIdentifier: String, log: Log) {
            self.log = log
            super.init(restorationIdentifier: restorationIdentifier)
        }

        private func note(_ what: String) {
            log.entries.append("\(what) \(view.size) \(traitCollection.verticalSizeClass)")
        }

        var kept: TransitionCoordinator?

        override func viewWillTransition(to size: Size, with coordinator: TransitionCoordinator) {
            note("viewWillTransition")
            kept = coordinator
            coordinator.animate(
                alongsideTransition: { _ in self.note("alongside") },
                completion: { _ in self.note("completion") }
            )
        }
        override func viewDidLayoutSubviews() { note("viewDidLayoutSubviews") }
    }

    @Test func theBlocksRunAfterTheTransitionAtTheNewSize() {
        let log = Log()
        let h = Harness(
            app: WorkerApp(
                makeApplicationDelegate: { RecordingApplicationDelegate() },
                makeSceneDelegate: { RecordingSceneDelegate() },
                makeViewController: { RotatingViewController(restorationIdentifier: $0, log: log) }
            )
        )
        var options = ConnectOptions(session: "A", root: "Root")
        (options.width, options.height) = (390, 844)
        h.send(.connect(options))
        log.entries.removeAll()
        h.send(.resize(width: 844, height: 390))
        #expect(
            log.entries == [
                "viewWillTransition 390x844 regular", "viewDidLayoutSubviews 844x390 compact",
                "alongside 844x390 compact", "completion 844x390 compact",
            ]
        )
        // Kept and called after the transition: at once, not never.
        log.entries.removeAll()
        let root = h.session.scene?.window.navigationStack.topViewController as? RotatingViewController
        root?.kept?.animate(alongsideTransition: nil, completion: { _ in log.entries.append("late completion") })
        #expect(log.entries == ["late completion"])
    }

    /// A coordinator an app's own test makes runs its blocks at once, as before.
    @Test func aCoordinatorMadeByHandRunsItsBlocksAtOnce() {
        var ran: [String] = []
        let coordinator = TransitionCoordinator(fromSize: Size(width: 1, height: 1), toSize: Size(width: 2, height: 2))
        coordinator.animate(
            alongsideTransition: { _ in ran.append("alongside") },
            completion: { _ in ran.append("completion") }
        )
        #expect(ran == ["alongside", "completion"])
    }
}
