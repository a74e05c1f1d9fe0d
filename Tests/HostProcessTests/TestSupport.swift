import Glibc
import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// The `hostctl` built next to the test bundle: the real worker the tests spawn.
enum TestWorker {
    static let hostctl: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let executable = String(decoding: buffer[0..<max(0, length)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var directory = executable
        while let slash = directory.lastIndex(of: "/"), !directory.isEmpty {
            directory = String(directory[..<slash])
            if access(directory + "/hostctl", X_OK) == 0 { return directory + "/hostctl" }
            if directory.hasSuffix("/.build") { break }
        }
        return "hostctl"
    }()

    /// The app of Tests/Fixtures/CustomWorker, built next to hostctl.
    static var customWorker: String {
        String(hostctl.dropLast("hostctl".count)) + "custom-worker-fixture"
    }

    /// The app of Tests/Fixtures/UIKitApp (`import UIKit`, `@main`), built next to hostctl.
    static var uikitApp: String {
        String(hostctl.dropLast("hostctl".count)) + "uikit-app-fixture"
    }

    /// A configuration with millisecond limits for tests.
    static func configuration(_ extra: [String] = [], stateDirectory: String? = nil) -> HostConfiguration {
        var configuration = HostConfiguration(worker: [hostctl, "worker"] + extra)
        configuration.suspendDelay = .milliseconds(50)
        // Safety nets only (tests of the watchdogs set their own): generous, because under a
        // sanitizer, with the whole suite starting workers at once on two cores, a healthy
        // worker's launch has been seen to take over 10 s, and its exit after terminate (its
        // leak check, its shadow memory) over 2 s.
        configuration.launchLimit = .seconds(60)
        configuration.transitionLimit = .seconds(30)
        configuration.terminateLimit = .seconds(10)
        configuration.backgroundTaskLimit = .milliseconds(500)
        configuration.forwardsWorkerStderr = false
        configuration.stateDirectory = stateDirectory
        // No worker started ahead (PrewarmedWorkerTests turn it on): hundreds of test hosts
        // each starting and killing one more sanitized worker made the ASan suite 2.6 times as
        // long, and its quits wait for the kills.
        configuration.prewarmedWorkers = 0
        return configuration
    }

    /// For tests that move a megabyte or so through a worker and are about size limits, not
    /// the watchdog: a sanitized worker in the full suite on two cores has taken over the
    /// usual 30 s for one such transition (1 MiB notify and push, ASan and TSan), against
    /// half a second alone.
    static func payloadConfiguration() -> HostConfiguration {
        var configuration = configuration()
        configuration.transitionLimit = .seconds(600)
        return configuration
    }
}

// Closures in macro arguments: a test's body in `withSceneHost { host in ... }` is a closure,
// and in a closure Swift 6.3 can give a closure written in a macro's argument (`try #require(
// events.last { ... })`, `#expect(events.contains { ... })`) the mangled name of a closure of
// the same type written after that macro outside any macro: both then run one of the two
// bodies, and the test checks a predicate it does not show, or computes the wrong value. (A
// function's own body is not affected.) Where a body has both, the first closure is taken out
// of its macro: `let last = events.last { ... }`, then `try #require(last)`.

extension TraceEvent {
    /// A compact form for exact-order assertions: `cb viewDidLoad Root`, `state background>unattached`,
    /// `process exited killed`.
    var compact: String {
        switch kind {
        case .callback: return "cb \(name ?? "?")" + (viewController.map { " \($0)" } ?? "")
        case .state: return "state \(from?.rawValue ?? "?")>\(to?.rawValue ?? "?")"
        case .process:
            return "process \(processEvent?.rawValue ?? "?")" + (reason.map { " \($0.rawValue)" } ?? "")
        case .host: return "host \(name ?? "?")"
        case .error: return "error \(op ?? "?")"
        }
    }
}

extension SceneHost {
    /// The compact events of one scene from `seq` on.
    func compactEvents(of scene: String, after seq: Int = 0) -> [String] {
        trace.history.filter { $0.scene == scene && $0.seq > seq }.map(\.compact)
    }

    /// The last seq recorded so far.
    var lastSeq: Int { trace.history.last?.seq ?? 0 }

