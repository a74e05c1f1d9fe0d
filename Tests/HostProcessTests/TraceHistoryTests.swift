import HostProcess
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

/// A long-running host keeps a bounded trace history: large values cannot grow it for ever.
@Suite struct TraceHistoryTests {
    @Test func theHistoryKeepsTheNewestEventsWithinItsLimit() async throws {
        let recorder = try TraceRecorder(historyLimitBytes: 1 << 20)
        let large = JSONValue.string(String(repeating: "v", count: 60 << 10))
        for index in 0..<200 {
            recorder.record(TraceEvent(kind: .error, op: "flood", code: index, message: "\(index)"))
            recorder.record(TraceEvent(kind: .host, name: "noted", value: large))
        }
        let history = recorder.history
        // 200 values of 60 KiB: about 12 MiB recorded, at most 1 MiB held.
        #expect(history.count < 40)
        #expect(history.count > 10)
        #expect(history.last?.seq == 400)
        #expect(recorder.oldestHeldSeq == history.first?.seq)
        // Held events are contiguous and newest-last.
        #expect(zip(history, history.dropFirst()).allSatisfy { $0.seq + 1 == $1.seq })

        // A subscriber from seq 1 gets what is held, then the live events.
        var events = recorder.events(fromSeq: 1).makeAsyncIterator()
        #expect(await events.next()?.seq == history.first?.seq)
        recorder.finish()
    }

    @Test func manySmallEventsKeepTheWindowContiguousAcrossCompactions() throws {
        let recorder = try TraceRecorder(historyLimitBytes: 16 << 10)
        for index in 0..<5000 { recorder.record(TraceEvent(kind: .host, name: "tick \(index)")) }
        let history = recorder.history
        #expect(history.count > 20 && history.count < 200)
        #expect(history.last?.seq == 5000)
        #expect(history.last?.name == "tick 4999")
        #expect(zip(history, history.dropFirst()).allSatisfy { $0.seq + 1 == $1.seq })
    }

    @Test func aHostKeepsABoundedHistoryUnlessToldOtherwise() async throws {
        try await withSceneHost(configuration: HostConfiguration(worker: ["/bin/true"])) { host in
            #expect(host.configuration.traceHistoryLimitBytes == HostConfiguration.defaultTraceHistoryLimitBytes)
            let large = JSONValue.string(String(repeating: "v", count: 60 << 10))
            // About 72 MiB by the events' own estimate, over the 64 MiB default.
            for _ in 0..<1200 { host.trace.record(TraceEvent(kind: .host, name: "noted", value: large)) }
            #expect(host.trace.history.count < 1200)
            #expect((host.trace.oldestHeldSeq ?? 0) > 1)
        }
    }

    @Test func withoutALimitEveryEventIsHeld() throws {
        let recorder = try TraceRecorder()
        let large = JSONValue.string(String(repeating: "v", count: 60 << 10))
        for _ in 0..<100 { recorder.record(TraceEvent(kind: .host, name: "noted", value: large)) }
        #expect(recorder.history.count == 100)
        #expect(recorder.oldestHeldSeq == 1)
    }

    /// A follower whose wait was answered and then cancelled (a client of `events --follow`
    /// that hung up just as an event came) leaves nothing behind: such cancels were kept as
    /// "cancelled before waiting", one per follower, for the host's life.
    @Test func waitsCancelledAfterTheyEndedLeaveNothingBehind() async throws {
        let recorder = try TraceRecorder()
        for round in 0..<100 {
            let last = recorder.history.last?.seq ?? 0
            let waiting = Task { await recorder.waitForEvent(after: last) }
            var yields = 0
            while recorder.waitingCount != 1 {
                yields += 1
                guard yields < 100_000 else {
                    Issue.record("round \(round): the waiter never waited")
                    return
                }
                await Task.yield()
            }
            recorder.record(TraceEvent(kind: .host, name: "tick"))
            waiting.cancel()
            #expect(await waiting.value)
        }
        #expect(recorder.waiterRecordCount == 0)
        recorder.finish()
    }
}
