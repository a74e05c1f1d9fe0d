/// An event the lifecycle model does not allow: what the checker expected at that point
/// of the trace and what came instead.
public struct LifecycleViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// The offending event's `seq`.
    public var seq: Int
    /// The offending event's scene; nil for host-wide events.
    public var scene: String?
    /// What the model allowed next, readable (`callback sceneDidBecomeActive`, or several
    /// alternatives joined by `or`).
    public var expected: String
    /// The offending event, readable (`callback viewDidAppear (vc Root)`).
    public var got: String

    public init(seq: Int, scene: String?, expected: String, got: String) {
        self.seq = seq
        self.scene = scene
        self.expected = expected
        self.got = got
    }

    /// `seq 17, scene A: expected callback sceneDidBecomeActive, got callback viewDidAppear (vc Root)`,
    /// with a hint where the usual cause is the app's own code (`hint`).
    public var description: String {
        let place = scene.map { "seq \(seq), scene \($0.inMessage)" } ?? "seq \(seq)"
        return "\(place): expected \(expected), got \(got)" + (hint.map { "; \($0)" } ?? "")
    }

    /// What usually causes this violation, when that is the app's code: a `deinit` that did
    /// not come where the model released the controller is nearly always a reference the app
    /// keeps (UIKit lets such a controller live on; scenehost's model cannot follow it).
    public var hint: String? {
        guard expected.hasPrefix("callback deinit (vc "), !expected.contains(" or "), !got.hasPrefix("callback deinit")
        else { return nil }
        return "if the app's code still holds that controller (a property, a cache, a closure that captures "
            + "it strongly, a delegate or timer target), let it go: scenehost's model needs its deinit here"
    }
}
