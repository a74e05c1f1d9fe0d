extension Unicode.Scalar {
    /// Whether a terminal or a text view may act on this scalar instead of showing it: the
    /// C0 controls, DEL, the C1 controls (U+009B is a one-byte CSI to many terminals), the
    /// line and paragraph separators, and the bidirectional marks, embeddings, overrides and
    /// isolates (which reorder what follows them, hiding or faking text).
    package var isTerminalControl: Bool {
        switch value {
        case 0x00..<0x20, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
            true
        default:
            false
        }
    }
}

/// `text` with every `isTerminalControl` scalar written as `\uXXXX` (the JSON escape, so a
/// quoted JSON string stays valid JSON), for messages shown to people: an error line stays
/// one line that shows exactly what it quotes.
package func escapingTerminalControls(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: \.isTerminalControl) else { return text }
    var result = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        guard scalar.isTerminalControl else {
            result.append(scalar)
            continue
        }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        result.append(contentsOf: "\\u\(String(repeating: "0", count: 4 - hex.count))\(hex)".unicodeScalars)
    }
    return String(result)
}
