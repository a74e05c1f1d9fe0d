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
    public static func append(_ frame: [UInt8], scene: String, to buffer: inout [UInt8]) {
        frame.withUnsafeBytes { append($0, scene: scene, to: &buffer) }
    }

    /// Appends `frame` to `buffer` with `scene` as its first key. (Byte buffers, not a generic
    /// collection: the bytes are copied whole, on every tagged frame of both ends.)
    public static func append(_ frame: UnsafeRawBufferPointer, scene: String, to buffer: inout [UInt8]) {
        guard frame.first == UInt8(ascii: "{") else {
            buffer.append(contentsOf: frame)
            return
        }
        buffer.append(contentsOf: prefix)
        JSONWriter.writeString(scene, into: &buffer)
        let rest = UnsafeRawBufferPointer(rebasing: frame[1...])
        // `{}` stays an object: no comma before its end.
        if rest.first != UInt8(ascii: "}") { buffer.append(UInt8(ascii: ",")) }
        buffer.append(contentsOf: rest)
    }

    /// Puts `scene`'s tag on the frame that starts at `start` in `buffer` (encoded there
    /// just now): what `append` makes, without a second buffer. `tag` holds the tag's bytes
    /// from an earlier call for the same scene, or is empty (then it is filled), so that a
    /// batch of one scene's frames encodes the name once.
    public static func tagFrame(at start: Int, in buffer: inout [UInt8], scene: String, tag: inout [UInt8]) {
        guard start < buffer.count, buffer[start] == UInt8(ascii: "{") else { return }
        if tag.isEmpty {
            tag.append(contentsOf: prefix)
            JSONWriter.writeString(scene, into: &tag)
            tag.append(UInt8(ascii: ","))
        }
        // `{}` stays an object: no comma before its end.
        let isEmpty = start + 1 < buffer.count && buffer[start + 1] == UInt8(ascii: "}")
        tag.withUnsafeBytes { bytes in
            let replacement = isEmpty ? UnsafeRawBufferPointer(rebasing: bytes.dropLast()) : bytes
            buffer.replaceSubrange(start..<(start + 1), with: replacement)
        }
    }

    /// `{"scene"`, the tag's first eight bytes, as one little-endian load of them reads it.
    private static let prefixHead: UInt64 = 0x2265_6E65_6373_227B

    /// Whether `frame` starts with a scene tag (a cheap look, before `split`). Two loads, not
    /// a loop over `prefix`: it runs on every frame of an app's process, at both ends.
    public static func isTagged(_ frame: UnsafeRawBufferPointer) -> Bool {
        guard frame.count > 9 else { return false }
        return UInt64(littleEndian: frame.loadUnaligned(as: UInt64.self)) == prefixHead
            && frame[8] == UInt8(ascii: ":")
    }

    /// The tag of a tagged frame and the frame without it; nil when `frame` has no tag or a
    /// tag that is not a plain JSON string followed by more of the object.
    public static func split(_ frame: UnsafeRawBufferPointer) -> (scene: String, body: [UInt8])? {
        var body: [UInt8] = []
        guard let scene = split(frame, body: &body) else { return nil }
        return (scene, body)
    }

    /// The tag of a tagged frame, with the frame without it in `body` (replaced, its storage
    /// kept); nil, and `body` unspecified, when `frame` has no tag or a tag that is not a
    /// plain JSON string followed by more of the object.
    public static func split(_ frame: UnsafeRawBufferPointer, body: inout [UInt8]) -> String? {
        guard let tagged = tagged(frame) else { return nil }
        tagged.write(into: &body)
        return tagged.scene
    }

    /// The tagged frame `frame` is, read where it lies; nil when it has no tag or a tag that
    /// is not a plain JSON string followed by more of the object.
    package static func tagged(_ frame: UnsafeRawBufferPointer) -> Tagged? {
        guard isTagged(frame) else { return nil }
        // The string ends at the first quote not escaped; its text is parsed by the JSON
        // parser (escapes and all).
        let nameStart = 9
        var index = nameStart + 1
        guard frame[nameStart] == UInt8(ascii: "\"") else { return nil }
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
            guard case .string(let parsed)? = try? JSONParser.parse(Array(frame[nameStart...index])) else {
                return nil
            }
            scene = parsed
        } else {
            // The common case (scene names are plain): the bytes are the name.
            scene = String(decoding: UnsafeRawBufferPointer(rebasing: frame[(nameStart + 1)..<index]), as: UTF8.self)
        }
        let after = index + 1
        guard after < frame.count else { return nil }
        switch frame[after] {
        case UInt8(ascii: ","): return Tagged(scene: scene, frame: frame, rest: after + 1)
        case UInt8(ascii: "}"): return Tagged(scene: scene, frame: frame, rest: after)
        default: return nil
        }
    }

    /// A tagged frame where it lies: the scene it names, and the plain frame inside it, which
    /// `command()` and `message()` decode in place on the decoders' fast path. Copying the
    /// plain frame out first, for every frame of an app's process at both ends, cost more
    /// than decoding it. Valid while the frame's bytes are: it holds their address.
    package struct Tagged {
        package let scene: String
        let frame: UnsafeRawBufferPointer
        /// The first byte after the tag: past its comma, or the object's closing brace.
        let rest: Int

        /// The plain frame: `{` and the rest of the object after the tag (a copy).
        package var body: [UInt8] {
            var body: [UInt8] = []
            write(into: &body)
            return body
        }

        /// Replaces `body`'s contents with the plain frame, keeping its storage.
        package func write(into body: inout [UInt8]) {
            body.removeAll(keepingCapacity: true)
            body.append(UInt8(ascii: "{"))
            body.append(contentsOf: UnsafeRawBufferPointer(rebasing: frame[rest...]))
        }

        /// The command the frame carries: `HostCommand(frame:)` of the plain frame.
        package func command() throws(ProtocolError) -> HostCommand {
            if let common = FrameShapes.request(frame, membersAt: rest) { return common }
            return try HostCommand(frame: body)
        }

        /// The message the frame carries: `WorkerMessage(frame:)` of the plain frame.
        package func message() throws(ProtocolError) -> WorkerMessage {
            if let common = FrameShapes.message(frame, membersAt: rest) { return common }
            return try WorkerMessage(frame: body)
        }
    }
}
