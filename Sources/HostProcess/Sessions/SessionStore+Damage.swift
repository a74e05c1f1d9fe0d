import Protocol

/// A session file the store could not load when it opened. It was renamed to `keptAs`
/// (never deleted) and the host starts without it; `SceneHost` reports it as an `error`
/// trace event.
public struct DamagedSessionFile: Sendable, Hashable {
    /// The file as found: `<state>/sessions/<name>.json`.
    public var path: String
    /// Where it was kept aside: `path` + `.damaged`.
    public var keptAs: String
    /// Why it could not be loaded.
    public var reason: String
}

extension SessionStore {
    enum LoadOutcome {
        case session(SceneSession)
        case damaged(reason: String)
    }

    /// Loads the session file `path` (named `name` in `sessions/`), or says why it is damaged.
    static func load(path: String, name: String) -> LoadOutcome {
        guard let bytes = readWholeFile(path, limit: 16 << 20) else {
            return .damaged(reason: "cannot be read or is larger than 16 MiB")
        }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            return .damaged(reason: "not valid JSON: \(error.message)")
        }
        guard let session = SceneSession(json: value) else {
            return .damaged(reason: "not a session (needs string fields identifier, configuration and role)")
        }
        guard SceneSession.isValidIdentifier(session.identifier) else {
            return .damaged(reason: "invalid session identifier \(quotedForMessage(session.identifier))")
        }
        guard name == session.identifier + ".json" else {
            return .damaged(reason: "identifier \(quotedForMessage(session.identifier)) does not match the file name")
        }
        return .session(session)
    }

    /// `text` JSON-quoted and cut short, for a one-line message about hostile content.
    private static func quotedForMessage(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.writeString(text.count > 64 ? String(text.prefix(64)) + "…" : text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
