import Protocol

/// What the worker says and how it ends.
extension SceneMachine {
    /// One decoded message from the worker, in the order the worker wrote it.
    package mutating func received(_ message: WorkerMessage) -> [Action] {
        // Read in place: `guard let worker` would copy the worker's state (its arrays and
        // dictionary retained and released) twice per transition, for one flag.
        guard worker != nil, !worker!.violated else { return finishEvent() }
        handle(message)
        // A reply folded into the callback's frame: handled as the frame after it would be,
        // once what the callback's frame led to is settled. One frame and one batch of
        // actions (the callback's and the reply's trace events recorded together) instead of
        // two, on every plain transition.
        if case .callback(let callback) = message, let requestID = callback.reply, worker != nil, !worker!.violated {
            settle()
            if worker != nil, !worker!.violated { handle(.reply(id: requestID, result: nil)) }
        }
        return finishEvent()
    }

    /// What one message does, before `finishEvent`.
    private mutating func handle(_ message: WorkerMessage) {
        if case .reply(let requestID, let result) = message {
            releaseRestorationCallback(answering: requestID, result)
        } else {
            releaseRestorationCallback()
        }
        switch message {
        case .ready(let version, _, let kind):
            let first = self.worker!.ready()
            if first { lifecycle.kind = kind }
            if !first {
                violation("second ready")
            } else if version != ProtocolVersion.current {
                violation("worker speaks protocol \(version), host \(ProtocolVersion.current)", code: .versionMismatch)
            }
        case .callback(let callback):
            receivedCallback(callback)
            // The notifications folded into its frame, each as if it had come in its own.
            // (Most frames fold none: their list is not even looked up.)
            guard callback.posted > 0 else { break }
            // One event, renamed for each: a new one per notification was made, copied and
            // destroyed twice (about 130 instructions each).
            var notification = CallbackEvent(callback.name)
            for name in callback.name.postedNotifications.prefix(callback.posted) {
                guard worker != nil, !worker!.violated else { break }
                notification.name = name
                receivedCallback(notification)
            }
        case .change(let change):
            receivedChange(change)
        case .reply(let requestID, let result):
            self.worker!.appChangeOpen = false
            receivedReply(requestID, result: result)
        case .failure(let requestID?, let error):
            self.worker!.appChangeOpen = false
            receivedFailure(requestID, error)
        case .failure(nil, let error):
            recordError(op: "worker", error.code, error.message)
        }
    }

    /// The worker broke the framing (an oversized or unreadable frame).
    package mutating func workerViolated(_ message: String, code: ProtocolError.Code = .invalidMessage) -> [Action] {
        violation(message, code: code)
        return finishEvent()
    }

    /// The worker's stdout reached EOF, or a write found its stdin closed, while it was not
    /// seen dead: it can never answer again. A dying worker closes its pipes a moment before
    /// its death is seen, so it is given `pipeClosedGrace` to be seen dead; alive and not
    /// exiting after that (`probeExiting`), it is killed as a protocol violation. A request in flight fails with the death.
    package mutating func pipeClosed(_ pipe: Pipe) -> [Action] {
        if worker != nil, worker!.closedPipe == nil {
            worker!.closedPipe = pipe
            arm(.pipeClosedGrace, after: configuration.pipeClosedGrace)
        }
        return finishEvent()
    }

    /// The kernel's answer once `pipeClosedGrace` passed: a worker that is exiting gets
    /// another grace (its death event is on its way); one that lives on is killed as a
    /// protocol violation.
    package mutating func exitProbed(exiting: Bool) -> [Action] {
        guard let pipe = worker?.closedPipe else { return finishEvent() }
        if exiting {
            arm(.pipeClosedGrace, after: configuration.pipeClosedGrace)
        } else {
            violation("closed its \(pipe.rawValue) but kept running for \(configuration.pipeClosedGrace)")
        }
        return finishEvent()
    }

