import Glibc
import HostProcess
import Protocol
import Synchronization
import Testing

/// The trace file is written off the recording thread: recording never waits for the file's
/// reader, a reader that never reads ends the file with an error instead of holding the host,
/// and `fileWritten()` waits until the file has every event.
@Suite struct TraceFileTests {
    @Test func recordingNeverWaitsForAPipeReaderThatIsSlow() async throws {
        let pipe = try #require(Pipe())
        defer { pipe.close() }
        let recorder = try TraceRecorder(path: "/proc/self/fd/\(pipe.writeEnd)", keepHistory: false)
        let value = JSONValue.string(String(repeating: "v", count: 1000))
        // 512 KiB of lines: eight times what the pipe holds, nobody reading yet.
        let recorded = try await finishes(within: .seconds(20)) {
            for index in 0..<500 { recorder.record(TraceEvent(kind: .host, name: "e\(index)", value: value)) }
        }
        #expect(recorded, "record(_:) waited for the pipe's reader")

        // Now the reader reads: every line arrives, whole and in order.
        let reading = Task.detached { pipe.read(lines: 500) }
        await recorder.fileWritten()
        recorder.finish()
        let lines = await reading.value.split(separator: UInt8(ascii: "\n"))
        #expect(recorder.fileError == nil)
        #expect(lines.count == 500)
        #expect(lines.allSatisfy { $0.first == UInt8(ascii: "{") && $0.last == UInt8(ascii: "}") })
        #expect(lines.last.map { String(decoding: $0, as: UTF8.self).contains("\"e499\"") } == true)
    }

    @Test func aReaderThatNeverReadsEndsTheFileWithAnError() async throws {
        let pipe = try #require(Pipe())
        defer { pipe.close() }
        let recorder = try TraceRecorder(path: "/proc/self/fd/\(pipe.writeEnd)", keepHistory: false)
        let value = JSONValue.string(String(repeating: "v", count: 60 << 10))
        // About 18 MiB, over the 16 MiB the file's reader may fall behind.
        let recorded = try await finishes(within: .seconds(60)) {
            for _ in 0..<300 { recorder.record(TraceEvent(kind: .host, name: "large", value: value)) }
        }
        #expect(recorded)
        let error = try #require(recorder.fileError)
        #expect("\(error)".contains("more than 16 MiB behind"), "\(error)")
        // The wait ends too: the file has ended.
        let waited = try await finishes(within: .seconds(20)) { await recorder.fileWritten() }
        #expect(waited)
        recorder.finish()
    }

    @Test func aHostsQuitWaitsUntilTheFileHasEveryEvent() async throws {
        let directory = makeTemporaryDirectory()
        let path = directory + "/trace.jsonl"
        let host = try SceneHost(configuration: HostConfiguration(worker: ["/bin/true"]), tracePath: path)
        for index in 0..<2000 { host.trace.record(TraceEvent(kind: .host, name: "noted \(index)")) }
        await host.quit()
        let lines = try readFileBytes(path).split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == host.trace.lastSeq)
        #expect(lines.last.map { String(decoding: $0, as: UTF8.self).contains("\"stopped\"") } == true)
    }
}

/// Runs `body` on a task of its own and says whether it finished within `limit`, without
/// waiting for it when it does not (a body stuck in a blocking call never returns).
private func finishes(
    within limit: Duration,
    _ body: @escaping @Sendable () async -> Void
) async throws -> Bool {
    let outcome = FirstOutcome()
    return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
        outcome.await(continuation)
        Task.detached {
            await body()
            outcome.settle(true)
        }
        Task.detached {
            try? await Task.sleep(for: limit)
            outcome.settle(false)
        }
    }
}

/// Resumes one continuation with whichever outcome comes first.
private final class FirstOutcome: Sendable {
    private let continuation = Mutex<CheckedContinuation<Bool, Never>?>(nil)

    func await(_ continuation: CheckedContinuation<Bool, Never>) {
        self.continuation.withLock { $0 = continuation }
    }

    func settle(_ finished: Bool) {
        continuation.withLock { $0.take() }?.resume(returning: finished)
    }
}

/// A pipe whose ends the test closes itself.
private final class Pipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init?() {
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { return nil }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    func close() {
        Glibc.close(writeEnd)
        Glibc.close(readEnd)
    }

    /// Reads until `lines` newlines have come (blocking).
    func read(lines: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        var newlines = 0
        while newlines < lines {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return bytes }
            bytes += buffer[..<count]
            newlines += buffer[..<count].lazy.filter { $0 == UInt8(ascii: "\n") }.count
        }
        return bytes
    }
}
