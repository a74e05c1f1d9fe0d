import SceneModel

/// What a reservation did to the workers' threads, so that a release undoes just that.
package struct WorkerThreadsKeptOff: Sendable {
    /// The CPU they were kept off; -1 while nothing is reserved.
    package var cpu: Int32 = -1
    /// The threads it was taken from.
    package var changed: Set<Int32> = []
    /// The threads seen and left alone: kept off it already, or pinned to it alone.
    package var untouched: Set<Int32> = []
    /// Whether the reservation's first sweep ran: a later one cannot tell a mask a thread
    /// inherited from one the reservation changed from a mask of its own.
    package var swept = false
}

/// When the event loop keeps a CPU to itself.
///
/// Every transition of every scene passes through the loop's one thread, so once that thread
/// works all the time it bounds the whole host. Meanwhile the kernel wakes each worker onto
/// the waker's CPU when the other CPUs are busy (a pipe's wake-up is a "sync" one), which is
/// the loop's: the worker then waits for the loop, or the loop for it, while the loop's time
/// is what every scene waits for. With 64 busy scenes on 2 CPUs the loop waited for its own
/// CPU 15–18 % of the time. While the loop is saturated, the host therefore keeps workers off
/// the loop's CPU (and the loop on it); once it is not, everything goes back as it was.
///
/// A plain state machine, events in and actions out: the loop reports how busy it was in each
/// window (`window` long) and performs what comes back.
package struct LoopCPUReservation: Sendable, Equatable {
    package enum State: Sendable, Equatable {
        /// Every CPU is shared; `busyWindows` saturated windows in a row so far.
        case shared(busyWindows: Int)
        /// The loop runs alone on `cpu`; `quietWindows` quiet windows in a row so far.
        case reserved(cpu: Int32, quietWindows: Int)
    }

    package enum Action: Sendable, Equatable {
        /// Pin the loop to `cpu` and keep every worker off it.
        case reserve(cpu: Int32)
        /// Give the loop and the workers back the CPUs they had.
        case release
    }

    /// How long a window is, in nanoseconds.
    package static let window: Int64 = 50_000_000
    /// The share of a window the loop must work for the window to count as saturated: a
    /// saturated loop that shares its CPU with workers gets 80–88 % of it.
    package static let saturated = 0.75
    /// Below this share a window counts as quiet.
    package static let quiet = 0.6
    /// Saturated windows in a row before the loop reserves its CPU: a burst does not move
    /// anything.
    package static let windowsToReserve = 2
    /// Quiet windows in a row before it gives the CPU back (a second): a pause between bursts
    /// does not move anything either.
    package static let windowsToRelease = 20

    package private(set) var state = State.shared(busyWindows: 0)

    package init() {}

    /// A window ended. `busy`: the share of it the loop worked (its polls for answers not
    /// counted: a poll is waiting, not work); `cpu`: the CPU the loop runs on now;
    /// `mayReserve`: more than one CPU is allowed and nobody else has pinned the loop.
    package mutating func windowEnded(busy: Double, cpu: Int32, mayReserve: Bool) -> Action? {
        switch state {
        case .shared(let busyWindows):
            guard mayReserve, busy >= Self.saturated else {
                state = .shared(busyWindows: 0)
                return nil
            }
            guard busyWindows + 1 >= Self.windowsToReserve else {
                state = .shared(busyWindows: busyWindows + 1)
                return nil
            }
            state = .reserved(cpu: cpu, quietWindows: 0)
            return .reserve(cpu: cpu)
        case .reserved(let reservedCPU, let quietWindows):
            guard busy < Self.quiet else {
                state = .reserved(cpu: reservedCPU, quietWindows: 0)
                return nil
            }
            guard quietWindows + 1 >= Self.windowsToRelease else {
                state = .reserved(cpu: reservedCPU, quietWindows: quietWindows + 1)
                return nil
            }
            state = .shared(busyWindows: 0)
            return .release
        }
    }
}
