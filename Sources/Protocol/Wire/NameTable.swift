/// Exact-match lookup of the protocol's ASCII names (`op`, callback `name`), faster than
/// `Dictionary<String, _>`: no seeded SipHash and no byte-at-a-time compare. A name is keyed
/// by its length and its first and last 8 bytes (read with two loads); names of up to 16
/// bytes are fully determined by that key, longer ones also compare their middle bytes.
/// Decoding does one lookup per message, so this is on every frame's path.
struct NameTable<Value: Sendable>: Sendable {
    private struct Entry: Sendable {
        var head: UInt64
        var tail: UInt64
        var count: Int
        /// Where the name's bytes start in `bytes` (for the middle of long names).
        var start: Int
        var value: Value
    }

    /// Every name's UTF-8 bytes, back to back.
    private let bytes: [UInt8]
    private let entries: [Entry]
    /// Per slot: 0 when empty, else 1 + the index into `entries`.
    private let slots: [Int32]
    private let mask: Int

    /// Every value of `values` under its `name`; the names must be distinct.
    ///
    /// Built straight from the values, with no array of pairs in between: a worker builds
    /// its tables on its first message, and every new generic array type (a tuple's above
    /// all) costs a fresh process a metadata instantiation on that path.
    init<Values: Collection<Value>>(_ values: Values, name: (Value) -> String) {
        var size = 8
        while size < values.count * 4 { size *= 2 }
        var bytes: [UInt8] = []
        var entries: [Entry] = []
        entries.reserveCapacity(values.count)
        var slots = [Int32](repeating: 0, count: size)
        for value in values {
            var name = name(value)
            let (head, tail, count) = name.withUTF8 { utf8 in
                bytes.append(contentsOf: utf8)
                let (head, tail) = Self.ends(of: UnsafeRawBufferPointer(utf8))
                return (head, tail, utf8.count)
            }
            entries.append(Entry(head: head, tail: tail, count: count, start: bytes.count - count, value: value))
            var slot = Self.hash(head, tail, count) & (size - 1)
            while slots[slot] != 0 { slot = (slot + 1) & (size - 1) }
            slots[slot] = Int32(entries.count)
        }
        self.bytes = bytes
        self.entries = entries
        self.slots = slots
        self.mask = size - 1
    }

    /// The value named exactly `name`, if any.
    subscript(name: String) -> Value? {
        var name = name
        return name.withUTF8 { lookup(UnsafeRawBufferPointer($0)) }
    }

    /// The value named exactly by these UTF-8 bytes, if any.
    subscript(utf8 utf8: UnsafeRawBufferPointer) -> Value? {
        lookup(utf8)
    }

    private func lookup(_ utf8: UnsafeRawBufferPointer) -> Value? {
        let count = utf8.count
        let (head, tail) = Self.ends(of: utf8)
        var slot = Self.hash(head, tail, count) & mask
        while true {
            let index = Int(slots[slot])
            if index == 0 { return nil }
            let entry = entries[index - 1]
            if entry.head == head, entry.tail == tail, entry.count == count,
                count <= 16 || middleMatches(entry, utf8)
            {
                return entry.value
            }
            slot = (slot + 1) & mask
        }
    }

    /// Bytes 8 ..< count - 8 of a long name (the ends already matched).
    private func middleMatches(_ entry: Entry, _ utf8: UnsafeRawBufferPointer) -> Bool {
        bytes.withUnsafeBytes { stored in
            for offset in 8..<(utf8.count - 8) where stored[entry.start + offset] != utf8[offset] {
                return false
            }
            return true
        }
    }

    /// The first and last 8 bytes (shorter names: every byte, packed), little-endian.
    @inline(__always)
    private static func ends(of bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let count = bytes.count
        switch count {
        case 0:
            return (0, 0)
        case 1...3:
            let packed =
                UInt64(bytes[0]) | UInt64(bytes[count >> 1]) &<< 8 | UInt64(bytes[count - 1]) &<< 16
            return (packed, 0)
        case 4...7:
            let first = UInt64(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
            let last = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            return (first | last &<< 32, 0)
        default:
            return (
                UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)),
                UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            )
        }
    }

    @inline(__always)
    private static func hash(_ head: UInt64, _ tail: UInt64, _ count: Int) -> Int {
        var hash = head &* 0x9E37_79B9_7F4A_7C15 ^ tail &* 0xC2B2_AE3D_27D4_EB4F ^ UInt64(count)
        hash ^= hash &>> 29
        return Int(truncatingIfNeeded: hash)
    }
}
