import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// An app's scene requests are carried out in the order it made them, one at a time, and
/// never wait behind another scene's (LIFECYCLE.md §3c). No processes.
@Suite struct AppRequestQueueTests {
    private static let open = AppChange.requestSceneSessionActivation(session: nil, activityType: nil, userInfo: nil)
    private static func close(_ scene: String) -> AppChange { .requestSceneSessionDestruction(session: scene) }

    @Test func aScenesRequestsComeOutInOrderAndTheLineEndsWhenEmpty() {
        var queue = AppRequestQueue()
        #expect(queue.enqueue(Self.close("A-1"), from: "A") == .startDrain)
        #expect(queue.enqueue(Self.open, from: "A") == .queued)
        #expect(queue.next(from: "A") == Self.close("A-1"))
        // While the first is carried out, the second waits.
        #expect(queue.waitingCount == 1 && queue.isDraining("A"))
        #expect(queue.next(from: "A") == Self.open)
        #expect(queue.next(from: "A") == nil)
        #expect(!queue.isDraining("A"))
        // The drainer stopped: the next request starts another.
        #expect(queue.enqueue(Self.open, from: "A") == .startDrain)
    }

    @Test func scenesHaveLinesOfTheirOwn() {
        var queue = AppRequestQueue()
        #expect(queue.enqueue(Self.open, from: "A") == .startDrain)
        #expect(queue.enqueue(Self.close("B"), from: "B") == .startDrain)
        #expect(queue.next(from: "B") == Self.close("B"))
        #expect(queue.next(from: "A") == Self.open)
    }

    @Test func aFullLineRefusesAndChangesNothing() {
        var queue = AppRequestQueue()
        #expect(queue.enqueue(Self.open, from: "A") == .startDrain)
        // The drainer took the first: it is in progress, no longer waiting.
        #expect(queue.next(from: "A") == Self.open)
        for number in 0..<AppRequestQueue.maximumWaitingPerScene {
            #expect(queue.enqueue(Self.close("A-\(number)"), from: "A") == .queued)
        }
        let before = queue
        #expect(queue.enqueue(Self.close("A-x"), from: "A") == .full)
        #expect(queue.waitingCount == before.waitingCount)
        // Another scene is not held up by A's full line.
        #expect(queue.enqueue(Self.open, from: "B") == .startDrain)
        var drained: [AppChange] = []
        while let change = queue.next(from: "A") { drained.append(change) }
        #expect(drained.count == AppRequestQueue.maximumWaitingPerScene)
        #expect(drained.last == Self.close("A-\(AppRequestQueue.maximumWaitingPerScene - 1)"))
    }

    /// Requests carried out by a performer that logs what it does and holds `held` mid-way
    /// until `release()`; refusals are logged too.
    private struct HeldRequests {
        let tasks = HostTasks()
        let requests: AppSceneRequests
        private var seen: AsyncStream<String>.Iterator
        private let log: AsyncStream<String>.Continuation
        private let releaser: AsyncStream<Void>.Continuation

        init(holding held: AppChange) {
            let (events, log) = AsyncStream.makeStream(of: String.self)
            let (release, releaser) = AsyncStream.makeStream(of: Void.self)
            let waiter = Locked<AsyncStream<Void>.Iterator?>(release.makeAsyncIterator())
            requests = AppSceneRequests(tasks: tasks)
            requests.setPerformer { opener, change in
                log.yield("start \(opener) \(change.name)")
                if change == held {
                    var iterator = waiter.withLock { $0.take() }
                    _ = await iterator?.next()
                }
                log.yield("end \(opener) \(change.name)")
            }
            seen = events.makeAsyncIterator()
            self.log = log
            self.releaser = releaser
        }

        /// `opener`'s app asks for `change`; a refusal is logged.
        func request(from opener: String, _ change: AppChange) {
            if let refusal = requests.request(from: opener, change) {
                log.yield("refused \(opener) \(change.name) \(refusal)")
            }
        }

        /// The next thing a handler did.
        mutating func next() async -> String? { await seen.next() }

        func release() { releaser.yield() }
    }

    /// The first request of A is held mid-way: A's second waits for it, B's does not.
    @Test func aRequestInProgressHoldsUpItsScenesNextOnly() async {
        var held = HeldRequests(holding: Self.close("A-1"))
        held.request(from: "A", Self.close("A-1"))
        #expect(await held.next() == "start A requestSceneSessionDestruction")
        held.request(from: "A", Self.open)
        held.request(from: "B", Self.open)
        #expect(await held.next() == "start B requestSceneSessionActivation")
        #expect(await held.next() == "end B requestSceneSessionActivation")
        #expect(held.requests.waitingCount == 1)
        held.release()
        #expect(await held.next() == "end A requestSceneSessionDestruction")
        #expect(await held.next() == "start A requestSceneSessionActivation")
        #expect(await held.next() == "end A requestSceneSessionActivation")
        #expect(held.requests.waitingCount == 0)
    }

    @Test func aRequestBeyondTheLineIsRefusedThroughTheHandler() async {
        var held = HeldRequests(holding: Self.close("A-1"))
        held.request(from: "A", Self.close("A-1"))
        #expect(await held.next() == "start A requestSceneSessionDestruction")
        for _ in 0..<AppRequestQueue.maximumWaitingPerScene { held.request(from: "A", Self.open) }
        held.request(from: "A", Self.open)
        #expect(await held.next() == "refused A requestSceneSessionActivation lineFull")
        #expect(held.requests.waitingCount == AppRequestQueue.maximumWaitingPerScene)
        // Once released, all that waited is carried out, in order.
        held.release()
        #expect(await held.next() == "end A requestSceneSessionDestruction")
        for _ in 0..<AppRequestQueue.maximumWaitingPerScene {
            #expect(await held.next() == "start A requestSceneSessionActivation")
            #expect(await held.next() == "end A requestSceneSessionActivation")
        }
        #expect(held.requests.waitingCount == 0)
    }

    /// Once the host's tasks are finished (the host quits), a request that would start a
    /// drainer is refused, and the line it would have started is gone: nothing waits forever.
    @Test func aRequestAfterTheHostsTasksFinishedIsRefused() async {
        var held = HeldRequests(holding: Self.close("A-1"))
        await held.tasks.finish()
        held.request(from: "A", Self.open)
        #expect(await held.next() == "refused A requestSceneSessionActivation quitting")
        #expect(held.requests.waitingCount == 0)
        #expect(!held.tasks.run {})
    }
}
