import Protocol

/// One line of the bench report.
package struct BenchRow: Sendable {
    package enum Unit: String, Sendable {
        /// Durations, in microseconds.
        case microseconds = "us"
        /// Nanoseconds (codec).
        case nanoseconds = "ns"
        /// Operations per second (throughput): higher is better.
        case perSecond = "per_s"
        case kibibytes = "KiB"
    }

    /// What the target compares, when there is one.
    package enum Target: Sendable {
        /// median / floor must be at most this.
        case ratioAtMost(Double)
        /// floor / median must be at least this (the floor is the slower reference).
        case speedupAtLeast(Double)
        /// The median itself must be at most this (in the row's unit).
        case medianAtMost(Double)
        /// The median itself must be at least this (a rate).
        case medianAtLeast(Double)

        package var text: String {
            switch self {
            case .ratioAtMost(let ratio): "≤ \(BenchFormat.compact(ratio))× floor"
            case .speedupAtLeast(let ratio): "≥ \(BenchFormat.compact(ratio))× faster"
            case .medianAtMost(let value): "p50 ≤ \(BenchFormat.compact(value))"
            case .medianAtLeast(let value): "p50 ≥ \(BenchFormat.compact(value))"
            }
        }

        /// For scripts: what is compared, and the limit.
        package var kind: String {
            switch self {
            case .ratioAtMost: "ratioAtMost"
            case .speedupAtLeast: "ratioAtLeast"
            case .medianAtMost: "medianAtMost"
            case .medianAtLeast: "medianAtLeast"
            }
        }

        package var limit: Double {
            switch self {
            case .ratioAtMost(let value), .speedupAtLeast(let value), .medianAtMost(let value),
                .medianAtLeast(let value):
                value
            }
        }
    }

    package var name: String
    package var unit: Unit
    package var median: Double
    package var p99: Double
    package var samples: Int
    /// The floor measured in the same run (same unit), and what it is.
    package var floor: Double? = nil
    package var floorName: String? = nil
    package var target: Target? = nil
    /// Free-form context: scene counts, what the floor is, why a target does not apply.
    package var note: String? = nil
    /// Extra figures for scripts (JSON only).
    package var details: [String: Double] = [:]

    /// median / floor, or floor / median for a speedup target.
    package var ratio: Double? {
        guard let floor, floor > 0, median > 0 else { return nil }
        if case .speedupAtLeast = target { return floor / median }
        return median / floor
    }

    /// nil when the row has no target or it cannot be judged.
    package var passed: Bool? {
        guard let target else { return nil }
        switch target {
        case .ratioAtMost(let limit):
            guard let ratio else { return nil }
            return ratio <= limit
        case .speedupAtLeast(let limit):
            guard let ratio else { return nil }
            return ratio >= limit
        case .medianAtMost(let limit):
            guard median.isFinite else { return nil }
            return median <= limit
        case .medianAtLeast(let limit):
            guard median.isFinite else { return nil }
            return median >= limit
        }
    }

    package init(
        _ name: String,
        unit: Unit = .microseconds,
        _ samples: Samples,
        floor: Double? = nil,
        floorName: String? = nil,
        target: Target? = nil,
        note: String? = nil
    ) {
        self.name = name
        self.unit = unit
        self.median = samples.median
        self.p99 = samples.p99
        self.samples = samples.count
        self.floor = floor
        self.floorName = floorName
        self.target = target
        self.note = note
    }

    /// The verdict as the tables print it: `pass`, `MISS`, `n/a` for a target that cannot be
    /// judged, nil without a target.
    package var verdict: String? {
        switch passed {
        case true?: "pass"
        case false?: "MISS"
        case nil: target == nil ? nil : "n/a"
        }
    }

    /// `target` as the tables print it: a limit on the median in the row's unit.
    package func targetText(_ target: Target) -> String {
        switch target {
        case .medianAtMost(let value): "p50 ≤ " + BenchFormat.value(value, unit, compact: true)
        case .medianAtLeast(let value): "p50 ≥ " + BenchFormat.value(value, unit, compact: true)
        default: target.text
        }
    }

    package var json: JSONValue {
        var object: [String: JSONValue] = [
            "name": .string(name),
            "unit": .string(unit.rawValue),
            "median": BenchFormat.jsonNumber(median),
            "p99": BenchFormat.jsonNumber(p99),
            "samples": .int(samples),
        ]
        if let floor { object["floor"] = BenchFormat.jsonNumber(floor) }
        if let floorName { object["floorName"] = .string(floorName) }
        if let ratio { object["ratio"] = BenchFormat.jsonNumber(ratio) }
        if let target {
            object["target"] = .string(target.text)
            object["targetKind"] = .string(target.kind)
            object["targetLimit"] = BenchFormat.jsonNumber(target.limit)
        }
        object["pass"] = passed.map(JSONValue.bool) ?? .null
        if let note { object["note"] = .string(note) }
        if !details.isEmpty { object["details"] = .object(details.mapValues(BenchFormat.jsonNumber)) }
        return .object(object)
    }
}

