import Protocol
import SceneModel

/// Scenes that open scenes (docs/LIFECYCLE.md §3c): the host carries out what an app asked
/// for from its own code, as it would a user's request, and records the request first as a
/// `host` event on the scene it acts on, marked `origin: app`, naming the requesting scene.
extension SceneHost {
    /// The most new windows apps may open in one host: a request beyond it is refused (an
    /// `error` event on the asking scene), so an app asking in a loop cannot spawn without end.
    package static let maximumAppOpenedWindows = 64

    /// Carries out `change`, asked for by the app of scene `opener`. A refusal or failure is
    /// the target scene's (its `error` event); nothing is thrown back to the app. A request the
    /// host's quit overtook is refused on the asking scene, not dropped: every request the
    /// trace shows has an outcome there.
    package func performAppRequest(from opener: String, _ change: AppChange) async {
        guard !isQuitting else { return await refuseInTurn(change, from: opener, .quitting) }
        switch change {
        case .requestSceneSessionActivation(let session, let activityType, let userInfo):
            var target = session
            if target == nil { target = await newSceneIdentifier(openedBy: opener) }
            guard let target else { return await refuseInTurn(change, from: opener, .tooManyWindows) }
            // A named session opens a window too when nothing runs it: one cap for every
            // window apps open, however they name it.
            var reserved = session == nil
            if session != nil, await !isRunning(target) {
                guard let newlyReserved = reserveWindowName(target) else {
                    return await refuseInTurn(change, from: opener, .tooManyWindows)
                }
                reserved = newlyReserved
            }
            await onAppRequestTarget(target, of: change, from: opener) { handle in
                let status = await handle.status()
                if !status.process.isAlive {
                    var launch = LaunchParameters(activityType: activityType, userInfo: userInfo)
                    // A window an app process opens is the app's: it connects in that process (c13).
                    launch.app = await existingScene(opener)?.status.app
                    let launched = await carryOut(change, from: opener) {
                        try await handle.perform(.connect(launch: launch))
                    }
                    // A launch that failed opened no window: the name it reserved counts for
                    // nothing (a failed request changes nothing).
                    if !launched, reserved { _ = reservedWindowNames.withLock { $0.remove(target) } }
                } else if let activityType {
                    await carryOut(change, from: opener) {
                        try await handle.perform(.continueUserActivity(activityType: activityType, userInfo: userInfo))
                    }
                } else if status.activation == .background {
                    await carryOut(change, from: opener) { try await handle.perform(.foreground) }
                }
            }
        case .requestSceneSessionDestruction(let session):
            await onAppRequestTarget(session, of: change, from: opener) { handle in
                await carryOut(change, from: opener) { try await handle.perform(.discard) }
            }
        case .push, .pop, .popToRoot, .popTo, .beginBackgroundTask, .endBackgroundTask, .setStack, .replaceStack,
            .setTabs, .present, .dismiss, .selectTab, .addChild, .removeChild:
            return
        }
    }

    /// Refuses `change` with an `error` event on the asking scene, in that scene's turn: its
    /// app asked from a callback, and the transition it asked in (or a later one, the request
    /// having waited in line) may still run.
    private func refuseInTurn(_ change: AppChange, from opener: String, _ reason: AppSceneRequests.Refusal) async {
        let event = reason.event(refusing: change, from: opener)
        if let scene = existingScene(opener) {
            await scene.recordInTurn(event)
        } else {
            trace.record(event)
        }
    }

    /// Runs `operation` on the target of `change`. A refusal or failure there is the target's
    /// own `error` event, except the one of a quit that began meanwhile (the target refuses
    /// it without one): that is refused on the asking scene.
    /// Returns whether `operation` succeeded.
    @discardableResult
    private func carryOut(
        _ change: AppChange,
        from opener: String,
        _ operation: () async throws -> Void
    ) async -> Bool {
        do {
            try await operation()
            return true
        } catch HostError.shuttingDown {
            await refuseInTurn(change, from: opener, .quitting)
        } catch  where isQuitting {
            // The quit killed the window while it launched (LIFECYCLE.md §4: silently): the
            // quit overtook the request, which is refused as the quit's on the asking scene.
            await refuseInTurn(change, from: opener, .quitting)
        } catch {
            return false
        }
        return false
    }

    /// Records the request on `target` and runs `body` with the target's handle, as a
    /// client's request runs: a target that `body` left with nothing (a refused request for a
    /// made-up name) is forgotten again, so an app that names sessions in a loop holds no
    /// memory and no `ps` row for them. Nothing runs for a name no scene may have, and a
    /// request the host's quit overtook is refused as the quit's on the asking scene.
    private func onAppRequestTarget(
        _ target: String,
        of change: AppChange,
        from opener: String,
        _ body: (SceneHandle) async -> Void
    ) async {
        do {
            try await using(target) { controller in
                trace.record(
                    TraceEvent(
                        kind: .host,
                        scene: target,
                        name: change.name,
                        value: .object(["requestedBy": .string(opener)]),
                        origin: CallbackOrigin.app.rawValue
                    )
                )
                await body(SceneHandle(controller: controller, frameLimit: RequestLimits.frameLimit(configuration)))
            }
        } catch HostError.shuttingDown {
            await refuseInTurn(change, from: opener, .quitting)
        } catch {
            // An identifier no scene may have: the worker checks them and lets none through.
        }
    }

    /// Whether scene `identifier` has a live worker.
    private func isRunning(_ identifier: String) async -> Bool {
        guard let scene = existingScene(identifier) else { return false }
        return await scene.status.process.isAlive
    }

    /// Counts the window `name` against `maximumAppOpenedWindows`: whether this call counted
    /// it (false: it was counted before), nil when the cap is reached. A name counted once (a
    /// window the app closes and opens again) counts once.
    private func reserveWindowName(_ name: String) -> Bool? {
        reservedWindowNames.withLock { names in
            if names.contains(name) { return false }
            guard names.count < Self.maximumAppOpenedWindows else { return nil }
            names.insert(name)
            return true
        }
    }

    /// `A-1`, `A-2`, …: the first name after the opener's that no session, no scene in use
    /// (a mere handle, such as a script waiting for the window, does not count) and no
    /// earlier request took.
    private func newSceneIdentifier(openedBy opener: String) async -> String? {
        guard reservedWindowNames.withLock({ $0.count }) < Self.maximumAppOpenedWindows else { return nil }
        for number in 1...10_000 {
            let candidate = "\(opener)-\(number)"
            guard SceneSession.isValidIdentifier(candidate) else { return nil }
            guard sessions.session(candidate) == nil else { continue }
            if let existing = existingScene(candidate) {
                let status = await existing.status
                guard status.process == .none, !status.isDiscarded else { continue }
            }
            // Checked again where the name is taken: other requests may have taken the last
            // names while this one looked at the scenes.
            let reserved = reservedWindowNames.withLock { names -> Bool? in
                guard names.count < Self.maximumAppOpenedWindows else { return nil }
                return names.insert(candidate).inserted
            }
            guard let reserved else { return nil }
            if reserved { return candidate }
        }
        return nil
    }
}
