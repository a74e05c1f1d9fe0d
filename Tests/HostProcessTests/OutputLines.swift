import HostTools
import SceneModel

@testable import HostProcess

/// Output of a watched child, gathered on the loop thread.
final class OutputLines: Sendable {
    private let text = Locked("")
    private let waiter = Locked<(needle: String, continuation: CheckedContinuation<Void, Never>)?>(nil)

    func append(_ bytes: UnsafeRawBufferPointer) {
        let resumed: CheckedContinuation<Void, Never>? = text.withLock { text in
            text += String(decoding: bytes, as: UTF8.self)
            let current = text
            return waiter.withLock { waiter in
                guard let pending = waiter, current.contains(pending.needle) else { return nil }
                waiter = nil
                return pending.continuation
            }
        }
        resumed?.resume()
    }

    /// Returns once the output contains `needle`, or throws `TimedOut` after `limit` (by
    /// default a launch's: what the tests wait for is a `hostctl serve` saying it serves).
    func wait(for needle: String, within limit: Duration = TestLimit.launch) async throws {
        try await abandoning(after: limit, "\"\(needle)\" in the output") {
            await withCheckedContinuationFromAnyThread { continuation in
                let found = self.text.withLock { text in
                    if text.contains(needle) { return true }
                    self.waiter.withLock { $0 = (needle, continuation) }
                    return false
                }
                if found { continuation.resume() }
            }
        }
    }
}
