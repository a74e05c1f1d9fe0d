import Glibc
import HostProcess
import Protocol
import SceneHostTesting
import Testing

/// No silent no-ops: every UIKit signature an app may write either runs when UIKit would call
/// it (the app's own code says so, in a file), or fails to compile.
@Suite struct UIKitSignatureTests {
    static var signaturesApp: String {
        String(TestWorker.hostctl.dropLast("hostctl".count)) + "uikit-signatures-fixture"
    }

    /// What Tests/Fixtures/UIKitSignatures declares, each as `#function` names it.
    static let expected: Set<String> = [
        "application(_:willFinishLaunchingWithOptions:)", "application(_:didFinishLaunchingWithOptions:)",
        "application(_:configurationForConnecting:options:)", "application(_:didDiscardSceneSessions:)",
        "applicationDidReceiveMemoryWarning(_:)", "applicationWillTerminate(_:)",
        "scene(_:willConnectTo:options:)", "sceneDidDisconnect(_:)", "sceneDidBecomeActive(_:)",
        "sceneWillResignActive(_:)", "sceneWillEnterForeground(_:)", "sceneDidEnterBackground(_:)",
        "stateRestorationActivity(for:)", "scene(_:restoreInteractionStateWith:)", "scene(_:openURLContexts:)",
        "scene(_:continue:)", "windowScene(_:didUpdate:interfaceOrientation:traitCollection:)",
        "windowScene(_:performActionFor:completionHandler:)", "willTransition(to:with:)",
        "application(_:didReceiveRemoteNotification:fetchCompletionHandler:)",
        "userNotificationCenter(_:didReceive:withCompletionHandler:)",
        "loadView()", "viewDidLoad()", "viewWillAppear(_:)", "viewIsAppearing(_:)", "viewDidAppear(_:)",
        "viewWillDisappear(_:)", "viewDidDisappear(_:)", "viewWillLayoutSubviews()", "viewDidLayoutSubviews()",
        "viewWillTransition(to:with:)", "traitCollectionDidChange(_:)", "didReceiveMemoryWarning()",
        "awakeFromNib()", "touchesBegan(_:with:)", "touchesEnded(_:with:)", "willMove(toParent:)",
        "didMove(toParent:)",
        "presentationControllerShouldDismiss(_:)", "presentationControllerWillDismiss(_:)",
        "presentationControllerDidDismiss(_:)",
        "presentationControllerDidAttemptToDismiss(_:)",
    ]

