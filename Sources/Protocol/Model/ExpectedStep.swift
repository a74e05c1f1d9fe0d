/// Which view controller a callback step is for.
public enum ControllerPattern: Hashable, Sendable {
    /// Not a view-controller callback: the event must carry no `vc`.
    case noController
    /// Exactly this controller.
    case named(String)
    /// Any controller not yet known: the launch's root or a pushed one (its `loadView`).
    case newController
    /// Whatever is on top of the stack when the step is reached (used by the launch atom,
    /// which is built before the root's name is known).
    case top
}

/// One step the callback grammar expects next inside an atom.
public enum ExpectedStep: Hashable, Sendable {
    case callback(CallbackName, ControllerPattern)
    /// The `state` event that must follow the callback right before it.
    case state(from: ActivationState, to: ActivationState)
    /// Alternatives, chosen by their first step; an empty alternative makes the step optional.
    case oneOf([[ExpectedStep]])
    /// Zero or more further `viewWillLayoutSubviews`/`viewDidLayoutSubviews` pairs for the
    /// controller (layout may run more than once for one size change).
    case moreLayoutPasses(String)
    /// Not an event: what the branch taken tells about the scene (passed over at once).
    case mark(AtomMark)

    /// A step the atom may go without, so that an event it does not match falls through to
    /// the steps after it.
    public var isOptional: Bool {
        switch self {
        case .callback, .state: false
        case .oneOf(let alternatives): alternatives.contains(where: \.isEmpty)
        case .moreLayoutPasses, .mark: true
        }
    }

    /// A callback step without a controller.
    public static func callback(_ name: CallbackName) -> ExpectedStep { .callback(name, .noController) }

    /// A view-controller callback step for a named controller.
    public static func callback(_ name: CallbackName, vc: String) -> ExpectedStep { .callback(name, .named(vc)) }
}
