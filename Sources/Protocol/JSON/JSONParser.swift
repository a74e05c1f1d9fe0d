/// A strict JSON parser (RFC 8259): rejects trailing garbage, invalid UTF-8, lone
/// surrogates, duplicate object keys, control characters in strings, leading zeros,
/// and nesting deeper than `maximumDepth`. Every failure is a typed `ProtocolError`.
///
/// Failures are `.parseError` (or `.nestingTooDeep` for the depth limit) with a message
/// that names the byte offset. The parser is iterative (an explicit container stack), so
/// even a huge `maximumDepth` cannot overflow the call stack, and it never traps on input:
/// every index is checked and integer accumulation uses overflow-reporting arithmetic.
///
/// Numbers: an integer literal (no fraction, no exponent) that fits `Int` is `.int`; every
/// other number is `.double`; a number whose `Double` value is infinite (`1e999`) is an error.
public struct JSONParser {
    public static let defaultMaximumDepth = 64

    /// Parses exactly one JSON value from `bytes`.
    public static func parse(
        _ bytes: UnsafeRawBufferPointer,
        maximumDepth: Int = defaultMaximumDepth
    ) throws(ProtocolError) -> JSONValue {
        var scanner = JSONScanner(bytes: bytes, maximumDepth: maximumDepth)
        return try scanner.parseDocument()
    }

