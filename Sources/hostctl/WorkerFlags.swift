import CLISupport
import Glibc

/// `--worker PATH [--worker-arg ARG]...`: a worker argv on the command line (`connect`,
/// `serve`, `stress`), its program resolved where the command was typed.
enum WorkerFlags {
    /// The argv, or nil when `--worker` is absent; `--worker-arg` without it is an error.
    ///
    /// `mustBeRunnable`: the program must be an executable file here and now (`serve`,
    /// `stress`: their host runs it, and a typo is better refused before it starts than by
    /// every scene later). A client's `connect` leaves that to the host it asks.
    static func parse(
        _ arguments: inout Arguments,
        flag: String = "--worker",
        mustBeRunnable: Bool = false,
        isRequired: Bool = false
    ) throws(UsageError) -> [String]? {
        let path = try arguments.option(flag)
        let extra = try arguments.options(flag + "-arg", acceptsDashedValues: true)
        guard let path else {
            guard extra.isEmpty else {
                throw UsageError("hostctl \(arguments.command): \(flag)-arg needs \(flag) PATH")
            }
            return nil
        }
        let program = resolve(path)
        if mustBeRunnable, let problem = runProblem(program) {
            let instead = isRequired ? "" : ", or leave \(flag) out to run this hostctl's own worker"
            throw UsageError(
                "hostctl \(arguments.command): \(flag) \(path): \(problem); give the path of a scenehost worker "
                    + "program\(instead)"
            )
        }
        return [program] + extra
    }

    /// Why `program` (as `resolve` left it) cannot be run, or nil when it can.
    static func runProblem(_ program: String) -> String? {
        guard program.contains("/") else { return "not found in PATH" }
        var status = stat()
        guard stat(program, &status) == 0 else { return String(cString: strerror(errno)).lowercased() }
        guard status.st_mode & S_IFMT == S_IFREG else { return "not a regular file" }
        guard access(program, X_OK) == 0 else { return "not executable" }
        return nil
    }

    /// `path` as this process would run it: a relative path against its working directory,
    /// a bare name through its `PATH`. A serving host runs elsewhere, with a directory and
    /// an environment of its own, so the client's meaning must travel as an absolute path.
    /// A name found nowhere is left as given (the host's spawn error then names it).
    static func resolve(_ path: String) -> String {
        guard !path.hasPrefix("/"), !path.isEmpty else { return path }
        if path.contains("/") {
            guard let directory = currentDirectory() else { return path }
            var relative = Substring(path)
            while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
            return directory == "/" ? "/" + relative : directory + "/" + relative
        }
        guard let search = getenv("PATH") else { return path }
        for directory in String(cString: search).split(separator: ":", omittingEmptySubsequences: false) {
            // An empty entry means the working directory, as for execvp.
            let base = directory.isEmpty ? (currentDirectory() ?? ".") : String(directory)
            let candidate = base + "/" + path
            var status = stat()
            if stat(candidate, &status) == 0, status.st_mode & S_IFMT == S_IFREG, access(candidate, X_OK) == 0 {
                return candidate.hasPrefix("/") ? candidate : resolve(candidate)
            }
        }
        return path
    }

    private static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
