import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// The model's parts agree with each other: an operation the host accepts leads to wire
/// operations the worker accepts, the checker accepts a transition exactly when the atom
/// table says it may start, and refusals name their reason.
@Suite struct LifecycleModelTests {
    /// The wire operation the host sends first for a legal request, and the worker's view
    /// of the scene at that moment (a suspended worker is resumed first). Nil when the host
    /// sends nothing to a worker (connect spawns one; kill, terminate of a non-running
    /// worker and a discard with no worker only signal or delete).
    static func firstWireOperation(
        _ op: LifecycleOperation,
        in state: SpecOracle
    ) -> (WorkerOperation, SceneSnapshot)? {
        var snapshot = state.snapshot
        snapshot.process = .running
        snapshot.hasAppeared = true
        let toBackground: WorkerOperation? = snapshot.activation.isForeground ? .enterBackground : nil
        let wire: WorkerOperation?
        switch op {
        case .activate: wire = .activate
        case .deactivate: wire = .deactivate
        case .background: wire = .enterBackground
        case .foreground: wire = .enterForeground
        case .disconnect: wire = toBackground ?? .disconnect
        case .discard: wire = state.states.process.isAlive ? toBackground ?? .disconnect : nil
        case .terminate: wire = state.states.process == .running ? toBackground ?? .terminate : nil
        case .push: wire = .push(viewController: "New")
        case .pop: wire = .pop
        case .resize: wire = .resize(width: 10, height: 10)
        case .memoryWarning: wire = .memoryWarning
        case .notify: wire = state.place == .suspended ? nil : .notify(name: "n", value: .null)
        case .beginBackgroundTask: wire = .beginBackgroundTask
        case .endBackgroundTask: wire = .endBackgroundTask
        case .present: wire = .present(viewController: "New", style: .fullScreen)
        case .dismiss: wire = .dismiss
        case .swipeDismiss: wire = .swipeDismiss(completes: true)
        case .swipeBack: wire = .swipeBack(completes: false)
        case .tap: wire = .tap
        case .selectTab: wire = .selectTab(index: 1)
        case .addChild: wire = .addChild(viewController: "New")
        case .removeChild: wire = .removeChild(viewController: "K")
        case .selectRow: wire = .user(.selectRow(section: 0, row: 0))
        case .typeText: wire = .user(.typeText(field: "f", text: "t"))
        case .tapControl: wire = .user(.tapControl(control: "c"))
        case .alertAction: wire = .user(.alertAction(title: "OK"))
        case .swipeRow: wire = .user(.swipeRow(section: 0, row: 0, edge: .trailing, action: nil))
        case .moveRow: wire = .user(.moveRow(section: 0, row: 0, toSection: 0, toRow: 1))
        case .inspect: wire = .inspect
        case .openURL, .continueUserActivity, .quickAction, .openNotification:
            guard state.states.process.isAlive else { return nil }
            switch op {
            case .openURL: wire = .openURL(url: "u")
            case .continueUserActivity: wire = .continueUserActivity(activityType: "t", userInfo: nil)
            case .quickAction: wire = .quickAction(type: "t", userInfo: nil)
            default: wire = .openNotification(actionIdentifier: "a", userInfo: nil)
            }
        case .remoteNotification:
            // With no live worker the push is a launch, not a request to a running scene.
            guard state.states.process.isAlive, state.place != .suspended else { return nil }
            wire = .remoteNotification(userInfo: nil)
        case .popToRoot: wire = .popToRoot
        case .connect, .kill, .memoryPressure, .waitFor, .sleep, .quit: wire = nil
        }
        return wire.map { ($0, snapshot) }
    }

