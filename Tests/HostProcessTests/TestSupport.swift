import Glibc
import HostProcess
import Protocol

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

    /// A configuration with millisecond limits for tests.
    static func configuration(_ extra: [String] = [], stateDirectory: String? = nil) -> HostConfiguration {
        var configuration = HostConfiguration(worker: [hostctl, "worker"] + extra)
        configuration.suspendDelay = .milliseconds(50)
        // Safety nets only (tests of the watchdogs set their own): generous, because under a
        // sanitizer, with the whole suite starting workers at once on two cores, a healthy
        // worker's launch has been seen to take over 10 s.
        configuration.launchLimit = .seconds(60)
        configuration.transitionLimit = .seconds(30)
        configuration.terminateLimit = .seconds(2)
        configuration.backgroundTaskLimit = .milliseconds(500)
        configuration.forwardsWorkerStderr = false
        configuration.stateDirectory = stateDirectory
        return configuration
    }
}

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

    /// Every event verifies against the model.
    func verifyTrace() -> LifecycleViolation? {
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