    /// A write was refused whole (the worker left too much unread): the request in flight fails.
    package mutating func writeFailed(_ message: String) -> [Action] {
        if let flight = inFlight, case .reply(let requestID, let operation) = flight.wait {
            _ = worker?.answered(requestID)
            fail(
                .workerError(
                    scene: id,
                    op: operation.name,
                    ProtocolError(.operationFailed, "cannot write to the worker: \(message)")
                )
            )
        }
        return finishEvent()
    }

    /// The worker was reaped. `now`: for the restart intensity. `stderrTail`: its last
    /// stderr lines, for the error a request in flight fails with.
    package mutating func processExited(
        _ childExit: ChildExit,
        now: ContinuousClock.Instant,
        stderrTail: [String] = []
    ) -> [Action] {
        guard let worker, let pid = worker.pid else { return finishEvent() }
        releaseRestorationCallback()
        var status: Int32?
        var signal: Int32?
        switch childExit {
        case .exited(let code): status = code
        case .signaled(let number): signal = number
        }
        let exit = WorkerExit(
            pid: pid,
            reason: worker.reason(status: status, signal: signal),
            status: status,
            signal: signal
        )
        record(
            TraceEvent(
                kind: .process,
                scene: id,
                processEvent: .exited,
                pid: pid,
                reason: exit.reason,
                status: status,
                signal: signal.map(SignalNames.name(of:)),
                silent: worker.killedSilently && exit.reason == .killed ? true : nil
            )
        )
        if worker.tracedActivation != .unattached {
            record(TraceEvent(kind: .state, scene: id, from: worker.tracedActivation, to: .unattached))
        }
        let background = lifecycle.activation == .background
        let root = lifecycle.stack.first ?? "Root"
        self.worker = nil
        lastExit = exit
        lastExitDetail = WorkerExitDetail(
            status: status,
            signal: signal.map(SignalNames.name(of:)),
            violation: worker.violation,
            stderrTail: stderrTail,
            beforeReady: !worker.sawReady,
            argv: worker.argv,
            watchdogLimit: exit.reason == .watchdog ? watchdogLimit : nil
        )
        watchdogLimit = nil
        workerGone()
        considerRestart(after: exit, onPurpose: worker.endsOnPurpose, background: background, root: root, now: now)
        if let flight = inFlight {
            switch flight.wait {
            case .reply(_, let operation):
                // The scene is unattached before the caller hears of it, so its next request
                // is judged against the state the death left. The error names the caller's
                // request, and the step of it the worker died in when that is another (a
                // `foreground` delivering a queued `notify`: "during foreground (its notify step)").
                var op = operation.name
                if case .request(let requested, _) = flight.work, requested.name != op {
                    op = "\(requested.name) (its \(op) step)"
                }
                fail(.workerExited(scene: id, op: op, reason: exit.reason, detail: lastExitDetail ?? .init()))
            case .exit, .stop:
                cancel(.step)
                setWait(.none)
            case .none, .store, .spawn:
                break
            }
        }
        return finishEvent()
    }

    // MARK: Internals

    private mutating func receivedCallback(_ callback: CallbackEvent) {
        guard worker!.sawReady else {
            violation("callback before the handshake")
            return
        }
        // Every callback belongs to a request the worker is carrying out or to a change the
        // app made and the host checked; anything else would change the scene behind the
        // host's back.
        switch callback.origin {
        case .app?:
            guard worker!.appChangeOpen else {
                violation("callback \(callback.name) with origin app and no app change")
                return
            }
        case nil:
            guard !worker!.pending.isEmpty else {
                violation("unsolicited callback \(callback.name)")
                return
            }
            worker!.requestCallbackArrived()
        }
        // The app's navigation marks its callbacks; a background task it runs meanwhile is not
        // part of it.
        let appNavigation =
            callback.origin != nil && callback.name != .beginBackgroundTask && callback.name != .endBackgroundTask
        let event = TraceEvent(
            kind: .callback,
            scene: id,
            name: callback.name.rawValue,
            viewController: callback.viewController,
            restoration: callback.restoration,
            notification: callback.notification,
            value: callback.value ?? presentedStyleValue(callback)
                ?? (appNavigation ? appChangePopValue ?? appChangeReplacementValue(callback) : nil),
            origin: callback.origin?.rawValue,
            op: callback.origin == nil ? presentingOp : (appNavigation ? appChangeOp : nil),
            tab: callback.origin == nil ? selectingTab : (appNavigation ? worker!.appChangeTab : nil),
            tabCount: callback.name == .willConnectTo ? connectingTabCount : nil
        )
        if callback.name == .stateRestorationActivity || callback.name == .shouldSaveSecureApplicationState,
            callback.restoration == nil
        {
            // Recorded with the answer, which comes in the reply: held until the worker's
            // next message or end, so the scene's order in the trace is unchanged.
            heldRestorationCallback = event
            return
        }
        recordWorkerCallback(event, callback.name)
    }

