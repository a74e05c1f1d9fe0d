import Glibc
import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// The trace file is written off the recording thread: recording never waits for the file's
/// reader, a reader that never reads ends the file with an error instead of holding the host,
/// and a quit waits until the file has every event, within a limit.
@Suite struct TraceFileTests {
    @Test func recordingNeverWaitsForAPipeReaderThatIsSlow() async throws {
        let pipe = try #require(Pipe())
        defer { pipe.close() }
        let recorder = try TraceRecorder(path: pipe.path, keepHistory: false)
        let value = JSONValue.string(String(repeating: "v", count: 1000))
        // 512 KiB of lines: eight times what the pipe holds, nobody reading yet.
        let recorded = await finishes(within: .seconds(20)) {
            for index in 0..<500 { recorder.record(TraceEvent(kind: .host, name: "e\(index)", value: value)) }
        }
        #expect(recorded, "record(_:) waited for the pipe's reader")

        // Now the reader reads: every line arrives, whole and in order.
        let lines = await pipe.readLines(until: { $0 == 500 }, within: .seconds(20))
        #expect(await recorder.fileWritten(within: .seconds(20)))
        #expect(recorder.fileError == nil)
        #expect(lines.count == 500)
        #expect(lines.allSatisfy { $0.first == UInt8(ascii: "{") && $0.last == UInt8(ascii: "}") })
        #expect(lines.last.map { String(decoding: $0, as: UTF8.self).contains("\"e499\"") } == true)
    }

    @Test func aReaderThatNeverReadsEndsTheFileWithAnError() async throws {
        let pipe = try #require(Pipe())
        defer { pipe.close() }
        let recorder = try TraceRecorder(path: pipe.path, keepHistory: false)
        let value = JSONValue.string(String(repeating: "v", count: 60 << 10))
        // About 18 MiB, over the 16 MiB the file's reader may fall behind.
        let recorded = await finishes(within: TestLimit.launch) {
            for _ in 0..<300 { recorder.record(TraceEvent(kind: .host, name: "large", value: value)) }
        }
        #expect(recorded)
        let error = try #require(recorder.fileError)
        #expect("\(error)".contains("more than 16 MiB behind"), "\(error)")
        // The file has ended: waiting for it answers at once.
        #expect(await recorder.fileWritten(within: .seconds(20)) == false)
    }

    @Test func aQuitWaitsUntilTheFileHasEveryEvent() async throws {
        let pipe = try #require(Pipe())
        defer { pipe.close() }
        let host = try SceneHost(configuration: HostConfiguration(worker: ["/bin/true"]), tracePath: pipe.path)
        let value = JSONValue.string(String(repeating: "v", count: 1000))
        // More than the pipe holds: the file's thread is stuck until the reader reads.
        for index in 0..<200 { host.trace.record(TraceEvent(kind: .host, name: "e\(index)", value: value)) }
        // (That the quit waits for the file at all, `aQuitGivesUpOnAReaderThatStoppedReading`
        // shows: only a quit that waits can time out.)
        let quit = Task { await host.quit() }
        let lines = await pipe.readLines(
            until: { _, last in last.map { String(decoding: $0, as: UTF8.self).contains("\"stopped\"") } == true },
            within: .seconds(20)
        )
        #expect(await finishes(within: .seconds(20)) { await quit.value })
        #expect(host.trace.fileError == nil)
        #expect(lines.count == host.trace.lastSeq)
    }

    @Test func aQuitGivesUpOnAReaderThatStoppedReading() async throws {
        let pipe = try #require(Pipe())
        defer { pipe.close() }
        var configuration = HostConfiguration(worker: ["/bin/true"])
        configuration.terminateLimit = .milliseconds(300)
        let host = try SceneHost(configuration: configuration, tracePath: pipe.path)
        let value = JSONValue.string(String(repeating: "v", count: 1000))
        for index in 0..<200 { host.trace.record(TraceEvent(kind: .host, name: "e\(index)", value: value)) }
        // Bounded by the 300 ms terminate limit; the limit here is a launch's, what a sanitized
        // suite on two loaded cores needs (quits of 20 s and more were seen there, with the
        // shared loop and pool busy with the suite's other hosts): a quit that waited for the
        // reader would never end.
        #expect(await finishes(within: TestLimit.launch) { await host.quit() })
        let error = try #require(host.trace.fileError)
        #expect("\(error)".contains("its reader did not take the rest within"), "\(error)")
    }

