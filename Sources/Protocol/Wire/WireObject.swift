/// The top-level object of one frame, with typed, error-reporting field accessors.
struct WireObject {
    let members: JSONMembers
    /// Prefix for error messages: the `op`/`type` once known, else the message kind.
    var kind: String
    /// Bit i is set once member i was looked up. When every member has been, any other name
    /// is absent without a scan (names are unique), which spares decoding the search for
    /// each optional field a message leaves out. nil for objects of more than 64 members.
    private var found: UInt64 = 0
    private let everyMember: UInt64?

    init(frame: UnsafeRawBufferPointer, kind: String) throws(ProtocolError) {
        var scanner = JSONScanner(bytes: frame, maximumDepth: JSONParser.defaultMaximumDepth)
        guard let members = try scanner.parseTopLevelMembers() else {
            throw ProtocolError(.invalidMessage, "a \(kind) must be a JSON object")
        }
        self.members = members
        self.kind = kind
        let count = members.count
        self.everyMember = count < 64 ? (1 << UInt64(count)) - 1 : count == 64 ? .max : nil
    }

    /// Inlined so that each call site's literal key packs to constants.
    @inline(__always)
    mutating func value(_ key: StaticString) -> JSONValue? {
        if found == everyMember { return nil }
        guard let index = members.index(named: MemberName(key)) else { return nil }
        if index < 64 { found |= 1 << UInt64(index) }
        return members.members[index].value
    }

    mutating func requiredValue(_ key: StaticString) throws(ProtocolError) -> JSONValue {
        guard let value = value(key) else { throw missing(key) }
        return value
    }

    mutating func string(_ key: StaticString) throws(ProtocolError) -> String {
        guard case .string(let string) = try requiredValue(key) else { throw mistyped(key, "a string") }
        return string
    }

    mutating func nonEmptyString(_ key: StaticString) throws(ProtocolError) -> String {
        let string = try string(key)
        guard !string.isEmpty else {
            throw ProtocolError(.invalidParameters, "\(kind): field \"\(key)\" must not be empty")
        }
        return string
    }

    mutating func optionalString(_ key: StaticString) throws(ProtocolError) -> String? {
        guard let value = value(key) else { return nil }
        guard case .string(let string) = value else { throw mistyped(key, "a string") }
        return string
    }

    /// The URL `key` names: one the host's check passes (`SceneLimits.urlRefusal`), so a worker
    /// never hands an app a URL Foundation cannot parse, whoever sent the frame.
    mutating func url(_ key: StaticString) throws(ProtocolError) -> String {
        try checkedURL(string(key), key)
    }

    /// `url(key)`, if the field is there.
    mutating func optionalURL(_ key: StaticString) throws(ProtocolError) -> String? {
        guard let url = try optionalString(key) else { return nil }
        return try checkedURL(url, key)
    }

    private func checkedURL(_ url: String, _ key: StaticString) throws(ProtocolError) -> String {
        if let refusal = SceneLimits.urlRefusal(url) {
            throw ProtocolError(.invalidParameters, "\(kind): field \"\(key)\" is no URL: \(refusal)")
        }
        return url
    }

    /// The optional `lifecycle` of `hello` and `ready`: `"scene"` or `"app"`.
    mutating func lifecycle() throws(ProtocolError) -> LifecycleKind? {
        guard let name = try optionalString("lifecycle") else { return nil }
        guard let lifecycle = LifecycleKind(rawValue: name) else {
            throw ProtocolError(.invalidParameters, "\(kind): field \"lifecycle\" must be \"scene\" or \"app\"")
        }
        return lifecycle
    }

