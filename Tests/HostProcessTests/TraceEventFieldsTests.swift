import Protocol
import SceneModel
import Testing

/// An event keeps the fields of callbacks and state changes in its box, and those of process,
/// error and a few host events in a second box that most events do not have: every field
/// reads back what was set, a copy is changed apart from its original, and an event whose
/// rare fields are all cleared again equals (and hashes as) one that never had them.
@Suite struct TraceEventFieldsTests {
    @Test func everyRareFieldReadsBackAndTheCopyStaysApart() {
        let original = TraceEvent(
            kind: .process,
            scene: "A",
            processEvent: .exited,
            pid: 42,
            reason: .killed,
            status: 3,
            signal: "KILL",
            restoration: ["stack": ["Root"]],
            notification: "sync",
            code: 2,
            message: "gone",
            argv: ["w", "x"],
            silent: true,
            tabCount: 4,
            app: "Mail"
        )
        #expect(original.hasRareFields)
        var copy = original
        copy.pid = 7
        copy.app = nil
        #expect(original.pid == 42 && original.app == "Mail")
        #expect(copy.pid == 7 && copy.app == nil)
        #expect(
            copy.processEvent == .exited && copy.reason == .killed && copy.status == 3 && copy.signal == "KILL"
                && copy.restoration == ["stack": ["Root"]] && copy.notification == "sync" && copy.code == 2
                && copy.message == "gone" && copy.argv == ["w", "x"] && copy.silent == true && copy.tabCount == 4
        )
        #expect(copy != original)
    }

    @Test func aCallbackHasNoRareBoxAndClearingTheLastRareFieldDropsIt() {
        let callback = TraceEvent(kind: .callback, scene: "A", name: "viewDidLoad", viewController: "Root")
        #expect(!callback.hasRareFields)
        var changed = callback
        changed.pid = 9
        #expect(changed.hasRareFields && changed != callback)
        changed.pid = nil
        #expect(!changed.hasRareFields)
        #expect(changed == callback)
        #expect(changed.hashValue == callback.hashValue)
    }
}
