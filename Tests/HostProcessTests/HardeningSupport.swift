import CSceneHostSys
import Glibc
import HostProcess
import HostTools
import Protocol
import SceneModel

/// The hostile worker scripts of Tests/Fixtures/HostileWorkers, found from this file's path.
enum HostileFixture {
    static let directory: String = {
        // …/Tests/HostProcessTests/HardeningSupport.swift → …/Tests/Fixtures/HostileWorkers
        var path = String(#filePath)
        for _ in 0..<2 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path + "/Fixtures/HostileWorkers"
    }()

    static func path(_ name: String) -> String { directory + "/" + name }
}

/// Probes of the host process and its workers for the hardening tests.
enum HardeningProbe {
    /// The lines of a text file (empty when it cannot be read).
    static func readLines(_ path: String) -> [String] {
        guard let file = fopen(path, "r") else { return [] }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// What every descriptor of this process points at (`pipe:[1234]`, `/dev/null`, …).
    static func openDescriptorTargets() -> Set<String> {
        var targets: Set<String> = []
        guard let directory = opendir("/proc/self/fd") else { return targets }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = directoryEntryName(entry)
            guard name.first?.isNumber == true else { continue }
            var buffer = [CChar](repeating: 0, count: 256)
            let length = readlink("/proc/self/fd/" + name, &buffer, buffer.count - 1)
            guard length > 0 else { continue }
            targets.insert(String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return targets
    }

    /// Live (not zombie) processes whose process group is `group`.
    static func processGroupMembers(_ group: Int32) -> [Int32] {
        var members: [Int32] = []
        guard let directory = opendir("/proc") else { return members }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = directoryEntryName(entry)
            guard let pid = Int32(name), let stat = Self.readLines("/proc/\(pid)/stat").first,
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After "comm)": state ppid pgrp …
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", Int32(fields[2]) == group else { continue }
            members.append(pid)
        }
        return members
    }

    /// Waits (on a pidfd, not by polling with sleeps) until `pid` has died; false after `milliseconds`.
    static func waitForDeath(of pid: Int32, milliseconds: Int32 = 5000) -> Bool {
        let pidfd = csh_pidfd_open(pid, 0)
        guard pidfd >= 0 else { return errno == ESRCH }
        defer { close(pidfd) }
        var poller = pollfd(fd: pidfd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0 && errno == EINTR { continue }
            return ready == 1
        }
    }

    /// True once nothing (but zombies) is left in process group `group`.
    static func processGroupIsGone(_ group: Int32) -> Bool {
        Self.processGroupMembers(group).allSatisfy { Self.waitForDeath(of: $0) }
            && Self.processGroupMembers(group).isEmpty
    }

    /// A `kB` field of /proc/PROCESS/status (`VmRSS:`, `VmHWM:`); `process` is a pid or `self`.
    static func statusKilobytes(_ field: String, of process: String = "self") -> Int? {
        for line in Self.readLines("/proc/\(process)/status") where line.hasPrefix(field) {
            return Int(line.dropFirst(field.count).filter { $0.isNumber })
        }
        return nil
    }

    /// Resets a process's VmHWM to its current resident size (Linux clear_refs 5); false if
    /// not allowed.
    static func resetPeakResidentSize(of process: String = "self") -> Bool {
        let descriptor = open("/proc/\(process)/clear_refs", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        return write(descriptor, "5", 1) == 1
    }
}
