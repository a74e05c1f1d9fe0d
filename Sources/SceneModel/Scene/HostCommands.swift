import Protocol

/// The frames of one write to a worker (`SceneMachine.Action.write`), in order: nearly always
/// one request, kept inline; only a launch's handshake and connect take an array, for the second.
package struct HostCommands: Sendable, RandomAccessCollection {
    private let head: HostCommand
    private let tail: [HostCommand]

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
}

extension HostCommand {
    /// Whether this is a request that the worker terminate (its scene's end, or its process's).
    package var isTerminateRequest: Bool {
        if case .request(_, .terminate) = self { return true }
        return false
    }
}
