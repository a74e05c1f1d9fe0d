import SceneModel

/// Identifies a timer armed with `EventLoop.scheduleTimer(at:_:)`; never reused.
package struct EventLoopTimerID: Hashable, Sendable {
    package let rawValue: UInt64
}

/// One-shot timers ordered by deadline: the event loop's timer state, a plain value that the
/// loop keeps under its lock.
///
/// Most timers are watchdogs, armed before a request and cancelled a few microseconds later.
/// Cancelling only forgets the action; the heap entry is dropped when it reaches the top or
/// at the next compaction, so arming and cancelling cost a heap push and a dictionary update.
/// Compaction keeps the heap within a constant factor of the live timers, so a stream of
/// cancelled watchdogs with long limits cannot grow it without bound.
package struct TimerQueue {
    package typealias Action = @Sendable () -> Void

    private struct Entry {
        package var deadline: LoopInstant
        /// Also the tie-breaker: timers with the same deadline fire in the order they were armed.
        package var id: UInt64

        package func precedes(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && id < other.id)
        }
    }

    /// Below this size the heap is never compacted: cancelled entries are cheap to carry.
    private static let compactionFloor = 64

    /// A binary min-heap; entries whose id is not in `actions` are cancelled.
    private var heap: [Entry] = []
    private var actions: [UInt64: Action] = [:]
    private var nextID: UInt64 = 1
    /// The id of the heap's top entry when it was last found live (ids are never reused): the
    /// loop asks for the next deadline twice per turn, and a lookup each time cost a hash.
    private var liveTopID: UInt64?

    /// Timers armed and neither fired nor cancelled.
    package var liveCount: Int { actions.count }
    /// Heap entries, cancelled ones included (bounded by compaction).
    package var storedCount: Int { heap.count }

    package mutating func schedule(at deadline: LoopInstant, _ action: @escaping Action) -> EventLoopTimerID {
        let id = nextID
        nextID += 1
        actions[id] = action
        push(Entry(deadline: deadline, id: id))
        if heap.count > Self.compactionFloor && heap.count > 4 * actions.count {
            compact()
        }
        return EventLoopTimerID(rawValue: id)
    }

    /// Forgets `id`'s action; harmless for a timer that already fired or was cancelled.
    package mutating func cancel(_ id: EventLoopTimerID) {
        actions.removeValue(forKey: id.rawValue)
        if liveTopID == id.rawValue { liveTopID = nil }
    }

    /// The earliest deadline of a live timer; drops the cancelled entries found on top.
    package mutating func nextDeadline() -> LoopInstant? {
        while let top = heap.first {
            if top.id == liveTopID || actions.index(forKey: top.id) != nil {
                liveTopID = top.id
                return top.deadline
            }
            popMin()
        }
        return nil
    }

    /// Removes the earliest live timer if its deadline is at or before `now`, and returns its action.
    package mutating func popDue(now: LoopInstant) -> Action? {
        guard let deadline = nextDeadline(), deadline <= now else { return nil }
        let id = heap[0].id
        popMin()
        return actions.removeValue(forKey: id)
    }

    // MARK: Heap

    private mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popMin() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        siftDown(from: 0)
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < heap.count else { return }
            var first = left
            if left + 1 < heap.count, heap[left + 1].precedes(heap[left]) { first = left + 1 }
            guard heap[first].precedes(heap[parent]) else { return }
            heap.swapAt(parent, first)
            parent = first
        }
    }

    /// Drops cancelled entries (in place, keeping the capacity) and restores the heap order.
    private mutating func compact() {
        let actions = self.actions
        heap.removeAll { actions[$0.id] == nil }
        var index = heap.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }
}
