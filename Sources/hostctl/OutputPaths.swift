import CLISupport
import Glibc
import Protocol

/// Refuses an output file that is one of the command's inputs or another of its outputs:
/// `timeline t.jsonl -o t.jsonl` replaced the trace by its picture, `run s.json --trace
/// s.json` the scenario by its trace, and nothing said so.
enum OutputPaths {
    /// Throws a usage error when `output` (given as `flag`) is the file `other` names;
    /// `what` says what `other` is ("the trace it reads").
    static func check(
        _ output: String?,
        flag: String,
        isNot other: String?,
        what: String,
        command: String
    ) throws(UsageError) {
        guard let output, let other, output != "-", other != "-", sameRegularFile(output, other) else { return }
        throw UsageError(
            "hostctl \(command): \(flag) \(quoted(output)) is \(what): writing there would overwrite it; name another file"
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

    /// Whether `a` and `b` are the same regular file: the same inode when both exist, else
    /// the same path once their directories are resolved (a device such as `/dev/null` may
    /// take several outputs).
    static func sameRegularFile(_ a: String, _ b: String) -> Bool {
        var first = stat()
        var second = stat()
        let firstExists = stat(a, &first) == 0
        let secondExists = stat(b, &second) == 0
        if firstExists && secondExists {
            return first.st_dev == second.st_dev && first.st_ino == second.st_ino
                && first.st_mode & S_IFMT == S_IFREG
        }
        if firstExists != secondExists { return false }
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
