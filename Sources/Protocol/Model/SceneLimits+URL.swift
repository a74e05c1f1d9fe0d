extension SceneLimits {
    /// Why `url` cannot be handed to an app as a URL, or nil: it must be an absolute URL in
    /// RFC 3986's syntax (a scheme, a colon, then only the characters a URL may hold, each
    /// `%` the start of a two-digit escape; `[ ]` only around an IPv6 host; a port up to
    /// 65535), which Foundation's `URL(string:)` always parses. UIKit only ever hands an app
    /// such URLs, and the `UIKit` module's `UIOpenURLContext.url` is a Foundation `URL`.
    public static func urlRefusal(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, URLBytes.isLetter(bytes[0]),
            bytes[1..<colon].allSatisfy(URLBytes.isSchemeCharacter)
        else {
            return "it needs a scheme: a letter, then letters, digits, + - or ., then a colon (notes://item/7)"
        }
        if let refusal = URLBytes.characterRefusal(bytes[(colon + 1)...]) { return refusal }
        var rest = bytes[(colon + 1)...]
        var authority: ArraySlice<UInt8> = []
        if rest.starts(with: "//".utf8) {
            rest = rest.dropFirst(2)
            let end = rest.firstIndex(where: { "/?#".utf8.contains($0) }) ?? rest.endIndex
            authority = rest[..<end]
            rest = rest[end...]
        }
        if rest.contains(where: URLBytes.isBracket) { return URLBytes.bracketRefusal }
        return URLBytes.authorityRefusal(authority)
    }
}

/// The byte classes of RFC 3986 that `SceneLimits.urlRefusal` checks.
private enum URLBytes {
    static let bracketRefusal = "[ and ] may only enclose an IPv6 host (escape them: %5B %5D)"

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "f"))
    }

    static func isSchemeCharacter(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "+-.".utf8.contains(byte)
    }

    static func isBracket(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]") }

    /// Unreserved, reserved (brackets are placed by the caller), or a percent escape.
    static func characterRefusal(_ bytes: ArraySlice<UInt8>) -> String? {
        var index = bytes.startIndex
        var sawFragment = false
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.endIndex, isHexDigit(bytes[index + 1]), isHexDigit(bytes[index + 2]) else {
                    return "a % must begin an escape of two hex digits (%20)"
                }
                index += 3
                continue
            }
            if byte == UInt8(ascii: "#") {
                if sawFragment { return "it has a second # (escape it: %23)" }
                sawFragment = true
            } else if !(isLetter(byte) || isDigit(byte) || isBracket(byte) || "-._~!$&'()*+,;=:/?@".utf8.contains(byte))
            {
                return "it holds a character a URL cannot (escape it, as %20 for a space)"
            }
            index += 1
        }
        return nil
    }

    /// `[userinfo@]host[:port]`, the host a name or an IPv6 address in brackets.
    static func authorityRefusal(_ authority: ArraySlice<UInt8>) -> String? {
        var hostAndPort = authority
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            if authority[..<at].contains(where: { isBracket($0) || $0 == UInt8(ascii: "@") }) {
                return "its user part holds a character it cannot (escape it: @ is %40)"
            }
            hostAndPort = authority[(at + 1)...]
        }
        var port: ArraySlice<UInt8> = []
        if hostAndPort.first == UInt8(ascii: "[") {
            guard let close = hostAndPort.firstIndex(of: UInt8(ascii: "]")) else { return "its IPv6 host lacks its ]" }
            let address = hostAndPort[(hostAndPort.startIndex + 1)..<close]
            guard address.contains(UInt8(ascii: ":")),
                address.allSatisfy({ isHexDigit($0) || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: ".") })
            else {
                return "its host in [ ] is not an IPv6 address"
            }
            let after = hostAndPort[(close + 1)...]
            if !after.isEmpty {
                guard after.first == UInt8(ascii: ":") else {
                    return "its IPv6 host is followed by something not a port"
                }
                port = after.dropFirst()
            }
        } else {
            if hostAndPort.contains(where: isBracket) { return bracketRefusal }
            if let portColon = hostAndPort.firstIndex(of: UInt8(ascii: ":")) { port = hostAndPort[(portColon + 1)...] }
        }
        let portValue =
            port.count <= 5 && port.allSatisfy(isDigit) ? port.reduce(0) { $0 * 10 + Int($1 - 48) } : Int.max
        guard portValue <= 65535 else { return "its port is not a number from 0 to 65535" }
        return nil
    }
}