/// The whole report: rows in run order plus how the run was made.
package struct BenchReport: Sendable {
    package var rows: [BenchRow] = []
    package var quick: Bool
    package var debugBuild: Bool
    package var staticStdlib: Bool
    /// `static executable`, `static stdlib` or `dynamic stdlib`.
    package var linking: String
    package var cores: Int
    package var descriptorLimit: Int

    package init(
        quick: Bool,
        debugBuild: Bool,
        staticStdlib: Bool,
        linking: String,
        cores: Int,
        descriptorLimit: Int
    ) {
        self.quick = quick
        self.debugBuild = debugBuild
        self.staticStdlib = staticStdlib
        self.linking = linking
        self.cores = cores
        self.descriptorLimit = descriptorLimit
    }

    package mutating func add(_ row: BenchRow) { rows.append(row) }

    /// Renames the rows from index `first` on (a pass under another tuning), and the floors
    /// they name among them, so both passes' rows stand side by side.
    package mutating func suffixRows(from first: Int, with suffix: String) {
        let renamed = Set(rows[first...].map(\.name))
        for index in rows.indices.dropFirst(first) {
            rows[index].name += suffix
            if let floorName = rows[index].floorName, renamed.contains(floorName) {
                rows[index].floorName = floorName + suffix
            }
        }
    }

    package var json: JSONValue {
        .object([
            "build": .string(debugBuild ? "debug" : "release"),
            "stdlib": .string(staticStdlib ? "static" : "dynamic"),
            "linking": .string(linking),
            "quick": .bool(quick),
            "cores": .int(cores),
            "descriptorLimit": .int(descriptorLimit),
            "benchmarks": .array(rows.map(\.json)),
        ])
    }

    package var jsonText: String {
        var bytes: [UInt8] = []
        JSONWriter.write(json, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A fixed-width table: name, median, p99, floor, ratio, target, result, note.
    package var table: String {
        var lines: [[String]] = [["benchmark", "median", "p99", "floor", "ratio", "target", "result"]]
        for row in rows {
            lines.append([
                row.name,
                BenchFormat.value(row.median, row.unit),
                BenchFormat.value(row.p99, row.unit),
                row.floor.map { BenchFormat.value($0, row.unit) } ?? "",
                row.ratio.map { BenchFormat.number($0) + "×" } ?? "",
                row.target.map { row.targetText($0) } ?? "",
                row.verdict ?? "",
            ])
        }
        var widths = [Int](repeating: 0, count: lines[0].count)
        for line in lines {
            for (index, cell) in line.enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        var text = ""
        for (number, line) in lines.enumerated() {
            var cells: [String] = []
            for (index, cell) in line.enumerated() {
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                // Names and targets align left, figures right.
                cells.append(index == 0 || index >= 5 ? cell + padding : padding + cell)
            }
            text += cells.joined(separator: "  ").trimmingTrailingSpaces() + "\n"
            if number == 0 {
                text += widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ") + "\n"
            }
        }
        let notes = rows.compactMap { row in row.note.map { "  \(row.name): \($0)" } }
        if !notes.isEmpty {
            text += "\nnotes\n" + notes.joined(separator: "\n") + "\n"
        }
        return text
    }
}

package enum BenchFormat {
    /// Up to three significant figures, no exponent.
    package static func number(_ value: Double) -> String {
        guard value.isFinite else { return "-" }
        let magnitude = abs(value)
        let decimals = magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : magnitude >= 1 ? 2 : 3
        return fixed(value, decimals: decimals)
    }

    /// `number` with its sign, plus included: a difference (+12.3, -0.41).
    package static func signed(_ value: Double) -> String {
        value.isFinite && value >= 0 ? "+" + number(value) : number(value)
    }

    /// Integers without decimals (2, 10, 1024), anything else as `number`.
    package static func compact(_ value: Double) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e9 { return String(Int(value)) }
        return number(value)
    }

    package static func fixed(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "-" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int(scaled / scale)
        var text = value < 0 && scaled > 0 ? "-" : ""
        text += String(whole)
        if decimals > 0 {
            let fraction = Int(scaled - Double(whole) * scale)
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        return text
    }

    /// A value with a readable unit: µs become ms or s when large, rates get k/M.
    package static func value(_ value: Double, _ unit: BenchRow.Unit, compact: Bool = false) -> String {
        guard value.isFinite else { return "-" }
        func number(_ value: Double) -> String {
            compact ? BenchFormat.compact(value) : BenchFormat.number(value)
        }
        switch unit {
        case .nanoseconds:
            return value >= 1000 ? number(value / 1000) + " µs" : number(value) + " ns"
        case .microseconds:
            if value >= 1_000_000 { return number(value / 1_000_000) + " s" }
            if value >= 1000 { return number(value / 1000) + " ms" }
            return number(value) + " µs"
        case .perSecond:
            if value >= 1_000_000 { return number(value / 1_000_000) + " M/s" }
            if value >= 1000 { return number(value / 1000) + " k/s" }
            return number(value) + " /s"
        case .kibibytes:
            if value >= 10 * 1024 { return number(value / 1024) + " MiB" }
            return number(value) + " KiB"
        }
    }

    /// Finite numbers as JSON numbers (integers stay integers), anything else as null.
    package static func jsonNumber(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return .int(Int(rounded)) }
        return .double(rounded)
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var text = Substring(self)
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
