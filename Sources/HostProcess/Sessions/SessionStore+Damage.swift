import Glibc
import Protocol
import SceneModel

/// A session file the store could not load when it opened. It is never deleted: it was
/// renamed to a name of its own (`keptAs`) or, if the rename failed or has not been tried
/// yet, left where it was. The
/// host starts without that session; `SceneHost` reports the file as an `error` trace event.
public struct DamagedSessionFile: Sendable, Hashable {
    /// What became of the damaged file.
    public enum Disposition: Sendable, Hashable {
        /// Renamed to this path: `<file>.damaged`, or `<file>.damaged.1`, `.damaged.2`, …
        /// when earlier damaged versions hold those names.
        case keptAside(as: String)
        /// The rename failed, for this reason. The file stays at `path`, and the store never
        /// replaces nor deletes it: saving that session throws until someone moves it away.
        case leftInPlace(because: String)
        /// Not touched yet: a store opened without keeping damaged files aside (an offline
        /// discard, a host before it has started). It stays at `path`, never replaced.
        case untouched
    }

    /// The file as found: `<state>/sessions/<name>.json`.
    public var path: String
    public var disposition: Disposition
    /// Why it could not be loaded.
    public var reason: String

    /// Where it was kept aside; nil if it is still at `path`.
    public var keptAs: String? {
        if case .keptAside(let keptAs) = disposition { keptAs } else { nil }
    }

    /// One line for the trace.
    public var message: String {
        switch disposition {
        case .keptAside(let keptAs):
            "damaged session file \(path) kept aside as \(keptAs): \(reason)"
        case .leftInPlace(let failure):
            "damaged session file \(path) could not be kept aside (\(failure)); it stays in place and is never replaced: \(reason)"
        case .untouched:
            "damaged session file \(path), left in place (a host keeps it aside when it starts): \(reason)"
        }
    }
}

extension SessionStore {
    package enum LoadOutcome {
        case session(SceneSession)
        case damaged(reason: String)
    }

    /// The largest session file a launch can use: the frame limit, less room for the
    /// connect's other fields (a worker's own state is smaller still: its reply had to fit
    /// a frame).
    package static let maximumSessionFileBytes = FrameLimits.defaultMaximumFrameSize - 8192

    /// Loads the session file `file` in the held `directory` (`sessions/`, where it is
    /// named `name`), or says why it is damaged.
    package static func load(_ file: String, in directory: Int32, name: String) -> LoadOutcome {
        let bytes: [UInt8]
        switch StateFiles.readRegularFile(file, in: directory, limit: 16 << 20) {
        case .success(let content): bytes = content
        case .failure(.notRegular(let what)): return .damaged(reason: "not a regular file: \(what)")
        case .failure(.unreadable(let why)): return .damaged(reason: "cannot be read: \(why)")
        case .failure(.tooLarge): return .damaged(reason: "larger than 16 MiB")
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
        // Its state goes to the worker in the connect frame, with a few fields more: a file
        // that cannot fit one could never launch (each try ended at the launch watchdog).
        guard bytes.count <= maximumSessionFileBytes else {
            return .damaged(
                reason: "\(bytes.count) bytes: larger than a worker's connect frame can carry "
                    + "(\(maximumSessionFileBytes) bytes of session file at most)"
            )
        }
        return .session(session)
    }

    /// Renames the damaged file `path` to the first free name among `path.damaged`,
    /// `path.damaged.1`, `path.damaged.2`, …, so an earlier damaged version kept aside is
    /// never replaced (`rename` would replace it silently). Checking first and renaming after
    /// cannot race another host: the directory lock keeps every other store out.
    package static func keepAside(
        _ name: String,
        in directory: Int32,
        path: String,
        renameFile: (Int32, String, String) -> Int32
    ) -> DamagedSessionFile.Disposition {
        var number = 0
        while true {
            let suffix = ".damaged" + (number == 0 ? "" : ".\(number)")
            let candidate = path + suffix
            var info = stat()
            if fstatat(directory, name + suffix, &info, AT_SYMLINK_NOFOLLOW) == 0 {
                number += 1
                continue
            }
            // Only a name known to be free is used: any other answer might hide a kept file.
            let code = errno
            guard code == ENOENT else {
                return .leftInPlace(because: "cannot check \(candidate): \(String(cString: strerror(code)))")
            }
            guard renameFile(directory, name, name + suffix) == 0 else {
                return .leftInPlace(because: "cannot rename it to \(candidate): \(String(cString: strerror(errno)))")
            }
            return .keptAside(as: candidate)
        }
    }

    /// `text` JSON-quoted and cut short, for a one-line message about hostile content.
    private static func quotedForMessage(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONWriter.writeString(text.count > 64 ? String(text.prefix(64)) + "…" : text, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
