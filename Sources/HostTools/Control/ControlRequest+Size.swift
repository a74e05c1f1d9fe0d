import HostProcess
import Protocol

extension ControlRequest {
    /// About how many bytes the decoded request holds while it waits to run: what the
    /// control server charges to its budget for it. A decoded request takes 9–13 times its
    /// frame (a `notify` value as `JSONValue`s), so counting frames let the 64 MiB budget
    /// hold about 800 MiB.
    package var estimatedSize: Int {
        // The request, its queue entry and its pending record, then its fields as JSON
        // values (`json` shares the request's values, it does not copy them).
        512 + json.estimatedSize
    }
}
