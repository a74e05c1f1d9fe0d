import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

@Suite("Live control plane: what serve holds, and for how long")
struct ControlHardeningTests {
    @Test("serve --trace on a full disk exits 3 at quit and names the error")
    func traceWriteFailure() async throws {
        let server = try await TestServer.start(extra: ["--trace", "/dev/full"])
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        #expect(try await server.run("quit").status == 0)
        #expect(try await server.process.exit() == .exited(status: 3))
        #expect(
            server.process.stderr == "hostctl serve: cannot write trace file /dev/full: No space left on device\n",
            "\(server.process.stderr)"
        )
    }

    @Test("a notify value nests at most 62 deep, so that every event frame stays readable")
    func notifyValueDepth() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        func notify(depth: Int) async -> [String] {
            let value = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let frame = #"{"id":1,"op":"notify","scene":"A","name":"deep","value":\#(value)}"# + "\n"
            return await rawExchange(socket: server.socket, Array(frame.utf8))
        }
        let deepest = await notify(depth: 62)
        #expect(deepest.count == 1 && decodeReply(deepest[0]).map { $0.code == nil } == true, "\(deepest)")
        let tooDeep = await notify(depth: 63)
        #expect(
            tooDeep.count == 1 && decodeReply(tooDeep[0])?.code == ProtocolError.Code.invalidParameters.rawValue,
            "\(tooDeep)"
        )
        #expect(tooDeep.first?.contains("nests deeper than 62") == true, "\(tooDeep)")
        // Every event the host accepted reaches a client: the 62-deep value is in its frame.
        let events = try await server.run("events", "--json")
        #expect(events.status == 0, "\(events.stderr)")
        #expect(events.stdout.contains(String(repeating: "[", count: 62)), "\(events.stdout.suffix(200))")
        try await server.quit()
    }
}

@Suite("Scenes a request names but never makes anything of")
struct TransientSceneTests {
    @Test("refused operations and timed-out waits on new names leave no scene, no ps row, no checker")
    func refusalsLeaveNothing() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            for index in 0..<200 {
                await #expect(throws: HostError.self) { try await host.perform(.pop, on: "N\(index)") }
            }
            #expect(await host.statuses().isEmpty)
            #expect(await host.controlRows().isEmpty)
            // A wait on a name nobody connects (the control server's path) leaves nothing either.
            await #expect(throws: HostError.self) {
                try await host.using("W") {
                    try await SceneHandle(controller: $0, frameLimit: 1 << 20).waitFor(
                        .foregroundActive,
                        timeout: .zero
                    )
                }
            }
            #expect(await host.statuses().isEmpty)
            // A connected scene stays, and so does one with a stored session after it disconnected.
            try await host.perform(.connect(background: false, root: "Root", worker: nil), on: "A")
            await #expect(throws: HostError.self) { try await host.perform(.pop, on: "A") }
            #expect(await host.statuses().map(\.scene) == ["A"])
        }
    }

    @Test("a connect whose worker cannot start leaves no scene, no session, and says why in the trace")
    func aConnectThatCannotSpawnLeavesNothing() async throws {
        let state = makeTemporaryDirectory()
        var configuration = TestWorker.configuration()
        configuration.stateDirectory = state
        try await withSceneHost(configuration: configuration) { host in
            await #expect(throws: HostError.self) {
                try await host.perform(.connect(background: false, root: "Root", worker: ["/no/such/worker"]), on: "A")
            }
            #expect(await host.statuses().isEmpty)
            #expect(await host.controlRows().isEmpty)
            #expect(!SessionStoreHardeningTests.list(state + "/sessions").contains("A.json"))
            let errors = host.trace.history.filter { $0.kind == .error && $0.scene == "A" }
            #expect(errors.map(\.op) == ["connect"])
            #expect(errors.first?.message?.contains("/no/such/worker") == true, "\(errors)")
            // The name is free: a connect with a worker that starts succeeds as on a new scene.
            try await host.perform(.connect(background: false, root: "Root", worker: nil), on: "A")
            #expect(await host.statuses().map(\.process) == [.running])
        }
    }

    @Test("a refusal racing a connect on the same new name never loses the connected scene")
    func refusalRacingAConnect() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            await withTaskGroup(of: Void.self) { group in
                for index in 0..<20 {
                    group.addTask {
                        try? await host.perform(.connect(background: false, root: "Root", worker: nil), on: "S\(index)")
                    }
                    group.addTask { try? await host.perform(.pop, on: "S\(index)") }
                    group.addTask { try? await host.perform(.activate, on: "S\(index)") }
                }
            }
            let statuses = await host.statuses()
            #expect(statuses.count == 20, "\(statuses.map(\.scene))")
            #expect(statuses.allSatisfy { $0.process == .running }, "\(statuses)")
        }
    }
}

