import HostProcess
import Protocol

extension ControlServerFrame {
    /// How deep a value a request may put into the trace (a `notify` value): 62. An event
    /// frame wraps it in two objects (`{"event":{…,"value":…}}`), and every reader of frames,
    /// `hostctl events` first, parses at most `JSONParser.defaultMaximumDepth` (64) levels.
    /// Accepting a deeper value made every later `events` request fail on that event.
    public static let maximumValueDepth = SceneLimits.maximumValueDepth
}
