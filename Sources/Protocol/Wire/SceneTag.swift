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
        while index < frame.count {
            let byte = frame[index]
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                break
            }
            index += 1
        }
        guard index < frame.count else { return nil }
        let quoted = Array(frame[prefix.count...index])
        guard case .string(let scene)? = try? JSONParser.parse(quoted) else { return nil }
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
