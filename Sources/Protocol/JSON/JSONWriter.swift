/// A small, fast JSON writer that appends UTF-8 bytes to a buffer.
public enum JSONWriter {
    /// Appends `value` as compact JSON. Object keys are written in sorted order.
    public static func write(_ value: JSONValue, into buffer: inout [UInt8]) {
        fatalError("TODO")
    }

    /// Appends `string` as a JSON string literal (quotes and escapes included).
    public static func writeString(_ string: String, into buffer: inout [UInt8]) {
        fatalError("TODO")
    }
}

extension JSONValue {
    /// Compact JSON text of this value.
    public var jsonText: String {
        var buffer: [UInt8] = []
        JSONWriter.write(self, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
