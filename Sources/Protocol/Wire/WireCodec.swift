/// Encoding and strict decoding of the protocol's own messages, without Codable.
///
/// `encode` appends one frame: the JSON object followed by `\n`. `decode` takes one frame's
/// bytes (without the newline) and either returns a message or throws a typed `ProtocolError`.
extension HostCommand {
    /// Appends this command's frame (JSON + `\n`) to `buffer`.
    public func encode(into buffer: inout [UInt8]) {
        fatalError("TODO: WireCodec")
    }

    /// Decodes one frame (without its trailing newline).
    public init(frame: UnsafeRawBufferPointer) throws(ProtocolError) {
        fatalError("TODO: WireCodec")
    }

    /// Decodes one frame (without its trailing newline).
    public init(frame: [UInt8]) throws(ProtocolError) {
        fatalError("TODO: WireCodec")
    }
}

extension WorkerMessage {
    /// Appends this message's frame (JSON + `\n`) to `buffer`.
    public func encode(into buffer: inout [UInt8]) {
        fatalError("TODO: WireCodec")
    }

    /// Decodes one frame (without its trailing newline).
    public init(frame: UnsafeRawBufferPointer) throws(ProtocolError) {
        fatalError("TODO: WireCodec")
    }

    /// Decodes one frame (without its trailing newline).
    public init(frame: [UInt8]) throws(ProtocolError) {
        fatalError("TODO: WireCodec")
    }
}
