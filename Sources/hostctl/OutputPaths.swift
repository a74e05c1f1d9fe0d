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
    /// `-` is a standard stream: stdout for `output`, and for `other` stdin when it is an
    /// input (`otherIsInput`), else stdout. `timeline - -o t.jsonl < t.jsonl` replaced the
    /// trace it read from stdin as surely as naming it twice did.
    static func check(
        _ output: String?,
        flag: String,
        isNot other: String?,
        what: String,
        command: String,
        otherIsInput: Bool = true
    ) throws(UsageError) {
        guard let output, let other else { return }
        let otherStream: Int32 = otherIsInput ? STDIN_FILENO : STDOUT_FILENO
        // The same stream twice (both on stdout) writes nothing over anything.
        if output == "-" && other == "-" && otherStream == STDOUT_FILENO { return }
        guard sameRegularFile(output, other, standardA: STDOUT_FILENO, standardB: otherStream) else { return }
        let named = output == "-" ? "- (stdout)" : quoted(output)
        let onStream = other == "-" ? (otherIsInput ? " (on stdin)" : " (on stdout)") : ""
        throw UsageError(
            "hostctl \(command): \(flag) \(named) is \(what)\(onStream): writing there would overwrite it; name another file"
        )
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
    /// something else than a directory, or missing with no directory to make it in. The
    /// host's own checks (its owner, its mode) follow when it starts; these are the command
    /// line's mistakes, exit 2 as for a file named that cannot be used.
    static func checkStateDirectory(_ path: String?, command: String) throws(UsageError) {
        guard let path else { return }
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT != S_IFDIR else { return }
            throw UsageError(
                "hostctl \(command): --state-dir \(quoted(path)) is not a directory; name a directory (one that does not exist yet is made)"
            )
        }
        guard errno == ENOENT else {
            throw UsageError("hostctl \(command): --state-dir \(quoted(path)): \(String(cString: strerror(errno)))")
        }
        let parent = directory(of: path)
        guard stat(parent, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw UsageError(
                "hostctl \(command): --state-dir \(quoted(path)): its parent \(quoted(parent)) is not a directory; create it first, or name another"
            )
        }
    }

    /// Whether `a` and `b` are the same regular file: the same inode when both exist, else
    /// the same path once their directories are resolved (a device such as `/dev/null` may
    /// take several outputs). `-` is the standard stream `standardA` or `standardB` says.
    static func sameRegularFile(
        _ a: String,
        _ b: String,
        standardA: Int32 = STDOUT_FILENO,
        standardB: Int32 = STDIN_FILENO
    ) -> Bool {
        var first = stat()
        var second = stat()
        let firstExists = (a == "-" ? fstat(standardA, &first) : stat(a, &first)) == 0
        let secondExists = (b == "-" ? fstat(standardB, &second) : stat(b, &second)) == 0
        if firstExists && secondExists {
            return first.st_dev == second.st_dev && first.st_ino == second.st_ino
                && first.st_mode & S_IFMT == S_IFREG
        }
        if firstExists != secondExists || a == "-" || b == "-" { return false }
        guard let resolvedA = resolved(a), let resolvedB = resolved(b) else { return false }
        return resolvedA == resolvedB
    }

    /// `path` with its directory resolved (`realpath`), for a file that does not exist yet.
    private static func resolved(_ path: String) -> String? {
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        guard let real = realpath(directory(of: path), nil) else { return nil }
        defer { free(real) }
        return String(cString: real) + "/" + name
    }

    /// The directory part of `path` (`.` for a bare name).
    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return path[..<slash].isEmpty ? "/" : String(path[..<slash])
    }
}
