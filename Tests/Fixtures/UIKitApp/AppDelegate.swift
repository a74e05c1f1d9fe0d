// swift-format-ignore-file
// The test suite's UIKit app: written as an iOS developer writes one (`import UIKit`, `@main`
// on the app delegate, a plain controller owning a table, a detail screen with a text field
// and a Save bar button, an alert, a timer autosave, observers of lifecycle notifications).
// HostProcessTests drives it through the user's operations and the visible tree.

import UIKit

@main
class AppDelegate: UIResponder, UIApplicationDelegate {
    func application(_ application: UIApplication, willFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        Journal.shared.note("willFinishLaunching(UIKit form)")
        return true
    }

    func application(_ application: UIApplication, didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        // Each observer notes the state it sees: the one its delegate method saw. (Short: the
        // journal is one label, and the visible tree cuts a text at 256 characters.)
        _ = NotificationCenter.default.addObserver(forName: UIApplication.didEnterBackgroundNotification, object: nil, queue: nil) { _ in
            MainActor.assumeIsolated { Journal.shared.note("background sees \(Self.state)") }
        }
        _ = NotificationCenter.default.addObserver(forName: UIApplication.willResignActiveNotification, object: nil, queue: nil) { _ in
            MainActor.assumeIsolated { Journal.shared.note("resign sees \(Self.state)") }
        }
        _ = NotificationCenter.default.addObserver(forName: UIApplication.willEnterForegroundNotification, object: nil, queue: nil) { _ in
            MainActor.assumeIsolated { Journal.shared.note("foreground sees \(Self.state)") }
        }
        _ = NotificationCenter.default.addObserver(forName: UIApplication.didBecomeActiveNotification, object: nil, queue: nil) { _ in
            MainActor.assumeIsolated { Journal.shared.note("observed didBecomeActive") }
        }
        return true
    }

    @MainActor static var state: String {
        switch UIApplication.shared.applicationState {
        case .active: return "active"
        case .inactive: return "inactive"
        case .background: return "background"
        }
    }

    func application(_ application: UIApplication, configurationForConnecting connectingSceneSession: UISceneSession, options: UIScene.ConnectionOptions) -> UISceneConfiguration {
        return UISceneConfiguration(name: "Default Configuration", sessionRole: connectingSceneSession.role)
    }

    func application(_ application: UIApplication, didDiscardSceneSessions sceneSessions: Set<UISceneSession>) {
        Journal.shared.note("discarded \(sceneSessions.map(\.persistentIdentifier).sorted())")
    }
}

/// What the app did, shown in the list's footer label so a test reads it in the visible tree.
@MainActor
final class Journal {
    static let shared = Journal()
    private(set) var lines: [String] = []
    func note(_ line: String) { lines.append(line) }
}
