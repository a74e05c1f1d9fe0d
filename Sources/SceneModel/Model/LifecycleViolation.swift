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

    /// `seq 17, scene A: expected callback sceneDidBecomeActive, got callback viewDidAppear (vc Root)`.
    public var description: String {
        let place = scene.map { "seq \(seq), scene \($0.inMessage)" } ?? "seq \(seq)"
        return "\(place): expected \(expected), got \(got)"
    }
}
