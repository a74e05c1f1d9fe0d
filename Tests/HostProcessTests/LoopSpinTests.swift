import HostTools
import SceneModel
import Testing

@testable import HostProcess

/// The event loop's choice between polling and sleeping (`LoopSpin`), and what its poll
/// looks at besides the descriptors (`EventLoopState.hasWorkDue`). Pure: no loop, no clock.
struct LoopSpinTests {
    @Test func aPollThatFindsWorkKeepsPollingAndOneInVainStopsIt() {
        var spin = LoopSpin(window: 30_000)
        #expect(!spin.isPolling, "a new loop sleeps until it has seen work follow work")
        spin.turnEnded(.slept(nanoseconds: 0))
        #expect(spin.isPolling)
        spin.turnEnded(.polledAndFound)
        #expect(spin.isPolling)
        spin.turnEnded(.polledInVain)
        #expect(!spin.isPolling, "a whole window polled in vain turns polling off")
    }

    @Test func aSleepCountsAsShortUpToTwoWindowsForTheWakeUpItCost() {
        var spin = LoopSpin(window: 30_000)
        // An answer that takes 15 µs measures 30–35 µs when the loop slept and was woken:
        // judged by the window alone, polling would never start for it.
        spin.turnEnded(.slept(nanoseconds: 35_000))
        #expect(spin.isPolling)
        spin.turnEnded(.slept(nanoseconds: 60_000))
        #expect(spin.isPolling, "two windows are still short")
        spin.turnEnded(.slept(nanoseconds: 60_001))
        #expect(!spin.isPolling)
        spin.turnEnded(.slept(nanoseconds: 5_000_000_000))
        #expect(!spin.isPolling, "an idle host does not poll")
    }

    @Test func aWindowOfZeroNeverPolls() {
        var spin = LoopSpin(window: 0)
        spin.turnEnded(.slept(nanoseconds: 0))
        spin.turnEnded(.polledAndFound)
        #expect(!spin.isPolling)
    }

    @Test func theWindowIsClampedToAMillisecond() {
        #expect(LoopSpin(window: 5_000_000).window == LoopSpin.maximumWindow)
        #expect(LoopSpin(window: -1).window == 0)
    }

    @Test func aPollStopsForAQueuedJobOrADueTimerOnly() {
        let now = LoopInstant(nanoseconds: 1_000_000_000)
        var state = EventLoopState()
        var due = state.hasWorkDue(at: now)
        #expect(!due)

        let later = state.timers.schedule(at: LoopInstant(nanoseconds: now.nanoseconds + 1)) {}
        due = state.hasWorkDue(at: now)
        #expect(!due, "a timer that is not due yet keeps the poll going")
        due = state.hasWorkDue(at: LoopInstant(nanoseconds: now.nanoseconds + 1))
        #expect(due)
        state.timers.cancel(later)
        due = state.hasWorkDue(at: LoopInstant(nanoseconds: now.nanoseconds + 1))
        #expect(!due, "a cancelled one does not")

        state.jobs.append(.work {})
        due = state.hasWorkDue(at: now)
        #expect(due)
    }
}
