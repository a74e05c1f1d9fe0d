// swift-tools-version:6.0
import PackageDescription

let strict: [SwiftSetting] = [
    .swiftLanguageMode(.v6)
]

let package = Package(
    name: "scenehost",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Protocol", targets: ["Protocol"]),
        .library(name: "SceneWorker", targets: ["SceneWorker"]),
        .library(name: "HostProcess", targets: ["HostProcess"]),
        .executable(name: "hostctl", targets: ["hostctl"]),
    ],
    targets: [
        .target(name: "CSceneHostSys"),
        .target(name: "Protocol", swiftSettings: strict),
        .target(name: "SceneWorker", dependencies: ["Protocol", "CSceneHostSys"], swiftSettings: strict),
        .target(name: "HostProcess", dependencies: ["Protocol", "CSceneHostSys"], swiftSettings: strict),
        .executableTarget(
            name: "hostctl",
            dependencies: ["Protocol", "SceneWorker", "HostProcess"],
            swiftSettings: strict
        ),
        // An app of your own on the worker runtime: see Examples/CustomWorker.
        .executableTarget(
            name: "custom-worker-example",
            dependencies: ["Protocol", "SceneWorker"],
            path: "Examples/CustomWorker",
            exclude: ["scenario.json"],
            swiftSettings: strict
        ),
        // The Foundation half of `hostctl bench`'s codec benchmark, kept out of hostctl (every
        // worker is hostctl, and linking Foundation would cost each one memory and start time).
        .executableTarget(name: "FoundationJSONBench", swiftSettings: strict),
        .testTarget(name: "ProtocolTests", dependencies: ["Protocol"], swiftSettings: strict),
        .testTarget(name: "SceneWorkerTests", dependencies: ["SceneWorker", "Protocol"], swiftSettings: strict),
        .testTarget(
            name: "HostProcessTests",
            dependencies: ["HostProcess", "Protocol", "hostctl", "custom-worker-example", "FoundationJSONBench"],
            swiftSettings: strict
        ),
    ]
)
