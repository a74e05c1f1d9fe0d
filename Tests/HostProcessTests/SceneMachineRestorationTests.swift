import HostTools
import Protocol
import SceneModel
import Testing

@testable import HostProcess

/// What the host stores of a scene's `stateRestorationActivity` answers (LIFECYCLE.md §2,
/// "Enter background"): the last answer, and nothing once the scene answers nil.
@Suite struct SceneMachineRestorationTests {
    static func stores(_ harness: SceneMachineHarness) -> Int {
        harness.count { if case .storeSession = $0 { true } else { false } }
    }

    @Test func aNilAnswerClearsWhatAnEarlierOneStoredAndStoresNothingWhenThereWasNone() {
        var harness = SceneMachineHarness()
        harness.connect()
        let connected = Self.stores(harness)  // the session itself, on connect
        let first = harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground], result: nil)
        #expect(harness.succeeded(first))
        // Nothing was stored and nothing is: no write at all.
        #expect(Self.stores(harness) == connected)
        #expect(harness.machine.session?.restoration == nil)

        _ = harness.request(.foreground)
        harness.reply(callbacks: [.sceneWillEnterForeground, .sceneDidBecomeActive])
        _ = harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground], result: ["item": 42])
        #expect(harness.machine.session?.restoration == ["item": 42])
        #expect(Self.stores(harness) == connected + 1)

        _ = harness.request(.foreground)
        harness.reply(callbacks: [.sceneWillEnterForeground, .sceneDidBecomeActive])
        let cleared = harness.request(.background)
        harness.reply(callbacks: [.sceneDidEnterBackground], result: nil)
        #expect(harness.succeeded(cleared))
        #expect(Self.stores(harness) == connected + 2)
        #expect(harness.machine.session != nil)
        #expect(harness.machine.session?.restoration == nil)
    }
}

@Suite struct SceneSessionLifecycleKindTests {
    /// An app-based session says so in its file, a scene-based one's file is as before, and
    /// an unknown kind reads as scene-based rather than losing the session.
    @Test func theKindRoundTripsThroughTheSessionFile() throws {
        let app = SceneSession(identifier: "A", lifecycle: .app)
        #expect(SceneSession(json: app.json) == app)
        let scene = SceneSession(identifier: "B")
        guard case .object(let fields) = scene.json else {
            Issue.record("not an object")
            return
        }
        #expect(fields["lifecycle"] == nil)
        var newer = fields
        newer["lifecycle"] = .string("watch")
        #expect(SceneSession(json: .object(newer))?.lifecycle == nil)
    }

    /// A session stores its app; a name that is not one reads as none (a process of its
    /// own) rather than losing the session.
    @Test func theAppRoundTripsThroughTheSessionFile() throws {
        let mail = SceneSession(identifier: "A", app: "Mail")
        #expect(SceneSession(json: mail.json) == mail)
        guard case .object(var fields) = mail.json else {
            Issue.record("not an object")
            return
        }
        fields["app"] = .string("../Mail")
        #expect(SceneSession(json: .object(fields)) == SceneSession(identifier: "A"))
        guard case .object(let plain) = SceneSession(identifier: "B").json else { return }
        #expect(plain["app"] == nil)
    }

    /// After a host restart, a connect that asks for no lifecycle asks for the stored one.
    @Test func aStoredAppBasedSessionIsAskedForAgain() {
        var harness = SceneMachineHarness(session: SceneSession(identifier: "A", lifecycle: .app))
        harness.request(.connect(background: false, root: "Root", worker: nil))
        let asked = harness.actions.compactMap { action -> LifecycleKind?? in
            guard case .write(let commands) = action, case .hello(_, let lifecycle, _)? = commands.first else {
                return nil
            }
            return lifecycle
        }
        #expect(asked == [.app])
    }
}
