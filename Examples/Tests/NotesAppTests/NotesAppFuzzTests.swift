import HostProcess
import Protocol
import SceneHostTesting
import Testing

/// Nobody wrote a test for it, and the fuzzer finds it: the notes app keeps its items in
/// memory only, and saves the open item's draft only when its screen appears and on its
/// autosave timer, so what the user changed since (a row swiped away, a title typed) is lost
/// when the system kills the suspended app.
@Suite struct NotesAppFuzzTests {
    @Test func theFuzzerFindsTheLostChange() async throws {
        let report = try await fuzz(
            worker: [try WorkerExecutable.builtProduct(named: "notes-app")],
            root: "ItemsViewController",
            runs: 60,
            steps: 12,
            seconds: 60
        )
        let failure = try #require(report.failure, "no failure in \(report.runs) runs")
        #expect(failure.kind == .restoration)
        // Shrunk to what a person would write as a test: change something, leave, come back.
        #expect(failure.steps.count <= 4, "\(failure.steps)")
        #expect(
            failure.steps.contains {
                switch $0 {
                case .op(.user(.typeText)), .op(.user(.swipeRow)): true
                default: false
                }
            },
            "\(failure.steps)"
        )
        #expect(failure.steps.last == .systemKill)
    }
}
