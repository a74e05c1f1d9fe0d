/// A window scene, as `UIWindowScene`: the class of every worker's scene. Delegate methods
/// take a `Scene` (`UIScene`), so that the template's `guard let _ = (scene as? UIWindowScene)`
/// is a real cast, and it always succeeds.
@MainActor
public final class UIWindowScene: Scene {}
