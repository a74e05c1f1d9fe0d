import Glibc
import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// The property tests' independent oracle and its checks.
extension PropertyTests {
    /// The same seed gives the same stress plan; kills come at about the requested rate.
    @Test func stressPlansAreAFunctionOfTheSeed() {
        var options = StressOptions()
        options.ops = 5000
        options.killRate = 0.1
        #expect(StressPlan(options: options) == StressPlan(options: options))
        var other = options
        other.seed = 2
        #expect(StressPlan(options: options) != StressPlan(options: other))
        let actions = StressPlan(options: options).clients.flatMap { $0 }
        #expect(actions.count == 5000)
        #expect(Set(actions.map(\.id)).count == 5000)
        let kills = actions.filter { if case .kill = $0 { true } else { false } }.count
        #expect((350...650).contains(kills))
        // SplitMix64's reference output for seed 0.
        var generator = SeededGenerator(seed: 0)
        #expect(generator.next() == 0xE220_A839_7B1D_CDAF)
    }

    // MARK: Generating

    enum Step: Sendable, Hashable, CustomStringConvertible {
        case op(scene: String, SceneOperation)
        /// SIGKILL the scene's worker from outside the host, then wait until the host saw it.
        case crash(scene: String)

        var description: String {
            switch self {
            case .crash(let scene): return "crash \(scene)"
            case .op(let scene, let op):
                switch op {
                case .connect(let background, _, _, let launch):
                    let tabs = launch.tabs.map { " tabs \($0.joined(separator: ","))" } ?? ""
                    return "connect\(background ? "(background)" : "")\(tabs) \(scene)"
                case .selectTab(let index): return "selectTab \(index) \(scene)"
                case .push(let name, _): return "push \(name) \(scene)"
                case .notify(let name, let value): return "notify \(name)=\(value.jsonText) \(scene)"
                case .resize(let width, let height): return "resize \(width)x\(height) \(scene)"
                case .present(let name, let style, _): return "present \(name) \(style) \(scene)"
                case .addChild(let name): return "addChild \(name) \(scene)"
                case .removeChild(let name): return "removeChild \(name) \(scene)"
                case .swipeDismiss(let completes): return "swipeDismiss\(completes ? "" : "(cancelled)") \(scene)"
                case .swipeBack(let completes): return "swipeBack\(completes ? "" : "(cancelled)") \(scene)"
                default: return "\(op.name) \(scene)"
                }
            }
        }
    }

    /// Three steps in four are drawn among those the oracle says are legal (it runs along
    /// as the steps are drawn), the rest among all: deep states and refusals both.
    static func generate(seed: UInt64, count: Int) -> [Step] {
        generateWithEffects(seed: seed, count: count).steps
    }

    /// The steps, and what the oracle expects the apps to ask for along them (§3c).
    static func generateWithEffects(
        seed: UInt64,
        count: Int
    ) -> (steps: [Step], effects: [SpecAppWindows.Effect], windows: SpecAppWindows) {
        var generator = SeededGenerator(seed: seed)
        var containment = SeededGenerator(seed: seed &* 7919 &+ 14)
        var oracles: [String: SpecOracle] = [:]
        var windows = SpecAppWindows()
        var effects: [SpecAppWindows.Effect] = []
        var steps: [Step] = []
        func apply(_ step: Step) {
            steps.append(step)
            switch step {
            case .crash(let scene):
                oracles[scene, default: SpecOracle()].crashed()
            case .op(let scene, let op):
                var oracle = oracles[scene] ?? SpecOracle()
                let appBased = oracle.appBased
                var delivered: [String] = []
                if oracle.allows(op) { delivered = oracle.perform(op) }
                if oracle.shouldSuspend { oracle.suspended() }
                oracles[scene] = oracle
                effects += windows.apply(delivered: delivered, to: scene, appBased: appBased, oracles: &oracles)
            }
        }
        for index in 0..<count {
            let legalOnly = generator.chance(0.75)
            var step = randomStep(&generator, index: index, scenes: scenes)
            for _ in 0..<20 where legalOnly && !isLegal(step, oracles: oracles) {
                step = randomStep(&generator, index: index, scenes: scenes)
            }
            // Notifications for a suspended scene often, so that queues of several, with
            // repeated names, are merged on resume (§5).
            if let suspended = scenes.first(where: { oracles[$0]?.place == .suspended }), generator.chance(0.4) {
                step = .op(scene: suspended, .notify(name: index % 3 == 0 ? "mail" : "sync", value: .int(index)))
            }
            // §3c: the apps open and close windows, and the windows take steps (kills too).
            if generator.chance(0.2) {
                step = windowStep(&generator, index: index, oracles: oracles, windows: windows) ?? step
            }
            apply(step)
            if let child = containmentStep(&containment, index: index, scene: step.scene) { apply(child) }
        }
        return (steps, effects, windows)
    }

