import HostProcess
import Protocol
import SceneModel

/// The stress audit's account of the windows apps open and close themselves
/// (docs/LIFECYCLE.md §3c): what the host did for an app has no client request behind it,
/// so it is counted against what the trace shows the app asked for instead.
///
/// The host records each app request first, as a `host` event on the scene it acts on
/// (origin `app`, `requestedBy` the opener), then carries it out as it would a user's
/// request: a connect (when the target has no live worker), a `continueUserActivity` or
/// `foreground` (when it has one), a discard. It looks at the target's status only after
/// recording the event, and a kill may come in between, so, per scene:
/// - a spawn may stand for an activation;
/// - a clean exit (`disconnected`) may stand for a destruction;
/// - a refusal of a connect, `continueUserActivity` or `foreground` may be an activation's,
///   one of a discard a destruction's (a client's request to the same scene got there first);
/// and per opener, what the host did for it (activations, destructions, and refusals of an
/// activation past the host's window limit) never outnumbers the `openWindow` and
/// `closeWindow` notifications its app received: each makes the app ask once.
package struct AppWindowAudit {
    /// Per target scene: the app requests the host carried out on it.
    package struct Target: Sendable, Hashable {
        package var activations = 0
        package var destructions = 0
    }

    /// Per opener: what its app asked for and what the host did for it.
    private struct Opener {
        package var openNotifications = 0
        package var closeNotifications = 0
        package var opened = 0
        package var closed = 0
        package var refusedOpens = 0
    }

    package private(set) var targets: [String: Target] = [:]
    private var openers: [String: Opener] = [:]

    /// App requests the host carried out: windows opened (or brought forward) and closed.
    package private(set) var opened = 0
    package private(set) var closed = 0

    package static let activation = "requestSceneSessionActivation"
    package static let destruction = "requestSceneSessionDestruction"

    /// The operations an activation may have the host perform (and so be refused).
    private static let activationOperations: Set<String> = [
        LifecycleOperation.connect.rawValue, LifecycleOperation.continueUserActivity.rawValue,
        LifecycleOperation.foreground.rawValue,
    ]

    /// A `host` event of `scene`; true when it was an app request.
    package mutating func hostEvent(_ event: TraceEvent, scene: String) -> Bool {
        guard event.origin == CallbackOrigin.app.rawValue, let name = event.name else { return false }
        guard case .object(let fields)? = event.value, case .string(let opener)? = fields["requestedBy"] else {
            return false
        }
        switch name {
        case Self.activation:
            targets[scene, default: Target()].activations += 1
            openers[opener, default: Opener()].opened += 1
            opened += 1
        case Self.destruction:
            targets[scene, default: Target()].destructions += 1
            openers[opener, default: Opener()].closed += 1
            closed += 1
        default:
            return false
        }
        return true
    }

    /// A `didReceiveNotification` the app of `scene` got (the callback, not the request).
    package mutating func notification(_ event: TraceEvent, scene: String) {
        switch event.notification {
        case StressPlan.openWindow: openers[scene, default: Opener()].openNotifications += 1
        case StressPlan.closeWindow: openers[scene, default: Opener()].closeNotifications += 1
        default: break
        }
    }

    /// A refusal of the app's activation itself (past the host's window limit), on the opener.
    /// True when `op` is that.
    package mutating func refusal(op: String, scene: String) -> Bool {
        guard op == Self.activation else { return false }
        openers[scene, default: Opener()].refusedOpens += 1
        return true
    }

    /// How many refusals of `op` on `scene` may have been the host's on an app's behalf.
    package func refusalAllowance(_ op: String, scene: String) -> Int {
        let target = targets[scene] ?? Target()
        if Self.activationOperations.contains(op) { return target.activations }
        if op == LifecycleOperation.discard.rawValue { return target.destructions }
        return 0
    }

    /// Reports every opener the host did more for than its app asked.
    package func check(_ log: ViolationLog) {
        for (scene, opener) in openers.sorted(by: { $0.key < $1.key }) {
            if opener.opened + opener.refusedOpens > opener.openNotifications {
                log.record(
                    "scene \(scene): the host opened \(opener.opened) windows and refused \(opener.refusedOpens)"
                        + " for its app, which got \(opener.openNotifications) openWindow notifications"
                )
            }
            if opener.closed > opener.closeNotifications {
                log.record(
                    "scene \(scene): the host closed \(opener.closed) windows for its app, which got"
                        + " \(opener.closeNotifications) closeWindow notifications"
                )
            }
        }
    }
}
