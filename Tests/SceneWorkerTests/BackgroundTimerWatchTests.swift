import Testing

@testable import SceneWorker

/// The worker's watch of timers that fire while the app could be suspended: it counts a fire
/// only when the last turn's look still holds and the app is in the background without a
/// background task.
@Suite struct BackgroundTimerWatchTests {
    static let millisecond: UInt64 = 1_000_000

    @Test func aTimerDueWhileSuspendableIsCounted() {
        var watch = BackgroundTimerWatch()
        watch.turned(at: 0, nextInMilliseconds: 30)
        #expect(!watch.isDue(at: 29 * Self.millisecond))
        #expect(watch.isDue(at: 30 * Self.millisecond))
        watch.turning(at: 31 * Self.millisecond, suspendable: true)
        #expect(watch.fires == 1)
    }

    @Test func aTimerDueInTheForegroundOrDuringABackgroundTaskIsNot() {
        var watch = BackgroundTimerWatch()
        watch.turned(at: 0, nextInMilliseconds: 30)
        watch.turning(at: 40 * Self.millisecond, suspendable: false)
        #expect(watch.fires == 0)
    }

    /// App code between two turns may have invalidated the timer the first turn saw (a
    /// correct app stops it in sceneDidEnterBackground): the next turn cannot tell.
    @Test func appCodeBetweenTurnsMakesTheLookStale() {
        var watch = BackgroundTimerWatch()
        watch.turned(at: 0, nextInMilliseconds: 30)
        watch.appCodeRan()
        #expect(!watch.isDue(at: 40 * Self.millisecond))
        watch.turning(at: 40 * Self.millisecond, suspendable: true)
        #expect(watch.fires == 0)
    }

    @Test func noTimerScheduledIsNeverDue() {
        var watch = BackgroundTimerWatch()
        watch.turned(at: 0, nextInMilliseconds: nil)
        watch.turning(at: .max, suspendable: true)
        #expect(watch.fires == 0)
    }
}
