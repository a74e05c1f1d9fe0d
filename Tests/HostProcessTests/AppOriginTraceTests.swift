import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// Builds one scene's trace with `origin` on chosen callbacks (seq 1, 2, 3, …).
private struct AppTrace {
    var events: [TraceEvent] = []
    /// Marks the callbacks added while set.
    var origin: String?

    mutating func add(_ event: TraceEvent) {
        var event = event
        event.seq = events.count + 1
        events.append(event)
    }

    mutating func callback(_ name: CallbackName, _ vc: String? = nil) {
        add(TraceEvent(kind: .callback, scene: "A", name: name.rawValue, viewController: vc, origin: origin))
    }

    /// Adds the callbacks of `body` with origin `app`.
    mutating func app(_ body: (inout AppTrace) -> Void) {
        let saved = origin
        origin = CallbackOrigin.app.rawValue
        body(&self)
        origin = saved
    }

    mutating func state(_ from: ActivationState, _ to: ActivationState) {
        add(TraceEvent(kind: .state, scene: "A", from: from, to: to))
    }

    mutating func launch(restoring restored: [String] = []) {
        add(TraceEvent(kind: .process, scene: "A", processEvent: .spawned, pid: 42))
        callback(.willFinishLaunching)
        callback(.didFinishLaunching)
        callback(.willConnectTo)
        callback(.loadView, "Root")
        callback(.viewDidLoad, "Root")
        app { trace in
            for vc in restored {
                trace.callback(.loadView, vc)
                trace.callback(.viewDidLoad, vc)
            }
        }
    }

    mutating func firstAppearance(_ top: String = "Root") {
        callback(.viewWillAppear, top)
        callback(.viewIsAppearing, top)
        callback(.viewWillLayoutSubviews, top)
        callback(.viewDidLayoutSubviews, top)
        callback(.sceneWillEnterForeground)
        state(.unattached, .foregroundInactive)
        callback(.sceneDidBecomeActive)
        state(.foregroundInactive, .foregroundActive)
        callback(.viewDidAppear, top)
    }

    mutating func push(_ pushed: String, over top: String) {
        callback(.loadView, pushed)
        callback(.viewDidLoad, pushed)
        callback(.viewWillDisappear, top)
        callback(.viewWillAppear, pushed)
        callback(.viewIsAppearing, pushed)
        callback(.viewWillLayoutSubviews, pushed)
        callback(.viewDidLayoutSubviews, pushed)
        callback(.viewDidDisappear, top)
        callback(.viewDidAppear, pushed)
    }

    /// `belowLaysOut`: the revealed controller's layout is dirty (it never laid out, or the
    /// size changed since), so it lays out before it appears.
    mutating func pop(_ top: String, to below: String, belowLaysOut: Bool = false) {
        callback(.viewWillDisappear, top)
        callback(.viewWillAppear, below)
        callback(.viewIsAppearing, below)
        if belowLaysOut {
            callback(.viewWillLayoutSubviews, below)
            callback(.viewDidLayoutSubviews, below)
        }
        callback(.viewDidDisappear, top)
        callback(.viewDidAppear, below)
        callback(.deinit, top)
    }

    /// A pop from [Root, Detail, More, Extra] to the controller at `index`, its callbacks
    /// carrying `op: "popTo"` and `value: index` as the host records them: Detail's order.
    mutating func popToDetail(index: Int = 1, origin: String? = CallbackOrigin.app.rawValue) {
        for (name, vc) in [
            (CallbackName.viewWillDisappear, "Extra"), (.viewWillAppear, "Detail"), (.viewIsAppearing, "Detail"),
            (.deinit, "More"), (.viewDidDisappear, "Extra"), (.viewDidAppear, "Detail"), (.deinit, "Extra"),
        ] {
            add(
                TraceEvent(
                    kind: .callback,
                    scene: "A",
                    name: name.rawValue,
                    viewController: vc,
                    value: .int(index),
                    origin: origin,
                    op: "popTo"
                )
            )
        }
    }

