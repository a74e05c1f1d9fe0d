/// A caller waiting for the scene's status to satisfy a predicate (`waitFor`).
extension SceneMachine {
    package struct Waiter: Sendable {
        package var caller: CallerID
        package var what: String
        package var predicate: @Sendable (SceneStatus) -> Bool
    }
}
