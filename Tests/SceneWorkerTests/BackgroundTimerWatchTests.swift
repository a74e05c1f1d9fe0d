import Testing

@testable import SceneWorker

/// The worker's watch of the main run loop's timers across the background: it counts each
/// stretch of time the app could be suspended with a timer still scheduled, whenever that
/// timer would fire, and knows whether a timer is due only while no app code ran since.
@Suite struct BackgroundTimerWatchTests {
    static let millisecond: UInt64 = 1_000_000

    @Test func aTimerScheduledWhenTheAppCouldBeSuspendedIsCountedOncePerStretch() {
        var watch = BackgroundTimerWatch()
        watch.turned(at: 0, nextInMilliseconds: 3_600_000, suspendable: true)
        #expect(watch.scheduledWhileSuspendable == 1, "a timer an hour away counts as well")
        watch.turned(at: 1, nextInMilliseconds: 30, suspendable: true)
        #expect(watch.scheduledWhileSuspendable == 1, "one stretch, one count")
        watch.turned(at: 2, nextInMilliseconds: 30, suspendable: false)
        watch.turned(at: 3, nextInMilliseconds: 30, suspendable: true)
        #expect(watch.scheduledWhileSuspendable == 2, "back in the foreground and out again")
    }

    @Test func noTimerOrNoSuspensionIsNotCounted() {
        var watch = BackgroundTimerWatch()
        watch.turned(at: 0, nextInMilliseconds: nil, suspendable: true)
        watch.turned(at: 1, nextInMilliseconds: 30, suspendable: false)
        #expect(watch.scheduledWhileSuspendable == 0)
        // The timer stopped in sceneDidEnterBackground: none scheduled once suspendable.
        watch.turned(at: 2, nextInMilliseconds: nil, suspendable: true)
        #expect(watch.scheduledWhileSuspendable == 0)
    }

    @Test func aTimerIsDueOnlyWhileTheTurnsLookHolds() {
        var watch = BackgroundTimerWatch()
        watch.turned(at: 0, nextInMilliseconds: 30, suspendable: false)
        #expect(!watch.isDue(at: 29 * Self.millisecond))
        #expect(watch.isDue(at: 30 * Self.millisecond))
        // App code between two turns may have invalidated the timer.
        watch.appCodeRan()
        #expect(!watch.isDue(at: 40 * Self.millisecond))
    }
}