    /// The app's replacement of the stack (`setViewControllers`) by the controllers at `kept`,
    /// the new ones `below` and `new` on top of `top`: the loads of `below`, a push's
    /// callbacks, then `released`'s deinits, each carrying `op: "replaceStack"`, and the first
    /// `loadView` the replacement as `value`, as the host records them.
    mutating func replaceStack(
        kept: [Int],
        below: [String] = [],
        new: String,
        over top: String,
        released: [String],
        origin: String? = CallbackOrigin.app.rawValue
    ) {
        let steps: [(CallbackName, String)] =
            below.flatMap { [(.loadView, $0), (.viewDidLoad, $0)] }
            + [
                (.loadView, new), (.viewDidLoad, new), (.viewWillDisappear, top), (.viewWillAppear, new),
                (.viewIsAppearing, new), (.viewWillLayoutSubviews, new), (.viewDidLayoutSubviews, new),
                (.viewDidDisappear, top), (.viewDidAppear, new),
            ] + released.map { (.deinit, $0) }
        for (position, (name, vc)) in steps.enumerated() {
            add(
                TraceEvent(
                    kind: .callback,
                    scene: "A",
                    name: name.rawValue,
                    viewController: vc,
                    // On the first loadView, as the host records it.
                    value: position == 0 ? StackReplacementValue(kept: kept, below: below, top: new).json : nil,
                    origin: origin,
                    op: "replaceStack"
                )
            )
        }
    }

    /// Resign active, enter background; `inside` runs right after `sceneDidEnterBackground`'s state event.
    mutating func toBackground(inside: (inout AppTrace) -> Void = { _ in }) {
        callback(.sceneWillResignActive)
        state(.foregroundActive, .foregroundInactive)
        callback(.sceneDidEnterBackground)
        state(.foregroundInactive, .background)
        inside(&self)
        callback(.stateRestorationActivity)
    }

    /// A launched scene on screen whose app pushed `names` in turn over its root.
    static func shown(pushing names: [String]) -> AppTrace {
        var t = AppTrace()
        t.launch()
        t.firstAppearance()
        for (top, pushed) in zip(["Root"] + names, names) {
            t.app { $0.push(pushed, over: top) }
        }
        return t
    }

    /// `shown(pushing:)`, then `body`: what a test checks after it.
    static func shown(pushing names: [String], then body: (inout AppTrace) -> Void) -> AppTrace {
        var t = shown(pushing: names)
        body(&t)
        return t
    }

    /// The first violation, with its event's seq.
    var violation: LifecycleViolation? {
        var verifier = TraceVerifier()
        for event in events {
            if let violation = verifier.check(event) { return violation }
        }
        return nil
    }
}

/// `hostctl verify` on app-initiated changes (docs/LIFECYCLE.md §3b): their callbacks, marked
/// `origin: "app"`, are atoms of their own or stand alone where the model allows them.
@Suite struct AppOriginTraceTests {
    @Test func anAppPushAndPopAreAccepted() {
        var t = AppTrace()
        t.launch()
        t.firstAppearance()
        t.app { $0.push("Detail", over: "Root") }
        t.app { $0.pop("Detail", to: "Root") }
        // Host navigation afterwards sees the stack the app left.
        t.push("More", over: "Root")
        t.app { $0.pop("More", to: "Root") }
        #expect(t.violation == nil)
    }

    /// `popToViewController`: accepted as the app's, to the controller its `value` names,
    /// which must be above the root and below the top; never the host's.
    @Test func anAppPopToAControllerIsCheckedAgainstTheIndexItNames() {
        func trace(_ pop: (inout AppTrace) -> Void) -> AppTrace {
            AppTrace.shown(pushing: ["Detail", "More", "Extra"], then: pop)
        }
        let accepted = trace { $0.popToDetail() }
        #expect(accepted.violation == nil)
        // Afterwards the stack is [Root, Detail]: the host pops Detail to the root.
        var after = accepted
        after.pop("Detail", to: "Root")
        #expect(after.violation == nil)

        // The index of another controller: More must appear, not Detail.
        let wrongIndex = trace { $0.popToDetail(index: 2) }
        #expect(wrongIndex.violation?.seq == wrongIndex.events.count - 5)
        #expect(wrongIndex.violation?.got == "callback viewWillAppear (vc Detail) with origin app")
        // The root is `popToRoot`'s, the top no pop at all; and only the app pops to a controller.
        for (index, origin) in [(0, "app"), (3, "app"), (1, nil)] as [(Int, String?)] {
            let refused = trace { $0.popToDetail(index: index, origin: origin) }
            #expect(refused.violation?.seq == refused.events.count - 6, "index \(index), origin \(origin ?? "host")")
        }
    }