    /// Records the held `stateRestorationActivity` callback: with `result` when that is the
    /// answer of a transition that saves the scene's state (the reply to request `requestID`).
    private mutating func releaseRestorationCallback(answering requestID: Int? = nil, _ result: JSONValue? = nil) {
        guard var event = heldRestorationCallback else { return }
        heldRestorationCallback = nil
        if let requestID, case .reply(requestID, let operation)? = inFlight?.wait {
            switch operation {
            case .enterBackground, .connect: event.restoration = result
            default: break
            }
        }
        recordWorkerCallback(event, CallbackName(named: event.name ?? "") ?? .stateRestorationActivity)
    }

    /// `present` while a present request runs: its callbacks begin as a push's do, and the
    /// trace names the operation so that the verifier can tell them apart (LIFECYCLE.md §3a).
    private var presentingOp: String? {
        guard case .reply(_, let operation)? = inFlight?.wait else { return nil }
        switch operation {
        case .present: return LifecycleOperation.present.rawValue
        case .selectTab: return LifecycleOperation.selectTab.rawValue
        case .popToRoot: return LifecycleOperation.popToRoot.rawValue
        default: return nil
        }
    }

    /// A presentation's style, on the presented controller's `loadView` (`value`): the trace
    /// tells the styles apart by it, as their callbacks are alike (LIFECYCLE.md §3a).
    ///
    /// Inlined, as `appChangeOp` is: called out of line from a mutating method, a
    /// non-mutating one got a copy of the whole machine (1.8 KB, about 200 instructions of
    /// memcpy), on every callback.
    @inline(__always)
    private func presentedStyleValue(_ callback: CallbackEvent) -> JSONValue? {
        guard callback.name == .loadView else { return nil }
        if callback.origin != nil { return worker!.appChangePresentStyle.map { .string($0.rawValue) } }
        guard case .reply(_, .present(_, let style, _))? = inFlight?.wait else { return nil }
        return .string(style.rawValue)
    }

    /// The `op` the callbacks of the open app change carry: `present`, `selectTab`,
    /// `popToRoot`, `popTo` or `replaceStack`, else none.
    @inline(__always)
    private var appChangeOp: String? {
        if worker!.appChangePresentStyle != nil { return LifecycleOperation.present.rawValue }
        if worker!.appChangeKept != nil { return LifecycleAtom.replaceStack.startingOp }
        if let target = worker!.appChangePopTarget {
            return target == 0 ? LifecycleOperation.popToRoot.rawValue : LifecycleAtom.popTo.startingOp
        }
        return worker!.appChangeTab == nil ? nil : LifecycleOperation.selectTab.rawValue
    }

    /// The index a pop to a controller above the root pops to, as its callbacks' `value`.
    private var appChangePopValue: JSONValue? {
        guard let target = worker!.appChangePopTarget, target > 0 else { return nil }
        return .int(target)
    }

    /// What a replaced stack keeps and adds, on its first `loadView` (`value`).
    private mutating func appChangeReplacementValue(_ callback: CallbackEvent) -> JSONValue? {
        guard callback.name == .loadView, let value = worker!.appChangeReplacementValue else { return nil }
        worker!.appChangeReplacementValue = nil
        return value
    }

    /// The tab count of the tab bar root a `connect` in flight launches, nil for one stack.
    private var connectingTabCount: Int? {
        guard case .reply(_, .connect(let options))? = inFlight?.wait else { return nil }
        return options.tabs?.count
    }

