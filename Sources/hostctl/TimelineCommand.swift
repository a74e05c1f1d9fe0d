import CLISupport
import Glibc
import HostProcess
import HostTools

extension Commands {
    /// `hostctl timeline TRACE.jsonl [--format svg|perfetto] [-o FILE]`
    static func timeline(_ arguments: inout Arguments) throws -> ExitCode {
        if arguments.wantsHelp {
            print(Help.timeline)
            return .success
        }
        let formatName = try arguments.option("--format") ?? "svg"
        let outputs = try arguments.options("-o") + arguments.options("--output")
        guard outputs.count <= 1 else {
            throw UsageError("hostctl timeline: -o given more than once")
        }
        guard let format = TimelineFormat(rawValue: formatName) else {
            throw UsageError("hostctl timeline: --format must be svg or perfetto, got \"\(formatName)\"")
        }
        let path = try arguments.positional("TRACE.jsonl")
        if path.hasPrefix("-") && path != "-" {
            throw UsageError("hostctl timeline: unknown option \"\(path)\" (see hostctl timeline --help)")
        }
        try arguments.finish()
        // No `-o` is stdout, as `-o -` is: `timeline t.jsonl >> t.jsonl` appends to the trace it reads.
        try OutputPaths.check(
            outputs.first ?? "-",
            flag: outputs.isEmpty ? "" : "-o",
            isNot: path,
            what: "the trace it reads",
            command: "timeline",
            outputStream: STDOUT_FILENO,
            otherStream: STDIN_FILENO
        )

        let events: [TraceEvent]
        do {
            events = try TraceEvent.events(jsonLines: try TimelineFiles.read(path))
        } catch let error as TraceLineError {
            printError("hostctl timeline: \(path == "-" ? "stdin" : path): \(error)")
            return .runtimeFailure
        } catch let error as TimelineFileError where error.cannotOpen {
            throw UsageError("hostctl timeline: \(error)")
        } catch {
            printError("hostctl timeline: \(error)")
            return .runtimeFailure
        }
        guard !events.isEmpty else {
            printError("hostctl timeline: \(path == "-" ? "stdin" : path): the trace has no events")
            return .runtimeFailure
        }

        let bytes: [UInt8] =
            switch format {
            case .svg: Array(SVGTimeline.render(events).utf8)
            case .perfetto: PerfettoExport.render(events)
            }
        do {
            try TimelineFiles.write(bytes, to: outputs.first)
        } catch {
            printError("hostctl timeline: \(error)")
            return .runtimeFailure
        }
        return .success
    }
}

/// What `hostctl timeline` writes.
enum TimelineFormat: String {
    case svg, perfetto
}

/// A file the timeline command could not read or write.
struct TimelineFileError: Error, CustomStringConvertible {
    let description: String
    /// The file could not be opened at all (a usage error, as for `run` and `verify`).
    var cannotOpen = false
}

/// Whole-file reads and writes for the timeline command (`-` is stdin/stdout).
enum TimelineFiles {
    /// The largest trace `read` takes, 16 MiB (as `run` for a scenario): a timeline is read
    /// whole and every event decoded, so a bigger file, or an endless one (`/dev/zero`),
    /// is refused rather than held. That is about 100,000 events, more than a picture shows.
    static let maximumTraceBytes = 16 << 20

    /// The bytes of `path`, or of stdin for `-`.
    static func read(_ path: String) throws(TimelineFileError) -> [UInt8] {
        let descriptor: Int32
        do {
            descriptor = try TraceFileInput.descriptor(path)
        } catch {
            throw TimelineFileError(description: "cannot open trace file \(path): \(error.reason)", cannotOpen: true)
        }
        defer { if descriptor != 0 { close(descriptor) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw TimelineFileError(
                    description: "cannot read trace file \(path): \(String(cString: strerror(errno)))"
                )
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= maximumTraceBytes else {
                throw TimelineFileError(
                    description: "cannot read trace file \(path): larger than \(maximumTraceBytes >> 20) MiB"
                )
            }
            bytes += chunk[..<count]
        }
    }

    /// Writes `bytes` to `path` (replaced whole: a failed write leaves the old file), or to
    /// stdout for nil or `-`.
    static func write(_ bytes: [UInt8], to path: String?) throws(TimelineFileError) {
        guard let path, path != "-" else {
            fflush(nil)  // after anything `print` buffered
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { Glibc.write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                if written < 0 {
                    if errno == EINTR { continue }
                    throw TimelineFileError(description: "cannot write stdout: \(String(cString: strerror(errno)))")
                }
                offset += written
            }
            return
        }
        do {
            try OutputFile.write(bytes, to: path)
        } catch {
            throw TimelineFileError(description: error.description)
        }
    }
}
