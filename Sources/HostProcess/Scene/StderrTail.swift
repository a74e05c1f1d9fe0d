/// The last bytes a worker wrote on stderr, for the error its death gives
/// (`WorkerExitDetail`'s limits).
///
/// A Swift program that crashes prints its `Fatal error: …` line, then (Swift's backtracer)
/// a banner, `💣 Program crashed: Illegal instruction at …`, and kilobytes of threads,
/// registers and images; with the backtracer off (`SWIFT_BACKTRACE=enable=no`), a line
/// `Current stack trace:` and a frame per line. The tail stops at the banner's line: the
/// lines that say what went wrong are the ones before it, not the dump after.
import SceneModel

package struct StderrTail: Sendable {
    package private(set) var bytes: [UInt8] = []
    /// A crash's banner came (the backtracer's, or the runtime's stack trace): nothing after
    /// it is kept.
    package private(set) var endedAtCrash = false

    /// The backtracer's banner, anywhere in a line (after its emoji).
    private static let backtracerBanner = Array("Program crashed: ".utf8)
    /// The runtime's, only as a line of its own: an app may log the words.
    private static let stackTraceBanner = Array("Current stack trace:\n".utf8)

    package mutating func append(_ chunk: UnsafeRawBufferPointer) {
        guard !endedAtCrash else { return }
        // A banner may begin in the previous chunk: search from just before this one (one
        // byte more: the newline the stack trace's banner follows).
        let searchStart = max(0, bytes.count - max(Self.backtracerBanner.count, Self.stackTraceBanner.count))
        let limit = WorkerExitDetail.stderrByteLimit
        bytes.append(contentsOf: chunk)
        if let end = Self.endOfBannerLine(in: bytes, from: searchStart) {
            bytes.removeSubrange(end...)
            endedAtCrash = true
        }
        // Trimmed in batches: a chatty worker costs an amortized copy, not one per read.
        if bytes.count > 2 * limit { bytes.removeFirst(bytes.count - limit) }
    }

    /// The index just past the line holding the first banner, if `bytes` from `start` has one
    /// (the line's newline excluded).
    private static func endOfBannerLine(in bytes: [UInt8], from start: Int) -> Int? {
        let crashed = backtracerBanner
        let trace = stackTraceBanner
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == crashed[0], bytes.count - index >= crashed.count,
                bytes[index..<index + crashed.count].elementsEqual(crashed)
            {
                return bytes[(index + crashed.count)...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            }
            if byte == trace[0], index == 0 || bytes[index - 1] == UInt8(ascii: "\n"),
                bytes.count - index >= trace.count, bytes[index..<index + trace.count].elementsEqual(trace)
            {
                return index + trace.count - 1
            }
            index += 1
        }
        return nil
    }
}
