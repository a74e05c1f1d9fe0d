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

    /// Tagging frames where they were encoded, the tag's bytes made once for a batch, gives
    /// what `append` gives, an empty object and an escaped name included.
    @Test func taggingInPlaceMatchesAppend() {
        for scene in ["B", #"a"b"#] {
            var tag: [UInt8] = []
            var inPlace: [UInt8] = Array("x\n".utf8)
            var appended: [UInt8] = Array("x\n".utf8)
            for frame in [#"{"type":"reply","id":1}"#, "{}", #"{"id":2}"#] {
                let bytes = Array((frame + "\n").utf8)
                let start = inPlace.count
                inPlace += bytes
                SceneTag.tagFrame(at: start, in: &inPlace, scene: scene, tag: &tag)
                SceneTag.append(bytes, scene: scene, to: &appended)
            }
            #expect(String(decoding: inPlace, as: UTF8.self) == String(decoding: appended, as: UTF8.self))
        }
    }

    @Test func escapesAnEmptyObjectAndWhatIsNotATag() {
        #expect(Self.split(#"{"scene":"a\"b","type":"reply","id":1}"#)?.scene == "a\"b")
        #expect(Self.split(#"{"scene":"A"}"#)?.body == "{}")
        #expect(Self.split(#"{"type":"reply","id":1}"#) == nil)
        #expect(Self.split(#"{"scene":"A" "id":1}"#) == nil)
        #expect(Self.split(#"{"scene":"A"#) == nil)
        #expect(Self.split(#"{"scene":7,"id":1}"#) == nil)
    }

    /// The tag is looked for with two loads: a frame that differs from it in any one of its
    /// nine bytes, or ends before its name, is not tagged.
    @Test func isTaggedLooksAtEveryByteOfThePrefix() {
        func isTagged(_ bytes: [UInt8]) -> Bool { bytes.withUnsafeBytes { SceneTag.isTagged($0) } }
        let tagged = Array(#"{"scene":"A","id":1}"#.utf8)
        #expect(isTagged(tagged))
        for index in 0..<9 {
            var nearMiss = tagged
            nearMiss[index] ^= 0x20
            #expect(!isTagged(nearMiss), "byte \(index) changed")
        }
        #expect(!isTagged(Array(#"{"scene":"#.utf8)))
        #expect(isTagged(Array(#"{"scene":""#.utf8)))
        #expect(!isTagged([]))
    }

    /// A tagged frame decodes where it lies to what its plain frame decodes to, errors
    /// included: every round trip's frames (the fast path) and their near misses (either
    /// path), tagged as each end tags them.
    @Test func aTaggedFrameDecodesInPlaceAsItsPlainFrameDoes() throws {
        func tagged(_ plain: [UInt8], _ body: (SceneTag.Tagged) -> Void) {
            var tagged: [UInt8] = []
            SceneTag.append(plain, scene: "Mail-1", to: &tagged)
            tagged.withUnsafeBytes { bytes in
                guard let frame = SceneTag.tagged(bytes) else {
                    Issue.record("not tagged: \(String(decoding: tagged, as: UTF8.self))")
                    return
                }
                #expect(frame.scene == "Mail-1")
                #expect(frame.body == plain)
                body(frame)
            }
        }
        func result<T>(_ decode: () throws(ProtocolError) -> T) -> Result<T, ProtocolError> {
            do throws(ProtocolError) { return .success(try decode()) } catch { return .failure(error) }
        }
        // Objects only: a frame that does not open one is sent untagged (`append`).
        func objects(_ frames: [[UInt8]]) -> [[UInt8]] {
            (frames + frames.prefix(8).flatMap(FrameShapesTests.nearMisses) + [Array("{}".utf8)])
                .filter { $0.first == UInt8(ascii: "{") }
        }
        var compared = 0
        func compare<Decoded: Equatable>(
            _ frames: [[UInt8]],
            inPlace: (SceneTag.Tagged) throws(ProtocolError) -> Decoded,
            copied: ([UInt8]) throws(ProtocolError) -> Decoded
        ) {
            for plain in objects(frames) {
                tagged(plain) { frame in
                    let decodedInPlace = result { () throws(ProtocolError) in try inPlace(frame) }
                    let decodedCopy = result { () throws(ProtocolError) in try copied(plain) }
                    #expect(decodedInPlace == decodedCopy, "\(String(decoding: plain, as: UTF8.self))")
                    compared += 1
                }
            }
        }
        compare(
            FrameShapesTests.requests,
            inPlace: { frame throws(ProtocolError) in try frame.command() },
            copied: { plain throws(ProtocolError) in try HostCommand(frame: plain) }
        )
        compare(
            FrameShapesTests.messages,
            inPlace: { frame throws(ProtocolError) in try frame.message() },
            copied: { plain throws(ProtocolError) in try WorkerMessage(frame: plain) }
        )
        #expect(compared > 1000)
    }
}
