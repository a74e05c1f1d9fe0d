import Protocol

/// The frames of one write to a worker (`SceneMachine.Action.write`), in order: nearly always
/// one request, kept inline; only a launch's handshake and connect take an array, for the second.
package struct HostCommands: Sendable, RandomAccessCollection {
    @usableFromInline let head: HostCommand
    @usableFromInline let tail: [HostCommand]

    package init(_ command: HostCommand) {
        head = command
        tail = []
    }

    package init(_ first: HostCommand, _ second: HostCommand) {
        head = first
        tail = [second]
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { 1 + tail.count }

    package subscript(position: Int) -> HostCommand {
        position == 0 ? head : tail[position - 1]
    }

    /// Lends each command to `body`, in order. Inlined into the writer in another module,
    /// where a loop over the collection went through its witness table and copied each
    /// command out, on every request.
    @inlinable
    package func borrowEach(_ body: (borrowing HostCommand) -> Void) {
        body(head)
        for command in tail { body(command) }
    }
}

extension HostCommands {
    /// Whether one of the commands is a request that the worker terminate. (A loop over the
    /// collection from another module copied each command out, on every write to an app's
    /// process.)
    @inlinable
    package var containsTerminateRequest: Bool {
        head.isTerminateRequest || tail.contains(where: \.isTerminateRequest)
    }
}

extension HostCommand {
    /// Whether this is a request (not the handshake's hello).
    package var isRequest: Bool {
        if case .request = self { return true }
        return false
    }

    /// Whether this is a request that the worker terminate (its scene's end, or its process's).
    @inlinable
    package var isTerminateRequest: Bool {
        if case .request(_, .terminate) = self { return true }
        return false
    }
}
