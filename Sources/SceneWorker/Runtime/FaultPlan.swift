import Protocol

/// Faults a test worker injects on purpose, for the host's watchdog and crash tests.
struct FaultPlan: Sendable, Hashable {
    /// Block forever inside the first callback of this name (after writing everything before it).
    var hangIn: CallbackName?
    /// Exit with status 70 inside the first callback of this name (after writing everything before it).
    var crashIn: CallbackName?
    /// Ignore SIGTERM.
    var ignoreSIGTERM = false
    /// Write a line that is not JSON right after the handshake.
    var garbageAfterHandshake = false

    /// The line `--garbage` writes.
    static let garbageLine = "this is not JSON {\n"

    /// The status a `--crash-in` worker exits with (EX_SOFTWARE).
    static let crashStatus: Int32 = 70
}
