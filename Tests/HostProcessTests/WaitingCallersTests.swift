import HostTools
import SceneModel
import Testing

@testable import HostProcess

@Suite struct WaitingCallersTests {
    /// Each caller's continuation comes out once, whether it was kept in the searched array or
    /// in the dictionary past it, in any order of removal.
    @Test func everyCallerIsTakenOnceInAnyOrder() {
        var callers = WaitingCallers<Int>()
        let count = 1000
        for caller in 0..<count { callers.add(caller, caller * 10) }
        #expect(callers.count == count)
        var generator = SplitMix64(seed: 7)
        var order = Array(0..<count)
        for index in order.indices.reversed() {
            order.swapAt(index, Int(generator.next() % UInt64(index + 1)))
        }
        for caller in order {
            #expect(callers.remove(caller) == caller * 10)
            #expect(callers.remove(caller) == nil)
        }
        #expect(callers.count == 0)
    }

    /// A caller added after others were taken goes back to the searched array first.
    @Test func theSearchedArrayIsRefilledAfterRemovals() {
        var callers = WaitingCallers<Int>()
        let searched = WaitingCallers<Int>.searched
        for caller in 0..<(searched + 2) { callers.add(caller, caller) }
        #expect(callers.remove(0) == 0)
        callers.add(100, 100)
        #expect(callers.remove(searched + 1) == searched + 1)
        #expect(callers.remove(100) == 100)
        #expect(callers.remove(12_345) == nil)
        #expect(callers.count == searched)
    }
}
