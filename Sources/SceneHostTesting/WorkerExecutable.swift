import Glibc

/// Finds worker executables for tests.
public enum WorkerExecutable {
    /// The path of the executable product `name` that SwiftPM built beside the running tests:
    /// in the directory of the test bundle (`.build/<triple>/<configuration>/`) or a directory
    /// above it up to `.build`, else in `.build/debug` or `.build/release` of the current
    /// directory.
    ///
    /// SwiftPM builds an executable for `swift test` only when a test target depends on it:
    /// list the worker's executable target among the test target's dependencies.
    public static func builtProduct(named name: String) throws(WorkerExecutableNotFound) -> String {
        var searched: [String] = []
        for directory in candidateDirectories() {
            let path = directory + "/" + name
            if searched.contains(path) { continue }
            searched.append(path)
            if access(path, X_OK) == 0 { return path }
        }
        throw WorkerExecutableNotFound(name: name, searched: searched)
    }

    /// The directory of the running executable and those above it up to `.build`, then the
    /// current directory's `.build/debug` and `.build/release`.
    static func candidateDirectories() -> [String] {
        var directories: [String] = []
        var directory = directory(of: runningExecutable())
        while !directory.isEmpty {
            directories.append(directory)
            if directory.hasSuffix("/.build") { break }
            guard let slash = directory.lastIndex(of: "/") else { break }
            directory = String(directory[..<slash])
        }
        if let current = currentDirectory() {
            directories.append(current + "/.build/debug")
            directories.append(current + "/.build/release")
        }
        return directories
    }

    private static func runningExecutable() -> String {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = buffer.withUnsafeMutableBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { readlink("/proc/self/exe", $0.baseAddress!, $0.count - 1) }
        }
        if length > 0 { return String(decoding: buffer[..<length], as: UTF8.self) }
        return CommandLine.arguments.first ?? ""
    }

    private static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return currentDirectory() ?? "" }
        return String(path[..<slash])
    }

    private static func currentDirectory() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// `WorkerExecutable.builtProduct(named:)` found no such executable.
public struct WorkerExecutableNotFound: Error, Sendable, Hashable, CustomStringConvertible {
    /// The product's name.
    public var name: String
    /// Every path tried, in order.
    public var searched: [String]

    public var description: String {
        "no executable \"\(name)\" was built beside the tests (looked for "
            + searched.joined(separator: ", ")
            + "). SwiftPM builds an executable for `swift test` only when the test target depends on it: add "
            + "\"\(name)\" to the dependencies of your .testTarget in Package.swift, and check that the name is the "
            + "executable target's (or product's) name."
    }
}