    /// `setViewControllers` with a new top: accepted as the app's with the controllers its
    /// `value` keeps, the ones left out released top-most first; never the host's.
    @Test func anAppStackReplacementIsCheckedAgainstTheControllersItKeeps() {
        func trace(_ replace: (inout AppTrace) -> Void) -> AppTrace {
            AppTrace.shown(pushing: ["Detail", "More"], then: replace)
        }
        let accepted = trace { $0.replaceStack(kept: [0], new: "Home", over: "More", released: ["More", "Detail"]) }
        #expect(accepted.violation == nil)
        // Afterwards the stack is [Root, Home]: Home pops to the root, which lays out again
        // only if dirty (it is not).
        var after = accepted
        after.app { $0.pop("Home", to: "Root") }
        #expect(after.violation == nil)
        // Keeping Detail: only More goes, and Detail is below Home.
        var keepsDetail = trace {
            $0.replaceStack(kept: [0, 1], new: "Home", over: "More", released: ["More"])
        }
        keepsDetail.app { $0.pop("Home", to: "Detail") }
        #expect(keepsDetail.violation == nil)
        // Everything left out, the root too (a login's [Home]).
        let alone = trace {
            $0.replaceStack(kept: [], new: "Home", over: "More", released: ["More", "Detail", "Root"])
        }
        #expect(alone.violation == nil)

        // The released in the wrong order, or one kept released.
        let swapped = trace { $0.replaceStack(kept: [0], new: "Home", over: "More", released: ["Detail", "More"]) }
        #expect(swapped.violation?.seq == swapped.events.count - 1)
        let keptReleased = trace {
            $0.replaceStack(kept: [0, 1], new: "Home", over: "More", released: ["More", "Detail"])
        }
        #expect(keptReleased.violation?.seq == keptReleased.events.count)
        // Keeping every controller (that is a push), out of range, and the host's: refused at
        // the new top's loadView.
        for (kept, origin) in [([0, 1, 2], "app"), ([0, 5], "app"), ([0], nil)] as [([Int], String?)] {
            let refused = trace {
                $0.replaceStack(kept: kept, new: "Home", over: "More", released: ["More"], origin: origin)
            }
            #expect(refused.violation?.seq == refused.events.count - 9, "kept \(kept), origin \(origin ?? "host")")
        }
    }

