extension JSONValue: CustomStringConvertible {
    /// The value as compact JSON (object keys sorted): what a test failure or a log line
    /// shows, `{"id":7,"tags":["a"]}` rather than nested enum cases.
    public var description: String {
        var bytes: [UInt8] = []
        JSONWriter.write(self, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