    /// A non-empty array of non-empty strings (a navigation stack, root first).
    mutating func viewControllerList(_ key: StaticString) throws(ProtocolError) -> [String] {
        guard case .array(let elements) = try requiredValue(key) else { throw mistyped(key, "an array") }
        guard !elements.isEmpty else {
            throw ProtocolError(.invalidParameters, "\(kind): field \"\(key)\" must not be empty")
        }
        var names: [String] = []
        names.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let name) = element else { throw mistyped(key, "an array of strings") }
            guard !name.isEmpty else {
                throw ProtocolError(.invalidParameters, "\(kind): field \"\(key)\" must not hold an empty name")
            }
            names.append(name)
        }
        return names
    }

    /// A boolean field that may be absent (false).
    mutating func optionalBool(_ key: StaticString) throws(ProtocolError) -> Bool {
        guard let value = value(key) else { return false }
        guard case .bool(let flag) = value else { throw mistyped(key, "a boolean") }
        return flag
    }

    mutating func bool(_ key: StaticString) throws(ProtocolError) -> Bool {
        guard case .bool(let flag) = try requiredValue(key) else { throw mistyped(key, "a boolean") }
        return flag
    }

    /// An integer field: a number that is not an integer (`1.5`, `1e3`, or too large for
    /// `Int`) is `.invalidParameters`; a non-number is `.invalidMessage`.
    mutating func integer(_ key: StaticString) throws(ProtocolError) -> Int {
        switch try requiredValue(key) {
        case .int(let integer):
            return integer
        case .double:
            throw ProtocolError(.invalidParameters, "\(kind): field \"\(key)\" must be an integer")
        default:
            throw mistyped(key, "a number")
        }
    }

    mutating func nonNegativeInteger(_ key: StaticString) throws(ProtocolError) -> Int {
        let integer = try integer(key)
        guard integer >= 0 else {
            throw ProtocolError(.invalidParameters, "\(kind): field \"\(key)\" must not be negative (got \(integer))")
        }
        return integer
    }

    /// An array, maybe empty, of non-negative integers in increasing order (positions in a
    /// stack, bottom first).
    mutating func indexList(_ key: StaticString) throws(ProtocolError) -> [Int] {
        guard case .array(let elements) = try requiredValue(key) else { throw mistyped(key, "an array") }
        var indices: [Int] = []
        indices.reserveCapacity(elements.count)
        for element in elements {
            guard case .int(let index) = element else { throw mistyped(key, "an array of integers") }
            guard index > indices.last ?? -1 else {
                throw ProtocolError(
                    .invalidParameters,
                    "\(kind): field \"\(key)\" must hold non-negative integers in increasing order"
                )
            }
            indices.append(index)
        }
        return indices
    }

    /// An optional non-empty array of non-empty strings.
    mutating func optionalNameList(_ key: StaticString) throws(ProtocolError) -> [String]? {
        guard let value = value(key) else { return nil }
        guard case .array(let elements) = value, !elements.isEmpty else { throw mistyped(key, "a non-empty array") }
        var names: [String] = []
        for element in elements {
            guard case .string(let name) = element, !name.isEmpty else {
                throw mistyped(key, "an array of non-empty strings")
            }
            names.append(name)
        }
        return names
    }

    /// An optional integer field of at least 0.
    mutating func optionalNonNegativeInteger(_ key: StaticString) throws(ProtocolError) -> Int? {
        try optionalInteger(key, atLeast: 0, "must not be negative")
    }

    /// An optional integer field of at least 1.
    mutating func optionalPositiveInteger(_ key: StaticString) throws(ProtocolError) -> Int? {
        try optionalInteger(key, atLeast: 1, "must be at least 1")
    }

    /// An optional integer field of at least `minimum`; `below` says what a smaller one breaks.
    private mutating func optionalInteger(
        _ key: StaticString,
        atLeast minimum: Int,
        _ below: String
    ) throws(ProtocolError) -> Int? {
        let integer: Int
        switch value(key) {
        case nil: return nil
        case .int(let value)?: integer = value
        case .double?: throw ProtocolError(.invalidParameters, "\(kind): field \"\(key)\" must be an integer")
        default: throw mistyped(key, "a number")
        }
        guard integer >= minimum else {
            throw ProtocolError(.invalidParameters, "\(kind): field \"\(key)\" \(below) (got \(integer))")
        }
        return integer
    }

    private func missing(_ key: StaticString) -> ProtocolError {
        ProtocolError(.invalidMessage, "\(kind): missing field \"\(key)\"")
    }

    private func mistyped(_ key: StaticString, _ expected: String) -> ProtocolError {
        ProtocolError(.invalidMessage, "\(kind): field \"\(key)\" must be \(expected)")
    }
}
