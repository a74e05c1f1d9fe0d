import HostProcess
import HostTools
import Protocol
import Testing

/// `hostctl fuzz` against an app with lifecycle bugs planted on request
/// (Tests/Fixtures/FuzzTarget): each is found, shrunk to a few steps, and fails again when
/// replayed; the app without bugs gives no false report.
@Suite(.serialized) struct LifecycleFuzzTests {
    static var app: String {
        String(TestWorker.hostctl.dropLast("hostctl".count)) + "fuzz-target-fixture"
    }

    static func configuration(_ bug: String) -> FuzzConfiguration {
        var configuration = FuzzConfiguration(worker: [app, bug])
        configuration.root = "MessagesViewController"
        // A seed whose first runs reach each planted bug (runs are reproducible by seed):
        // under a sanitizer a run takes seconds, and how many runs another seed needs
        // changes with the fuzzer's mix of steps (`hostctl fuzz` finds each within seconds in
        // a plain build, whatever the seed).
        configuration.seed = 9
        configuration.runs = 60
        configuration.steps = 12
        configuration.seconds = 60
        configuration.host.launchLimit = .seconds(60)
        configuration.host.transitionLimit = .seconds(30)
        return configuration
    }

    @Test(arguments: [
        ("draft", FuzzFailure.Kind.restoration), ("count", .restoration), ("background-task", .killed),
        ("timer", .timer),
    ])
    func aPlantedBugIsFoundShrunkAndReplayed(bug: String, kind: FuzzFailure.Kind) async throws {
        let configuration = Self.configuration(bug)
        let report = try await Fuzzer.run(configuration)
        let failure = try #require(report.failure, "\(bug): nothing found in \(report.runs) runs")
        #expect(failure.kind == kind, "\(failure)")
        #expect(failure.steps.count <= 8, "\(failure.steps)")
        #expect(failure.steps.count <= report.original?.steps.count ?? 0)
        // The scenario it writes reads back as the same steps, and they fail again.
        let scenario = try Scenario(json: Array(Fuzzer.scenario(failure, configuration).description.utf8))
        let (root, steps) = try #require(Fuzzer.steps(of: scenario))
        #expect(root == configuration.root)
        #expect(steps == failure.steps)
        let again = try #require(try await Fuzzer.replay(steps, configuration), "the shrunk run held on replay")
        #expect(again.kind == kind)
        // The scenario says what it shows, and the replay is told apart from another failure.
        let recorded = try #require(scenario.recordedFailure)
        #expect(recorded == Scenario.RecordedFailure(kind: kind.rawValue, message: failure.message))
        #expect(again.matches(recorded))
        #expect(!again.matches(Scenario.RecordedFailure(kind: "trace", message: "")) || kind == .trace)
        if kind == .restoration {
            #expect(failure.left != nil && failure.restored != nil && failure.left != failure.restored)
        }
    }

    /// A seed gives the same failure however many instances run it: the lowest failing run,
    /// with the same steps.
    @Test func aSeedGivesTheSameFailureWhateverTheInstances() async throws {
        var reports: [FuzzReport] = []
        for instances in [1, 3] {
            var configuration = Self.configuration("count")
            configuration.instances = instances
            reports.append(try await Fuzzer.run(configuration))
        }
        let failingRuns = reports.map(\.failingRun)
        #expect(failingRuns[0] != nil && failingRuns[0] == failingRuns[1], "\(failingRuns)")
        #expect(reports[0].original?.steps == reports[1].original?.steps)
    }

    @Test func theAppWithoutBugsGivesNoFalseReport() async throws {
        var configuration = Self.configuration("none")
        configuration.runs = 16
        let report = try await Fuzzer.run(configuration)
        #expect(report.failure == nil, "\(report.failure.map { "\($0): \($0.steps)" } ?? "")")
        #expect(report.runs == 16 || report.seconds >= 60)
        #expect(report.steps > 0)
    }

    /// The rows of the first table of a stack's controller (`\.first`: the root, `\.last`:
    /// the top) in a visible tree; nil when it shows none.
    static func tableRows(in tree: JSONValue, at controller: KeyPath<[JSONValue], JSONValue?>) -> [JSONValue]? {
        guard case .array(let stack)? = tree["stack"], case .array(let views)? = stack[keyPath: controller]?["views"],
            case .array(let sections)? = views.first?["table"], case .array(let rows)? = sections.first?["rows"]
        else { return nil }
        return rows
    }

    /// The user's hands include dragging rows (`moveRow`) once a table is editing: on an app
    /// whose list has an Edit button, the fuzzer taps it and drags a row, which an invariant
    /// that the list keeps its first order catches; the app saves the order and the editing
    /// mode, so no run breaks restoration.
    @Test func aTableInEditingModeHasItsRowsDragged() async throws {
        var configuration = Self.configuration("editable")
        configuration.steps = 30
        configuration.invariants = [
            FuzzInvariant("the first messages keep their order") { tree, _ in
                guard let rows = Self.tableRows(in: tree, at: \.first) else { return nil }
                let first = ["Lunch?", "Running late", "See you"]
                let texts = rows.compactMap { row -> String? in
                    guard case .string(let text)? = row["text"], first.contains(text) else { return nil }
                    return text
                }
                return texts == first.filter(texts.contains) ? nil : "now \(texts)"
            }
        ]
        let report = try await Fuzzer.run(configuration)
        let failure = try #require(report.failure, "no run dragged a row in \(report.runs) runs")
        #expect(failure.kind == .invariant, "\(failure)")
        #expect(failure.message.hasPrefix("the first messages keep their order"), "\(failure.message)")
        #expect(failure.steps.contains { "\($0)".contains("moveRow") }, "\(failure.steps)")
    }

    @Test func aUsersInvariantIsChecked() async throws {
        var configuration = Self.configuration("none")
        configuration.invariants = [
            FuzzInvariant("never a message") { tree, _ in
                guard let rows = Self.tableRows(in: tree, at: \.last) else { return nil }
                return rows.isEmpty ? nil : "\(rows.count) message(s)"
            }
        ]
        configuration.steps = 30
        configuration.runs = 60
        let report = try await Fuzzer.run(configuration)
        let failure = try #require(report.failure)
        #expect(failure.kind == .invariant)
        #expect(failure.message.hasPrefix("never a message"))
    }
}
