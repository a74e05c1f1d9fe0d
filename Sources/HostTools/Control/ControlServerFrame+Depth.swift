import HostProcess
import Protocol

extension ControlServerFrame {
    /// How deep a value a request may put into the trace (a `notify` value): 62. An event
    /// frame wraps it in two objects (`{"event":{…,"value":…}}`), and every reader of frames,
    /// `hostctl events` first, parses at most `JSONParser.defaultMaximumDepth` (64) levels.
    /// Accepting a deeper value made every later `events` request fail on that event.
    public static let maximumValueDepth = JSONParser.defaultMaximumDepth - 2
}

extension JSONValue {
    /// The levels of arrays and objects: 0 for a scalar, 1 for `[]` or `[1]`, 2 for `[[]]`.
    /// (Recursive: a parsed value is at most `JSONParser.defaultMaximumDepth` deep.)
    public var nestingDepth: Int {
        switch self {
        case .null, .bool, .int, .double, .string: 0
        case .array(let elements): 1 + (elements.lazy.map(\.nestingDepth).max() ?? 0)
        case .object(let members): 1 + (members.values.lazy.map(\.nestingDepth).max() ?? 0)
        }
    }
}