    /// A step of §3c: a scene's app asked to open a window (`openWindow`) or to close one of
    /// the first two it opened (`closeWindow` naming it), a window asked to close itself, or
    /// any step of an open window. The window notifications go to a window only while it is
    /// not suspended, so that none is held and delivered in the middle of another's discard.
    static func windowStep(
        _ generator: inout SeededGenerator,
        index: Int,
        oracles: [String: SpecOracle],
        windows: SpecAppWindows
    ) -> Step? {
        let base = generator.element(of: scenes)
        let open = windows.openWindows(oracles)
        switch generator.next(below: 10) {
        case 0..<3:
            return .op(scene: base, .notify(name: SpecAppWindows.openWindow, value: .int(index)))
        case 3..<5:
            let name = "\(base)-\(1 + generator.next(below: 2))"
            return .op(scene: base, .notify(name: SpecAppWindows.closeWindow, value: .string(name)))
        case 5:
            let awake = open.filter { oracles[$0]?.place != .suspended }
            guard !awake.isEmpty else { return nil }
            return .op(scene: generator.element(of: awake), .notify(name: SpecAppWindows.closeWindow, value: .null))
        case 6:
            // A window's worker crashes (its app's other windows run on).
            guard !open.isEmpty else { return nil }
            return .crash(scene: generator.element(of: open))
        default:
            guard !open.isEmpty else { return nil }
            // (Its notifications are `sync` and `mail`: no window notification.)
            return randomStep(&generator, index: index, scenes: open)
        }
    }

    static func isLegal(_ step: Step, oracles: [String: SpecOracle]) -> Bool {
        let oracle = oracles[step.scene] ?? SpecOracle()
        switch step {
        case .crash: return oracle.states.process.isAlive
        case .op(_, let op): return oracle.allows(op)
        }
    }

    /// Weighted toward the operations that move the state; `discard` is rare (it ends the scene).
    static func randomStep(_ generator: inout SeededGenerator, index: Int, scenes: [String]) -> Step {
        let scene = generator.element(of: scenes)
        let completes = generator.chance(0.5)
        let choices: [(weight: Int, make: () -> Step)] = [
            (10, { .op(scene: scene, .connect()) }),
            // §3a: a tab bar root (its first tab's root is the plain connect's), and tab switches,
            // in range or not.
            (4, { .op(scene: scene, .connect(launch: LaunchParameters(tabs: ["Root", "T1", "T2"]))) }),
            (6, { .op(scene: scene, .selectTab(index: index % 4)) }),
            (3, { .op(scene: scene, .connect(background: true)) }),
            // §3d: an app without scene support, and back to a scene-based one.
            (3, { .op(scene: scene, .connect(launch: LaunchParameters(lifecycle: .app))) }),
            (1, { .op(scene: scene, .connect(background: true, launch: LaunchParameters(lifecycle: .app))) }),
            (1, { .op(scene: scene, .connect(launch: LaunchParameters(lifecycle: .scene))) }),
            (7, { .op(scene: scene, .activate) }),
            (7, { .op(scene: scene, .deactivate) }),
            (8, { .op(scene: scene, .background) }),
            (8, { .op(scene: scene, .foreground) }),
            (7, { .op(scene: scene, .push(viewController: "P\(index)")) }),
            (6, { .op(scene: scene, .pop) }),
            (4, { .op(scene: scene, .resize(width: 300 + index, height: 200 + index)) }),
            (4, { .op(scene: scene, .memoryWarning) }),
            (4, { .op(scene: scene, .tap) }),
            (3, { .op(scene: scene, .openURL(url: "notes://\(index)")) }),
            (2, { .op(scene: scene, .continueUserActivity(activityType: "edit", userInfo: .int(index))) }),
            // §3f: the system's other ways in, and a pop to the root.
            (2, { .op(scene: scene, .quickAction(type: "compose", userInfo: .int(index))) }),
            (2, { .op(scene: scene, .openNotification(userInfo: .object(["id": .int(index)]))) }),
            (2, { .op(scene: scene, .remoteNotification(userInfo: .int(index))) }),
            (3, { .op(scene: scene, .popToRoot) }),
            (2, { .op(scene: scene, .present(viewController: "O\(index)", style: .overFullScreen)) }),
            (1, { .op(scene: scene, .present(viewController: "A\(index)", style: .alert)) }),
            (1, { .op(scene: scene, .present(viewController: "S\(index)", modalInPresentation: true)) }),
            (6, { .op(scene: scene, .notify(name: index % 2 == 0 ? "sync" : "mail", value: .int(index))) }),
            (4, { .op(scene: scene, .beginBackgroundTask) }),
            (4, { .op(scene: scene, .endBackgroundTask) }),
            (3, { .op(scene: scene, .disconnect) }),
            (2, { .op(scene: scene, .terminate) }),
            (2, { .op(scene: scene, .kill(signal: SIGKILLNumber)) }),
            (2, { .crash(scene: scene) }),
            (1, { .op(scene: scene, .discard) }),
            // §3a: presentations and the user's swipes, mixed with everything above.
            (4, { .op(scene: scene, .present(viewController: "M\(index)", style: .pageSheet)) }),
            (3, { .op(scene: scene, .present(viewController: "F\(index)", style: .fullScreen)) }),
            (3, { .op(scene: scene, .dismiss) }),
            (3, { .op(scene: scene, .swipeDismiss(completes: completes)) }),
            (3, { .op(scene: scene, .swipeBack(completes: completes)) }),
        ]
        return choices[generator.weighted(choices.map(\.weight))].make()
    }

