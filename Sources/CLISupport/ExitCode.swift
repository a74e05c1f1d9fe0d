import Glibc
import Protocol

/// Exit statuses fixed by CLI.md.
package enum ExitCode: Int32 {
    case success = 0
    case checkFailed = 1
    case usage = 2
    case runtimeFailure = 3
}

/// Writes one line to stderr. Whatever the message quotes (a host's reply, a file's
/// content), terminal controls in it are escaped: it stays one line and cannot drive the
/// terminal.
package func printError(_ message: String) {
    var line = Array(escapingTerminalControls(message).utf8)
    line.append(UInt8(ascii: "\n"))
    line.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
}

/// The absolute path of this executable, for the default worker argv.
package func currentExecutablePath() -> String {
    var buffer = [CChar](repeating: 0, count: 4096)
    let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
    guard length > 0 else { return CommandLine.arguments[0] }
    return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
