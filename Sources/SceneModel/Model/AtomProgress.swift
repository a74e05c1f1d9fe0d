import Protocol

/// What happened when an event was offered to the atom in progress.
package enum StepMatch {
    /// The event was the next step and has been consumed.
    case matched
    /// The event is not what the atom expects next; nothing was consumed.
    case mismatch
    /// Every remaining step was optional and none matched: the atom is over and the event
    /// must start a new one. Nothing was consumed.
    case atomFinished
}

/// The atom in progress: its steps and how far the trace has got. Consuming a plain step
/// only moves `position` (no allocation: this runs for every event the host records).
package struct AtomProgress: Sendable, Equatable {
    private var steps: [ExpectedStep]
    private var position = 0
    /// Marks passed over by the last match, not yet taken.
    private var passedMarks: [AtomMark] = []

    /// `steps`: what the atom still owes after its first callback.
    package init(_ steps: [ExpectedStep] = []) {
        self.steps = steps
    }

    /// The steps still owed, next first.
    package var remaining: ArraySlice<ExpectedStep> { steps[position...] }

    /// Whether a required step is still owed (optional trailing steps do not count).
    package var isInsideAtom: Bool { remaining.contains { !$0.isOptional } }

    /// Offers `event` to the remaining steps, next first, skipping optional steps it does
    /// not match. Changes nothing unless the result is `.matched`. `stack` resolves `.top`.
    package mutating func consume(_ event: TraceEvent, stack: [String]) -> StepMatch {
        var index = position
        var skippedMarks: [AtomMark] = []
        while index < steps.count {
            let step = steps[index]
            switch step {
            case .mark(let mark):
                skippedMarks.append(mark)
            case .callback, .state:
                guard step.matches(event, stack: stack) else { return .mismatch }
                position = index + 1
                if !skippedMarks.isEmpty { passedMarks += skippedMarks }
                return .matched
            case .oneOf(let alternatives):
                let taken = alternatives.first { alternative in
                    alternative.first.map { $0.matches(event, stack: stack) } ?? false
                }
                if let taken {
                    replaceStep(at: index, with: taken.dropFirst())
                    if !skippedMarks.isEmpty { passedMarks += skippedMarks }
                    return .matched
                }
                guard step.isOptional else { return .mismatch }
            case .moreLayoutPasses(let vc):
                if ExpectedStep.callback(.viewWillLayoutSubviews, vc: vc).matches(event, stack: stack) {
                    // One more pass: its second half, then possibly more.
                    replaceStep(at: index, with: [.callback(.viewDidLayoutSubviews, vc: vc), step])
                    if !skippedMarks.isEmpty { passedMarks += skippedMarks }
                    return .matched
                }
            }
            index += 1
        }
        return .atomFinished
    }

    /// Takes the next step when it is the state event `from` → `to`, as `consume` would
    /// match it (no mark or optional step before it); false, changing nothing, otherwise.
    package mutating func consumeNextState(from: ActivationState, to: ActivationState) -> Bool {
        guard position < steps.count, case .state(from, to) = steps[position] else { return false }
        position += 1
        return true
    }

    /// The marks the atom has reached: those passed over by the last match and those right
    /// after it (a mark counts as soon as the step before it matched).
    package mutating func takeMarks() -> [AtomMark] {
        // Most events pass no mark: then nothing is copied or emptied (appending nothing to
        // an array cost about 150 instructions, on every event the host records).
        if passedMarks.isEmpty {
            guard position < steps.count, case .mark = steps[position] else { return [] }
        }
        var marks = passedMarks
        passedMarks = []
        while position < steps.count, case .mark(let mark) = steps[position] {
            marks.append(mark)
            position += 1
        }
        return marks
    }

    /// Replaces the step at `index` (and everything before it) with `newSteps`.
    private mutating func replaceStep(at index: Int, with newSteps: some Collection<ExpectedStep>) {
        steps = Array(newSteps) + steps[(index + 1)...]
        position = 0
    }
}
