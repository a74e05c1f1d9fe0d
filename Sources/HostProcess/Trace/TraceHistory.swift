import SceneModel

/// The events a recorder holds in memory, oldest first, in chunks of at most `chunkSize`:
/// appending never copies more than one chunk. One array of every event doubled its storage
/// under the recorder's lock, on the thread recording, and held the whole host still: 0.7 s
/// at 4.2 million events, 4 s at 8.4 million (`hostctl stress --ops 1000000`).
package struct TraceHistory {
    package static let chunkSize = 4096

    /// The events, nil in the slots of dropped ones until their chunk goes (an empty slot, not
    /// a placeholder event: storing a shared event retained it on every drop).
    private var chunks: [[TraceEvent?]] = []
    /// Each held event's size as it was appended, by chunk and position as in `chunks`:
    /// what dropping it gives back, without measuring it again. (Four bytes an event: a
    /// size past 4 GiB is held as 4 GiB, on both sides of the count.)
    private var sizes: [[UInt32]] = []
    /// Events already dropped from the front of the first chunk.
    private var dropped = 0
    /// Events held.
    package private(set) var count = 0
    /// The sum of the held events' sizes (as given to `append`).
    package private(set) var bytes = 0

    package var first: TraceEvent? { count > 0 ? chunks[0][dropped] : nil }

    /// Appends `event`, counting `size` bytes for it (`estimatedSize`, or 0 when the bytes
    /// are not counted).
    package mutating func append(_ event: TraceEvent, size: Int) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            chunks.append([])
            sizes.append([])
        }
        let size = UInt32(clamping: size)
        chunks[chunks.count - 1].append(event)
        sizes[sizes.count - 1].append(size)
        count += 1
        bytes += Int(size)
    }

    /// The event at `position` (0 is the oldest held). Every chunk but the last is full, the
    /// first one included (its dropped slots stay), so a position maps to a chunk directly.
    package subscript(position: Int) -> TraceEvent {
        let absolute = dropped + position
        return chunks[absolute / Self.chunkSize][absolute % Self.chunkSize]!
    }

    /// The position of the first held event whose `seq` is at least `seq` (`count` if none):
    /// `seq` increases along the history.
    package func firstPosition(seqAtLeast seq: Int) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle].seq < seq { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Drops the oldest event; the history must not be empty. Its slot is emptied at once,
    /// so its strings and values are freed now, not with its chunk. (Nothing is returned:
    /// the recorder drops events it does not look at, and a returned one cost a retain and
    /// a release.)
    package mutating func removeFirst() {
        chunks[0][dropped] = nil
        bytes -= Int(sizes[0][dropped])
        dropped += 1
        count -= 1
        if dropped == chunks[0].count {
            chunks.removeFirst()
            sizes.removeFirst()
            dropped = 0
        }
    }

    /// Every event held, oldest first, as one array.
    package var events: [TraceEvent] {
        var events: [TraceEvent] = []
        events.reserveCapacity(count)
        for event in self { events.append(event) }
        return events
    }
}

extension TraceHistory: Sequence {
    /// The events held, oldest first.
    package struct Iterator: IteratorProtocol {
        fileprivate var chunks: ArraySlice<[TraceEvent?]>
        fileprivate var current: ArraySlice<TraceEvent?>

        package mutating func next() -> TraceEvent? {
            while current.isEmpty {
                guard let chunk = chunks.popFirst() else { return nil }
                current = chunk[...]
            }
            // Held events only: the dropped ones are before `current`'s start.
            return current.popFirst()!
        }
    }

    package func makeIterator() -> Iterator {
        Iterator(chunks: chunks.dropFirst(), current: chunks.first.map { $0[dropped...] } ?? [])
    }

    package var underestimatedCount: Int { count }
}
