import HostProcess
import Protocol

extension SceneHost {
    /// The `seq` of the newest event recorded so far (0 before any): pass it as `after` to
    /// `callbacks(of:after:)` to see only what comes next.
    public var lastEventSeq: Int {
        trace.history.last?.seq ?? 0
    }

    /// The callbacks of `scene` recorded after event `seq`, compact (`Root.viewDidLoad`,
    /// `sceneDidBecomeActive`). Every operation's callbacks are recorded by the time the
    /// operation returns.
    public func callbacks(of scene: String, after seq: Int = 0) -> [String] {
        trace.history.lazy.filter { $0.seq > seq }.callbacks(of: scene)
    }

    /// The callbacks of `scene` recorded while `body` ran.
    public func callbacks(
        of scene: String,
        isolation: isolated (any Actor)? = #isolation,
        during body: () async throws -> Void
    ) async throws -> [String] {
        let mark = lastEventSeq
        try await body()
        return callbacks(of: scene, after: mark)
    }

    /// Throws `CallbackOrderMismatch`, with a readable diff, unless the callbacks of `scene`
    /// after event `seq` are exactly `expected`.
    public func expectCallbacks(
        of scene: String,
        after seq: Int = 0,
        _ expected: [String],
        fileID: String = #fileID,
        line: Int = #line
    ) throws(CallbackOrderMismatch) {
        try SceneHostTesting.expectCallbacks(
            callbacks(of: scene, after: seq),
            expected,
            scene: scene,
            fileID: fileID,
            line: line
        )
    }

    /// What `scene` last saved for restoration (its `stateRestorationActivity` answer, stored
    /// when it entered the background); nil when it saved nothing or has no session.
    public func restoration(of scene: String) -> JSONValue? {
        sessions.session(scene)?.restoration
    }

    /// `restoration(of:)` decoded as `T` (nil when there is none); throws
    /// `JSONValueCodingError` naming the coding path when it does not decode.
    public func restoration<T: Decodable>(of scene: String, as type: T.Type) throws -> T? {
        try restoration(of: scene).map { try $0.decode(type) }
    }

    /// Checks every event held in memory with `TraceVerifier.verify(_:)`.
    public func verifyTrace() throws(LifecycleViolation) {
        try TraceVerifier.verify(trace.history)
    }
}
