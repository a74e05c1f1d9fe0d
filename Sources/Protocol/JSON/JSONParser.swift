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
    private var low: UInt64 = 0
    private var high: UInt64 = 0
    private var length: Int
    private var long: String?

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
    private static func pack(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
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
    private(set) var members: [Member] = []

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
    private let bytes: UnsafeRawBufferPointer
    private let count: Int
    private let maximumDepth: Int
    private(set) var index = 0

    /// An open container on the explicit stack.
    private struct Container {
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

    private mutating func expectValueStart() throws(ProtocolError) {
        skipWhitespace()
        guard index < count else {
            throw failure(count == 0 ? "empty input" : "no value (input is only whitespace)", at: index)
        }
    }

    private mutating func expectEnd() throws(ProtocolError) {
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
    private mutating func parseScalar() throws(ProtocolError) -> JSONValue {
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
    private mutating func parseContainer(depth baseDepth: Int) throws(ProtocolError) -> JSONValue {
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
    private func reserveStacks(
        _ values: inout [JSONValue],
        _ keys: inout [(key: String, offset: Int)],
        _ containers: inout [Container]
    ) {
        if values.capacity < 16 { values.reserveCapacity(16) }
        if keys.capacity < 8 { keys.reserveCapacity(8) }
        if containers.capacity < 8 { containers.reserveCapacity(8) }
    }

    private func buildObject(
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
    private mutating func parseKeyAndColon() throws(ProtocolError) -> String {
        guard index < count else { throw unexpectedEnd() }
        guard bytes[index] == ASCII.quote else { throw unexpected(at: index, expecting: "a string key") }
        let key = try parseString()
        try expectColon()
        return key
    }

    @inline(__always)
    private mutating func expectColon() throws(ProtocolError) {
        skipWhitespace()
        guard index < count else { throw unexpectedEnd() }
        guard bytes[index] == ASCII.colon else { throw unexpected(at: index, expecting: "':'") }
        index += 1
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(ProtocolError) {
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
    private mutating func skipWhitespace() {
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

    private mutating func parseNumber() throws(ProtocolError) -> JSONValue {
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
    private func isDigit(_ byte: UInt8) -> Bool { byte &- ASCII.zero < 10 }

    // MARK: Strings

    /// Parses a string literal; the cursor is on the opening quote.
    private mutating func parseString() throws(ProtocolError) -> String {
        try parseStringBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Parses a string literal (the cursor is on the opening quote) and passes its validated,
    /// unescaped UTF-8 bytes to `body`.
    @inline(__always)
    private mutating func parseStringBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) throws(ProtocolError) -> T {
        let open = index
        let start = index + 1
        var cursor = start
        // Fast path: no escapes, just validate and copy.
        while cursor < count {
            // Eight bytes at a time up to the first one that needs a look (see `specialBytes`).
            if cursor + 8 <= count {
                let flags = Self.specialBytes(
                    in: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: cursor, as: UInt64.self))
                )
                if flags == 0 {
                    cursor += 8
                    continue
                }
                cursor += flags.trailingZeroBitCount >> 3
            }
            let byte = bytes[cursor]
            if byte == ASCII.quote {
                index = cursor + 1
                return body(UnsafeRawBufferPointer(rebasing: bytes[start..<cursor]))
            }
            if byte == ASCII.backslash { break }
            if byte < 0x20 { throw controlCharacter(byte, at: cursor) }
            cursor = byte < 0x80 ? cursor + 1 : try validateUTF8Sequence(at: cursor)
        }
        guard cursor < count else { throw unterminatedString(at: open) }

        // Slow path: unescape into a scratch buffer.
        var buffer: [UInt8] = []
        buffer.reserveCapacity(cursor - start + 16)
        buffer.append(contentsOf: bytes[start..<cursor])
        while cursor < count {
            let byte = bytes[cursor]
            if byte == ASCII.quote {
                index = cursor + 1
                return buffer.withUnsafeBytes(body)
            }
            if byte == ASCII.backslash {
                cursor = try parseEscape(at: cursor, into: &buffer)
            } else if byte < 0x20 {
                throw controlCharacter(byte, at: cursor)
            } else if byte < 0x80 {
                buffer.append(byte)
                cursor += 1
            } else {
                let end = try validateUTF8Sequence(at: cursor)
                buffer.append(contentsOf: bytes[cursor..<end])
                cursor = end
            }
        }
        throw unterminatedString(at: open)
    }

    /// Flags (bit 7 of each byte) the bytes of `word` (8 string bytes, the first in the low
    /// byte) that end the fast path's plain run: `"`, `\\`, controls (< 0x20) and non-ASCII.
    /// The flags above the lowest one may be false positives (borrows), the lowest is exact,
    /// so the lowest flagged byte is the first byte that is not plain ASCII.
    @inline(__always)
    private static func specialBytes(in word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let high: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* UInt64(ASCII.quote))
        let backslash = word ^ (ones &* UInt64(ASCII.backslash))
        let quoteFound = (quote &- ones) & ~quote
        let backslashFound = (backslash &- ones) & ~backslash
        let controlFound = (word &- ones &* 0x20) & ~word
        return (quoteFound | backslashFound | controlFound | word) & high
    }

    /// Decodes the escape whose backslash is at `backslash`; returns the index after it.
    private func parseEscape(at backslash: Int, into buffer: inout [UInt8]) throws(ProtocolError) -> Int {
        let cursor = backslash + 1
        guard cursor < count else { throw unexpectedEnd() }
        let unescaped: UInt8
        switch bytes[cursor] {
        case ASCII.quote: unescaped = ASCII.quote
        case ASCII.backslash: unescaped = ASCII.backslash
        case ASCII.slash: unescaped = ASCII.slash
        case ASCII.lowerB: unescaped = 0x08
        case ASCII.lowerF: unescaped = 0x0C
        case ASCII.lowerN: unescaped = ASCII.newline
        case ASCII.lowerR: unescaped = ASCII.carriageReturn
        case ASCII.lowerT: unescaped = ASCII.tab
        case ASCII.lowerU:
            let first = try parseHex4(at: cursor + 1)
            var next = cursor + 5
            let scalarValue: UInt32
            switch first {
            case 0xD800...0xDBFF:
                guard next + 1 < count, bytes[next] == ASCII.backslash, bytes[next + 1] == ASCII.lowerU else {
                    if next >= count || (next + 1 >= count && bytes[next] == ASCII.backslash) {
                        throw unexpectedEnd()
                    }
                    throw failure("unpaired high surrogate escape in string", at: backslash)
                }
                let second = try parseHex4(at: next + 2)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw failure("high surrogate escape not followed by a low surrogate", at: backslash)
                }
                scalarValue = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
                next += 6
            case 0xDC00...0xDFFF:
                throw failure("unpaired low surrogate escape in string", at: backslash)
            default:
                scalarValue = UInt32(first)
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw failure("invalid unicode escape", at: backslash)
            }
            UTF8.encode(scalar) { buffer.append($0) }
            return next
        default:
            throw failure("invalid escape sequence \\\(describeByte(at: cursor))", at: backslash)
        }
        buffer.append(unescaped)
        return cursor + 1
    }

    /// Reads four hex digits starting at `start`.
    private func parseHex4(at start: Int) throws(ProtocolError) -> UInt16 {
        var value: UInt16 = 0
        for offset in 0..<4 {
            let position = start + offset
            guard position < count else { throw unexpectedEnd() }
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw failure("invalid hex digit in \\u escape", at: position)
            }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Validates one multi-byte UTF-8 sequence (RFC 3629: no overlongs, no surrogates,
    /// nothing above U+10FFFF) whose lead byte is at `start`; returns the index after it.
    private func validateUTF8Sequence(at start: Int) throws(ProtocolError) -> Int {
        let lead = bytes[start]
        let length: Int
        var secondRange: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            secondRange = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            secondRange = 0x80...0x9F
        case 0xF0:
            length = 4
            secondRange = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            secondRange = 0x80...0x8F
        default:
            throw failure("invalid UTF-8 (byte 0x\(hex(lead)))", at: start)
        }
        for offset in 1..<length {
            let position = start + offset
            guard position < count else { throw failure("truncated UTF-8 sequence", at: start) }
            let range = offset == 1 ? secondRange : 0x80...0xBF
            guard range.contains(bytes[position]) else {
                throw failure("invalid UTF-8 (byte 0x\(hex(bytes[position])))", at: position)
            }
        }
        return start + length
    }

    // MARK: Errors

    private func failure(_ message: String, at offset: Int) -> ProtocolError {
        ProtocolError(.parseError, "invalid JSON at \(position(of: offset)): \(message)")
    }

    /// `byte N` for one-line input (a frame, a request); in a document of several lines
    /// (a scenario, a session file) also the line and column a person looks for in an editor.
    private func position(of offset: Int) -> String {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let hasSeveralLines = line > 1 || bytes[min(offset, count)..<count].contains(UInt8(ascii: "\n"))
        guard hasSeveralLines else { return "byte \(offset)" }
        // Columns count characters (UTF-8 continuation bytes are not counted), from 1.
        var column = 1
        for index in lineStart..<min(offset, count) where bytes[index] & 0xC0 != 0x80 { column += 1 }
        return "line \(line), column \(column) (byte \(offset))"
    }

    private func unexpectedEnd() -> ProtocolError {
        failure("unexpected end of input (truncated)", at: count)
    }

    private func unterminatedString(at open: Int) -> ProtocolError {
        ProtocolError(
            .parseError,
            "invalid JSON at \(position(of: count)): unterminated string starting at \(position(of: open))"
        )
    }

    private func unexpected(at offset: Int, expecting expected: String) -> ProtocolError {
        guard offset < count else { return unexpectedEnd() }
        return failure("unexpected \(describeByte(at: offset)), expected \(expected)", at: offset)
    }

    private func controlCharacter(_ byte: UInt8, at offset: Int) -> ProtocolError {
        failure("unescaped control character 0x\(hex(byte)) in string", at: offset)
    }

    private func tooDeep(at offset: Int) -> ProtocolError {
        ProtocolError(.nestingTooDeep, "JSON nesting deeper than \(maximumDepth) levels at \(position(of: offset))")
    }

    private func duplicateKey(_ key: String, at offset: Int) -> ProtocolError {
        failure("duplicate object key \(quoted(key))", at: offset)
    }

    private func describeByte(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte == 0 { return "NUL byte" }
        if byte > 0x20 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(byte))"
    }
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
        JSONWriter.writeString(String(text.prefix(limit)) + "…", into: &result)
    }
    return escapingTerminalControls(String(decoding: result, as: UTF8.self))
}
