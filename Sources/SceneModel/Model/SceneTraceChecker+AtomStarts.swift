import Protocol

// Which atoms an event may start, precomputed per callback: the checker's hot path.
extension SceneTraceChecker {
    /// The atoms whose first step an event that is `callback` (nil: not a callback, or an
    /// unknown one) may be, in `LifecycleAtom.allCases`' order: a cheap pass over the atoms
    /// that spares the checker the requirements of every atom the event cannot start.
    /// `startsAtom` decides. (Trying each of the 33 atoms in turn cost about 600 instructions
    /// per request, on the host's hot path.)
    static func atomsStarted(by callback: CallbackName?) -> [LifecycleAtom] {
        // The tag is read here, not through `CasePositioned.position`: from this module that
        // is a generic call and a witness-table lookup per event (this toolchain serializes
        // no body for `@inlinable package`). The table checked once that tags are positions.
        startCandidates[callback.map { Int(unsafeBitCast($0, to: UInt8.self)) } ?? noCallbackRow]
    }

    /// The row of an event that is no callback: after the callbacks' (a constant, where
    /// `allCases.count` would build the array of every case).
    private static let noCallbackRow = CallbackName.allCases.count

    /// `atomsStarted(by:)`'s rows: one per callback by `position`, then one for events that
    /// are no callback. An atom whose first step is not a callback (none today) is in every row.
    private static let startCandidates: [[LifecycleAtom]] = {
        precondition(CallbackName.positionsAreTags, "a callback's tag is not its position in allCases")
        func atoms(startedBy callback: CallbackName?) -> [LifecycleAtom] {
            LifecycleAtom.allCases.filter { atom in
                guard let names = firstCallbacks[atom.rawValue] else { return true }
                return callback.map(names.contains) ?? false
            }
        }
        return CallbackName.allCases.map { atoms(startedBy: $0) } + [atoms(startedBy: nil)]
    }()

    /// Per atom (by raw value), the callbacks its first step can be, taken from the model's
    /// first steps once; nil for an atom whose first step is not a callback (none today),
    /// which then takes any event to `startsAtom`.
    private static let firstCallbacks: [[CallbackName]?] = LifecycleAtom.allCases.map { atom in
        // A tab switch starts with the new tab's root's `loadView` or its top's `viewWillAppear`.
        let firstSteps =
            atom == .selectTab
            ? [
                LifecycleAtom.selectTabFirstStep(selectedStack: []),
                LifecycleAtom.selectTabFirstStep(selectedStack: ["top"]),
            ]
            : [atom.firstStep(stack: [])]
        var names: [CallbackName] = []
        for step in firstSteps {
            guard case .callback(let name, _) = step else { return nil }
            names.append(name)
        }
        return names
    }
}
