import SceneModel

/// The events a recorder holds in memory, oldest first, in chunks of at most `chunkSize`:
/// appending never copies more than one chunk. One array of every event doubled its storage
/// under the recorder's lock, on the thread recording, and held the whole host still: 0.7 s
/// at 4.2 million events, 4 s at 8.4 million (`hostctl stress --ops 1000000`).
package struct TraceHistory {
    package static let chunkSize = 4096

    /// The events with their sizes, nil in the slots of dropped ones until their chunk goes.
    private var chunks: [[Slot]] = []

    /// One event and its size, side by side: one array to append to and one to drop from
    /// per event (two, one for each, cost about a hundred instructions more an event).
    /// `TraceEvent.historySlotBytes` counts its size.
    package struct Slot {
        /// Nil once dropped (an empty slot, not a placeholder event: storing a shared event
        /// retained it on every drop).
        var event: TraceEvent?
        /// The size it was appended with: what dropping it gives back, without measuring it
        /// again. (A size past 4 GiB is held as 4 GiB, on both sides of the count.)
        var size: UInt32
    }
    /// Events already dropped from the front of the first chunk.
    private var dropped = 0
    /// Events held.
    package private(set) var count = 0
    /// The sum of the held events' sizes (as given to `append`).
    package private(set) var bytes = 0

    package var first: TraceEvent? { count > 0 ? chunks[0][dropped].event : nil }

    /// Appends `event`, counting `size` bytes for it (`estimatedSize`, or 0 when the bytes
    /// are not counted).
    package mutating func append(_ event: TraceEvent, size: Int) {
        if chunks.isEmpty || chunks[chunks.count - 1].count == Self.chunkSize {
            chunks.append([])
        }
        let size = UInt32(clamping: size)
        chunks[chunks.count - 1].append(Slot(event: event, size: size))
        count += 1
        bytes += Int(size)
    }

    /// The event at `position` (0 is the oldest held). Every chunk but the last is full, the
    /// first one included (its dropped slots stay), so a position maps to a chunk directly.
    package subscript(position: Int) -> TraceEvent {
        let absolute = dropped + position
        return chunks[absolute / Self.chunkSize][absolute % Self.chunkSize].event!
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
        bytes -= Int(chunks[0][dropped].size)
        chunks[0][dropped].event = nil
        dropped += 1
        count -= 1
        if dropped == chunks[0].count {
            chunks.removeFirst()
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
        fileprivate var chunks: ArraySlice<[Slot]>
        fileprivate var current: ArraySlice<Slot>

        package mutating func next() -> TraceEvent? {
            while current.isEmpty {
                guard let chunk = chunks.popFirst() else { return nil }
                current = chunk[...]
            }
            // Held events only: the dropped ones are before `current`'s start.
            return current.popFirst()!.event!
        }
    }

    package func makeIterator() -> Iterator {
        Iterator(chunks: chunks.dropFirst(), current: chunks.first.map { $0[dropped...] } ?? [])
    }

    package var underestimatedCount: Int { count }
}