    /// The writer's thread stuck behind a reader that stopped reading lets go of the file
    /// (closes its descriptor and ends) once the file has ended, not when the reader goes.
    @Test func aWriterStuckBehindAReaderLetsGoOnceTheFileEnds() async throws {
        let pipe = try #require(Pipe())
        defer { Glibc.close(pipe.readEnd) }
        var configuration = HostConfiguration(worker: ["/bin/true"])
        configuration.terminateLimit = .milliseconds(300)
        let host = try SceneHost(configuration: configuration, tracePath: pipe.path)
        // From now on only the writer's own descriptor holds the pipe's write side open.
        Glibc.close(pipe.writeEnd)
        let value = JSONValue.string(String(repeating: "v", count: 1000))
        for index in 0..<200 { host.trace.record(TraceEvent(kind: .host, name: "e\(index)", value: value)) }
        // As above: bounded by the terminate limit, with room for a loaded sanitized suite.
        #expect(await finishes(within: TestLimit.launch) { await host.quit() })
        #expect(host.trace.fileError != nil)
        #expect(await pipe.hangsUp(within: .seconds(20)), "the writer still holds the pipe")
    }
}

/// A pipe the trace file is pointed at (`/proc/self/fd/N` opens its write end again).
private final class Pipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init?() {
        var ends: [Int32] = [0, 0]
        guard Glibc.pipe(&ends) == 0 else { return nil }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    var path: String { "/proc/self/fd/\(writeEnd)" }

    func close() {
        Glibc.close(writeEnd)
        Glibc.close(readEnd)
    }

    /// Reads lines on a thread of its own (a blocking read must not hold a pool thread) until
    /// `done(count, last)` holds, for at most `limit`; returns the lines read by then.
    func readLines(
        until done: @escaping @Sendable (_ count: Int, _ last: ArraySlice<UInt8>?) -> Bool,
        within limit: Duration
    ) async -> [ArraySlice<UInt8>] {
        let lines = Locked<[ArraySlice<UInt8>]>([])
        let readEnd = readEnd
        _ = await finishes(within: limit) {
            await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Void, Never>) in
                PlatformThread.startDetached(name: "test-reader") {
                    var bytes: [UInt8] = []
                    var buffer = [UInt8](repeating: 0, count: 64 << 10)
                    while !lines.withLock({ done($0.count, $0.last) }) {
                        let count = buffer.withUnsafeMutableBytes { Glibc.read(readEnd, $0.baseAddress, $0.count) }
                        if count < 0, errno == EINTR { continue }
                        guard count > 0 else { break }
                        bytes += buffer[..<count]
                        // Whole lines only: a partial one waits for its end.
                        guard let end = bytes.lastIndex(of: UInt8(ascii: "\n")) else { continue }
                        let whole = bytes[...end].split(separator: UInt8(ascii: "\n"))
                        bytes.removeSubrange(...end)
                        lines.withLock { $0 += whole.map { ArraySlice(Array($0)) } }
                    }
                    continuation.resume()
                }
            }
        }
        return lines.withLock { $0 }
    }

    /// Whether every write end is closed within `limit` (the read end hangs up), waited for
    /// in poll(2) on a thread of its own.
    func hangsUp(within limit: Duration) async -> Bool {
        let readEnd = readEnd
        let milliseconds = Int32(limit.components.seconds * 1000)
        return await withCheckedContinuationFromAnyThread { (continuation: CheckedContinuation<Bool, Never>) in
            PlatformThread.startDetached(name: "test-hangup") {
                // No events asked for: poll returns on POLLHUP (or POLLERR) only.
                var descriptor = pollfd(fd: readEnd, events: 0, revents: 0)
                var ready: Int32
                repeat { ready = poll(&descriptor, 1, milliseconds) } while ready < 0 && errno == EINTR
                continuation.resume(returning: ready == 1 && descriptor.revents & Int16(POLLHUP) != 0)
            }
        }
    }

    func readLines(until count: @escaping @Sendable (Int) -> Bool, within limit: Duration) async -> [ArraySlice<UInt8>]
    {
        await readLines(until: { lines, _ in count(lines) }, within: limit)
    }
}
