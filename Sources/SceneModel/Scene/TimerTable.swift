/// A value per armed `SceneMachine.Timer`: the seven fixed timers in slots, the waiters'
/// (one per `waitFor`, any number) in a dictionary. The step watchdog is armed and cancelled
/// on every transition, by the machine and by its shell: a slot spares it a hash each time.
package struct TimerTable<Value> {
    // Inlinable, so that the shell's accesses are specialized for its value: unspecialized,
    // each access looked up `Optional<Value>`'s metadata in the runtime's cache (four times a
    // transition, about 7 % of the host's own work per round trip).
    @usableFromInline var slots: [Value?] = Array(repeating: nil, count: SceneMachine.Timer.fixed.count)
    @usableFromInline var waiters: [SceneMachine.CallerID: Value] = [:]

    package init() {}

    @inlinable
    package subscript(timer: SceneMachine.Timer) -> Value? {
        get {
            switch timer.slot {
            case .fixed(let index): slots[index]
            case .waiter(let caller): waiters[caller]
            }
        }
        set {
            switch timer.slot {
            case .fixed(let index): slots[index] = newValue
            case .waiter(let caller): waiters[caller] = newValue
            }
        }
    }

    /// Removes and returns `timer`'s value.
    @inlinable
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

extension SceneMachine.Timer {
    /// Where a `TimerTable` keeps this timer.
    package enum Slot {
        case fixed(Int)
        case waiter(SceneMachine.CallerID)
    }

    /// Every timer but the waiters', in slot order.
    package static let fixed: [Self] = [
        .step, .killGrace, .suspend, .backgroundTaskExpiration, .backgroundTaskDeadline, .pipeClosedGrace,
        .quitDeadline,
    ]

    @inlinable
    package var slot: Slot {
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
