/// The worker's turn of `RunLoop.main`: timers scheduled on the main run loop
/// (`Timer.scheduledTimer`, `RunLoop.main.add(_:forMode:)`, `perform(_:with:afterDelay:)`'s
/// kind) fire between requests, as main-queue work does; the worker waits for the next one
/// in its poll. A stopped (suspended) worker's timers fire late, once it is resumed.
enum MainRunLoop {
    /// The longest wait a timer far in the future asks for (a day): the wait ends early
    /// whenever a request or main-queue work arrives anyway.
    static let longestWaitMilliseconds: Double = 86_400_000

    /// Fires the due timers; returns the milliseconds until the next one, nil for none.
    @MainActor
    static func turn() -> Int32? {
        guard let next = RunLoop.main.limitDate(forMode: .default) else { return nil }
        let milliseconds = (next.timeIntervalSinceNow * 1000).rounded(.up)
        guard milliseconds < longestWaitMilliseconds else { return nil }
        return Int32(max(0, milliseconds))
    }
}
