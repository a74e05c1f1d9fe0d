import Testing

@testable import Protocol

/// The steps the trace checker takes from `contextFreeRemainingSteps` instead of working them
/// out are what `remainingSteps(startedBy:in:)` gives in any scene: the table must not hold an
/// atom whose steps depend on the scene.
@Suite struct ContextFreeStepsTests {
    /// Scenes as different as the model's contexts get: empty, a deep stack with a dirty
    /// layout and children, a presentation, a tab bar with other tabs.
    static let contexts: [LifecycleAtom.Context] = [
        LifecycleAtom.Context(activation: .unattached, stack: [], sessionExists: false),
        LifecycleAtom.Context(
            activation: .foregroundActive,
            stack: ["Root", "List", "Detail"],
            sessionExists: true,
            presentation: .pageSheet,
            needsLayout: [false, true, true],
            children: [[], ["Panel"], ["Player", "Badge"]]
        ),
        LifecycleAtom.Context(
            activation: .background,
            stack: ["Home"],
            sessionExists: true,
            needsLayout: [true],
            selectedStack: ["Settings"],
            selectedNeedsLayout: [true],
            otherTabs: [["Settings", "About"]],
            children: [["Header"]],
            selectedChildren: [[]],
            otherTabChildren: [[[], ["Credits"]]]
        ),
    ]

    @Test(arguments: LifecycleAtom.allCases)
    func theTableHoldsExactlyTheStepsOfAnyScene(atom: LifecycleAtom) {
        guard let steps = atom.contextFreeRemainingSteps else { return }
        for context in Self.contexts {
            for controller in [nil, "Root", "Detail"] as [String?] {
                #expect(atom.remainingSteps(startedBy: controller, in: context) == steps)
            }
        }
    }

    @Test func theAtomsOfMostRequestsAreInTheTable() {
        for atom in [LifecycleAtom.becomeActive, .resignActive, .enterForeground, .appBecomeActive, .appResignActive] {
            #expect(atom.contextFreeRemainingSteps != nil)
        }
    }
}
