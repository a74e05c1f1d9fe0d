// swift-tools-version:6.2
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

// Linux only (x86_64 or arm64, kernel 5.3+): the host and the worker runtime are built on
// epoll, pidfds, prctl and posix_spawn through Glibc. There is no `platforms:` entry because
// SwiftPM can only list minimum Apple OS versions, and any Apple entry would claim a build
// that fails; `Protocol` alone is plain Swift with no imports.
let package = Package(
    name: "scenehost",
    products: [
        .library(name: "Protocol", targets: ["Protocol"]),
        .library(name: "SceneWorker", targets: ["SceneWorker"]),
        // `import UIKit` in a ported app: the worker runtime under UIKit's names, with Foundation.
        .library(name: "UIKit", targets: ["UIKit", "UserNotifications"]),
        .library(name: "HostProcess", targets: ["HostProcess"]),
        // For tests in your own package: withSceneHost, the worker locator, callback assertions.
        .library(name: "SceneHostTesting", targets: ["SceneHostTesting"]),
        .executable(name: "hostctl", targets: ["hostctl"]),
    ],
    targets: [
        // libdispatch: its run-loop hooks for the worker's main queue (MainQueueWake.c).
        .target(name: "CSceneHostSys", linkerSettings: [.linkedLibrary("dispatch")]),
        .target(name: "Protocol", swiftSettings: strict),
        .target(name: "SceneWorker", dependencies: ["Protocol", "CSceneHostSys"], swiftSettings: strict),
        // UIKit for Linux: SceneWorker plus Foundation's run loop and notification center.
        .target(name: "UIKit", dependencies: ["SceneWorker", "Protocol"], swiftSettings: strict),
        // `import UserNotifications` beside `import UIKit`: the notification center's names.
        .target(name: "UserNotifications", dependencies: ["SceneWorker"], swiftSettings: strict),
        // The pure model: the scene machine, the lifecycle rules and the trace checker. Events in,
        // actions out; no I/O and no clock (it imports nothing but Protocol).
        .target(name: "SceneModel", dependencies: ["Protocol"], swiftSettings: strict),
        .target(name: "HostProcess", dependencies: ["SceneModel", "Protocol", "CSceneHostSys"], swiftSettings: strict),
        // The tools on the runtime: the control server and client, scenarios, stress, timelines.
        .target(name: "HostTools", dependencies: ["HostProcess", "SceneModel", "Protocol"], swiftSettings: strict),
        // The command line's own plumbing: arguments, usage errors, exit codes.
        .target(name: "CLISupport", dependencies: ["Protocol"], swiftSettings: strict),
        // `hostctl bench`: the benchmarks and their floors, apart from what they measure.
        .target(
            name: "HostBench",
            dependencies: ["CLISupport", "HostTools", "HostProcess", "Protocol", "CSceneHostSys"],
            swiftSettings: strict
        ),
        .executableTarget(
            name: "hostctl",
            dependencies: [
                "Protocol", "SceneWorker", "HostProcess", "HostTools", "HostBench", "CLISupport", "CSceneHostSys",
            ],
            swiftSettings: strict
        ),
        .target(
            name: "SceneHostTesting",
            dependencies: ["HostProcess", "HostTools", "Protocol"],
            swiftSettings: strict
        ),
        // The test suite's own app on the worker runtime. (Examples/ is a package of its own.)
        .executableTarget(
            name: "custom-worker-fixture",
            dependencies: ["Protocol", "SceneWorker"],
            path: "Tests/Fixtures/CustomWorker",
            swiftSettings: strict
        ),
        // The test suite's UIKit app: `import UIKit` and `@main`, as an iOS developer writes one.
        .executableTarget(
            name: "uikit-app-fixture",
            dependencies: ["UIKit"],
            path: "Tests/Fixtures/UIKitApp",
            swiftSettings: strict
        ),
        // Every UIKit signature the runtime calls, each proving it ran (UIKitSignatureTests).
        .executableTarget(
            name: "uikit-signatures-fixture",
            dependencies: ["UIKit", "UserNotifications"],
            path: "Tests/Fixtures/UIKitSignatures",
            swiftSettings: strict
        ),
        // An app with lifecycle bugs planted on request (`--bug`), for `hostctl fuzz` to find.
        .executableTarget(
            name: "fuzz-target-fixture",
            dependencies: ["UIKit"],
            path: "Tests/Fixtures/FuzzTarget",
            swiftSettings: strict
        ),
        // The Foundation half of `hostctl bench`'s codec benchmark, kept out of hostctl (every
        // worker is hostctl, and linking Foundation would cost each one memory and start time).
        .executableTarget(name: "FoundationJSONBench", swiftSettings: strict),
        .testTarget(name: "ProtocolTests", dependencies: ["Protocol"], swiftSettings: strict),
        .testTarget(name: "SceneWorkerTests", dependencies: ["SceneWorker", "Protocol"], swiftSettings: strict),
        .testTarget(
            name: "HostProcessTests",
            dependencies: [
                "SceneModel", "HostProcess", "HostTools", "HostBench", "CLISupport", "Protocol", "SceneHostTesting",
                "hostctl", "custom-worker-fixture", "uikit-app-fixture", "uikit-signatures-fixture",
                "fuzz-target-fixture",
                "FoundationJSONBench",
            ],
            swiftSettings: strict
        ),
        .testTarget(
            name: "SceneHostTestingTests",
            dependencies: ["SceneHostTesting", "HostProcess", "Protocol", "hostctl", "custom-worker-fixture"],
            swiftSettings: strict
        ),
    ]
)
