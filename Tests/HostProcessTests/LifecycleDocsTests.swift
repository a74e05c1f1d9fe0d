import Glibc
import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// docs/LIFECYCLE.md cannot drift from the model: its tables are parsed and compared with
/// the model's own (on a mismatch the test prints the table the model gives, ready to paste),
/// every "§N" cited in the repository is a numbered section of it, and the project's docs and
/// sources stand alone (no reference to the spec's private copy).
@Suite struct LifecycleDocsTests {
    static let root: String = {
        // …/Tests/HostProcessTests/LifecycleDocsTests.swift → the package root
        var path = String(#filePath)
        for _ in 0..<3 {
            if let slash = path.lastIndex(of: "/") { path = String(path[..<slash]) }
        }
        return path
    }()

    static var lifecycle: String { read(root + "/docs/LIFECYCLE.md") }

    // MARK: The tables

    /// §2's operations table: every operation, when it is legal, what the host does.
    static var operationsTable: [String] {
        ["| operation | legal when | what the host does |", "| --- | --- | --- |"]
            + LifecycleOperation.allCases.map { operation in
                "| `\(operation)` | \(operation.requirements.documentation) | \(operation.transitions) |"
            }
    }

    /// §2's transitions table: every atom, the callback that starts it, when it may start.
    static var transitionsTable: [String] {
        ["| transition | first callback | may start when |", "| --- | --- | --- |"]
            + LifecycleAtom.allCases.map { atom in
                "| `\(atom)` | \(describe(atom.firstStep(stack: ["Root", "Top"]))) | \(atom.requirements.documentation) |"
            }
    }

    /// §2's wire operations: the worker refuses one none of whose first transitions may start.
    static var wireTable: [String] {
        let operations: [WorkerOperation] = [
            .connect(ConnectOptions(session: "A")), .activate, .deactivate, .enterBackground, .enterForeground,
            .stateRestoration, .disconnect, .terminate, .push(viewController: "B"), .pop,
            .resize(width: 1, height: 1), .memoryWarning, .notify(name: "n", value: .null), .beginBackgroundTask,
            .endBackgroundTask, .expireBackgroundTask, .present(viewController: "B", style: .pageSheet), .dismiss,
            .swipeDismiss(completes: true), .swipeBack(completes: true),
            .tap, .openURL(url: "u"),
            .continueUserActivity(activityType: "t", userInfo: nil),
            .didDiscardSceneSessions(sessions: ["A"]), .selectTab(index: 1),
            .addChild(viewController: "C"), .removeChild(viewController: "C"),
            .quickAction(type: "t", userInfo: nil), .openNotification(actionIdentifier: "a", userInfo: nil),
            .remoteNotification(userInfo: nil), .popToRoot,
        ]
        return ["| wire op | legal when one of these may start |", "| --- | --- |"]
            + operations.map { operation in
                "| `\(operation.name)` | " + operation.firstAtoms.map { "`\($0)`" }.joined(separator: ", ") + " |"
            }
    }

    static func describe(_ step: ExpectedStep) -> String {
        guard case .callback(let name, let pattern) = step else { return "?" }
        switch pattern {
        case .noController: return "`\(name)`"
        case .named(let vc): return "\(vc) `\(name)`"
        case .newController, .top: return "B `\(name)`"
        }
    }

    @Test func theOperationsTableIsTheModels() {
        Self.expectTable(Self.operationsTable, in: Self.lifecycle)
    }

    @Test func theTransitionsTableIsTheModels() {
        Self.expectTable(Self.transitionsTable, in: Self.lifecycle)
    }

    @Test func theWireOperationsTableIsTheModels() {
        Self.expectTable(Self.wireTable, in: Self.lifecycle)
    }

    /// §1: the process states in the model's order, and the state each callback defines.
    @Test func theStatesAreTheModels() {
        var processLine = ""
        for state in ProcessState.allCases {
            if !processLine.isEmpty { processLine += state == .suspended ? " ⇄ " : " → " }
            processLine += "`\(state)`"
        }
        let spelled = Self.lifecycle.contains(processLine)
        #expect(spelled, "docs/LIFECYCLE.md §1 should spell \(processLine)")
        let rows = Self.tableRows(after: "| callback | state event right after it |", in: Self.lifecycle)
        var documented: [CallbackName: ActivationState] = [:]
        for row in rows {
            guard let name = CallbackName(rawValue: Self.code(row[0]).first ?? ""),
                let to = ActivationState(rawValue: Self.code(row[1]).last ?? "")
            else {
                Issue.record("unreadable row \(row)")
                continue
            }
            documented[name] = to
        }
        for name in CallbackName.allCases {
            let derived = StateDerivation.state(after: name, current: .background)
            #expect(documented[name] == derived, "\(name): docs say \(documented[name].map(\.rawValue) ?? "no state")")
        }
    }

    /// §6 lists every termination reason, §7 every callback name.
    @Test func theNamesAreTheModels() {
        let text = Self.lifecycle
        let reasons = Self.code(Self.section("6", of: text))
        #expect(reasons == TerminationReason.allCases.map(\.rawValue))
        var callbacks: [String] = []
        for row in Self.tableRows(after: "| who | names |", in: text) { callbacks += Self.code(row[1]) }
        #expect(Set(callbacks) == Set(CallbackName.allCases.map(\.rawValue)))
    }

    /// README.md's list of scenario ops is the model's, in its order.
    @Test func theReadmeListsTheModelsOperations() {
        let readme = Self.read(Self.root + "/README.md")
        let paragraph = readme.split(separator: "\n\n").first { $0.hasPrefix("Ops: ") } ?? ""
        let names = Set(LifecycleOperation.allCases.map(\.rawValue))
        let listed = Self.code(paragraph).filter { names.contains($0) && !$0.isEmpty }
        // `background` is both an op and connect's field: keep the ops, in order.
        let ops = listed.enumerated().filter { index, name in
            name != "background" || index == 0 || listed[index - 1] != "connect"
        }.map(\.element)
        #expect(ops == LifecycleOperation.allCases.map(\.rawValue))
    }

    // MARK: Citations and references

    /// Every "§N" in README.md, docs/, Sources/, Tests/ and Examples/ is a numbered section
    /// (`## N. Title`) of docs/LIFECYCLE.md.
    @Test func everyCitedSectionExists() {
        let sections = Set(
            Self.lifecycle.split(separator: "\n").compactMap { line -> String? in
                guard line.hasPrefix("## ") else { return nil }
                let label = line.dropFirst(3).prefix { $0 != "." && $0 != " " }
                return label.first?.isNumber == true ? String(label) : nil
            }
        )
        #expect(sections.isSuperset(of: ["1", "2", "3", "4", "5", "6", "7"]))
        var cited = 0
        for file in Self.projectFiles() {
            let text = Self.read(file)
            var rest = Substring(text)
            while let mark = rest.firstIndex(of: "§") {
                rest = rest[rest.index(after: mark)...]
                let number = String(rest.prefix { $0.isNumber })
                guard !number.isEmpty else { continue }
                // `§3b` names a lettered section; `§4–6` and `§2's` the numbered one.
                let letter = rest.dropFirst(number.count).first.map { $0.isLowercase ? String($0) : "" } ?? ""
                let next = rest.dropFirst(number.count + 1).first
                let cites = number + (next?.isLetter == true ? "" : letter)
                let section = cites
                cited += 1
                #expect(sections.contains(section), "\(file) cites §\(cites), which docs/LIFECYCLE.md does not have")
            }
        }
        #expect(cited > 5)
    }

    /// The project's docs and sources stand alone: no path to the spec's private copy.
    @Test func noReferenceOutsideTheRepository() {
        let forbidden = ["..", "/shared"].joined() + "/"
        let absolute = ["/work", "/shared"].joined()
        for file in Self.projectFiles() {
            let text = Self.read(file)
            #expect(!text.contains(forbidden) && !text.contains(absolute), "\(file) refers outside the repository")
        }
    }

    // MARK: Reading

    static func expectTable(_ expected: [String], in text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: expected[0]) else {
            Issue.record(
                "docs/LIFECYCLE.md has no table headed \(expected[0]); the model's:\n\(expected.joined(separator: "\n"))",
                sourceLocation: sourceLocation
            )
            return
        }
        let actual = Array(lines[start...].prefix { $0.hasPrefix("|") })
        if actual != expected {
            let difference: String
            if let pair = zip(actual, expected).first(where: { $0 != $1 }) {
                difference = "docs: \(pair.0)\nmodel: \(pair.1)"
            } else {
                difference = "rows missing or extra"
            }
            let table = expected.joined(separator: "\n")
            Issue.record(
                "docs/LIFECYCLE.md's table differs from the model (\(difference)); the model's:\n\(table)",
                sourceLocation: sourceLocation
            )
        }
    }