    /// Every event verifies against the model, and the host produced no event the model
    /// refused (the recorder counts those as it records them: a host defect).
    func verifyTrace() -> LifecycleViolation? {
        if let defect = trace.hostDefects.first.first { return defect }
        var verifier = TraceVerifier()
        for event in trace.history {
            if let violation = verifier.check(event) { return violation }
        }
        return nil
    }
}

extension SceneHost {
    /// The pids of every worker this host spawned that still exists.
    func livingWorkerPids() -> [Int32] {
        trace.history.filter { $0.processEvent == .spawned }.compactMap(\.pid).filter { pid in
            Glibc.kill(pid, 0) == 0 || errno != ESRCH
        }
    }
}

/// What a `hostctl` run left.
struct HostctlOutcome {
    var exit: ChildExit
    var stdout: String
    var stderr: String
}

/// Runs `hostctl` with `arguments` and waits for it to end, at most `limit`: a run still
/// going then is SIGKILLed, so a hung command fails its test (killed by signal) instead of
/// hanging the suite.
func runHostctl(_ arguments: [String], limit: Duration = .seconds(120)) async throws -> HostctlOutcome {
    try await runCommand([TestWorker.hostctl] + arguments, limit: limit)
}

/// `runHostctl` for any program: a shell that redirects `hostctl`'s streams
/// (`sh -c 'exec "$0" ps --json > /dev/full' HOSTCTL`), for instance.
func runCommand(_ argv: [String], limit: Duration = .seconds(120)) async throws -> HostctlOutcome {
    let child = try await ChildProcess.spawn(argv: argv)
    child.closeStdin()
    let collected = Collected()
    let deadline = killAfter(limit, child)
    defer { deadline.cancel() }
    let exit = await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<ChildExit, Never>) in
        EventLoop.shared.watch(
            child,
            onStdout: { collected.append(stdout: $0) },
            onStderr: { collected.append(stderr: $0) },
            onExit: { continuation.resume(returning: $0) }
        )
    }
    return HostctlOutcome(exit: exit, stdout: collected.stdout, stderr: collected.stderr)
}

/// A wait in a test that did not end within its limit.
struct TimedOut: Error, CustomStringConvertible {
    var what: String
    var limit: Duration
    var description: String { "timed out after \(limit) waiting for \(what)" }
}

/// How long a test waits for what it waits for, by kind: a regression fails in seconds
/// instead of hanging the suite. The limits are safety nets, not expectations: under a
/// sanitizer, with the whole suite starting workers at once on two cores, a healthy worker's
/// launch has taken over 10 s, so sanitized runs get several times as long.
enum TestLimit {
    /// Whether this process (and so the `hostctl` built with it) runs under a sanitizer.
    static let sanitized = runsUnderThreadSanitizer || runsUnderAddressSanitizer

    /// What the host produces at once, from a worker already running: a kill seen, a
    /// suspension after a 50 ms delay, one transition's reply, a thread handing over a lock.
    static let event: Duration = sanitized ? .seconds(90) : .seconds(10)

    /// A worker's start and first transition (a connect, a restore, a window an app opened),
    /// and the few events that follow it in the same wait.
    static let launch: Duration = sanitized ? .seconds(180) : .seconds(20)
}

/// Runs `body` for at most `limit`, then cancels it and throws `TimedOut`: a test waiting
/// for something that never comes fails instead of hanging the suite. `body` must end
/// when cancelled (a loop over an `AsyncStream` does). Take `limit` from `TestLimit`.
func within<Value: Sendable>(
    _ limit: Duration,
    _ what: String,
    _ body: @escaping @Sendable () async throws -> Value
) async throws -> Value {
    try await withThrowingTaskGroup(of: Value?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard case let value?? = try await group.next() else { throw TimedOut(what: what, limit: limit) }
        return value
    }
}

/// The value `lookUp` finds, looked up every `interval` for at most `limit`, else `TimedOut`.
/// Only for a state nothing reports (a process's /proc entry, a registry, a thread's wait
/// channel): what the host records, a test waits for as an event.
func lookedUp<Value: Sendable>(
    _ what: String,
    within limit: Duration,
    every interval: Duration = .milliseconds(2),
    _ lookUp: @escaping @Sendable () -> Value?
) async throws -> Value {
    try await within(limit, what) {
        while true {
            if let value = lookUp() { return value }
            try await Task.sleep(for: interval)
        }
    }
}

/// Returns once `condition` holds, looked at every `interval` for at most `limit`, else
/// throws `TimedOut` (`lookedUp`: only for a state nothing reports).
func lookedAt(
    _ what: String,
    within limit: Duration,
    every interval: Duration = .milliseconds(2),
    until condition: @escaping @Sendable () -> Bool
) async throws {
    _ = try await lookedUp(what, within: limit, every: interval) { condition() ? true : nil }
}

/// Runs `body` on a task of its own and says whether it finished within `limit`, without
/// waiting for it when it does not: for a body that may be stuck in a blocking call, which
/// no cancellation ends (`within` would wait for it). A stuck body is left behind.
func finishes(within limit: Duration, _ body: @escaping @Sendable () async -> Void) async -> Bool {
    (try? await abandoning(after: limit, "") { await body() }) != nil
}

/// `body`'s value if it comes within `limit`, else `TimedOut`, without waiting for a body
/// that does not end when cancelled (a continuation only the awaited event resumes): a stuck
/// body is left behind, which only a failing test pays for.
func abandoning<Value: Sendable>(
    after limit: Duration,
    _ what: String,
    _ body: @escaping @Sendable () async -> Value
) async throws -> Value {
    let first = FirstOutcome<Value>()
    let value = await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Value?, Never>) in
        first.await(continuation)
        Task.detached { first.settle(await body()) }
        Task.detached {
            try? await Task.sleep(for: limit)
            first.settle(nil)
        }
    }
    guard let value else { throw TimedOut(what: what, limit: limit) }
    return value
}

