import CSceneHostSys

#if canImport(Glibc)
import Glibc
#endif

/// Descriptors other than a child's pipes that the loop thread watches for readability: the
/// control server's own epoll set is one (an epoll descriptor is readable while it has events
/// ready), so the control socket and its clients are served by this loop, not a thread of
/// their own.
extension EventLoop {
    /// Identifies a descriptor watch; never reused, so a stale event finds nothing.
    package struct DescriptorWatchID: Hashable, Sendable {
        package let token: UInt64
    }

    /// Tokens of descriptor watches carry this bit; child tokens (`id << 2 | source`) never do.
    package static let descriptorTokenFlag: UInt64 = 1 << 63

    /// Calls `onReadable` on the loop thread each turn `descriptor` is readable (level-
    /// triggered: until the handler has read what is there). The caller keeps the descriptor
    /// open until `unwatch` returned. Throws the errno of a failed `epoll_ctl`.
    package func watchReadable(
        _ descriptor: Int32,
        onReadable: @escaping @Sendable () -> Void
    ) throws(DescriptorWatchError) -> DescriptorWatchID {
        let id = DescriptorWatchID(
            token: Self.descriptorTokenFlag | nextWatchID.wrappingAdd(1, ordering: .relaxed).oldValue
        )
        descriptorWatches.withLock { $0[id.token] = onReadable }
        var event = epoll_event()
        event.events = EPOLLIN.rawValue
        event.data.u64 = id.token
        guard epoll_ctl(epollDescriptor, EPOLL_CTL_ADD, descriptor, &event) == 0 else {
            let code = errno
            descriptorWatches.withLock { _ = $0.removeValue(forKey: id.token) }
            throw DescriptorWatchError(code: code)
        }
        return id
    }

    /// Stops watching `descriptor`; its handler is not called after this returns on the loop
    /// thread (an event already collected in the same turn finds no handler).
    package func unwatch(_ descriptor: Int32, _ id: DescriptorWatchID) {
        _ = epoll_ctl(epollDescriptor, EPOLL_CTL_DEL, descriptor, nil)
        descriptorWatches.withLock { _ = $0.removeValue(forKey: id.token) }
    }

    /// Runs the handler of the descriptor watch `token`, if it is still watched.
    package func handleDescriptor(token: UInt64) {
        guard let handler = descriptorWatches.withLock({ $0[token] }) else { return }
        handler()
    }
}

/// `epoll_ctl` refused a descriptor.
package struct DescriptorWatchError: Error, CustomStringConvertible {
    package let code: Int32
    package var description: String { "epoll_ctl: \(String(cString: strerror(code)))" }
}
