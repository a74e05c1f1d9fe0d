/// A value per armed `SceneMachine.Timer`: the seven fixed timers in slots, the waiters'
/// (one per `waitFor`, any number) in a dictionary. The step watchdog is armed and cancelled
/// on every transition, by the machine and by its shell: a slot spares it a hash each time.
package struct TimerTable<Value> {
    private var slots: [Value?] = Array(repeating: nil, count: SceneMachine.Timer.fixed.count)
    private var waiters: [SceneMachine.CallerID: Value] = [:]

    package init() {}

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
