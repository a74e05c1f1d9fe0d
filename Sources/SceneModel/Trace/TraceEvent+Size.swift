import Protocol

extension TraceEvent {
    /// About how many bytes the event holds in memory, as measured against RSS: enough to
    /// bound a trace history by what it really holds when clients can put large values
    /// (notifications) into it. (Counting a value by its text undercounted: a 64 MiB history
    /// held about 170 MiB.)
    ///
    /// The event's slot in the history (the event and its size, `historySlotBytes`) counts
    /// twice: the history array's spare capacity and the evicted prefix it keeps until it
    /// compacts can each be as large as the events held. Its fields' box (a 16-byte object
    /// header, the fields and the allocator's 16 bytes) counts once, and so does the box of
    /// its rare fields when it has one.
    package var estimatedSize: Int {
        var size = 2 * Self.historySlotBytes + 32 + MemoryLayout<Fields>.stride
        if hasRareFields { size += 32 + MemoryLayout<RareFields>.stride }
        func add(_ text: String?) {
            if let text { size += text.heapBytes }
        }
        add(scene)
        add(name)
        add(viewController)
        add(signal)
        add(notification)
        add(origin)
        add(op)
        add(message)
        if let restoration { size += restoration.estimatedSize }
        if let value { size += value.estimatedSize }
        if let argv { size += argv.reduce(48 + 16 * argv.count) { $0 + $1.heapBytes } }
        return size
    }
}

extension TraceEvent {
    /// The bytes of an event's slot in a recorder's history: the event's reference and the
    /// size it was counted at (`TraceHistory`), padded to eight.
    package static let historySlotBytes = 16
}

extension JSONValue {
    /// About how many bytes the value holds in memory, its own 24-byte slot included
    /// (measured: an array of 1,000 integers takes 25 KB, an object of two short members
    /// about 280 bytes, a 10 KB string 10.4 KB).
    package var estimatedSize: Int {
        let slot = MemoryLayout<JSONValue>.stride
        switch self {
        case .null, .bool, .int, .double:
            return slot
        case .string(let text):
            return slot + text.heapBytes
        case .array(let elements):
            // The array's buffer: header and allocation, then the elements' slots (and
            // a little for the allocator's rounding).
            return elements.reduce(slot + 48 + 2 * elements.count) { $0 + $1.estimatedSize }
        case .object(let members):
            // A dictionary's storage, then per member its key, its value and the spare
            // room of the hash table.
            return members.reduce(slot + 160) { $0 + 32 + 16 + $1.key.heapBytes + $1.value.estimatedSize }
        }
    }
}

extension String {
    /// The heap bytes of a native string: none up to 15 UTF-8 bytes (stored inline), else
    /// its buffer with its header.
    package var heapBytes: Int {
        let count = utf8.count
        return count <= 15 ? 0 : 32 + count
    }
}