    /// §3a: now and then a child of the frontmost controller added (again, too) or removed
    /// (absent, too) after a step. Drawn from a generator of its own in `generate`, so that
    /// every other step of a seed stays what it was before containment existed.
    static func containmentStep(_ generator: inout SeededGenerator, index: Int, scene: String) -> Step? {
        guard generator.chance(0.25) else { return nil }
        let name = "K\(index % 3)"
        let op: SceneOperation =
            generator.chance(0.6) ? .addChild(viewController: name) : .removeChild(viewController: name)
        return .op(scene: scene, op)
    }

    // MARK: The host's state machine

    /// Carries out a plan's steps on the host's pure state machine, each with its expected completion.
    /// Returns the notifications the plan delivers to the worker, in order.
    @discardableResult
    static func apply(
        _ steps: [SceneLifecycle.Step],
        to model: inout SceneLifecycle,
        scene: String,
        tabs: [String]? = nil,
        forPush: Bool = false
    ) -> [String] {
        var delivered: [String] = []
        for step in steps {
            switch step {
            case .launch(_, let root) where forPush:
                // Launched for a silent push: the app's process runs on with no scene (c20).
                model.launching(root: root)
                model.processExited()
            case .launch(let background, let root):
                model.launching(root: root)
                model.completed(
                    .connect(ConnectOptions(session: scene, background: background, root: root, tabs: tabs))
                )
            case .resume:
                model.resumed()
            case .deliverQueuedNotifications:
                for notification in model.takeQueuedNotifications() {
                    delivered.append("\(notification.name)=\(notification.value.jsonText)")
                }
            case .send(let op):
                if case .notify(let name, let value) = op { delivered.append("\(name)=\(value.jsonText)") }
                // The default worker's sheets are not modal in presentation: a completed swipe dismisses.
                if case .swipeDismiss(let completes) = op {
                    model.completed(op, result: .bool(completes))
                } else {
                    model.completed(op)
                }
            case .disconnectWorker, .terminateWorker, .signal:
                model.processExited()
            case .discardSession:
                model.discarded()
            case .queueNotification(let name, let value):
                model.queue(notification: name, value: value)
            }
        }
        return delivered
    }

    static func describe(_ model: SceneLifecycle) -> String {
        "\(model.activation)/\(model.process) stack \(model.stack) task \(model.hasBackgroundTask)"
            + presenting(model.presented?.name, model.presented?.style) + (model.isDiscarded ? " discarded" : "")
            + (model.tabs.isEmpty ? "" : " tab \(model.selectedTab)")
            + children(model.frontmostChildren) + (model.kind == .app ? " app" : "")
    }

    /// ` children ["K0"]`, as the oracle's summary writes the frontmost controller's children.
    static func children(_ names: [String]) -> String {
        names.isEmpty ? "" : " children \(names)"
    }

    /// ` presenting M sheet`, as the oracle's summary writes a presentation.
    static func presenting(_ name: String?, _ style: PresentationStyle?) -> String {
        guard let name, let style else { return "" }
        return " presenting \(name) \(style == .pageSheet ? "sheet" : "full")"
    }

    // MARK: Running

    static var configuration: HostConfiguration {
        var configuration = TestWorker.configuration()
        configuration.suspendDelay = .milliseconds(5)
        configuration.backgroundTaskLimit = .seconds(3600)
        return configuration
    }