    @Test func whatTheHostAcceptsTheWorkerAccepts() {
        for state in SpecOracle.reachableStates {
            for op in LifecycleOperation.allCases where op.refusal(in: state.snapshot) == nil {
                guard let (wire, snapshot) = Self.firstWireOperation(op, in: state) else { continue }
                #expect(
                    wire.refusal(in: snapshot) == nil,
                    "\(op) in \(state.summary): the worker would refuse \(wire.name): \(String(describing: wire.refusal(in: snapshot)))"
                )
            }
        }
    }

    /// The worker's background-only `stateRestoration`: the checker accepts its callback in
    /// background and nowhere else.
    @Test func stateRestorationIsABackgroundTransition() {
        var background = TraceBuilder()
        background.connectToForeground()
        background.toBackground()
        background.callback(.stateRestorationActivity)
        #expect(firstViolation(background.events) == nil)

        var foreground = TraceBuilder()
        foreground.connectToForeground()
        foreground.callback(.stateRestorationActivity)
        #expect(firstViolation(foreground.events)?.seq == foreground.events.count)

        let snapshot = SceneSnapshot(activation: .foregroundActive, process: .running, stackDepth: 1)
        #expect(WorkerOperation.stateRestoration.refusal(in: snapshot)?.requirement == .activation([.background]))
    }

    /// Refusals are typed: the unmet requirement, and a reason naming the state.
    @Test func refusalsNameTheirReason() {
        let background = SceneSnapshot(activation: .background, process: .suspended, stackDepth: 2, sessionExists: true)
        let activate = LifecycleOperation.activate.refusal(in: background)
        #expect(activate?.requirement == .activation([.foregroundInactive]))
        #expect(activate?.description == "cannot activate: the scene is background, not foregroundInactive")
        #expect(LifecycleOperation.memoryWarning.refusal(in: background)?.reason == "the worker is suspended")
        #expect(LifecycleOperation.notify.refusal(in: background) == nil)

        var discarded = SceneSnapshot(process: .terminated, isDiscarded: true)
        #expect(LifecycleOperation.activate.refusal(in: discarded)?.requirement == .notDiscarded)
        // Only a new session may follow a discard, under the same name.
        #expect(LifecycleOperation.connect.refusal(in: discarded) == nil)
        #expect(LifecycleOperation.openURL.refusal(in: discarded) == nil)
        discarded.isDiscarded = false
        #expect(LifecycleOperation.connect.refusal(in: discarded) == nil)
        // Host-wide and script operations are never refused.
        #expect(LifecycleOperation.quit.refusal(in: SceneSnapshot(isDiscarded: true)) == nil)

        let launching = SceneSnapshot(process: .launching, stackDepth: 1, sessionExists: true)
        #expect(LifecycleOperation.discard.refusal(in: launching)?.reason == "the worker is launching")
        #expect(LifecycleOperation.terminate.refusal(in: launching) == nil)
    }

    /// After a worker's death the host, like the checker, says `terminated` (§1).
    @Test func aDeadWorkerIsTerminated() {
        var lifecycle = SceneLifecycle()
        #expect(lifecycle.process == .none)
        lifecycle.launching(root: "Root")
        lifecycle.completed(.connect(ConnectOptions(session: "A")))
        lifecycle.processExited()
        #expect(lifecycle.process == .terminated)
        #expect(lifecycle.request(.connect()) == .perform([.launch(background: false, root: "Root")]))
    }

    /// Every scenario step op is the model's, with the model's fields.
    @Test func theScenarioParserReadsTheModel() throws {
        #expect(Scenario.stepOps == LifecycleOperation.allCases.map(\.rawValue).sorted())
        for op in LifecycleOperation.allCases {
            #expect(Scenario.fieldsByOp[op.rawValue] == Set(op.fields.map(\.name)))
        }
        #expect(throws: ScenarioError.self) {
            try Scenario.step(fromJSON: .object(["op": .string("push"), "scene": .string("A")]))
        }
        let step = try Scenario.step(
            fromJSON: .object(["op": .string("waitFor"), "scene": .string("A"), "process": .string("terminated")])
        )
        #expect(step.operation == .waitFor)
    }

    /// A swipe's defaults (section 0, the trailing edge, a full swipe), its JSON both ways, and
    /// what it refuses, naming the field.
    @Test func aSwipeStepReadsItsDefaultsAndRefusesABadEdge() throws {
        let full = try Scenario.step(fromJSON: ["op": "swipeRow", "scene": "A", "row": 2])
        #expect(full == .scene("A", .user(.swipeRow(section: 0, row: 2, edge: .trailing, action: nil))))
        let named: JSONValue = [
            "op": "swipeRow", "scene": "A", "row": 0, "section": 1, "edge": "leading", "action": "Pin",
        ]
        let step = try Scenario.step(fromJSON: named)
        #expect(step == .scene("A", .user(.swipeRow(section: 1, row: 0, edge: .leading, action: "Pin"))))
        #expect(JSONValue.object(step.jsonObject) == named)
        for bad: JSONValue in [
            ["op": "swipeRow", "scene": "A"], ["op": "swipeRow", "scene": "A", "row": 0, "edge": "left"],
            ["op": "swipeRow", "scene": "A", "row": 0, "action": ""],
        ] {
            #expect(throws: ScenarioError.self, "\(bad)") { try Scenario.step(fromJSON: bad) }
        }
        let move = try Scenario.step(fromJSON: ["op": "moveRow", "scene": "A", "row": 2, "toRow": 0, "section": 1])
        #expect(move == .scene("A", .user(.moveRow(section: 1, row: 2, toSection: 1, toRow: 0))), "the same section")
        #expect(throws: ScenarioError.self) { try Scenario.step(fromJSON: ["op": "moveRow", "scene": "A", "row": 2]) }
        var wire: [UInt8] = []
        let request = HostCommand.request(id: 7, .user(.swipeRow(section: 1, row: 0, edge: .leading, action: "Pin")))
        request.encode(into: &wire)
        #expect(try HostCommand(frame: Array(wire.dropLast())) == request)
        let edgeless = Array(#"{"id":1,"op":"swipeRow","section":0,"row":0,"edge":"up"}"#.utf8)
        #expect(throws: ProtocolError.self) { try HostCommand(frame: edgeless) }
    }
}