/// Resumes one continuation with whichever outcome comes first (`abandoning`): a value, or
/// nil for the limit.
private final class FirstOutcome<Value: Sendable>: Sendable {
    private let continuation = Locked<CheckedContinuation<Value?, Never>?>(nil)

    func await(_ continuation: CheckedContinuation<Value?, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func settle(_ outcome: Value?) {
        continuation.withLock { $0.take() }?.resume(returning: outcome)
    }
}

extension TraceRecorder {
    /// The first event with `seq` of at least `fromSeq` that satisfies `predicate`, waiting
    /// for it at most `limit`.
    func firstEvent(
        fromSeq: Int = 1,
        within limit: Duration = TestLimit.event,
        _ what: String,
        where predicate: @escaping @Sendable (TraceEvent) -> Bool
    ) async throws -> TraceEvent {
        // Reads the history at its own pace and waits for the recorder to say more came
        // (`waitForEvent`): no stream of its own to fall behind.
        try await within(limit, what) {
            var next = fromSeq
            while true {
                let batch = self.heldEvents(fromSeq: next, maximumBytes: 1 << 20)
                if let match = batch.first(where: predicate) { return match }
                if let last = batch.last {
                    next = last.seq + 1
                    continue
                }
                guard await self.waitForEvent(after: next - 1) else {
                    throw TimedOut(what: "\(what) (the trace ended first)", limit: limit)
                }
            }
        }
    }
}

/// SIGKILLs `child` if it still runs after `limit`, so that a wait for its exit ends (the
/// test then sees a death by signal) instead of hanging the suite. Cancel the returned task
/// once the child has exited.
func killAfter(_ limit: Duration, _ child: ChildProcess) -> Task<Void, Never> {
    Task {
        guard (try? await Task.sleep(for: limit)) != nil else { return }
        try? child.send(signal: SIGKILL)
    }
}

/// Whether this test process (and so the `hostctl` built with it) runs under ThreadSanitizer.
let runsUnderThreadSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

/// Whether this test process (and so the `hostctl` built with it) runs under AddressSanitizer.
let runsUnderAddressSanitizer = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__asan_init") != nil

extension SceneHost {
    /// Performs `op` on `handle`, which the test expects refused: the refusal's reason, after
    /// checking that the refusal changed nothing (the same status, only `error` events), or
    /// nil (recorded as an issue when it failed otherwise).
    func refusalReason(of op: SceneOperation, on handle: SceneHandle) async -> String? {
        let before = await handle.status()
        let mark = lastSeq
        do {
            try await handle.perform(op)
            return nil
        } catch HostError.refused(_, _, let reason) {
            #expect(await handle.status() == before, "\(op.name) changed the scene")
            #expect(compactEvents(of: handle.identifier, after: mark).allSatisfy { $0.hasPrefix("error") })
            return reason
        } catch {
            Issue.record("\(op.name): \(error)")
            return nil
        }
    }
}

extension StressOptions {
    /// A stress run in the test suite: `scenes` scenes, `ops` operations from `clients`
    /// clients, and no descriptor check (other suites run in this process at the same time:
    /// descriptor counts are theirs too).
    static func inTests(scenes: Int, ops: Int, clients: Int = 1) -> StressOptions {
        var options = StressOptions()
        options.scenes = scenes
        options.ops = ops
        options.clients = clients
        options.checksDescriptors = false
        // The whole suite runs at once on two cores: under a sanitizer a worker's stop at its
        // suspension has come 1.3 s after the 20 ms delay, with the host itself busy, not stuck.
        if TestLimit.sanitized { options.timerSlack = .seconds(10) }
        return options
    }

    /// `hostctl stress`'s flags for what `inTests` sets.
    static var flagsInTests: [String] { TestLimit.sanitized ? ["--timer-slack-ms", "10000"] : [] }

    /// Runs a stress run with the suite's `hostctl worker`; `configure` adjusts the host.
    func run(configure: (inout HostConfiguration) -> Void = { _ in }) async throws -> StressReport {
        var configuration = StressOptions.configuration(worker: [TestWorker.hostctl, "worker"])
        // A safety net only (stress runs kill workers, none hangs): under ASan, with the whole
        // suite starting workers at once on two cores, 16 workers ending together have passed
        // the command's 5 s, and the audit then counted an honest run's terminate-timeouts as
        // violations.
        configuration.terminateLimit = .seconds(30)
        configure(&configuration)
        return try await StressRunner(options: self, configuration: configuration).run()
    }
}

/// SCHED_BATCH (linux/sched.h): glibc's headers show the name to Swift only under `_GNU_SOURCE`.
let schedBatch: Int32 = 3
