import Testing

@testable import SceneWorker

/// A window reaches its scene as UIKit's `windowScene` does, weakly, through the scene's link
/// (`WindowSceneLink`): the scene while it lives, nil once it is gone.
@MainActor
@Suite struct WindowSceneLinkTests {
    private static func makeScene(window: Window) -> UIWindowScene {
        let session = SceneSession(
            persistentIdentifier: "S",
            role: SceneSession.windowApplicationRole,
            configuration: SceneConfiguration(
                name: "Default Configuration",
                sessionRole: SceneSession.windowApplicationRole
            )
        )
        return UIWindowScene(session: session, window: window)
    }

    private static func makeWindow() -> Window {
        let root = NavigationController(rootViewController: UIViewController(restorationIdentifier: "Root"))
        return Window(rootViewController: root, size: Size(width: 390, height: 844))
    }

    @Test func aWindowReachesItsSceneWhileTheSceneLives() {
        let window = Self.makeWindow()
        let scene = Self.makeScene(window: window)
        #expect(window.windowScene === scene)
        #expect(window.isKeyWindow)
        // A window made in code for the scene reaches it too.
        let madeInCode = UIWindow(windowScene: scene)
        #expect(madeInCode.windowScene === scene)
    }

    @Test func aWindowOutlivingItsSceneReachesNone() {
        let window = Self.makeWindow()
        var scene: UIWindowScene? = Self.makeScene(window: window)
        let madeInCode = UIWindow(windowScene: scene!)
        #expect(window.windowScene != nil)
        scene = nil
        #expect(window.windowScene == nil)
        #expect(!window.isKeyWindow)
        #expect(madeInCode.windowScene == nil)
    }

    /// Holds a scene for another thread to release.
    private final class Holder: @unchecked Sendable {
        var scene: UIWindowScene?
        init(_ scene: UIWindowScene) { self.scene = scene }
    }

    @Test func aSceneReleasedOnAnotherThreadIsClearedOnTheMainThread() async {
        let window = Self.makeWindow()
        let holder = Holder(Self.makeScene(window: window))
        #expect(window.windowScene != nil)
        // Its last reference goes on a thread of the global executor; its deinit, isolated
        // to the main actor, is queued there, behind this test's turns.
        await Task.detached { holder.scene = nil }.value
        var turns = 0
        while window.windowScene != nil, turns < 1000 {
            await Task.yield()
            turns += 1
        }
        #expect(window.windowScene == nil)
    }
}
