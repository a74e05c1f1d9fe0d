/// A caller waiting for the scene's status to satisfy a predicate (`waitFor`).
extension SceneMachine {
    struct Waiter: Sendable {
        var caller: CallerID
        var what: String
        var predicate: @Sendable (SceneStatus) -> Bool
    }
}
