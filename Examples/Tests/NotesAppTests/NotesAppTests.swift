import HostProcess
import Protocol
import SceneHostTesting
import Testing

/// The notes app of `Porting/NotesApp.uikit.swift.txt`, ported by changing one line, driven as
/// its user would drive it: rows, a text field, a Save button, the app switcher, a kill.
@Suite struct NotesAppTests {
    static func configuration() throws -> HostConfiguration {
        .forTesting(worker: [try WorkerExecutable.builtProduct(named: "notes-app")])
    }

    /// The titles of the rows the top controller's table shows.
    static func rows(_ tree: JSONValue) -> [String] {
        guard case .array(let stack)? = tree["stack"], case .array(let views)? = stack.last?["views"],
            case .array(let sections)? = views.first?["table"], case .array(let rows)? = sections.first?["rows"]
        else { return [] }
        return rows.compactMap { if case .string(let text)? = $0["text"] { text } else { nil } }
    }

    static func top(_ tree: JSONValue) -> JSONValue? {
        guard case .array(let stack)? = tree["stack"] else { return nil }
        return stack.last
    }

    @Test func aUserEditsAnItemAndSavesIt() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            let notes = try host.scene("Notes")
            try await notes.connect(root: "ItemsViewController")
            #expect(Self.rows(try await notes.inspect()) == ["Milk", "Bread", "Coffee"])

            try await notes.selectRow(2)
            let detail = try await notes.inspect()
            #expect(Self.top(detail)?["title"] == "Coffee")
            #expect(
                Self.top(detail)?["views"] == [
                    ["field": "title", "identifier": "title", "placeholder": "Title", "text": "Coffee"]
                ]
            )

            try await notes.typeText("Decaf", into: "title")
            try await notes.tapControl("Save")
            let list = try await notes.inspect()
            #expect(Self.top(list)?["vc"] == "ItemsViewController")
            #expect(Self.rows(list) == ["Milk", "Bread", "Decaf"])
            try host.verifyTrace()
        }
    }

    /// The user swipes an item away: the standard Delete runs the app's
    /// `tableView(_:commit:forRowAt:)`.
    @Test func aUserSwipesAnItemAway() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            let notes = try host.scene("Notes")
            try await notes.connect(root: "ItemsViewController")
            try await notes.swipeRow(1, action: "Delete")
            #expect(Self.rows(try await notes.inspect()) == ["Milk", "Coffee"])
            await #expect(throws: HostError.self, "a swipe to the right reveals nothing") {
                try await notes.swipeRow(0, edge: .leading)
            }
            try host.verifyTrace()
        }
    }

    /// The user leaves the app on an item; the system kills it while suspended; the user
    /// comes back to the same screen (restoration through `NSUserActivity`).
    @Test func theScreenTheUserLeftComesBackAfterAKill() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            let notes = try host.scene("Notes")
            try await notes.connect(root: "ItemsViewController")
            try await notes.selectRow(1)
            let left = try await notes.inspect()
            try await notes.background()
            try await notes.waitFor(process: .suspended, timeout: .seconds(10))
            try await notes.recreate()
            try await notes.foreground()
            let restored = try await notes.inspect()
            #expect(restored.withoutTransientViews == left.withoutTransientViews)
            #expect(Self.top(restored)?["vc"] == "DetailViewController")
            try host.verifyTrace()
        }
    }

    /// The app's observer of `didEnterBackgroundNotification` hears it right after the scene
    /// delegate's `sceneDidEnterBackground`, as on iOS.
    @Test func theBackgroundNotificationFollowsTheSceneDelegate() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            let notes = try host.scene("Notes")
            try await notes.connect(root: "ItemsViewController")
            let entering = try await host.callbacks(of: "Notes") { try await notes.background() }
            let index = try #require(entering.firstIndex(of: "sceneDidEnterBackground"))
            #expect(
                Array(entering[(index + 1)...].prefix(2)) == [
                    "UISceneDidEnterBackgroundNotification", "UIApplicationDidEnterBackgroundNotification",
                ]
            )
            // Nothing else may run in the user's hands now: the scene is in the background.
            await #expect(throws: HostError.self) { try await notes.selectRow(0) }
        }
    }
}