    /// A deep link: the new controllers below the new top load first (the value names them
    /// all), then the new top is pushed; they pop afterwards as any other, laying out then.
    @Test func newControllersBelowTheNewTopAreCheckedByTheirNames() {
        func trace(_ replace: (inout AppTrace) -> Void) -> AppTrace {
            AppTrace.shown(pushing: ["Detail", "More"], then: replace)
        }
        var accepted = trace {
            $0.replaceStack(
                kept: [0],
                below: ["Inbox", "Thread"],
                new: "Message",
                over: "More",
                released: ["More", "Detail"]
            )
        }
        #expect(accepted.violation == nil)
        accepted.app {
            $0.pop("Message", to: "Thread", belowLaysOut: true)
            $0.pop("Thread", to: "Inbox", belowLaysOut: true)
            $0.pop("Inbox", to: "Root")
        }
        #expect(accepted.violation == nil)
        // Nothing kept: the old root goes too, and the first new controller is the root.
        var nothingKept = trace {
            $0.replaceStack(
                kept: [],
                below: ["Inbox"],
                new: "Message",
                over: "More",
                released: ["More", "Detail", "Root"]
            )
        }
        nothingKept.app { $0.pop("Message", to: "Inbox", belowLaysOut: true) }
        #expect(nothingKept.violation == nil)
        // Every controller kept: nothing released, the new ones above the old top.
        var keepsAll = trace {
            $0.replaceStack(kept: [0, 1, 2], below: ["Compose"], new: "Draft", over: "More", released: [])
        }
        keepsAll.app { $0.pop("Draft", to: "Compose", belowLaysOut: true) }
        keepsAll.app { $0.pop("Compose", to: "More") }
        #expect(keepsAll.violation == nil)

        // The events of [Inbox loads, Message is pushed over More, More and Detail go] are the
        // last 13: a load naming another controller than the value's, at the start or after
        // it, and the host's origin, are refused where they come.
        let start = 13
        let wrongFirst = trace {
            $0.replaceStack(kept: [0], below: ["Inbox"], new: "Message", over: "More", released: ["More", "Detail"])
            $0.events[$0.events.count - start].viewController = "Thread"
        }
        #expect(wrongFirst.violation?.seq == wrongFirst.events.count - start + 1)
        let misnamed = trace {
            $0.replaceStack(kept: [0], below: ["Inbox"], new: "Message", over: "More", released: ["More", "Detail"])
            $0.events[$0.events.count - start + 1].viewController = "Outbox"
        }
        #expect(misnamed.violation?.seq == misnamed.events.count - start + 2)
        let hosts = trace {
            $0.replaceStack(
                kept: [0],
                below: ["Inbox"],
                new: "Message",
                over: "More",
                released: ["More", "Detail"],
                origin: nil
            )
        }
        #expect(hosts.violation?.seq == hosts.events.count - start + 1)
    }

    /// The replacement's `value` has two forms, and anything else starts no replacement.
    @Test func theReplacementValueReadsItsTwoFormsOnly() {
        let long = StackReplacementValue(kept: [0, 2], below: ["Inbox"], top: "Thread")
        #expect(StackReplacementValue(long.json) == long)
        #expect(long.newControllers(firstLoaded: "Inbox") == ["Inbox", "Thread"])
        let short = StackReplacementValue(kept: [1], below: [], top: "Home")
        #expect(short.json == .array([.int(1)]))
        #expect(StackReplacementValue(short.json)?.newControllers(firstLoaded: "Home") == ["Home"])
        let kept = JSONValue.array([.int(0)])
        for malformed: JSONValue? in [
            nil, .int(0), .array([.int(1), .int(1)]), .array([.int(-1)]), .array([.string("0")]),
            .object(["kept": kept, "below": .array([]), "vc": .string("T")]),
            .object(["kept": kept, "below": .array([.string("")]), "vc": .string("T")]),
            .object(["kept": kept, "below": .array([.int(1)]), "vc": .string("T")]),
            .object(["kept": kept, "below": .array([.string("I")]), "vc": .int(1)]),
            .object(["kept": kept, "below": .array([.string("I")]), "vc": .string("")]),
            .object(["kept": .array([.int(2), .int(1)]), "below": .array([.string("I")]), "vc": .string("T")]),
            .object(["kept": kept, "below": .array([.string("I")]), "vc": .string("T"), "extra": .null]),
            .object(["kept": kept, "vc": .string("T")]),
        ] {
            #expect(StackReplacementValue(malformed) == nil, "\(String(describing: malformed))")
        }
    }

    @Test func aSwappedPairInsideAnAppPushIsRejected() {
        var t = AppTrace()
        t.launch()
        t.firstAppearance()
        t.app { trace in
            trace.callback(.loadView, "Detail")
            trace.callback(.viewWillDisappear, "Root")
            trace.callback(.viewDidLoad, "Detail")
        }
        #expect(t.violation?.seq == t.events.count - 1)
        #expect(t.violation?.got == "callback viewWillDisappear (vc Root) with origin app")
    }

    @Test func anAppPushInTheBackgroundIsRejected() {
        var t = AppTrace()
        t.launch()
        t.firstAppearance()
        t.toBackground()
        t.app { $0.push("Detail", over: "Root") }
        let violation = t.violation
        #expect(violation?.seq == t.events.count - 8)
        #expect(violation?.got == "callback loadView (vc Detail) with origin app")
    }