    /// The tab a `selectTab` request in flight selects: its callbacks carry it (`tab`).
    private var selectingTab: Int? {
        guard case .reply(_, .selectTab(let index))? = inFlight?.wait else { return nil }
        return index
    }

    private mutating func receivedReply(_ requestID: Int, result: JSONValue?) {
        guard worker!.answered(requestID) != nil else {
            violation("reply to unknown request \(requestID)")
            return
        }
        // A disconnect or terminate of a scene in its app's process, which runs on.
        if worker!.isShared, result == Self.detachedReply {
            switch inFlight?.wait {
            case .exit(requestID, _, _)?, .reply(requestID, .connect)?:
                // (A connect answered so launched the app for a silent push, with no scene, c20.)
                detach()
                return
            default:
                break
            }
        }
        guard case .reply(requestID, _)? = inFlight?.wait else { return }
        cancel(.step)
        // Moved out, `.none` left in its place: a copy of the operation, and the wait's
        // destruction through its value witnesses, cost about 150 instructions a reply.
        var answered = Wait.none
        swap(&answered, &inFlight!.wait)
        guard case .reply(_, let operation) = consume answered else { return }
        if case .inspect = operation { inFlight?.result = result ?? .null }
        lifecycle.completed(operation, result: result)
        switch operation {
        case .connect(let options):
            lastConnectedArgv = worker?.argv
            if options.background {
                storeRestoration(result)
            } else {
                storeConnectedWorker()
            }
        case .enterBackground:
            storeRestoration(result)
        case .enterForeground:
            cancelSuspension()
        case .beginBackgroundTask:
            startBackgroundTaskTimers()
        case .endBackgroundTask:
            cancelBackgroundTaskTimers()
            scheduleSuspension()
        case .remoteNotification:
            // A background app resumed for a silent push is suspended again after the delay.
            scheduleSuspension()
        default:
            break
        }
    }

    private mutating func receivedFailure(_ requestID: Int, _ error: ProtocolError) {
        guard let name = worker!.answered(requestID) else {
            violation("error for unknown request \(requestID)")
            return
        }
        guard let flight = inFlight else { return }
        switch flight.wait {
        case .reply(requestID, let operation):
            // The app's own change, reported while this request was on its way, can make the
            // request illegal (the app acts, the host follows, §3b): the worker refused it, and
            // the host refuses it as it would have after the change. Nothing changed.
            if flight.sawAppChange, case .request(let op, _) = flight.work,
                case .refuse(let reason) = lifecycle.request(op)
            {
                recordError(op: op.name, .illegalTransition, reason)
                fail(.refused(scene: id, op: op.name, reason: reason))
                return
            }
            // The trace says why a request did nothing (a resize to the window's size), as it
            // does for the host's refusals, under the request's name. The host's own work (a
            // restart, an expiration, discards) fails as before.
            if case .request(let op, _) = flight.work { recordError(op: op.name, error.code, error.message) }
            if case .connect = operation {
                // A worker that answers its launch with an error has no scene to run, and left
                // launching it would hold the scene (no watchdog runs once the answer came): it
                // is killed as a violation, and the caller hears of the failure at its death,
                // when the scene is unattached again.
                inFlight!.failure = .workerError(scene: id, op: operation.name, error)
                violation("it answered its launch with an error: \(error.message)", code: error.code)
                return
            }
            fail(.workerError(scene: id, op: operation.name, error))
        case .exit(requestID, true, _):
            fail(.workerError(scene: id, op: name, error))
        default:
            break
        }
    }

    /// Why the state a worker answered cannot be stored: it could not send it (its marker
    /// says why), or no connect frame could give it back. Nil when it can.
    private func unstorable(_ answer: JSONValue) -> String? {
        if let reason = SceneLimits.unsendableStateReason(answer) { return "the worker could not send it: \(reason)" }
        let size = Self.encodedSize(of: answer)
        guard size > maximumRestorationBytes else { return nil }
        return "the restoration state is \(size) bytes, more than a connect frame gives back "
            + "(\(maximumRestorationBytes) bytes with a frame limit of \(configuration.frameLimit))"
    }

