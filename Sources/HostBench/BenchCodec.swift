import CLISupport
import Glibc
import HostProcess
import Protocol

/// Encode + decode of typical messages with the protocol's codec, against Foundation's
/// JSONEncoder/JSONDecoder on equivalent Codable structs.
///
/// The Foundation half runs in `FoundationJSONBench`, a separate executable built next to
/// `hostctl`: linking Foundation into `hostctl` would load it into every worker (the worker
/// is this same binary), costing each one about 170 KiB of private memory and a slower start.
package enum BenchCodec {
    /// `{"type":"callback","name":"viewDidAppear","vc":"Detail"}`
    package static let callback = WorkerMessage.callback(CallbackEvent(.viewDidAppear, viewController: "Detail"))
    /// `{"id":42,"op":"push","vc":"Detail"}`
    package static let request = HostCommand.request(id: 42, .push(viewController: "Detail"))

    package static let helperName = "FoundationJSONBench"

    /// Nanoseconds per encode+decode, one sample per batch of `iterations`.
    package static func ours(batches: Int, iterations: Int) -> (callback: Samples, request: Samples) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(256)
        var sink = 0
        var callbackSamples = Samples()
        var requestSamples = Samples()
        for batch in 0..<(batches + 1) {
            var start = BenchClock.now()
            for _ in 0..<iterations {
                buffer.removeAll(keepingCapacity: true)
                callback.encode(into: &buffer)
                let decoded = buffer.withUnsafeBytes { raw in
                    try? WorkerMessage(frame: UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 1)]))
                }
                if case .callback? = decoded { sink &+= 1 }
            }
            var end = BenchClock.now()
            if batch > 0 { callbackSamples.append(Double(end - start) / Double(iterations)) }

            start = BenchClock.now()
            for _ in 0..<iterations {
                buffer.removeAll(keepingCapacity: true)
                request.encode(into: &buffer)
                let decoded = buffer.withUnsafeBytes { raw in
                    try? HostCommand(frame: UnsafeRawBufferPointer(rebasing: raw[0..<(raw.count - 1)]))
                }
                if case .request(let id, _)? = decoded, id == 42 { sink &+= 1 }
            }
            end = BenchClock.now()
            if batch > 0 { requestSamples.append(Double(end - start) / Double(iterations)) }
        }
        precondition(sink == 2 * (batches + 1) * iterations, "the codec did not round-trip")
        return (callbackSamples, requestSamples)
    }

    /// The Foundation figures from the helper, or why there are none.
    package static func foundation(
        batches: Int,
        iterations: Int
    ) async -> Result<(callback: Samples, request: Samples), BenchFailure> {
        let directory = BenchPaths.executableDirectory
        let helper = directory + "/" + helperName
        guard access(helper, X_OK) == 0 else {
            return .failure(BenchFailure("\(helperName) not found next to hostctl (swift build builds it)"))
        }
        let output: [UInt8]
        do {
            output = try await BenchProcess.run([helper, "--batches", "\(batches)", "--iterations", "\(iterations)"])
        } catch {
            return .failure(BenchFailure("\(helperName): \(error)"))
        }
        guard case .object(let object)? = try? JSONParser.parse(Array(output.prefix { $0 != UInt8(ascii: "\n") })),
            case .array(let callbacks)? = object["callback"], case .array(let requests)? = object["request"]
        else {
            return .failure(BenchFailure("\(helperName) printed no figures"))
        }
        func samples(_ values: [JSONValue]) -> Samples {
            Samples(
                values.compactMap { value -> Double? in
                    switch value {
                    case .int(let integer): Double(integer)
                    case .double(let double): double
                    default: nil
                    }
                }
            )
        }
        return .success((samples(callbacks), samples(requests)))
    }
}

package struct BenchFailure: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

package enum BenchPaths {
    /// The running hostctl, which is also the worker and the floors' helper.
    package static var executable: String { currentExecutablePath() }

    package static var executableDirectory: String {
        let path = executable
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }
}

/// Runs a helper process to completion and collects its stdout.
package enum BenchProcess {
    package struct Failed: Error, CustomStringConvertible {
        package let description: String
    }

    private final class Output: Sendable {
        package let bytes = Locked<[UInt8]>([])
    }

    package static func run(_ argv: [String]) async throws -> [UInt8] {
        let child = try await ChildProcess.spawn(argv: argv)
        let output = Output()
        let exit = BenchSignal<ChildExit>()
        EventLoop.shared.watch(
            child,
            onStdout: { bytes in output.bytes.withLock { $0.append(contentsOf: bytes) } },
            onStderr: { bytes in
                _ = write(2, bytes.baseAddress, bytes.count)
            },
            onExit: { status in exit.fulfil(status) }
        )
        child.closeStdin()
        let status = await exit.value
        guard status == .exited(status: 0) else { throw Failed(description: "\(status)") }
        return output.bytes.withLock { $0 }
    }
}
