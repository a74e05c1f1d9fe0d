/// Splits a byte stream into newline-terminated frames, enforcing a maximum frame size
/// with bounded memory: an oversized frame is reported once and its bytes are discarded
/// up to the next newline, never buffered.
public struct FrameDecoder: Sendable {
    /// One result of `next()`.
    public enum Output: Sendable, Hashable {
        /// A complete frame, without its newline.
        case frame([UInt8])
        /// A frame longer than the limit was skipped; `length` is its length so far.
        case oversized(length: Int)
    }

    public let maximumFrameSize: Int

    public init(maximumFrameSize: Int = FrameLimits.defaultMaximumFrameSize) {
        self.maximumFrameSize = maximumFrameSize
        fatalError("TODO")
    }

    /// Feeds bytes read from the stream.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        fatalError("TODO")
    }

    /// Feeds bytes read from the stream.
    public mutating func append(_ bytes: [UInt8]) {
        fatalError("TODO")
    }

    /// The next complete frame or oversize report, or nil when more bytes are needed.
    public mutating func next() -> Output? {
        fatalError("TODO")
    }

    /// Call at end of stream: throws `.truncatedFrame` when unterminated bytes remain.
    public mutating func finish() throws(ProtocolError) {
        fatalError("TODO")
    }
}
