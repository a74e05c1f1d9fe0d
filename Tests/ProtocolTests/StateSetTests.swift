import Testing

@testable import Protocol

/// The state sets requirements name: membership, the order they are listed in (the
/// documentation's and the refusals' words), and equality whatever the order written.
@Suite struct StateSetTests {
    @Test func activationStatesHoldWhatWasWrittenAndListTheForegroundFirst() {
        let set: ActivationStates = [.background, .foregroundActive]
        #expect(set.contains(.background) && set.contains(.foregroundActive))
        #expect(!set.contains(.foregroundInactive) && !set.contains(.unattached))
        #expect(Array(set) == [.foregroundActive, .background])
        #expect(set.count == 2 && !set.isEmpty && ActivationStates([]).isEmpty)
        #expect(set == [.foregroundActive, .background, .background])
        #expect(Array(ActivationStates(ActivationState.allCases)) == ActivationState.listingOrder)
        #expect(Set(ActivationState.listingOrder) == Set(ActivationState.allCases))
    }

    @Test func processStatesListInTheirDeclaredOrder() {
        let set: ProcessStates = [.terminated, .none]
        #expect(Array(set) == [.none, .terminated])
        #expect(set.contains(.none) && !set.contains(.running))
        #expect(Array(ProcessStates(ProcessState.allCases)) == ProcessState.allCases)
        #expect(LifecycleRequirement.noLiveWorker == .process([.terminated, .none]))
    }
}
