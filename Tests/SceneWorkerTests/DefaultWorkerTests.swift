import Protocol
import Testing

@testable import SceneWorker

@Suite("hostctl worker options")
struct DefaultWorkerOptionsTests {
    @Test func noOptions() {
        #expect(DefaultWorkerOptions.parse([]) == .run(FaultPlan()))
    }

    @Test func everyOption() {
        var plan = FaultPlan()
        plan.hangIn = .sceneDidEnterBackground
        plan.crashIn = .viewDidLoad
        plan.ignoreSIGTERM = true
        plan.garbageAfterHandshake = true
        #expect(
            DefaultWorkerOptions.parse([
                "--hang-in", "sceneDidEnterBackground", "--crash-in=viewDidLoad", "--ignore-sigterm", "--garbage",
            ]) == .run(plan)
        )
    }

    @Test func help() {
        #expect(DefaultWorkerOptions.parse(["--help"]) == .help)
        #expect(DefaultWorkerOptions.parse(["--garbage", "-h"]) == .help)
    }

    @Test func errors() {
        #expect(DefaultWorkerOptions.parse(["--bogus"]) == .failure("unknown option '--bogus'"))
        #expect(DefaultWorkerOptions.parse(["worker"]) == .failure("unexpected argument 'worker'"))
        #expect(DefaultWorkerOptions.parse(["--hang-in"]) == .failure("option --hang-in needs a callback name"))
        #expect(
            DefaultWorkerOptions.parse(["--crash-in", "viewDidExplode"])
                == .failure("unknown callback 'viewDidExplode' for --crash-in")
        )
        #expect(DefaultWorkerOptions.parse(["--garbage=1"]) == .failure("option --garbage takes no value"))
    }
}

@MainActor
@Suite("The recording app")
struct RecordingAppTests {
    @Test func restorationShowsWhatItWasRestoredFrom() {
        let first = Harness()
        first.connect()
        first.send(.push(viewController: "Detail"))
        first.send(.resize(width: 800, height: 600))
        first.send(.notify(name: "a", value: .int(1)))
        first.send(.notify(name: "b", value: .int(2)))
        first.send(.enterBackground)
        let saved = first.lastResult
        #expect(
            saved
                == .object([
                    "stack": .array([.string("Root"), .string("Detail")]),
                    "size": .object(["width": .int(800), "height": .int(600)]),
                    "notifications": .int(2),
                ])
        )

        let second = Harness()
        second.connect(background: true, reconnect: true, restoration: saved)
        guard case .object(let restored)? = second.lastResult else {
            Issue.record("no restoration")
            return
        }
        #expect(restored["restoredFrom"] == saved)
        // The app rebuilt the whole stack it saved.
        #expect(restored["stack"] == .array([.string("Root"), .string("Detail")]))

        // A third generation keeps only one level of history.
        let third = Harness()
        third.connect(background: true, reconnect: true, restoration: second.lastResult)
        guard case .object(let again)? = third.lastResult, case .object(let from)? = again["restoredFrom"] else {
            Issue.record("no restoration")
            return
        }
        #expect(from["restoredFrom"] == nil)
        #expect(from["stack"] == .array([.string("Root"), .string("Detail")]))
    }
}
