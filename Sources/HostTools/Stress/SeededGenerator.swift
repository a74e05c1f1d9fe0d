/// A small seedable random number generator (SplitMix64): the same seed gives the same
/// sequence on every platform and every Swift version.
///
/// Use its own `next(below:)`, `chance(_:)` and `weighted(_:)` where a sequence must be
/// reproducible from a seed: the standard library does not promise that
/// `Int.random(in:using:)` and friends keep their algorithm.
///
/// ```swift
/// var generator = SeededGenerator(seed: 42)
/// let die = generator.next(below: 6) + 1
/// ```
import HostProcess

public struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable {
    /// The whole state: a generator can be copied to replay from this point.
    public private(set) var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound` > 0), from one draw.
    public mutating func next(below bound: Int) -> Int {
        precondition(bound > 0, "SeededGenerator.next(below:) needs a positive bound")
        return Int(truncatingIfNeeded: next().multipliedFullWidth(by: UInt64(bound)).high)
    }

    /// True with `probability` (0...1), from one draw whatever the probability.
    public mutating func chance(_ probability: Double) -> Bool {
        let unit = Double(next() >> 11) * 0x1p-53
        return unit < probability
    }

    /// An index into `weights`, each chosen in proportion to its weight (one draw).
    public mutating func weighted(_ weights: [Int]) -> Int {
        let total = weights.reduce(0, +)
        precondition(total > 0, "SeededGenerator.weighted(_:) needs a positive total weight")
        var point = next(below: total)
        for (index, weight) in weights.enumerated() {
            if point < weight { return index }
            point -= weight
        }
        return weights.count - 1
    }

    /// One element of a non-empty array.
    public mutating func element<Element>(of elements: [Element]) -> Element {
        elements[next(below: elements.count)]
    }
}
