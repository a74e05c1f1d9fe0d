import Dispatch
import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

#if canImport(Glibc)
import Glibc
#endif

// End-to-end tests of the live control plane: a real `hostctl serve` process and real
// clients (the `hostctl` binary, or raw sockets where the test needs to misbehave).
// Everything synchronizes on output lines and exits; nothing sleeps.

@Suite("Live control plane: hostctl serve and its clients")
struct ControlTests {
    @Test("connect, push, a refusal, ps --json, quit")
    func connectPushPs() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }

        #expect(try await server.run("connect", "A").status == 0)
        #expect(try await server.run("push", "A", "--vc", "Detail").status == 0)
        #expect(try await server.run("connect", "B", "--background", "--root", "Library").status == 0)
        #expect(try await server.run("notify", "A", "--name", "sync", "--value", #"{"n":1}"#).status == 0)

        let refused = try await server.run("activate", "A")
        #expect(refused.status == 3)
        #expect(refused.stderr.hasPrefix("hostctl activate: scene A: activate refused"), "\(refused.stderr)")
        #expect(refused.stderr.split(separator: "\n").count == 1)

        let usage = try await server.run("push", "A")
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("--vc"))

        let scenes = try await server.scenes()
        let a = try #require(scenes["A"])
        #expect(a.activation == .foregroundActive)
        #expect(a.process == .running)
        #expect(a.hasSession)
        #expect(a.stack == ["Root", "Detail"])
        #expect((a.pid ?? 0) > 0)
        #expect((a.residentBytes ?? 0) > 0)
        #expect(a.uptimeSeconds != nil)
        let b = try #require(scenes["B"])
        #expect(b.activation == .background)
        #expect(b.stack == ["Library"])

        let table = try await server.run("ps")
        #expect(table.status == 0)
        #expect(table.stdout.hasPrefix("SCENE"))
        #expect(table.stdout.contains("foregroundActive"))

        // The readable trace, from the start, without --follow: prints and exits.
        let events = try await server.run("events")
        #expect(events.status == 0)
        #expect(events.stdout.contains("A            viewDidAppear             Detail"), "\(events.stdout)")
        #expect(events.stdout.contains("didReceiveNotification  sync = {\"n\":1}"))

        try await server.quit()
    }

    @Test("a worker killed from outside shows up in events --follow --json as exited/killed")
    func killFromOutside() async throws {
        let directory = try makePrivateDirectory()
        let tracePath = directory + "/trace.jsonl"
        let server = try await TestServer.start(directory: directory, extra: ["--trace", tracePath])
        defer { server.kill() }
        let follower = try server.spawn("events", "--follow", "--json")
        defer { try? follower.child.send(signal: SIGKILL) }

        #expect(try await server.run("connect", "A").status == 0)
        let pid = try #require(try await server.scenes()["A"]?.pid)
        #expect(Glibc.kill(pid, SIGKILL) == 0)

        let exitedLine = await follower.line { line in
            guard let event = try? TraceEvent(jsonLine: Array(line.utf8)) else { return false }
            return event.scene == "A" && event.processEvent == .exited && event.pid == pid
        }
        let exited = try TraceEvent(jsonLine: Array(try #require(exitedLine).utf8))
        #expect(exited.reason == .killed)
        #expect(exited.signal == "KILL")

        try await server.quit()
        // The follow stream ends when the host quits; the client then exits 0.
        #expect(await follower.status() == 0)
        #expect(follower.stdout.contains(#""name":"stopped""#))
        // Everything the follower saw is the trace file, line for line.
        let file = String(decoding: readWholeFile(tracePath, limit: 1 << 24) ?? [], as: UTF8.self)
        #expect(follower.stdout == file)
        #expect(try TraceVerifier.verify(contentsOf: tracePath).failure == nil)
    }

    @Test("16 concurrent clients each get exactly one reply")
    func concurrentClients() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)

        let socket = server.socket
        let (statuses, rawReplies) = try await withThrowingTaskGroup(of: (Int32?, [String]?).self) { group in
            for index in 0..<16 {
                group.addTask {
                    let result = try await server.run("notify", "A", "--name", "cli", "--value", String(index))
                    return (result.status, nil)
                }
                group.addTask {
                    let request = #"{"id":\#(100 + index),"op":"notify","scene":"A","name":"raw","value":\#(index)}"#
                    return (nil, await rawExchange(socket: socket, Array((request + "\n").utf8)))
                }
            }
            var statuses: [Int32] = []
            var replies: [[String]] = []
            for try await (status, frames) in group {
                if let status { statuses.append(status) }
                if let frames { replies.append(frames) }
            }
            return (statuses, replies)
        }
        #expect(statuses == [Int32](repeating: 0, count: 16))
        var ids: Set<Int> = []
        for frames in rawReplies {
            #expect(frames.count == 1, "exactly one reply, got \(frames)")
            if let reply = frames.first.flatMap(decodeReply), case .int(let id) = reply.id, reply.code == nil {
                ids.insert(id)
            }
        }
        #expect(ids == Set(100..<116))

        // Every one of the 32 operations ran.
        let trace = try await server.run("events", "--json")
        let notifications = trace.stdout.split(separator: "\n").filter {
            $0.contains(#""name":"didReceiveNotification""#)
        }
        #expect(notifications.count == 32)
        try await server.quit()
    }

    @Test("garbage, oversized frames and vanished clients affect nobody else")
    func misbehavingClients() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)

        let frames = await rawExchange(
            socket: server.socket,
            Array(
                """
                {"id":6,"op":"sleep","ms":50}
                this is not json
                {"id":7,"op":"ps"}
                {"id":8,"op":"teleport","scene":"A"}
                {"id":9,"op":"push","scene":"A"}
                [1,2]
                {"id":10,"op":"push","scene":"A","vc":"Detail","colour":"red"}

                """.utf8
            )
        )
        // One reply per frame, in the frames' order (CONTROL.md): a frame refused as it was
        // read waits for the replies of the requests before it, the sleep's included, so a
        // client can tell which frame a reply with a null id answers.
        let replies = frames.compactMap(decodeReply)
        #expect(
            replies.map { "\($0.id) \($0.code.map(String.init) ?? "ok")" } == [
                "\(JSONValue.int(6)) ok",
                "\(JSONValue.null) \(ProtocolError.Code.parseError.rawValue)",
                "\(JSONValue.int(7)) ok",
                "\(JSONValue.int(8)) \(ProtocolError.Code.unknownOperation.rawValue)",
                "\(JSONValue.int(9)) \(ProtocolError.Code.invalidParameters.rawValue)",
                "\(JSONValue.null) \(ProtocolError.Code.invalidMessage.rawValue)",
                "\(JSONValue.int(10)) \(ProtocolError.Code.invalidParameters.rawValue)",
            ],
            "\(frames)"
        )

        // A frame over 1 MiB: an error, then the server hangs up.
        let huge = [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) + 4096) + [UInt8(ascii: "\n")]
        let oversized = await rawExchange(socket: server.socket, huge, halfClose: false)
        #expect(oversized.first.flatMap(decodeReply)?.code == ProtocolError.Code.frameTooLarge.rawValue, "\(oversized)")

        // A client that sends a push and vanishes at once: the push still happens.
        let follower = try server.spawn("events", "--follow", "--json")
        defer { try? follower.child.send(signal: SIGKILL) }
        _ = await onThread { [socket = server.socket] in
            guard let descriptor = try? ControlSocket.connect(path: socket) else { return false }
            let request = Array(#"{"id":1,"op":"push","scene":"A","vc":"Gone"}"#.utf8) + [10]
            let written = request.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
            return written == request.count
        }
        let appeared = await follower.line { $0.contains(#""name":"viewDidAppear","vc":"Gone""#) }
        #expect(appeared != nil)

        // Everyone else is fine.
        #expect(try await server.run("pop", "A").status == 0)
        #expect(try await server.scenes()["A"]?.stack == ["Root"])
        try await server.quit()
        #expect(await follower.status() == 0)
    }

    /// Hosts started at once on a stale socket: exactly one serves, however they interleave
    /// (each could remove the socket another had just bound, and two served, one of them at
    /// a path nobody could reach). Three rounds of three.
    @Test func hostsStartedAtOnceOnAStaleSocketServeOneAtATime() async throws {
        let directory = try makePrivateDirectory()
        let socket = directory + "/host.sock"
        for _ in 0..<3 {
            let stale = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socket.utf8)) }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            close(stale)
            let hosts = try (0..<3).map { _ in try Spawned([TestWorker.hostctl, "serve", "--socket", socket]) }
            defer { for host in hosts { try? host.child.send(signal: SIGKILL) } }
            var serving: [Spawned] = []
            for host in hosts where await host.line(where: { $0.hasPrefix("serving on") }) != nil {
                serving.append(host)
            }
            #expect(serving.count == 1, "\(hosts.map(\.stderr))")
            #expect(try await runHostctlClient(["quit", "--socket", socket]).status == 0)
            for host in hosts { _ = await host.exit() }
            #expect(access(socket, F_OK) != 0, "the socket went with its host")
        }
    }

    @Test("a stale socket is replaced, a live one is never stolen, unsafe paths are refused")
    func socketSafety() async throws {
        let directory = try makePrivateDirectory()
        let socket = directory + "/host.sock"

        // A stale socket: bound, then its listener went away without removing it.
        let stale = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(socket.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0)
        close(stale)

        let server = try await TestServer.start(socket: socket, directory: directory)
        defer { server.kill() }
        var info = stat()
        #expect(stat(socket, &info) == 0 && info.st_mode & 0o777 == 0o600, "mode 0600")

        // A second host on the same path: refused, exit 3; the first keeps serving.
        let second = try await runHostctlClient(["serve", "--socket", socket])
        #expect(second.status == 3)
        #expect(second.stderr.contains("already serving on \(socket)"), "\(second.stderr)")
        #expect(try await server.run("ps").status == 0)

        // Unsafe or impossible paths: usage errors (exit 2) that say why.
        let shared = directory + "/shared"
        mkdir(shared, 0o700)
        chmod(shared, 0o777)
        let writable = try await runHostctlClient(["serve", "--socket", shared + "/host.sock"])
        #expect(writable.status == 2)
        #expect(writable.stderr.contains("directory \(shared) is writable by others"), "\(writable.stderr)")
        let long = try await runHostctlClient([
            "serve", "--socket", directory + "/" + String(repeating: "s", count: 120),
        ])
        #expect(long.status == 2)
        #expect(long.stderr.contains("longer than the 107"), "\(long.stderr)")
        let file = directory + "/file"
        close(open(file, O_CREAT | O_WRONLY, 0o600))
        let notSocket = try await runHostctlClient(["serve", "--socket", file])
        #expect(notSocket.status == 2)
        #expect(notSocket.stderr.contains("not a socket"))

        // A client with nobody serving: runtime failure.
        let nobody = try await runHostctlClient(["ps", "--socket", directory + "/nobody.sock"])
        #expect(nobody.status == 3)
        #expect(nobody.stderr.contains("no host is serving"))

        // SIGINT stops the host like quit.
        try server.process.child.send(signal: SIGINT)
        #expect(await server.process.exit() == .exited(status: 0))
        #expect(access(socket, F_OK) != 0)
        unlink(file)
        rmdir(shared)
        rmdir(directory)
    }

    @Test("SIGTERM: every scene is terminated, no worker is left, exit 0")
    func sigterm() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        #expect(try await server.run("connect", "B", "--background").status == 0)
        #expect(try await server.run("waitFor", "B", "--process", "suspended", "--timeout-ms", "5000").status == 0)
        let follower = try server.spawn("events", "--follow", "--json", "--from-seq", "1")
        defer { try? follower.child.send(signal: SIGKILL) }
        // Its first line proves it is subscribed: the SIGTERM must not beat its connect.
        #expect(await follower.line { _ in true } != nil)
        let pids = try await server.scenes().values.compactMap(\.pid)
        #expect(pids.count == 2)

        try server.process.child.send(signal: SIGTERM)
        #expect(await server.process.exit() == .exited(status: 0), "\(server.process.stderr)")
        for pid in pids {
            #expect(Glibc.kill(pid, 0) == -1 && errno == ESRCH, "worker \(pid) is gone")
        }
        #expect(await follower.status() == 0)
        // A running scene is told (applicationWillTerminate); a suspended one is killed silently.
        let lines = follower.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains(#""scene":"A""#) && $0.contains("applicationWillTerminate") })
        #expect(!lines.contains { $0.contains(#""scene":"B""#) && $0.contains("applicationWillTerminate") })
        #expect(lines.last?.contains(#""name":"stopped""#) == true)
    }

    @Test("ps after a restart on the same --state-dir lists the stored sessions as unattached")
    func psAfterRestart() async throws {
        let directory = try makePrivateDirectory()
        let state = ["--state-dir", directory + "/state"]
        let first = try await TestServer.start(directory: directory, extra: state)
        defer { first.kill() }
        #expect(try await first.run("connect", "A").status == 0)
        #expect(try await first.run("push", "A", "--vc", "Detail").status == 0)
        #expect(try await first.run("background", "A").status == 0)
        #expect(try await first.run("connect", "B").status == 0)
        try await first.quit()

        let second = try await TestServer.start(directory: directory, extra: state)
        defer { second.kill() }
        let scenes = try await second.scenes()
        #expect(Set(scenes.keys) == ["A", "B"])
        for row in scenes.values {
            #expect(row.hasSession && row.activation == .unattached && row.process == .none, "\(row)")
            #expect(row.pid == nil && row.residentBytes == nil && row.uptimeSeconds == nil && row.stack == [])
        }
        let table = try await second.run("ps")
        let rows = table.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(
            Array(rows.dropFirst()) == [
                // The last columns: nothing presented, no tab bar, scene-based, no worker yet.
                ["A", "yes", "unattached", "none", "-", "-", "-", "-", "-", "scene", "-"],
                ["B", "yes", "unattached", "none", "-", "-", "-", "-", "-", "scene", "-"],
            ],
            "\(table.stdout)"
        )

        // Connecting A hands its stored state to the new worker; B stays listed.
        #expect(try await second.run("connect", "A").status == 0)
        let after = try await second.scenes()
        #expect(after["A"]?.process == .running)
        #expect(after["B"]?.activation == .unattached && after["B"]?.hasSession == true)
        let events = try await second.run("events", "--json")
        let connected = events.stdout.split(separator: "\n").filter { $0.contains(#""name":"willConnectTo""#) }
        #expect(
            connected.count == 1 && connected[0].contains(#""restoration":"#) && connected[0].contains("Detail"),
            "\(connected)"
        )
        try await second.quit()
    }

    @Test("serve names each damaged session file on stderr at start")
    func damagedSessionsOnStderr() async throws {
        let directory = try makePrivateDirectory()
        let sessions = directory + "/state/sessions"
        mkdir(directory + "/state", 0o700)
        mkdir(sessions, 0o700)
        for (name, content) in [
            ("A.json", "{garbage\n"), ("B.json", #"{"identifier":"C","configuration":"x","role":"y"}"#),
        ] {
            let descriptor = open(sessions + "/" + name, O_CREAT | O_WRONLY | O_TRUNC, 0o600)
            _ = Array(content.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            close(descriptor)
        }
        let server = try await TestServer.start(directory: directory, extra: ["--state-dir", directory + "/state"])
        defer { server.kill() }
        #expect(try await server.scenes().isEmpty)
        try await server.quit()  // stderr is complete once the process has exited

        let lines = server.process.stderr.split(separator: "\n").sorted()
        #expect(lines.count == 2, "\(server.process.stderr)")
        for (line, name) in zip(lines, ["A.json", "B.json"]) {
            let path = sessions + "/" + name
            #expect(
                line.hasPrefix("hostctl serve: damaged session file \(path) kept aside as \(path).damaged: "),
                "\(line)"
            )
        }
        #expect(lines.first?.contains("not valid JSON") == true)
        #expect(lines.last?.contains("does not match the file name") == true)
    }
}

@Suite("Live control plane: limits of hostctl serve")
struct ControlLimitTests {
    @Test("out of descriptors: extra clients are refused at once, and served again once some close")
    func outOfDescriptors() async throws {
        // 64 descriptors: the server's own take about a dozen, so 100 clients cannot all fit.
        let server = try await TestServer.start(fileLimit: 64)
        defer { server.kill() }
        let socket = server.socket

        enum Outcome: Equatable {
            case served
            case refused(code: Int?, message: String, then: RawClient.Read)
            case other(String)
        }
        // One client after another on one thread: each waits for its reply before the next
        // connects, so the served ones come first and every later one meets a full table.
        let start = ContinuousClock.now
        let (outcomes, kept, servedAgainAfter) = await onThread { () -> ([Outcome], [RawClient], [Duration]) in
            var outcomes: [Outcome] = []
            var kept: [RawClient] = []
            // When clients were served after one was refused, counted from the first client.
            var servedAgainAfter: [Duration] = []
            for index in 0..<100 {
                guard let client = RawClient(socket: socket) else {
                    outcomes.append(.other("connect failed: \(String(cString: strerror(errno)))"))
                    break
                }
                _ = client.write(Array(#"{"id":\#(index),"op":"ps"}"#.utf8) + [10])
                let read = client.readFrame()
                guard case .frame(let frame) = read, let value = try? JSONParser.parse(Array(frame.utf8)),
                    let reply = ControlReply(json: value)
                else {
                    outcomes.append(.other("client \(index): \(read)"))
                    client.close()
                    break  // a hung client: the rest would hang too
                }
                switch reply.result {
                case .scenes where reply.id == .int(index):
                    if outcomes.contains(where: { $0 != .served }) { servedAgainAfter.append(.now - start) }
                    outcomes.append(.served)
                    kept.append(client)
                case .failure(let error):
                    // A refused client is closed right after its reply.
                    outcomes.append(
                        .refused(code: error.code.rawValue, message: error.message, then: client.readFrame())
                    )
                    client.close()
                default:
                    outcomes.append(.other("client \(index): \(frame)"))
                    client.close()
                }
            }
            return (outcomes, kept, servedAgainAfter)
        }
        // The server's own words, should it have died (seen once under ThreadSanitizer in a
        // loaded full run: client 51 closed without a reply, then the socket refused).
        #expect(
            outcomes.count == 100,
            "\(outcomes.last.map { "\($0)" } ?? ""); server stderr: \(server.process.stderr.suffix(2000))"
        )
        // Served until the table is full, refused from then on, except after the server
        // closed some served clients for being idle over its 60 s limit (the hundred clients
        // have taken longer than that in a sanitized full suite): then served again.
        let served = outcomes.prefix { $0 == .served }.count
        #expect(served >= 20 && served < 64, "served \(served)")
        // Served again only once the first served client could have been closed as idle.
        #expect(servedAgainAfter.allSatisfy { $0 >= .seconds(60) }, "\(servedAgainAfter)")
        for outcome in outcomes.dropFirst(served) where outcome != .served {
            guard case .refused(let code, let message, let then) = outcome else {
                Issue.record("expected a refusal, got \(outcome)")
                continue
            }
            #expect(code == ProtocolError.Code.resourceExhausted.rawValue)
            #expect(message.contains("out of file descriptors"), "\(message)")
            #expect(then == .closed)
        }

        // The served clients hang up; the server's EOF on each proves it closed its end. One
        // that waited over the server's idle limit (the hundred clients above took more than
        // 60 s in a sanitized full suite) was closed with its farewell first.
        let endings = await onThread {
            kept.map { client in
                shutdown(client.descriptor, Int32(SHUT_WR))
                defer { client.close() }
                let read = client.readFrame()
                if case .frame(let frame) = read, frame.contains("idle for more than") { return client.readFrame() }
                return read
            }
        }
        #expect(endings.allSatisfy { $0 == .closed }, "\(endings.filter { $0 != .closed })")
        // Descriptors are free again: a client is served, and a worker can be spawned.
        let ps = try await server.run("ps")
        #expect(ps.status == 0, "\(ps.stderr)")
        let connect = try await server.run("connect", "A")
        #expect(connect.status == 0, "\(connect.stderr)")
        #expect(try await server.scenes()["A"]?.process == .running)
        try await server.quit()
    }

    @Test("every slot busy: the next client may only quit (a quit lane), then nobody; quit still works")
    func clientSlots() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        let socket = server.socket
        let limit = ControlServer.maximumConnections
        let (busy, refusals, extra) = await onThread {
            () -> (Int, [[RawClient.Read]], [RawClient]) in
            // Each holds its slot with a running `sleep`; its first `ps` proves it was taken.
            var clients: [RawClient] = []
            for index in 0..<limit {
                guard let client = RawClient(socket: socket) else { break }
                clients.append(client)
                _ = client.write(Array(#"{"id":\#(index),"op":"ps"}"#.utf8) + [10])
                guard case .frame(let frame) = client.readFrame(), decodeReply(frame)?.code == nil else { break }
                _ = client.write(Array(#"{"id":"s","op":"sleep","ms":600000}"#.utf8) + [10])
            }
            // The quit lanes are taken (and held, idle); the next client is refused at once.
            let lanes = (0..<ControlServer.quitLanes).compactMap { _ in RawClient(socket: socket) }
            var refusals: [[RawClient.Read]] = []
            if let beyond = RawClient(socket: socket) {
                refusals.append([beyond.readFrame(), beyond.readFrame()])
                beyond.close()
            }
            // A lane takes anything but quit with -32005, then closes.
            for lane in lanes {
                _ = lane.write(Array(#"{"id":"p","op":"ps"}"#.utf8) + [10])
                refusals.append([lane.readFrame(), lane.readFrame()])
                lane.close()
            }
            return (clients.count, refusals, clients)
        }
        defer { for client in extra { client.close() } }
        #expect(busy == limit)
        #expect(refusals.count == 1 + ControlServer.quitLanes)
        if case .frame(let frame)? = refusals.first?.first {
            #expect(frame.contains("too many clients (\(limit)); try again later"), "\(frame)")
        }
        for refusal in refusals.dropFirst() {
            guard case .frame(let frame)? = refusal.first, let reply = decodeReply(frame) else {
                Issue.record("expected a refusal, got \(refusal)")
                continue
            }
            #expect(reply.code == ProtocolError.Code.resourceExhausted.rawValue)
            #expect(frame.contains("too many clients (\(limit))") && frame.contains("only quit"), "\(frame)")
            #expect(refusal.last == .closed)
        }
        // `hostctl quit` gets through on a lane: the host stops, the sleeps are answered.
        try await server.quit()
    }

    @Test("hung-up clients free their slots at once, even with a 24 h wait running")
    func hungUpClientsFreeTheirSlots() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        let socket = server.socket
        let sent = await onThread { () -> Int in
            var sent = 0
            for _ in 0..<ControlServer.maximumConnections + 10 {
                guard let client = RawClient(socket: socket) else { break }
                if client.write(
                    Array(#"{"id":1,"op":"waitFor","scene":"X","state":"foregroundActive","timeoutMs":86400000}"#.utf8)
                        + [10]
                ) {
                    sent += 1
                }
                client.close()
            }
            return sent
        }
        #expect(sent == ControlServer.maximumConnections + 10)
        // Not a quit lane: a full client, served.
        #expect(try await server.run("connect", "A").status == 0)
        try await server.quit()
    }

    @Test("every slot held by an idle client: the one idle the longest makes room for a new one")
    func idleClients() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        let socket = server.socket
        let limit = ControlServer.maximumConnections
        let (opened, first) = await onThread { () -> (Int, [RawClient.Read]) in
            var clients: [RawClient] = []
            defer { for client in clients { client.close() } }
            for _ in 0..<limit {
                guard let client = RawClient(socket: socket) else { break }
                clients.append(client)
            }
            // The 257th is served; the first, idle the longest, is told and closed.
            guard let extra = RawClient(socket: socket) else { return (clients.count, []) }
            defer { extra.close() }
            _ = extra.write(Array(#"{"id":"x","op":"ps"}"#.utf8) + [10])
            guard case .frame(let frame) = extra.readFrame(), decodeReply(frame)?.code == nil else {
                return (clients.count, [])
            }
            return (clients.count, [clients[0].readFrame(), clients[0].readFrame()])
        }
        #expect(opened == limit)
        guard case .frame(let frame)? = first.first else {
            Issue.record("the idlest client was not told: \(first)")
            return
        }
        #expect(decodeReply(frame)?.code == ProtocolError.Code.resourceExhausted.rawValue)
        #expect(frame.contains("idle the longest"), "\(frame)")
        #expect(first.last == .closed)
        try await server.quit()
    }

    @Test("a connection idle beyond the idle limit is closed with -32005")
    func idleLimit() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        let server = try startedControlServer(for: host, idleLimit: .milliseconds(200))
        // Served by the host's event loop (its epoll set is watched there), no thread of its own.
        #expect(server.serving.withLock { $0.watch } != nil)
        let socket = server.path
        let reads = await onThread { () -> [RawClient.Read] in
            guard let client = RawClient(socket: socket) else { return [] }
            defer { client.close() }
            _ = client.write(Array(#"{"id":1,"op":"ps"}"#.utf8) + [10])
            return [client.readFrame(), client.readFrame(), client.readFrame()]
        }
        #expect(reads.count == 3)
        if case .frame(let reply)? = reads.first { #expect(decodeReply(reply)?.code == nil) }
        guard reads.count == 3, case .frame(let idle) = reads[1] else {
            Issue.record("expected the idle notice: \(reads)")
            return
        }
        #expect(decodeReply(idle)?.code == ProtocolError.Code.resourceExhausted.rawValue)
        #expect(idle.contains("idle for more than 0.2 s"), "\(idle)")
        #expect(reads[2] == .closed)
        server.shutdown()
        await server.finished()
        #expect(server.serving.withLock { $0.isTornDown })
    }

    @Test("clients together stay within the buffer budget; the largest holder is disconnected")
    func bufferBudget() async throws {
        let host = try SceneHost(configuration: TestWorker.configuration())
        let budget = 4 << 20
        let server = try startedControlServer(for: host, bufferBudget: budget)
        let socket = server.path

        // 12 clients each send 1 MiB less a few bytes of one unfinished frame: 12 MiB against
        // a 4 MiB budget. Small send buffers: when a client's write returns, the server has
        // read nearly all of it (or hung up), so together they must have hit the budget.
        let clients = 12
        let partial = [UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) - 16)
        let arrived = Barrier(count: clients)
        let replies = await withTaskGroup(of: RawClient.Read.self) { group in
            for _ in 0..<clients {
                group.addTask {
                    await onThread {
                        guard let client = RawClient(socket: socket) else {
                            arrived.wait()
                            return .frame("<connect failed>")
                        }
                        defer { client.close() }
                        var size: Int32 = 4096
                        setsockopt(client.descriptor, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
                        let wrote = client.write(partial)
                        // Every client has written (or was cut off) before any frame ends, so
                        // the server holds the survivors' frames all at once.
                        arrived.wait()
                        // A survivor ends its frame: not JSON, answered with -32700. One that
                        // was disconnected has its -32005 waiting.
                        if wrote { _ = client.write([10]) }
                        return client.readFrame()
                    }
                }
            }
            var replies: [RawClient.Read] = []
            for await reply in group { replies.append(reply) }
            return replies
        }
        var codes: [Int] = []
        for reply in replies {
            guard case .frame(let frame) = reply, let code = decodeReply(frame)?.code else {
                Issue.record("expected an error reply, got \(reply)")
                continue
            }
            codes.append(code)
        }
        let disconnected = codes.filter { $0 == ProtocolError.Code.resourceExhausted.rawValue }.count
        let survived = codes.filter { $0 == ProtocolError.Code.parseError.rawValue }.count
        #expect(disconnected + survived == clients, "\(codes)")
        #expect(disconnected >= clients - 4, "at most 4 MiB of unfinished frames fit: \(codes)")
        #expect(survived >= 1, "\(codes)")
        #expect(server.budget.peak <= budget)
        #expect(server.budget.peak > budget / 2, "the budget was reached: \(server.budget.peak)")

        // Nobody is left holding anything, and the next client is served normally.
        let frames = await rawExchange(socket: socket, Array(#"{"id":1,"op":"ps"}"#.utf8) + [10])
        #expect(frames.first.flatMap(decodeReply).map { $0.id == .int(1) && $0.code == nil } == true, "\(frames)")
        server.shutdown()
        await server.finished()
        #expect(server.budget.used == 0, "every charge was returned")
    }
}

@Suite("Control messages")
struct ControlMessageTests {
    @Test("every request round-trips through its frame")
    func requestRoundTrip() throws {
        let steps: [Scenario.Step] = [
            .scene("A", .connect()),
            .scene("A", .connect(background: true, root: "Library", worker: ["/bin/w", "--x"])),
            .scene("A", .push(viewController: "Detail")),
            .scene("A", .resize(width: 800, height: 600)),
            .scene("A", .notify(name: "sync", value: .object(["n": .int(1)]))),
            .scene("A", .kill(signal: SIGTERM)),
            .scene("A", .terminate),
            .memoryPressure,
            .waitFor(scene: "A", condition: .process(.suspended), timeout: .milliseconds(1500)),
            .waitFor(scene: "A", condition: .state(.background), timeout: .seconds(10)),
            .sleep(.milliseconds(5)),
            .quit,
        ]
        let bodies = steps.map { ControlRequest.Body.step($0) } + [.ps, .events(fromSeq: 7, follow: true)]
        for (index, body) in bodies.enumerated() {
            let request = ControlRequest(id: .int(index), body: body)
            let decoded = try ControlRequest(frame: Array(request.frame.dropLast()))
            #expect(decoded == request)
        }
    }

    @Test("a bad request names the problem and keeps its id")
    func badRequests() {
        func failure(_ text: String) -> ControlRequest.DecodingError? {
            do {
                _ = try ControlRequest(frame: Array(text.utf8))
                return nil
            } catch {
                return error
            }
        }
        #expect(failure(#"{"id":3,"op":"push","scene":"A"}"#)?.error.message == #"push: needs "vc""#)
        #expect(failure(#"{"id":3,"op":"push","scene":"A"}"#)?.id == .int(3))
        #expect(failure(#"{"id":"x","op":"pop","scene":"A","expectError":true}"#)?.error.code == .invalidParameters)
        #expect(failure(#"{"id":1,"op":"events","fromSeq":0}"#)?.error.code == .invalidParameters)
        #expect(failure(#"{"op":"fly"}"#)?.error.code == .unknownOperation)
        #expect(failure("nope")?.error.code == .parseError)
    }

    @Test("replies and event frames decode as the client reads them")
    func replies() throws {
        let row = ControlSceneRow(
            scene: "A",
            hasSession: true,
            activation: .background,
            process: .suspended,
            pid: 42,
            residentBytes: 3 << 20,
            uptimeSeconds: 1.5,
            stack: ["Root", "Detail"]
        )
        for reply in [
            ControlReply(id: .int(1), result: .ok),
            ControlReply(id: .string("k"), result: .scenes([row])),
            ControlReply(id: .null, result: .failure(ProtocolError(.illegalTransition, "refused"))),
        ] {
            #expect(try ControlServerFrame(frame: Array(reply.frame.dropLast())) == .reply(reply))
        }
        let event = TraceEvent(
            seq: 3,
            time: 0.25,
            kind: .process,
            scene: "A",
            processEvent: .exited,
            pid: 42,
            reason: .killed,
            signal: "KILL"
        )
        var frame: [UInt8] = []
        ControlServerFrame.eventFrame(event, into: &frame)
        #expect(try ControlServerFrame(frame: Array(frame.dropLast())) == .event(event))
    }
}
