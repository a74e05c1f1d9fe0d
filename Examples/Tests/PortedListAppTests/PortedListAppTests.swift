import HostProcess
import Protocol
import SceneHostTesting
import Testing

/// The UIKit list/detail app of `Porting/ListApp.uikit.swift.txt`, ported with a handful of
/// edits, driven through real worker processes with the public API only.
@Suite struct PortedListAppTests {
    /// What the app saves while an item is open: its `NSUserActivity`, as the host stores it.
    static func viewing(_ id: Int, _ name: String) -> JSONValue {
        [
            "activityType": "com.example.ListApp.viewingItem",
            "title": .string(name),
            "userInfo": ["itemID": .int(id)],
        ]
    }

    static func configuration() throws -> HostConfiguration {
        .forTesting(worker: [try WorkerExecutable.builtProduct(named: "list-app-worker")])
    }

    @Test func theListLaunchesAsTheStoryboardRoot() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            try await host.scene("List").connect(root: "ListViewController")
            try host.expectCallbacks(
                of: "List",
                [
                    "willFinishLaunching", "didFinishLaunching", "configurationForConnecting", "willConnectTo",
                    "ListViewController.loadView", "ListViewController.viewDidLoad",
                    "ListViewController.viewWillAppear", "ListViewController.viewIsAppearing",
                    "ListViewController.viewWillLayoutSubviews",
                    "ListViewController.viewDidLayoutSubviews", "sceneWillEnterForeground", "sceneDidBecomeActive",
                    "ListViewController.viewDidAppear",
                ]
            )
        }
    }

    @Test func aPushCarriesTheItemAsItsPayloadAndTheOpenItemIsSaved() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            let list = try host.scene("List")
            try await list.move(to: .foregroundActive, root: "ListViewController")
            let opening = try await host.callbacks(of: "List") {
                try await list.push("DetailViewController", payload: ["id": 42])
            }
            #expect(opening.first == "DetailViewController.loadView")
            #expect(opening.last == "DetailViewController.viewDidAppear")

            try await list.move(to: .background)
            #expect(host.restoration(of: "List") == Self.viewing(42, "Towel"))

            // Back on the list, the scene's activity is cleared: nothing is saved.
            try await list.move(to: .foregroundActive)
            try await list.pop()
            try await list.move(to: .background)
            #expect(host.restoration(of: "List") == nil)
        }
    }

    @Test func recreateRestoresTheOpenItemFromTheSessionsActivity() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            let list = try host.scene("List")
            try await list.move(to: .foregroundActive, root: "ListViewController")
            try await list.push("DetailViewController", payload: ["id": 2])

            let mark = host.lastEventSeq
            try await list.recreate()  // background (saves), SIGKILL, reconnect, foreground

            // The new process read `session.stateRestorationActivity` and pushed the detail
            // in `scene(_:willConnectTo:options:)`, before anything appeared.
            let restored = host.trace.history.last { $0.scene == "List" && $0.name == "willConnectTo" }
            #expect(restored?.restoration == Self.viewing(2, "Bread"))
            let status = await list.status()
            #expect(status.activation == .foregroundActive)
            #expect(status.stack == ["ListViewController", "DetailViewController"])
            let callbacks = host.callbacks(of: "List", after: mark)
            #expect(callbacks.contains("DetailViewController.viewDidAppear"))
            #expect(!callbacks.contains("ListViewController.viewDidAppear"))

            // The restored detail saves the same item again.
            try await list.move(to: .background)
            #expect(host.restoration(of: "List") == Self.viewing(2, "Bread"))
        }
    }

    @Test func aDetailPushedWithoutAnItemFailsAndChangesNothing() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            let list = try host.scene("List")
            try await list.move(to: .foregroundActive, root: "ListViewController")
            await #expect(throws: HostError.self) {
                try await list.push("DetailViewController", payload: ["id": 7])
            }
            #expect(await list.status().stack == ["ListViewController"])
        }
    }
}
