import Glibc
import HostProcess

/// A child watched by the host's own `EventLoop`, outside any scene: the machinery a worker
/// connection uses (non-blocking stdin write, epoll thread reading stdout, a continuation
/// resumed from that thread) with nothing of the protocol on top.
package final class EchoProbe: Sendable {
    package enum Failure: Error, CustomStringConvertible {
        case write(String)
        case exited(String)
        package var description: String {
            switch self {
            case .write(let message): "cannot write to the echo child: \(message)"
            case .exited(let exit): "the echo child ended during a round trip: \(exit)"
            }
        }
    }

    private struct State {
        package var received = 0
        package var expected = 0
        package var waiter: UnsafeContinuation<Void, any Error>?
        package var firstOutput: UInt64?
    }

    package let child: ChildProcess
    private let state = Locked(State())
    package let exit = BenchSignal<ChildExit>()
    package let firstOutput = BenchSignal<UInt64>()

    package init(argv: [String]) throws {
        child = try ChildProcess.spawn(argv: argv)
        EventLoop.shared.watch(
            child,
            onStdout: { [self] bytes in self.received(bytes.count) },
            onStderr: { _ in },
            onExit: { [self] exit in
                // A child gone mid-round-trip answers nothing more: its waiter must not hang.
                let waiter = state.withLock { state in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(throwing: Failure.exited("\(exit)"))
                self.exit.fulfil(exit)
            }
        )
    }

    package var pid: Int32 { child.pid }

    /// Writes `line` and returns once as many bytes came back.
    ///
    /// Waits as a scene's request does (`SceneController.performAlone`): in the caller's
    /// context, on an unsafe continuation. A checked one allocated its canary on every round
    /// trip, a cost the transition does not pay and the floor must not either.
    package nonisolated(nonsending) func roundTrip(_ line: [UInt8]) async throws {
        try await withUnsafeThrowingContinuationFromAnyThread { (continuation: UnsafeContinuation<Void, any Error>) in
            state.withLock { state in
                state.received = 0
                state.expected = line.count
                state.waiter = continuation
            }
            do {
                try child.writeToStdin(line)
            } catch {
                let waiter = state.withLock { state in
                    defer { state.waiter = nil }
                    return state.waiter
                }
                waiter?.resume(throwing: Failure.write("\(error)"))
            }
        }
    }

    /// Closes stdin (the echo child exits at EOF) and waits for the exit.
    package func finish() async {
        child.closeStdin()
        _ = await exit.value
    }

    private func received(_ count: Int) {
        let now = BenchClock.now()
        var first = false
        let waiter: UnsafeContinuation<Void, any Error>? = state.withLock { state in
            if state.firstOutput == nil {
                state.firstOutput = now
                first = true
            }
            state.received += count
            guard state.received >= state.expected, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        if first { firstOutput.fulfil(now) }
        waiter?.resume()
    }
}

/// The floors: what the same bytes or the same spawn cost without the scene host on top.
package enum BenchFloors {
    /// A line of about 200 bytes, the size of a typical callback batch.
    package static let echoLine: [UInt8] = {
        var line = Array(#"{"type":"callback","name":"sceneWillResignActive"}"#.utf8)
        line += Array(#"{"type":"reply","id":123456,"result":{"note":""#.utf8)
        while line.count < 199 { line.append(UInt8(ascii: "x")) }
        line.append(UInt8(ascii: "\n"))
        return line
    }()

    /// Round trips of `echoLine` through `hostctl bench-echo` via ChildProcess + EventLoop,
    /// with the CPU each took on both sides.
    package static func eventLoopEcho(
        executable: String,
        placement: BenchPlacement? = nil,
        warmup: Int,
        count: Int
    ) async throws -> RoundTripCost {
        let probe = try EchoProbe(argv: [executable, "bench-echo"])
        if let placement { _ = placement.pinChild(probe.pid) }
        // The caller runs on the loop, as the transition's does (SceneHost.taskExecutor): the
        // loop resumes it without waking another thread. The CPU of the measured round trips
        // alone, as the transition's.
        let (meter, samples, log) = try await withTaskExecutorPreference(EventLoop.shared.taskExecutor) {
            for _ in 0..<warmup { try await probe.roundTrip(echoLine) }
            let meter = CPUMeter(child: probe.pid)
            var samples = Samples()
            var log = DrawLog(child: probe.pid, placement: placement)
            var batch = Samples()
            for index in 0..<count {
                let start = BenchClock.now()
                try await probe.roundTrip(echoLine)
                let end = BenchClock.now()
                batch.append(BenchClock.microseconds(from: start, to: end))
                guard batch.count == DrawLog.batch || index == count - 1 else { continue }
                log.add(batch)
                samples.append(contentsOf: batch)
                batch = Samples()
            }
            return (meter, samples, log)
        }
        let cost = meter.cost(samples, runs: count, draws: log.draws)
        await probe.finish()
        return cost
    }

    /// Round trips of `echoLine` through `hostctl bench-echo` with blocking write/read on a
    /// dedicated thread: no event loop, no continuation, no cooperative pool.
    package static func blockingEcho(
        executable: String,
        placement: BenchPlacement? = nil,
        warmup: Int,
        count: Int
    ) async -> RoundTripCost? {
        await BenchThread.run {
            blockingEchoOnCurrentThread(executable: executable, placement: placement, warmup: warmup, count: count)
        }
    }

    private static func blockingEchoOnCurrentThread(
        executable: String,
        placement: BenchPlacement?,
        warmup: Int,
        count: Int
    ) -> RoundTripCost? {
        guard var child = BenchEchoChild.spawn(executable: executable) else { return nil }
        if let placement { _ = placement.pinChild(child.pid) }
        defer { child.finish() }

        let line = echoLine
        var buffer = [UInt8](repeating: 0, count: 4096)
        var samples = Samples()
        // Read first when the warm-up is over: the first batch's draw is its own.
        var log: DrawLog?
        var batch = Samples()
        for index in 0..<(warmup + count) {
            if index == warmup { log = DrawLog(child: child.pid, placement: placement) }
            let start = BenchClock.now()
            let wrote = line.withUnsafeBytes { child.write($0) }
            guard wrote else { return nil }
            var received = 0
            while received < line.count {
                let n = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { return nil }
                received += n
            }
            let end = BenchClock.now()
            guard index >= warmup else { continue }
            batch.append(BenchClock.microseconds(from: start, to: end))
            guard batch.count == DrawLog.batch || index == warmup + count - 1 else { continue }
            log?.add(batch)
            samples.append(contentsOf: batch)
            batch = Samples()
        }
        return RoundTripCost(latencies: samples, hostCPU: nil, childCPU: nil, draws: log?.draws ?? [:])
    }

    /// Spawn of `hostctl bench-ready` via ChildProcess + EventLoop until its line arrives.
    package static func spawnReady(executable: String, warmup: Int, count: Int) async throws -> Samples {
        var samples = Samples()
        for index in 0..<(warmup + count) {
            let start = BenchClock.now()
            let probe = try EchoProbe(argv: [executable, "bench-ready"])
            _ = await probe.firstOutput.value
            let end = BenchClock.now()
            _ = await probe.exit.value
            if index >= warmup { samples.append(BenchClock.microseconds(from: start, to: end)) }
        }
        return samples
    }

    /// SIGKILL of a watched `bench-echo` child until the event loop reports its exit.
    package static func rawKill(executable: String, warmup: Int, count: Int) async throws -> Samples {
        var samples = Samples()
        for index in 0..<(warmup + count) {
            let probe = try EchoProbe(argv: [executable, "bench-echo"])
            try await probe.roundTrip(echoLine)  // running, exec done
            let start = BenchClock.now()
            _ = Glibc.kill(probe.pid, SIGKILL)
            _ = await probe.exit.value
            let end = BenchClock.now()
            if index >= warmup { samples.append(BenchClock.microseconds(from: start, to: end)) }
        }
        return samples
    }
}