@Suite("Live control plane: ps however many scenes there are")
struct PsLimitTests {
    @Test("ps rows are cut to the reply limit and the rest counted")
    func psRowsWithinTheLimit() throws {
        let rows = (0..<100).map {
            ControlSceneRow(scene: "S\($0)", hasSession: true, activation: .unattached, process: .none)
        }
        var one: [UInt8] = []
        JSONWriter.write(rows[0].json, into: &one)
        let (shown, omitted) = ControlServer.psRows(rows, within: (one.count + 1) * 10)
        #expect(shown == Array(rows.prefix(10)) && omitted == 90)
        #expect(ControlServer.psRows(rows, within: 1 << 20) == (rows, 0))
        // One row too big on its own (a worker argv near the frame limit) hides no other.
        var huge = rows
        huge[0].worker = [String(repeating: "w", count: (one.count + 1) * 10)]
        let (others, left) = ControlServer.psRows(huge, within: (one.count + 1) * 10)
        // S1…S9 take what S0…S9 did but for one byte; S10 has a name one byte longer.
        #expect(others == Array(huge[1...9]) && left == 91, "\(others.map(\.scene)) \(left)")
        let reply = ControlReply(id: .int(1), result: .scenes(shown), omittedRows: omitted)
        let decoded = try JSONParser.parse(Array(reply.frame.dropLast()))
        #expect(ControlReply(json: decoded) == reply)
    }

    @Test("30,000 stored sessions: ps still answers, with the rows that fit and a count of the rest")
    func psOfManySessions() async throws {
        let directory = try makePrivateDirectory()
        let sessions = directory + "/state/sessions"
        mkdir(directory + "/state", 0o700)
        mkdir(sessions, 0o700)
        // 64-byte names: each row is about 210 bytes, 6.3 MB in all, well over a client's 4 MiB.
        let count = 30_000
        for index in 0..<count {
            let name = "S" + String(repeating: "0", count: 57) + String(index + 100_000)
            let text =
                #"{"configuration":"Default Configuration","identifier":"\#(name)","restoration":{"stack":["Root"]},"role":"windowApplication"}"#
            let descriptor = open(sessions + "/" + name + ".json", O_CREAT | O_WRONLY | O_TRUNC, 0o600)
            _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        let server = try await TestServer.start(directory: directory, extra: ["--state-dir", directory + "/state"])
        defer { server.kill() }
        let ps = try await server.run("ps", "--json")
        #expect(ps.status == 0, "\(ps.stderr)")
        guard case .array(let items) = try JSONParser.parse(Array(ps.stdout.utf8)) else {
            Issue.record("ps --json did not print an array")
            return
        }
        #expect(items.count > 1000 && items.count < count, "\(items.count)")
        #expect(
            ps.stderr == "hostctl ps: \(count - items.count) more scenes not shown (the reply is limited to 1 MiB)\n"
        )
        try await server.quit()
    }
}

