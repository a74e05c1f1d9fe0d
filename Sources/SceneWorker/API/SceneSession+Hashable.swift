/// Sessions are equal when they are the same session (the same persistent identifier), so
/// that `Set<UISceneSession>` works, as in `application(_:didDiscardSceneSessions:)`.
extension SceneSession: Hashable {
    public nonisolated static func == (lhs: SceneSession, rhs: SceneSession) -> Bool {
        lhs.persistentIdentifier == rhs.persistentIdentifier
    }

    public nonisolated func hash(into hasher: inout Hasher) {
        hasher.combine(persistentIdentifier)
    }
}
