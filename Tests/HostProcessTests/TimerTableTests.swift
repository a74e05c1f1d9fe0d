import HostTools
import SceneModel
import Testing

@testable import HostProcess

@Suite struct TimerTableTests {
    @Test func everyFixedTimerHasASlotOfItsOwn() {
        let timers = SceneMachine.Timer.fixed
        #expect(Set(timers).count == timers.count)
        #expect(timers.count == TimerSlot.fixedCount)
        for (index, timer) in timers.enumerated() {
            guard case .fixed(let slot) = timer.slot else {
                Issue.record("\(timer) has no fixed slot")
                continue
            }
            #expect(slot == index, "\(timer)")
        }
    }

    @Test func keepsOneValuePerTimerAndForgetsRemovedOnes() {
        var table = TimerTable<Int>()
        for (index, timer) in SceneMachine.Timer.fixed.enumerated() { table[timer] = index }
        table[.waiter(7)] = 70
        table[.waiter(8)] = 80
        #expect(table.removeValue(forKey: .suspend) == 2)
        #expect(table.removeValue(forKey: .waiter(7)) == 70)
        #expect(table[.suspend] == nil)
        #expect(table[.waiter(7)] == nil)
        var expected: [SceneMachine.Timer: Int] = [.waiter(8): 80]
        for (index, timer) in SceneMachine.Timer.fixed.enumerated() where timer != .suspend {
            expected[timer] = index
        }
        #expect(table.dictionary == expected)
    }
}