@Suite("Live control plane: events streams hold a batch, not the history")
struct EventStreamLimitTests {
    /// A client asks for `events` (`follow` or not), reads one frame and stops reading while
    /// the host records 4 MiB of new events against a 2 MiB history. The stream must not
    /// have kept what the history dropped: when the client reads on, it gets the events up
    /// to where its stream stood, then -32005 "fell behind", and the connection closes.
    /// (A stream with its own copy or queue would deliver every event instead.)
    @Test("a client that stops reading is told it fell behind, not buffered for", arguments: [false, true])
    func slowReaderFallsBehind(follow: Bool) async throws {
        var configuration = TestWorker.configuration()
        configuration.traceHistoryLimitBytes = 2 << 20
        try await withSceneHost(configuration: configuration) { host in
            // A stalled client is disconnected after the stall limit, without a reply: under a
            // sanitizer on a loaded machine, recording the 64 events below has taken longer than
            // the default 10 s, so this test, which is about falling behind, allows more.
            let server = try startedControlServer(for: host, stallLimit: .seconds(300))
            let value = JSONValue.string(String(repeating: "v", count: 64 << 10))
            // Enough history that the plain `events` has more to send than fits in the pipe.
            for _ in 0..<28 { host.trace.record(TraceEvent(kind: .host, name: "before", value: value)) }
            let lastBefore = host.trace.lastSeq

            let client = try #require(RawClient(socket: server.path))
            defer { client.close() }
            var size: Int32 = 4096
            setsockopt(client.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            let request = #"{"id":1,"op":"events","fromSeq":1,"follow":\#(follow)}"# + "\n"
            let first = await onThread { () -> RawClient.Read in
                _ = client.write(Array(request.utf8))
                return client.readFrame()
            }
            guard case .frame(let firstFrame) = first else {
                Issue.record("no first frame: \(first)")
                return
            }
            #expect(firstFrame.hasPrefix(#"{"event":{"seq":1,"#))
            // 64 new events of 64 KiB: the history (2 MiB) drops everything the stream has not sent.
            for _ in 0..<64 { host.trace.record(TraceEvent(kind: .host, name: "after", value: value)) }

            let frames = await onThread { () -> [RawClient.Read] in
                var frames: [RawClient.Read] = []
                while true {
                    let read = client.readFrame()
                    frames.append(read)
                    guard case .frame(let frame) = read, frame.hasPrefix(#"{"event""#) else { break }
                }
                frames.append(client.readFrame())
                return frames
            }
            let events = frames.dropLast(2).count
            #expect(events < lastBefore - 1, "the stream stopped short of what the history dropped: \(events) events")
            guard case .frame(let reply) = frames[frames.count - 2] else {
                Issue.record("no reply: \(frames.suffix(2))")
                return
            }
            #expect(decodeReply(reply)?.code == ProtocolError.Code.resourceExhausted.rawValue, "\(reply)")
            #expect(reply.contains("fell behind"), "\(reply)")
            #expect(frames.last == .closed)
            server.shutdown()
            await server.finished()
            #expect(server.budget.used == 0)
        }
    }
}

@Suite("Live control plane: a client that reads nothing is let go")
struct StalledClientTests {
    /// A client asks for more history than the host buffers (1 MiB) and reads nothing: after
    /// the stall limit the host closes the connection (the client sees the hang-up while its
    /// data is still unread) and gives back what the connection held.
    @Test("a client that reads nothing for the stall limit is disconnected")
    func stalledClientIsDisconnected() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let server = try startedControlServer(for: host, stallLimit: .milliseconds(200))
            let value = JSONValue.string(String(repeating: "v", count: 64 << 10))
            for _ in 0..<40 { host.trace.record(TraceEvent(kind: .host, name: "before", value: value)) }
            let client = try #require(RawClient(socket: server.path))
            defer { client.close() }
            var size: Int32 = 4096
            setsockopt(client.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            let request = #"{"id":1,"op":"events","fromSeq":1}"# + "\n"
            let hungUp = await onThread { () -> Bool in
                _ = client.write(Array(request.utf8))
                // POLLRDHUP (Glibc leaves it out without _GNU_SOURCE): the peer closed, reported
                // even while unread data waits.
                let peerClosed = Int16(0x2000)
                var poller = pollfd(fd: client.descriptor, events: peerClosed, revents: 0)
                // The hang-up is the event waited for; 60 s only bounds a broken host.
                return poll(&poller, 1, 60_000) == 1 && poller.revents & peerClosed != 0
            }
            #expect(hungUp)
            server.shutdown()
            await server.finished()
            #expect(server.budget.used == 0)
        }
    }
}

@Suite("Budgets count what is held, not wire bytes")
struct HeldSizeTests {
    /// Measured RSS (a recorder holding 5,000 such events): an array of 300 two-member
    /// objects takes about 84 KB for 5 KB of JSON; 1,000 integers 25 KB for 2 KB; a bare
    /// event 208 bytes (200,000 of them in a `TraceHistory`).
    @Test("the history's estimate of a value is at least what the value was measured to hold")
    func historyEstimates() throws {
        let objects = try JSONParser.parse(
            Array(("[" + Array(repeating: #"{"a":1,"bb":"x"}"#, count: 300).joined(separator: ",") + "]").utf8)
        )
        let integers = try JSONParser.parse(
            Array(("[" + Array(repeating: "1", count: 1000).joined(separator: ",") + "]").utf8)
        )
        #expect(TraceEvent(kind: .host, name: "n", value: objects).estimatedSize >= 84_000)
        #expect(TraceEvent(kind: .host, name: "n", value: integers).estimatedSize >= 24_900)
        #expect(TraceEvent(kind: .host, name: "tick").estimatedSize >= 208)
    }

    /// Frames read in one go are queued only while the connection takes more requests
    /// (`ControlConnection.maximumPending`): each queued refusal holds far more than its
    /// one-byte frame, so 8,192 garbage lines behind a wait once filled a 1 MiB budget from one
    /// read. Now the connection pauses at its limit, the rest waits in the decoder, and every
    /// line is refused in its turn once the wait ends, none lost, with the budget's peak a
    /// small part of it.
    ///
    /// The wait ends when the test connects A, once the server has paused the connection (not
    /// after some time: on a loaded machine a 100 ms `sleep` could end before the server read
    /// the lines).
    @Test func oneReadQueuesNoMoreThanTheConnectionTakes() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let budget = 1 << 20
            let server = try startedControlServer(for: host, bufferBudget: budget)
            let client = try #require(RawClient(socket: server.path))
            defer { client.close() }
            let garbage: [UInt8] = Array(repeating: [UInt8(ascii: "x"), 10], count: 8192).flatMap { $0 }
            let wait = Array(#"{"id":1,"op":"waitFor","scene":"A","state":"foregroundActive","timeoutMs":120000}"#.utf8)
            let written = await onThread { client.write(wait + [10] + garbage) }
            #expect(written)
            try await lookedAt("the server to pause the client", within: TestLimit.event, every: .milliseconds(5)) {
                server.connections.withLock { $0.values.contains { !$0.wantsRead && !$0.hasEndedReading } }
            }
            // A read's buffer, what the decoder keeps, and the connection's limit of queued
            // refusals: far from the megabyte the lines' refusals would hold at once. (Later
            // the replies the client has not read yet are charged too.)
            #expect(server.budget.peak < 256 << 10, "peak \(server.budget.peak)")
            try await host.scene("A").connect()
            // The half-close makes the server close once every line is answered.
            shutdown(client.descriptor, Int32(SHUT_WR))
            let frames = await onThread { () -> [RawClient.Read] in
                var frames: [RawClient.Read] = []
                while true {
                    let frame = client.readFrame()
                    frames.append(frame)
                    if frame.frame == nil { return frames }
                }
            }
            let replies = frames.compactMap { $0.frame.flatMap(decodeReply) }
            #expect(replies.first.map { $0.id == .int(1) && $0.code == nil } == true, "\(replies.prefix(1))")
            let parseErrors = replies.dropFirst().filter { $0.code == ProtocolError.Code.parseError.rawValue }
            #expect(
                parseErrors.count == 8192 && replies.count == 8193,
                "\(parseErrors.count) of \(replies.count) replies; the last: \(replies.suffix(2)), \(frames.suffix(2))"
            )
            #expect(frames.last == .closed)
            #expect(server.budget.peak <= budget)
            server.shutdown()
            await server.finished()
        }
    }

    /// A client the host disconnects has nothing more run: told to try again later, it
    /// repeats nothing that ran after it was told. Here the first client holds the most of a
    /// 1 MiB budget (an unfinished 600 KiB frame) behind a `sleep` and a queued `connect` when
    /// a second client's frame needs room: it is evicted, and the `connect` used to run once
    /// the sleep ended. (A client that hangs up itself still has what it sent run: ControlTests.)
    @Test func aClientTheHostDisconnectsHasNothingMoreRun() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let server = try startedControlServer(for: host, bufferBudget: 1 << 20)
            let first = try #require(RawClient(socket: server.path))
            defer { first.close() }
            let requests = #"{"id":1,"op":"sleep","ms":600000}"# + "\n" + #"{"id":2,"op":"connect","scene":"B"}"# + "\n"
            let unfinished = [UInt8](repeating: UInt8(ascii: "x"), count: 600 << 10)
            #expect(await onThread { first.write(Array(requests.utf8) + unfinished) })
            try await lookedAt("the server to hold the first frame", within: TestLimit.event, every: .milliseconds(5)) {
                server.budget.used >= 600 << 10
            }
            let second = try #require(RawClient(socket: server.path))
            #expect(await onThread { second.write(unfinished) })
            let evicted = await onThread { first.readFrame() }
            #expect(evicted.frame?.contains("try again later") == true, "\(evicted)")
            second.close()
            try await lookedAt("every request answered", within: TestLimit.event, every: .milliseconds(5)) {
                server.budget.used == 0
            }
            #expect(host.trace.history.filter { $0.scene == "B" }.isEmpty)
            server.shutdown()
            await server.finished()
        }
    }

