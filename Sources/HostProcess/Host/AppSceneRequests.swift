import Protocol
import SceneModel

/// Where a scene sends the scene requests its app makes (`requestSceneSessionActivation`,
/// `requestSceneSessionDestruction`, docs/LIFECYCLE.md §3c): the host carries them out on the
/// scenes they name, outside the requesting scene's own queue, one asking scene's requests
/// one after another in order (`AppRequestQueue`), each line drained by a child task of the
/// host's (`HostTasks`).
package final class AppSceneRequests: Sendable {
    /// What carries out a request.
    package typealias Perform = @Sendable (_ opener: String, _ change: AppChange) async -> Void

    /// Why a request was not carried out.
    package enum Refusal: Sendable, Equatable {
        /// The asking scene has `AppRequestQueue.maximumWaitingPerScene` requests waiting.
        case lineFull
        /// Apps opened `SceneHost.maximumAppOpenedWindows` windows in this host already.
        case tooManyWindows
        /// The host quits: it starts nothing more.
        case quitting
    }

    private struct State: Sendable {
        package var perform: Perform?
        package var queue = AppRequestQueue()
    }

    private let state = Locked(State())
    private let tasks: HostTasks

    /// Drains the lines as children of `tasks`.
    package init(tasks: HostTasks) {
        self.tasks = tasks
    }

    /// Sets what carries out a request (set once by the host).
    package func setPerformer(_ perform: @escaping Perform) {
        state.withLock { $0.perform = perform }
    }

    /// How many requests wait behind the ones in progress.
    package var waitingCount: Int { state.withLock { $0.queue.waitingCount } }

    /// The app of scene `opener` asked for `change`: queued to be carried out, or refused
    /// (nil, or why). A refused request changed nothing; the caller records the refusal.
    package func request(from opener: String, _ change: AppChange) -> Refusal? {
        let (perform, enqueued) = state.withLock { state -> (Perform?, AppRequestQueue.Enqueued) in
            guard let perform = state.perform else { return (nil, .full) }
            return (perform, state.queue.enqueue(change, from: opener))
        }
        // The host sets its performer before it has a scene; without one, no host is left.
        guard let perform else { return .quitting }
        switch enqueued {
        case .startDrain:
            guard tasks.run({ await self.drain(opener, with: perform) }) else {
                // The host quits. A scene's requests come one at a time from its own turn on
                // the loop, so the line holds this one only.
                state.withLock { $0.queue.abandon(opener) }
                return .quitting
            }
            return nil
        case .queued:
            return nil
        case .full:
            return .lineFull
        }
    }

    private func drain(
        _ opener: String,
        with perform: @Sendable (_ opener: String, _ change: AppChange) async -> Void
    ) async {
        while let change = state.withLock({ $0.queue.next(from: opener) }) {
            await perform(opener, change)
        }
    }
}

extension AppSceneRequests.Refusal {
    /// The `error` event that refuses `change` on the asking scene `opener`.
    package func event(refusing change: AppChange, from opener: String) -> TraceEvent {
        let (code, message): (ProtocolError.Code, String) =
            switch self {
            case .lineFull:
                (
                    .resourceExhausted,
                    "this scene's app has \(AppRequestQueue.maximumWaitingPerScene) scene requests waiting "
                        + "already, the most the host keeps; ask again once they are carried out"
                )
            case .tooManyWindows:
                (
                    .illegalTransition,
                    "apps opened \(SceneHost.maximumAppOpenedWindows) windows already, the most one host opens"
                )
            case .quitting:
                (.operationFailed, "the host is quitting: it opens and closes no more windows")
            }
        return TraceEvent(kind: .error, scene: opener, op: change.name, code: code.rawValue, message: message)
    }
}
