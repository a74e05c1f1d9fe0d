/// One touch of a tap, as `UITouch`: the host's `tap` delivers one touch, which begins and
/// ends at once.
public struct Touch: Sendable, Hashable {
    /// Where the touch is, as `UITouch.Phase`.
    public enum Phase: String, Sendable, Hashable {
        case began
        case ended
    }

    /// The touch's phase in the callback that receives it.
    public var phase: Phase

    /// A touch in `phase`.
    public init(phase: Phase) {
        self.phase = phase
    }
}

/// The events of the main run loop a view controller receives (docs/LIFECYCLE.md §3c): only
/// the frontmost controller, only while its scene is `foregroundActive`. Handling a touch may
/// navigate or start a background task, as any app code may (an app-initiated change, run
/// once the tap's callbacks are done).
extension UIViewController {
    /// `touchesBegan`, `touchesEnded`: each reported, then run.
    func runTap() {
        sink?.report(.touchesBegan, viewController: restorationIdentifier)
        touchesBegan([Touch(phase: .began)])
        sink?.report(.touchesEnded, viewController: restorationIdentifier)
        touchesEnded([Touch(phase: .ended)])
    }
}
