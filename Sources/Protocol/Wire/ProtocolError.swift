/// A typed protocol error: a numeric code and a readable message, in the spirit of
/// JSON-RPC error objects. It travels on the wire and is thrown by the codec.
public struct ProtocolError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Error codes. The negative JSON-RPC range is for framing and parsing, the
    /// positive range for lifecycle refusals.
    public enum Code: Int, Sendable, Hashable, CaseIterable {
        /// Not valid JSON (or not valid UTF-8).
        case parseError = -32700
        /// Valid JSON but not a message of this protocol (missing or mistyped field).
        case invalidMessage = -32600
        /// An `op` or `type` this side does not know.
        case unknownOperation = -32601
        /// A known operation with bad parameters.
        case invalidParameters = -32602
        /// A frame longer than the maximum frame size.
        case frameTooLarge = -32001
        /// A frame cut off by the end of the stream.
        case truncatedFrame = -32002
        /// The peer speaks another protocol version.
        case versionMismatch = -32003
        /// Nesting deeper than the parser allows.
        case nestingTooDeep = -32004
        /// The receiver is out of a resource it shares among its peers (client slots, file
        /// descriptors, buffer memory) and dropped the connection; nothing was done, and the
        /// same request may succeed later. A distinct code so that a client can tell "retry"
        /// from "your request is wrong".
        case resourceExhausted = -32005
        /// The operation is not legal in the scene's current state.
        case illegalTransition = 1
        /// The worker failed to carry out a legal operation.
        case operationFailed = 2
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(message) (code \(code.rawValue))" }
}