    /// The cells of the body rows of the table whose header line is `header`.
    static func tableRows(after header: String, in text: String) -> [[String]] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: header) else { return [] }
        return lines[(start + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|").map { $0.trimmingSpaces }
        }
    }

    /// The text of section `number` (`## 6. …` up to the next `## `).
    static func section(_ number: String, of text: String) -> String {
        var inside = false
        var result: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { inside = line.hasPrefix("## \(number). ") }
            if inside { result.append(line) }
        }
        return result.joined(separator: "\n")
    }

    /// Every `code span`'s text, in order.
    static func code(_ text: some StringProtocol) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    static func projectFiles() -> [String] {
        var files = [root + "/README.md"]
        for directory in ["docs", "Sources", "Tests", "Examples"] { files += walk(root + "/" + directory) }
        return files.filter { $0.hasSuffix(".md") || $0.hasSuffix(".swift") }
    }

    static func walk(_ directory: String) -> [String] {
        guard let handle = opendir(directory) else { return [] }
        defer { closedir(handle) }
        var files: [String] = []
        while let entry = readdir(handle) {
            let name = directoryEntryName(entry)
            guard !name.hasPrefix(".") else { continue }
            let path = directory + "/" + name
            if entry.pointee.d_type == DT_DIR { files += walk(path) } else { files.append(path) }
        }
        return files
    }

    static func read(_ path: String) -> String {
        guard let bytes = readWholeFile(path, limit: 16 << 20) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
