/// A strict JSON parser (RFC 8259): rejects trailing garbage, invalid UTF-8, lone
/// surrogates, duplicate object keys, control characters in strings, leading zeros,
/// and nesting deeper than `maximumDepth`. Every failure is a typed `ProtocolError`.
public struct JSONParser {
    public static let defaultMaximumDepth = 64

    /// Parses exactly one JSON value from `bytes`.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer,
        maximumDepth: Int = defaultMaximumDepth
    ) throws(ProtocolError) -> JSONValue {
        fatalError("TODO")
    }

    /// Parses exactly one JSON value from `bytes`.
    public static func parse(
        _ bytes: [UInt8],
        maximumDepth: Int = defaultMaximumDepth
    ) throws(ProtocolError) -> JSONValue {
        fatalError("TODO")
    }
}
