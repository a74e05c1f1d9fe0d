import HostProcess
import Protocol
import SceneHostTesting
import Testing

/// The inbox app, driven through real worker processes with the public API only.
@Suite struct InboxTests {
    /// What the app saves for restoration, as these tests read it back.
    struct SavedInbox: Decodable, Equatable {
        var selectedItemID: Int?
        var readItemIDs: [Int]
    }

    static func configuration() throws -> HostConfiguration {
        .forTesting(worker: [try WorkerExecutable.builtProduct(named: "inbox-worker")])
    }

    @Test func launchShowsTheList() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            try await host.scene("Inbox").connect(root: "List")
            try host.expectCallbacks(
                of: "Inbox",
                [
                    "willFinishLaunching", "didFinishLaunching", "configurationForConnecting", "willConnectTo",
                    "List.loadView", "List.viewDidLoad",
                    "List.viewWillAppear", "List.viewIsAppearing",
                    "List.viewWillLayoutSubviews", "List.viewDidLayoutSubviews",
                    "sceneWillEnterForeground", "sceneDidBecomeActive", "List.viewDidAppear",
                ]
            )
        }
    }

    @Test func openingAnItemIsSavedWhenTheSceneEntersTheBackground() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            let inbox = try host.scene("Inbox")
            try await inbox.move(to: .foregroundActive, root: "List")
            let opening = try await host.callbacks(of: "Inbox") { try await inbox.push("Detail", payload: ["id": 2]) }
            #expect(opening.first == "Detail.loadView" && opening.last == "Detail.viewDidAppear")

            try await inbox.move(to: .background)
            #expect(
                try host.restoration(of: "Inbox", as: SavedInbox.self)
                    == SavedInbox(selectedItemID: 2, readItemIDs: [2])
            )
        }
    }

    @Test func recreateBringsBackTheOpenItemAndTheReadOnes() async throws {
        try await withSceneHost(configuration: try Self.configuration()) { host in
            let inbox = try host.scene("Inbox")
            try await inbox.connect(root: "List")
            try await inbox.push("Detail", payload: ["id": 1])
            try await inbox.pop()
            try await inbox.push("Detail", payload: ["id": 3])

            try await inbox.recreate()  // background (saves), SIGKILL, reconnect, foreground

            let status = await inbox.status()
            #expect(status.activation == .foregroundActive && status.stack == ["List"])
            let restored = host.trace.history.last { $0.scene == "Inbox" && $0.name == "willConnectTo" }
            #expect(
                try restored?.restoration?.decode(SavedInbox.self)
                    == SavedInbox(selectedItemID: 3, readItemIDs: [1, 3])
            )

            // The new process saves what it restored, though it shows only the list.
            try await inbox.move(to: .background)
            #expect(
                try host.restoration(of: "Inbox", as: SavedInbox.self)
                    == SavedInbox(selectedItemID: 3, readItemIDs: [1, 3])
            )
        }
    }

    @Test(arguments: [ActivationState.foregroundInactive, .background, .unattached])
    func everyStateIsReachableAndTheTraceVerifies(_ state: ActivationState) async throws {
        // withSceneHost verifies the whole trace against the lifecycle model after the quit.
        try await withSceneHost(configuration: try Self.configuration()) { host in
            let inbox = try host.scene("Inbox")
            try await inbox.move(to: .foregroundActive, root: "List")
            try await inbox.push("Detail", payload: ["id": 4])
            try await inbox.move(to: state)
            #expect(await inbox.status().activation == state)
            try await inbox.move(to: .foregroundActive, root: "List")
            #expect(await inbox.status().activation == .foregroundActive)
        }
    }
}
