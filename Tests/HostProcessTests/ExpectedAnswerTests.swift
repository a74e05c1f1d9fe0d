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
