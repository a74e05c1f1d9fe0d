import CSceneHostSys
import SceneModel

/// A value behind the host's one kind of lock (`csh_lock` in the C target).
///
/// Not `Synchronization.Mutex`: on Linux that locks with raw futexes, which ThreadSanitizer
/// cannot see, so every access made under it looks like a race, and suppressing those hides
/// real races too (a suppression matches either side of a report). `csh_lock` is a futex
/// word too, but under ThreadSanitizer it is compiled as a `pthread_mutex_t`, which TSan
/// intercepts: a sanitized run needs no suppression at all. Not `pthread_mutex_t` always:
/// glibc's lock and unlock took about 80 instructions together, the futex word's fast path
/// one atomic instruction each, and the event loop takes a lock ten times per round trip.
package final class Locked<State: ~Copyable>: @unchecked Sendable {
    // The lock must not move once initialized: it lives in its own allocation.
    private let lock: UnsafeMutablePointer<csh_lock>
    /// The state, behind a pointer rather than in a stored `var`: the lock already makes
    /// every access exclusive, and a class's `var` would add the runtime's exclusivity check
    /// to each one (about 150 instructions; the event loop takes its locks several times per
    /// round trip).
    private let state: UnsafeMutablePointer<State>

    package init(_ initial: consuming sending State) {
        lock = .allocate(capacity: 1)
        lock.initialize(to: csh_lock())
        csh_lock_init(lock)
        state = .allocate(capacity: 1)
        state.initialize(to: initial)
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        csh_lock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the state. Not reentrant: `body` must not take
    /// the same lock again.
    @inline(__always)
    package func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout sending State) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        csh_lock_acquire(lock)
        defer { csh_lock_release(lock) }
        return try body(&state.pointee)
    }
}
