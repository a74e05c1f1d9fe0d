/// A command-line usage error: one line for stderr, exit status 2.
package struct UsageError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// The arguments of one subcommand, consumed as they are read so that whatever is left
/// over can be reported as unknown.
package struct Arguments {
    package let command: String
    private var remaining: [String]
    /// Every flag and option consumed so far, to tell a repeated one from an unknown one.
    private var consumed: Set<String> = []
    /// The word after a bare boolean flag that was neither true nor false, with the flag:
    /// left over, it is most likely a mistyped value (`--completes maybe`).
    private var wordAfterBooleanFlag: (word: String, flag: String)?
    /// Every flag and option asked for so far, present or not, in the order asked: what this
    /// command knows, for the error that names an unknown one.
    package private(set) var known: [String] = []

    package init(command: String, _ arguments: [String]) {
        self.command = command
        self.remaining = arguments
    }

    /// Whether `--help` or `-h` was given.
    package var wantsHelp: Bool { remaining.contains("--help") || remaining.contains("-h") }

    /// Removes a boolean flag whose default is false, in any form `boolFlag` takes (`name`,
    /// `name true|false`, `name=true|false`, as CLI.md promises every boolean flag): its
    /// value, false if absent.
    package mutating func flag(_ name: String) throws(UsageError) -> Bool {
        try boolFlag(name) ?? false
    }

    /// Removes the first `name`, `name true|false` or `name=true|false`: its value (`name`
    /// alone is true); nil if absent. A flag whose default is true needs the `false` form.
    package mutating func boolFlag(_ name: String) throws(UsageError) -> Bool? {
        learn(name)
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
            if index + 1 < remaining.count, !remaining[index + 1].hasPrefix("-") {
                wordAfterBooleanFlag = (remaining[index + 1], name)
            }
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
    /// (argv for a worker): otherwise `--socket --json` is a missing value, not a path. It may
    /// be empty only then too: `--state-dir ""` is a usage error, not a directory named "".
    package mutating func option(_ name: String, acceptsDashedValue: Bool = false) throws(UsageError) -> String? {
        learn(name)
        guard let index = remaining.firstIndex(where: { $0 == name || $0.hasPrefix(name + "=") }) else {
            return nil
        }
        consumed.insert(name)
        if remaining[index] != name {
            let value = String(remaining.remove(at: index).dropFirst(name.count + 1))
            guard !value.isEmpty else { throw UsageError("hostctl \(command): \(name) needs a value") }
            return value
        }
        guard index + 1 < remaining.count,
            acceptsDashedValue || (!remaining[index + 1].hasPrefix("--") && !remaining[index + 1].isEmpty)
        else {
            throw UsageError("hostctl \(command): \(name) needs a value")
        }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...index + 1)
        return value
    }

    /// Removes every `name VALUE` and `name=VALUE`, in the order given.
    package mutating func options(_ name: String, acceptsDashedValues: Bool = false) throws(UsageError) -> [String] {
        var values: [String] = []
        while let value = try option(name, acceptsDashedValue: acceptsDashedValues) { values.append(value) }
        return values
    }

    /// Removes an integer option within `range`.
    package mutating func intOption(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = try option(name) else { return nil }
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "hostctl \(command): \(name) must be an integer in \(range.lowerBound)...\(range.upperBound), got \"\(text)\""
            )
        }
        return value
    }

    /// Removes the next positional argument; `what` names it in the error when missing.
    package mutating func positional(_ what: String) throws(UsageError) -> String {
        guard let index = remaining.firstIndex(where: { !$0.hasPrefix("--") || $0 == "-" }) else {
            throw UsageError("hostctl \(command): missing \(what) (see hostctl \(command) --help)")
        }
        return remaining.remove(at: index)
    }

    /// Fails on anything not consumed.
    package func finish() throws(UsageError) {
        try rejectUnknownOptions()
        if let first = remaining.first {
            let name = String(first.prefix { $0 != "=" })
            if consumed.contains(name) {
                throw UsageError("hostctl \(command): \(name) given more than once")
            }
            if let after = wordAfterBooleanFlag, after.word == first {
                throw UsageError("hostctl \(command): \(after.flag) takes true or false, not \(first)")
            }
            throw UsageError("hostctl \(command): unknown argument \"\(first)\" (see hostctl \(command) --help)")
        }
    }

    /// Fails on the first option left that this command never asked for, naming it, the
    /// nearest known one and the known ones. Called by `finish`, and before a "needs --x"
    /// error: with `push A --vcc Detail` the typo is the news, not the missing `--vc`.
    package func rejectUnknownOptions() throws(UsageError) {
        for argument in remaining where argument.hasPrefix("-") && argument != "-" {
            let name = String(argument.prefix { $0 != "=" })
            // Taken once already: its second value must not be read as a positional argument.
            if consumed.contains(name) { throw UsageError("hostctl \(command): \(name) given more than once") }
            guard !known.contains(name) else { continue }
            let options = known.filter { $0 != "--help" && $0 != "-h" }
            var message = "hostctl \(command): unknown option \(name)"
            if let nearest = Self.nearest(to: name, among: options) { message += " (did you mean \(nearest)?)" }
            let list = options.joined(separator: " ")
            if options.isEmpty {
                message += "; it takes no options"
            } else if list.count <= 160 {
                message += "; known: \(list)"
            } else {
                message += "; see hostctl \(command) --help"
            }
            throw UsageError(message)
        }
    }

    private mutating func learn(_ name: String) {
        if !known.contains(name) { known.append(name) }
    }

    /// The known name within two edits of `name` (or that it is a prefix of), if one is closest.
    package static func nearest(to name: String, among names: [String]) -> String? {
        var best: (name: String, distance: Int)?
        for candidate in names {
            let distance = candidate.hasPrefix(name) ? 1 : editDistance(Array(name), Array(candidate))
            if distance <= 2, distance < best?.distance ?? Int.max { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
}
