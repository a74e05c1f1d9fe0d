// swift-tools-version:6.2
import PackageDescription

// A user's own package: an app ported to the worker runtime, and Swift Testing tests that
// drive it through real worker processes. It depends on scenehost by path, as a package of
// yours would depend on it by URL.
let package = Package(
    name: "scenehost-examples",
    dependencies: [
        .package(name: "scenehost", path: "..")
    ],
    targets: [
        // The worker: a list/detail app with state restoration.
        .executableTarget(
            name: "inbox-worker",
            dependencies: [
                .product(name: "SceneWorker", package: "scenehost"),
                .product(name: "Protocol", package: "scenehost"),
            ],
            path: "Sources/InboxWorker",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A UIKit list/detail app ported with a handful of edits: compare ListApp.swift with
        // Porting/ListApp.uikit.swift.txt, its UIKit original.
        .executableTarget(
            name: "list-app-worker",
            dependencies: [.product(name: "SceneWorker", package: "scenehost")],
            path: "Sources/PortedListApp",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // Xcode's iOS App template, its three files as generated (`import UIKit`, `@main`).
        .executableTarget(
            name: "template-worker",
            dependencies: [.product(name: "UIKit", package: "scenehost")],
            path: "Sources/XcodeTemplate",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // A UIKit notes app written as for iOS (Porting/NotesApp.uikit.swift.txt), unchanged
        // but for a formatter comment: `import UIKit`, `@main`, a table in a plain controller,
        // a timer, a notification observer, restoration through NSUserActivity.
        .executableTarget(
            name: "notes-app",
            dependencies: [.product(name: "UIKit", package: "scenehost")],
            path: "Sources/NotesApp",
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "NotesAppTests",
            dependencies: [
                "notes-app",
                .product(name: "SceneHostTesting", package: "scenehost"),
                .product(name: "HostProcess", package: "scenehost"),
                .product(name: "Protocol", package: "scenehost"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .testTarget(
            name: "PortedListAppTests",
            dependencies: [
                "list-app-worker",
                "template-worker",
                .product(name: "SceneHostTesting", package: "scenehost"),
                .product(name: "HostProcess", package: "scenehost"),
                .product(name: "Protocol", package: "scenehost"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // The worker is a dependency of the tests: that is what makes `swift test` build it
        // beside the test bundle, where `WorkerExecutable.builtProduct(named:)` finds it.
        .testTarget(
            name: "InboxTests",
            dependencies: [
                "inbox-worker",
                .product(name: "SceneHostTesting", package: "scenehost"),
                .product(name: "HostProcess", package: "scenehost"),
                .product(name: "Protocol", package: "scenehost"),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
