/// The last bytes a worker wrote on stderr, for the error its death gives
/// (`WorkerExitDetail`'s limits).
///
/// A Swift program that crashes prints its `Fatal error: …` line, then (Swift's backtracer)
/// a banner, `💣 Program crashed: Illegal instruction at …`, and kilobytes of threads,
/// registers and images; with the backtracer off (`SWIFT_BACKTRACE=enable=no`), `Current
/// stack trace:` and a frame per line. The tail stops at the banner's line: the lines that
/// say what went wrong are the ones before it, not the dump after.
import SceneModel

package struct StderrTail: Sendable {
    package private(set) var bytes: [UInt8] = []
    /// The backtracer's banner came: nothing after it is kept.
    package private(set) var endedAtCrash = false

    private static let banners = [Array("Program crashed: ".utf8), Array("Current stack trace:".utf8)]
    private static let longestBanner = banners.map(\.count).max() ?? 0

    package mutating func append(_ chunk: UnsafeRawBufferPointer) {
        guard !endedAtCrash else { return }
        // A banner may begin in the previous chunk: search from just before this one.
        let searchStart = max(0, bytes.count - (Self.longestBanner - 1))
        let limit = WorkerExitDetail.stderrByteLimit
        bytes.append(contentsOf: chunk)
        if let end = Self.endOfBannerLine(in: bytes, from: searchStart) {
            bytes.removeSubrange(end...)
            endedAtCrash = true
        }
        // Trimmed in batches: a chatty worker costs an amortized copy, not one per read.
        if bytes.count > 2 * limit { bytes.removeFirst(bytes.count - limit) }
    }

    /// The index just past the line holding the first banner, if `bytes` from `start` has one.
    private static func endOfBannerLine(in bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            for banner in banners
            where bytes[index] == banner[0] && bytes.count - index >= banner.count
                && bytes[index..<index + banner.count].elementsEqual(banner)
            {
                return bytes[(index + banner.count)...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            }
            index += 1
        }
        return nil
    }
}
