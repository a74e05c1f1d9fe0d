/// A set of activation states, as a requirement names them (`LifecycleRequirement.activation`):
/// one byte, so that checking a requirement is a mask test, not a search of an array that
/// is retained and released on every check (the requirements of every request, every
/// transition, on both sides of the pipe). Written and listed like an array:
/// `[.foregroundActive, .foregroundInactive]`, in `order`.
public struct ActivationStates: Sendable, Hashable, ExpressibleByArrayLiteral, Sequence {
    private var bits: UInt8

    /// The order a set is listed in (its documentation and refusals): the foreground first.
    static let order: [ActivationState] = [.foregroundActive, .foregroundInactive, .background, .unattached]

    public init(arrayLiteral elements: ActivationState...) {
        self.init(elements)
    }

    public init(_ elements: some Sequence<ActivationState>) {
        bits = 0
        for element in elements { bits |= Self.bit(element) }
    }

    private static func bit(_ state: ActivationState) -> UInt8 {
        switch state {
        case .foregroundActive: 1
        case .foregroundInactive: 2
        case .background: 4
        case .unattached: 8
        }
    }

    /// Whether `state` is in the set (a mask test).
    public func contains(_ state: ActivationState) -> Bool {
        bits & Self.bit(state) != 0
    }

    public var count: Int { bits.nonzeroBitCount }
    public var isEmpty: Bool { bits == 0 }

    public func makeIterator() -> IndexingIterator<[ActivationState]> {
        Self.order.filter(contains).makeIterator()
    }
}

/// A set of process states, as a requirement names them (`LifecycleRequirement.process`),
/// for the reasons `ActivationStates` gives; listed in `ProcessState`'s order.
public struct ProcessStates: Sendable, Hashable, ExpressibleByArrayLiteral, Sequence {
    private var bits: UInt8

    public init(arrayLiteral elements: ProcessState...) {
        self.init(elements)
    }

    public init(_ elements: some Sequence<ProcessState>) {
        bits = 0
        for element in elements { bits |= Self.bit(element) }
    }

    private static func bit(_ state: ProcessState) -> UInt8 {
        switch state {
        case .none: 1
        case .launching: 2
        case .running: 4
        case .suspended: 8
        case .terminated: 16
        }
    }

    /// Whether `state` is in the set (a mask test).
    public func contains(_ state: ProcessState) -> Bool {
        bits & Self.bit(state) != 0
    }

    public var count: Int { bits.nonzeroBitCount }
    public var isEmpty: Bool { bits == 0 }

    public func makeIterator() -> IndexingIterator<[ProcessState]> {
        ProcessState.allCases.filter(contains).makeIterator()
    }
}
