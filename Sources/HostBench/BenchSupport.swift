import CSceneHostSys
import Glibc
import HostProcess

/// Monotonic time in nanoseconds (CLOCK_MONOTONIC, no allocation, no actor hop).
package enum BenchClock {
    @inline(__always)
    package static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }

    /// Microseconds between two `now()` readings.
    @inline(__always)
    package static func microseconds(from start: UInt64, to end: UInt64) -> Double {
        Double(end &- start) / 1000
    }
}

/// CPU time a process has used, user and system together, in nanoseconds: the host's own
/// (all its threads) or a child's, read through its CPU-time clock.
package enum BenchCPUClock {
    package static func host() -> UInt64? {
        read(CLOCK_PROCESS_CPUTIME_ID)
    }

    package static func process(_ pid: Int32) -> UInt64? {
        var clock = clockid_t()
        guard clock_getcpuclockid(pid, &clock) == 0 else { return nil }
        return read(clock)
    }

    private static func read(_ clock: clockid_t) -> UInt64? {
        var spec = timespec()
        guard clock_gettime(clock, &spec) == 0 else { return nil }
        return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
    }
}

/// Round trips through one child: their latencies, and the CPU each took on both sides,
/// in microseconds (nil when a CPU clock could not be read).
package struct RoundTripCost: Sendable {
    package var latencies: Samples
    /// The host process, all its threads.
    package var hostCPU: Double?
    /// The child at the other end.
    package var childCPU: Double?
    /// Unpinned: the latencies filed by the kernel's draw (empty when pinned).
    package var draws: [BenchPlacement: Samples]

    package init(latencies: Samples, hostCPU: Double?, childCPU: Double?, draws: [BenchPlacement: Samples] = [:]) {
        self.latencies = latencies
        self.hostCPU = hostCPU
        self.childCPU = childCPU
        self.draws = draws
    }

    /// The latencies of one draw only (nil if the round never met it). The CPU figures stay
    /// the whole round's: the CPU clocks are read once a round, not once a batch.
    package func keeping(_ draw: BenchPlacement) -> RoundTripCost? {
        guard let latencies = draws[draw] else { return nil }
        return RoundTripCost(latencies: latencies, hostCPU: hostCPU, childCPU: childCPU, draws: [draw: latencies])
    }

    /// The runs of several rounds of equal counts as one: every latency, and the mean CPU per
    /// round trip of the rounds that measured it.
    package init(merging rounds: [RoundTripCost]) {
        func mean(_ values: [Double]) -> Double? {
            values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
        }
        self.init(
            latencies: Samples(merging: rounds.map(\.latencies)),
            hostCPU: mean(rounds.compactMap(\.hostCPU)),
            childCPU: mean(rounds.compactMap(\.childCPU)),
            draws: rounds.reduce(into: [:]) { merged, round in
                for (draw, latencies) in round.draws { merged[draw, default: Samples()].append(contentsOf: latencies) }
            }
        )
    }
}

/// Reads the host's and one child's CPU clocks at its start; `cost(_:runs:)` divides what
/// both used since then by the round trips run.
package struct CPUMeter {
    private let pid: Int32?
    private let hostBefore: UInt64?
    private let childBefore: UInt64?

    package init(child pid: Int32?) {
        self.pid = pid
        hostBefore = BenchCPUClock.host()
        childBefore = pid.flatMap(BenchCPUClock.process)
    }

    /// `latencies` with the CPU per round trip over `runs` round trips (warm-up included).
    package func cost(_ latencies: Samples, runs: Int, draws: [BenchPlacement: Samples] = [:]) -> RoundTripCost {
        func perRoundTrip(_ before: UInt64?, _ after: UInt64?) -> Double? {
            guard let before, let after, after >= before, runs > 0 else { return nil }
            return Double(after - before) / 1000 / Double(runs)
        }
        return RoundTripCost(
            latencies: latencies,
            hostCPU: perRoundTrip(hostBefore, BenchCPUClock.host()),
            childCPU: perRoundTrip(childBefore, pid.flatMap(BenchCPUClock.process)),
            draws: draws
        )
    }
}

