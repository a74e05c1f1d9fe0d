extension LifecycleAtom {
    /// The steps after the first one of an atom whose steps depend on nothing of the scene
    /// (neither its controllers nor the controller that started it); nil for the others,
    /// whose steps `remainingSteps(startedBy:in:)` works out in their context.
    ///
    /// The same steps, worked out once: the trace checker starts such an atom on most requests
    /// (a scene becomes active, or resigns), and the context it built for them copied every
    /// array of the scene's view hierarchy, a retain and a release each.
    public var contextFreeRemainingSteps: [ExpectedStep]? {
        Self.contextFreeRemainingStepsTable[rawValue]
    }

    /// Whether `contextFreeRemainingSteps` answers for this atom: the lifecycle transitions of
    /// most requests (a switch, not a set: a hashed atom costs a conformance lookup).
    var isContextFree: Bool {
        switch self {
        case .enterForeground, .becomeActive, .resignActive, .appEnterForeground, .appBecomeActive,
            .appResignActive:
            true
        default:
            false
        }
    }

    private static let contextFreeRemainingStepsTable: [[ExpectedStep]?] = allCases.map { atom in
        guard atom.isContextFree else { return nil }
        let anyScene = Context(activation: .unattached, stack: [], sessionExists: false)
        return atom.remainingSteps(startedBy: nil, in: anyScene)
    }
}
