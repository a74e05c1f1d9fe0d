import HostProcess
import SceneHostTesting
import Testing

/// Xcode's iOS App template, compiled as generated (`import UIKit`, `@main` on the app
/// delegate), runs a whole lifecycle that verifies against the model. The host's default
/// root is the storyboard's initial controller, `ViewController`.
@Suite struct XcodeTemplateTests {
    @Test func theTemplateAppRunsEveryState() async throws {
        let worker = try WorkerExecutable.builtProduct(named: "template-worker")
        try await withSceneHost(configuration: .forTesting(worker: [worker])) { host in
            let scene = try host.scene("Main")
            try await scene.move(to: .foregroundActive)
            #expect(
                host.callbacks(of: "Main").prefix(4) == [
                    "willFinishLaunching", "didFinishLaunching", "UIApplicationDidFinishLaunchingNotification",
                    "configurationForConnecting",
                ]
            )
            #expect(host.callbacks(of: "Main").contains("Root.viewDidLoad"), "made the storyboard way")
            try await scene.move(to: .background)
            #expect(host.restoration(of: "Main") == nil)  // the template saves nothing
            try await scene.recreate()
            try await scene.move(to: .unattached)
            #expect(await scene.status().activation == .unattached)
        }
    }
}
