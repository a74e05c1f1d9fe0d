/// Sessions discarded that the app has not heard of yet (docs/LIFECYCLE.md §3c): the host's
/// `didDiscardSceneSessions` event is recorded on the discarded scene, and the app delegate
/// of a running worker of the app (another scene's) gets it too, else the next worker
/// launched, right after `didFinishLaunching`.
///
/// Shared by every scene of one host. At most `maximumPending` identifiers wait; older ones
/// beyond that are dropped (the app hears of the newest).
package final class DiscardMailbox: Sendable {
    /// The most identifiers that wait for a worker.
    package static let maximumPending = 256

    private let pending = Locked<[String]>([])
    /// Asked to offer the pending sessions to every scene but the one named (set by the host).
    private let listener = Locked<(@Sendable (String) -> Void)?>(nil)

    package init(_ initial: [String] = []) {
        pending.withLock { $0 = Array(initial.suffix(Self.maximumPending)) }
    }

    /// Sets what is called when a scene's session is discarded.
    package func setListener(_ listener: @escaping @Sendable (String) -> Void) {
        self.listener.withLock { $0 = listener }
    }

    /// Adds `identifiers` (no duplicates), keeping the newest `maximumPending`.
    package func add(_ identifiers: [String]) {
        pending.withLock { pending in
            for identifier in identifiers where !pending.contains(identifier) { pending.append(identifier) }
            if pending.count > Self.maximumPending { pending.removeFirst(pending.count - Self.maximumPending) }
        }
    }

    /// Records the discard of `identifier` and asks the other scenes to deliver it.
    package func discarded(_ identifier: String) {
        add([identifier])
        let listener = listener.withLock { $0 }
        listener?(identifier)
    }

    /// Takes every pending identifier, oldest first.
    package func takeAll() -> [String] {
        pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }
}
