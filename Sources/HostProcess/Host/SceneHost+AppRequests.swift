import Protocol

/// Scenes that open scenes (docs/LIFECYCLE.md §3c): the host carries out what an app asked
/// for from its own code, as it would a user's request, and records the request first as a
/// `host` event on the scene it acts on, marked `origin: app`, naming the requesting scene.
extension SceneHost {
    /// The most new windows apps may open in one host: a request beyond it is refused (an
    /// `error` event on the asking scene), so an app asking in a loop cannot spawn without end.
    static let maximumAppOpenedWindows = 64

    /// Carries out `change`, asked for by the app of scene `opener`. A refusal or failure is
    /// the target scene's (its `error` event); nothing is thrown back to the app.
    func performAppRequest(from opener: String, _ change: AppChange) async {
        switch change {
        case .requestSceneSessionActivation(let session, let activityType, let userInfo):
            var target = session
            if target == nil { target = await newSceneIdentifier(openedBy: opener) }
            guard let target else {
                // On the asking scene, in its turn: its app asked from a callback, and the
                // transition it asked in (or a later one, the request having waited in line)
                // may still run.
                let refusal = TraceEvent(
                    kind: .error,
                    scene: opener,
                    op: change.name,
                    code: ProtocolError.Code.illegalTransition.rawValue,
                    message: "apps opened \(Self.maximumAppOpenedWindows) windows already, the most one host opens"
                )
                if let scene = existingScene(opener) {
                    await scene.recordInTurn(refusal)
                } else {
                    trace.record(refusal)
                }
                return
            }
            record(change, on: target, from: opener)
            guard let handle = try? scene(target) else { return }
            let status = await handle.status()
            if !status.process.isAlive {
                let launch = LaunchParameters(activityType: activityType, userInfo: userInfo)
                try? await handle.perform(.connect(launch: launch))
            } else if let activityType {
                try? await handle.perform(.continueUserActivity(activityType: activityType, userInfo: userInfo))
            } else if status.activation == .background {
                try? await handle.perform(.foreground)
            }
        case .requestSceneSessionDestruction(let session):
            record(change, on: session, from: opener)
            try? await scene(session).perform(.discard)
        case .push, .pop, .beginBackgroundTask, .endBackgroundTask, .setStack, .present, .dismiss, .selectTab,
            .addChild, .removeChild:
            return
        }
    }

    /// Refuses `change`: `opener`'s app has `AppRequestQueue.maximumWaitingPerScene` requests
    /// waiting already (an app asking in a loop). An `error` event on the asking scene.
    func refuseAppRequest(from opener: String, _ change: AppChange) {
        trace.record(
            TraceEvent(
                kind: .error,
                scene: opener,
                op: change.name,
                code: ProtocolError.Code.resourceExhausted.rawValue,
                message: "this scene's app has \(AppRequestQueue.maximumWaitingPerScene) scene requests waiting "
                    + "already, the most the host keeps; ask again once they are carried out"
            )
        )
    }

    private func record(_ change: AppChange, on target: String, from opener: String) {
        guard SceneSession.isValidIdentifier(target) else { return }
        trace.record(
            TraceEvent(
                kind: .host,
                scene: target,
                name: change.name,
                value: .object(["requestedBy": .string(opener)]),
                origin: CallbackOrigin.app.rawValue
            )
        )
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
            let reserved = reservedWindowNames.withLock { names in names.insert(candidate).inserted }
            if reserved { return candidate }
        }
        return nil
    }
}
