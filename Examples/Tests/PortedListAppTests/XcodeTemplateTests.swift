import HostProcess
import SceneHostTesting
import Testing

/// Xcode's iOS App template, compiled with only its `import UIKit` changed (and `@main` moved
/// to main.swift), runs a whole lifecycle that verifies against the model.
@Suite struct XcodeTemplateTests {
    @Test func theTemplateAppRunsEveryState() async throws {
        let worker = try WorkerExecutable.builtProduct(named: "template-worker")
        try await withSceneHost(configuration: .forTesting(worker: [worker])) { host in
            let scene = try host.scene("Main")
            try await scene.move(to: .foregroundActive, root: "ViewController")
            #expect(host.callbacks(of: "Main").contains("ViewController.viewDidLoad"))
            try await scene.move(to: .background)
            #expect(host.restoration(of: "Main") == nil)  // the template saves nothing
            try await scene.recreate()
            try await scene.move(to: .unattached)
            #expect(await scene.status().activation == .unattached)
        }
    }
}
