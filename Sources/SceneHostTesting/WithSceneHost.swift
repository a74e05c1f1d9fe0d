import HostProcess

/// Runs `body` with a new host and always quits it afterwards: when `body` returns, when it
/// throws, and as soon as the calling task is cancelled (the quit then makes the pending
/// operations of `body` fail, so that it ends). No worker outlives the call.
///
/// After the quit the host's trace is checked with `TraceVerifier.verify(_:)` (the lifecycle
/// model, and no worker event the host refused during the run): a violation is thrown as
/// `LifecycleViolation`. An error thrown by `body` wins over a violation. Pass
/// `verifiesTrace: false` for a run that breaks the model on purpose. (A history cut by
/// `traceHistoryLimitBytes` no longer starts at `seq` 1 and is not checked.)
///
/// ```swift
/// @Test func detailOpens() async throws {
///     let worker = try WorkerExecutable.builtProduct(named: "inbox-worker")
///     try await withSceneHost(configuration: .forTesting(worker: [worker])) { host in
///         let inbox = try host.scene("Inbox")
///         try await inbox.connect(root: "List")
///         try await inbox.push("Detail", payload: ["id": 1])
///     }
/// }
/// ```
public func withSceneHost<Result>(
    configuration: HostConfiguration,
    tracePath: String? = nil,
    verifiesTrace: Bool = true,
    isolation: isolated (any Actor)? = #isolation,
    _ body: (SceneHost) async throws -> Result
) async throws -> Result {
    let host = try SceneHost(configuration: configuration, tracePath: tracePath)
    let quitter = HostQuitter(host: host)
    let result: Result
    do {
        result = try await withTaskCancellationHandler {
            try await body(host)
        } onCancel: {
            Task { await quitter.quit() }
        }
    } catch {
        await quitter.quit()
        throw error
    }
    await quitter.quit()
    if verifiesTrace, host.trace.oldestHeldSeq == 1 {
        try TraceVerifier.verify(host.trace.history)
    }
    return result
}

/// Quits a host once, in a task of its own: a cancelled caller neither cuts the quit short
/// nor returns before it is over (a second `SceneHost.quit()` returns at once, before the
/// first one finished).
private actor HostQuitter {
    let host: SceneHost
    private var quitting: Task<Void, Never>?

    init(host: SceneHost) {
        self.host = host
    }

    func quit() async {
        let task: Task<Void, Never>
        if let quitting {
            task = quitting
        } else {
            let host = host
            task = Task.detached { await host.quit() }
            quitting = task
        }
        await task.value
    }
}
