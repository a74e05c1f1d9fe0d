/// An enum without payloads, of at most 256 cases, whose case is stored as its position in
/// `allCases` (declaration order): tables indexed by case take `position` instead of hashing
/// the case (a dictionary keyed by a `String`-backed case hashed its raw value with SipHash,
/// hundreds of instructions a lookup, on the host's hot path).
///
/// A table checks `positionsAreTags` once, before it is used.
package protocol CasePositioned: CaseIterable where AllCases == [Self] {}

extension CasePositioned {
    /// The case's position in `allCases`: its tag. (Generic from another module: this
    /// toolchain serializes no body for `@inlinable package`, so a hot caller there reads
    /// the tag itself.)
    package var position: Int {
        Int(unsafeBitCast(self, to: UInt8.self))
    }

    /// Whether every case's tag is its position in `allCases`.
    package static var positionsAreTags: Bool {
        MemoryLayout<Self>.size == 1 && allCases.indices.allSatisfy { allCases[$0].position == $0 }
    }
}