    /// Stores the worker's restoration state durably; the transition counts as done only after.
    /// The suspension delay starts once it is stored (or at once, with nothing to store).
    /// A nil answer clears what an earlier one stored: as in UIKit, the session then has no
    /// state to restore (an app back on its first screen saves nothing).
    private mutating func storeRestoration(_ answer: JSONValue?) {
        let kind: LifecycleKind? = lifecycle.kind == .app ? .app : nil
        // A state the worker could send but no connect frame could give back would make the
        // session impossible to launch: it is not stored, the session keeps the state it had
        // (its worker and lifecycle are stored as usual), and the work fails once done, as
        // for a full disk (`storeFailed`); a discard does not fail for it.
        var result = answer
        if let answer, let refusal = unstorable(answer) {
            let op = inFlight.map { Self.operationName(of: $0.work) } ?? "background"
            let reason = refusal + ": not stored, the session keeps the state it had"
            recordError(op: op, .operationFailed, reason)
            if var flight = inFlight, !isDiscard(flight.work) {
                flight.storeFailure = flight.storeFailure ?? .sessionNotStored(scene: id, reason: reason)
                inFlight = flight
            }
            result = session?.restoration
        }
        guard
            result != nil || session?.restoration != nil || session?.lifecycle != kind
                || session?.worker != storedWorker(worker?.argv) || session?.app != storedApp
        else {
            scheduleSuspension()
            return
        }
        var stored = session ?? SceneSession(identifier: id)
        stored.restoration = result
        stored.lifecycle = kind
        stored.worker = storedWorker(worker?.argv)
        stored.app = storedApp
        inFlight?.storing = stored
        setWait(.store(.restoration))
        output.append(.storeSession(stored))
    }

    /// Stores the worker that just connected in the foreground, if it is not the one stored:
    /// a later host starts it again (the launch stored none, in case it never connected).
    private mutating func storeConnectedWorker() {
        guard session?.worker != storedWorker(worker?.argv) || session?.app != storedApp else {
            scheduleSuspension()
            return
        }
        var stored = session ?? SceneSession(identifier: id)
        stored.worker = storedWorker(worker?.argv)
        stored.app = storedApp
        inFlight?.storing = stored
        setWait(.store(.connectedWorker))
        output.append(.storeSession(stored))
    }

    /// The scene has no process any more (it died, or left its app's): nothing of it is
    /// timed or waited for.
    mutating func workerGone() {
        lifecycle.processExited()
        cancelSuspension()
        cancelBackgroundTaskTimers()
        cancel(.pipeClosedGrace)
        cancel(.killGrace)
        cancel(.quitDeadline)
        resumeKillWaiters()
    }

    /// What a session stores of the app whose process the scene runs in: nothing for a
    /// process of its own, nor for the one a silent push started for a scene of no app.
    private var storedApp: String? {
        scenelessApp == nil ? appName : session?.app
    }

    /// The worker broke the protocol: recorded once, then SIGKILLed with reason `protocol-violation`.
    package mutating func violation(_ message: String, code: ProtocolError.Code = .invalidMessage) {
        guard worker != nil, worker!.violate(message) else { return }
        releaseRestorationCallback()
        let pid = worker!.pid.map(String.init) ?? "?"
        recordError(op: "protocol", code, "protocol violation by pid \(pid): \(message)")
        sendKill(SIGKILLNumber, reason: .protocolViolation)
    }

    private mutating func considerRestart(
        after exit: WorkerExit,
        onPurpose: Bool,
        background: Bool,
        root: String,
        now: ContinuousClock.Instant
    ) {
        guard let policy = configuration.restartPolicy, !onPurpose, !isQuitting else { return }
        switch exit.reason {
        case .killed, .crashed, .watchdog, .protocolViolation: break
        default: return
        }
        guard restartIntensity.allowsRestart(at: now, policy: policy) else {
            recordError(
                op: "restart",
                .operationFailed,
                "gave up: more than \(policy.maximumRestarts) restarts within \(policy.window)"
            )
            return
        }
        enqueue(.restart(background: background, root: root))
    }
}
