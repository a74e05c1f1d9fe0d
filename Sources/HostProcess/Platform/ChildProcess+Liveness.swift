#if canImport(Glibc)
import Glibc
#endif

extension ChildProcess {
    /// Whether the process has died but was not reaped yet (its pidfd is readable), without
    /// reaping it. False while it runs (or is stopped) and once it was reaped.
    ///
    /// While this is true the zombie pins the pid and the process group id, so signalling
    /// the group cannot hit a recycled id.
    package var hasExitedUnreaped: Bool {
        state.withLock { descriptors in
            guard descriptors.exit == nil, descriptors.pidfd >= 0 else { return false }
            var poller = pollfd(fd: descriptors.pidfd, events: Int16(POLLIN), revents: 0)
            while true {
                let ready = poll(&poller, 1, 0)
                if ready < 0 && errno == EINTR { continue }
                return ready == 1 && poller.revents & Int16(POLLIN) != 0
            }
        }
    }

    /// Whether the process has begun to exit (the kernel's `PF_EXITING`), is a zombie, or is
    /// gone, read from /proc/PID/stat; false while it runs or is stopped, and when /proc
    /// cannot be read (it then says nothing of the process).
    ///
    /// An exiting process closes its descriptors before its pidfd says it is dead: a pipe it
    /// closed can reach the host first, and under load (a descheduled CPU) the rest of its
    /// exit can take a second. A process that is exiting has not "kept running".
    package var isExiting: Bool {
        guard !hasExitedUnreaped else { return true }
        let path = "/proc/\(pid)/stat"
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return errno == ENOENT || errno == ESRCH }
        defer { Glibc.close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        return Self.statSaysExiting(buffer[..<count])
    }

    /// Parses /proc/PID/stat: `pid (comm) state ppid pgrp session tty tpgid flags …`; comm may
    /// hold spaces and parentheses, so the fields are counted after the last `)`.
    static func statSaysExiting(_ stat: ArraySlice<UInt8>) -> Bool {
        guard let close = stat.lastIndex(of: UInt8(ascii: ")")) else { return false }
        let fields = stat[(close + 1)...].split(separator: UInt8(ascii: " "))
        guard fields.count > 6, let state = fields[0].first else { return false }
        if state == UInt8(ascii: "Z") || state == UInt8(ascii: "X") || state == UInt8(ascii: "x") { return true }
        guard let flags = UInt(String(decoding: fields[6], as: UTF8.self)) else { return false }
        let exitingFlag: UInt = 0x4  // PF_EXITING, set first thing in the kernel's do_exit
        return flags & exitingFlag != 0
    }
}
