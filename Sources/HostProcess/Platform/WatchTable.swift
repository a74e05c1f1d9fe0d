import SceneModel

/// The children the event loop watches, by id: slots reused through a free list, so that
/// finding a watch from an epoll token is an index, not a hash (a dictionary keyed by id
/// hashed each token with SipHash, about 150 instructions, twice or more per transition).
///
/// An id is a slot's index and the slot's generation, which grows each time the slot is
/// freed: an event for a watch removed earlier in the same batch finds nothing, even once
/// its slot holds another watch.
package struct WatchTable<Value> {
    private struct Slot {
        package var generation: UInt64
        package var value: Value?
    }

    private var slots: [Slot] = []
    private var freeSlots: [Int] = []
    /// The watches held.
    package private(set) var count = 0

    /// Ids fit in 60 bits: the loop shifts them left by two for the token's source bits, and
    /// bit 63 marks descriptor tokens. An id is never 0, the wake-up's token.
    private static var indexBits: UInt64 { 32 }
    package static var generationMask: UInt64 { (1 << 28) - 1 }

    /// Stores `value` in a free slot and returns its id.
    package mutating func insert(_ value: Value) -> UInt64 {
        count += 1
        if let index = freeSlots.popLast() {
            slots[index].value = value
            return Self.id(index: index, generation: slots[index].generation)
        }
        precondition(slots.count < 1 << Self.indexBits, "more watches than ids")
        slots.append(Slot(generation: 1, value: value))
        return Self.id(index: slots.count - 1, generation: 1)
    }

    /// The watch `id` names, nil once it was removed. Setting nil removes it.
    package subscript(id: UInt64) -> Value? {
        get {
            guard let index = index(of: id) else { return nil }
            return slots[index].value
        }
        set {
            guard let index = index(of: id), slots[index].value != nil else { return }
            guard let newValue else { return remove(at: index) }
            slots[index].value = newValue
        }
    }

    /// Every watch held, in slot order.
    package var values: [Value] {
        slots.compactMap(\.value)
    }

    private mutating func remove(at index: Int) {
        slots[index].value = nil
        slots[index].generation = Self.generation(after: slots[index].generation)
        freeSlots.append(index)
        count -= 1
    }

    /// The generation a freed slot takes: the next one within 28 bits, skipping 0, which
    /// would make slot 0's id 0.
    package static func generation(after generation: UInt64) -> UInt64 {
        let next = (generation + 1) & generationMask
        return next == 0 ? 1 : next
    }

    private func index(of id: UInt64) -> Int? {
        let index = Int(id & ((1 << Self.indexBits) - 1))
        guard index < slots.count, slots[index].generation == id >> Self.indexBits else { return nil }
        return index
    }

    private static func id(index: Int, generation: UInt64) -> UInt64 {
        generation << indexBits | UInt64(index)
    }
}