    /// Parses exactly one JSON value from `bytes`.
    public static func parse(
        _ bytes: [UInt8],
        maximumDepth: Int = defaultMaximumDepth
    ) throws(ProtocolError) -> JSONValue {
        let result: Result<JSONValue, ProtocolError> = bytes.withUnsafeBytes { raw in
            do throws(ProtocolError) {
                return .success(try parse(raw, maximumDepth: maximumDepth))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}

// MARK: - Scanner

/// ASCII bytes the scanner compares against.
enum ASCII {
    static let tab: UInt8 = 0x09
    static let newline: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let minus: UInt8 = 0x2D
    static let period: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let zero: UInt8 = 0x30
    static let nine: UInt8 = 0x39
    static let colon: UInt8 = 0x3A
    static let upperE: UInt8 = 0x45
    static let openBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let closeBracket: UInt8 = 0x5D
    static let lowerB: UInt8 = 0x62
    static let lowerE: UInt8 = 0x65
    static let lowerF: UInt8 = 0x66
    static let lowerN: UInt8 = 0x6E
    static let lowerR: UInt8 = 0x72
    static let lowerT: UInt8 = 0x74
    static let lowerU: UInt8 = 0x75
    static let openBrace: UInt8 = 0x7B
    static let closeBrace: UInt8 = 0x7D
}

/// An object member name, packed for cheap comparison: names of up to 16 UTF-8 bytes (every
/// name of this protocol) are two integers and a length, longer ones keep a `String`.
/// Names compare by their unescaped UTF-8 bytes, as RFC 8259 suggests.
struct MemberName: Hashable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var length: Int
    var long: String?

    /// The name whose unescaped UTF-8 bytes are `utf8`. Inlined: returned through memory the
    /// words were reloaded with wider loads than they were stored with (a store-forwarding stall).
    @inline(__always)
    init(utf8: UnsafeRawBufferPointer) {
        length = utf8.count
        if length <= 16 {
            (low, high) = Self.pack(utf8)
        } else {
            long = String(decoding: utf8, as: UTF8.self)
        }
    }

    /// Up to 16 bytes as two little-endian words, zero-padded. Loads straight from the input
    /// (overlapping loads cover every length) rather than a memcpy into a stack pair and a
    /// reload, which stalls on store forwarding and was the hottest spot of decoding.
    @inline(__always)
    static func pack(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let count = bytes.count
        switch count {
        case 0:
            return (0, 0)
        case 1...3:
            let first = UInt64(bytes[0])
            let middle = UInt64(bytes[count >> 1]) &<< (8 &* UInt64(count >> 1))
            let last = UInt64(bytes[count - 1]) &<< (8 &* UInt64(count - 1))
            return (first | middle | last, 0)
        case 4...8:
            let head = UInt64(UInt32(littleEndian: bytes.loadUnaligned(as: UInt32.self)))
            let tail = UInt64(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            return (head | tail &<< (8 &* UInt64(count - 4)), 0)
        default:
            let head = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
            let tail = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
            return (head, tail &>> (8 &* UInt64(16 - count)))
        }
    }

    /// Inlined so that a literal name folds to constants at the call site.
    @inline(__always)
    init(_ name: StaticString) {
        self = name.withUTF8Buffer { MemberName(utf8: UnsafeRawBufferPointer($0)) }
    }

    /// The name as text (for error messages).
    var string: String {
        if let long { return long }
        var words = (low.littleEndian, high.littleEndian)
        return withUnsafeBytes(of: &words) { String(decoding: $0.prefix(length), as: UTF8.self) }
    }

    /// The packed words decide for short names; only long ones compare their text.
    /// (Consistent with the synthesized hash: a short name's `long` is always nil.)
    static func == (lhs: MemberName, rhs: MemberName) -> Bool {
        lhs.low == rhs.low && lhs.high == rhs.high && lhs.length == rhs.length
            && (lhs.length <= 16 || lhs.long == rhs.long)
    }
}

/// The members of a top-level object in document order (used by the wire codec, which
/// looks up a handful of names and does not need a dictionary or `String` keys).
struct JSONMembers {
    /// One member. A struct rather than a tuple: the array's elements are then destroyed
    /// by specialized code instead of the runtime's generic tuple witness.
    struct Member {
        var name: MemberName
        var value: JSONValue
    }

    /// Members in document order (one array, so one allocation for a typical message).
    var members: [Member] = []

    init() {
        // Room for every message of the protocol but `connect` (9 fields), kept small enough
        // for malloc's per-thread cache (about 1 KiB): 12 members of 88 bytes were not.
        members.reserveCapacity(8)
    }

    var count: Int { members.count }

    @inline(__always)
    func contains(_ name: MemberName) -> Bool {
        for member in members where member.name == name {
            return true
        }
        return false
    }

    mutating func append(_ name: MemberName, _ value: JSONValue) {
        members.append(Member(name: name, value: value))
    }

    /// The position of the member named `name`, if present.
    func index(named name: MemberName) -> Int? {
        for index in members.indices where members[index].name == name {
            return index
        }
        return nil
    }

    /// The value named `name`, if present (names are unique: the parser rejects duplicates).
    func value(named name: MemberName) -> JSONValue? {
        for member in members where member.name == name {
            return member.value
        }
        return nil
    }
}

/// The parser's cursor over one document.
struct JSONScanner {
    let bytes: UnsafeRawBufferPointer
    let count: Int
    let maximumDepth: Int
    var index = 0

    /// An open container on the explicit stack.
    struct Container {
        var isObject: Bool
        /// Where this container's values start in the shared value stack.
        var valueStart: Int
        /// Where this container's keys start in the shared key stack (objects only).
        var keyStart: Int
    }

    init(bytes: UnsafeRawBufferPointer, maximumDepth: Int) {
        self.bytes = bytes
        self.count = bytes.count
        self.maximumDepth = maximumDepth
    }

    // MARK: Documents

    /// Parses exactly one value followed only by whitespace.
    mutating func parseDocument() throws(ProtocolError) -> JSONValue {
        try expectValueStart()
        let value = try parseValue(depth: 0)
        try expectEnd()
        return value
    }

    /// Parses a document whose value should be an object and returns its members in order
    /// without building a dictionary. A valid document that is not an object returns nil.
    mutating func parseTopLevelMembers() throws(ProtocolError) -> JSONMembers? {
        try expectValueStart()
        guard bytes[index] == ASCII.openBrace else {
            _ = try parseValue(depth: 0)
            try expectEnd()
            return nil
        }
        guard maximumDepth >= 1 else { throw tooDeep(at: index) }
        index += 1
        var members = JSONMembers()
        var seen: Set<MemberName>?
        skipWhitespace()
        if index < count && bytes[index] == ASCII.closeBrace {
            index += 1
        } else {
            while true {
                skipWhitespace()
                let keyOffset = index
                guard index < count else { throw unexpectedEnd() }
                guard bytes[index] == ASCII.quote else { throw unexpected(at: index, expecting: "a string key") }
                let name = try parseStringBytes { MemberName(utf8: $0) }
                try expectColon()
                let value = try parseValue(depth: 1)
                // Small objects: linear duplicate scan; large ones switch to a set.
                if seen == nil && members.count < 16 {
                    if members.contains(name) { throw duplicateKey(name.string, at: keyOffset) }
                } else {
                    if seen == nil { seen = Set(members.members.lazy.map(\.name)) }
                    if seen?.insert(name).inserted == false { throw duplicateKey(name.string, at: keyOffset) }
                }
                members.append(name, value)
                skipWhitespace()
                guard index < count else { throw unexpectedEnd() }
                let byte = bytes[index]
                index += 1
                if byte == ASCII.comma { continue }
                if byte == ASCII.closeBrace { break }
                throw unexpected(at: index - 1, expecting: "',' or '}'")
            }
        }
        try expectEnd()
        return members
    }

    mutating func expectValueStart() throws(ProtocolError) {
        skipWhitespace()
        guard index < count else {
            throw failure(count == 0 ? "empty input" : "no value (input is only whitespace)", at: index)
        }
    }

    mutating func expectEnd() throws(ProtocolError) {
        skipWhitespace()
        if index < count {
            throw failure("trailing \(describeByte(at: index)) after the JSON value", at: index)
        }
    }

    // MARK: Values

    /// Parses one complete value starting at the cursor. `depth` is the number of
    /// containers already open around it.
    mutating func parseValue(depth: Int) throws(ProtocolError) -> JSONValue {
        skipWhitespace()
        guard index < count else { throw unexpectedEnd() }
        let byte = bytes[index]
        if byte == ASCII.openBrace || byte == ASCII.openBracket {
            return try parseContainer(depth: depth)
        }
        return try parseScalar()
    }

    /// Parses a string, number or literal at the cursor.
    mutating func parseScalar() throws(ProtocolError) -> JSONValue {
        switch bytes[index] {
        case ASCII.quote:
            return .string(try parseString())
        case ASCII.lowerT:
            try expectLiteral("true")
            return .bool(true)
        case ASCII.lowerF:
            try expectLiteral("false")
            return .bool(false)
        case ASCII.lowerN:
            try expectLiteral("null")
            return .null
        case ASCII.minus, ASCII.zero...ASCII.nine:
            return try parseNumber()
        default:
            throw unexpected(at: index, expecting: "a value")
        }
    }

    /// Parses an array or object (the cursor is on its opening bracket) with an explicit
    /// stack instead of recursion.
    mutating func parseContainer(depth baseDepth: Int) throws(ProtocolError) -> JSONValue {
        var values: [JSONValue] = []
        var keys: [(key: String, offset: Int)] = []
        var containers: [Container] = []

        parsing: while true {
            skipWhitespace()
            guard index < count else { throw unexpectedEnd() }
            var completed: JSONValue
            switch bytes[index] {
            case ASCII.openBrace:
                guard baseDepth + containers.count < maximumDepth else { throw tooDeep(at: index) }
                index += 1
                skipWhitespace()
                if index < count && bytes[index] == ASCII.closeBrace {
                    index += 1
                    completed = .object([:])
                } else {
                    if containers.isEmpty { reserveStacks(&values, &keys, &containers) }
                    containers.append(Container(isObject: true, valueStart: values.count, keyStart: keys.count))
                    let offset = index
                    keys.append((try parseKeyAndColon(), offset))
                    continue parsing
                }
            case ASCII.openBracket:
                guard baseDepth + containers.count < maximumDepth else { throw tooDeep(at: index) }
                index += 1
                skipWhitespace()
                if index < count && bytes[index] == ASCII.closeBracket {
                    index += 1
                    completed = .array([])
                } else {
                    if containers.isEmpty { reserveStacks(&values, &keys, &containers) }
                    containers.append(Container(isObject: false, valueStart: values.count, keyStart: keys.count))
                    continue parsing
                }
            default:
                completed = try parseScalar()
            }

            // Attach the completed value to the open containers, closing as many as end here.
            while let top = containers.last {
                values.append(completed)
                skipWhitespace()
                guard index < count else { throw unexpectedEnd() }
                let byte = bytes[index]
                if byte == ASCII.comma {
                    index += 1
                    if top.isObject {
                        skipWhitespace()
                        let offset = index
                        keys.append((try parseKeyAndColon(), offset))
                    }
                    continue parsing
                }
                if top.isObject {
                    guard byte == ASCII.closeBrace else { throw unexpected(at: index, expecting: "',' or '}'") }
                    index += 1
                    containers.removeLast()
                    completed = .object(try buildObject(values: &values, keys: &keys, from: top))
                } else {
                    guard byte == ASCII.closeBracket else { throw unexpected(at: index, expecting: "',' or ']'") }
                    index += 1
                    containers.removeLast()
                    completed = .array(Array(values[top.valueStart...]))
                    values.removeSubrange(top.valueStart...)
                }
            }
            return completed
        }
    }

    /// Reserves room for small documents up front instead of growing 1, 2, 4, ...
    func reserveStacks(
        _ values: inout [JSONValue],
        _ keys: inout [(key: String, offset: Int)],
        _ containers: inout [Container]
    ) {
        if values.capacity < 16 { values.reserveCapacity(16) }
        if keys.capacity < 8 { keys.reserveCapacity(8) }
        if containers.capacity < 8 { containers.reserveCapacity(8) }
    }

    func buildObject(
        values: inout [JSONValue],
        keys: inout [(key: String, offset: Int)],
        from container: Container
    ) throws(ProtocolError) -> [String: JSONValue] {
        let memberCount = values.count - container.valueStart
        var object = [String: JSONValue](minimumCapacity: memberCount)
        for member in 0..<memberCount {
            let key = keys[container.keyStart + member]
            if object.updateValue(values[container.valueStart + member], forKey: key.key) != nil {
                throw duplicateKey(key.key, at: key.offset)
            }
        }
        values.removeSubrange(container.valueStart...)
        keys.removeSubrange(container.keyStart...)
        return object
    }

    /// Parses `"key"` `:` (whitespace allowed before the colon), leaving the cursor after the colon.
    mutating func parseKeyAndColon() throws(ProtocolError) -> String {
        guard index < count else { throw unexpectedEnd() }
        guard bytes[index] == ASCII.quote else { throw unexpected(at: index, expecting: "a string key") }
        let key = try parseString()
        try expectColon()
        return key
    }

    @inline(__always)
    mutating func expectColon() throws(ProtocolError) {
        skipWhitespace()
        guard index < count else { throw unexpectedEnd() }
        guard bytes[index] == ASCII.colon else { throw unexpected(at: index, expecting: "':'") }
        index += 1
    }

    mutating func expectLiteral(_ literal: StaticString) throws(ProtocolError) {
        let start = index
        let length = literal.utf8CodeUnitCount
        // 0: matches, 1: input ends inside a matching prefix, 2: mismatch.
        let outcome = literal.withUTF8Buffer { expected -> Int in
            for offset in 0..<length {
                guard start + offset < count else { return 1 }
                if bytes[start + offset] != expected[offset] { return 2 }
            }
            return 0
        }
        if outcome == 1 { throw unexpectedEnd() }
        if outcome == 2 { throw failure("invalid literal (expected '\(literal)')", at: start) }
        index = start + length
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < count {
            switch bytes[index] {
            case ASCII.space, ASCII.newline, ASCII.carriageReturn, ASCII.tab:
                index += 1
            default:
                return
            }
        }
    }

    // MARK: Numbers

    mutating func parseNumber() throws(ProtocolError) -> JSONValue {
        let start = index
        var cursor = index
        let negative = bytes[cursor] == ASCII.minus
        if negative { cursor += 1 }
        guard cursor < count, isDigit(bytes[cursor]) else {
            if cursor >= count { throw unexpectedEnd() }
            throw failure("'-' must be followed by a digit", at: cursor)
        }
        var integer = 0
        var fitsInt = true
        if bytes[cursor] == ASCII.zero {
            cursor += 1
            if cursor < count && isDigit(bytes[cursor]) {
                throw failure("leading zeros are not allowed in numbers", at: start)
            }
        } else {
            while cursor < count && isDigit(bytes[cursor]) {
                if fitsInt {
                    let digit = Int(bytes[cursor] &- ASCII.zero)
                    let (shifted, overflow1) = integer.multipliedReportingOverflow(by: 10)
                    let (next, overflow2) =
                        negative
                        ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
                    if overflow1 || overflow2 { fitsInt = false } else { integer = next }
                }
                cursor += 1
            }
        }
        var isInteger = true
        if cursor < count && bytes[cursor] == ASCII.period {
            cursor += 1
            guard cursor < count else { throw unexpectedEnd() }
            guard isDigit(bytes[cursor]) else {
                throw failure("expected a digit after the decimal point", at: cursor)
            }
            while cursor < count && isDigit(bytes[cursor]) { cursor += 1 }
            isInteger = false
        }
        if cursor < count && (bytes[cursor] == ASCII.lowerE || bytes[cursor] == ASCII.upperE) {
            cursor += 1
            if cursor < count && (bytes[cursor] == ASCII.plus || bytes[cursor] == ASCII.minus) { cursor += 1 }
            guard cursor < count else { throw unexpectedEnd() }
            guard isDigit(bytes[cursor]) else { throw failure("expected a digit in the exponent", at: cursor) }
            while cursor < count && isDigit(bytes[cursor]) { cursor += 1 }
            isInteger = false
        }
        index = cursor
        if isInteger && fitsInt { return .int(integer) }
        // The text is ASCII and matches the JSON number grammar, which `Double(_:)` accepts.
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
        guard let double = Double(text) else { throw failure("invalid number", at: start) }
        guard double.isFinite else { throw failure("number out of range (not a finite double)", at: start) }
        return .double(double)
    }

    @inline(__always)
    func isDigit(_ byte: UInt8) -> Bool { byte &- ASCII.zero < 10 }
}

/// Two uppercase hex digits.
func hex(_ byte: UInt8) -> String {
    let digits: [Character] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}

/// `text` as a short quoted string for error messages (long or hostile input is cut off;
/// control characters, DEL, C1 controls and bidi overrides are escaped, so the message stays
/// one line and shows what it quotes). The host's parsers use it too, for every name they
/// quote from their input.
package func quoted(_ text: String, limit: Int = 64) -> String {
    var result: [UInt8] = []
    if text.utf8.count <= limit {
        JSONWriter.writeString(text, into: &result)
    } else {
        // Cut by scalars, not characters: one character may carry any number of combining marks.
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: text.unicodeScalars.prefix(limit))
        JSONWriter.writeString(String(cut) + "…", into: &result)
    }
    return escapingTerminalControls(String(decoding: result, as: UTF8.self))
}
