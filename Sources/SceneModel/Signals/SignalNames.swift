/// Signal names as the trace and the CLI spell them: without the `SIG` prefix (`KILL`, `TERM`).
package enum SignalNames {
    /// Linux's numbering, the same on x86_64 and arm64 (asm-generic); the model imports no C
    /// library, and a test checks the table against Glibc's constants.
    package static let table: [(name: String, number: Int32)] = [
        ("HUP", 1), ("INT", 2), ("QUIT", 3), ("ILL", 4),
        ("TRAP", 5), ("ABRT", 6), ("BUS", 7), ("FPE", 8),
        ("KILL", 9), ("USR1", 10), ("SEGV", 11), ("USR2", 12),
        ("PIPE", 13), ("ALRM", 14), ("TERM", 15), ("STKFLT", 16),
        ("CHLD", 17), ("CONT", 18), ("STOP", 19), ("TSTP", 20),
        ("TTIN", 21), ("TTOU", 22), ("URG", 23), ("XCPU", 24),
        ("XFSZ", 25), ("VTALRM", 26), ("PROF", 27), ("WINCH", 28),
        ("IO", 29), ("PWR", 30), ("SYS", 31),
    ]

    /// Accepted on input only; `name(of:)` always answers the canonical name.
    private static let aliases: [String: Int32] = ["IOT": 6, "POLL": 29, "CLD": 17]

    private static let byNumber: [Int32: String] = Dictionary(
        table.map { ($0.number, $0.name) },
        uniquingKeysWith: { first, _ in first }
    )

    private static let byName: [String: Int32] = Dictionary(
        table.map { ($0.name, $0.number) },
        uniquingKeysWith: { first, _ in first }
    ).merging(aliases, uniquingKeysWith: { first, _ in first })

    /// Linux has signals 1...64 (NSIG is 65); real-time signals have no fixed name.
    private static let validNumbers: ClosedRange<Int32> = 1...64

    /// `"KILL"` for 9; a number without a name (real-time signals, garbage) comes back as its decimal text.
    package static func name(of signal: Int32) -> String {
        byNumber[signal] ?? String(signal)
    }

    /// The canonical names, in signal-number order (for an error that lists what is known).
    package static var knownNames: [String] { table.map(\.name) }

    /// Accepts `"KILL"`, `"SIGKILL"`, `"kill"`, `"sigkill"` and `"9"`; nil for anything else.
    package static func number(named text: String) -> Int32? {
        let trimmed = text.trimmingWhitespace()
        if let number = Int32(trimmed) {
            return validNumbers.contains(number) ? number : nil
        }
        var upper = trimmed.uppercased()
        if upper.hasPrefix("SIG") {
            upper.removeFirst(3)
        }
        return byName[upper]
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
