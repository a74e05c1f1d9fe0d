import Protocol
import Testing

@testable import SceneWorker

/// `applicationState` as the app reads it around a scene's activation: the scene becomes
/// active first, the application once the scene's notification is out (real-ios-orders-3
/// c01), and every observer sees the state its delegate method saw.
@MainActor
@Suite struct ApplicationStateTests {
    final class Seen: @unchecked Sendable {
        var entries: [String] = []
        @MainActor func note(_ what: String) {
            entries.append("\(what) \(Application.shared.applicationState.rawValue)")
        }
    }

    final class NotingSceneDelegate: UISceneDelegate {
        nonisolated(unsafe) static var seen: Seen?
        func sceneWillEnterForeground(_ scene: Scene) { Self.seen?.note("sceneWillEnterForeground") }
        func sceneDidBecomeActive(_ scene: Scene) { Self.seen?.note("sceneDidBecomeActive") }
        func sceneWillResignActive(_ scene: Scene) { Self.seen?.note("sceneWillResignActive") }
        func sceneDidEnterBackground(_ scene: Scene) { Self.seen?.note("sceneDidEnterBackground") }
    }

    @Test func theApplicationBecomesActiveAfterTheScenesNotification() {
        let seen = Seen()
        NotingSceneDelegate.seen = seen
        defer { NotingSceneDelegate.seen = nil }
        var app = WorkerApp.recording
        app.makeSceneDelegate = { NotingSceneDelegate() }
        app.lifecycleNotificationPoster = { name in seen.note(name.rawValue) }
        let h = Harness(app: app)
        h.connect()
        h.send(.deactivate)
        h.send(.enterBackground)
        h.send(.enterForeground)
        let around = seen.entries.drop { !$0.hasPrefix("sceneWillEnterForeground") }
        #expect(
            Array(around) == [
                "sceneWillEnterForeground inactive", "UISceneWillEnterForegroundNotification inactive",
                "UIApplicationWillEnterForegroundNotification inactive",
                "sceneDidBecomeActive inactive", "UISceneDidActivateNotification inactive",
                "UIApplicationDidBecomeActiveNotification active",
                "sceneWillResignActive active", "UISceneWillDeactivateNotification active",
                "UIApplicationWillResignActiveNotification active",
                "sceneDidEnterBackground background", "UISceneDidEnterBackgroundNotification background",
                "UIApplicationDidEnterBackgroundNotification background",
                "sceneWillEnterForeground background", "UISceneWillEnterForegroundNotification background",
                "UIApplicationWillEnterForegroundNotification background",
                "sceneDidBecomeActive inactive", "UISceneDidActivateNotification inactive",
                "UIApplicationDidBecomeActiveNotification active",
            ],
            "\(seen.entries)"
        )
        #expect(Application.shared.applicationState == .active)
    }
}
