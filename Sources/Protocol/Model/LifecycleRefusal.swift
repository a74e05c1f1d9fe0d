/// Why an operation was refused: the operation and the first requirement the scene did not
/// meet. A refusal changes nothing.
public struct LifecycleRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The operation's name (a `LifecycleOperation` or a wire operation).
    public var operation: String
    /// The requirement that was not met.
    public var requirement: LifecycleRequirement
    /// The reason in words ("the scene is background, not foregroundInactive").
    public var reason: String

    public init(operation: String, requirement: LifecycleRequirement, snapshot: SceneSnapshot) {
        self.operation = operation
        self.requirement = requirement
        self.reason = requirement.unmetReason(in: snapshot)
    }

    /// `cannot activate: the scene is background, not foregroundInactive`
    public var description: String { "cannot \(operation): \(reason)" }
}
