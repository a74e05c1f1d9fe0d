import HostTools
import SceneModel
import Testing

@testable import HostProcess

/// The event loop's table of watched children (`WatchTable`): ids found by index, and a
/// removed watch's id never finding the watch that reuses its slot. Pure: no loop.
struct WatchTableTests {
    @Test func anIdFindsItsWatchUntilItIsRemoved() {
        var table = WatchTable<String>()
        let first = table.insert("first")
        let second = table.insert("second")
        #expect(first != second)
        #expect(table[first] == "first")
        #expect(table[second] == "second")
        table[first] = "first, updated"
        #expect(table[first] == "first, updated")
        table[first] = nil
        #expect(table[first] == nil)
        #expect(table.count == 1)
        #expect(table.values == ["second"])
    }

    @Test func aStaleIdFindsNothingOnceItsSlotIsReused() {
        var table = WatchTable<String>()
        let old = table.insert("old")
        table[old] = nil
        let new = table.insert("new")
        #expect(new != old, "the slot is reused with a new generation")
        #expect(table[old] == nil)
        #expect(table[new] == "new")
        // Setting through a stale id changes nothing, neither adds nor removes.
        table[old] = "stale"
        table[old] = nil
        #expect(table[new] == "new")
        #expect(table.count == 1)
    }

    @Test func idsLeaveRoomForTheLoopsTokenBits() {
        var table = WatchTable<Int>()
        var ids: [UInt64] = []
        for round in 0..<1000 {
            let id = table.insert(round)
            ids.append(id)
            if round % 3 != 0 { table[id] = nil }
        }
        // Never 0 (the wake-up's token); shifted by two, never bit 63 (descriptor tokens).
        #expect(ids.allSatisfy { $0 != 0 && ($0 << 2) & (1 << 63) == 0 && ($0 << 2) >> 2 == $0 })
        #expect(table.count == 334)
        #expect(Set(ids).count == ids.count)
    }

    @Test func generationsWrapWithinTheirBitsAndSkipZero() {
        let last = WatchTable<Int>.generationMask
        #expect(WatchTable<Int>.generation(after: 1) == 2)
        #expect(WatchTable<Int>.generation(after: last - 1) == last)
        #expect(WatchTable<Int>.generation(after: last) == 1, "0 would make slot 0's id the wake-up's token")
        // The largest id, generation and index at their widest, still leaves bit 63 and the
        // two source bits free.
        let widest = last << 32 | 0xFFFF_FFFF
        #expect((widest << 2) >> 2 == widest && (widest << 2) & (1 << 63) == 0)
    }

    @Test func unknownIdsFindNothing() {
        var table = WatchTable<String>()
        _ = table.insert("only")
        #expect(table[0] == nil)
        #expect(table[UInt64(1) << 32 | 7] == nil)
        #expect(table[UInt64(2) << 32] == nil)
    }
}