/// Repeated measurements of one quantity.
package struct Samples: Sendable {
    package private(set) var values: [Double] = []

    package init(_ values: [Double] = []) {
        self.values = values
    }

    /// Every value of `parts`, in order.
    package init(merging parts: [Samples]) {
        self.values = parts.flatMap(\.values)
    }

    package mutating func append(_ value: Double) { values.append(value) }
    package mutating func reserveCapacity(_ count: Int) { values.reserveCapacity(count) }
    package mutating func append(contentsOf other: Samples) { values.append(contentsOf: other.values) }

    package var count: Int { values.count }
    package var isEmpty: Bool { values.isEmpty }

    /// The middle value (mean of the two middle ones for an even count).
    package var median: Double { percentile(50) }
    /// The 99th percentile (nearest rank).
    package var p99: Double { percentile(99) }
    package var minimum: Double { values.min() ?? .nan }

    /// Nearest-rank percentile; the median interpolates for an even count.
    package func percentile(_ p: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let sorted = values.sorted()
        if p == 50 {
            let middle = sorted.count / 2
            return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[min(sorted.count, max(1, rank)) - 1]
    }
}

/// Wall-clock reading of one async operation, in microseconds.
package func measure(_ body: () async throws -> Void) async rethrows -> Double {
    let start = BenchClock.now()
    try await body()
    return BenchClock.microseconds(from: start, to: BenchClock.now())
}

/// What the process runs as: build configuration and how the Swift runtime is linked.
package enum BenchEnvironment {
    package static var isDebugBuild: Bool {
        #if DEBUG
        return true
        #else
        return false
        #endif
    }

    /// The build the figures are meant for: every worker is this binary, and a static
    /// executable starts in well under half the time of one that loads shared libraries
    /// (no dynamic loader; see BENCHMARKS.md). The script links it with lld, with the
    /// request path's functions laid out together.
    package static let recommendedBuild = "scripts/build-release"

    /// Whether libswiftCore is statically linked (`--static-swift-stdlib`).
    package static var isStaticStdlib: Bool {
        guard let maps = ProcFile.text("/proc/self/maps") else { return false }
        return !maps.contains("libswiftCore.so")
    }

    /// Whether the whole executable is static (`-static-executable`): no libc.so mapped.
    package static var isStaticExecutable: Bool {
        guard let maps = ProcFile.text("/proc/self/maps") else { return false }
        return !maps.contains("libc.so")
    }

    /// How the binary is linked, as the report names it.
    package static var linking: String {
        isStaticExecutable ? "static executable" : isStaticStdlib ? "static stdlib" : "dynamic stdlib"
    }

    package static var cores: Int { Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) }

    /// This process's resident set size in KiB (VmRSS).
    package static func hostResidentKiB() -> Double? {
        procField("/proc/self/status", "VmRSS:")
    }

    /// Proportional set size of `pid` in KiB (Pss from smaps_rollup).
    package static func proportionalSetKiB(of pid: Int32) -> Double? {
        procField("/proc/\(pid)/smaps_rollup", "Pss:")
    }

    /// Memory only `pid` maps (USS: Private_Clean + Private_Dirty from smaps_rollup), in KiB:
    /// what each further worker costs once the shared pages are paid for.
    package static func privateKiB(of pid: Int32) -> Double? {
        guard let text = ProcFile.text("/proc/\(pid)/smaps_rollup") else { return nil }
        guard let clean = field(text, "Private_Clean:"), let dirty = field(text, "Private_Dirty:") else { return nil }
        return clean + dirty
    }

    /// Gives freed heap back to the kernel so that RSS deltas measure live memory.
    package static func trimHeap() {
        _ = csh_malloc_trim(0)
    }

    private static func procField(_ path: String, _ name: String) -> Double? {
        guard let text = ProcFile.text(path) else { return nil }
        return field(text, name)
    }

    private static func field(_ text: String, _ field: String) -> Double? {
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            let digits = line.dropFirst(field.count).drop { $0 == " " || $0 == "\t" }.prefix { $0.isNumber }
            return Double(digits)
        }
        return nil
    }
}

/// Runs blocking work on a fresh OS thread (not the cooperative pool) and awaits its result.
package enum BenchThread {
    private final class Job: @unchecked Sendable {
        package let body: () -> Void
        package init(_ body: @escaping () -> Void) { self.body = body }
    }

    package static func run<Result: Sendable>(_ body: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Result, Never>) in
            let job = Job { continuation.resume(returning: body()) }
            let context = Unmanaged.passRetained(job).toOpaque()
            var thread = pthread_t()
            let rc = pthread_create(
                &thread,
                nil,
                { context in
                    let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
                    job.body()
                    return nil
                },
                context
            )
            if rc == 0 {
                pthread_detach(thread)
            } else {
                Unmanaged<Job>.fromOpaque(context).takeRetainedValue().body()
            }
        }
    }
}

/// A one-shot handoff from the event loop thread to an awaiting task.
package final class BenchSignal<Value: Sendable>: Sendable {
    private struct State {
        package var value: Value?
        package var continuation: CheckedContinuation<Value, Never>?
    }

    private let state = Locked(State())

    package func fulfil(_ value: Value) {
        let continuation: CheckedContinuation<Value, Never>? = state.withLock { state in
            if let continuation = state.continuation {
                state.continuation = nil
                return continuation
            }
            state.value = value
            return nil
        }
        continuation?.resume(returning: value)
    }

    package var value: Value {
        get async {
            await withCheckedContinuationFromAnyThread { continuation in
                let ready: Value? = state.withLock { state in
                    if let value = state.value { return value }
                    state.continuation = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
