/// A set of states, as a requirement names them (`LifecycleRequirement.activation`,
/// `.process`): one byte, so that checking a requirement is a mask test, not a search of an
/// array that is retained and released on every check (the requirements of every request,
/// every transition, on both sides of the pipe). Written and listed like an array,
/// `[.foregroundActive, .foregroundInactive]`, in `State.listingOrder`.
public struct StateSet<State: StateSetElement>: Sendable, Hashable, ExpressibleByArrayLiteral, Sequence {
    @usableFromInline var bits: UInt8

    @inlinable
    public init(arrayLiteral elements: State...) {
        self.init(elements)
    }

    @inlinable
    public init(_ elements: some Sequence<State>) {
        bits = 0
        for element in elements { bits |= element.setBit }
    }

    /// Whether `state` is in the set (a mask test).
    @inlinable
    public func contains(_ state: State) -> Bool {
        bits & state.setBit != 0
    }

    public var count: Int { bits.nonzeroBitCount }
    public var isEmpty: Bool { bits == 0 }

    public func makeIterator() -> IndexingIterator<[State]> {
        State.listingOrder.filter(contains).makeIterator()
    }
}

/// A state a `StateSet` can hold.
public protocol StateSetElement: Hashable, Sendable {
    /// The state's bit in a set: each state its own.
    var setBit: UInt8 { get }
    /// Every state, in the order a set lists them (its documentation and refusals).
    static var listingOrder: [Self] { get }
}

/// The activation states a requirement allows.
public typealias ActivationStates = StateSet<ActivationState>
/// The process states a requirement allows.
public typealias ProcessStates = StateSet<ProcessState>

extension ActivationState: StateSetElement {
    @inlinable
    public var setBit: UInt8 {
        switch self {
        case .foregroundActive: 1
        case .foregroundInactive: 2
        case .background: 4
        case .unattached: 8
        }
    }

    /// The foreground first, as the requirements' tables list them.
    public static let listingOrder: [ActivationState] = [
        .foregroundActive, .foregroundInactive, .background, .unattached,
    ]
}

extension ProcessState: StateSetElement {
    @inlinable
    public var setBit: UInt8 {
        switch self {
        case .none: 1
        case .launching: 2
        case .running: 4
        case .suspended: 8
        case .terminated: 16
        }
    }

    /// In their declared order.
    public static var listingOrder: [ProcessState] { allCases }
}
