import HostProcess
import Synchronization

/// The bytes the control server holds for all its clients together: unfinished request
/// frames, requests read but not answered yet, and output not written yet.
///
/// Each client has its own limits (a 1 MiB frame, 64 queued requests or 1 MiB of them,
/// 4 MiB of output), but they multiply by the number of clients: 300 clients each holding
/// most of a frame raised `hostctl serve` from 12 MB to 323 MB. The budget caps the sum.
/// Bytes are reserved before they are held, so `used` never exceeds `limit`; when a
/// reservation does not fit, the server disconnects a client to make room or refuses the
/// read (ControlServer+Linux.swift), and a connection whose output does not fit is
/// disconnected (ControlConnection.swift).
///
/// A queued request is counted by what it holds decoded (`ControlRequest.estimatedSize`,
/// 9–13 times its frame for a JSON value), not by its frame: counting frames let the
/// budget hold about 12 times its limit.
package final class ControlBudget: Sendable {
    package let limit: Int
    private let usedBytes = Atomic<Int>(0)
    private let peakBytes = Atomic<Int>(0)

    package init(limit: Int) {
        self.limit = limit
    }

    /// Reserves `count` bytes: true, or false (nothing reserved) when they do not fit.
    package func reserve(_ count: Int) -> Bool {
        guard count > 0 else { return true }
        var current = usedBytes.load(ordering: .relaxed)
        while true {
            guard current <= limit - count else { return false }
            let (exchanged, original) = usedBytes.compareExchange(
                expected: current,
                desired: current + count,
                ordering: .relaxed
            )
            if exchanged {
                peakBytes.max(current + count, ordering: .relaxed)
                return true
            }
            current = original
        }
    }

    /// Returns `count` reserved bytes.
    package func release(_ count: Int) {
        guard count > 0 else { return }
        usedBytes.subtract(count, ordering: .relaxed)
    }

    /// The bytes reserved now.
    package var used: Int { usedBytes.load(ordering: .relaxed) }

    /// The most ever reserved at once (for tests of the bound).
    package var peak: Int { peakBytes.load(ordering: .relaxed) }
}
