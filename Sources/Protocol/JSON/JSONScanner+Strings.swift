/// Strings (escapes, UTF-8 validation, the fast scan for special bytes) and the scanner's
/// errors, which say where in the document and what was found.
extension JSONScanner {
    /// Parses a string literal; the cursor is on the opening quote.
    mutating func parseString() throws(ProtocolError) -> String {
        try parseStringBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Parses a string literal (the cursor is on the opening quote) and passes its validated,
    /// unescaped UTF-8 bytes to `body`.
    @inline(__always)
    mutating func parseStringBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) throws(ProtocolError) -> T {
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
    static func specialBytes(in word: UInt64) -> UInt64 {
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
    func parseEscape(at backslash: Int, into buffer: inout [UInt8]) throws(ProtocolError) -> Int {
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
    func parseHex4(at start: Int) throws(ProtocolError) -> UInt16 {
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
    func validateUTF8Sequence(at start: Int) throws(ProtocolError) -> Int {
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

    func failure(_ message: String, at offset: Int) -> ProtocolError {
        ProtocolError(.parseError, "invalid JSON at \(position(of: offset)): \(message)")
    }

    /// `byte N` for one-line input (a frame, a request); in a document of several lines
    /// (a scenario, a session file) also the line and column a person looks for in an editor.
    func position(of offset: Int) -> String {
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

    func unexpectedEnd() -> ProtocolError {
        failure("unexpected end of input (truncated)", at: count)
    }

    func unterminatedString(at open: Int) -> ProtocolError {
        ProtocolError(
            .parseError,
            "invalid JSON at \(position(of: count)): unterminated string starting at \(position(of: open))"
        )
    }

    func unexpected(at offset: Int, expecting expected: String) -> ProtocolError {
        guard offset < count else { return unexpectedEnd() }
        return failure("unexpected \(describeByte(at: offset)), expected \(expected)", at: offset)
    }

    func controlCharacter(_ byte: UInt8, at offset: Int) -> ProtocolError {
        failure("unescaped control character 0x\(hex(byte)) in string", at: offset)
    }

    func tooDeep(at offset: Int) -> ProtocolError {
        ProtocolError(.nestingTooDeep, "JSON nesting deeper than \(maximumDepth) levels at \(position(of: offset))")
    }

    func duplicateKey(_ key: String, at offset: Int) -> ProtocolError {
        failure("duplicate object key \(quoted(key))", at: offset)
    }

    func describeByte(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte == 0 { return "NUL byte" }
        if byte > 0x20 && byte < 0x7F { return "character '\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(byte))"
    }
}
