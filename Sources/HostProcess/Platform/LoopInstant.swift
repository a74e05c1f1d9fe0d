#if canImport(Glibc)
import Glibc
#endif

/// A point in time on the event loop's clock: nanoseconds of `CLOCK_BOOTTIME`, the clock
/// `ContinuousClock` reads on Linux, as one 64-bit integer.
///
/// Not `ContinuousClock.Instant`: that type is resilient (the standard library may change its
/// layout), so outside the standard library every copy, comparison and `Optional` of one goes
/// through its value witnesses and a metadata lookup. The loop reads the clock, compares
/// deadlines and keeps an optional one on every turn, and a scene arms a watchdog per
/// request: about 2,000 instructions per round trip (callgrind), where integers take a few.
package struct LoopInstant: Comparable, Hashable, Sendable {
    /// Nanoseconds since boot.
    package var nanoseconds: Int64

    package init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The clock now.
    package static func now() -> LoopInstant {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return LoopInstant(nanoseconds: Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec))
    }

    /// The same moment as `instant`, or a little after it (never before: a timer set for it
    /// still fires at or after `instant`). Through one pair of readings of both clocks,
    /// taken once: equal instants convert to equal ones, and the order of instants is kept.
    package init(_ instant: ContinuousClock.Instant) {
        let epoch = Self.epoch
        self = epoch.loop + (instant - epoch.continuous)
    }

    /// `ContinuousClock.now`, then the loop's clock: the second reading is not earlier.
    private static let epoch: (continuous: ContinuousClock.Instant, loop: LoopInstant) = {
        let continuous = ContinuousClock.now
        return (continuous, LoopInstant.now())
    }()

    package static func < (lhs: LoopInstant, rhs: LoopInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// `instant` moved by `duration`, rounded up to the next nanosecond and clamped to about
    /// 146 years either way (an absurd delay means "never", not a trap).
    package static func + (instant: LoopInstant, duration: Duration) -> LoopInstant {
        LoopInstant(nanoseconds: instant.nanoseconds.addingClamped(nanoseconds(roundingUp: duration)))
    }

    /// Nanoseconds from `self` to `later`: negative when `later` is earlier.
    package func nanoseconds(to later: LoopInstant) -> Int64 {
        later.nanoseconds.addingClamped(-nanoseconds)
    }

    /// `duration` in whole nanoseconds, rounded up, clamped to ±2^62.
    ///
    /// Under 2^73 attoseconds (2.6 hours: every watchdog) with a 64-bit division by a
    /// constant (a multiplication): x / 10^9 is (x / 2^9) / 5^9, and x / 2^9 fits in
    /// 64 bits (x rounded up first).
    /// `Duration.components` divides 128-bit numbers, about 190 instructions.
    package static func nanoseconds(roundingUp duration: Duration) -> Int64 {
        let attoseconds = duration.attoseconds
        let roundedUp = attoseconds + 999_999_999
        if attoseconds >= 0, roundedUp < Int128(1) << 73 {
            return Int64(UInt64(truncatingIfNeeded: roundedUp >> 9) / 1_953_125)
        }
        let limit = Int64(1) << 62
        let (seconds, subsecond) = duration.components
        guard seconds < limit / 1_000_000_000 else { return limit }
        guard seconds > -limit / 1_000_000_000 else { return -limit }
        // Truncating division rounds a negative part up (toward zero) already.
        let subsecondNanoseconds = subsecond > 0 ? (subsecond + 999_999_999) / 1_000_000_000 : subsecond / 1_000_000_000
        return seconds * 1_000_000_000 + subsecondNanoseconds
    }
}

extension Int64 {
    /// `self + other`, clamped to ±2^62 rather than overflowing.
    fileprivate func addingClamped(_ other: Int64) -> Int64 {
        let limit = Int64(1) << 62
        let (sum, overflow) = addingReportingOverflow(other)
        if overflow { return other > 0 ? limit : -limit }
        return Swift.min(Swift.max(sum, -limit), limit)
    }
}
