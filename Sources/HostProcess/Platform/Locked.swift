#if canImport(Glibc)
import Glibc
#endif

/// A value behind a `pthread_mutex_t`: the host's one kind of lock.
///
/// Not `Synchronization.Mutex`: on Linux that locks with raw futexes, which ThreadSanitizer
/// cannot see, so every access made under it looks like a race, and suppressing those hides
/// real races too (a suppression matches either side of a report). TSan intercepts
/// `pthread_mutex_lock`, so with this lock a sanitized run needs no suppression at all.
/// Uncontended it costs the same (one atomic each way).
package final class Locked<State: ~Copyable>: @unchecked Sendable {
    // The mutex must not move once initialized: it lives in its own allocation.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The state, behind a pointer rather than in a stored `var`: the mutex already makes
    /// every access exclusive, and a class's `var` would add the runtime's exclusivity check
    /// to each one (about 150 instructions; the event loop takes its locks several times per
    /// round trip).
    private let state: UnsafeMutablePointer<State>

    package init(_ initial: consuming sending State) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        state = .allocate(capacity: 1)
        state.initialize(to: initial)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Not reentrant: `body` must not take
    /// the same lock again.
    @inline(__always)
    package func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state.pointee)
    }
}
