import HostTools
import Protocol
import SceneHostTesting
import SceneModel
import Testing

@testable import HostProcess

/// A push's payload (issue 16): carried by scenario steps, the Swift API and the CLI to the
/// worker's controller factory, and bounded like every other request.
@Suite struct PushPayloadTests {
    @Test func aScenarioStepCarriesThePayloadAndWritesItBack() throws {
        let json: JSONValue = ["op": "push", "scene": "A", "vc": "Detail", "payload": ["id": 42, "tags": ["a"]]]
        let step = try Scenario.step(fromJSON: json)
        guard case .scene("A", .push("Detail", let payload)) = step else {
            Issue.record("parsed as \(step)")
            return
        }
        #expect(payload == ["id": 42, "tags": ["a"]])
        #expect(JSONValue.object(step.jsonObject) == json)

        // Without one, none; on another op it is an unknown field.
        let plain = try Scenario.step(fromJSON: ["op": "push", "scene": "A", "vc": "Detail"])
        #expect(plain.jsonObject["payload"] == nil)
        #expect(throws: ScenarioError.self) {
            try Scenario.step(fromJSON: ["op": "pop", "scene": "A", "payload": 1])
        }
        var deep: JSONValue = 1
        for _ in 0...ControlServerFrame.maximumValueDepth { deep = [deep] }
        #expect(throws: ScenarioError.self) {
            try Scenario.step(fromJSON: ["op": "push", "scene": "A", "vc": "Detail", "payload": deep])
        }
    }

    @Test func aPayloadOverTheFrameLimitIsRefusedAndTheWorkerLives() async throws {
        try await withSceneHost(configuration: TestWorker.payloadConfiguration()) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            let pid = try #require(await scene.status().pid)

            // The request around a string payload, so that the largest fitting one is exact.
            var envelope: [UInt8] = []
            HostCommand.request(id: Int.max, .push(viewController: "Detail", payload: "")).encode(into: &envelope)
            let fitting = (1 << 20) - envelope.count
            try await scene.push("Detail", payload: .string(String(repeating: "x", count: fitting)))
            try await scene.pop()

            let tooLarge = JSONValue.string(String(repeating: "x", count: fitting + 1))
            await #expect {
                try await scene.push("Detail", payload: tooLarge)
            } throws: {
                guard case .requestTooLarge(_, "push", _)? = $0 as? HostError else { return false }
                return true
            }
            let status = await scene.status()
            #expect(status.pid == pid && status.process == .running && status.stack == ["Root"])
        }
    }

    @Test func theCommandLineSendsAPayload() async throws {
        let server = try await TestServer.start()
        defer { server.kill() }
        #expect(try await server.run("connect", "A").status == 0)
        let pushed = try await server.run("push", "A", "--vc", "Detail", "--payload", #"{"id":42}"#)
        #expect(pushed.status == 0, "\(pushed.stderr)")
        #expect(try await server.scenes()["A"]?.stack == ["Root", "Detail"])
        let help = try await runHostctlClient(["push", "--help"])
        #expect(help.stdout.contains("--payload"), "\(help.stdout)")
        try await server.quit()
    }
}
