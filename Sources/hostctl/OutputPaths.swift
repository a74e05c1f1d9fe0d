import CLISupport
import Glibc
import Protocol

/// Refuses an output file that is one of the command's inputs or another of its outputs:
/// `timeline t.jsonl -o t.jsonl` replaced the trace by its picture, `run s.json --trace
/// s.json` the scenario by its trace, and nothing said so.
enum OutputPaths {
    /// Throws a usage error when `output` (given as `flag`) is the file `other` names;
    /// `what` says what `other` is ("the trace it reads").
    ///
    /// `-` is a standard stream only where the command takes it so: `outputStream` and
    /// `otherStream` name the stream it stands for on each side (nil: `-` is a file of that
    /// name, as `run -` and `--trace -` read and write). `timeline - -o t.jsonl < t.jsonl`
    /// replaced the trace it read from stdin as surely as naming it twice did.
    static func check(
        _ output: String?,
        flag: String,
        isNot other: String?,
        what: String,
        command: String,
        outputStream: Int32? = nil,
        otherStream: Int32? = nil
    ) throws(UsageError) {
        guard let output, let other else { return }
        let outputSide = Side(output, stream: outputStream)
        let otherSide = Side(other, stream: otherStream)
        // The same stream twice (both on stdout) writes nothing over anything.
        if let stream = outputSide.stream, stream == otherSide.stream { return }
        guard sameRegularFile(outputSide, otherSide) else { return }
        // An empty `flag`: the output was not named, it is stdout by default.
        let named =
            outputSide.stream == nil
            ? "\(flag) \(quoted(output))" : flag.isEmpty ? "stdout" : "\(flag) - (stdout)"
        let onStream = otherSide.stream.map { $0 == STDIN_FILENO ? " (on stdin)" : " (on stdout)" } ?? ""
        throw UsageError(
            "hostctl \(command): \(named) is \(what)\(onStream): writing there would overwrite or corrupt it; name another file"
        )
    }

    /// A file as the command line names it: a path, or `-` standing for a standard stream.
    struct Side {
        let path: String
        /// The stream `path` stands for, nil for a file.
        let stream: Int32?

        init(_ path: String, stream: Int32?) {
            self.path = path
            self.stream = path == "-" ? stream : nil
        }

        /// `stat` of the file, or of what the stream is; false when there is none.
        func status(_ info: inout stat) -> Bool {
            (stream.map { fstat($0, &info) } ?? stat(path, &info)) == 0
        }
    }

    /// Throws a usage error when `output` cannot be written (a missing or closed directory),
    /// for an output written only at the end (`demo --timeline`): it used to fail after the
    /// whole run.
    static func checkWritable(_ output: String?, flag: String, command: String) throws(UsageError) {
        guard let output, output != "-" else { return }
        let target = access(output, F_OK) == 0 ? output : directory(of: output)
        guard access(target, W_OK) != 0 else { return }
        throw UsageError(
            "hostctl \(command): \(flag) \(quoted(output)): cannot write there (\(String(cString: strerror(errno))))"
        )
    }

    /// Throws a usage error when `path`, given as `--state-dir`, cannot be a state directory:
    /// something else than a directory, a symlink to nothing, or missing with no directory it
    /// may be made in. The host's own checks (its owner, its mode) follow when it starts;
    /// these are the command line's mistakes, exit 2 as for a file named that cannot be used.
    static func checkStateDirectory(_ path: String?, command: String, given: String = "--state-dir") throws(UsageError)
    {
        guard let path else { return }
        let prefix = "hostctl \(command): \(given) \(quoted(path))"
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT != S_IFDIR else { return }
            throw UsageError("\(prefix) is not a directory; name a directory (one that does not exist yet is made)")
        }
        guard errno == ENOENT else { throw UsageError("\(prefix): \(String(cString: strerror(errno)))") }
        if lstat(path, &info) == 0 {
            throw UsageError("\(prefix) is a symlink to nothing; name a directory")
        }
        // `new/` is made as `new` is: its parent is the one before the trailing slashes.
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let parent = directory(of: String(trimmed))
        guard stat(parent, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw UsageError(
                "\(prefix): its parent \(quoted(parent)) is not a directory; create it first, or name another"
            )
        }
        guard access(parent, W_OK | X_OK) == 0 else {
            throw UsageError(
                "\(prefix): cannot be made in \(quoted(parent)) (\(String(cString: strerror(errno)))); name another"
            )
        }
    }

    /// Throws a usage error when `output` (given as `flag`) lies inside the state directory
    /// `stateDirectory`: the host's session files and lock are there, and a trace written
    /// over one (`--trace st/sessions/A.json`) lost the session at the next start.
    static func checkOutside(
        stateDirectory: String?,
        _ output: String?,
        flag: String,
        command: String
    ) throws(UsageError) {
        guard let stateDirectory, let output, output != "-" || flag == "--trace" else { return }
        // Both as the host would reach them: a directory not made yet (the host makes it
        // before it opens the trace), a symlink to a file in it, dangling or not.
        guard let statePath = realLocation(stateDirectory), let file = realLocation(output) else { return }
        guard file == statePath || file.hasPrefix(statePath == "/" ? "/" : statePath + "/") else { return }
        throw UsageError(
            "hostctl \(command): \(flag) \(quoted(output)) is inside the state directory \(quoted(stateDirectory)), "
                + "whose files the host keeps; name a file elsewhere"
        )
    }

    /// Whether `a` and `b` are the same regular file: the same inode when both exist, else
    /// the same place once resolved as they would be written (`realLocation`); a device such
    /// as `/dev/null` may take several outputs.
    static func sameRegularFile(_ a: Side, _ b: Side) -> Bool {
        var first = stat()
        var second = stat()
        let firstExists = a.status(&first)
        let secondExists = b.status(&second)
        if firstExists && secondExists {
            return first.st_dev == second.st_dev && first.st_ino == second.st_ino
                && first.st_mode & S_IFMT == S_IFREG
        }
        if firstExists != secondExists || a.stream != nil || b.stream != nil { return false }
        guard let resolvedA = realLocation(a.path), let resolvedB = realLocation(b.path) else { return false }
        return resolvedA == resolvedB
    }

    /// Where `path` leads: its real path when it exists; else, for a symlink (dangling, or a
    /// loop), where its target leads; else its parent's location and its own name (a file or
    /// directory to be made). Nil when that cannot be told.
    static func realLocation(_ path: String, depth: Int = 0) -> String? {
        guard depth < 40, !path.isEmpty else { return nil }
        if let real = realpath(path, nil) {
            defer { free(real) }
            return String(cString: real)
        }
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        let parent = directory(of: String(trimmed))
        let name = trimmed.lastIndex(of: "/").map { String(trimmed[trimmed.index(after: $0)...]) } ?? String(trimmed)
        var info = stat()
        if lstat(String(trimmed), &info) == 0, info.st_mode & S_IFMT == S_IFLNK {
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(String(trimmed), &target, target.count - 1)
            guard count > 0 else { return nil }
            let link = String(decoding: target[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return realLocation(link.hasPrefix("/") ? link : parent + "/" + link, depth: depth + 1)
        }
        guard name != ".", name != "..", let base = realLocation(parent, depth: depth + 1) else { return nil }
        return base == "/" ? "/" + name : base + "/" + name
    }

    /// The directory part of `path` (`.` for a bare name).
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return path[..<slash].isEmpty ? "/" : String(path[..<slash])
    }
}
