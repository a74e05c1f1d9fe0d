import Synchronization

/// A scene's mailbox: an `AsyncStream` of mail that one task drains, plus a count of the
/// mail posted and not yet started, so that the scene can tell when nothing waits.
final class SceneMailbox<Mail: Sendable>: Sendable {
    let stream: AsyncStream<Mail>
    private let continuation: AsyncStream<Mail>.Continuation
    private let pending = Atomic<Int>(0)
    private let closed = Atomic<Bool>(false)

    init() {
        (stream, continuation) = AsyncStream<Mail>.makeStream(bufferingPolicy: .unbounded)
    }

    /// Queues `mail`; false once the mailbox is closed (the mail is dropped).
    @discardableResult
    func post(_ mail: Mail) -> Bool {
        // Counted before it is yielded: whoever sees the count at zero sees no mail in the stream.
        pending.add(1, ordering: .sequentiallyConsistent)
        if case .terminated = continuation.yield(mail) {
            pending.subtract(1, ordering: .sequentiallyConsistent)
            return false
        }
        return true
    }

    /// The draining task has started one mail.
    func started() {
        pending.subtract(1, ordering: .sequentiallyConsistent)
    }

    /// Whether no mail is waiting or being handed to the draining task.
    var isEmpty: Bool { pending.load(ordering: .sequentiallyConsistent) == 0 }

    /// Ends the stream once the mail already posted is drained; later posts fail.
    func close() {
        closed.store(true, ordering: .sequentiallyConsistent)
        continuation.finish()
    }

    var isClosed: Bool { closed.load(ordering: .sequentiallyConsistent) }
}
