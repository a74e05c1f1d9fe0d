/// A small, fast JSON writer that appends UTF-8 bytes to a buffer.
///
/// Output is compact (no whitespace). Strings escape `"`, `\` and every control character
/// (`\n \r \t \b \f` by name, the rest as `\u00XX`); everything else, including non-ASCII
/// text, is written as UTF-8. Finite doubles use Swift's shortest round-tripping form
/// (`3.0`, `0.1`, `1e+300`), which is valid JSON and parses back to the same `.double`;
/// non-finite doubles (which JSON cannot represent) are written as `null`.
public enum JSONWriter {
    /// Appends `value` as compact JSON. Object keys are written in sorted order.
    public static func write(_ value: JSONValue, into buffer: inout [UInt8]) {
        switch value {
        case .null:
            appendLiteral("null", to: &buffer)
        case .bool(let flag):
            appendLiteral(flag ? "true" : "false", to: &buffer)
        case .int(let integer):
            writeInt(integer, into: &buffer)
        case .double(let double):
            writeDouble(double, into: &buffer)
        case .string(let string):
            writeString(string, into: &buffer)
        case .array(let elements):
            buffer.append(ASCII.openBracket)
            var first = true
            for element in elements {
                if !first { buffer.append(ASCII.comma) }
                first = false
                write(element, into: &buffer)
            }
            buffer.append(ASCII.closeBracket)
        case .object(let members):
            buffer.append(ASCII.openBrace)
            var first = true
            for (key, member) in members.sorted(by: { $0.key < $1.key }) {
                if !first { buffer.append(ASCII.comma) }
                first = false
                writeString(key, into: &buffer)
                buffer.append(ASCII.colon)
                write(member, into: &buffer)
            }
            buffer.append(ASCII.closeBrace)
        }
    }

    /// Appends `string` as a JSON string literal (quotes and escapes included).
    public static func writeString(_ string: String, into buffer: inout [UInt8]) {
        buffer.append(ASCII.quote)
        var string = string
        string.withUTF8 { utf8 in appendEscaped(utf8, into: &buffer) }
        buffer.append(ASCII.quote)
    }

    /// Appends `value` in decimal without going through `String`.
    static func writeInt(_ value: Int, into buffer: inout [UInt8]) {
        if value < 0 { buffer.append(ASCII.minus) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            buffer.append(ASCII.zero &+ UInt8(truncatingIfNeeded: magnitude))
            return
        }
        // Digits right to left into a stack buffer (20 digits hold any UInt64), then one append.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { scratch in
            var position = scratch.count
            while magnitude > 0 {
                position -= 1
                scratch[position] = ASCII.zero &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            }
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[position...]))
        }
    }

    /// Appends a double: shortest round-tripping text when finite, `null` otherwise.
    static func writeDouble(_ value: Double, into buffer: inout [UInt8]) {
        guard value.isFinite else {
            appendLiteral("null", to: &buffer)
            return
        }
        // `description` is the shortest text that round-trips and always marks the value as
        // non-integral for JSON (`3.0`, `1e+16`, `5e-324`): every form is a valid JSON number.
        buffer.append(contentsOf: value.description.utf8)
    }

    /// Appends `text`'s UTF-8 bytes unescaped (for names known to need no escaping), as one copy.
    @inline(__always)
    static func appendVerbatim(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { buffer.append(contentsOf: $0) }
    }

    /// Appends static text (already valid JSON) verbatim.
    @inline(__always)
    static func appendLiteral(_ text: StaticString, to buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Appends string contents with JSON escaping; bytes needing no escape are copied in runs.
    private static func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, into buffer: inout [UInt8]) {
        var runStart = 0
        var position = 0
        let count = utf8.count
        while position < count {
            let byte = utf8[position]
            guard byte < 0x20 || byte == ASCII.quote || byte == ASCII.backslash else {
                position += 1
                continue
            }
            if runStart < position {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<position]))
            }
            buffer.append(ASCII.backslash)
            switch byte {
            case ASCII.quote: buffer.append(ASCII.quote)
            case ASCII.backslash: buffer.append(ASCII.backslash)
            case ASCII.newline: buffer.append(ASCII.lowerN)
            case ASCII.carriageReturn: buffer.append(ASCII.lowerR)
            case ASCII.tab: buffer.append(ASCII.lowerT)
            case 0x08: buffer.append(ASCII.lowerB)
            case 0x0C: buffer.append(ASCII.lowerF)
            default:
                let hexDigits: StaticString = "0123456789abcdef"
                buffer.append(ASCII.lowerU)
                buffer.append(ASCII.zero)
                buffer.append(ASCII.zero)
                hexDigits.withUTF8Buffer { digits in
                    buffer.append(digits[Int(byte >> 4)])
                    buffer.append(digits[Int(byte & 0xF)])
                }
            }
            position += 1
            runStart = position
        }
        if runStart == 0 {
            buffer.append(contentsOf: utf8)
        } else if runStart < count {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<count]))
        }
    }
}

extension JSONValue {
    /// Compact JSON text of this value.
    public var jsonText: String {
        var buffer: [UInt8] = []
        JSONWriter.write(self, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
