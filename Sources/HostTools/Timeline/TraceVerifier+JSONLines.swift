import HostProcess
import SceneModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension TraceVerifier {
    /// Verifies the trace file at `path` (JSON Lines; `-` is stdin, as for `timeline`),
    /// reading it in chunks so that a long trace is never held in memory. Stops at the first
    /// malformed line or violation.
    public static func verify(contentsOf path: String) throws(TraceFileError) -> TraceVerificationResult {
        let descriptor: Int32
        do {
            descriptor = try TraceFileInput.descriptor(path)
        } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
        defer { if descriptor != 0 { close(descriptor) } }

        var verification = JSONLinesVerification(lineLimit: JSONLinesVerification.maximumLineBytes)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while verification.failure == nil {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { break }
            verification.feed(chunk[..<count])
            if let line = verification.overlongLine {
                throw .lineTooLong(path: path, line: line, limit: JSONLinesVerification.maximumLineBytes)
            }
        }
        return verification.finish()
    }

    /// Verifies a whole trace held in memory (JSON Lines).
    public static func verify(jsonLines: [UInt8]) -> TraceVerificationResult {
        var verification = JSONLinesVerification()
        verification.feed(jsonLines[...])
        return verification.finish()
    }
}

/// Splits JSON Lines into events and feeds them to a verifier, remembering line numbers.
/// Every line, the last one included if it has no newline, must be one event, except blank
/// ones (`TraceEvent.isBlank`), which are skipped as the control socket skips them: a
/// trailing blank line from an editor must not make a good trace invalid. They still count in
/// the line numbers. At most one partial line is held, of at most
/// `lineLimit` bytes: a longer one stops the check (`overlongLine`).
package struct JSONLinesVerification {
    /// The line limit for a file: 4 MiB. An event the host writes is far smaller (a worker's
    /// frame, whose values end up in events, is at most 1 MiB).
    package static let maximumLineBytes = 4 << 20
    package let lineLimit: Int
    private var verifier = TraceVerifier()
    /// The start of a line whose newline has not arrived yet.
    private var partialLine: [UInt8] = []
    private var lineNumber = 0
    package private(set) var failure: TraceVerificationFailure?
    /// The number of a line that passed `maximumLineBytes`; nothing more is checked.
    package private(set) var overlongLine: Int?

    package init(lineLimit: Int = .max) {
        self.lineLimit = lineLimit
    }

    /// Takes the next bytes of the trace.
    package mutating func feed(_ bytes: ArraySlice<UInt8>) {
        guard overlongLine == nil else { return }
        var start = bytes.startIndex
        while failure == nil, let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if partialLine.isEmpty {
                checkLine(Array(bytes[start..<newline]))
            } else {
                partialLine += bytes[start..<newline]
                checkLine(partialLine)
                partialLine.removeAll(keepingCapacity: true)
            }
            start = newline + 1
        }
        guard failure == nil else { return }
        if partialLine.count + (bytes.endIndex - start) > lineLimit {
            overlongLine = lineNumber + 1
            partialLine = []
            return
        }
        partialLine += bytes[start...]
    }

    /// Checks a last line without newline and returns the outcome.
    package mutating func finish() -> TraceVerificationResult {
        if failure == nil && !partialLine.isEmpty {
            checkLine(partialLine)
            partialLine.removeAll()
        }
        return TraceVerificationResult(eventCount: verifier.eventCount, failure: failure)
    }

    private mutating func checkLine(_ line: [UInt8]) {
        lineNumber += 1
        guard !TraceEvent.isBlank(line[...]) else { return }
        do {
            let event = try TraceEvent(jsonLine: line)
            if let violation = verifier.check(event) {
                failure = TraceVerificationFailure(line: lineNumber, problem: .violation(violation))
            }
        } catch {
            failure = TraceVerificationFailure(line: lineNumber, problem: .malformed(error))
        }
    }
}
