import CSceneHostSys

#if canImport(Glibc)
import Glibc
#endif

extension EventLoop {
    /// One read buffer for all children; handlers see a slice of it.
    private static let bufferSize = 64 * 1024
    /// Reads per readiness event before moving on, so one chatty worker cannot starve the
    /// others (epoll is level-triggered: the rest comes on the next round).
    private static let readsPerEvent = 16
    /// Reads when draining a dead child. The child's own output is bounded by the pipe
    /// capacity (at most 1 MiB by default, 16 reads); the margin is for data a grandchild
    /// keeps writing, which must not keep the exit from being reported.
    private static let readsWhenDraining = 64

    convenience init() {
        let descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(descriptor >= 0, "epoll_create1 failed: \(String(cString: strerror(errno)))")
        self.init(epollDescriptor: descriptor)
        // The loop thread keeps `self` alive, which is fine: there is only the shared instance.
        PlatformThread.startDetached(name: "scenehost-epoll") { [self] in
            runLoop()
        }
    }

    func register(_ watch: Watch) {
        var watch = watch
        let id = nextWatchID.wrappingAdd(1, ordering: .relaxed).oldValue
        watches.withLock { $0[id] = watch }
        let descriptors = watch.child.beginWatching(epoll: epollDescriptor, stdinToken: id << 2 | Source.stdin.rawValue)
        watch.pidfd = descriptors.pidfd
        watch.stdout = descriptors.stdout
        watch.stderr = descriptors.stderr
        watches.withLock { $0[id] = watch }
        // The pidfd goes last: once it is registered the loop may reap the child and close the
        // pipes at any moment, and their numbers must not be added after that.
        let sources: [(Source, Int32)] = [
            (.stdout, descriptors.stdout), (.stderr, descriptors.stderr), (.pidfd, descriptors.pidfd),
        ]
        for (source, descriptor) in sources where descriptor >= 0 {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = id << 2 | source.rawValue
            guard epoll_ctl(epollDescriptor, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
                fatalError("epoll_ctl(ADD) failed: \(String(cString: strerror(errno)))")
            }
        }
    }

    private func runLoop() -> Never {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epollDescriptor, $0.baseAddress, Int32($0.count), -1)
            }
            if count < 0 {
                if errno == EINTR { continue }
                fatalError("epoll_wait failed: \(String(cString: strerror(errno)))")
            }
            for event in events.prefix(Int(count)) {
                let token = event.data.u64
                let id = token >> 2
                guard let source = Source(rawValue: token & 3),
                    let watch = watches.withLock({ $0[id] })
                else {
                    continue  // the child was reaped earlier in this batch
                }
                switch source {
                case .stdout: drain(.stdout, of: watch, id: id, into: buffer, maxReads: Self.readsPerEvent)
                case .stderr: drain(.stderr, of: watch, id: id, into: buffer, maxReads: Self.readsPerEvent)
                case .pidfd: finish(id, watch, buffer: buffer)
                case .stdin: watch.child.flushStdinBacklog()
                }
            }
        }
    }

    /// Reads `stream` until EAGAIN, EOF or `maxReads`, delivering each chunk; closes it at EOF.
    /// On a readiness event a short read ends the round: a pipe returns less than asked only
    /// when it is empty, so the read that would say EAGAIN is skipped (epoll is level-triggered:
    /// whatever comes next, EOF included, is reported again). A dead child is drained to the end.
    /// `reportsEOF`: call the watch's `onStdoutEOF` at stdout's EOF (not while finishing a dead child).
    private func drain(
        _ stream: ChildProcess.OutputStream,
        of watch: Watch,
        id: UInt64,
        into buffer: UnsafeMutableRawBufferPointer,
        maxReads: Int,
        reportsEOF: Bool = true,
        stopsAtShortRead: Bool = true
    ) {
        let descriptor = stream == .stdout ? watch.stdout : watch.stderr
        guard descriptor >= 0 else { return }
        let handler = stream == .stdout ? watch.onStdout : watch.onStderr
        var reads = 0
        while reads < maxReads {
            let count = read(descriptor, buffer.baseAddress, buffer.count)
            if count > 0 {
                reads += 1
                handler(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                if stopsAtShortRead && count < buffer.count { return }
                continue
            }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
            }
            // EOF, or an error no retry will fix.
            _ = epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, descriptor, nil)
            watch.child.closeOutput(stream)
            // Later events of this batch for the closed number must find it closed.
            watches.withLock { watches in
                if stream == .stdout { watches[id]?.stdout = -1 } else { watches[id]?.stderr = -1 }
            }
            if stream == .stdout, reportsEOF, let onStdoutEOF = watch.onStdoutEOF { onStdoutEOF() }
            return
        }
    }

    /// The pidfd is readable: the child is dead. Deliver what it wrote, reap it, report it.
    private func finish(_ id: UInt64, _ watch: Watch, buffer: UnsafeMutableRawBufferPointer) {
        for stream in [ChildProcess.OutputStream.stdout, .stderr] {
            drain(
                stream,
                of: watch,
                id: id,
                into: buffer,
                maxReads: Self.readsWhenDraining,
                reportsEOF: false,
                stopsAtShortRead: false
            )
        }
        // Dead but not reaped yet: the zombie still holds the group id, so this cannot hit a
        // recycled group. ESRCH (nobody left in the group) is the normal answer.
        if watch.killsProcessGroupAtExit, watch.child.hasExitedUnreaped {
            try? watch.child.sendToProcessGroup(signal: SIGKILL)
        }
        guard let exit = watch.child.reap() else { return }
        // Explicit removal rather than relying on close: a process forked elsewhere in the host
        // and not yet exec'd still shares these descriptions and would keep them registered.
        for descriptor in [
            watch.child.descriptor(of: .stdout), watch.child.descriptor(of: .stderr), watch.pidfd,
        ] where descriptor >= 0 {
            _ = epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, descriptor, nil)
        }
        // A grandchild may still hold the pipes open; their EOF is not worth waiting for.
        watch.child.closeAllDescriptors()
        watches.withLock { $0[id] = nil }
        watch.onExit(exit)
    }
}
