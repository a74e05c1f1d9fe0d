/// A value per armed `SceneMachine.Timer`: the seven fixed timers in slots, the waiters'
/// (one per `waitFor`, any number) in a dictionary. The step watchdog is armed and cancelled
/// on every transition, by the machine and by its shell: a slot spares it a hash each time.
///
/// Public, with its accesses by slot inlinable, so that the shell's (another module's) are
/// specialized for its value. `@inlinable package` serializes no body for another module
/// with this toolchain: unspecialized, each of the shell's accesses looked up
/// `Optional<Value>`'s metadata in the runtime's cache, four times per transition.
public struct TimerTable<Value> {
    @usableFromInline var slots: [Value?] = Array(repeating: nil, count: TimerSlot.fixedCount)
    @usableFromInline var waiters: [Int: Value] = [:]

    public init() {}

    /// The value of the timer kept in `slot` (`SceneMachine.Timer.slot`).
    @inlinable
    public subscript(slot slot: TimerSlot) -> Value? {
        get {
            switch slot {
            case .fixed(let index): slots[index]
            case .waiter(let caller): waiters[caller]
            }
        }
        set {
            switch slot {
            case .fixed(let index): slots[index] = newValue
            case .waiter(let caller): waiters[caller] = newValue
            }
        }
    }
}

extension TimerTable {
    package subscript(timer: SceneMachine.Timer) -> Value? {
        get { self[slot: timer.slot] }
        set { self[slot: timer.slot] = newValue }
    }

    /// Removes and returns `timer`'s value.
    package mutating func removeValue(forKey timer: SceneMachine.Timer) -> Value? {
        defer { self[timer] = nil }
        return self[timer]
    }

    /// Every timer with a value, as a dictionary (for tests and diagnostics).
    package var dictionary: [SceneMachine.Timer: Value] {
        var result: [SceneMachine.Timer: Value] = [:]
        for (caller, value) in waiters { result[.waiter(caller)] = value }
        for timer in SceneMachine.Timer.fixed {
            if let value = self[timer] { result[timer] = value }
        }
        return result
    }
}

extension TimerTable: Sendable where Value: Sendable {}

/// Where a `TimerTable` keeps a timer: a fixed timer's slot, or a waiter's (by its caller).
public enum TimerSlot: Sendable, Equatable {
    case fixed(Int)
    case waiter(Int)

    /// How many fixed slots there are: one per timer of `SceneMachine.Timer.fixed`.
    public static let fixedCount = 7
}

extension SceneMachine.Timer {
    /// Every timer but the waiters', in slot order.
    package static let fixed: [Self] = [
        .step, .killGrace, .suspend, .backgroundTaskExpiration, .backgroundTaskDeadline, .pipeClosedGrace,
        .quitDeadline,
    ]

    /// Where a `TimerTable` keeps this timer.
    package var slot: TimerSlot {
        switch self {
        case .step: .fixed(0)
        case .killGrace: .fixed(1)
        case .suspend: .fixed(2)
        case .backgroundTaskExpiration: .fixed(3)
        case .backgroundTaskDeadline: .fixed(4)
        case .pipeClosedGrace: .fixed(5)
        case .quitDeadline: .fixed(6)
        case .waiter(let caller): .waiter(caller)
        }
    }
}