    /// Runs one seed; on a failure, finds the shortest failing prefix and describes both.
    static func checkSeed(_ seed: UInt64) async -> String? {
        await checkSeed(seed, steps: generate(seed: seed, count: stepsPerSeed), runner: { await run($0) })
    }

    /// `checkSeed` over any runner, so that the shrinking and the report are tested on their own.
    static func checkSeed(
        _ seed: UInt64,
        steps: [Step],
        runner: ([Step]) async -> Failure?
    ) async -> String? {
        guard let failure = await runner(steps) else { return nil }
        var shortest = Array(steps.prefix(failure.step + 1))
        var shortestFailure = failure
        for length in 1..<shortest.count {
            let prefix = Array(steps.prefix(length))
            if let failure = await runner(prefix) {
                shortest = prefix
                shortestFailure = failure
                break
            }
        }
        return "seed \(seed): step \(failure.step + 1) (\(steps[failure.step])): \(failure.message)\n"
            + "  shortest failing prefix (\(shortest.count) steps, fails at step \(shortestFailure.step + 1): "
            + "\(shortestFailure.message)):\n    "
            + shortest.map(\.description).joined(separator: "; ")
    }

    struct Failure: Error {
        var step: Int
        var message: String
    }

    /// Runs `steps` on a fresh host; the first disagreement, if any.
    static func run(_ steps: [Step]) async -> Failure? {
        var windows = SpecAppWindows()
        var oracles: [String: SpecOracle] = [:]
        return await runSteps(steps) { step, host, verifier, verifiedCount in
            try await run(step, on: host, oracles: &oracles, windows: &windows)
            let all = scenes + windows.given
            try compare(host: host, scenes: all, oracles: oracles, verifier: &verifier, verifiedCount: &verifiedCount)
            for scene in all {
                try await compare(scene, host: host, oracle: oracles[scene] ?? SpecOracle())
            }
        }
    }

    static func run(
        _ step: Step,
        on host: SceneHost,
        oracles: inout [String: SpecOracle],
        windows: inout SpecAppWindows
    ) async throws {
        switch step {
        case .crash(let scene):
            let handle = try host.scene(scene)
            var oracle = oracles[scene] ?? SpecOracle()
            guard let pid = await handle.status().pid else {
                guard !oracle.states.process.isAlive else {
                    throw Failure(step: 0, message: "the host has no pid for a live worker")
                }
                return
            }
            guard Glibc.kill(pid, SIGKILL) == 0 else {
                throw Failure(step: 0, message: "kill(\(pid), SIGKILL) failed: errno \(errno)")
            }
            // §1: after any death the worker is `terminated` until the next spawn.
            try await handle.waitFor(process: .terminated, timeout: TestLimit.event)
            oracle.crashed()
            oracles[scene] = oracle

        case .op(let scene, let op):
            let handle = try host.scene(scene)
            var oracle = oracles[scene] ?? SpecOracle()
            let mark = host.lastSeq
            let legal = oracle.allows(op)
            try await perform(op, on: handle, legal: legal, in: oracle)
            if legal {
                let appBased = oracle.appBased
                let expected = oracle.perform(op)
                let delivered = host.trace.history
                    .filter {
                        $0.scene == scene && $0.seq > mark && $0.name == CallbackName.didReceiveNotification.rawValue
                    }
                    .map { "\($0.notification ?? "?")=\($0.value?.jsonText ?? "?")" }
                if delivered != expected {
                    throw Failure(
                        step: 0,
                        message: "notifications delivered \(delivered), the oracle expects \(expected)"
                    )
                }
                // §3c: what the app asked for on those notifications (it may close its own window).
                oracles[scene] = oracle
                let effects = windows.apply(delivered: expected, to: scene, appBased: appBased, oracles: &oracles)
                try await waitFor(effects, on: host, since: mark)
                oracle = oracles[scene] ?? oracle
            }
            // The app selects its saved tab again right after a reconnect (its own change).
            if [.connect, .foreground, .openURL, .continueUserActivity, .quickAction, .openNotification].contains(
                op.kind
            ), legal,
                oracle.tabRoots != nil, oracle.states.process.isAlive
            {
                let tab = oracle.shownTab
                do {
                    try await host.controller(scene).waitUntil("the restored tab", timeout: TestLimit.launch) {
                        $0.selectedTab == tab
                    }
                } catch {
                    throw Failure(step: 0, message: "the oracle expects tab \(tab) selected again: \(error)")
                }
            }
            // The app presents its saved controller again right after a reconnect (its own change).
            if op.kind == .connect || op.kind == .foreground, legal, let restored = oracle.presenting {
                do {
                    try await host.controller(scene).waitUntil("the restored presentation", timeout: TestLimit.launch) {
                        $0.presented == restored.vc
                    }
                } catch {
                    throw Failure(step: 0, message: "the oracle expects \(restored.vc) presented again: \(error)")
                }
            }
            // The app adds its saved children again right after a reconnect (its own changes).
            if [.connect, .foreground, .openURL, .continueUserActivity, .quickAction, .openNotification].contains(
                op.kind
            ), legal,
                !oracle.frontChildren.isEmpty
            {
                let expected = oracle.frontChildren
                do {
                    try await host.controller(scene).waitUntil("the restored children", timeout: TestLimit.launch) {
                        $0.children == expected
                    }
                    // The host follows a change when it arrives, before its callbacks: a request
                    // after it (one that changes no state) waits for them all.
                    try await handle.memoryWarning()
                } catch {
                    throw Failure(step: 0, message: "the oracle expects children \(expected) again: \(error)")
                }
            }
            if oracle.shouldSuspend {
                do {
                    try await handle.waitFor(process: .suspended, timeout: TestLimit.event)
                } catch {
                    throw Failure(
                        step: 0,
                        message: "the oracle expects the idle background scene to be suspended: \(error)"
                    )
                }
                oracle.suspended()
            }
            oracles[scene] = oracle
        }
    }

