import HostTools
import SceneModel
import Testing

@testable import HostProcess

/// Which answer the loop reads right after it yields (`EventLoop.yieldBeforeNextPoll`): the
/// one child written to since the last poll, and none in particular once two were.
@Suite struct ExpectedAnswerTests {
    /// Watch 5's stdin and stdout tokens, and watch 9's stdin token (`EventLoop.Source`).
    let fiveIn: UInt64 = 5 << 2 | 3
    let fiveOut: UInt64 = 5 << 2
    let nineIn: UInt64 = 9 << 2 | 3

    @Test func oneChildWrittenToIsTheAnswerToRead() {
        #expect(EventLoop.expectedAnswer(was: 0, thenWroteTo: fiveIn) == fiveOut)
        #expect(EventLoop.expectedAnswer(was: fiveOut, thenWroteTo: fiveIn) == fiveOut)
    }

    @Test func twoChildrenOrAnUnwatchedOneLeaveNoneInParticular() {
        let several = EventLoop.severalAnswers
        #expect(EventLoop.expectedAnswer(was: fiveOut, thenWroteTo: nineIn) == several)
        #expect(EventLoop.expectedAnswer(was: several, thenWroteTo: fiveIn) == several)
        #expect(EventLoop.expectedAnswer(was: 0, thenWroteTo: nil) == several)
        #expect(EventLoop.expectedAnswer(was: fiveOut, thenWroteTo: nil) == several)
    }
}

/// `ReadAheadRule`: epoll is left out at most seven turns in a row, and a turn that left it
/// out fires no timer and defers none.
@Suite struct ReadAheadRuleTests {
    @Test func epollIsAskedAtLeastEveryEighthTurn() {
        var rule = ReadAheadRule()
        for _ in 0..<ReadAheadRule.maximumSkipsInARow {
            #expect(rule.allowsSkip)
            _ = rule.turnEnded(skippedEpoll: true, waitSaidAll: false)
        }
        #expect(!rule.allowsSkip, "the eighth turn in a row asks epoll")
        _ = rule.turnEnded(skippedEpoll: false, waitSaidAll: true)
        #expect(rule.allowsSkip, "a turn that asked epoll starts the count again")
    }

    @Test func aTurnThatLeftEpollOutFiresNoTimer() {
        var rule = ReadAheadRule()
        var fires: Bool
        fires = rule.turnEnded(skippedEpoll: true, waitSaidAll: true)
        #expect(!fires)
        fires = rule.turnEnded(skippedEpoll: false, waitSaidAll: true)
        #expect(fires)
    }

    @Test func turnsThatLeftEpollOutDeferNoTimer() {
        var rule = ReadAheadRule()
        var fires: Bool
        // Eight full waits in a row defer the timers and the ninth fires them anyway; the
        // skipped turns between them count for nothing.
        for _ in 0..<ReadAheadRule.timerDeferralsInARow {
            fires = rule.turnEnded(skippedEpoll: false, waitSaidAll: false)
            #expect(!fires)
            fires = rule.turnEnded(skippedEpoll: true, waitSaidAll: false)
            #expect(!fires)
        }
        fires = rule.turnEnded(skippedEpoll: false, waitSaidAll: false)
        #expect(fires, "a flooded loop still fires")
        fires = rule.turnEnded(skippedEpoll: false, waitSaidAll: false)
        #expect(!fires)
    }
}
