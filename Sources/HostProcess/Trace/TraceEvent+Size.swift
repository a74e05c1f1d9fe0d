import Protocol

extension TraceEvent {
    /// About how many bytes the event holds in memory: enough to bound a trace history by
    /// size when clients can put large values (notifications) into it.
    var estimatedSize: Int {
        var size = 160
        for text in [scene, name, viewController, signal, notification, origin, op, message] {
            size += text?.utf8.count ?? 0
        }
        if let restoration { size += restoration.estimatedSize }
        if let value { size += value.estimatedSize }
        return size
    }
}

extension JSONValue {
    /// About how many bytes the value holds in memory.
    var estimatedSize: Int {
        switch self {
        case .null, .bool, .int, .double: 16
        case .string(let text): 16 + text.utf8.count
        case .array(let elements): elements.reduce(32) { $0 + $1.estimatedSize }
        case .object(let members): members.reduce(48) { $0 + 16 + $1.key.utf8.count + $1.value.estimatedSize }
        }
    }
}
