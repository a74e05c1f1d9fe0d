import Testing

@testable import Protocol

/// A syntax error in a document of several lines (a scenario, a session file) says where an
/// editor shows it; one-line input (a frame, a request) keeps the byte offset alone.
@Suite struct JSONErrorPositionTests {
    private func message(_ text: String) -> String? {
        do {
            _ = try JSONParser.parse(Array(text.utf8))
            return nil
        } catch {
            return error.message
        }
    }

    @Test func severalLinesGiveTheLineAndColumn() {
        let text = "{ \"steps\": [\n  {\"op\": \"connect\"}\n  {} ] }"
        #expect(
            message(text) == "invalid JSON at line 3, column 3 (byte 35): unexpected character '{', expected ',' or ']'"
        )
    }

    @Test func columnsCountCharactersNotBytes() {
        // "é" is two UTF-8 bytes, one column.
        #expect(message("[\n\"é\" x]")?.hasPrefix("invalid JSON at line 2, column 5 (byte 7):") == true)
    }

    @Test func anErrorBeforeTheFirstNewlineStillSaysLineOne() {
        #expect(message("[x,\n1]")?.hasPrefix("invalid JSON at line 1, column 2 (byte 1):") == true)
    }

    @Test func oneLineKeepsTheByteOffset() {
        #expect(message("[1 2]") == "invalid JSON at byte 3: unexpected character '2', expected ',' or ']'")
    }

    @Test func anUnterminatedStringNamesBothPlaces() {
        #expect(
            message("[\n\"abc")
                == "invalid JSON at line 2, column 5 (byte 6): unterminated string starting at line 2, column 1 (byte 2)"
        )
    }
}
