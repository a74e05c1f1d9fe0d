import Testing

@testable import Protocol

/// The worker judges an operation that does not read the view hierarchy on a snapshot
/// without it (`WorkerOperation.readsViewHierarchy`): that is sound only if no hierarchy
/// field can change such an operation's verdict.
@Suite struct ViewHierarchyLegalityTests {
    /// One of each operation.
    static let operations: [WorkerOperation] = [
        .connect(ConnectOptions(session: "A")), .activate, .deactivate, .enterBackground, .enterForeground,
        .stateRestoration, .disconnect, .terminate, .push(viewController: "Detail"), .pop,
        .resize(width: 800, height: 600), .memoryWarning, .windowMemoryWarning, .notify(name: "n", value: .null),
        .beginBackgroundTask, .endBackgroundTask, .expireBackgroundTask,
        .present(viewController: "Sheet", style: .pageSheet), .popToRoot, .dismiss, .swipeDismiss(completes: true),
        .swipeBack(completes: true), .tap, .openURL(url: "notes://1"),
        .continueUserActivity(activityType: "edit", userInfo: nil), .quickAction(type: "new", userInfo: nil),
        .openNotification(actionIdentifier: "open", userInfo: nil), .remoteNotification(userInfo: nil),
        .didDiscardSceneSessions(sessions: ["B"]), .selectTab(index: 1), .addChild(viewController: "Child"),
        .removeChild(viewController: "Child"), .user(.tapControl(control: "Save")), .inspect,
    ]

    /// What a worker knows without walking its window, in every combination.
    static var sceneStates: [SceneSnapshot] {
        var states: [SceneSnapshot] = []
        for activation in ActivationState.allCases {
            for backgroundTask in BackgroundTaskState.allCases {
                for hasAppeared in [false, true] {
                    for lifecycle in LifecycleKind.allCases {
                        states.append(
                            SceneSnapshot(
                                activation: activation,
                                process: .running,
                                backgroundTask: backgroundTask,
                                hasAppeared: hasAppeared,
                                sessionExists: true,
                                lifecycle: lifecycle
                            )
                        )
                    }
                }
            }
        }
        return states
    }

    /// `state` with each view hierarchy the requirements tell apart: stack depths, nothing or
    /// something presented (at the depth limit too), tabs, the frontmost controller's children.
    static func hierarchies(of state: SceneSnapshot) -> [SceneSnapshot] {
        var variants: [SceneSnapshot] = []
        let presentations: [(PresentationStyle?, Int)] = [
            (nil, 0), (.pageSheet, 1), (.fullScreen, SceneSnapshot.maximumPresentationDepth),
        ]
        for stackDepth in [0, 1, 2] {
            for (presentation, depth) in presentations {
                for (tabCount, selectedTab) in [(0, 0), (3, 1)] {
                    for children in [[], ["Child"], (0..<SceneSnapshot.maximumChildren).map { "C\($0)" }] {
                        var variant = state
                        variant.stackDepth = stackDepth
                        variant.presentation = presentation
                        variant.presentationDepth = depth
                        variant.tabCount = tabCount
                        variant.selectedTab = selectedTab
                        variant.frontmostChildren = children
                        variants.append(variant)
                    }
                }
            }
        }
        return variants
    }

    @Test(arguments: operations)
    func aVerdictThatReadsNoViewIsTheSameInEveryHierarchy(_ operation: WorkerOperation) {
        guard !operation.readsViewHierarchy else { return }
        for state in Self.sceneStates {
            let verdict = operation.refusal(in: state)?.requirement
            for variant in Self.hierarchies(of: state) {
                #expect(
                    operation.refusal(in: variant)?.requirement == verdict,
                    "\(operation.name) in \(variant): the hierarchy changed the verdict"
                )
            }
        }
    }

    /// The grid above tells hierarchies apart: for each operation that reads one, some state
    /// has two hierarchies with different verdicts (else the test above could not fail).
    @Test func theHierarchiesChangeTheVerdictsOfTheOperationsThatReadThem() {
        let reading = Self.operations.filter { operation in
            operation.firstAtoms.contains(where: \.readsViewHierarchy)
        }
        #expect(reading.map(\.name).contains("pop"))
        #expect(reading.map(\.name).contains("present"))
        for operation in reading {
            let differs = Self.sceneStates.contains { state in
                Set(Self.hierarchies(of: state).map { operation.refusal(in: $0)?.requirement }).count > 1
            }
            #expect(differs, "\(operation.name): no hierarchy in the grid changes its verdict")
        }
    }

    @Test func theLifecycleTransitionsReadNoView() {
        let transitions: [WorkerOperation] = [.activate, .deactivate, .enterBackground, .enterForeground, .disconnect]
        for operation in transitions {
            #expect(!operation.readsViewHierarchy, "\(operation.name)")
        }
        for operation in [WorkerOperation.pop, .push(viewController: "A")] {
            #expect(operation.readsViewHierarchy, "\(operation.name)")
        }
    }

    /// The worker checks these operations' parameters against its window (a size, a tab, a
    /// child, a swipe) after their atoms' requirements: they always take the full snapshot,
    /// even where their atoms read no view (`addChild`'s needs only the foreground).
    @Test func theOperationsWithParametersCheckedAgainstTheWindowReadIt() {
        let checked: [WorkerOperation] = [
            .resize(width: 1, height: 1), .selectTab(index: 0), .addChild(viewController: "C"),
            .removeChild(viewController: "C"), .swipeDismiss(completes: true),
        ]
        for operation in checked {
            #expect(operation.readsViewHierarchy, "\(operation.name)")
        }
    }

    /// `operations` has every case: a new one fails to compile in `caseNumber` until it is
    /// numbered, then fails here until it has a sample.
    @Test func theSamplesCoverEveryOperation() {
        let numbers = Set(Self.operations.map(Self.caseNumber))
        #expect(numbers == Set(0..<Self.caseCount))
    }

    static let caseCount = 34

    static func caseNumber(_ operation: WorkerOperation) -> Int {
        switch operation {
        case .connect: 0
        case .activate: 1
        case .deactivate: 2
        case .enterBackground: 3
        case .enterForeground: 4
        case .stateRestoration: 5
        case .disconnect: 6
        case .terminate: 7
        case .push: 8
        case .pop: 9
        case .resize: 10
        case .memoryWarning: 11
        case .windowMemoryWarning: 12
        case .notify: 13
        case .beginBackgroundTask: 14
        case .endBackgroundTask: 15
        case .expireBackgroundTask: 16
        case .present: 17
        case .popToRoot: 18
        case .dismiss: 19
        case .swipeDismiss: 20
        case .swipeBack: 21
        case .tap: 22
        case .openURL: 23
        case .continueUserActivity: 24
        case .quickAction: 25
        case .openNotification: 26
        case .remoteNotification: 27
        case .didDiscardSceneSessions: 28
        case .selectTab: 29
        case .addChild: 30
        case .removeChild: 31
        case .user: 32
        case .inspect: 33
        }
    }
}
