import Dispatch

/// One thread that fires deadlines, for watchdogs that almost never fire.
///
/// Every request to a worker arms a watchdog and disarms it a few dozen microseconds later.
/// A `Task` sleeping per request costs a task, a timer registration and, at cancellation, a
/// wake-up of a cooperative thread just to unwind the sleep, on every round trip. Here arming
/// is a heap push under a lock and disarming removes the action; cancelled entries are
/// dropped lazily. The thread sleeps until the earliest deadline and is woken only when a
/// new deadline is earlier than the one it sleeps until, so a steady stream of requests with
/// the same limit costs it about one wake-up per limit period.
///
/// Actions run on the timer thread, one at a time, and must be short and non-blocking.
final class DeadlineTimer: Sendable {
    static let shared = DeadlineTimer()

    typealias Action = @Sendable () -> Void

    private struct Entry {
        var deadline: UInt64
        var id: UInt64
    }

    private struct State {
        /// A binary min-heap on `deadline`; entries whose id is not in `actions` are cancelled.
        var heap: [Entry] = []
        var actions: [UInt64: Action] = [:]
        var nextID: UInt64 = 1
        /// What the thread sleeps until: nil while it sleeps without a deadline.
        var sleepingUntil: UInt64?
    }

    private let state = Locked(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    private init() {
        // The thread keeps `self` alive, which is fine: there is only the shared instance.
        PlatformThread.startDetached(name: "scenehost-timer") { [self] in
            run()
        }
    }

    /// Runs `action` on the timer thread once `delay` has passed, unless `cancel`led first.
    func schedule(after delay: Duration, _ action: @escaping Action) -> UInt64 {
        let deadline = Self.now() &+ Self.nanoseconds(delay)
        let (id, mustWake): (UInt64, Bool) = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.actions[id] = action
            Self.push(Entry(deadline: deadline, id: id), into: &state.heap)
            if state.heap.count > 64 && state.heap.count > 4 * state.actions.count {
                Self.compact(&state)
            }
            guard let sleepingUntil = state.sleepingUntil, sleepingUntil <= deadline else {
                state.sleepingUntil = deadline
                return (id, true)
            }
            return (id, false)
        }
        if mustWake { wakeUp.signal() }
        return id
    }

    /// Disarms `id`; false when its action already ran (or is running).
    @discardableResult
    func cancel(_ id: UInt64) -> Bool {
        state.withLock { $0.actions.removeValue(forKey: id) != nil }
    }

    private func run() -> Never {
        while true {
            let (due, sleepUntil): ([Action], UInt64?) = state.withLock { state in
                let now = Self.now()
                var due: [Action] = []
                while let top = state.heap.first {
                    guard let action = state.actions[top.id] else {
                        Self.popMin(&state.heap)  // cancelled
                        continue
                    }
                    guard top.deadline <= now else { break }
                    Self.popMin(&state.heap)
                    state.actions[top.id] = nil
                    due.append(action)
                }
                state.sleepingUntil = due.isEmpty ? state.heap.first?.deadline : now
                return (due, state.sleepingUntil)
            }
            if !due.isEmpty {
                for action in due { action() }
                continue
            }
            if let sleepUntil {
                _ = wakeUp.wait(timeout: DispatchTime(uptimeNanoseconds: sleepUntil))
            } else {
                wakeUp.wait()
            }
        }
    }

    // MARK: Clock and heap

    /// The clock `DispatchSemaphore.wait(timeout:)` measures against.
    private static func now() -> UInt64 {
        DispatchTime.now().uptimeNanoseconds
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return UInt64.max / 2 }
        return min(UInt64.max / 2, whole &+ UInt64(max(0, attoseconds) / 1_000_000_000))
    }

    private static func push(_ entry: Entry, into heap: inout [Entry]) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private static func popMin(_ heap: inout [Entry]) {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(&heap, from: 0)
    }

    private static func siftDown(_ heap: inout [Entry], from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var smallest = left
            if left + 1 < heap.count, heap[left + 1].deadline < heap[left].deadline { smallest = left + 1 }
            guard heap[smallest].deadline < heap[parent].deadline else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    /// Drops cancelled entries and restores the heap order.
    private static func compact(_ state: inout State) {
        state.heap.removeAll { state.actions[$0.id] == nil }
        var index = state.heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(&state.heap, from: index)
        }
    }
}
