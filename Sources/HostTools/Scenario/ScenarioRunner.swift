import HostProcess
import Protocol
import SceneModel

/// Runs a scenario's steps one after another on a host.
public struct ScenarioRunner: Sendable {
    /// A step that failed, or succeeded when it was expected to fail.
    public struct StepFailure: Error, Sendable, CustomStringConvertible {
        public var step: Int
        public var op: String
        public var message: String
        public var description: String { "step \(step) (\(op)): \(message)" }
    }

    public let host: SceneHost
    /// Hears each `inspect` step's answer, the scene's visible tree, with the step's number
    /// (from 1): `hostctl run` prints it. Nil: the tree is asked for and dropped.
    public var onInspect: (@Sendable (_ step: Int, _ scene: String, _ tree: JSONValue) -> Void)?

    public init(
        host: SceneHost,
        onInspect: (@Sendable (_ step: Int, _ scene: String, _ tree: JSONValue) -> Void)? = nil
    ) {
        self.host = host
        self.onInspect = onInspect
    }

    /// Runs every entry; stops at the first unexpected outcome. Quits the host at the end
    /// (or at a `quit` step).
    ///
    /// The steps run on the host's event loop (the scenes' executor), so a step reaches its
    /// scene and hears back without a thread hop on either side.
    public func run(_ scenario: Scenario) async throws(StepFailure) {
        try await withTaskExecutorPreference(host.taskExecutor) { () async throws(StepFailure) in
            try await runSteps(scenario)
        }
    }

    private func runSteps(_ scenario: Scenario) async throws(StepFailure) {
        for (index, entry) in scenario.entries.enumerated() {
            let number = index + 1
            do {
                try await run(entry.step, number: number)
                if entry.expectsError {
                    await host.quit()
                    throw StepFailure(step: number, op: entry.step.opName, message: "succeeded but expectError is true")
                }
            } catch let failure as StepFailure {
                throw failure
            } catch {
                if !entry.expectsError {
                    await host.quit()
                    throw StepFailure(step: number, op: entry.step.opName, message: "\(error)")
                }
            }
            if case .quit = entry.step { return }
        }
        await host.quit()
    }

    private func run(_ step: Scenario.Step, number: Int) async throws {
        switch step {
        case .scene(let scene, .inspect):
            let tree = try await host.inspect(scene)
            onInspect?(number, scene, tree)
        case .scene(let scene, let op):
            try await host.perform(op, on: scene)
        case .memoryPressure:
            await host.memoryPressure()
        case .waitFor(let scene, let condition, let timeout):
            let handle = try host.scene(scene)
            switch condition {
            case .state(let state): try await handle.waitFor(state, timeout: timeout)
            case .process(let process): try await handle.waitFor(process: process, timeout: timeout)
            }
        case .sleep(let duration):
            try await Task.sleep(for: duration)
        case .quit:
            await host.quit()
        }
    }
}

extension Scenario.Step {
    /// The model's operation for the step.
    public var operation: LifecycleOperation {
        switch self {
        case .scene(_, let op): op.kind
        case .memoryPressure: .memoryPressure
        case .waitFor: .waitFor
        case .sleep: .sleep
        case .quit: .quit
        }
    }

    /// The op name as the scenario file writes it.
    public var opName: String { operation.rawValue }
}