    /// A quit ends a running `sleep` (or `waitFor`) at once, answered as the quit's: it held
    /// the connection busy, and the exit with it, for the quit's 2 s idle wait.
    @Test func aQuitEndsTheWaitsUnderWay() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let server = try startedControlServer(for: host)
            let client = try #require(RawClient(socket: server.path))
            defer { client.close() }
            let first = await onThread { () -> RawClient.Read in
                _ = client.write(
                    Array(#"{"id":0,"op":"ps"}"#.utf8 + [10] + #"{"id":1,"op":"sleep","ms":600000}"#.utf8 + [10])
                )
                return client.readFrame()
            }
            #expect(first.frame.flatMap(decodeReply)?.id == .int(0), "\(first)")
            server.shutdown()
            let second = await onThread { client.readFrame() }
            #expect(second.frame.flatMap(decodeReply).map { $0.id == .int(1) && $0.code != nil } == true, "\(second)")
            #expect(second.frame?.contains("the wait ended unfinished") == true, "\(second)")
            await server.finished()
        }
    }

    /// A queued request is charged what it holds decoded: a 700 KiB frame of small objects
    /// (about 19 MiB as JSON values) does not fit a 4 MiB budget, though its frame does.
    @Test("a queued request is charged its decoded size: one that does not fit is refused with -32005")
    func queuedRequestsByDecodedSize() async throws {
        try await withSceneHost(configuration: TestWorker.configuration()) { host in
            let budget = 4 << 20
            let server = try startedControlServer(for: host, bufferBudget: budget)
            let objects = "[" + Array(repeating: #"{"a":1}"#, count: 90_000).joined(separator: ",") + "]"
            let small = #"{"id":3,"op":"notify","scene":"A","name":"n","value":[1,2,3]}"#
            let requests = [
                #"{"id":1,"op":"sleep","ms":200}"#,  // the next one is read while it runs
                #"{"id":2,"op":"notify","scene":"A","name":"n","value":\#(objects)}"#,
            ]
            let client = try #require(RawClient(socket: server.path))
            defer { client.close() }
            // The refusal is decided as the frame is read, and answered in its turn: after the
            // sleep's reply.
            let replies = await onThread { () -> (RawClient.Read, RawClient.Read) in
                _ = client.write(Array((requests.joined(separator: "\n") + "\n").utf8))
                return (client.readFrame(), client.readFrame())
            }
            guard case .frame(let first) = replies.0 else {
                Issue.record("expected the sleep's reply, got \(replies.0)")
                return
            }
            #expect(decodeReply(first).map { $0.id == .int(1) && $0.code == nil } == true, "\(first)")
            guard case .frame(let frame) = replies.1, let decoded = decodeReply(frame) else {
                Issue.record("expected a refusal, got \(replies.1)")
                return
            }
            #expect(decoded.id == .int(2) && decoded.code == ProtocolError.Code.resourceExhausted.rawValue, "\(frame)")
            #expect(frame.contains("by queued requests"), "\(frame)")
            #expect(server.budget.peak <= budget)
            // Small requests from another client still fit.
            let other = await rawExchange(socket: server.path, Array((small + "\n").utf8))
            #expect(other.first.flatMap(decodeReply).map { $0.id == .int(3) } == true, "\(other)")
            server.shutdown()
            await server.finished()
            #expect(server.budget.used == 0)
        }
    }
}