    @Test func anAppPopAtTheRootIsRejected() {
        var t = AppTrace()
        t.launch()
        t.firstAppearance()
        t.app { $0.callback(.viewWillDisappear, "Root") }
        #expect(t.violation?.seq == t.events.count)
    }

    @Test func originsDoNotMixInsideAnAtom() {
        // A host step inside the app's push.
        var host = AppTrace()
        host.launch()
        host.firstAppearance()
        host.app { trace in
            trace.callback(.loadView, "Detail")
            trace.callback(.viewDidLoad, "Detail")
        }
        host.callback(.viewWillDisappear, "Root")
        #expect(host.violation?.seq == host.events.count)

        // An app step inside the host's push.
        var app = AppTrace()
        app.launch()
        app.firstAppearance()
        app.callback(.loadView, "Detail")
        app.app { $0.callback(.viewDidLoad, "Detail") }
        #expect(app.violation?.seq == app.events.count)

        // The app's pop must end with its own deinit.
        var lastStep = AppTrace()
        lastStep.launch()
        lastStep.firstAppearance()
        lastStep.app { $0.push("Detail", over: "Root") }
        lastStep.app { trace in
            trace.pop("Detail", to: "Root")
            trace.events.removeLast()
        }
        lastStep.callback(.deinit, "Detail")
        #expect(lastStep.violation?.seq == lastStep.events.count)
    }

    @Test func theAppCannotDriveTheScenesStates() {
        var t = AppTrace()
        t.launch()
        t.firstAppearance()
        t.app { $0.callback(.sceneWillResignActive) }
        #expect(t.violation?.seq == t.events.count)
        #expect(t.violation?.expected.contains("no app-initiated") == true)
    }

    @Test func aBackgroundTaskBegunInsideSceneDidEnterBackgroundIsAccepted() {
        var t = AppTrace()
        t.launch()
        t.firstAppearance()
        t.toBackground { trace in trace.app { $0.callback(.beginBackgroundTask) } }
        // Ended later on its own, or from the expiration handler inside the host's expiration.
        t.callback(.backgroundTaskExpiration)
        t.app { $0.callback(.endBackgroundTask) }
        t.callback(.beginBackgroundTask)
        t.app { $0.callback(.endBackgroundTask) }
        #expect(t.violation == nil)
    }

    @Test func backgroundTasksFollowTheHostsRules() {
        // A second task while one runs.
        var second = AppTrace()
        second.launch()
        second.firstAppearance()
        second.app { $0.callback(.beginBackgroundTask) }
        #expect(second.violation == nil)
        second.callback(.beginBackgroundTask)
        #expect(second.violation?.seq == second.events.count)
        second.events.removeLast()
        second.app { $0.callback(.beginBackgroundTask) }
        #expect(second.violation?.seq == second.events.count)

        // An end without a task.
        var end = AppTrace()
        end.launch()
        end.firstAppearance()
        end.app { $0.callback(.endBackgroundTask) }
        #expect(end.violation?.seq == end.events.count)

        // Before the scene is attached (inside the launch).
        var early = AppTrace()
        early.launch()
        early.app { $0.callback(.beginBackgroundTask) }
        #expect(early.violation?.seq == early.events.count)

        // Between a callback and its state event.
        var split = AppTrace()
        split.launch()
        split.firstAppearance()
        split.callback(.sceneWillResignActive)
        split.app { $0.callback(.beginBackgroundTask) }
        #expect(split.violation?.seq == split.events.count)
    }

    @Test func aRestoredStackLoadsInsideTheLaunchAndIsKnownAfterwards() {
        var t = AppTrace()
        t.launch(restoring: ["List", "Detail"])
        t.firstAppearance("Detail")
        // Restored controllers never laid out: each lays out when a pop reveals it.
        t.pop("Detail", to: "List", belowLaysOut: true)
        t.app { $0.pop("List", to: "Root", belowLaysOut: true) }
        #expect(t.violation == nil)

        // The restored stack saved to the background and then disconnected deinits top first.
        var background = AppTrace()
        background.launch(restoring: ["Detail"])
        background.callback(.sceneDidEnterBackground)
        background.state(.unattached, .background)
        background.callback(.stateRestorationActivity)
        background.callback(.sceneDidDisconnect)
        background.state(.background, .unattached)
        background.callback(.deinit, "Detail")
        background.callback(.deinit, "Root")
        background.add(TraceEvent(kind: .process, scene: "A", processEvent: .exited, reason: .disconnected, status: 0))
        #expect(background.violation == nil)
    }

