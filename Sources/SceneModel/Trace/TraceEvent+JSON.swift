import Protocol

/// Why a trace line is not a trace event. Names the field and the value at fault.
public enum TraceDecodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not JSON at all (the parser's message).
    case invalidJSON(String)
    /// JSON, but not an object.
    case notAnObject
    /// A field the event needs is absent.
    case missingField(String)
    /// A known field holds the wrong JSON type.
    case wrongType(field: String, expected: String)
    /// A known field holds a value outside its set (`type`, `from`, `to`, `event`, `reason`,
    /// `origin`).
    case unknownValue(field: String, value: String)
    /// A number that does not fit the field (`pid`, `status`).
    case outOfRange(field: String, value: String)

    public var description: String {
        switch self {
        case .invalidJSON(let message): "not valid JSON: \(message)"
        case .notAnObject: "not a JSON object"
        case .missingField(let field): "missing field `\(field)`"
        case .wrongType(let field, let expected): "field `\(field)` must be \(expected)"
        case .unknownValue(let field, let value): "field `\(field)`: unknown value \(quoted(value))"
        case .outOfRange(let field, let value): "field `\(field)`: \(value) is out of range"
        }
    }
}

// MARK: - Writing

extension TraceEvent {
    /// Appends the event as one JSON Lines line (terminated by `\n`) to `buffer`, fields
    /// in the order of CLI.md's table and absent ones omitted. `t` has microsecond precision.
    public func appendJSONLine(to buffer: inout [UInt8]) {
        // Keys are fixed ASCII, written directly; only values go through the JSON writer.
        buffer.append(contentsOf: #"{"seq":"#.utf8)
        Self.appendInteger(seq, to: &buffer)
        buffer.append(contentsOf: #","t":"#.utf8)
        Self.appendSeconds(time, to: &buffer)
        buffer.append(contentsOf: #","type":"#.utf8)
        JSONWriter.writeString(kind.rawValue, into: &buffer)
        Self.appendField(#","scene":"#, scene, to: &buffer)
        Self.appendField(#","name":"#, name, to: &buffer)
        Self.appendField(#","vc":"#, viewController, to: &buffer)
        Self.appendField(#","from":"#, from?.rawValue, to: &buffer)
        Self.appendField(#","to":"#, to?.rawValue, to: &buffer)
        Self.appendField(#","event":"#, processEvent?.rawValue, to: &buffer)
        if let pid {
            buffer.append(contentsOf: #","pid":"#.utf8)
            Self.appendInteger(Int(pid), to: &buffer)
        }
        Self.appendField(#","reason":"#, reason?.rawValue, to: &buffer)
        if let status {
            buffer.append(contentsOf: #","status":"#.utf8)
            Self.appendInteger(Int(status), to: &buffer)
        }
        Self.appendField(#","signal":"#, signal, to: &buffer)
        Self.appendField(#","app":"#, app, to: &buffer)
        if silent == true { buffer.append(contentsOf: #","silent":true"#.utf8) }
        if let argv {
            buffer.append(contentsOf: #","argv":"#.utf8)
            JSONWriter.write(.array(argv.map { .string($0) }), into: &buffer)
        }
        if let restoration {
            buffer.append(contentsOf: #","restoration":"#.utf8)
            JSONWriter.write(restoration, into: &buffer)
        }
        Self.appendField(#","notification":"#, notification, to: &buffer)
        if let value {
            buffer.append(contentsOf: #","value":"#.utf8)
            JSONWriter.write(value, into: &buffer)
        }
        Self.appendField(#","origin":"#, origin, to: &buffer)
        Self.appendField(#","op":"#, op, to: &buffer)
        if let tab {
            buffer.append(contentsOf: #","tab":"#.utf8)
            Self.appendInteger(tab, to: &buffer)
        }
        if let tabCount {
            buffer.append(contentsOf: #","tabs":"#.utf8)
            Self.appendInteger(tabCount, to: &buffer)
        }
        if let code {
            buffer.append(contentsOf: #","code":"#.utf8)
            Self.appendInteger(code, to: &buffer)
        }
        Self.appendField(#","message":"#, message, to: &buffer)
        buffer.append(contentsOf: "}\n".utf8)
    }

    /// `key` is the comma, the quoted name and the colon.
    private static func appendField(_ key: StaticString, _ value: String?, to buffer: inout [UInt8]) {
        guard let value else { return }
        key.withUTF8Buffer { buffer.append(contentsOf: $0) }
        JSONWriter.writeString(value, into: &buffer)
    }

    /// Decimal digits without going through `String` (the trace writer is on the hot path).
    private static func appendInteger(_ value: Int, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 20 digits, filled from the end
        var count = 0
        withUnsafeMutableBytes(of: &digits) { scratch in
            repeat {
                count += 1
                scratch[scratch.count - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            buffer.append(contentsOf: scratch[(scratch.count - count)...])
        }
    }

    /// Seconds with exactly six decimals (`0.012345`), by integer arithmetic on microseconds.
    /// A non-finite or absurdly large time (more than ~31 000 years) is written clamped, since
    /// JSON has no NaN or infinity.
    private static func appendSeconds(_ seconds: Double, to buffer: inout [UInt8]) {
        let limit = 1e12
        let clamped = seconds.isFinite ? min(max(seconds, -limit), limit) : 0
        let micros = Int((clamped * 1e6).rounded())
        if micros < 0 { buffer.append(UInt8(ascii: "-")) }
        appendInteger(Int(micros.magnitude / 1_000_000), to: &buffer)
        buffer.append(UInt8(ascii: "."))
        var fraction = Int(micros.magnitude % 1_000_000)
        var divisor = 100_000
        while divisor > 0 {
            buffer.append(UInt8(ascii: "0") + UInt8(fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}

// MARK: - Reading

extension TraceEvent {
    /// Decodes one trace line (a trailing newline is allowed). Strict on the known fields'
    /// types and values; unknown fields are ignored (later versions may add some).
    /// `seq`, `t` and `type` are required, and so are `name` for callbacks, `from` and `to`
    /// for state events, `event` for process events and `reason` for `exited`.
    public init(jsonLine: [UInt8]) throws(TraceDecodingError) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(jsonLine)
        } catch {
            throw .invalidJSON(error.message)
        }
        guard case .object(let fields) = root else { throw .notAnObject }
        let reader = FieldReader(fields: fields)

        guard let seq = try reader.integer("seq") else { throw .missingField("seq") }
        guard let time = try reader.number("t") else { throw .missingField("t") }
        guard let kind = try reader.enumeration("type", as: Kind.self) else { throw .missingField("type") }
        self.init(
            seq: seq,
            time: time,
            kind: kind,
            scene: try reader.string("scene"),
            name: try reader.string("name"),
            viewController: try reader.string("vc"),
            from: try reader.enumeration("from", as: ActivationState.self),
            to: try reader.enumeration("to", as: ActivationState.self),
            processEvent: try reader.enumeration("event", as: ProcessEvent.self),
            pid: try reader.int32("pid"),
            reason: try reader.enumeration("reason", as: TerminationReason.self),
            status: try reader.int32("status"),
            signal: try reader.string("signal"),
            restoration: fields["restoration"],
            notification: try reader.string("notification"),
            value: fields["value"],
            origin: try reader.enumeration("origin", as: CallbackOrigin.self)?.rawValue,
            op: try reader.string("op"),
            code: try reader.integer("code"),
            message: try reader.string("message"),
            argv: try reader.strings("argv"),
            silent: try reader.bool("silent"),
            tab: try reader.integer("tab"),
            tabCount: try reader.integer("tabs"),
            app: try reader.string("app")
        )

        // The fields without which the event says nothing.
        switch kind {
        case .callback:
            if name == nil { throw .missingField("name") }
        case .state:
            if from == nil { throw .missingField("from") }
            if to == nil { throw .missingField("to") }
        case .process:
            if processEvent == nil { throw .missingField("event") }
            // The pid ties the event to its process (a scene's spawn, its app's shared one).
            if pid == nil { throw .missingField("pid") }
            if processEvent == .exited && reason == nil { throw .missingField("reason") }
        case .host, .error:
            break
        }
        // A tab bar has 1 to `SceneLimits.maximumTabs` tabs (the host records no other count).
        if let tabCount, !(1...SceneLimits.maximumTabs).contains(tabCount) {
            throw .outOfRange(field: "tabs", value: String(tabCount))
        }
    }
}

/// Typed access to the fields of one decoded line; `nil` means the field is absent
/// (an explicit `null` is a type error, not absence).
private struct FieldReader {
    package var fields: [String: JSONValue]

    package func string(_ key: String) throws(TraceDecodingError) -> String? {
        guard let value = fields[key] else { return nil }
        guard case .string(let string) = value else { throw .wrongType(field: key, expected: "a string") }
        return string
    }

    package func bool(_ key: String) throws(TraceDecodingError) -> Bool? {
        guard let value = fields[key] else { return nil }
        guard case .bool(let bool) = value else { throw .wrongType(field: key, expected: "a boolean") }
        return bool
    }

    package func strings(_ key: String) throws(TraceDecodingError) -> [String]? {
        guard let value = fields[key] else { return nil }
        guard case .array(let items) = value else { throw .wrongType(field: key, expected: "an array of strings") }
        var strings: [String] = []
        for item in items {
            guard case .string(let string) = item else {
                throw .wrongType(field: key, expected: "an array of strings")
            }
            strings.append(string)
        }
        return strings
    }

    package func integer(_ key: String) throws(TraceDecodingError) -> Int? {
        guard let value = fields[key] else { return nil }
        guard case .int(let integer) = value else { throw .wrongType(field: key, expected: "an integer") }
        return integer
    }

    package func int32(_ key: String) throws(TraceDecodingError) -> Int32? {
        guard let integer = try integer(key) else { return nil }
        guard let narrow = Int32(exactly: integer) else { throw .outOfRange(field: key, value: String(integer)) }
        return narrow
    }

    package func number(_ key: String) throws(TraceDecodingError) -> Double? {
        switch fields[key] {
        case nil: return nil
        case .int(let integer): return Double(integer)
        case .double(let double): return double
        default: throw .wrongType(field: key, expected: "a number")
        }
    }

    package func enumeration<Value: RawRepresentable<String>>(
        _ key: String,
        as type: Value.Type
    ) throws(TraceDecodingError) -> Value? {
        guard let raw = try string(key) else { return nil }
        guard let value = Value(rawValue: raw) else { throw .unknownValue(field: key, value: raw) }
        return value
    }
}
