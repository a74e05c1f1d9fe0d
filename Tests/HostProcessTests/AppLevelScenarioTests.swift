import HostProcess
import HostTools
import Protocol
import SceneModel
import Testing

/// The app level's scenario fields and op (`connect`'s `url`, `width`, `height`; `tap`),
/// named as the command-line contract names them.
@Suite struct AppLevelScenarioTests {
    private func step(_ json: String) throws -> Scenario.Step {
        guard case .object(let object) = try JSONParser.parse(Array(json.utf8)) else {
            throw ScenarioError("not an object")
        }
        return try Scenario.step(fromJSON: .object(object))
    }

    @Test func connectTakesAURLAndALaunchSize() throws {
        let parsed = try step(#"{"op":"connect","scene":"A","url":"notes://7","width":844,"height":390}"#)
        #expect(
            parsed
                == .scene(
                    "A",
                    .connect(launch: LaunchParameters(url: "notes://7", width: 844, height: 390))
                )
        )
        // And back: the step as a scenario file writes it.
        #expect(try Scenario.step(fromJSON: .object(parsed.jsonObject)) == parsed)
        #expect(try step(#"{"op":"tap","scene":"A"}"#) == .scene("A", .tap))
        let activity = try step(#"{"op":"continueUserActivity","scene":"A","activityType":"edit","userInfo":{"id":1}}"#)
        #expect(
            activity == .scene("A", .continueUserActivity(activityType: "edit", userInfo: .object(["id": .int(1)])))
        )
        #expect(try Scenario.step(fromJSON: .object(activity.jsonObject)) == activity)
        #expect(try step(#"{"op":"openURL","scene":"A","url":"x://y"}"#) == .scene("A", .openURL(url: "x://y")))
    }

    @Test func halfASizeOrABadFieldIsAnErrorNamingIt() {
        #expect(throws: ScenarioError.self) { try step(#"{"op":"connect","scene":"A","width":844}"#) }
        #expect(throws: ScenarioError.self) { try step(#"{"op":"connect","scene":"A","width":0,"height":3}"#) }
        #expect(throws: ScenarioError.self) { try step(#"{"op":"connect","scene":"A","url":""}"#) }
        #expect(throws: ScenarioError.self) { try step(#"{"op":"tap","scene":"A","vc":"X"}"#) }
        #expect(throws: ScenarioError.self) { try step(#"{"op":"openURL","scene":"A"}"#) }
        #expect(throws: ScenarioError.self) { try step(#"{"op":"continueUserActivity","scene":"A"}"#) }
    }
}
