import Glibc
import HostProcess
import Protocol
import SceneHostTesting
import SceneModel
import Testing

/// How an idle worker waits for its next request (docs/ARCHITECTURE.md, "The worker's main
/// queue between requests"): in a plain read(2) of stdin while its main thread is its only
/// thread, so nothing else can queue main-queue work; in poll(2) on stdin and the main
/// queue's eventfd once a thread exists that could.
@Suite struct WorkerWaitTests {
    @Test func anIdleWorkerReadsWhileItHasOneThreadAndPollsOnceItHasMore() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let pid = try #require(await scene.status().pid)
            // ThreadSanitizer's runtime runs a thread of its own in every process.
            if !runsUnderThreadSanitizer {
                #expect(WorkerSyscall.threads(of: pid) == 1)
                try await WorkerSyscall.waitUntilBlocked(pid, in: WorkerSyscall.read)
            }
            // Work the app queues on the main actor from a callback, with no thread: it runs
            // before the worker waits again (the wait would otherwise hold it until a request).
            var mark = host.lastSeq
            try await scene.notify("openDetailLater", value: .int(0))
            #expect(await appCallback(in: host, after: mark, .viewDidAppear, "Detail") != nil)
            try await scene.pop()
            // A task that sleeps starts the runtime's threads: from then on the worker polls,
            // and the sleeper's wake-up, queued on the main queue by another thread, wakes it.
            mark = host.lastSeq
            try await scene.notify("openDetailLater", value: .int(20))
            #expect(await appCallback(in: host, after: mark, .viewDidAppear, "Detail") != nil)
            #expect(WorkerSyscall.threads(of: pid) > 1)
            try await WorkerSyscall.waitUntilBlocked(pid, in: WorkerSyscall.poll)
            #expect(await scene.status().stack == ["Root", "Detail"])
        }
    }

    /// A worker alone in its process looks at its main queue itself, not at the queue's
    /// eventfd, after each request: one `read(2)` per request (stdin), as the echo child's, not
    /// two. (The look finds libdispatch's queue layout by a probe at launch; a libdispatch
    /// whose layout changed falls back to the eventfd, and this says so.)
    @Test(.enabled(if: !runsUnderThreadSanitizer, "a sanitizer's thread makes every worker poll"))
    func aWorkerAloneMakesOneReadPerRequest() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let pid = try #require(await scene.status().pid)
            #expect(WorkerSyscall.threads(of: pid) == 1)
            let before = try #require(WorkerSyscall.readCalls(of: pid))
            let requests = 100
            for _ in 0..<requests / 2 {
                try await scene.deactivate()
                try await scene.activate()
            }
            let reads = try #require(WorkerSyscall.readCalls(of: pid)) - before
            // Still alone: a second thread would make it poll, and `poll` is no read.
            #expect(WorkerSyscall.threads(of: pid) == 1)
            #expect(reads >= requests && reads < requests + requests / 4, "\(reads) reads for \(requests) requests")
        }
    }

    /// Work a callback queued on the main queue runs before the next request even when the
    /// host wrote that request already (both frames in one read), as on a device, where the
    /// main queue's work runs before the next event: `openDetailLater` queues a push, and the
    /// notification written with it arrives after Detail appeared. (It arrived first.)
    @Test func workQueuedByARequestRunsBeforeTheNextOneAlreadyWritten() async throws {
        var frames: [UInt8] = []
        let commands: [HostCommand] = [
            .hello(protocolVersion: ProtocolVersion.current),
            .request(id: 1, .connect(ConnectOptions(session: "A"))),
            .request(id: 2, .notify(name: "openDetailLater", value: .int(0))),
            .request(id: 3, .notify(name: "ping", value: .null)),
        ]
        for command in commands {
            command.encode(into: &frames)
            if frames.last != UInt8(ascii: "\n") { frames.append(UInt8(ascii: "\n")) }
        }
        let file = makeTemporaryDirectory() + "/frames"
        #expect(writeBytes(file, frames))
        let run = try await runCommand(["/bin/sh", "-c", #"exec "$0" worker < "$1""#, TestWorker.hostctl, file])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let detail = lines.firstIndex { $0.contains(#""viewDidAppear""#) && $0.contains(#""Detail""#) }
        let ping = lines.firstIndex { $0.contains(#""ping""#) }
        #expect(detail != nil && ping != nil && detail! < ping!, "\(lines)")
    }

    /// The first event after `seq` that is the app's `name` callback for `vc`.
    private func appCallback(
        in host: SceneHost,
        after seq: Int,
        _ name: CallbackName,
        _ vc: String
    ) async -> TraceEvent? {
        try? await host.trace.firstEvent(fromSeq: seq + 1, within: TestLimit.event, "the app's \(name.rawValue)") {
            $0.kind == .callback && $0.name == name.rawValue && $0.viewController == vc && $0.origin == "app"
        }
    }
}

/// What a process's main thread is blocked in, read from /proc (which tells no one: it is
/// looked at).
enum WorkerSyscall {
    static let read = 0
    static let poll = 7

    /// The system call the main thread of `pid` is in with its first argument, nil while it
    /// runs (`/proc/PID/syscall`: "running", or the number and the arguments in hex).
    static func current(of pid: Int32) -> (number: Int, firstArgument: Int)? {
        guard let text = ProcFile.text("/proc/\(pid)/syscall") else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let number = Int(fields[0]),
            let argument = Int(fields[1].dropFirst(2), radix: 16)
        else { return nil }
        return (number, argument)
    }

    /// How many read-like system calls `pid` made (`/proc/PID/io`'s `syscr`).
    static func readCalls(of pid: Int32) -> Int? {
        guard let text = ProcFile.text("/proc/\(pid)/io") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("syscr: ") {
            return Int(line.dropFirst("syscr: ".count))
        }
        return nil
    }

    /// How many threads `pid` has.
    static func threads(of pid: Int32) -> Int {
        guard let directory = opendir("/proc/\(pid)/task") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            if entry.pointee.d_name.0 != UInt8(ascii: ".") { count += 1 }
        }
        return count
    }

    /// Waits until the main thread of `pid` is blocked in system call `number` on stdin
    /// (`read`'s descriptor, or `poll`'s array, whose first entry is stdin: any address).
    static func waitUntilBlocked(_ pid: Int32, in number: Int) async throws {
        try await lookedAt("worker \(pid) blocked in system call \(number)", within: TestLimit.event) {
            guard let current = current(of: pid), current.number == number else { return false }
            return number != Self.read || current.firstArgument == 0
        }
    }
}
