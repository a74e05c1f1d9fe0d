import HostTools
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

/// A pipe whose read end a dedicated thread reads (never a cooperative thread).
private struct OutputPipe {
    let read: Int32
    let write: Int32

    init(capacity: Int32? = nil) {
        var fds: [Int32] = [-1, -1]
        precondition(pipe(&fds) == 0)
        read = fds[0]
        write = fds[1]
        // F_SETPIPE_SZ (1031), which Glibc does not export.
        if let capacity { _ = fcntl(write, 1031, capacity) }
    }

    /// Reads on a thread of its own until `done` says the text so far is complete.
    func text(until done: @escaping @Sendable (String) -> Bool) async -> String {
        let descriptor = read
        return await withCheckedContinuationFromAnyThread { continuation in
            PlatformThread.startDetached(name: "test-reader") {
                var bytes: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                while !done(String(decoding: bytes, as: UTF8.self)) {
                    let count = Glibc.read(descriptor, &buffer, buffer.count)
                    if count <= 0 { break }
                    bytes += buffer[0..<count]
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}

private func forward(_ text: String, _ forwarder: StderrForwarder, scene: String = "A", pid: Int32 = 7) {
    Array(text.utf8).withUnsafeBytes { forwarder.forward($0, scene: scene, pid: pid) }
}

@Suite(.timeLimit(.minutes(5)))
struct StderrForwarderTests {
    @Test func everyLineGetsThePrefixAndPartialLinesWaitForTheirEnd() async {
        let output = OutputPipe()
        let forwarder = StderrForwarder(descriptor: output.write, lineLimit: 8)
        forward("one\ntw", forwarder)
        forward("o\n\nthr", forwarder, scene: "B", pid: 9)
        forward("ee\n", forwarder, scene: "B", pid: 9)
        forward("0123456789ab\n", forwarder)
        forward("unfinished", forwarder)
        forwarder.streamEnded(pid: 7)
        forwarder.streamEnded(pid: 7)  // nothing left: writes nothing
        forward("end\n", forwarder)
        let text = await output.text { $0.hasSuffix("[A 7] end\n") }
        let expected = [
            "[A 7] one", "[B 9] o", "[B 9] ", "[B 9] three", "[A 7] tw012345", "[A 7] 6789ab",
            "[A 7] unfinish", "[A 7] ed", "[A 7] end",
        ]
        #expect(text == expected.map { $0 + "\n" }.joined())
    }

    @Test func aStalledOutputNeverBlocksTheCallerAndTheLossIsReportedWithItsCount() async {
        let output = OutputPipe(capacity: 4096)
        let forwarder = StderrForwarder(descriptor: output.write, capacity: 8192)
        let total = 2_000
        // Nobody reads: the pipe fills, the writer blocks, the queue fills, lines are dropped.
        for index in 0..<total {
            forward("line \(index) " + String(repeating: "x", count: 80) + "\n", forwarder)
        }
        #expect(forwarder.pendingDropCount > 0)
        let text = await output.text { text in
            let lines = text.split(separator: "\n")
            let dropped = lines.compactMap { line -> Int? in
                guard line.hasPrefix("[scenehost] ") else { return nil }
                return Int(line.dropFirst("[scenehost] ".count).prefix { $0.isNumber })
            }
            return lines.count - dropped.count + dropped.reduce(0, +) == total
        }
        let lines = text.split(separator: "\n")
        let notices = lines.filter { $0.hasPrefix("[scenehost] ") }
        let forwarded = lines.filter { $0.hasPrefix("[A 7] line ") }
        #expect(!notices.isEmpty)
        #expect(notices.allSatisfy { $0.hasSuffix("dropped: the host's stderr was not being read") })
        #expect(forwarded.count + notices.count == lines.count)
        // What got through is whole lines, in order.
        let numbers = forwarded.compactMap { Int($0.split(separator: " ")[3]) }
        #expect(numbers.count == forwarded.count)
        #expect(numbers == numbers.sorted())
        #expect(forwarded.allSatisfy { $0.hasSuffix(String(repeating: "x", count: 80)) })
    }
}