    @Test func restoredLoadsOnlyInsideTheLaunchAndInPairs() {
        // After the appearance: a lone app loadView is no push.
        var late = AppTrace()
        late.launch()
        late.firstAppearance()
        late.app { $0.callback(.loadView, "List") }
        late.callback(.viewDidLoad, "List")
        #expect(late.violation?.seq == late.events.count)

        // Before the root's viewDidLoad.
        var early = AppTrace()
        early.add(TraceEvent(kind: .process, scene: "A", processEvent: .spawned, pid: 42))
        early.callback(.willFinishLaunching)
        early.callback(.didFinishLaunching)
        early.callback(.willConnectTo)
        early.callback(.loadView, "Root")
        early.app { $0.callback(.loadView, "List") }
        #expect(early.violation?.seq == early.events.count)

        // A restored loadView not followed by its own viewDidLoad.
        var unpaired = AppTrace()
        unpaired.launch()
        unpaired.app { trace in
            trace.callback(.loadView, "List")
            trace.callback(.loadView, "Detail")
        }
        #expect(unpaired.violation?.seq == unpaired.events.count)
        #expect(unpaired.violation?.expected == "callback viewDidLoad (vc List) with origin app")

        // The root's own load is the host's.
        var root = AppTrace()
        root.add(TraceEvent(kind: .process, scene: "A", processEvent: .spawned, pid: 42))
        root.callback(.willFinishLaunching)
        root.callback(.didFinishLaunching)
        root.callback(.willConnectTo)
        root.app { $0.callback(.loadView, "Root") }
        #expect(root.violation?.seq == root.events.count)
    }

    @Test func onlyCallbacksCarryAnOriginAndOnlyApp() {
        var state = AppTrace()
        state.launch()
        state.firstAppearance()
        state.callback(.sceneWillResignActive)
        state.add(
            TraceEvent(kind: .state, scene: "A", from: .foregroundActive, to: .foregroundInactive, origin: "app")
        )
        #expect(state.violation?.seq == state.events.count)

        var other = AppTrace()
        other.launch()
        other.firstAppearance()
        other.origin = "system"
        other.callback(.beginBackgroundTask)
        #expect(other.violation?.seq == other.events.count)
    }

    @Test func aRefusedAppEventChangesNothing() {
        var t = AppTrace()
        t.launch()
        t.firstAppearance()
        var verifier = TraceVerifier()
        for event in t.events { #expect(verifier.check(event) == nil) }
        let before = verifier.checker(forScene: "A")
        var bad = TraceEvent(
            kind: .callback,
            scene: "A",
            name: "viewWillDisappear",
            viewController: "Root",
            origin: "app"
        )
        bad.seq = t.events.count + 1
        #expect(verifier.check(bad) != nil)
        #expect(verifier.checker(forScene: "A") == before)
        t.app { $0.push("Detail", over: "Root") }
        // Nothing of the refused event was taken, its seq neither: the next event takes it.
        for event in t.events.suffix(9) { #expect(verifier.check(event) == nil) }
    }

    @Test func aTraceFileWithAppChangesVerifies() {
        var t = AppTrace()
        t.launch(restoring: ["Detail"])
        t.firstAppearance("Detail")
        t.app { $0.pop("Detail", to: "Root", belowLaysOut: true) }
        var bytes: [UInt8] = []
        for event in t.events { event.appendJSONLine(to: &bytes) }
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""origin":"app""#))
        let result = TraceVerifier.verify(jsonLines: bytes)
        #expect(result.isValid, "\(String(describing: result.failure))")
        #expect(result.eventCount == t.events.count)
    }
}