    @Test func everySignatureTheRuntimeCallsRuns() async throws {
        let log = makeTemporaryDirectory() + "/signatures.log"
        #expect(writeFile(log, ""))
        var configuration = TestWorker.configuration()
        configuration.worker = [Self.signaturesApp]
        configuration.workerEnvironment = ["SIGNATURE_LOG": log]
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            // Three launches and two dozen transitions, beside the suite's compiles: a launch's
            // limit for each launch.
            try await within(TestLimit.launch * 3, "a whole life") {
                try await scene.connect()
                try await scene.tap()
                try await scene.resize(width: 1000, height: 800)
                try await scene.addChild("ViewController")
                try await scene.memoryWarning()
                try await scene.present("SheetViewController")
                try await scene.swipeDismiss()
                try await scene.push("ViewController")
                try await scene.pop()
                try await scene.openURL("signatures://open/item%207?x=1")
                try await scene.continueUserActivity("com.example.continue")
                try await scene.quickAction(
                    "com.example.compose",
                    userInfo: .object(["draft": .string("hello"), "count": .int(3)])
                )
                try await scene.openNotification(userInfo: .object(["thread": .string("t")]))
                try await scene.remoteNotification(userInfo: .object(["sync": .bool(true)]))
                // Another session of the app is discarded while this worker runs.
                let other = try host.scene("B")
                try await other.connect()
                try await other.discard()
                try await scene.background()
                try await scene.waitFor(process: .suspended, timeout: TestLimit.event)
                try await scene.kill()
                try await scene.connect()  // restores the saved activity
                try await scene.present("ModalSheetViewController")
                try await scene.swipeDismiss()  // modal: only the attempt
            }
        }
        let ran = Set(LifecycleDocsTests.read(log).split(separator: "\n").map(String.init))
        #expect(
            Self.expected.subtracting(ran).isEmpty,
            "declared but never ran: \(Self.expected.subtracting(ran).sorted())"
        )
        // What the system hands the app reads as UIKit's types do: a Foundation URL, and
        // `userInfo` values that cast to their Swift types.
        #expect(ran.contains("url scheme=signatures host=open path=/item 7"), "\(ran.sorted())")
        #expect(ran.contains("shortcut draft=hello count=3"), "\(ran.sorted())")
        #expect(ran.contains("notification thread=t"), "\(ran.sorted())")
    }

    /// The notification callback's async form, written instead of the completion-handler
    /// one, runs (it compiled and was never called).
    @Test func theAsyncFormOfTheNotificationCallbackRuns() async throws {
        let log = makeTemporaryDirectory() + "/signatures.log"
        #expect(writeFile(log, ""))
        var configuration = TestWorker.configuration()
        configuration.worker = [Self.signaturesApp]
        configuration.workerEnvironment = ["SIGNATURE_LOG": log, "ASYNC_NOTIFICATIONS": "1"]
        try await withSceneHost(configuration: configuration) { host in
            let scene = try host.scene("A")
            try await scene.connect()
            try await scene.openNotification(userInfo: .object(["thread": .string("t")]))
            // The async form runs in a main-actor task after the callback: a request after it
            // is read once that task ran (the worker runs queued work before the next request).
            try await scene.tap()
        }
        let ran = LifecycleDocsTests.read(log).split(separator: "\n").map(String.init)
        #expect(ran.contains("userNotificationCenter(_:didReceive:)"), "\(ran)")
    }

    @Test func everySignatureTheRuntimeDoesNotCallFailsToCompile() async throws {
        let (source, text, run, output) = try await Self.typecheck("Unsupported")
        let declared = text.split(separator: "\n").filter { $0.contains("func ") || $0.contains("override var ") }.count
        #expect(run.exit != .exited(status: 0), "the unsupported signatures compiled:\n\(output)")
        let refusals = Set(
            output.split(separator: "\n").filter { $0.contains("cannot be overridden") && $0.hasPrefix(source) }
                .map { $0.split(separator: ":")[1] }
        )
        #expect(refusals.count == declared, "\(declared) declarations, \(refusals.count) refused:\n\(output)")
        #expect(output.contains("Sources/UIKit/Unsupported.swift"), "the note points at what to write instead")
    }

    /// Calls with no meaning under scenehost (opening another app's URL) fail to compile,
    /// each with a message that says what to do instead.
    @Test func everyCallWithNoMeaningHereFailsToCompileSayingWhatToDo() async throws {
        let (source, text, run, output) = try await Self.typecheck("UnavailableCalls")
        let calls = text.split(separator: "\n").filter { $0.contains("UIApplication.shared.") }.count
        #expect(run.exit != .exited(status: 0), "the calls compiled:\n\(output)")
        let refusals = output.split(separator: "\n").filter {
            $0.hasPrefix(source) && $0.contains("is unavailable: no other app")
        }
        #expect(refusals.count == calls, "\(calls) calls, \(refusals.count) refused:\n\(output)")
        #expect(output.contains("openURL"), "the message names the host's openURL")
    }

    /// UIKit calls scenehost has no model for (the screen, the idle timer, background time,
    /// push registration, loading a view early, a container's delegate, scrolling) fail to
    /// compile, each saying what to write instead.
    @Test func everyCallWithNoModelHereFailsToCompileSayingWhatToWrite() async throws {
        let output = try await Self.expectEveryMarkedLineRefused(in: "MissingCalls", saying: "is unavailable: ")
        #expect(output.contains("view.window?.size"), "the screen's message names what to read")
    }

    /// A navigation or tab bar controller's own callbacks fail to compile, each saying what to
    /// write instead.
    @Test func aContainersOwnCallbacksFailToCompile() async throws {
        _ = try await Self.expectEveryMarkedLineRefused(in: "Containers", saying: "error:")
    }

    /// Type-checks the fixture `name` and expects one error per line marked `// refused`, each
    /// containing `words` and naming scenehost (what to write instead). Returns the output.
    static func expectEveryMarkedLineRefused(in name: String, saying words: String) async throws -> String {
        let (source, text, run, output) = try await typecheck(name)
        let refused = text.split(separator: "\n").filter { $0.hasSuffix("// refused") }.count
        #expect(run.exit != .exited(status: 0), "\(name) compiled:\n\(output)")
        let refusals = Set(
            output.split(separator: "\n").filter {
                $0.hasPrefix(source) && $0.contains(words) && $0.contains("scenehost")
            }.map { $0.split(separator: ":")[1] }
        )
        #expect(refusals.count == refused, "\(refused) refused lines, \(refusals.count) refusals:\n\(output)")
        return output
    }

    /// Type-checks the fixture `Tests/Fixtures/UIKitUnsupported/NAME.swift.txt` against the
    /// built UIKit module: the source's path, its text, the run and its output.
    static func typecheck(
        _ name: String
    ) async throws -> (
        source: String, text: String, run: (exit: ChildExit, stdout: [UInt8], stderr: [UInt8]), output: String
    ) {
        let bin = String(TestWorker.hostctl.dropLast("/hostctl".count))
        let source = makeTemporaryDirectory() + "/\(name).swift"
        let text = LifecycleDocsTests.read(
            LifecycleDocsTests.root + "/Tests/Fixtures/UIKitUnsupported/\(name).swift.txt"
        )
        #expect(writeFile(source, text))
        let run = try await CapturedRun.run([
            executable(named: "swiftc"), "-typecheck", "-swift-version", "6", "-I", bin + "/Modules",
            "-Xcc", "-fmodule-map-file=" + bin + "/CSceneHostSys.build/module.modulemap",
            "-I", LifecycleDocsTests.root + "/Sources/CSceneHostSys/include", source,
        ])
        return (source, text, run, String(decoding: run.stderr + run.stdout, as: UTF8.self))
    }

    /// `name` on the `PATH`, else the name itself (spawning it then fails, naming it).
    static func executable(named name: String) -> String {
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin"
        for directory in path.split(separator: ":") where access("\(directory)/\(name)", X_OK) == 0 {
            return "\(directory)/\(name)"
        }
        return name
    }
}
