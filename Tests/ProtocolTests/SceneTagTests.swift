import Testing

@testable import Protocol

/// A frame tagged with its scene (an app process's, PROTOCOL.md) reads back as the scene and
/// the plain frame, which the usual decoders (their fast paths included) read as before.
@Suite struct SceneTagTests {
    static func split(_ text: String) -> (scene: String, body: String)? {
        Array(text.utf8).withUnsafeBytes { bytes in
            SceneTag.split(bytes).map { ($0.scene, String(decoding: $0.body, as: UTF8.self)) }
        }
    }

    @Test func aTaggedRequestSplitsIntoItsSceneAndThePlainFrame() throws {
        var plain: [UInt8] = []
        HostCommand.request(id: 7, .push(viewController: "Detail")).encode(into: &plain)
        var tagged: [UInt8] = []
        SceneTag.append(plain, scene: "Mail-1", to: &tagged)
        let text = String(decoding: tagged, as: UTF8.self)
        #expect(text.hasPrefix(#"{"scene":"Mail-1","id":7,"#))
        let line = String(text.dropLast())  // without its newline
        let split = try #require(Self.split(line))
        #expect(split.scene == "Mail-1")
        #expect(split.body + "\n" == String(decoding: plain, as: UTF8.self))
        let decoded = try HostCommand(frame: Array(split.body.utf8))
        #expect(decoded == .request(id: 7, .push(viewController: "Detail")))
    }

    @Test func escapesAnEmptyObjectAndWhatIsNotATag() {
        #expect(Self.split(#"{"scene":"a\"b","type":"reply","id":1}"#)?.scene == "a\"b")
        #expect(Self.split(#"{"scene":"A"}"#)?.body == "{}")
        #expect(Self.split(#"{"type":"reply","id":1}"#) == nil)
        #expect(Self.split(#"{"scene":"A" "id":1}"#) == nil)
        #expect(Self.split(#"{"scene":"A"#) == nil)
        #expect(Self.split(#"{"scene":7,"id":1}"#) == nil)
    }
}
