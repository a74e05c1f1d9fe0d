import HostTools
import SceneModel
import Testing

@testable import HostProcess

/// The recorder's in-memory history across its chunk boundaries: appends, drops from the
/// front (the history limit) and reads keep the events' order.
@Suite struct TraceHistoryChunkTests {
    private static func event(_ seq: Int) -> TraceEvent { TraceEvent(seq: seq, kind: .host, name: "e") }

    @Test func appendsDropsAndReadsAcrossChunks() {
        var history = TraceHistory()
        let total = TraceHistory.chunkSize * 2 + 10
        for seq in 1...total { history.append(Self.event(seq), size: seq) }
        #expect(history.count == total)
        // Each event counts the size it was appended with, until it is dropped.
        #expect(history.bytes == (1...total).reduce(0, +))
        #expect(history.events.map(\.seq) == Array(1...total))

        // Drop past the first chunk's end, into the second.
        let drop = TraceHistory.chunkSize + 5
        for seq in 1...drop {
            #expect(history.first?.seq == seq)
            history.removeFirst()
        }
        #expect(history.count == total - drop)
        #expect(history.bytes == (drop + 1...total).reduce(0, +))
        #expect(history.first?.seq == drop + 1)
        #expect(history.map(\.seq) == Array(drop + 1...total))

        for seq in total + 1...total + 3 { history.append(Self.event(seq), size: seq) }
        while history.count > 1 { history.removeFirst() }
        #expect(history.events.map(\.seq) == [total + 3])
        #expect(history.bytes == total + 3)
        history.removeFirst()
        #expect(history.count == 0 && history.first == nil && history.events.isEmpty && history.bytes == 0)
        history.append(Self.event(1), size: 7)
        #expect(history.events.map(\.seq) == [1] && history.bytes == 7)
    }

    /// What an event's size estimate counts for its slot is the slot's size.
    @Test func anEventsSizeCountsItsSlotAsItIs() {
        #expect(MemoryLayout<TraceHistory.Slot>.stride == TraceEvent.historySlotBytes)
    }
}
