import Glibc
import HostTools
import SceneModel
import Synchronization
import Testing

@testable import HostProcess

@Suite struct LockedTests {
    /// Threads incrementing a plain integer under the lock lose no increment: with two cores
    /// and four threads the lock is contended, so its waiting path (the futex) runs too. A
    /// lock that did not exclude would lose some of the 400,000.
    @Test func contendedIncrementsAreNeverLost() async {
        let counter = Locked(0)
        let threads = 4
        let increments = 100_000
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threads {
                group.addTask {
                    await onThread {
                        for _ in 0..<increments {
                            counter.withLock { value in
                                // A read, then a write: two threads inside at once lose one.
                                let read = value
                                value = read &+ 1
                            }
                        }
                    }
                }
            }
        }
        #expect(counter.withLock { $0 } == threads * increments)
    }

    /// A thread that asks for a held lock waits for its release and then sees what its holder
    /// wrote under it. The holder keeps the lock until the waiter has said it is asking (spins
    /// on atomics, no sleeps), so the waiter reads "after" only if the lock made it wait.
    @Test func aWaiterTakesTheLockOnlyOnceReleased() async throws {
        let shared = Locked("before")
        let held = Flag()
        let waiterAsking = Flag()
        let seen = try await within(TestLimit.event, "the waiter takes the released lock") {
            await withTaskGroup(of: String?.self) { group in
                group.addTask {
                    await onThread {
                        shared.withLock { value in
                            held.raise()
                            waiterAsking.spinUntilRaised()
                            value = "after"
                        }
                        return nil
                    }
                }
                group.addTask {
                    await onThread {
                        held.spinUntilRaised()
                        waiterAsking.raise()
                        return shared.withLock { $0 }
                    }
                }
                var seen: String?
                for await result in group where result != nil { seen = result }
                return seen
            }
        }
        #expect(seen == "after")
    }
}

/// A flag one thread raises and another spins on: an atomic, not a lock, so that it does not
/// depend on the lock under test.
private final class Flag: Sendable {
    private let raised = Atomic<Bool>(false)

    func raise() { raised.store(true, ordering: .releasing) }

    func spinUntilRaised() {
        while !raised.load(ordering: .acquiring) { sched_yield() }
    }
}
