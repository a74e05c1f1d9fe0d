/// A command-line usage error: one line for stderr, exit status 2.
struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The arguments of one subcommand, consumed as they are read so that whatever is left
/// over can be reported as unknown.
struct Arguments {
    let command: String
    private var remaining: [String]
    /// Every flag and option consumed so far, to tell a repeated one from an unknown one.
    private var consumed: Set<String> = []

    init(command: String, _ arguments: [String]) {
        self.command = command
        self.remaining = arguments
    }

    /// Whether `--help` or `-h` was given.
    var wantsHelp: Bool { remaining.contains("--help") || remaining.contains("-h") }

    /// Removes a boolean flag; true if it was present.
    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        consumed.insert(name)
        return true
    }

    /// Removes the first `name`, `name true|false` or `name=true|false`: its value (`name`
    /// alone is true); nil if absent. A flag whose default is true needs the `false` form.
    mutating func boolFlag(_ name: String) throws(UsageError) -> Bool? {
        guard let index = remaining.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) else {
            return nil
        }
        consumed.insert(name)
        var text: String?
        if remaining[index] != name {
            text = String(remaining[index].dropFirst(name.count + 1))
            remaining.remove(at: index)
        } else if index + 1 < remaining.count, ["true", "false"].contains(remaining[index + 1]) {
            text = remaining[index + 1]
            remaining.removeSubrange(index...index + 1)
        } else {
            remaining.remove(at: index)
        }
        switch text {
        case nil, "true": return true
        case "false": return false
        default: throw UsageError("hostctl \(command): \(name) takes true or false, not \(text ?? "")")
        }
    }

    /// Removes the first `name VALUE` or `name=VALUE`; nil if absent.
    ///
    /// `VALUE` may start with `--` only in the `=` form or when `acceptsDashedValue` is set
    /// (argv for a worker): otherwise `--socket --json` is a missing value, not a path.
    mutating func option(_ name: String, acceptsDashedValue: Bool = false) throws(UsageError) -> String? {
        guard let index = remaining.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) else {
            return nil
        }
        consumed.insert(name)
        if remaining[index] != name {
            let value = String(remaining.remove(at: index).dropFirst(name.count + 1))
            guard !value.isEmpty else { throw UsageError("hostctl \(command): \(name) needs a value") }
            return value
        }
        guard index + 1 < remaining.count, acceptsDashedValue || !remaining[index + 1].hasPrefix("--") else {
            throw UsageError("hostctl \(command): \(name) needs a value")
        }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        return value
    }

    /// Removes every `name VALUE` and `name=VALUE`, in the order given.
    mutating func options(_ name: String, acceptsDashedValues: Bool = false) throws(UsageError) -> [String] {
        var values: [String] = []
        while let value = try option(name, acceptsDashedValue: acceptsDashedValues) { values.append(value) }
        return values
    }

    /// Removes an integer option within `range`.
    mutating func intOption(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "hostctl \(command): \(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got \"\(text)\""
            )
        }
        return value
    }

    /// Removes the next positional argument; `what` names it in the error when missing.
    mutating func positional(_ what: String) throws(UsageError) -> String {
        guard let index = remaining.firstIndex(where: { !$0.hasPrefix("--") || $0 == "-" }) else {
            throw UsageError("hostctl \(command): missing \(what) (see hostctl \(command) --help)")
        }
        return remaining.remove(at: index)
    }

    /// Fails on anything not consumed.
    func finish() throws(UsageError) {
        if let first = remaining.first {
            let name = String(first.prefix { $0 != "=" })
            if consumed.contains(name) {
                throw UsageError("hostctl \(command): \(name) given more than once")
            }
            throw UsageError("hostctl \(command): unknown argument \"\(first)\" (see hostctl \(command) --help)")
        }
    }
}
