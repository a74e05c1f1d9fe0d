import CLISupport
import Glibc
import HostProcess
import HostTools
import Protocol

/// `hostctl control-bench --socket PATH [--clients 16] [--requests N] [--op ps|notify]`
/// (internal, not in the help): request throughput of a serving host. Each client keeps one
/// request in flight on its own connection; one thread drives them all with poll(2).
enum ControlBenchCommand {
    static func run(_ arguments: inout Arguments) throws -> ExitCode {
        let path = try Commands.socketPath(&arguments)
        // More clients than a host takes at once would be refused, not measured.
        let clientCount = try arguments.intOption("--clients", in: 1...ControlServer.maximumConnections) ?? 16
        let requestCount = try arguments.intOption("--requests", in: 1...100_000_000) ?? 20_000
        let op = try arguments.option("--op") ?? "ps"
        try arguments.finish()
        let frame: [UInt8]
        switch op {
        case "ps":
            frame = ControlRequest(id: .int(0), body: .ps).frame
        case "notify":
            // A scene to notify; "already connected" is fine.
            if let client = try? ControlClient(path: path) {
                _ = try? client.perform(ControlRequest(id: .int(0), body: .step(.scene("bench", .connect()))))
            }
            frame =
                ControlRequest(id: .int(0), body: .step(.scene("bench", .notify(name: "tick", value: .int(1))))).frame
        default:
            throw UsageError("hostctl control-bench: --op must be ps or notify")
        }

        var descriptors: [Int32] = []
        defer { for descriptor in descriptors { close(descriptor) } }
        for _ in 0..<clientCount {
            do {
                descriptors.append(try ControlSocket.connect(path: path))
            } catch {
                printError("hostctl control-bench: \(error)")
                return .runtimeFailure
            }
        }
        var decoders = [FrameDecoder](repeating: FrameDecoder(maximumFrameSize: 16 << 20), count: clientCount)
        var sent = [Int](repeating: 0, count: clientCount)
        var answered = 0
        var failures = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        let perClient = (requestCount + clientCount - 1) / clientCount
        let total = perClient * clientCount

        func send(_ index: Int) -> Bool {
            frame.withUnsafeBytes { write(descriptors[index], $0.baseAddress, $0.count) == $0.count }
        }

        let start = ContinuousClock.now
        for index in 0..<clientCount {
            guard send(index) else { return ioFailure() }
            sent[index] = 1
        }
        var polls = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        while answered < total {
            guard poll(&polls, nfds_t(polls.count), 10_000) > 0 else { return ioFailure() }
            for index in polls.indices where polls[index].revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptors[index], $0.baseAddress, $0.count) }
                guard count > 0 else { return ioFailure() }
                buffer.withUnsafeBytes { decoders[index].append(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                while let output = decoders[index].next() {
                    answered += 1
                    if case .frame(let reply) = output, !reply.starts(with: Array(#"{"id":0,"ok":true"#.utf8)) {
                        failures += 1
                    }
                    if sent[index] < perClient {
                        guard send(index) else { return ioFailure() }
                        sent[index] += 1
                    }
                }
            }
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let rate = Int((Double(total) / seconds).rounded())
        let latency = Int((seconds / Double(perClient) * 1e6).rounded())
        print(
            "control-bench: op=\(op) clients=\(clientCount) requests=\(total) seconds=\(Int(seconds * 1000))ms "
                + "ops/s=\(rate) mean-latency=\(latency)us failures=\(failures)"
        )
        return failures == 0 ? .success : .runtimeFailure
    }

    private static func ioFailure() -> ExitCode {
        printError("hostctl control-bench: the connection failed or stalled: \(String(cString: strerror(errno)))")
        return .runtimeFailure
    }
}
