import Protocol
import Synchronization
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

    /// The first request of A is held mid-way: A's second waits for it, B's does not.
    @Test func aRequestInProgressHoldsUpItsScenesNextOnly() async {
        let (events, log) = AsyncStream.makeStream(of: String.self)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let held = Mutex<AsyncStream<Void>.Iterator?>(release.makeAsyncIterator())
        let requests = AppSceneRequests()
        requests.setHandlers(
            AppSceneRequests.Handlers(
                perform: { opener, change in
                    log.yield("start \(opener) \(change.name)")
                    if case .requestSceneSessionDestruction("A-1") = change {
                        var iterator = held.withLock { $0.take() }
                        _ = await iterator?.next()
                    }
                    log.yield("end \(opener) \(change.name)")
                },
                refuse: { opener, change in log.yield("refused \(opener) \(change.name)") }
            )
        )
        var seen = events.makeAsyncIterator()
        requests.request(from: "A", Self.close("A-1"))
        #expect(await seen.next() == "start A requestSceneSessionDestruction")
        requests.request(from: "A", Self.open)
        requests.request(from: "B", Self.open)
        #expect(await seen.next() == "start B requestSceneSessionActivation")
        #expect(await seen.next() == "end B requestSceneSessionActivation")
        #expect(requests.waitingCount == 1)
        releaser.yield()
        #expect(await seen.next() == "end A requestSceneSessionDestruction")
        #expect(await seen.next() == "start A requestSceneSessionActivation")
        #expect(await seen.next() == "end A requestSceneSessionActivation")
        #expect(requests.waitingCount == 0)
    }

    @Test func aRequestBeyondTheLineIsRefusedThroughTheHandler() async {
        let (events, log) = AsyncStream.makeStream(of: String.self)
        let (release, releaser) = AsyncStream.makeStream(of: Void.self)
        let held = Mutex<AsyncStream<Void>.Iterator?>(release.makeAsyncIterator())
        let requests = AppSceneRequests()
        requests.setHandlers(
            AppSceneRequests.Handlers(
                perform: { opener, change in
                    if case .requestSceneSessionDestruction("hold") = change {
                        log.yield("holding")
                        var iterator = held.withLock { $0.take() }
                        _ = await iterator?.next()
                    }
                },
                refuse: { opener, change in log.yield("refused \(opener) \(change.name)") }
            )
        )
        var seen = events.makeAsyncIterator()
        requests.request(from: "A", Self.close("hold"))
        #expect(await seen.next() == "holding")
        for _ in 0..<AppRequestQueue.maximumWaitingPerScene { requests.request(from: "A", Self.open) }
        requests.request(from: "A", Self.open)
        #expect(await seen.next() == "refused A requestSceneSessionActivation")
        #expect(requests.waitingCount == AppRequestQueue.maximumWaitingPerScene)
        releaser.yield()
    }
}
