/// Which scene a frame is about, in a worker that carries several scenes of one app (an app
/// process, `connect`'s `app`): the frame's first key, `{"scene":"B",…}`.
///
/// A worker that carries one scene never sees a tag, and neither end looks for one on its
/// frames beyond a 10-byte comparison: the one-scene round trip costs nothing more. A tagged
/// frame is the plain frame with the tag spliced in after its `{`, so that taking the tag off
/// again (`split`) leaves a frame the usual decoders read, their fast paths included.
public enum SceneTag {
    private static let prefix: [UInt8] = Array(#"{"scene":"#.utf8)

    /// Appends `frame` (one encoded frame: `{…}\n`) to `buffer` with `scene` as its first key.
    public static func append(_ frame: some Collection<UInt8>, scene: String, to buffer: inout [UInt8]) {
        guard frame.first == UInt8(ascii: "{") else {
            buffer.append(contentsOf: frame)
            return
        }
        buffer.append(contentsOf: prefix)
        JSONWriter.writeString(scene, into: &buffer)
        let rest = frame.dropFirst()
        // `{}` stays an object: no comma before its end.
        if rest.first != UInt8(ascii: "}") { buffer.append(UInt8(ascii: ",")) }
        buffer.append(contentsOf: rest)
    }

    /// Whether `frame` starts with a scene tag (a cheap look, before `split`).
    public static func isTagged(_ frame: UnsafeRawBufferPointer) -> Bool {
        frame.count > prefix.count && frame.starts(with: prefix)
    }

    /// The tag of a tagged frame and the frame without it; nil when `frame` has no tag or a
    /// tag that is not a plain JSON string followed by more of the object.
    public static func split(_ frame: UnsafeRawBufferPointer) -> (scene: String, body: [UInt8])? {
        guard isTagged(frame) else { return nil }
        // The string ends at the first quote not escaped; its text is parsed by the JSON
        // parser (escapes and all).
        var index = prefix.count + 1
        guard frame[prefix.count] == UInt8(ascii: "\"") else { return nil }
        var escaped = false
        var sawEscape = false
        while index < frame.count {
            let byte = frame[index]
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
                sawEscape = true
            } else if byte == UInt8(ascii: "\"") {
                break
            } else if byte < 0x20 {
                return nil
            }
            index += 1
        }
        guard index < frame.count else { return nil }
        let scene: String
        if sawEscape {
            guard case .string(let parsed)? = try? JSONParser.parse(Array(frame[prefix.count...index])) else {
                return nil
            }
            scene = parsed
        } else {
            // The common case (scene names are plain): the bytes are the name.
            scene = String(decoding: UnsafeRawBufferPointer(rebasing: frame[(prefix.count + 1)..<index]), as: UTF8.self)
        }
        var body: [UInt8] = [UInt8(ascii: "{")]
        let after = index + 1
        guard after < frame.count else { return nil }
        switch frame[after] {
        case UInt8(ascii: ","): body.append(contentsOf: frame[(after + 1)...])
        case UInt8(ascii: "}"): body.append(contentsOf: frame[after...])
        default: return nil
        }
        return (scene, body)
    }
}
