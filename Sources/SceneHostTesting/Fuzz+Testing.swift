import HostProcess
import Protocol

@_exported import struct HostTools.FuzzConfiguration
@_exported import struct HostTools.FuzzFailure
@_exported import struct HostTools.FuzzInvariant
@_exported import struct HostTools.FuzzReport
@_exported import enum HostTools.FuzzStep
@_exported import enum HostTools.Fuzzer

/// `hostctl fuzz` from a test: random legal lifecycles against `worker`, checked against the
/// lifecycle model, restoration after the system kills the suspended app, the app never
/// being killed for a legal lifecycle, and `invariants`; the first failure shrunk.
///
/// ```swift
/// let report = try await fuzz(worker: [try WorkerExecutable.builtProduct(named: "notes-app")],
///                             root: "ItemsViewController", runs: 50)
/// #expect(report.failure == nil, "\(report.failure!)")   // the steps, shrunk
/// ```
public func fuzz(
    worker: [String],
    root: String = "Root",
    seed: UInt64 = 1,
    runs: Int = 50,
    steps: Int = 20,
    seconds: Double? = nil,
    instances: Int = 2,
    invariants: [FuzzInvariant] = []
) async throws -> FuzzReport {
    var configuration = FuzzConfiguration(worker: worker)
    configuration.root = root
    configuration.seed = seed
    configuration.runs = runs
    configuration.steps = steps
    configuration.seconds = seconds
    configuration.instances = instances
    configuration.invariants = invariants
    return try await Fuzzer.run(configuration)
}
