/// The coding key of an array element.
struct JSONValueIndexKey: CodingKey {
    let index: Int

    init(_ index: Int) {
        self.index = index
    }

    init?(intValue: Int) {
        self.index = intValue
    }

    init?(stringValue: String) {
        return nil
    }

    var intValue: Int? { index }
    var stringValue: String { "Index \(index)" }
}

/// The coding key of a `superEncoder()` / `superDecoder()`.
struct JSONValueSuperKey: CodingKey {
    init() {}
    init?(intValue: Int) { nil }
    init?(stringValue: String) {
        guard stringValue == "super" else { return nil }
    }
    var intValue: Int? { nil }
    var stringValue: String { "super" }
}
