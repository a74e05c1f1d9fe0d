#if canImport(Glibc)
import Glibc
#endif
import CSceneHostSys
import Protocol

extension ControlServer {
    /// Reads per readiness event before moving on to the next client (epoll is level-triggered).
    private static let readsPerEvent = 16
    private static let readBufferSize = 64 * 1024

    /// Takes ownership of the listener's descriptor.
    public convenience init(host: SceneHost, listener: ControlListener) throws(ControlSocketError) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw ControlSocketError(.runtime, "epoll_create1: \(ControlSocket.errorText())") }
        var pipe: [Int32] = [-1, -1]
        guard csh_pipe_cloexec(&pipe) == 0 else {
            let code = errno
            close(epoll)
            throw ControlSocketError(.runtime, "cannot create pipe: \(ControlSocket.errorText(code))")
        }
        for descriptor in pipe { _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) }
        for (descriptor, token) in [(listener.descriptor, Token.listener), (pipe[0], Token.wake)] {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = token
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
                let code = errno
                close(epoll)
                close(pipe[0])
                close(pipe[1])
                throw ControlSocketError(.runtime, "epoll_ctl: \(ControlSocket.errorText(code))")
            }
        }
        self.init(host: host, listener: listener, epollDescriptor: epoll, wakeRead: pipe[0], wakeWrite: pipe[1])
    }

    func startLoopThread() {
        PlatformThread.startDetached(name: "scenehost-ctl") { [self] in
            runLoop()
        }
    }

    /// Wakes the loop, which closes every connection and the listener, removes the socket
    /// file and returns.
    func stopLoopThread() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            loopStopped.withLock { $0 = continuation }
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
        }
    }

    private func runLoop() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.readBufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var decoders: [UInt64: FrameDecoder] = [:]
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epollDescriptor, $0.baseAddress, Int32($0.count), -1)
            }
            if count < 0 {
                if errno == EINTR { continue }
                fatalError("control server: epoll_wait failed: \(ControlSocket.errorText())")
            }
            for event in events.prefix(Int(count)) {
                switch event.data.u64 {
                case Token.listener:
                    acceptClients(&decoders)
                case Token.wake:
                    var scratch = [UInt8](repeating: 0, count: 64)
                    while read(wakeRead, &scratch, scratch.count) > 0 {}
                    if case .stopping = currentPhase {
                        tearDown()
                        return
                    }
                default:
                    let id = event.data.u64
                    guard let connection = connections.withLock({ $0[id] }) else {
                        decoders[id] = nil
                        continue
                    }
                    let flags = event.events
                    if flags & EPOLLOUT.rawValue != 0 { connection.writeReady() }
                    let readable = EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue
                    if flags & readable != 0, connection.wantsRead {
                        readRequests(from: connection, decoder: &decoders[id, default: FrameDecoder()], buffer: buffer)
                    }
                    // Both directions gone: no reply can be delivered.
                    if flags & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { connection.close() }
                    if connection.isClosed {
                        decoders[id] = nil
                        connections.withLock { _ = $0.removeValue(forKey: id) }
                    }
                }
            }
            // Connections closed by other threads (output limit, stalls, write errors).
            if decoders.count > 0 {
                let closed = connections.withLock { connections in
                    let closed = connections.filter { $0.value.isClosed }.map(\.key)
                    for id in closed { connections[id] = nil }
                    return closed
                }
                for id in closed { decoders[id] = nil }
            }
        }
    }

    private func acceptClients(_ decoders: inout [UInt64: FrameDecoder]) {
        while true {
            // Glibc's module lacks accept4. The window before FD_CLOEXEC is harmless: workers
            // are spawned with every descriptor above 2 closed.
            let descriptor = accept(listener.descriptor, nil, nil)
            if descriptor < 0 {
                switch errno {
                case EINTR, ECONNABORTED: continue
                default: return  // EAGAIN: all accepted; EMFILE and the like: try on the next event
                }
            }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            let count = connections.withLock { $0.count }
            let id = nextConnectionID.wrappingAdd(1, ordering: .relaxed).oldValue
            var event = epoll_event()
            event.events = ControlConnection.readInterest
            event.data.u64 = id
            guard epoll_ctl(epollDescriptor, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
                close(descriptor)
                continue
            }
            let connection = ControlConnection(id: id, descriptor: descriptor, epollDescriptor: epollDescriptor)
            if count >= Self.maximumConnections {
                connection.send(ControlReply(
                    id: .null,
                    result: .failure(ProtocolError(.operationFailed, "too many clients (\(Self.maximumConnections))"))
                ).frame)
                connection.close()
                continue
            }
            connections.withLock { $0[id] = connection }
            decoders[id] = FrameDecoder(maximumFrameSize: FrameLimits.defaultMaximumFrameSize)
            serve(connection)
        }
    }

    private func readRequests(
        from connection: ControlConnection, decoder: inout FrameDecoder, buffer: UnsafeMutableRawBufferPointer
    ) {
        var reads = 0
        while reads < Self.readsPerEvent, connection.wantsRead {
            switch connection.read(into: buffer) {
            case .bytes(let count):
                reads += 1
                decoder.append(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                while let output = decoder.next() {
                    switch output {
                    case .frame(let frame):
                        do {
                            connection.enqueue(try ControlRequest(frame: frame))
                        } catch {
                            connection.send(ControlReply(id: error.id, result: .failure(error.error)).frame)
                        }
                    case .oversized(let length):
                        let limit = FrameLimits.defaultMaximumFrameSize
                        connection.send(ControlReply(
                            id: .null,
                            result: .failure(ProtocolError(
                                .frameTooLarge, "request frame of \(length)+ bytes exceeds the \(limit)-byte limit; disconnecting"))
                        ).frame)
                        connection.endReading()
                        return
                    }
                }
            case .wouldBlock:
                return
            case .endOfStream:
                if (try? decoder.finish()) == nil {
                    connection.send(ControlReply(
                        id: .null,
                        result: .failure(ProtocolError(.truncatedFrame, "the connection ended inside a request (no newline)"))
                    ).frame)
                }
                connection.endReading()
                return
            case .failed:
                connection.close()
                return
            }
        }
    }

    private func tearDown() {
        for connection in connections.withLock({ connections in
            defer { connections = [:] }
            return Array(connections.values)
        }) {
            connection.close()
        }
        close(listener.descriptor)
        ControlSocket.remove(listener)
        close(wakeRead)
        close(wakeWrite)
        close(epollDescriptor)
        let continuation = loopStopped.withLock { slot in
            defer { slot = nil }
            return slot
        }
        continuation?.resume()
    }
}
