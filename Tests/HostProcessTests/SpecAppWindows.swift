import HostTools
import Protocol
import SceneModel

@testable import HostProcess

/// Scenes that open scenes (LIFECYCLE.md §3c), written a second time for the property tests,
/// next to `SpecOracle` and as independent of the host: which windows the default worker's app
/// opens and closes when it gets its `openWindow` and `closeWindow` notifications, and what
/// the host makes of each request.
///
/// - `openWindow` (any value but a string) reaching a scene-based app opens a new window: a
///   new scene named after the opener, `A-1`, `A-2`, … (the first name never given out
///   before, at most 64 in a host), connected to the foreground with its own worker.
/// - `closeWindow` with a string value closes the window it names for good (a discard: a
///   refusal when the scene cannot be discarded); with any other value the app's own window.
/// - An app without scene support (§3d) has no scene delegate: neither does anything.
struct SpecAppWindows: Sendable, Hashable {
    /// What one delivered notification makes the host do.
    enum Effect: Sendable, Hashable {
        /// A new window, connected to the foreground.
        case open(String)
        /// A discard of the named scene the oracle allows.
        case close(String)
        /// A discard the host refuses (nothing changes).
        case refusedClose(String)
    }

    static let openWindow = "openWindow"
    static let closeWindow = "closeWindow"
    static let limit = 64

    /// Every name given to a window, in order.
    private(set) var given: [String] = []

    /// Whether `scene` is a window an app opened.
    func isWindow(_ scene: String) -> Bool { given.contains(scene) }

    /// The windows opened so far that were not closed, for steps to go to.
    func openWindows(_ oracles: [String: SpecOracle]) -> [String] {
        given.filter { !(oracles[$0]?.isDiscarded ?? false) }
    }

    /// Carries out what the notifications `delivered` (as `name=value`, in order) to `scene`
    /// make its app ask for, on `oracles`; returns the effects, in order.
    mutating func apply(
        delivered: [String],
        to scene: String,
        appBased: Bool,
        oracles: inout [String: SpecOracle]
    ) -> [Effect] {
        guard !appBased else { return [] }
        var effects: [Effect] = []
        for notification in delivered {
            let (name, value) = Self.split(notification)
            switch name {
            case Self.openWindow where !value.hasPrefix("\""):
                guard given.count < Self.limit else { continue }
                var number = 1
                while given.contains("\(scene)-\(number)") { number += 1 }
                let window = "\(scene)-\(number)"
                given.append(window)
                var oracle = SpecOracle()
                _ = oracle.perform(.connect())
                oracles[window] = oracle
                effects.append(.open(window))
            case Self.closeWindow:
                let target = value.hasPrefix("\"") ? String(value.dropFirst().dropLast()) : scene
                var oracle = oracles[target] ?? SpecOracle()
                if oracle.allows(LifecycleOperation.discard) {
                    _ = oracle.perform(SceneOperation.discard)
                    oracles[target] = oracle
                    effects.append(.close(target))
                } else {
                    effects.append(.refusedClose(target))
                }
            default:
                continue
            }
        }
        return effects
    }

    /// `closeWindow="A-1"` → (`closeWindow`, `"A-1"`).
    private static func split(_ notification: String) -> (String, String) {
        guard let equals = notification.firstIndex(of: "=") else { return (notification, "") }
        return (String(notification[..<equals]), String(notification[notification.index(after: equals)...]))
    }
}
