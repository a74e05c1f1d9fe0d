import HostProcess
import Protocol
import SceneHostTesting
import Testing

/// Nobody wrote a test for it, and the fuzzer finds it: the notes app saves the open item's
/// draft only when its screen appears and on its autosave timer, so text typed since then is
/// lost when the system kills the suspended app.
@Suite struct NotesAppFuzzTests {
    @Test func theFuzzerFindsTheLostDraft() async throws {
        let report = try await fuzz(
            worker: [try WorkerExecutable.builtProduct(named: "notes-app")],
            root: "ItemsViewController",
            runs: 60,
            steps: 12,
            seconds: 60
        )
        let failure = try #require(report.failure, "no failure in \(report.runs) runs")
        #expect(failure.kind == .restoration)
        // Shrunk to what a person would write as a test: open an item, type, leave, come back.
        #expect(failure.steps.count <= 4, "\(failure.steps)")
        #expect(failure.steps.contains { if case .op(.user(.typeText)) = $0 { true } else { false } })
        #expect(failure.steps.last == .systemKill)
    }
}