    /// Waits until the host carried out what the app asked for (§3c): each window opened is
    /// active, each closed one discarded, each refused close's refusal recorded.
    static func waitFor(_ effects: [SpecAppWindows.Effect], on host: SceneHost, since mark: Int) async throws {
        for effect in effects {
            do {
                switch effect {
                case .open(let window):
                    try await host.scene(window).waitFor(.foregroundActive, timeout: TestLimit.launch)
                case .close(let window):
                    try await host.controller(window).waitUntil("discarded", timeout: TestLimit.event) {
                        $0.isDiscarded
                    }
                case .refusedClose(let window):
                    _ = try await host.trace.firstEvent(fromSeq: mark + 1, within: TestLimit.event, "the refusal") {
                        $0.scene == window && $0.kind == .error && $0.op == LifecycleOperation.discard.rawValue
                    }
                }
            } catch {
                throw Failure(step: 0, message: "the oracle expects the app's request to end in \(effect): \(error)")
            }
        }
    }

    /// The host's status against the oracle.
    static func compare(_ scene: String, host: SceneHost, oracle: SpecOracle) async throws {
        let status = await (try host.scene(scene)).status()
        let actual =
            "\(status.activation)/\(status.process) stack \(status.stack) task \(status.hasBackgroundTask)"
            + presenting(status.presented, status.presentation) + (status.isDiscarded ? " discarded" : "")
            + (status.selectedTab.map { " tab \($0)" } ?? "")
            + children(status.children) + (status.lifecycle == .app ? " app" : "")
        if actual != oracle.summaryWithKind {
            throw Failure(
                step: 0,
                message: "scene \(scene): the host is \(actual), the oracle \(oracle.summaryWithKind)"
            )
        }
    }

    /// The trace so far against the oracle: it verifies, the live checker rejected nothing,
    /// and each scene's checker state (process state included: one terminal state) matches.
    static func compare(
        host: SceneHost,
        scenes: [String],
        oracles: [String: SpecOracle],
        verifier: inout TraceVerifier,
        verifiedCount: inout Int
    ) throws {
        let history = host.trace.history
        for event in history.dropFirst(verifiedCount) {
            if event.kind == .error && event.op == "protocol" {
                throw Failure(step: 0, message: "the host rejected a worker event: \(event.message ?? "")")
            }
            if let violation = verifier.check(event) {
                throw Failure(step: 0, message: "the trace breaks the model: \(violation)")
            }
        }
        verifiedCount = history.count
        for scene in scenes {
            let oracle = oracles[scene] ?? SpecOracle()
            let checker = verifier.checker(forScene: scene) ?? SceneTraceChecker()
            // The checker keeps the presented controllers on top of its stack.
            let presented = checker.presentation == nil ? nil : checker.stack.last
            let stack = Array(checker.stack.dropLast(checker.snapshot.presentationDepth))
            let traced =
                "\(checker.activation)/\(checker.processState) stack \(stack) task \(checker.hasBackgroundTask)"
                + presenting(presented, checker.presentation) + (checker.isDiscarded ? " discarded" : "")
                + (checker.tabCount > 0 ? " tab \(checker.selectedTab)" : "")
                + children(checker.children.last ?? [])
            if traced != oracle.summary {
                throw Failure(
                    step: 0,
                    message: "scene \(scene): the trace shows \(traced), the oracle \(oracle.summary)"
                )
            }
        }
    }
}
